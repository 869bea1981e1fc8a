"""A position's deal as it was dealt: the hands before the dog, écart or talon was dealt
with, and the cards outside them (the contract table's starting point).

A position gives the hands *when play starts* (docs/format.md).  For most contracts these
are the hands as dealt; a French ``prise`` or ``garde`` is the exception: the taker took
the dog and put an écart aside, so its hand as dealt is its hand now, plus the écart, less
the dog — and the dog is known only from ``shown_dog``.  Without it the deal as dealt is
lost: only the contract played, with its own écart, can be asked of it.

An Austrian Tarock position has no such field: its hands are taken as dealt, and its six
side cards as the talon (the format keeps no hands from before a talon game's exchange).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .contract import DECLARER_CAMP
from .errors import PositionError
from .games import AT4_NEGATIVE_TRICKS
from .position import Position

__all__ = ["Dealt", "dealt", "TALON_GAMES"]

#: at4 games whose declarer takes talon cards and discards (seed 003): their outcome hangs
#: on that choice, so the table has them only where the position gives the discard
TALON_GAMES = ("vorhandrufer", "farbenrufer", "pagatrufer", "uhurufer", "kakadurufer",
               "maraburufer", "dreier", "sechserdreier", "farbendreier", "farbensechser")


@dataclass(frozen=True)
class Dealt:
    """The deal as dealt.  ``hands`` is None where it cannot be recovered (``missing``
    says which field would give it and why); ``outside`` the cards outside the hands as
    dealt (fr: the dog; priest5: the open cards; at4: the talon).  ``played``: the
    position as played, whose own contract the table also asks (with its own écart or
    discard).  ``first``: the seat that leads the point games (fr, priest5: the first to
    bid too).  ``notes``: what a reader should know of how the deal was read."""

    game: str
    first: int
    hands: tuple[tuple[Card, ...], ...] | None
    outside: tuple[Card, ...] | None
    played: Position
    missing: PositionError | None = None
    dealer: int | None = None          # priest5
    counting: str = "seed"             # at4
    notes: tuple[str, ...] = field(default=())


def dealt(position: Position) -> Dealt:
    """The deal of ``position`` as dealt (the cards played are ignored)."""
    game, contract = position.game, position.contract
    hands = tuple(tuple(h) for h in position.hands)
    if game in ("fr3", "fr4", "fr5"):
        return _french(position, hands)
    if game == "priest5":
        return Dealt(game, position.first, hands, tuple(contract.outside[0] + contract.outside[1]),
                     position, dealer=contract.dealer)
    notes = ()
    first = position.first
    if contract.bid in AT4_NEGATIVE_TRICKS:
        notes = (f"the position's contract is a negative game, led by its declarer: seat "
                 f"{first} is taken as the forehand, who leads the other games",)
    if contract.bid == "trischaken":
        talon = tuple(contract.talon)
    else:
        talon = tuple(contract.outside[0] + contract.outside[1])
    if contract.bid in TALON_GAMES:
        notes += (f"the hands are those after the {contract.bid}'s talon exchange (a "
                  "position keeps no other)",)
    return Dealt(game, first, hands, talon, position, counting=contract.counting, notes=notes)


def _french(position: Position, hands: tuple) -> Dealt:
    contract = position.contract
    taker = contract.declarer
    dog = tuple(contract.outside[DECLARER_CAMP] or contract.outside[1 - DECLARER_CAMP])
    notes = ()
    if contract.chelem:
        notes = (f"a slam was announced, so the taker led: seat {position.first} is taken as "
                 "the first to bid and lead",)
    if contract.bid in ("garde_sans", "garde_contre"):
        return Dealt(position.game, position.first, hands, dog, position, notes=notes)
    if not contract.shown_dog:
        missing = PositionError("contract.shown_dog", "is missing: the dog of a "
                                f"{contract.bid} is known only from it (contract.dog is the "
                                "taker's écart), so only the contract played can be asked")
        return Dealt(position.game, position.first, None, None, position, missing, notes=notes)
    shown = tuple(contract.shown_dog)
    before = [c for c in list(hands[taker]) + list(dog) if c not in shown]
    dealt_hands = tuple(tuple(before) if s == taker else h for s, h in enumerate(hands))
    return Dealt(position.game, position.first, dealt_hands, shown, position, notes=notes)
