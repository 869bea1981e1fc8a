"""The gRPC service (``atout serve``): ``atout.v1.Solver`` over a pool of search processes.

    from atout.server import start
    server = await start("127.0.0.1", 0, workers=2)   # server.address: "127.0.0.1:PORT"
    ...
    await server.drain()

Modules: ``app`` (the server, health, reflection, drain), ``service`` (the three
methods and their status codes), ``pool`` and ``worker`` (the spawned search processes).
"""


def __getattr__(name):
    # Lazy: importing atout.server (e.g. by a spawned worker) does not load grpc.
    if name in ("start", "serve", "Server"):
        from . import app
        return getattr(app, name)
    raise AttributeError(f"module 'atout.server' has no attribute {name!r}")
