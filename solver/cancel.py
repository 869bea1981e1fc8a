"""Stopping a running search from another thread: the switch behind Ctrl-C and cancelled calls.

>>> from atout.solver import Cancel, solve               # doctest: +SKIP
>>> cancel = Cancel()                                     # doctest: +SKIP
>>> # in a worker thread: r = solve(position, cancel=cancel)
>>> cancel.set()       # from any thread: the search stops at once (status "limit")

The search releases the GIL, so the thread that waits on it (the main thread of the
command line, where Ctrl-C lands) can set the switch while the search runs.  Every
engine that a solve or an analysis builds is attached to the switch; setting it stops
them all, and engines attached after it was set are stopped as they are attached.
"""

from __future__ import annotations

import threading


class Cancel:
    """A one-way switch: once set, every search given it stops and stays stopped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engines: set = set()
        self._set = False

    def set(self) -> None:
        """Stop every search attached to this switch, now and later (any thread)."""
        with self._lock:
            self._set = True
            for engine in self._engines:
                engine.stop()

    def is_set(self) -> bool:
        return self._set

    def attach(self, engine) -> None:
        """Make ``engine`` stop when the switch is set (at once if it already is).

        Call it after ``engine.set_limits()``, which clears the engine's stop flag."""
        with self._lock:
            self._engines.add(engine)
            if self._set:
                engine.stop()

    def detach(self, engine) -> None:
        with self._lock:
            self._engines.discard(engine)
