"""A position's deal as it was dealt: the hands before the dog, écart or talon was dealt
with, and the cards outside them (the contract table's starting point).

A position gives the hands *when play starts* (docs/format.md).  For most contracts these
are the hands as dealt; a French ``prise`` or ``garde`` is the exception: the taker took
the dog and put an écart aside, so its hand as dealt is its hand now, plus the écart, less
the dog — and the dog is known only from ``shown_dog``.  Without it the deal as dealt is
lost: only the contract played, with its own écart, can be asked of it.

An Austrian Tarock position has no such field: its hands are taken as dealt, and its six
side cards as the talon (the format keeps no hands from before a talon game's exchange).

A **deal as dealt** (docs/format.md) is that deal written by itself, before any bid: a
position's ``game``, ``hands``, ``first`` (and ``players``, ``table``, ``board``) with the
cards outside the hands — French ``dog``; Priestertarock ``dealer`` and ``open``; Austrian
``talon`` — and no contract.  :func:`parse_deal` reads one (a TarotClub custom deal, the
viewer's editor before the bidding); the contract table, ``atout show`` and ``atout
export`` take it as they take a position's deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing import Any

from .cards import EXCUSE, PETIT, Card, is_trump
from .contract import DECLARER_CAMP, _cards, _check_pack, _seat
from .errors import PositionError
from .games import (AT4_NEGATIVE_TRICKS, AT4_TALON_GAMES, AUSTRIAN, FRENCH, GAME, PRIESTERTAROCK,
                    game_of, rules_for)
from .position import (DEALT_FIELDS, PEOPLE_FIELDS, Position, check_id, parse_first, parse_game,
                       parse_hands, parse_people)
from .printable import shown

__all__ = ["Dealt", "dealt", "parse_deal", "is_deal", "deal_json", "TALON_GAMES", "OUTSIDE_FIELD"]

#: at4 games whose declarer takes talon cards and discards (atout.games.AT4_TALON_GAMES)
TALON_GAMES = AT4_TALON_GAMES


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
    played: Position | None
    missing: PositionError | None = None
    dealer: int | None = None          # priest5
    counting: str = "seed"             # at4
    notes: tuple[str, ...] = field(default=())


def dealt(position: Position) -> Dealt:
    """The deal of ``position`` as dealt (the cards played are ignored)."""
    hands = tuple(tuple(h) for h in position.hands)
    return _DEALT[position.rules.facts.family](position, hands)


def _priest(position: Position, hands: tuple) -> Dealt:
    contract = position.contract
    return Dealt(position.game, position.first, hands,
                 tuple(contract.outside[0] + contract.outside[1]), position,
                 dealer=contract.dealer)


def _austrian(position: Position, hands: tuple) -> Dealt:
    game, contract = position.game, position.contract
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


#: each rulebook's deal as dealt
_DEALT = {FRENCH: _french, PRIESTERTAROCK: _priest, AUSTRIAN: _austrian}

#: the field of a deal as dealt that holds the cards outside the hands, by game (each
#: record's ``outside_field``)
OUTSIDE_FIELD = {name: g.outside_field for name, g in GAME.items()}


def parse_deal(obj: Any) -> Dealt:
    """A deal as dealt (no contract, no card played), checked: the hands of the game's
    size, the cards outside them (``dog``, ``open``, ``talon``) completing the pack, the
    first leader (in Priestertarock the seat after ``dealer``), no French petit sec (such a
    deal is void); raises :class:`PositionError` naming the field."""
    game = parse_game(obj)
    facts = game_of(game)
    allowed = ("id", "game", "hands", "first", "played", facts.outside_field) + PEOPLE_FIELDS
    allowed += ("dealer",) if facts.has_dealer else ()
    for key in sorted(obj, key=str):
        if key not in allowed:
            if key == "contract":
                raise PositionError("contract", "a deal as dealt has no contract (a position "
                                                "with one gives its dog, open cards or talon there)")
            if key in DEALT_FIELDS:
                raise PositionError(key, f"not a field of a {game} deal as dealt (its cards "
                                         f"outside the hands are {facts.outside_field})")
            raise PositionError(shown(key), "unknown field")
    if obj.get("id") is not None:
        check_id(obj["id"])
    seats = facts.seats
    hands = parse_hands(obj, game)
    first = parse_first(obj, seats)
    if obj.get("played"):
        raise PositionError("played", "a deal as dealt has no card played: give its contract "
                                      "to play it")
    rules = rules_for(game)
    fld = facts.outside_field
    if fld not in obj:
        raise PositionError(fld, "is missing")
    outside = _cards(obj[fld], fld, rules)
    if len(outside) != facts.outside:
        raise PositionError(fld, f"must hold {facts.outside} cards, not {len(outside)}")
    _check_pack(rules, hands, outside, fld)
    dealer = None
    if facts.has_dealer:
        if "dealer" not in obj:
            raise PositionError("dealer", "is missing")
        dealer = _seat(obj["dealer"], "dealer", seats)
        if first != (dealer + 1) % seats:
            raise PositionError("first", f"the player after the dealer leads (seat "
                                         f"{(dealer + 1) % seats})")
    if facts.petit_sec_void:
        for seat, h in enumerate(hands):
            if [c for c in h if is_trump(c) or c == EXCUSE] == [PETIT]:
                raise PositionError(f"hands[{seat}]", "petit sec: the only trump is T1 (the "
                                                      "deal is void)")
    parse_people(obj, seats)
    return Dealt(game, first, tuple(tuple(h) for h in hands), tuple(outside), None,
                 dealer=dealer)


def is_deal(obj: Any) -> bool:
    """An object written as a deal as dealt (no contract, its cards outside the hands
    beside them): read by :func:`parse_deal`, not as a position."""
    return isinstance(obj, dict) and "contract" not in obj and any(k in obj for k in DEALT_FIELDS)


def deal_json(d: Dealt, ident: Any = None) -> dict:
    """A deal as dealt's object (docs/format.md), from a :class:`Dealt` whose hands are known."""
    from .cards import tokens
    obj: dict[str, Any] = {} if ident is None else {"id": ident}
    obj.update({"game": d.game, "hands": [tokens(h) for h in d.hands], "first": d.first})
    facts = game_of(d.game)
    if facts.has_dealer:
        obj["dealer"] = d.dealer
    obj[facts.outside_field] = tokens(d.outside)
    return obj
