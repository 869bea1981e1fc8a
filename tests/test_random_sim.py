"""Random simulation: thousands of random legal deals per game, played to the end with
random legal cards; the invariants hold at every step and at the end."""

from __future__ import annotations

import os
import random
from fractions import Fraction

import pytest

from atout.cards import EXCUSE, tokens
from atout.games import AT4_BIDS, HAND_SIZE, SEATS
from atout.position import parse_position
from atout.scoring import FR_NEEDED
from deals import GAMES, keep_policy, mixed_policy, random_position, slam_policy, uniform_policy

#: deals per game; ATOUT_SIM_SCALE=10 runs ten times as many (a long soak)
SCALE = float(os.environ.get("ATOUT_SIM_SCALE", "1"))
DEALS = {"fr4": 1000, "fr3": 1000, "fr5": 1000, "priest5": 1000, "at4": 2000}
FR_BIDS = ("prise", "garde", "garde_sans", "garde_contre")


def _state(pos):
    return ([set(h) for h in pos.held], list(pos.trick), list(pos.tricks), list(pos.played),
            pos.to_play, pos.trick_no)


def _check_step(pos, deep: bool):
    """Invariants of a position in play; ``deep``: also card conservation, undo and a
    JSON round trip (slower, so only on some deals)."""
    seat = pos.to_play
    legal = pos.legal_cards()
    assert legal, "no legal card"
    assert set(legal) <= pos.held[seat]
    assert len(set(legal)) == len(legal)
    if not deep:
        return
    # cards conserved: every seat's start hand = what it holds + what it played
    by_seat = [set() for _ in range(pos.seats)]
    for t in pos.tricks:
        assert len(t.cards) == pos.seats
        assert t.winner in [s for s, _ in t.cards]
        for s, c in t.cards:
            by_seat[s].add(c)
    for s, c in pos.trick:
        by_seat[s].add(c)
    assert len(pos.played) == len(set(pos.played))
    for s in range(pos.seats):
        assert pos.held[s] | by_seat[s] == set(pos.hands[s])
        assert not pos.held[s] & by_seat[s]
        # everyone has played the same number of cards, give or take the trick on the table
        assert len(pos.held[s]) in (HAND_SIZE[pos.game] - pos.trick_no,
                                    HAND_SIZE[pos.game] - pos.trick_no - 1)
    # the winner of a trick leads the next one
    leaders = [pos.first] + [t.winner for t in pos.tricks]
    for t, leader in zip(pos.tricks, leaders):
        assert t.cards[0][0] == leader
    before = _state(pos)
    pos.play(legal[-1])
    pos.undo()
    assert _state(pos) == before
    again = parse_position(pos.to_json())
    assert _state(again) == before


