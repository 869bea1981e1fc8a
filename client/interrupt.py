"""Searches that Ctrl-C (or SIGTERM) can stop, with a progress bar on a terminal.

A Python signal handler cannot run while the main thread is inside the compiled search,
so each search runs in a worker thread while the main thread waits on it (a wait that a
signal interrupts).  Ctrl-C sets the :class:`~atout.solver.Cancel` switch the search was
given: it stops at once and returns (or raises) what it proved so far, which the command
prints before it exits with status 130.  SIGTERM (``kill``, ``timeout``, a service
manager) does the same — :func:`stop_on_sigterm` makes it raise :class:`Terminated`, a
KeyboardInterrupt — and the command exits with status 143 (:func:`exit_status`).
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import Any, Callable, Iterable, Iterator

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 128 + signal.SIGTERM

_terminated = False         # a SIGTERM arrived


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C raises KeyboardInterrupt: the command stops the same way."""


def _terminate(signum, frame) -> None:
    global _terminated
    _terminated = True
    raise Terminated()


def stop_on_sigterm():
    """SIGTERM raises :class:`Terminated` from now on (the main thread only: elsewhere
    nothing changes); the handler it replaces, to restore, or None."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _terminate)


def exit_status(status: int) -> int:
    """A command's exit status, 143 instead of 130 when a SIGTERM stopped it."""
    return EXIT_TERMINATED if status == EXIT_INTERRUPTED and _terminated else status


class Searches:
    """Runs a command's searches one after the other.

    ``run(fn, *args, **kwargs)`` calls ``fn(*args, cancel=..., **kwargs)`` in a worker
    thread and returns its value (or raises its exception).  After a Ctrl-C,
    ``interrupted`` is true and the search has been told to stop; the command prints the
    partial answer and stops.  ``step()`` counts one finished position on the bar.
    ``answers()`` runs one search per input line, the bad lines reported (``bad``).
    """

    def __init__(self, what: str, unit: str, total: int | None = None, bar: bool = True):
        from atout.runner.batch import is_terminal
        from atout.solver import Cancel

        self.cancel = Cancel()
        self.interrupted = False
        self.bad = 0                 # lines refused by answers()
        self.bar = None
        self.tick: Callable[[], None] | None = None   # called while a search runs
        if bar and is_terminal(sys.stderr):
            from tqdm import tqdm
            self.bar = tqdm(total=total, desc=what, unit=unit, file=sys.stderr,
                            dynamic_ncols=True, leave=False, mininterval=0.5)

    def run(self, fn: Callable, *args, **kwargs) -> Any:
        box: dict = {}
        # An Event, not Thread.join: an interrupted join can leave the thread looking
        # finished before it is (Python < 3.13)
        done = threading.Event()

        def work() -> None:
            try:
                box["value"] = fn(*args, cancel=self.cancel, **kwargs)
            except BaseException as e:  # handed to the main thread
                box["error"] = e
            finally:
                done.set()

        threading.Thread(target=work, name="atout-search", daemon=True).start()
        while not done.is_set():
            try:
                done.wait(0.5)
                if self.bar is not None:
                    self.bar.refresh()      # the elapsed time goes on during a long search
                if self.tick is not None:
                    self.tick()
            except KeyboardInterrupt:
                self.interrupted = True
                self.cancel.set()
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def answers(self, records: Iterable, search: Callable,
                emit_error: Callable | None = None) -> Iterator[tuple[Any, Any]]:
        """(record, answer) for each good record: ``search(position, cancel=...)``'s answer.
        A bad record, or a search that failed (a position the search refuses, out of
        memory, a bug: the user keeps the other lines), is an error line instead
        (``emit_error(record, error)``; by default the JSON line), counted in ``bad``.
        After a Ctrl-C the answer yielded is the last one."""
        from atout.errors import PositionError

        if emit_error is None:
            from .output import emit_error
        for rec in records:
            error = rec.error
            if error is None:
                try:
                    answer = self.run(search, rec.position)
                except PositionError as e:
                    error = e
                except MemoryError as e:
                    error = PositionError("tt_mb", str(e) or "out of memory")
                except Exception as e:
                    error = PositionError("position", f"internal error ({type(e).__name__}: {e}); "
                                                      "please report this position")
            if error is not None:
                self.bad += 1
                emit_error(rec, error)
                self.step()
                continue
            self.close() if self.interrupted else self.step()
            yield rec, answer
            if self.interrupted:
                return

    def step(self) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> "Searches":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def count_lines(path: str) -> int | None:
    """The number of non-blank lines of a file (the bar's total), None for stdin."""
    if path == "-":
        return None
    try:
        with open(path, "rb") as f:
            return sum(1 for line in f if line.strip())
    except OSError:
        return None
