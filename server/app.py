"""``atout serve``: the gRPC server — the Solver service, health, reflection, a clean drain.

    server = await start(host, port, workers=2)    # listening, health SERVING
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

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from atout.proto.v1 import solver_pb2 as pb
from atout.proto.v1 import solver_pb2_grpc as pb_grpc

from .pool import SearchPool
from .service import SolverService

log = logging.getLogger("atout.server")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Solver"].full_name  # "atout.v1.Solver"
#: a position is a few kB: 8 MiB holds a batch of thousands, and refuses anything absurd
MAX_MESSAGE_BYTES = 8 << 20
DEFAULT_PORT = 50051
DEFAULT_GRACE = 30.0


class Server:
    """A started server: ``address`` (host:port actually bound), ``pool``, :meth:`drain`."""

    def __init__(self, grpc_server, health_servicer, service: SolverService, pool: SearchPool,
                 address: str):
        self.grpc_server = grpc_server
        self.health = health_servicer
        self.service = service
        self.pool = pool
        self.address = address

    async def drain(self, grace: float = DEFAULT_GRACE) -> None:
        """Report NOT_SERVING, refuse new calls, let running ones finish (``grace`` s at
        most: later ones are cancelled, which stops their searches), then stop the workers.

        Only Solver calls are waited for: health Watch streams (load balancers) never end
        by themselves and are closed with the server."""
        await self.health.enter_graceful_shutdown()
        if not await self.service.drain(grace):
            log.warning("calls still running after %gs: cancelled", grace)
        await self.grpc_server.stop(0.5)
        await self.pool.close()


async def start(host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, workers: int | None = None,
                tt_mb: int | None = None) -> Server:
    """Spawn the workers, bind ``host:port`` (0: any free port) and start serving."""
    pool = SearchPool(workers or os.cpu_count() or 1)
    await pool.start()
    server = grpc.aio.server(options=[
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ("grpc.so_reuseport", 0),
    ])
    service = SolverService(pool, tt_mb)
    pb_grpc.add_SolverServicer_to_server(service, server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
         reflection.SERVICE_NAME), server)
    try:
        bound = server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:
        bound = 0
    if bound == 0:
        await pool.close()
        raise OSError(f"cannot listen on {host}:{port}")
    await server.start()
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    shown = f"[{host}]" if ":" in host else host
    return Server(server, health_servicer, service, pool, f"{shown}:{bound}")


async def serve(host: str, port: int, *, workers: int | None = None, tt_mb: int | None = None,
                grace: float = DEFAULT_GRACE) -> None:
    """Serve until SIGTERM or SIGINT, then drain and return."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    server = await start(host, port, workers=workers, tt_mb=tt_mb)
    log.info("listening on %s (%d search processes %s, tt %s MB each)", server.address,
             server.pool.size, " ".join(map(str, server.pool.pids())), tt_mb or "default")
    await stop.wait()
    log.info("draining (up to %gs)", grace)
    await server.drain(grace)
    log.info("stopped")


def run(host: str, port: int, workers: int | None, tt_mb: int | None, grace: float) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(message)s")
    try:
        asyncio.run(serve(host, port, workers=workers, tt_mb=tt_mb, grace=grace))
    except OSError as e:
        print(f"atout serve: {e}", file=sys.stderr)
        return 2
    return 0
