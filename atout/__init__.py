"""atout: double-dummy solving and hand analysis for tarot card games."""

from .errors import IllegalCardError, PositionError
from .position import Position, loads, parse_position

__all__ = ["Position", "PositionError", "IllegalCardError", "loads", "parse_position"]
__version__ = "0.1.0"


def __getattr__(name):
    # Lazy: `import atout` stays light (no compiled search, no process pools).
    if name == "analyze":
        from .solver.analyze import analyze
        return analyze
    if name == "batch":
        import importlib
        return importlib.import_module(".batch", __name__)
    raise AttributeError(f"module 'atout' has no attribute {name!r}")
