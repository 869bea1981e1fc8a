"""Bots playing whole deals, card after card, each from its own seat (``atout play``,
``bench/duplicate.py``).

A deal is played from the deal as dealt (the cards of the position played so far are
ignored; the contract, dog, écart, announcements and calls are the position's): at each
card the seat to play's bot (:mod:`atout.solver.bots`) chooses among the legal cards — a
seat with one legal card plays it at once — and the card is played.  The finished deal
is a played position (docs/format.md), the bots named in its ``players``: what ``atout
analyze`` reads.

The seed of card ``i`` of deal ``n`` comes from the play's seed and those two numbers
(:func:`card_seed`), which every seat knows: with budgets in nodes the same seed plays the
same cards on any machine and at any number of workers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from atout.cards import card, token
from atout.options import MAX_SEED
from atout.position import Position, parse_position

from .bots import Choice
from .cancel import Cancel

__all__ = ["Played", "Stopped", "as_dealt", "card_seed", "play_deal"]


class Stopped(Exception):
    """A cancel (Ctrl-C, SIGTERM) stopped a deal before its end: ``cards`` were played."""

    def __init__(self, cards: int):
        super().__init__(f"stopped after {cards} cards")
        self.cards = cards


@dataclass
class Played:
    """A finished deal: the played ``position``, each card's :class:`Choice` in order,
    and the ``seconds`` it took."""

    position: Position
    choices: list = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return self.position.to_json()


def as_dealt(position: Position) -> Position:
    """The deal of ``position`` with no card played (its contract and everything else kept)."""
    obj = position.to_json()
    obj["played"] = []
    return parse_position(obj)


def card_seed(seed: int, deal: int, index: int) -> int:
    """The advice seed of card ``index`` of deal number ``deal`` of a play seeded ``seed``:
    public numbers only (no seat's cards), spread so that neighbours draw unlike deals."""
    return (seed * 1_000_003 + deal * 7_919 + index * 104_729 + 12_345) % (MAX_SEED + 1)


def play_deal(deal: Position, bots: Sequence, *, seed: int = 0, number: int = 0,
              cancel: Cancel | None = None,
              on_card: Callable[[Position, Choice], None] | None = None) -> Played:
    """Play ``deal`` from the deal as dealt, ``bots[seat]`` choosing each seat's cards,
    ``number`` the deal's number (its cards' seeds).  ``on_card(position, choice)`` after
    each card.  A ``cancel`` set raises :class:`Stopped` (the card being chosen is not
    played)."""
    started = time.perf_counter()
    pos = as_dealt(deal)
    pos.players = [bot.name for bot in bots]
    choices = []
    while not pos.is_finished:
        if cancel is not None and cancel.is_set():
            raise Stopped(len(pos.played))
        legal = pos.legal_cards()
        if len(legal) == 1:
            choice = Choice(token(legal[0]), "only card")
        else:
            bot = bots[pos.to_play]
            choice = bot.choose(pos, card_seed(seed, number, len(pos.played)), cancel)
            if cancel is not None and cancel.is_set():
                raise Stopped(len(pos.played))
        pos.play(card(choice.card))
        choices.append(choice)
        if on_card is not None:
            on_card(pos, choice)
    return Played(pos, choices, time.perf_counter() - started)
