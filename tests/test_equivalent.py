"""Legal cards provably worth the same from the seat's view (solver/equivalent.py), checked
against brute force: in random small positions of every game and contract, the cards the
rule puts in one group have the same minimax value (tests/reference.py: plain minimax over
the rules engine, no solver) in the real deal and in deals drawn among those the seat
cannot tell from it."""

from __future__ import annotations

import random

import pytest

from atout.cards import token, tokens
from atout.deal import BIDS
from atout.knowledge import seat_knowledge
from atout.position import parse_position
from atout.sampler import Sampler
from atout.solver.equivalent import equivalent_cards
from deals import GAMES, keep_policy, random_endgame
from reference import reference_value


def _values(pos, cards) -> set:
    """The minimax values after each of ``cards`` (legal cards of the seat to play)."""
    out = set()
    for c in cards:
        pos.play(c)
        out.add(reference_value(pos))
        pos.undo()
    return out


#: cards with rules or points of their own, kept to the end of some deals so that the
#: endgames hold them beside their neighbours
KEEP = ["T1", "T2", "T3", "T4", "T20", "T21", "EX", "KS", "QS", "KH", "QH"]


@pytest.mark.parametrize("game", GAMES)
def test_equivalent_cards_are_worth_the_same_in_every_deal(game):
    """Every group of the rule, in 40 positions with one at least (20 with five hands; 2
    or 3 tricks left; half of them dealt keeping the special cards and honours to the
    end), in the real deal and 3 drawn."""
    rng = random.Random(f"equivalent-{game}")
    split = 0
    positions = 20 if game in ("fr5", "priest5") else 40     # five hands: dearer
    for i in range(positions):
        bid = rng.choice(BIDS[game]) if BIDS[game] else None
        pos = parse_position(random_endgame(
            rng, game, rng.randrange(2, 4), bid=bid, partial=rng.random() < 0.6,
            policy=keep_policy(KEEP) if i % 2 else None,
            accept=lambda p: any(len(g) > 1 for g in equivalent_cards(p))))
        groups = equivalent_cards(pos)
        assert sorted(c for g in groups for c in g) == sorted(pos.legal_cards())
        assert all(list(g) == sorted(g) for g in groups)
        split += len(groups) > 1
        drawn = Sampler(seat_knowledge(pos, pos.to_play)).positions(rng, 3)
        for deal in [pos, *map(parse_position, drawn)]:
            for g in groups:
                if len(g) > 1:
                    assert len(_values(deal, g)) == 1, (game, pos.contract.bid, tokens(g),
                                                        deal.to_json())
    # not only positions where every legal card is one choice
    assert split >= positions // 5, split


def _fr4(bid: str, played: list) -> list:
    """The groups of two cards or more of seat 0 among its spades and low trumps, in an
    fr4 deal made for the purpose: seat 0, the taker, holds 2S 4S 6S 8S 10S QS KS and T1
    T2 T3 T5; 3S and T4 are seat 1's, 5S and 9S seat 2's, 1S seat 3's, 7S lies in the
    dog; seat 1 leads."""
    hands = [["2S", "4S", "6S", "8S", "10S", "QS", "KS", "T1", "T2", "T3", "T5"],
             ["3S", "JS", "T4"], ["5S", "9S", "NS"], ["1S"]]
    dog = ["7S", "1H", "2H", "3H", "4H", "5H"]
    taken = {t for h in hands for t in h} | set(dog)
    rest = [token(c) for c in range(78) if token(c) not in taken]
    for h in hands:
        while len(h) < 18:
            h.append(rest.pop())
    pos = parse_position({"game": "fr4", "hands": hands, "first": 1, "played": played,
                          "contract": {"taker": 0, "bid": bid, "dog": dog}})
    assert pos.to_play == 0
    named = {t for t in hands[0][:11]}
    return [[token(c) for c in g] for g in equivalent_cards(pos)
            if len(g) > 1 and token(g[0]) in named]


def test_what_joins_and_what_breaks_a_run():
    """A card between two of the seat's cards joins them when it is out of play for sure
    (a finished trick, the écart the taker made) or the seat's own of the same points;
    a card the seat cannot place, or one on the table in the current trick, keeps them
    apart, and so do other points (QS KS) and a card with a rule of its own (T1)."""
    # 3S on the table (seat 0 follows in the first trick): nothing joins 2S and 4S
    assert not any("2S" in g for g in _fr4("garde_sans", ["3S", "9S", "1S"]))
    # the trick over (seat 0's 10S won it): 3S joins 2S 4S; 5S unseen; 7S in a dog
    # nobody saw (garde sans); T2 T3 the seat's own; T4 unseen
    assert _fr4("garde_sans", ["3S", "9S", "1S", "10S"]) == [["2S", "4S"], ["T2", "T3"]]
    # a garde: the taker made the écart, so 7S is out of play for it
    assert _fr4("garde", ["3S", "9S", "1S", "10S"]) == [["2S", "4S"], ["6S", "8S"], ["T2", "T3"]]
    assert _fr4("garde", ["3S", "5S", "1S", "10S"]) == [["2S", "4S", "6S", "8S"], ["T2", "T3"]]
