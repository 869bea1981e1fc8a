"""Advice in a budget (solver/advise.py, budget_cards; solver/race.py, the budgeted race):
each draw spends its nodes where the decision is and leaves the other cards within
proven bounds.  What is checked: a budgeted draw's numbers are the exact values where
it says so and bounds of them elsewhere; the advice's numbers say what they are (exact
means, or bounds of the exact means over the same draws); a test fed bounds keeps its
guarantee; the same node budget gives the same advice at any number of workers."""

from __future__ import annotations

import math
import random

import pytest

from atout.position import parse_position
from atout.solver.advise import advise, budget_cards, draw, made, solve_cards
from atout.solver.race import Tally
from deals import GAMES, random_endgame


@pytest.mark.parametrize("game", GAMES)
def test_a_budgeted_draw_is_exact_where_it_says_and_bounds_elsewhere(game):
    """budget_cards with every card asked exact and no cap is solve_cards; with a few
    cards asked, or a cap, each card's answer is its exact value or bounds of it, and
    the deal's value likewise."""
    rng = random.Random(f"budget-{game}")
    for k in range(6):
        pos = parse_position(random_endgame(rng, game, rng.randrange(3, 6), partial=rng.random() < 0.5))
        full = solve_cards(pos)
        whole = budget_cards(pos, exact=list(full.values))
        assert whole.complete and not whole.capped and whole.values == full.values
        assert whole.value == full.value and whole.width == full.width
        some = list(full.values)[:1]
        for cut in (budget_cards(pos, exact=some), budget_cards(pos, exact=list(full.values), node_cap=300)):
            assert cut.complete and cut.width == full.width
            for card, v in cut.values.items():
                lo, hi = (v, v) if not isinstance(v, list) else v
                assert lo <= full.values[card] <= hi and (lo < hi or not isinstance(v, list))
            lo, hi = (cut.value, cut.value) if not isinstance(cut.value, list) else cut.value
            assert lo <= full.value <= hi
        assert budget_cards(pos, exact=some).values[some[0]] == full.values[some[0]]


def _exact_draws(pos, seed, n):
    """The first ``n`` deals an advice with ``seed`` draws, each solved for every card."""
    deals = draw(pos, n, seed=seed)
    return [(parse_position(deals.deals[key]), solve_cards(parse_position(deals.deals[key])))
            for key in deals.order]


def test_every_number_of_a_budgeted_advice_says_what_it_is():
    """Over the draws a budgeted advice counted, each card's mean is the exact mean where
    given, and its low..high brackets the exact mean where not; behind_low..behind_high
    bracket its exact paired loss against the recommended card, made_low..made_high the
    share of draws where the contract is made, value_low..value_high the deals' mean
    value.  (Small node caps, so that many cards are left bounded.)"""
    rng = random.Random("budget numbers")
    seen_bounded = 0
    for game in ("fr4", "fr5", "priest5"):
        pos = parse_position(random_endgame(rng, game, 6))
        a = advise(pos, samples=14, seed=3, node_limit=600_000, confidence=1, workers=2)
        assert a.budget["draw_nodes"] == 75_000 and a.solved >= 1
        draws = _exact_draws(pos, 3, a.solved)
        sign = 1 if a.maximizing else -1
        rec = a.recommended
        for row in a.cards:
            card, n = row["card"], row["draws"]
            vals = [r.values[card] for _, r in draws[:n]]
            truth = sum(vals) / n
            if row["mean"] is not None:
                assert row["mean"] == pytest.approx(truth, abs=1e-3)
                continue
            seen_bounded += 1
            assert row["low"] - 1e-3 <= truth <= row["high"] + 1e-3
            loss = sum(sign * (r.values[rec] - r.values[card]) for _, r in draws[:n]) / n
            assert row["behind_low"] - 1e-3 <= loss <= row["behind_high"] + 1e-3
            if row.get("made_low") is not None:
                share = sum(bool(made(p, r.values[card])) for p, r in draws[:n]) / n
                assert row["made_low"] - 1e-3 <= share <= row["made_high"] + 1e-3
        value = sum(r.value for _, r in draws) / len(draws)
        if a.value is not None:
            assert a.value == pytest.approx(value, abs=1e-3)
        else:
            assert a.value_low - 1e-3 <= value <= a.value_high + 1e-3
    assert seen_bounded


def test_the_same_node_budget_gives_the_same_advice_at_any_number_of_workers():
    """A node budget, not a clock: the draws counted, what each proved and the advice are
    the same on one worker and on three (only the seconds and the nodes of draws begun
    past the budget differ)."""
    pos = parse_position(random_endgame(random.Random(8), "fr4", 11))
    runs = []
    for workers in (1, 3):
        obj = advise(pos, samples=60, seed=42, node_limit=2_000_000, workers=workers).to_json()
        del obj["seconds"], obj["nodes"]
        runs.append(obj)
    assert runs[0] == runs[1]
    # the budget ended it, and some draws' caps left bounds (so the bounds agree too)
    assert runs[0]["status"] == "limit" and runs[0]["stopped_by"] == "nodes"
    assert runs[0]["capped"] >= 1 and runs[0]["solved"] >= 2


def test_a_test_on_bounds_keeps_its_guarantee():
    """A card's test fed the bounds of its draws, not the values, never errs more: card 0
    is the best (by 1 point on average, with a spread of 20), card 1 is worse by 30 and
    card 2 by 1; in some draws each card is known only within a box around its value.
    Over 300 runs, card 0's p_better falls below 0.05 in at most 5 % of them (plus a
    binomial margin), while card 1 is still ruled out."""
    rng = random.Random(5)
    wrong = ruled_out = 0
    runs = 300
    for _ in range(runs):
        tally = Tally(3, 1)
        for _ in range(60):
            base = rng.gauss(0, 20)
            values = [base + 1, base - 30 + rng.gauss(0, 5), base + rng.gauss(0, 3)]
            row = []
            for v in values:
                v = round(v)
                if rng.random() < 0.4:
                    row.append((v - rng.randrange(0, 15), v + rng.randrange(0, 15)))
                else:
                    row.append(v)
            tally.add(tuple(row), None, 120)
        wrong += tally.p_better(0) < 0.05
        ruled_out += tally.p_better(1) < 0.05
    assert wrong <= 0.05 * runs + 3 * math.sqrt(0.05 * 0.95 * runs)
    assert ruled_out > 0.9 * runs


def test_a_cancel_stops_a_budgeted_advice_at_once():
    """Ctrl-C during a budgeted advice of a whole deal (each draw's cap would take
    seconds): it stops at once with what was done, a card recommended."""
    import threading
    import time

    from atout.solver import Cancel
    pos = parse_position(random_endgame(random.Random(9), "fr4", 18))
    cancel = Cancel()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    started = time.perf_counter()
    try:
        a = advise(pos, samples=50, seed=1, node_limit=400_000_000, workers=2, cancel=cancel)
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 10
    assert a.status == "limit" and a.stopped_by == "cancel" and a.recommended is not None


def test_a_bounded_card_is_among_its_own_best():
    """A card known only within bounds leads itself by nothing: the recommended card is in
    ``best`` however its draws were bounded (its lead over itself counted its own width)."""
    tally = Tally(2, 1)
    for _ in range(3):
        tally.add(((10, 30), 5), None, 100)
    rec, best, _ = tally.standing()
    assert rec == 0 and rec in best and tally.pd[0][0] == tally.pdh[0][0] == 0
