"""Typed errors: bad input is a ValueError that names the field and the reason."""


class PositionError(ValueError):
    """A position (or one of its fields) that the rules refuse.

    ``field`` is a path into the position JSON, e.g. ``hands[2][5]``,
    ``played[7]`` or ``contract.dog``; ``reason`` says what is wrong.

    >>> str(PositionError("first", "must be a seat 0..3"))
    'first: must be a seat 0..3'
    """

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class Stopped(Exception):
    """A computation stopped because its caller asked it to (its ``stop()`` said yes):
    nothing it would have returned exists yet."""


class IllegalCardError(PositionError):
    """A card that the seat to play does not hold or may not play now."""
