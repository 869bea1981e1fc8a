"""One search process of the server's pool: one search at a time, stoppable at any moment.

The process is spawned by :mod:`atout.server.pool` and talks over its pipe in tuples:

    parent → worker   ("solve" | "analyze" | "cards", job, position object, options)
                      ("stop", job)          stop that search now (cancelled / deadline)
                      ("exit",)
    worker → parent   ("ready", pid)
                      ("done", job, status, nodes, serialized atout.v1 message)
                      ("done", job, status, nodes, {"exact", "values", "value"})   for "cards":
                                             every legal card's value in one drawn deal
                                             (atout.solver.advise.solve_cards, for Advise)
                      ("failed", job, kind, field, reason)   kind: invalid | unimplemented | internal

The search runs in a thread (it releases the GIL) so the main thread keeps reading the
pipe: a "stop" sets the job's :class:`atout.solver.Cancel`, which stops its search at once.
"""

from __future__ import annotations

import os
import signal
import threading


class _Job:
    """The job running in this worker and the switch that stops its search."""

    def __init__(self):
        self.lock = threading.Lock()
        self.job = None
        self.cancel = None

    def begin(self, job):
        from atout.solver import Cancel

        with self.lock:
            self.job, self.cancel = job, Cancel()
            return self.cancel

    def end(self) -> None:
        with self.lock:
            self.job, self.cancel = None, None

    def stop(self, job=None) -> None:
        """Stop the running search (if ``job`` is given, only when it is that job)."""
        with self.lock:
            if self.job is None or (job is not None and job != self.job):
                return
            self.cancel.set()    # also stops the engines analyze makes after this


def _analyze_function():
    try:
        from atout.solver.analyze import analyze
    except ImportError:
        return None
    return analyze


def _run(conn, send_lock, current: _Job, cancel, kind: str, job, obj: dict, options: dict) -> None:
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
    current.end()
    with send_lock:
        conn.send(reply)


def main(conn) -> None:
    """The worker's loop (the target of the spawned process)."""
    # Ctrl-C in a terminal, `timeout`, systemd signal the whole process group: the
    # server drains, then tells its workers to exit (or they see the pipe close).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    current = _Job()
    _analyze_function()  # import now, so the first call does not pay for it
    send_lock = threading.Lock()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):  # the server is gone
            return
        if msg[0] == "exit":
            return
        if msg[0] == "stop":
            current.stop(msg[1])
            continue
        kind, job, obj, options = msg
        cancel = current.begin(job)
        threading.Thread(target=_run, args=(conn, send_lock, current, cancel, kind, job, obj, options),
                         name=f"search-{job}", daemon=True).start()
