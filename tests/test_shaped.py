"""Positions random play hardly ever reaches, dealt into shape (tests/redeal.py), where the
full search must answer as the plain one does: each shape puts a trick into a state that
one soundness clause of the partition search or the move grouping is there for, so that
dropping the clause fails here (each test says which, and how soon).

ATOUT_XCHECK (default 1) multiplies the number of positions, as in test_solver.py.
"""

from __future__ import annotations

import os
import random
import zlib

import pytest

from atout.position import Position, parse_position
from atout.solver.params import code_of

from redeal import deal_around, full_equals_plain, played_codes
from deals import keep_policy, random_endgame

SCALE = int(os.environ.get("ATOUT_XCHECK", "1"))

SKUS, MOND, PAGAT = 4 * 32 + 21, 4 * 32 + 20, 4 * 32 + 0     # at4 codes


def _trull_trick(pos: Position, rng: random.Random, shape: str):
    """An at4 trick start dealt anew (deal_around) so that the trick about to be played
    looks settled by rank and is not: the seat C third to play, void in tarock, must
    discard with the two top cards of a suit in hand (one group of adjacent cards, whose
    points differ), and which one the search may keep depends on who wins the trick.
    Returns the engine parameters, the played codes and the first cards of the trick, or
    None where the position cannot be dealt so.

    ``trull``: the leader A leads the Sküs, B plays the Mond, D of the other camp holds
    the Pagat — which wins the trick (the Trull), not the Sküs.
    ``trull_own``: A leads the Sküs, B of the other camp plays the Pagat, and D of A's
    camp holds no tarock but the Mond, which it must play: the Trull again, for B.
    ``skus``: A leads its highest tarock but the Sküs, B is void in tarock, and D of the
    other camp holds the Sküs, which beats it."""
    camp, a = pos.contract.camp, pos.leader
    b, c, d = (a + 1) % 4, (a + 2) % 4, (a + 3) % 4
    live = [code_of(pos.rules, x) for h in pos.held for x in h]
    played = played_codes(pos)
    runs = []
    for k in range(4):
        held = sorted(x for x in live if x >> 5 == k)
        if len(held) >= 2:
            runs.append(held[-2:])
    if not runs or SKUS not in live:
        return None
    run = rng.choice(runs)
    if shape == "trull" and camp[d] != camp[a]:
        fixed, prefix, voids = {a: [SKUS], b: [MOND], c: run, d: [PAGAT]}, [SKUS, MOND], {c: [4]}
    elif shape == "trull_own" and camp[d] == camp[a] != camp[b]:
        fixed, prefix, voids = {a: [SKUS], b: [PAGAT], c: run, d: [MOND]}, [SKUS, PAGAT], {c: [4], d: [4]}
    elif shape == "skus" and camp[d] != camp[a]:
        tarocks = sorted(x for x in live if x >> 5 == 4 and x not in (SKUS, MOND, PAGAT))
        if not tarocks:
            return None
        fixed, prefix, voids = {a: [tarocks[-1]], c: run, d: [SKUS]}, [tarocks[-1]], {b: [4], c: [4]}
    else:
        return None
    params = deal_around(pos, rng, fixed, voids)
    return None if params is None else (params, played, prefix)


@pytest.mark.parametrize("shape", ["trull", "trull_own", "skus"])
def test_trull_and_skus_unsettle_a_trick(shape):
    """A trick an at4 seat discards into looks won by rank but is not (_trull_trick): the
    full search finds the value and every card's value the plain search does.  A trick
    is settled early (moves.pxi, settled_camp) only if the Trull cannot fall in it —
    whichever camp holds its cards — and no later seat of the other camp holds the Sküs;
    dropping either clause fails here within the first 25 positions, and failed no other
    test."""
    rng = random.Random(zlib.crc32(f"trull-trick-{shape}".encode()))
    done = 0
    while done < 100 * SCALE:
        obj = random_endgame(rng, "at4", 3 + done % 3, bid=["solorufer", "dreier", "farbendreier"][done % 3],
                             policy=keep_policy(["EX", "T21", "T1"]))
        pos = parse_position(obj)
        dealt = None if pos.trick else _trull_trick(pos, rng, shape)
        if dealt is None:
            continue
        full_equals_plain(obj, *dealt)
        done += 1

