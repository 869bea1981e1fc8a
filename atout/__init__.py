"""atout: double-dummy solving and hand analysis for tarot card games."""

from .errors import IllegalCardError, PositionError
from .position import Position, loads, parse_position

__all__ = ["Position", "PositionError", "IllegalCardError", "loads", "parse_position"]
__version__ = "0.1.0"
