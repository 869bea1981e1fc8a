"""The exhaustive reference search: plain minimax over the rules engine, no pruning.

Obviously right and slow: use it on endgames of a few tricks.  The declarer's camp
(``contract.maximizer``; in at4 Trischaken the three others) maximises the solver
value ``outcome()["value"]``, the other camp minimises it.

    reference_values(position) -> {card token: value after playing that card}
    reference_value(position)  -> the value of the position
    value_of(pos, values)      -> the position's value from reference_values' answer
"""

from __future__ import annotations

from atout.cards import token
from atout.position import Position, parse_position


def _position(position) -> Position:
    return position if isinstance(position, Position) else parse_position(position)


def maximizing(pos: Position) -> bool:
    """Does the seat to play belong to the maximizing camp?"""
    return pos.contract.camp[pos.to_play] == pos.contract.maximizer


def _value(pos: Position):
    if pos.is_finished():
        return pos.outcome()["value"]
    values = []
    for c in pos.legal_cards():
        pos.play(c)
        values.append(_value(pos))
        pos.undo()
    return max(values) if maximizing(pos) else min(values)


def reference_values(position) -> dict:
    """Every legal card of the seat to play, with the minimax value after playing it."""
    pos = _position(position)
    values = {}
    for c in pos.legal_cards():
        pos.play(c)
        values[token(c)] = _value(pos)
        pos.undo()
    return values


def reference_value(position):
    """The minimax value of the position (its outcome value when the deal is finished)."""
    return _value(_position(position))


def value_of(pos: Position, values: dict) -> int:
    """The value of ``pos`` from the value of each card to play (``reference_values``)."""
    return max(values.values()) if maximizing(pos) else min(values.values())