def _check_end(pos):
    out = pos.outcome()
    game, contract = pos.game, pos.contract
    assert pos.legal_cards() == [] and pos.to_play is None
    # cards conserved: all hands played out, each card once, by the seat that held it
    assert not any(pos.held)
    assert sorted(pos.played) == sorted(c for h in pos.hands for c in h)
    assert all(c in pos.hands[s] for t in pos.tricks for s, c in t.cards)
    if game.startswith("fr"):
        total = Fraction(out["taker_points"]) + Fraction(out["defence_points"])
        assert total == 91
        assert out["needed"] == FR_NEEDED[out["bouts"]]
        assert out["made"] == (Fraction(out["taker_points"]) >= out["needed"])
        assert out["made"] == (out["margin"] >= 0)
        assert sum(out["scores"]) == 0
        assert out["scores"][contract.declarer] == (
            (2 if contract.partner is not None else SEATS[game] - 1) * out["value"]
            if game != "fr5" else (2 if contract.partner is not None else 4) * out["value"])
        assert all(out["scores"][s] == -out["value"] for s in range(pos.seats)
                   if s not in (contract.declarer, contract.partner))
    elif game == "priest5":
        narr_late = any(c == EXCUSE for t in pos.tricks[10:] for _, c in t.cards)
        assert out["total"] == (66 if narr_late else 71)
        assert out["caller_points"] + out["other_points"] == out["total"]
        assert out["value"] == out["caller_points"] - out["other_points"]
        assert sum(out["scores"]) == 0
        assert out["scores"][contract.declarer] == (2 if contract.partner is not None else 4) * (
            1 if out["made"] else -1)
        if out["caller_points"] != out["other_points"]:
            assert out["made"] == (out["caller_points"] > out["other_points"])
    elif contract.bid == "trischaken":
        assert sum(out["points"]) == 106
        assert sum(out["tricks"]) == 12
        assert out["scores"] is None
        assert out["value"] == (out["points"][out["for_seat"]] if contract.counting == "seed"
                                else 3 * out["points"][out["for_seat"]] - 2 * _cards_of(pos, out["for_seat"]))
    else:
        assert out["declarer_points"] + out["other_points"] == 106
        assert sum(out["tricks"]) == 12
        assert sum(out["scores"]) == 0
        assert out["made"] in (True, False)
        assert out["scores"][contract.declarer] == (1 if contract.partner is not None else 3) * (
            1 if out["made"] else -1)
        if contract.counting == "standard":
            other = 3 * out["other_points"] - 2 * (54 - out["declarer_cards"])
            assert out["count"] + other == 210
    # exactly one camp wins: every seat of one camp gains, every seat of the other loses
    if out["scores"] is not None and any(out["scores"]):
        winners = {contract.camp[s] for s in range(pos.seats) if out["scores"][s] > 0}
        losers = {contract.camp[s] for s in range(pos.seats) if out["scores"][s] < 0}
        assert len(winners) == 1 and len(losers) == 1 and winners != losers
        # ... and it is the camp that made its contract, unless a chelem bonus outweighs it
        if not (game.startswith("fr") and (out["chelem"] or contract.chelem)):
            assert winners == {contract.camp[contract.declarer] if out["made"]
                               else 1 - contract.camp[contract.declarer]}
    return out


def _cards_of(pos, seat):
    """Cards won by ``seat`` in Trischaken, talon cards included."""
    won = sum(pos.seats for t in pos.tricks if t.winner == seat)
    return won + sum(1 for i, t in enumerate(pos.tricks[:6]) if t.winner == seat)


def _bids(game):
    if game.startswith("fr"):
        return FR_BIDS
    if game == "at4":
        return AT4_BIDS
    return (None,)


@pytest.mark.parametrize("game", GAMES)
def test_random_deals(game):
    rng = random.Random(f"sim-{game}")
    policies = [uniform_policy, uniform_policy, keep_policy(["EX", "T1"]),
                mixed_policy(uniform_policy, slam_policy(0)), slam_policy(1, 0.8)]
    bids = _bids(game)
    made = set()
    for i in range(int(DEALS[game] * SCALE)):
        obj = random_position(rng, game, bids[i % len(bids)])
        pos = parse_position(obj)
        policy = policies[i % len(policies)]
        deep = i % 20 == 0
        while not pos.is_finished():
            _check_step(pos, deep)
            pos.play(policy(rng, pos, pos.legal_cards()))
        out = _check_end(pos)
        made.add(out.get("made"))
    if game != "at4":
        assert made == {True, False}  # both results do happen


@pytest.mark.parametrize("game", GAMES)
def test_reference_search_is_consistent(game):
    """tests/reference.py: a finished deal is worth its outcome; a position is worth the
    best of its cards for the camp to play; every card's value is that of the position
    after it."""
    from deals import random_endgame
    from reference import maximizing, reference_value, reference_values
    rng = random.Random(f"ref-{game}")
    for i in range(12):
        obj = random_endgame(rng, game, 2, _bids(game)[i % len(_bids(game))], partial=i % 2 == 1)
        pos = parse_position(obj)
        values = reference_values(pos)
        assert set(values) == set(tokens(pos.legal_cards()))
        best = max(values.values()) if maximizing(pos) else min(values.values())
        assert reference_value(obj) == best
        for tok, v in values.items():
            assert reference_value({**obj, "played": obj["played"] + [tok]}) == v
        done = random_endgame(rng, game, 0, _bids(game)[i % len(_bids(game))])
        assert reference_value(done) == parse_position(done).outcome()["value"]
