"""``atout serve``: the gRPC server — the Solver service, health, reflection, a clean drain —
and, with ``http_port``, the HTTP API and hand viewer (:mod:`.http`) in the same event loop
on the same search processes.

    server = await start(host, port, workers=2)    # listening, health SERVING
    server = await start(host, port, http_port=0)  # also HTTP: server.http.url
    server = await start(host, None, http_port=0)  # HTTP only (`atout view`)
    await server.drain()                           # NOT_SERVING, finish calls, stop workers

:func:`run` is the command: it serves until SIGTERM or SIGINT, then drains in-flight
calls (up to ``grace`` seconds; calls still running then are cancelled, which stops
their searches) and exits.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

from .logs import one_line_loop_errors, quiet_grpc_core

quiet_grpc_core()       # before grpc is imported: its C core reads the setting once

import grpc  # noqa: E402
from grpc_health.v1 import health, health_pb2, health_pb2_grpc  # noqa: E402
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc  # noqa: E402

from atout.proto.v1 import solver_pb2 as pb  # noqa: E402
from atout.proto.v1 import solver_pb2_grpc as pb_grpc  # noqa: E402

from .gate import Gate  # noqa: E402
from .limits import KEEPALIVE_TIMEOUT, Limits, PeerCalls, fit_open_files  # noqa: E402
from .pool import SearchPool  # noqa: E402
from .security import Tls, exposure_warnings  # noqa: E402
from .service import SolverService  # noqa: E402

log = logging.getLogger("atout.server")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Solver"].full_name  # "atout.v1.Solver"
#: a position is a few kB: 8 MiB holds a batch of thousands, and refuses anything absurd
MAX_MESSAGE_BYTES = 8 << 20
DEFAULT_PORT = 50051
DEFAULT_GRACE = 30.0
#: calls one HTTP/2 connection may have open at once (gRPC's default has no bound)
MAX_STREAMS_PER_CONNECTION = 100
#: metadata (headers) of one call: a token and a few more, not megabytes
MAX_METADATA_BYTES = 16 << 10


def grpc_options(limits: Limits) -> list[tuple[str, int]]:
    """gRPC's own bounds on what a connection holds, from the operator's limits: connections
    (refused before their handshake), the handshake's time (a TLS hello or the HTTP/2
    preface; a raw TCP connection that sends neither is closed then), idle connections
    closed (clients reconnect by themselves), keep-alive pings that find dead peers."""
    ms = lambda seconds: int(seconds * 1000)    # noqa: E731
    return [
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ("grpc.so_reuseport", 0),
        ("grpc.max_allowed_incoming_connections", limits.max_connections),
        ("grpc.server_handshake_timeout_ms", ms(limits.header_timeout)),
        ("grpc.max_connection_idle_ms", ms(limits.idle_timeout)),
        ("grpc.keepalive_time_ms", ms(limits.keepalive)),
        ("grpc.keepalive_timeout_ms", ms(KEEPALIVE_TIMEOUT)),
        ("grpc.max_concurrent_streams", MAX_STREAMS_PER_CONNECTION),
        ("grpc.max_metadata_size", MAX_METADATA_BYTES),
    ]


class Server:
    """A started server: ``address`` (host:port actually bound), ``pool``, :meth:`drain`."""

    def __init__(self, grpc_server, health_servicer, gate: Gate | None, pool: SearchPool,
                 address: str | None, http=None):
        self.grpc_server = grpc_server
        self.health = health_servicer
        self.gate = gate
        self.pool = pool
        self.address = address
        self.http = http        # an atout.server.http_server.HttpServer, or None

    async def drain(self, grace: float = DEFAULT_GRACE) -> None:
        """Report NOT_SERVING, refuse new calls, let running ones finish (``grace`` s at
        most: later ones are cancelled, which stops their searches), then stop the workers.

        Only Solver calls are waited for: health Watch streams (load balancers) never end
        by themselves and are closed with the server.  HTTP requests are drained alike."""
        waits = []
        if self.grpc_server is not None:
            await self.health.enter_graceful_shutdown()
            waits.append(self._drain_grpc(grace))
        if self.http is not None:
            waits.append(self.http.stop(grace))
        await asyncio.gather(*waits)
        await self.pool.close()

    async def _drain_grpc(self, grace: float) -> None:
        # gRPC's own stop first: its GOAWAY tells clients to send no more calls here, so
        # that few arrive to be cancelled when the server closes (a call refused by the
        # gate meanwhile is UNAVAILABLE, which clients retry elsewhere)
        stopping = asyncio.ensure_future(self.grpc_server.stop(grace))
        if not await self.gate.drain(grace):
            log.warning("calls still running after %gs: cancelled", grace)
        await self.grpc_server.stop(0.5)    # the health Watch streams, which never end
        await stopping


async def start(host: str = "127.0.0.1", port: int | None = DEFAULT_PORT, *,
                workers: int | None = None, tt_mb: int | None = None,
                http_port: int | None = None, http_host: str | None = None,
                deals: list[dict] | None = None, limits: Limits | None = None,
                tls: Tls | None = None, token: bytes | None = None) -> Server:
    """Spawn the workers, bind ``host:port`` (0: any free port; None: no gRPC) and, with
    ``http_port``, the HTTP API on ``http_host`` (default: ``host``), and start serving.
    ``deals``: positions the viewer offers (`atout view FILE`); ``limits``: what one
    request may ask (:class:`.limits.Limits`); ``tls``, ``token``: see :mod:`.security`."""
    limits = limits or Limits()
    workers = workers or os.cpu_count() or 1
    limits = fit_open_files(limits, workers, (port is not None) + (http_port is not None))
    pool = SearchPool(workers, max_queue=limits.max_queue)
    await pool.start()
    peers = PeerCalls(limits.max_calls_per_peer)   # gRPC calls and HTTP requests together
    http = None
    if http_port is not None:
        from .http import HttpApi
        from .http_server import HttpServer
        try:
            api = HttpApi(pool, tt_mb=tt_mb, deals=deals, limits=limits, peers=peers,
                          token=token)
            http = HttpServer(api, http_host or host, http_port, tls=tls, limits=limits)
        except OSError as e:
            await pool.close()
            raise OSError(f"cannot listen on {http_host or host}:{http_port} "
                          f"for HTTP ({e.strerror})") from None
        await http.start()
    if port is None:
        return Server(None, None, None, pool, None, http)
    server = grpc.aio.server(options=grpc_options(limits))
    gate = Gate(server, token, peers)   # every call: the token, the peer's room, one log line
    pb_grpc.add_SolverServicer_to_server(SolverService(pool, tt_mb, limits), gate)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, gate)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(reflection.aio.ReflectionServicer(
        (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
         reflection.SERVICE_NAME)), gate)
    bare = host.strip("[]")
    shown = f"[{bare}]" if ":" in bare else bare        # an IPv6 address in brackets
    try:
        if tls is None:
            bound = server.add_insecure_port(f"{shown}:{port}")
        else:
            bound = server.add_secure_port(f"{shown}:{port}", tls.grpc_credentials())
    except RuntimeError:
        bound = 0
    if bound == 0:
        if http is not None:
            await http.stop(0)
        await pool.close()
        raise OSError(f"cannot listen on {shown}:{port}")
    await server.start()

    async def say(serving: bool) -> None:
        status = health_pb2.HealthCheckResponse.SERVING if serving else \
            health_pb2.HealthCheckResponse.NOT_SERVING
        for name in ("", SERVICE_NAME):
            await health_servicer.set(name, status)    # (no change once draining)
    await say(pool.ready > 0)
    # NOT_SERVING while no search process runs (the pool is starting one again)
    pool.on_ready = lambda serving: asyncio.ensure_future(say(serving))
    return Server(server, health_servicer, gate, pool, f"{shown}:{bound}", http)


async def serve(host: str, port: int | None, *, workers: int | None = None,
                tt_mb: int | None = None, grace: float = DEFAULT_GRACE,
                http_port: int | None = None, deals: list[dict] | None = None,
                on_started=None, limits: Limits | None = None, tls: Tls | None = None,
                token: bytes | None = None) -> None:
    """Serve until SIGTERM or SIGINT, then drain and return.  ``on_started(server)`` is
    called once everything listens."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    one_line_loop_errors(loop)
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    server = await start(host, port, workers=workers, tt_mb=tt_mb, http_port=http_port,
                         deals=deals, limits=limits, tls=tls, token=token)
    for warning in exposure_warnings([host], tls, token):
        log.warning("warning: %s", warning)
    if server.address is not None:
        log.info("listening on %s (%d search processes %s, tt %s MB each%s%s)", server.address,
                 server.pool.size, " ".join(map(str, server.pool.pids())), tt_mb or "default",
                 ", TLS" + (" with client certificates" if tls.client_ca else "") if tls else "",
                 ", token required" if token else "")
    if server.http is not None:
        log.info("HTTP API and viewer on %s", server.http.url)
    if on_started is not None:
        on_started(server)
    await stop.wait()
    log.info("draining (up to %gs)", grace)
    await server.drain(grace)
    log.info("stopped")


def run(host: str, port: int | None, workers: int | None, tt_mb: int | None, grace: float,
        http_port: int | None = None, deals: list[dict] | None = None, on_started=None,
        log_level: int = logging.INFO, prog: str = "atout serve", limits: Limits | None = None,
        tls: Tls | None = None, token: bytes | None = None) -> int:
    logging.basicConfig(level=log_level, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(message)s")
    try:
        asyncio.run(serve(host, port, workers=workers, tt_mb=tt_mb, grace=grace,
                          http_port=http_port, deals=deals, on_started=on_started,
                          limits=limits, tls=tls, token=token))
    except OSError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    return 0
