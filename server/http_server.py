"""The HTTP front end's connections: uvicorn's HTTP/1.1 protocol (h11) behind an accept loop
of the server's own, so that a client cannot hold what others need before it is known.

uvicorn bounds neither the connections open nor the time a request's head may take to
arrive, and its TLS handshake waits 60 s: a thousand clients sending half a request each
would hold a thousand file descriptors for ever.  Here (each bound an ``atout serve``
option, :mod:`.limits`):

- at most ``max_connections`` connections are open (TLS handshakes under way included).
  At the cap, a new connection takes the place of the one idle longest — between two
  requests, or with a request's head not yet whole, for :data:`EVICTABLE_AFTER` seconds at
  least — which is closed (as nginx reuses its idle keep-alive connections): clients
  holding half-sent requests cannot lock out those that send whole ones.  With none such,
  the new connection is closed as soon as it is accepted;
- a TLS handshake and each request's head must be complete within ``header_timeout``
  seconds, a request's body within ``body_timeout`` (checked by the API as it reads it,
  :mod:`.http`), and a kept-alive connection with no request for ``idle_timeout``
  seconds is closed (uvicorn's ``timeout_keep_alive``); a head is at most 16 KiB
  (:data:`MAX_HEAD_BYTES`: h11 bounds a head that arrives in parts, this one a head that
  arrives whole);
- a request with both ``Content-Length`` and ``Transfer-Encoding`` — which two servers
  on its way may frame differently, so that a request smuggled behind it is served — is
  refused (400) and its connection closed (:class:`_Checked`);
- ``accept`` failing for want of file descriptors pauses the loop instead of spinning.

What this closes is counted, not logged per connection: one line per kind every
:data:`TALLY_SECONDS` at most (:class:`.logs.Tally`), so a flood does not flood the log.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl

from .limits import Limits
from .logs import Tally

log = logging.getLogger("atout.server")

#: pause after ``accept`` failed (EMFILE, ENFILE, ENOBUFS): connections wait in the backlog
ACCEPT_PAUSE = 0.1
#: seconds a connection must have been idle before a new one at the cap may take its place
#: (so that a client reconnecting in a loop cannot push out connections just made)
EVICTABLE_AFTER = 1.0
#: the most bytes a request's head may hold (h11's bound for a head still arriving)
MAX_HEAD_BYTES = 16 << 10


class _Checked:
    """uvicorn's h11 connection, each request's head checked as it comes out: one over
    :data:`MAX_HEAD_BYTES` (h11 bounds only a head still incomplete in its buffer, so a
    64 KiB head sent at once was answered), or one with both ``Content-Length`` and
    ``Transfer-Encoding``, is a protocol error — which uvicorn answers 400, closing the
    connection with whatever was sent behind the request."""

    def __init__(self, conn):
        self._conn = conn

    def __getattr__(self, name):
        return getattr(self._conn, name)

    def next_event(self):
        import h11

        event = self._conn.next_event()
        if isinstance(event, h11.Request):
            names = {name for name, _ in event.headers}      # (h11 writes them lower-case)
            size = len(event.method) + len(event.target) + 12 + sum(
                len(name) + len(value) + 4 for name, value in event.headers)
            if size > MAX_HEAD_BYTES:
                raise h11.RemoteProtocolError(f"a request head of more than {MAX_HEAD_BYTES} "
                                              "bytes", error_status_hint=431)
            if b"content-length" in names and b"transfer-encoding" in names:
                raise h11.RemoteProtocolError("both Content-Length and Transfer-Encoding")
        return event


def _protocol_class():
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        """uvicorn's h11 protocol, with a deadline for each request's head: from the
        connection's start, and from the first bytes of each later request."""

        head_timeout: float = 10.0
        on_late = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self.conn = _Checked(self.conn)
            self._head_timer = None
            self._seen = None          # the request whose head came last
            self.active = self.loop.time()      # the last bytes in, or the last answer out
            self._expect_head()

        @property
        def between_requests(self) -> bool:
            """No request under way (none yet, the last one answered, or a head not whole)."""
            return self.cycle is None or self.cycle.response_complete

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.active = self.loop.time()

        def _expect_head(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(self.head_timeout, self._head_late)

        def _head_in(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def data_received(self, data: bytes) -> None:
            self.active = self.loop.time()
            super().data_received(data)
            if self.cycle is not self._seen:                 # a new request's head came
                self._seen = self.cycle
                self._head_in()
            elif self.cycle is None or self.cycle.response_complete:
                self._expect_head()                          # a part of the next head

        def connection_lost(self, exc) -> None:
            self._head_in()
            super().connection_lost(exc)

        def _head_late(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                if self.on_late is not None:
                    self.on_late()
                self.transport.close()

    return Protocol


class HttpServer:
    """uvicorn serving an ASGI ``app`` on ``host:port`` as tasks of the running loop (no
    signal handlers of its own: the caller's loop handles SIGTERM/SIGINT), within ``limits``'
    connection bounds.  ``stop`` is given the API's own drain (``api.drain(grace)``)."""

    def __init__(self, api, host: str, port: int, tls=None, limits: Limits | None = None):
        import uvicorn

        self.api = api
        self.limits = limits or Limits()
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host.strip("[]"), port), family=family,
                                           backlog=min(1024, socket.SOMAXCONN))
        self.socket.setblocking(False)
        self.port = self.socket.getsockname()[1]
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        self.address = f"{shown}:{self.port}"
        self.url = f"{'https' if tls else 'http'}://{self.address}/"
        config = uvicorn.Config(api.app, lifespan="off", log_config=None, access_log=False,
                                timeout_graceful_shutdown=2, http="h11",
                                timeout_keep_alive=self.limits.idle_timeout,
                                **(tls.uvicorn_options() if tls else {}))
        config.load()                       # its TLS context, from the files
        self.server = uvicorn.Server(config)
        self.server.servers = []            # no asyncio server of uvicorn's: ours accepts
        self.protocol = _protocol_class()
        self.handshaking = 0
        self.refused = Tally("HTTP connections refused: at most %d open (--max-connections), "
                             "none idle to close" % self.limits.max_connections)
        self.evicted = Tally("HTTP connections idle longest closed for new ones (at the cap "
                             "of %d, --max-connections)" % self.limits.max_connections)
        self.late = Tally(f"HTTP connections closed: no whole request head within "
                          f"{self.limits.header_timeout:g}s (--header-timeout)")
        self.failed = Tally("HTTP connections whose TLS handshake failed or took over "
                            f"{self.limits.header_timeout:g}s")
        self.accept_errors = Tally("HTTP accept failed")
        self.tasks: set[asyncio.Task] = set()

    @property
    def connections(self) -> int:
        """Open connections: serving, or in their TLS handshake."""
        return len(self.server.server_state.connections) + self.handshaking

    async def start(self) -> None:
        self.server.lifespan = self.server.config.lifespan_class(self.server.config)
        self._spawn(self._accept())
        self._spawn(self.server.main_loop())         # uvicorn's tick: the Date header

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, _ = await loop.sock_accept(self.socket)
            except OSError as e:
                self.accept_errors.count(e.strerror or type(e).__name__)
                await asyncio.sleep(ACCEPT_PAUSE)
                continue
            if self.connections >= self.limits.max_connections:
                idle = self._idle_longest(loop.time() - EVICTABLE_AFTER)
                if idle is None:
                    self.refused.count()
                    conn.close()
                    continue
                self.evicted.count()
                idle.transport.close()
            self._spawn(self._connect(conn))

    def _idle_longest(self, before: float):
        """The connection idle longest, since ``before`` (loop time) at least, or None."""
        idle = [p for p in self.server.server_state.connections
                if getattr(p, "between_requests", False) and p.active <= before
                and not p.transport.is_closing()]
        return min(idle, key=lambda p: p.active, default=None)

    async def _connect(self, conn: socket.socket) -> None:
        config = self.server.config
        loop = asyncio.get_running_loop()

        def protocol():
            p = self.protocol(config=config, server_state=self.server.server_state,
                              app_state={}, _loop=loop)
            p.head_timeout = self.limits.header_timeout
            p.on_late = self.late.count
            return p

        self.handshaking += 1
        try:
            await loop.connect_accepted_socket(
                protocol, sock=conn, ssl=config.ssl,
                ssl_handshake_timeout=self.limits.header_timeout if config.ssl else None)
        except (OSError, ssl.SSLError, asyncio.TimeoutError) as e:
            self.failed.count(type(e).__name__)
            conn.close()
        finally:
            self.handshaking -= 1

    async def stop(self, grace: float) -> None:
        if not await self.api.drain(grace):
            log.warning("HTTP searches still running after %gs: stopped", grace)
        self.server.should_exit = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.socket.close()
        await self.server.shutdown()
        for tally in (self.refused, self.evicted, self.late, self.failed, self.accept_errors):
            tally.flush()
