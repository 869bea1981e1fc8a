"""The batch's files: the input's lines as tasks, and the output's result lines — read
back to resume (a torn last line cut off, the results of dead workers dropped), and written
one whole line at a time (:mod:`atout.runner.batch` runs them).

Resuming: results are keyed by the puzzle's ``id``; a puzzle without an id (or whose id
is not unique in the input) is keyed by its line number (and its id).  Only the main
process writes the output, one whole line per ``write``.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from dataclasses import dataclass
from typing import Any, Iterator

from atout.errors import PositionError
from atout.jsonl import split_lines
from atout.position import check_id

from .process import JobKind

__all__ = ["BatchError", "Task", "Source", "ident_of", "read_done", "ResultWriter",
           "WORKER_DIED", "RESULT_START", "RESULT_STATUSES"]


class BatchError(Exception):
    """A problem with the run itself (unreadable input, unwritable output, bad option)."""


@dataclass
class Task:
    """One line of the input: its number, its id, its text."""

    line: int
    ident: Any              # the id when it is a string or an integer, else None
    raw: bytes | None       # None: the line was too long, ``oversize`` bytes
    oversize: int = 0


#: the ``field`` of the result of a puzzle whose worker died: not written to the output, so
#: that the next run tries the puzzle again
WORKER_DIED = "worker"

#: what wrote a result line, by the kind of job: told apart by the line itself
_WHAT = {JobKind.SOLVE: "a solve's result", JobKind.ANALYZE: "an analysis (atout batch --analyze)",
         JobKind.TABLE: "a contract table (atout batch --table)"}


# -- reading the input --------------------------------------------------------------------------

def task_lines(stream) -> Iterator[Task]:
    """Non-blank lines of a binary stream as tasks (ident not yet set), numbered as
    :func:`atout.jsonl.split_lines` numbers them; an oversized line comes without text."""
    for number, raw, size in split_lines(stream):
        yield Task(number, None, raw) if raw is not None else Task(number, None, None, size)


def ident_of(raw: bytes | None) -> Any:
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


class Source:
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

    def tasks(self) -> Iterator[Task]:
        if self.path is not None:
            with open(self.path, "rb") as f:
                yield from task_lines(f)
        else:
            import io
            yield from task_lines(io.BytesIO(b"\n".join(self.memory)))

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
    return (JobKind.ANALYZE if "plays" in obj else JobKind.TABLE if "cells" in obj
            else JobKind.SOLVE)


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


def read_done(path: str, job: str = "solve") -> tuple[dict, dict, bool, int]:
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


class ResultWriter:
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
