"""What one request may ask of the server, set by its operator (``atout serve --max-…``).

:class:`Limits` holds the bounds; :class:`PeerCalls` counts the calls each peer has running
(gRPC calls and HTTP API requests together), refusing one past the bound at once.  The queue
bound is the pool's (:class:`~atout.server.pool.SearchPool` ``max_queue``): a search that
would wait behind that many others is refused at once instead of waiting without end.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

#: searches that may wait for a free search process before new ones are refused
DEFAULT_MAX_QUEUE = 256
#: the HTTP API's bound on a search's time when the operator sets none (gRPC has none)
HTTP_MAX_TIME_LIMIT = 120.0


class Busy(Exception):
    """A call refused for want of room (RESOURCE_EXHAUSTED / HTTP 429): ``reason``."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    """None: no bound (except ``max_queue``, bounded by default)."""

    max_time_limit: float | None = None      # seconds per search; more, or none, gets this
    max_positions: int | None = None         # positions per SolveBatch call
    max_tt_mb: int | None = None             # MB of one search's table
    max_calls_per_peer: int | None = None    # calls one address may have running at once
    max_queue: int | None = DEFAULT_MAX_QUEUE

    def time_limit(self, asked: float | None) -> float | None:
        """A search's time limit: what was asked (None: none), at most ``max_time_limit``."""
        if self.max_time_limit is None:
            return asked
        return self.max_time_limit if asked is None else min(asked, self.max_time_limit)

    def tt_mb(self, tt_mb: int | None, obj: dict) -> int | None:
        """The table of one search of position object ``obj``: the server's ``--tt-mb``, or
        the default size for the cards left to play — at most ``max_tt_mb``, and then
        fixed (a default table grows up to 4 GB while its search needs room)."""
        if tt_mb is not None or self.max_tt_mb is None:
            return tt_mb
        from atout.solver import BIG_TT_MB, default_tt_mb

        if self.max_tt_mb >= BIG_TT_MB:
            return None
        seats = len(obj["hands"])
        tricks_left = len(obj["hands"][0]) - len(obj.get("played") or ()) // seats
        return min(default_tt_mb(tricks_left, seats), self.max_tt_mb)


class PeerCalls:
    """Calls running per peer address, at most ``limit`` each (None: no bound)."""

    def __init__(self, limit: int | None):
        self.limit = limit
        self.running: dict[str, int] = {}

    @contextlib.contextmanager
    def call(self, peer: str):
        if self.limit is not None and self.running.get(peer, 0) >= self.limit:
            raise Busy(f"{peer} has {self.limit} calls running, the most this server takes "
                       f"from one address (--max-calls-per-peer)")
        self.running[peer] = self.running.get(peer, 0) + 1
        try:
            yield
        finally:
            self.running[peer] -= 1
            if not self.running[peer]:
                del self.running[peer]
