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
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterator

from atout.errors import PositionError
from atout.jsonl import MAX_LINE_BYTES, split_lines
from atout.position import check_id

from .process import JobKind

__all__ = ["solve_all", "analyze_all", "table_all", "BatchReport", "BatchError"]


class BatchError(Exception):
    """A problem with the run itself (unreadable input, unwritable output, bad option)."""


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


@dataclass
class _Task:
    line: int
    ident: Any              # the id when it is a string or an integer, else None
    raw: bytes | None       # None: the line was too long, ``oversize`` bytes
    oversize: int = 0


# -- reading the input --------------------------------------------------------------------------

def _lines(stream) -> Iterator[_Task]:
    """Non-blank lines of a binary stream as tasks (ident not yet set), numbered as
    :func:`atout.jsonl.split_lines` numbers them; an oversized line comes without text."""
    for number, raw, size in split_lines(stream):
        yield _Task(number, None, raw) if raw is not None else _Task(number, None, None, size)


def _ident(raw: bytes | None) -> Any:
    """The id of an input line, as its result line will carry it: None where the line has
    none, or one the rules refuse (check_id: an integer past 64 bits, a lone surrogate),
    since its result's id is then null too - else a rerun never found that result and
    appended it again each time."""
    if raw is None:
        return None
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if isinstance(obj, dict):
        ident = obj.get("id")
        try:
            check_id(ident)
        except PositionError:
            return None
        return ident
    return None


class _Source:
    """The input, read twice (once for the keys, once to solve): a path, ``-`` (stdin,
    kept in memory), or an iterable of position objects / JSON strings / bytes."""

    def __init__(self, source):
        self.path = None
        self.memory: list[bytes] | None = None
        if isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-":
            self.path = os.fspath(source)
            try:
                with open(self.path, "rb"):
                    pass
            except OSError as e:
                raise BatchError(f"cannot read {self.path}: {e.strerror}") from None
        elif isinstance(source, (str, os.PathLike)):
            if sys.stdin is None:       # started with stdin closed (`<&-`)
                raise BatchError("cannot read standard input: it is closed")
            self.memory = sys.stdin.buffer.read().split(b"\n")
        else:
            self.memory = []
            for item in source:
                if isinstance(item, bytes):
                    self.memory.append(item.replace(b"\n", b" "))
                elif isinstance(item, str):
                    self.memory.append(item.replace("\n", " ").encode("utf-8"))
                else:
                    self.memory.append(json.dumps(item).encode("utf-8"))

    def tasks(self) -> Iterator[_Task]:
        if self.path is not None:
            with open(self.path, "rb") as f:
                yield from _lines(f)
        else:
            import io
            yield from _lines(io.BytesIO(b"\n".join(self.memory)))


# -- the output -------------------------------------------------------------------------------

def _retry(obj: dict) -> bool:
    """A result that says its worker died (this version's, or an older one's): the puzzle
    was never solved, so it is not done."""
    if obj.get("status") != "error":
        return False
    reason = str(obj.get("reason", ""))
    return obj.get("field") == WORKER_DIED or (
        obj.get("field") == "solver" and reason.startswith(("the worker process died",
                                                             "the Ray task failed")))


#: how each result line this tool writes begins (its object's first key is the id): a torn
#: last line begins so, or is a part of it
RESULT_START = b'{"id": '

#: the statuses of a result line (docs/format.md)
RESULT_STATUSES = ("ok", "limit", "error")


def _result(raw: bytes) -> dict | None:
    """The object of a result line of this tool (its id, status and input line), else
    None."""
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if (isinstance(obj, dict) and "id" in obj and obj.get("status") in RESULT_STATUSES
            and type(obj.get("input_line")) is int):
        return obj
    return None


def _not_results(path: str, reason: str) -> BatchError:
    return BatchError(f"-o {path}: {reason}; give a results file of the same atout batch "
                      f"to go on with, or a new path")


def _not_result_line(path: str, number: int) -> BatchError:
    return _not_results(path, f"line {number} is not a result line of atout batch")


