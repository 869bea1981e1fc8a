"""The server's jobs in its search processes (:mod:`atout.runner.process` runs them).

The pool (:mod:`atout.server.pool`) sends (:class:`~atout.runner.process.JobKind`, job,
position object, options); the answer is a :class:`Done` or a :class:`Failed` (named
tuples: the process runner routes every message by its first two items, the tag and the
job; everyone else reads the fields by name).  A ``Done``'s ``result`` is one form for
every kind: the plain object the command line writes, which the HTTP API answers as it is
and the gRPC service turns into its message (:mod:`atout.proto.convert`) — so a field of
the JSON reaches an HTTP client whether the proto has it or not.  By kind: SOLVE the
result line of ``atout solve`` (``SolveResult.to_json()``); ANALYZE the report of ``atout
analyze --json``; ANALYZE_STREAM {"report", "session"}, that report and the name it is
kept under in this process; TABLE the contract table's object, its cells told as they
change: ("progress", job, {"cells": [...]}); CARDS every legal card's value in one drawn
deal, {"exact", "values", "value", "width", "complete", "capped", "first"}
(atout.solver.advise.solve_cards, or budget_cards for a budgeted advice: options "budget").

An ANALYZE_STREAM is an analysis that tells what it finds as it goes, over the process's
:class:`~atout.runner.process.Channel`: ("progress", job, {"session", "resumed",
"threads"}) first, then ("progress", job, {"plays", "seats", "start_value",
"start_bounds", "made", "threads"}) each time verdicts change (at most every
``TELL_EVERY`` seconds), and once more before the answer with whatever its report holds
that was not told yet — the plays and totals told, applied in order, end as the report's.
A review can go on: this process keeps its last few analyses (``KEPT``, their tables
warm), and a review whose options name one (``session``) runs on with it instead of
starting again, telling what changed since the report the earlier one ended with.  While
it runs the pool may lend it more threads or take them back (``on_threads``:
``Analysis.want_threads``).

The search runs in a thread of the search process (it releases the GIL), so the process
keeps reading its pipe: a ("stop", job) sets the job's :class:`atout.solver.Cancel`, which
stops its search at once.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections import OrderedDict
from typing import Any, NamedTuple

from atout.runner.process import JobKind


class Done(NamedTuple):
    """A job that ended: ``status`` "ok", or "limit" where a limit (time, nodes, a stop)
    ended its search first; the ``nodes`` it searched (0 where its kind does not count
    them); its ``result`` (the module's docstring says what, by kind)."""
    tag: str
    job: Any
    status: str
    nodes: int
    result: Any


class Failed(NamedTuple):
    """A job that could not be done: ``kind`` "invalid" (the request's fault: ``field``
    names what was wrong), "unimplemented", "internal" (a bug), or, made by the front
    ends, "replaced" (a newer request took its slot) and "unavailable"; "stopped": asked
    to stop before it had anything to answer (no one waits for that answer)."""
    tag: str
    job: Any
    kind: str
    field: str | None
    reason: str


def done(job, status: str, nodes: int, result) -> Done:
    return Done("done", job, status, nodes, result)


def failed(job, kind: str, field: str | None, reason: str) -> Failed:
    return Failed("failed", job, kind, field, reason)


def _analyze_function():
    try:
        from atout.solver.analyze import analyze
    except ImportError:
        return None
    return analyze


#: the analyses a search process keeps for a review to go on with (each holds its table:
#: up to a few GB for a whole deal, mapped as it is used)
KEPT = 2
_kept: "OrderedDict[str, tuple]" = OrderedDict()     # session -> (key, Analysis)
#: the name of a review this process keeps: its pid, a dash, 16 hex digits
SESSION = re.compile(r"[0-9]{1,10}-[0-9a-f]{16}")
#: the least time between two of a review's progress messages
TELL_EVERY = 0.1


def _analyze_stream(obj: dict, options: dict, cancel, channel) -> tuple:
    """An analysis told as it goes: (status, nodes, {"report", "session"}), its verdicts
    told as they are found."""
    from atout.solver import MAX_THREADS
    from atout.solver.analyze import Analysis

    options = dict(options)
    options["threads"] = max(1, min(int(options.get("threads", 1)), MAX_THREADS))
    session, time_limit = options.pop("session", None), options.pop("time_limit", None)
    key = (json.dumps(obj, sort_keys=True), options.get("start", 0))
    kept = _kept.pop(session, None) if session else None
    if kept is not None and kept[0] == key:             # "keep going": the same analysis
        analysis = kept[1]
        analysis.want_threads(options["threads"])
        resumed = True
    else:
        if kept is not None:
            kept[1].close()
        analysis = Analysis(obj, **options)
        # the name says which process keeps it: the pool sends a review naming it there
        session = f"{os.getpid()}-{uuid.uuid4().hex[:16]}"
        resumed = False
    if channel is not None:
        channel.progress({"session": session, "resumed": resumed,
                          "threads": options["threads"]})
    while len(_kept) >= KEPT:                 # room for this one when it is done
        _kept.popitem(last=False)[1][1].close()
    progress = None
    if channel is not None:
        progress = _Progress(channel, analysis, analysis.report() if resumed else None)
        channel.on_threads = analysis.want_threads
    try:
        report = analysis.run(time_limit, cancel=cancel,
                              on_update=progress.changed if progress else None)
    finally:
        if channel is not None:
            channel.on_threads = None
    if progress is not None:
        progress.last(report)
    _kept[session] = (key, analysis)
    status = "limit" if report.get("stopped_by") else "ok"
    return status, 0, {"report": report, "session": session}


def _table(obj: dict, options: dict, cancel, channel) -> tuple:
    """A contract table: (status, nodes, the table's object), every cell told first, in
    the table's order, then the cells as they change — at most one message every
    :data:`TELL_EVERY` seconds, the cells changed meanwhile together, and the last ones
    before the answer."""
    from atout.solver.contract_table import contract_table

    waiting: dict = {}
    sent = [0.0]

    def tell() -> None:
        sent[0] = time.monotonic()
        if waiting:
            channel.progress({"cells": list(waiting.values())})
            waiting.clear()

    def on_cell(cell: dict) -> None:
        waiting[tuple(str(cell.get(k)) for k in ("seat", "contract", "called", "partner",
                                                 "objective", "ecart"))] = cell
        if time.monotonic() - sent[0] >= TELL_EVERY:
            tell()

    def on_start(cells: list) -> None:      # every cell, in the table's order, at once
        sent[0] = time.monotonic()
        channel.progress({"cells": cells})

    def on_threads(want) -> None:
        channel.on_threads = want

    talk = {"on_cell": on_cell, "on_start": on_start, "on_threads": on_threads} \
        if channel is not None else {}
    try:
        table = contract_table(obj, cancel=cancel, **options, **talk)
    finally:
        if channel is not None:
            channel.on_threads = None
    if channel is not None:
        tell()
    return table["status"], table["nodes"], table


def _summary(report: dict) -> dict:
    from atout.solver.analyze import summary
    return summary(report)


class _Progress:
    """A review's verdicts told to the parent as they change: at most one message every
    :data:`TELL_EVERY` seconds (the verdicts changed meanwhile go together), and before the
    answer one more with whatever the report says that was not told yet — so that a client
    applying every message in order ends with exactly the report's plays and totals, the
    last changes included.  A review that goes on (``before``: the report the earlier one
    ended with) tells what changed since that report."""

    def __init__(self, channel, analysis, before: dict | None):
        self.channel, self.analysis = channel, analysis
        # each card's verdict and the totals as the client has them
        self.told = {p["index"]: p for p in before["plays"]} if before else {}
        self.totals = _summary(before) if before else None
        self.waiting: dict[int, dict] = {}       # changed since the last message
        self.sent = 0.0

    def changed(self, plays: list) -> None:
        """``Analysis.run``'s ``on_update``."""
        self.waiting.update((p["index"], p) for p in plays)
        if time.monotonic() - self.sent >= TELL_EVERY:
            self._send(self.analysis.report())

    def last(self, report: dict) -> None:
        """Before the answer: the verdicts and totals of ``report`` not told yet (those the
        throttle held back, above all)."""
        self.waiting = {p["index"]: p for p in report["plays"]
                        if self.told.get(p["index"]) != p}
        if self.waiting or _summary(report) != self.totals:
            self._send(report)

    def _send(self, report: dict) -> None:
        self.sent = time.monotonic()
        changed = [self.waiting[i] for i in sorted(self.waiting)]
        self.waiting.clear()
        self.told.update((p["index"], p) for p in changed)
        self.totals = _summary(report)
        self.channel.progress({"plays": changed, **self.totals,
                               "threads": self.analysis.engines.threads})


def _solve(obj: dict, options: dict, cancel, channel) -> tuple:
    from atout.solver import solve

    r = solve(obj, cancel=cancel, **options)
    return r.status, r.nodes, r.to_json()


def _analyze(obj: dict, options: dict, cancel, channel) -> tuple:
    analyze = _analyze_function()
    if analyze is None:
        raise _Unimplemented("this server has no atout.analyze")
    report = analyze(obj, cancel=cancel, **options)
    # every card judged; "limit" where the time left some only bounded
    return ("limit" if report.get("stopped_by") else "ok"), 0, report


def _cards(obj: dict, options: dict, cancel, channel) -> tuple:
    from atout.position import parse_position
    from atout.solver.advise import budget_cards, solve_cards

    search = budget_cards if options.pop("budget", False) else solve_cards
    r = search(parse_position(obj), cancel=cancel, **options)
    return ("ok" if r.complete else "limit"), r.nodes, {
        "exact": r.exact, "values": r.values, "value": r.value, "width": r.width,
        "complete": r.complete, "capped": r.capped, "first": r.first}


class _Unimplemented(Exception):
    """A job this server cannot run."""


#: what each kind of job runs: (status, nodes, the result's plain object)
JOBS = {JobKind.SOLVE: _solve, JobKind.ANALYZE: _analyze,
        JobKind.ANALYZE_STREAM: _analyze_stream, JobKind.TABLE: _table, JobKind.CARDS: _cards}


def run_job(kind: JobKind | str, job, obj: dict, options: dict, cancel,
            channel=None) -> Done | Failed:
    """One call's search; its :class:`Done` or :class:`Failed` (never raises).  ``channel``: see
    :class:`~atout.runner.process.Channel` (the analysis told as it goes and the contract
    table tell what they find through it)."""
    from atout.errors import PositionError, Stopped

    try:
        work = JOBS[JobKind(kind)]
    except ValueError:
        return failed(job, "internal", "", f"unknown job kind {kind!r}")
    try:
        status, nodes, result = work(obj, options, cancel, channel)
        reply = done(job, status, nodes, result)
    except _Unimplemented as e:
        reply = failed(job, "unimplemented", "", str(e))
    except PositionError as e:
        reply = failed(job, "invalid", e.field, e.reason)
    except Stopped as e:
        reply = failed(job, "stopped", None, str(e))
    except ValueError as e:
        reply = failed(job, "invalid", "", str(e))
    except Exception as e:  # a bug: reported to the caller as INTERNAL, the worker goes on
        reply = failed(job, "internal", "", f"{type(e).__name__}: {e}")
    return reply


def prepare() -> None:
    """Import what every job kind needs now, so that the first call does not pay for it
    (0.56 s on the two-core machine: the messages, the table, the advice — the first
    review's last message reached its client past a 1 s deadline so)."""
    _analyze_function()
    import atout.proto.convert  # noqa: F401
    import atout.solver.advise  # noqa: F401
    import atout.solver.contract_table  # noqa: F401
