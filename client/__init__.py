"""atout client side: the command line (`atout`) and the gRPC client (:class:`Client`)."""

__all__ = ["Client", "ServiceError", "InvalidPositionError"]


def __getattr__(name):
    # Lazy: the command line does not load grpc unless it talks to a server.
    if name in __all__:
        from . import remote
        return getattr(remote, name)
    raise AttributeError(f"module 'atout.client' has no attribute {name!r}")