def _open_results(path: str):
    """The output opened to read and cut (None: not there yet); a device, a pipe or a folder
    is refused before it is read (/dev/zero would never end)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise _not_results(path, "not a regular file")
        return open(path, "r+b")
    except FileNotFoundError:
        return None
    except OSError as e:
        raise BatchError(f"cannot open {path}: {e.strerror or e}") from None


def _whole_results(path: str, data: bytes, job: str) -> list[tuple[bytes, dict]]:
    """The result lines of the output's whole lines, each with its object; a line that is
    not one refuses the file (it is not this tool's: nothing in it is taken as done), and
    so does a solve's result where deals are analysed, or an analysis where puzzles are
    solved (the work asked for would be skipped as done)."""
    results = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        obj = _result(raw)
        if obj is None:
            raise _not_result_line(path, number)
        if obj["status"] != "error" and _job_of(obj) != job:
            raise _not_results(path, f"line {number} is {_WHAT[_job_of(obj)]}, not "
                                     f"{_WHAT[job]}")
        results.append((raw, obj))
    return results


def _job_of(obj: dict) -> str:
    """Which kind of batch wrote a result line (not an error): an analysis has plays, a
    table cells."""
    return ANALYZE if "plays" in obj else TABLE if "cells" in obj else SOLVE


def _check_torn(path: str, tail: bytes, number: int) -> None:
    """A last line without its newline is cut off only if it is a result torn by a kill: a
    whole result (it is solved again) or a beginning of one."""
    if not tail.strip() or _result(tail) is not None:
        return
    if tail.startswith(RESULT_START) or RESULT_START.startswith(tail):
        try:
            json.loads(tail)
        except (ValueError, RecursionError):
            return          # cut short: torn
    raise _not_result_line(path, number)


def _read_done(path: str, job: str = "solve") -> tuple[dict, dict, bool, int]:
    """Results already in the output: ({id: status}, {(line, id): status}, repaired,
    dropped).

    Every line is checked before anything is changed: an output that is not a results file
    of this tool is refused (:class:`BatchError`).  A last line without its newline is a
    result torn by a kill: it is cut off.  Results of puzzles whose worker died are removed
    from the file (``dropped``), so that the puzzle is solved again and its result is there
    once.
    """
    by_id: dict = {}
    by_line: dict = {}
    repaired = False
    f = _open_results(path)
    if f is None:
        return by_id, by_line, repaired, 0
    with f:
        data = f.read()
        end = data.rfind(b"\n") + 1
        results = _whole_results(path, data[:end], job)
        _check_torn(path, data[end:], data.count(b"\n", 0, end) + 1)
        if end < len(data):
            f.truncate(end)
            repaired = True
    keep: list[bytes] = []
    dropped = 0
    for raw, obj in results:
        if _retry(obj):
            dropped += 1
            continue
        keep.append(raw)
        ident = obj.get("id")
        if type(ident) not in (str, int):
            ident = None
        status = obj.get("status")
        if ident is not None:
            by_id.setdefault(ident, status)
        by_line.setdefault((obj["input_line"], ident), status)
    if dropped:
        tmp = f"{path}.atout-tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(b"".join(raw + b"\n" for raw in keep))
            os.replace(tmp, path)
        except OSError as e:
            raise BatchError(f"cannot rewrite {path}: {e.strerror}") from None
    return by_id, by_line, repaired, dropped


class _Writer:
    """Appends whole lines with one ``write`` each (O_APPEND): a kill leaves at most a
    torn last line, which the next run cuts off."""

    def __init__(self, path: str):
        self.path = path
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as e:
            raise BatchError(f"cannot write {path}: {e.strerror}") from None

    def write(self, obj: dict) -> None:
        data = (json.dumps(obj, separators=(", ", ": ")) + "\n").encode("utf-8")
        view = memoryview(data)
        try:
            while view:
                n = os.write(self.fd, view)
                view = view[n:]
        except OSError as e:
            # a full disk: the run stops; a part of this line written is a torn last line,
            # which the next run cuts off (the results before it are whole)
            raise BatchError(f"cannot write {self.path}: {e.strerror}") from None

    def close(self) -> None:
        os.close(self.fd)


# -- solving one line (in a worker) ---------------------------------------------------------

def _error(ident, line: int, fld: str, reason: str) -> dict:
    return {"id": ident, "status": "error", "field": fld, "reason": reason, "input_line": line}


def solve_line(raw: bytes | None, line: int, opts: dict, oversize: int = 0) -> dict:
    """The result line of one input line; never raises."""
    if raw is None:
        return _error(None, line, "json", f"line of {oversize} bytes is longer than {MAX_LINE_BYTES}")
    try:
        from atout.jsonl import parse_line
        from atout.solver import solve
        rec = parse_line(raw, line)
        if rec.error is not None:
            return _error(rec.id, line, rec.error.field, rec.error.reason)
        result = solve(rec.position, **opts).to_json()
    except MemoryError:
        return _error(_ident(raw), line, "solver", "out of memory")
    except Exception as e:  # a bug must not stop the run: it is this puzzle's result
        return _error(_ident(raw), line, "solver", f"{type(e).__name__}: {e}")
    result["input_line"] = line
    return result


# -- analysing one played deal (in a worker) ----------------------------------------------------

def first_analysed(position, start: int | None, last_tricks: int | None) -> int:
    """Where the analysis of ``position`` begins: ``start`` (the cards before it taken as
    given), else the first card of the last ``last_tricks`` tricks, else 0 — as ``atout
    analyze --start`` / ``--last-tricks`` take it.  A start past the cards played raises
    PositionError("start", ...)."""
    from atout import options
    if start is None and last_tricks is not None:
        start = min(max(0, position.rules.hand_size - last_tricks) * position.seats,
                    len(position.played))
    return options.start(start or 0, len(position.played))


def _deal_line(raw: bytes | None, line: int, oversize: int, work) -> dict:
    """The result line of one deal's job in a worker (an analysis, a contract table):
    the line read, ``work(record)`` run on it, and ``input_line`` added; every failure is
    the deal's error line naming its field (a table this machine cannot give now:
    ``tt_mb``; a bug: ``solver``, so that it cannot stop the run).  Never raises."""
    if raw is None:
        return _error(None, line, "json", f"line of {oversize} bytes is longer than {MAX_LINE_BYTES}")
    try:
        from atout.errors import PositionError
        from atout.jsonl import parse_line
        rec = parse_line(raw, line)
        if rec.error is not None:
            return _error(rec.id, line, rec.error.field, rec.error.reason)
        try:
            result = work(rec)
        except PositionError as e:
            return _error(rec.id, line, e.field, e.reason)
    except MemoryError as e:
        return _error(_ident(raw), line, "tt_mb", str(e) or "out of memory")
    except Exception as e:
        return _error(_ident(raw), line, "solver", f"{type(e).__name__}: {e}")
    result["input_line"] = line
    return result


def analyze_line(raw: bytes | None, line: int, opts: dict, oversize: int = 0) -> dict:
    """The result line of one played deal: its analysis (:func:`atout.solver.analyze.
    analyze` with ``opts``: time_limit, tt_mb, threads; start or last_tricks), with
    ``status``, ``position``, ``seconds``, ``cpu_seconds`` and ``input_line``; never
    raises."""
    def work(rec) -> dict:
        from atout.solver.analyze import analyze
        start = first_analysed(rec.position, opts.get("start"), opts.get("last_tricks"))
        # the worker runs one deal at a time: the process' CPU time is this analysis'
        wall, cpu = time.perf_counter(), time.process_time()
        report = analyze(rec.position, start=start, time_limit=opts.get("time_limit"),
                         tt_mb=opts.get("tt_mb"), threads=opts.get("threads") or 1)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        # the id first (RESULT_START), then what the analysis says, then the deal it says it of
        result = {"id": report.pop("id"), "status": "limit" if "stopped_by" in report else "ok"}
        result.update(report)
        result.update({"position": rec.position.to_json(), "seconds": round(wall, 3),
                       "cpu_seconds": round(cpu, 3)})
        return result
    return _deal_line(raw, line, oversize, work)


# -- a deal's contract table (in a worker) ------------------------------------------------------

def table_line(raw: bytes | None, line: int, opts: dict, oversize: int = 0) -> dict:
    """The result line of one deal's contract table (:func:`atout.solver.contract_table.
    contract_table` with ``opts``: time_limit, threads, tt_mb, contracts, values), with
    ``position``, ``seconds``, ``cpu_seconds`` and ``input_line``; never raises."""
    def work(rec) -> dict:
        from atout.solver.contract_table import contract_table
        cpu = time.process_time()
        table = contract_table(rec.position, **opts)
        table.update({"position": rec.position.to_json(),
                      "cpu_seconds": round(time.process_time() - cpu, 3)})
        return table
    return _deal_line(raw, line, oversize, work)


# -- backends -----------------------------------------------------------------------------------

#: the ``field`` of the result of a puzzle whose worker died: not written to the output, so
#: that the next run tries the puzzle again
WORKER_DIED = "worker"

#: this module's name, for :class:`~atout.runner.process.SearchProcess`: its ``run_job``
#: solves the puzzles in the search processes
JOBS = __name__


#: what a batch does with each line: solve it as a puzzle, analyse it as a played deal, or
#: work out its deal's contract table (the kinds of job a search process runs, the server's
#: as well: atout.runner.process.JobKind)
SOLVE, ANALYZE, TABLE = JobKind.SOLVE, JobKind.ANALYZE, JobKind.TABLE
_WHAT = {SOLVE: "a solve's result", ANALYZE: "an analysis (atout batch --analyze)",
         TABLE: "a contract table (atout batch --table)"}


def _work(kind: JobKind | str):
    """The function that does one line of ``kind`` (looked up at each call: a test may
    replace it)."""
    return {SOLVE: solve_line, ANALYZE: analyze_line, TABLE: table_line}[JobKind(kind)]


def run_job(kind: JobKind | str, job, payload, opts: dict, cancel) -> tuple:
    """A search process's work (see :mod:`atout.runner.process`): one puzzle (``kind``
    "solve") or played deal ("analyze"), ``payload`` being (raw line, line number,
    oversize)."""
    raw, line, oversize = payload
    return ("done", job, _work(kind)(raw, line, opts, oversize))


def worker_process() -> None:
    """The body of a batch search process (what ``SearchProcess(JOBS)`` runs)."""
    from .process import worker_process as serve
    serve(JOBS)


def _local(kind: str, tasks: Iterator[_Task], opts: dict, workers: int,
           report: BatchReport) -> Iterator[tuple[_Task, dict]]:
    """A pool of search processes, one puzzle at a time each.  A worker that dies (a crash,
    out of memory, a kill) is replaced and its puzzle tried once more; after a second
    death the puzzle's result has field :data:`WORKER_DIED`, which is not written to
    the output: the next run tries it again."""
    from multiprocessing.connection import wait

    from .process import SearchProcess

    pool: list[SearchProcess] = []
    doing: dict[SearchProcess, _Task] = {}   # the puzzle each busy worker is on
    tries: Counter = Counter()

    def replace(w: SearchProcess) -> SearchProcess:
        pool.remove(w)
        doing.pop(w, None)
        w.close(kill=True)
        nw = w.respawn()
        pool.append(nw)
        return nw

    def give(w: SearchProcess, task: _Task) -> None:
        while True:
            if not w.alive():
                w = replace(w)
            try:
                w.send((kind, task.line, (task.raw, task.line, task.oversize), opts))
                doing[w] = task
                return
            except OSError:
                w = replace(w)

    try:
        for _ in range(workers):
            task = next(tasks, None)
            if task is None:
                break
            w = SearchProcess(JOBS)
            pool.append(w)
            give(w, task)
        while doing:
            ready = wait([w.conn for w in doing])
            for w in list(doing):
                if w.conn not in ready:
                    continue
                try:
                    msg = w.conn.recv()
                except (EOFError, OSError):
                    msg = None   # the worker died (its end of the pipe closed)
                if msg is not None and msg[0] == "ready":
                    continue
                done = doing.pop(w)
                if msg is None:
                    code = w.wait(5)
                    report.workers_lost += 1
                    w = replace(w)
                    tries[done.line] += 1
                    if tries[done.line] < 2:
                        give(w, done)
                        continue
                    result = _error(done.ident, done.line, WORKER_DIED,
                                    f"the worker process died twice on this puzzle "
                                    f"(exit code {code}); the next run tries it again")
                else:
                    result = msg[2]
                yield done, result
                task = next(tasks, None)
                if task is not None:
                    give(w, task)
    finally:
        clean = not doing
        for w in pool:
            w.close(kill=not clean)


#: tries at starting a local Ray instance: Ray waits a fixed 30 s for its raylet to
#: register, which a busy two-core machine can take longer than (the next try finds the
#: machine's caches warm); one at reaching a cluster, whose start is not ours
RAY_LOCAL_STARTS = 3
#: seconds Ray waits for its GCS server's port file on a local start (its default, 60 s,
#: was also too short on a busy machine: "Timed out waiting for file …/gcs_server_port_…")
RAY_GCS_WAIT_S = "180"


def _start_ray(ray, address: str | None, workers: int | None) -> None:
    """ray.init for the batch: a cluster at ``address``, or a local instance of ``workers``
    CPUs started here (no dashboard), tried again where its start times out."""
    kwargs: dict = {"address": address, "log_to_driver": False}
    tries = 1
    if address is None:
        kwargs.update(include_dashboard=False)
        if workers:
            kwargs["num_cpus"] = workers
        tries = RAY_LOCAL_STARTS
        # (an operator's own setting wins; Ray reads it from the environment only)
        os.environ.setdefault("RAY_gcs_server_port_wait_time_s", RAY_GCS_WAIT_S)
    for attempt in range(tries):
        try:
            ray.init(**kwargs)
            return
        except Exception as e:
            failure = e
            try:            # what a timed-out start left running, before the next try
                ray.shutdown()
            except Exception:
                pass
    raise BatchError(f"cannot start or reach Ray ({address or 'local'}): {failure}") from None


def _ray(kind: str, tasks: Iterator[_Task], opts: dict, workers: int | None,
         address: str | None) -> Iterator[tuple[_Task, dict]]:
    try:
        import ray
    except ImportError:
        raise BatchError("the ray backend needs Ray: pip install 'atout[ray]'") from None
    started = False
    if not ray.is_initialized():
        _start_ray(ray, address, workers)
        started = True
    remote = ray.remote(num_cpus=1, max_retries=1)(_work(kind))
    cap = 2 * max(1, workers or int(ray.cluster_resources().get("CPU", 1)))
    inflight: dict = {}

    def submit() -> bool:
        task = next(tasks, None)
        if task is None:
            return False
        inflight[remote.remote(task.raw, task.line, opts, task.oversize)] = task
        return True

    try:
        while len(inflight) < cap and submit():
            pass
        while inflight:
            ready, _ = ray.wait(list(inflight), num_returns=1)
            for ref in ready:
                task = inflight.pop(ref)
                try:
                    result = ray.get(ref)
                except Exception as e:
                    result = _error(task.ident, task.line, WORKER_DIED,
                                    f"the Ray task failed: {type(e).__name__}: {str(e)[:200]}")
                yield task, result
                submit()
    finally:
        for ref in inflight:
            try:
                ray.cancel(ref, force=True)
            except Exception:
                pass
        if started:
            ray.shutdown()


# -- progress --------------------------------------------------------------------------------

def is_terminal(stream) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _Progress:
    """A tqdm bar (count, rate, time left, results not ok) when the stream is a terminal;
    nothing otherwise (a log gets the first and the last line only)."""

    def __init__(self, stream, total: int, skipped: int, every: float = 0.2,
                 unit: str = "puzzle"):
        self.bar = None
        self.bad = 0
        if is_terminal(stream):
            from tqdm import tqdm
            self.bar = tqdm(total=total, initial=skipped, file=stream, desc="batch",
                            unit=unit, mininterval=every, dynamic_ncols=True, leave=True)

    def step(self, status: str) -> None:
        if self.bar is None:
            return
        if status != "ok":
            self.bad += 1
            self.bar.set_postfix_str(f"{self.bad} not ok", refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


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


def _run(job: str, source, output, opts: dict, workers: int | None, backend: str,
         address: str | None, progress, progress_every: float) -> BatchReport:
    """Run ``job`` (SOLVE or ANALYZE) on every line of ``source`` not done yet in ``output``
    (see :func:`solve_all`)."""
    if backend not in ("local", "ray"):
        raise BatchError(f"unknown backend {backend!r} (local or ray)")
    if workers is not None and (isinstance(workers, bool) or int(workers) != workers or workers < 1):
        raise BatchError("workers must be a positive whole number")
    started = time.perf_counter()
    src = _Source(source)
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
        idents[task.line] = task.ident = _ident(task.raw)
        if task.ident is not None:
            counts[task.ident] += 1
    total = len(idents)

    report = BatchReport(total=total, results=[] if out_path is None else None)
    by_id: dict = {}
    by_line: dict = {}
    if out_path is not None:
        by_id, by_line, report.repaired, report.dropped = _read_done(out_path, job)

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
    bar = _Progress(progress, total, report.skipped, progress_every, unit)

    def pending() -> Iterator[_Task]:
        for task in src.tasks():
            task.ident = idents.get(task.line)  # the input is read once more, not re-parsed
            if already(task.line, task.ident) is False:
                yield task

    writer = _Writer(out_path) if out_path is not None else None
    results = None
    try:
        if todo:
            if backend == "local":
                results = _local(job, pending(), opts, min(n_workers, todo), report)
            else:
                results = _ray(job, pending(), opts, workers, address)
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
