"""The server's log: one line per event, in one format, whatever a client sends or does.

Every request's outcome, gRPC or HTTP, is one line (:func:`outcome`)::

    2026-01-02 10:00:00,123 atout.server gRPC Solve peer=127.0.0.1 id="deal 7" 0.012s OK
    2026-01-02 10:00:00,456 atout.server HTTP POST /api/solve peer=::1 id=42 0.020s 200
    2026-01-02 10:00:01,000 atout.server gRPC Solve peer=10.0.0.9 id=- 0.001s UNAUTHENTICATED (a bearer token is required)

Text a client chose (an id, a path, a reason quoting its input) is escaped
(:func:`atout.printable.printable`), and an id is quoted, so no request can forge or split
a line.  What would otherwise bypass this format is routed into it or silenced:

- asyncio's reports (an error in a transport, a task's exception nobody retrieved, an
  ``accept`` out of file descriptors) become one line each, never a traceback
  (:func:`one_line_loop_errors`);
- gRPC's C core writes lines of its own on stderr (one per failed TLS handshake, or per
  plain-text attempt on a TLS port): ``GRPC_VERBOSITY=NONE`` silences them unless the
  operator set that variable (:func:`quiet_grpc_core`, before grpc is imported).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import time

from atout.printable import printable

log = logging.getLogger("atout.server")

#: the longest id, path or reason a line quotes
MOST = 120


def quoted(text: str) -> str:
    """``text`` escaped and between double quotes (a quote inside written ``\\x22``)."""
    return '"' + printable(text[:MOST]).replace('"', "\\x22") + '"'


def label(value) -> str:
    """A request's id as a line shows it: a number as it is, text quoted, none ``-``."""
    if value is None or value == "":
        return "-"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return quoted(str(value))


def outcome(front: str, what: str, peer: str, ident: str, started: float, status: str,
            reason: str | None = None, level: int = logging.INFO) -> None:
    """The line of one request: ``front`` (gRPC, HTTP), ``what`` (method, or verb and path),
    the peer's address, its id (:func:`label`), the seconds since ``started``
    (``time.perf_counter()``), its status, and for a refusal why."""
    text = (f"{front} {printable(what[:MOST])} peer={printable(peer[:MOST])} id={ident} "
            f"{time.perf_counter() - started:.3f}s {status}")
    if reason:
        text += f" ({printable(reason[:MOST])})"
    log.log(level, "%s", text)


def one_line_loop_errors(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio's error reports in one line each, never a traceback: a client that resets
    its connection mid-handshake, or a flood that exhausts the file descriptors, would
    otherwise write one traceback per connection."""
    def handler(loop, context: dict) -> None:
        error = context.get("exception")
        text = context.get("message") or "asyncio error"
        if error is not None:
            text += f": {type(error).__name__}: {error}"
        log.warning("asyncio: %s", printable(text[:300]))
    loop.set_exception_handler(handler)


def quiet_grpc_core() -> None:
    """Silence gRPC's C core on stderr (its own lines, in its own format) unless the operator
    asked for them with ``GRPC_VERBOSITY``; must run before grpc is first imported."""
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")


#: a flood of one kind of event (connections refused, heads too late) is one line per this
TALLY_SECONDS = 10.0


class Tally:
    """Events of one kind, logged as counts: the first at once, then those of each
    following :data:`TALLY_SECONDS` in one line (``what: 523 in 10s (EMFILE 523)``)."""

    def __init__(self, what: str, seconds: float = TALLY_SECONDS):
        self.what = what
        self.seconds = seconds
        self.pending = 0
        self.details: collections.Counter = collections.Counter()
        self.timer: asyncio.TimerHandle | None = None

    def count(self, detail: str | None = None) -> None:
        self.pending += 1
        if detail:
            self.details[detail] += 1
        if self.timer is None:                          # the first of a while: said now
            self.flush()
            self.timer = asyncio.get_running_loop().call_later(self.seconds, self._window_end)

    def _window_end(self) -> None:
        self.timer = None
        if self.pending:
            self.flush(f" in {self.seconds:g}s")
            self.timer = asyncio.get_running_loop().call_later(self.seconds, self._window_end)

    def flush(self, window: str = "") -> None:
        if not self.pending:
            return
        details = ", ".join(f"{printable(str(k))[:40]} {n}" for k, n in self.details.most_common(3))
        log.warning("%s: %d%s%s", self.what, self.pending, window,
                    f" ({details})" if details else "")
        self.pending = 0
        self.details.clear()
