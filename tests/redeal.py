"""Positions dealt into a shape for the solver tests: the live cards of a random endgame
dealt anew (the played cards stay where they were), and the check that the full search
answers there as the plain one does.

Such a position need not be reachable by legal play from its history (a seat that showed
out of a suit may now hold it); the engine does not need it to be, but the exhaustive
reference (tests/reference.py) replays the history, so the plain search (``features=0``:
exact positions only, nothing skipped, no sure points) is the judge here.
"""

from __future__ import annotations

import copy
import random

from atout.position import Position
from atout.solver import DEFAULT_FEATURES, Engine
from atout.solver.params import code_of, engine_params

TT_MB = 8        # MB: a small table, for positions of a few tricks
PLAIN = 0       # features: the plain search (exact positions only, nothing skipped)


def played_codes(pos: Position) -> list[int]:
    """The codes of the cards played in ``pos``, in order: what an engine replays."""
    return [code_of(pos.rules, c) for c in pos.played]


def engine_at(params: dict, played: list[int], features: int = DEFAULT_FEATURES) -> Engine:
    """An engine of its own table at the state ``params`` with ``played`` replayed."""
    engine = Engine(params, TT_MB, features)
    for code in played:
        engine.play(code)
    return engine


def full_equals_plain(obj: dict, params: dict, played: list[int],
                      prefix: list[int] = ()) -> None:
    """At the engine state ``params`` after ``played`` (a trick start): the cheap bounds
    hold the plain search's value; then after the cards ``prefix`` of the next trick, the
    full search finds the value and every card's value as the plain search does.  For
    states dealt or set up directly, which the exhaustive reference (it needs a legal
    history) cannot read."""
    full, plain = engine_at(params, played), engine_at(params, played, PLAIN)
    value = plain.value()
    lo, hi, _ = full.bound_pattern()
    assert value[0] and lo <= value[1] <= hi, (obj, params, lo, value, hi)
    if prefix:
        for code in prefix:
            full.play(code)
            plain.play(code)
        value = plain.value()
    assert full.value() == value, (obj, params)
    for code in plain.legal_codes():
        assert full.child_value(code) == plain.child_value(code), (obj, params, code)


def with_live_cards(pos: Position, new: list[list[int]]) -> dict:
    """The engine parameters of ``pos`` with the live cards (codes) held as ``new`` says,
    seat by seat; the played cards stay where they were, to replay."""
    params = engine_params(pos)
    hands = params["state"]["hand"]
    for seat, held in enumerate(pos.held):
        for c in held:
            code = code_of(pos.rules, c)
            hands[seat][code >> 5] &= ~(1 << (code & 31))
        for code in new[seat]:
            hands[seat][code >> 5] |= 1 << (code & 31)
    return params


def deal_around(pos: Position, rng: random.Random, fixed: dict[int, list[int]],
                voids: dict[int, list[int]]) -> dict | None:
    """The live cards of ``pos`` dealt anew, each seat keeping as many: ``fixed`` {seat:
    codes} where it says, the rest at random, no seat getting a suit ``voids`` {seat:
    suits} denies it.  The engine parameters, or None where no such deal was found."""
    live = [code_of(pos.rules, c) for h in pos.held for c in h]
    placed = [c for cs in fixed.values() for c in cs]
    counts = [len(h) for h in pos.held]
    if not set(placed) <= set(live) or any(len(fixed.get(s, [])) > counts[s] for s in fixed):
        return None
    for _ in range(20):
        pool = [c for c in live if c not in placed]
        rng.shuffle(pool)
        new = [list(fixed.get(s, [])) for s in range(len(counts))]
        for seat in sorted(range(len(counts)), key=lambda s: -len(voids.get(s, []))):
            while len(new[seat]) < counts[seat]:
                pick = next((c for c in pool if c >> 5 not in voids.get(seat, [])), None)
                if pick is None:
                    break
                pool.remove(pick)
                new[seat].append(pick)
        if all(len(new[s]) == counts[s] for s in range(len(counts))):
            return with_live_cards(pos, new)
    return None


def covered(params: dict, played: list[int], fixed: list[int], rng: random.Random) -> Engine:
    """A plain engine (exact: it shares nothing) at a position that a table entry with the
    pattern ``fixed`` (five suit masks) covers: the live plain cards of each suit outside
    ``fixed`` dealt anew among their holders, each seat keeping as many of them (the coarse
    key); the played cards stay where they were."""
    params = copy.deepcopy(params)
    hands = params["state"]["hand"]
    for k in range(5):
        free = [(seat, b) for seat in range(len(hands)) for b in range(32)
                if hands[seat][k] >> b & 1 and not fixed[k] >> b & 1 and params["cls"][k][b] == 0
                and k * 32 + b not in played]
        seats = [seat for seat, _ in free]
        rng.shuffle(seats)
        for (old, b), new in zip(free, seats):
            hands[old][k] &= ~(1 << b)
            hands[new][k] |= 1 << b
    return engine_at(params, played, PLAIN)


def probe_pattern_holds(obj: dict, params: dict, played: list[int], rng: random.Random,
                        count: int = 3, others: list[dict] = (), plain_nodes: int = 0) -> bool:
    """At the trick start ``params`` after ``played``: one probe of the full search at the
    value and one just above it (``Engine.search_pattern``); each fail-soft bound holds
    at the position, in ``count`` positions the pattern of its root entry covers, and in
    each of ``others`` (engine parameters of the same deal) that the pattern covers.

    ``plain_nodes``: a plain search (the exact values it is checked against) that would
    cost more is left out — the position (False) or that covered position; 0: no limit."""
    root = engine_at(params, played, PLAIN)
    root.set_limits(plain_nodes, 0)
    done, exact, _ = root.value()
    if not done:
        return False
    for target in (exact, exact + 1):
        bound, fixed = engine_at(params, played).search_pattern(target)
        assert_fail_soft(bound, target - 1, target, exact, (obj, "the position"))
        there = [covered(params, played, fixed, rng) for _ in range(count)]
        there += [engine_at(other, played, PLAIN) for other in others
                  if pattern_covers(params, other, fixed)]
        for engine in there:
            engine.set_limits(plain_nodes, 0)
            done, value, _ = engine.value()
            assert done or plain_nodes
            if done:
                assert_fail_soft(bound, target - 1, target, value, (obj, fixed))
    return True


def pattern_covers(params: dict, other: dict, fixed: list[int]) -> bool:
    """Whether a table entry stored at ``params`` with the pattern ``fixed`` covers the
    position ``other`` (the same deal but the owners of live cards): only plain cards
    outside ``fixed`` changed hands, and every seat holds as many of each suit."""
    plain = [sum(1 << b for b in range(32) if params["cls"][k][b] == 0) for k in range(5)]
    for mine, theirs in zip(params["state"]["hand"], other["state"]["hand"]):
        for k in range(5):
            moved = mine[k] ^ theirs[k]
            if moved & (fixed[k] | ~plain[k]) or bin(mine[k]).count("1") != bin(theirs[k]).count("1"):
                return False
    return True


def assert_fail_soft(v: int, alpha: int, beta: int, exact: int, context=None) -> None:
    """A fail-soft answer ``v`` of a search in the window (alpha, beta) is right about the
    exact value: at least v when v >= beta, at most v when v <= alpha, else the value."""
    if v >= beta:
        assert exact >= v, (context, alpha, beta, v, exact)
    elif v <= alpha:
        assert exact <= v, (context, alpha, beta, v, exact)
    else:
        assert v == exact, (context, alpha, beta, v, exact)
