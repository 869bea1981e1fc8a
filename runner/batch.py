"""Solve a puzzle set, or analyse a session's played deals, on every core, resumably
(``atout batch``, ``atout batch --analyze``).

>>> from atout.batch import solve_all
>>> report = solve_all("puzzles.jsonl", "results.jsonl", workers=4)   # doctest: +SKIP
>>> report.solved, report.skipped, report.errors                      # doctest: +SKIP
>>> from atout.runner.batch import analyze_all
>>> analyze_all("deals.jsonl", "analyses.jsonl", time_limit=60)      # doctest: +SKIP

Each puzzle (one JSON Lines position) gives one result line in the output, written and
flushed as soon as it is solved, in the order the puzzles finish: the result of
:func:`atout.solver.solve` (docs/format.md, with ``status`` ok | limit) or, for a bad line,
``{"id", "status": "error", "field", "reason"}``; every result line also carries
``"input_line"``, the puzzle's 1-based line number in the input.  With
:func:`analyze_all` each played deal gives the object of
:func:`atout.solver.analyze.analyze` (``atout analyze --json``) with ``status`` (ok, or
limit where a limit left something not exact: every proven verdict is kept), the deal
itself (``position``), ``seconds`` and ``cpu_seconds`` (docs/format.md, "A session's
analyses").

Resuming: results are keyed by the puzzle's ``id``; a puzzle without an id (or whose id
is not unique in the input) is keyed by its line number (and its id).  A rerun skips
every puzzle whose result is already in the output; a torn last line (the run was
killed while writing it) is cut off first, so nothing is solved twice and nothing is
lost.  Only the main process writes the output, one whole line per ``write``.

Backends: ``local`` (default) is a pool of worker processes on this machine; ``ray``
(``pip install 'atout[ray]'``) sends the puzzles to a Ray cluster (``address``; by
default a local Ray instance is started).

This module is the run and its public API; beside it, one job each: :mod:`.files` (the
input's lines, the output's results read back and written), :mod:`.lines` (one line's
job in a search process), :mod:`.pools` (the local pool of search processes, Ray),
:mod:`.progress` (the bar on a terminal).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterator

from .files import WORKER_DIED, BatchError, ResultWriter, Source, Task, ident_of, read_done
from .lines import analyze_line, first_analysed, solve_line, table_line  # noqa: F401
from .pools import run_local, run_ray
from .process import JobKind
from .progress import Progress, is_terminal  # noqa: F401

__all__ = ["solve_all", "analyze_all", "table_all", "BatchReport", "BatchError"]


@dataclass
class BatchReport:
    """What a run did.  ``results`` holds this run's result lines when no output file was
    given (else None).  ``ok``/``limits``/``errors`` count every puzzle of the input,
    including those whose results were already in the output."""

    total: int = 0          # puzzles or deals (non-blank lines) in the input
    skipped: int = 0        # already in the output
    solved: int = 0         # results written by this run (solved or analysed)
    ok: int = 0
    limits: int = 0
    errors: int = 0
    seconds: float = 0.0
    repaired: bool = False  # a torn last line of the output was cut off
    workers_lost: int = 0   # worker processes that died (and were replaced)
    crashed: int = 0        # puzzles whose worker died twice: not written, tried again next run
    dropped: int = 0        # such results of an earlier run removed from the output
    results: list | None = None

    def count(self, status: str | None) -> None:
        if status == "ok":
            self.ok += 1
        elif status == "limit":
            self.limits += 1
        else:
            self.errors += 1


#: what a batch does with each line: solve it as a puzzle, analyse it as a played deal, or
#: work out its deal's contract table (the kinds of job a search process runs, the server's
#: as well: atout.runner.process.JobKind)
SOLVE, ANALYZE, TABLE = JobKind.SOLVE, JobKind.ANALYZE, JobKind.TABLE

#: this module's name, for :class:`~atout.runner.process.SearchProcess`: its ``run_job``
#: runs the lines in the search processes
JOBS = __name__
#: tries at starting a local Ray instance: Ray waits a fixed 30 s for its raylet to
#: register, which a busy two-core machine can take longer than (the next try finds the
#: machine's caches warm); one at reaching a cluster, whose start is not ours
RAY_LOCAL_STARTS = 3


def _work(kind: JobKind | str):
    """The function that does one line of ``kind`` (looked up here at each call: a test
    may replace it)."""
    return {SOLVE: solve_line, ANALYZE: analyze_line, TABLE: table_line}[JobKind(kind)]


def run_job(kind: JobKind | str, job, payload, opts: dict, cancel) -> tuple:
    """A search process's work (see :mod:`atout.runner.process`): one puzzle (``kind``
    SOLVE), played deal (ANALYZE) or deal's table (TABLE), ``payload`` being (raw line,
    line number, oversize)."""
    raw, line, oversize = payload
    return ("done", job, _work(kind)(raw, line, opts, oversize))


def worker_process() -> None:
    """The body of a batch search process (what ``SearchProcess(JOBS)`` runs)."""
    from .process import worker_process as serve
    serve(JOBS)


# -- the run ------------------------------------------------------------------------------------

def solve_all(source, output=None, *, workers: int | None = None, backend: str = "local",
              address: str | None = None, all_cards: bool = False,
              time_limit: float | None = None, node_limit: int | None = None,
              tt_mb: int | None = None, progress=None, progress_every: float = 0.2) -> BatchReport:
    """Solve every puzzle of ``source`` and write one result line each to ``output``.

    ``source``: a JSON Lines path (``-``: stdin) or an iterable of position objects or
    JSON strings.  ``output``: a path, appended to and resumed from (puzzles whose
    results are already there are skipped); None keeps this run's results in
    ``report.results``.  ``workers``: processes (default: every core; with Ray, the
    CPUs of a local instance).  ``backend``: ``local`` or ``ray`` (``address`` of the
    cluster; default: start a local instance).  ``all_cards``, ``time_limit``,
    ``node_limit``, ``tt_mb``: as :func:`atout.solver.solve`, per puzzle.
    ``progress``: a text stream for progress: a first line, then a bar when it is a
    terminal.

    A puzzle whose worker process dies twice (or whose Ray task fails) is not written to
    the output: it counts in ``report.crashed`` and the next run tries it again.
    Workers are fresh interpreters (not forks of the caller, nor re-imports of its main
    script), so a plain script may call this at top level.

    Raises :class:`BatchError` for problems with the run itself; a bad puzzle is a
    result line with status ``error``, never an exception.
    """
    from atout.solver import check_limits
    try:
        check_limits(time_limit, node_limit, tt_mb)
    except ValueError as e:
        raise BatchError(str(e)) from None
    opts = {"all_cards": bool(all_cards), "time_limit": time_limit, "node_limit": node_limit,
            "tt_mb": tt_mb}
    return _run(SOLVE, source, output, opts, workers, backend, address, progress,
                progress_every)


def analyze_all(source, output=None, *, workers: int | None = None, backend: str = "local",
                address: str | None = None, time_limit: float | None = None,
                tt_mb: int | None = None, threads: int = 1, start: int | None = None,
                last_tricks: int | None = None, progress=None,
                progress_every: float = 0.2) -> BatchReport:
    """Analyse every played deal of ``source`` card by card, as ``atout analyze`` does
    (:func:`atout.solver.analyze.analyze`), and write one result line each to ``output``.

    ``time_limit`` (seconds per deal; None: until every value is exact), ``tt_mb`` and
    ``threads`` (per analysis, default 1: the workers take the cores): as
    :func:`~atout.solver.analyze.analyze` takes them.  ``start`` (the cards taken as given)
    or ``last_tricks`` (only the last K tricks): where each deal's analysis begins, as
    ``atout analyze --start`` / ``--last-tricks``; a deal with fewer cards played than
    ``start`` is an error result naming ``start``.  A deal whose analysis the time limit
    stopped has status ``limit`` and keeps every verdict proven.  The rest — ``source``,
    ``output`` and resuming, ``workers``, ``backend``, ``address``, ``progress``, a worker
    that dies, the errors — as :func:`solve_all`.
    """
    from atout.solver import check_limits, check_threads

    def whole(value, least: int) -> bool:
        return value is None or (type(value) is int and value >= least)
    try:
        check_limits(time_limit, tt_mb=tt_mb)
        check_threads(threads)
    except ValueError as e:
        raise BatchError(str(e)) from None
    if not whole(start, 0):
        raise BatchError("start must be a whole number, 0 or more")
    if not whole(last_tricks, 1):
        raise BatchError("last_tricks must be a whole number, 1 or more")
    if start is not None and last_tricks is not None:
        raise BatchError("start and last_tricks: give one or the other")
    opts = {"time_limit": time_limit, "tt_mb": tt_mb, "threads": threads, "start": start,
            "last_tricks": last_tricks}
    return _run(ANALYZE, source, output, opts, workers, backend, address, progress,
                progress_every)


def table_all(source, output=None, *, workers: int | None = None, backend: str = "local",
              address: str | None = None, time_limit: float | None = None,
              tt_mb: int | None = None, threads: int = 1, contracts=None, values: bool = False,
              progress=None, progress_every: float = 0.2) -> BatchReport:
    """Work out the contract table of every deal of ``source`` (as ``atout table`` does:
    :func:`atout.solver.contract_table.contract_table`) and write one result line each to
    ``output``: the table with ``position``, ``seconds``, ``cpu_seconds`` and
    ``input_line``.  ``time_limit`` (seconds a deal; None: until every cell is settled),
    ``threads`` (searches at once a deal, default 1: the workers take the cores), ``tt_mb``,
    ``contracts`` and ``values``: as ``contract_table`` takes them.  The rest as
    :func:`solve_all`."""
    from atout.solver import check_limits, check_threads
    try:
        check_limits(time_limit, tt_mb=tt_mb)
        check_threads(threads)
    except ValueError as e:
        raise BatchError(str(e)) from None
    opts = {"time_limit": time_limit, "tt_mb": tt_mb, "threads": threads,
            "contracts": list(contracts) if contracts else None, "values": bool(values)}
    return _run(TABLE, source, output, opts, workers, backend, address, progress,
                progress_every)


def _run(job: JobKind, source, output, opts: dict, workers: int | None, backend: str,
         address: str | None, progress, progress_every: float) -> BatchReport:
    """Run ``job`` (SOLVE or ANALYZE) on every line of ``source`` not done yet in ``output``
    (see :func:`solve_all`)."""
    if backend not in ("local", "ray"):
        raise BatchError(f"unknown backend {backend!r} (local or ray)")
    if workers is not None and (isinstance(workers, bool) or int(workers) != workers or workers < 1):
        raise BatchError("workers must be a positive whole number")
    started = time.perf_counter()
    src = Source(source)
    out_path = None if output is None else os.fspath(output)
    if out_path is not None and src.path is not None:
        try:
            if os.path.exists(out_path) and os.path.samefile(out_path, src.path):
                raise BatchError("the output must not be the input file")
        except OSError:
            pass

    # Pass 1: the keys (ids, their counts), then what the output already holds.
    counts: Counter = Counter()
    idents: dict[int, Any] = {}
    for task in src.tasks():
        idents[task.line] = task.ident = ident_of(task.raw)
        if task.ident is not None:
            counts[task.ident] += 1
    total = len(idents)

    report = BatchReport(total=total, results=[] if out_path is None else None)
    by_id: dict = {}
    by_line: dict = {}
    if out_path is not None:
        by_id, by_line, report.repaired, report.dropped = read_done(out_path, job)

    def already(line: int, ident: Any):
        """The status of the result already written for this line, else False."""
        if ident is not None and counts[ident] == 1:
            return by_id.get(ident, False)
        return by_line.get((line, ident), False)

    for line, ident in idents.items():
        status = already(line, ident)
        if status is not False:
            report.skipped += 1
            report.count(status)

    todo = total - report.skipped
    n_workers = workers or (os.cpu_count() or 1)
    unit, verb = {SOLVE: ("puzzle", "solve"), ANALYZE: ("deal", "analyse"),
                  TABLE: ("deal", "tabulate")}[job]
    if progress is not None:
        where = f" on {n_workers} worker{'s' if n_workers != 1 else ''}" if backend == "local" else " on Ray"
        progress.write(f"batch: {total} {unit}s, {report.skipped} already done, {todo} to {verb}"
                       f"{where}{'; cut off a torn last line of the output' if report.repaired else ''}\n")
        progress.flush()
    bar = Progress(progress, total, report.skipped, progress_every, unit)

    def pending() -> Iterator[Task]:
        for task in src.tasks():
            task.ident = idents.get(task.line)  # the input is read once more, not re-parsed
            if already(task.line, task.ident) is False:
                yield task

    writer = ResultWriter(out_path) if out_path is not None else None
    results = None
    try:
        if todo:
            if backend == "local":
                results = run_local(job, pending(), opts, min(n_workers, todo), report, JOBS)
            else:
                results = run_ray(_work(job), pending(), opts, workers, address,
                                  RAY_LOCAL_STARTS)
            for task, result in results:
                if result.get("field") == WORKER_DIED:
                    report.crashed += 1
                    if report.results is not None:
                        report.results.append(result)
                    bar.step("crashed")
                    continue
                if writer is not None:
                    writer.write(result)
                else:
                    report.results.append(result)
                report.solved += 1
                status = result.get("status")
                report.count(status)
                bar.step(status)
    finally:
        if results is not None:
            results.close()  # stops the workers at once on an interrupt
        if writer is not None:
            writer.close()
        report.seconds = time.perf_counter() - started
        bar.close()
    return report
