"""What one request and one connection may ask of the server, set by its operator
(``atout serve --max-…``, ``--…-timeout``); every bound is on by default.

:class:`Limits` holds the bounds; :class:`PeerCalls` counts the calls each peer has running
(gRPC calls and HTTP API requests together), refusing one past the bound at once.  The queue
bound is the pool's (:class:`~atout.server.pool.SearchPool` ``max_queue``): a search that
would wait behind that many others is refused at once instead of waiting without end.
:func:`fit_open_files` raises the process's open-file limit as far as the system allows and
keeps the connection caps within it, so that a flood of connections meets the cap, not
EMFILE (which would also stop the server from starting a search process).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from dataclasses import dataclass

from atout import options

log = logging.getLogger("atout.server")

#: searches that may wait for a free search process before new ones are refused
DEFAULT_MAX_QUEUE = 256
#: the longest search, over gRPC and HTTP, when the operator sets no other bound
DEFAULT_MAX_TIME_LIMIT = options.MAX_TIME_LIMIT
#: positions in one batch call (a position is checked in about a millisecond)
DEFAULT_MAX_POSITIONS = 1000
#: deals drawn for one advice (the viewer offers up to 200; atout advise's default is 100)
DEFAULT_MAX_SAMPLES = 1000
#: open connections on each port (gRPC, HTTP)
DEFAULT_MAX_CONNECTIONS = 256
#: seconds for a connection's TLS handshake and an HTTP request's head (gRPC: the handshake
#: and the HTTP/2 preface), for an HTTP request's body, and of silence before an idle
#: connection is closed
DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 30.0
DEFAULT_IDLE_TIMEOUT = 60.0
#: gRPC: seconds between the server's keep-alive pings on a quiet connection (a peer that
#: does not answer one within KEEPALIVE_TIMEOUT is dropped)
DEFAULT_KEEPALIVE = 60.0
KEEPALIVE_TIMEOUT = 20.0
#: file descriptors kept for everything but client connections (search processes' pipes,
#: the log, the listening sockets, a spawn under way)
RESERVED_FILES = 64


class Busy(Exception):
    """A call refused for want of room (RESOURCE_EXHAUSTED / HTTP 429): ``reason``."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    """The operator's bounds; None: no bound (only where said)."""

    max_time_limit: float = DEFAULT_MAX_TIME_LIMIT  # seconds per search; more, or none, gets this
    max_positions: int = DEFAULT_MAX_POSITIONS     # positions per batch call
    max_samples: int = DEFAULT_MAX_SAMPLES         # deals drawn per advice
    max_tt_mb: int | None = None             # MB of one search's table (None: the default's 4096)
    max_calls_per_peer: int | None = None    # calls one address may have running at once
    max_queue: int | None = DEFAULT_MAX_QUEUE
    max_connections: int = DEFAULT_MAX_CONNECTIONS  # open connections per port
    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    keepalive: float = DEFAULT_KEEPALIVE

    def time_limit(self, asked: float | None) -> float:
        """A search's time limit: what was asked (None: none), at most ``max_time_limit``."""
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


def fit_open_files(limits: Limits, workers: int, ports: int) -> Limits:
    """``limits`` with ``max_connections`` lowered where ``ports`` ports of that many
    connections, the search processes and :data:`RESERVED_FILES` would not fit in the
    open-file limit — raised first to the system's hard limit where it is lower."""
    try:
        import resource
    except ImportError:         # not a POSIX system: nothing to raise or check
        return limits
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    room = (soft - RESERVED_FILES - 4 * workers) // max(1, ports)
    if room < limits.max_connections:
        fitted = max(1, room)
        log.warning("open-file limit %d: at most %d connections per port (not %d)",
                    soft, fitted, limits.max_connections)
        return dataclasses.replace(limits, max_connections=fitted)
    return limits


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
