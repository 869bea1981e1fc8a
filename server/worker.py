"""The server's jobs in its search processes (:mod:`atout.runner.process` runs them).

The pool (:mod:`atout.server.pool`) sends ("solve" | "analyze" | "cards", job, position object,
options); the answer is one of

    ("done", job, status, nodes, serialized atout.v1 message)
    ("done", job, status, nodes, {"exact", "values", "value"})   for "cards": every legal
                                           card's value in one drawn deal
                                           (atout.solver.advise.solve_cards, for Advise)
    ("failed", job, kind, field, reason)   kind: invalid | unimplemented | internal

The search runs in a thread of the search process (it releases the GIL), so the process
keeps reading its pipe: a ("stop", job) sets the job's :class:`atout.solver.Cancel`, which
stops its search at once.
"""

from __future__ import annotations


def _analyze_function():
    try:
        from atout.solver.analyze import analyze
    except ImportError:
        return None
    return analyze


def run_job(kind: str, job, obj: dict, options: dict, cancel) -> tuple:
    """One call's search; the answer tuple above (never raises)."""
    from atout.errors import PositionError
    from atout.proto import convert
    from atout.solver import solve

    try:
        if kind == "solve":
            r = solve(obj, cancel=cancel, **options)
            reply = ("done", job, r.status, r.nodes, convert.result_message(r).SerializeToString())
        elif kind == "analyze":
            analyze = _analyze_function()
            if analyze is None:
                reply = ("failed", job, "unimplemented", "", "this server has no atout.analyze")
            else:
                report = analyze(obj, cancel=cancel, **options)
                # every card judged; "limit" where the time left some only bounded
                status = "limit" if report.get("stopped_by") else "ok"
                data = convert.analysis_message(report, status).SerializeToString()
                reply = ("done", job, status, 0, data)
        elif kind == "cards":
            from atout.position import parse_position
            from atout.solver.advise import solve_cards

            r = solve_cards(parse_position(obj), cancel=cancel, **options)
            reply = ("done", job, "ok" if r.exact else "limit", r.nodes,
                     {"exact": r.exact, "values": r.values, "value": r.value})
        else:
            reply = ("failed", job, "internal", "", f"unknown job kind {kind!r}")
    except PositionError as e:
        reply = ("failed", job, "invalid", e.field, e.reason)
    except ValueError as e:
        reply = ("failed", job, "invalid", "", str(e))
    except Exception as e:  # a bug: reported to the caller as INTERNAL, the worker goes on
        reply = ("failed", job, "internal", "", f"{type(e).__name__}: {e}")
    return reply


def prepare() -> None:
    """Import the solver now, so that the first call does not pay for it."""
    _analyze_function()
