"""Every card of a played deal judged within a time limit, soundly: what the analysis prints
where it is stopped — bounds, made, cost ranges, decisive cards — holds of the exact values.

Two levels.  :class:`~atout.solver.line.PlayedLine`, which carries each bound along the
line, against random chains of true values (Hypothesis): whatever is revealed, every bound
it derives contains the truth.  Then whole analyses that a time limit (or a Cancel) stops
early, on deals small enough to analyse exactly as well (Austrian Tarock whole deals, and
French and Priestertarock deals from eight tricks before the end): every bound printed
contains the exact value, every ``made`` is the exact outcome, every decisive card is one,
and the exact parts are the exact analysis's.  (No test asserts how far a time limit gets.)
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.cards import token
from atout.position import parse_position
from atout.scoring import made_threshold
from atout.solver import Cancel, made_of
from atout.solver.analyze import analyze
from atout.solver.line import PlayedLine

from deals import mixed_policy, play_out, random_endgame, slam_policy, uniform_policy

TT = 16  # MB


# -- the line ---------------------------------------------------------------------------------

@st.composite
def lines(draw):
    """(maximizing, forced, true values, threshold): the values of a played line, each card
    keeping or losing value for its own camp, never gaining (a forced card keeps it)."""
    n = draw(st.integers(1, 24))
    maximizing = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    forced = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    values = [draw(st.integers(-60, 60))]
    for k in range(n - 1, -1, -1):              # from the end back: V[k] from V[k + 1]
        loss = 0 if forced[k] else draw(st.integers(0, 30))
        values.insert(0, values[0] + loss if maximizing[k] else values[0] - loss)
    threshold = draw(st.one_of(st.none(), st.integers(-40, 40)))
    return maximizing, forced, values, threshold


@settings(max_examples=150, deadline=None)
@given(lines(), st.data())
def test_the_line_derives_only_what_holds(line, data):
    maximizing, forced, values, threshold = line
    first = data.draw(st.integers(0, 40))
    played = PlayedLine(first, maximizing, forced, threshold)
    n = len(values)
    for k, v in enumerate(values):              # the cheap bounds: around every value
        played.narrow(first + k, v - data.draw(st.integers(0, 200)), v + data.draw(st.integers(0, 200)))
    for _ in range(data.draw(st.integers(0, 2 * n))):   # what the searches prove
        k = data.draw(st.integers(0, n - 1))
        if data.draw(st.booleans()):
            played.settle(first + k, values[k])
        else:
            played.narrow(first + k, values[k] - data.draw(st.integers(0, 40)),
                          values[k] + data.draw(st.integers(0, 40)))
        played.propagate()
    played.propagate()
    for k, v in enumerate(values):
        lo, hi = played.bounds(first + k)
        assert lo <= v <= hi
        assert played.made(first + k) in (None, made_of(v, v, threshold))
    for k in range(n - 1):
        verdict = played.verdict(first + k)
        before, after = values[k], values[k + 1]
        cost = before - after if maximizing[k] else after - before
        assert verdict["value_before"] in (None, before) and verdict["value_after"] in (None, after)
        low, high = verdict.get("cost_bounds", (verdict["cost"], verdict["cost"]))
        assert 0 <= low <= cost <= high
        if verdict["decisive"]:
            assert made_of(before, before, threshold) != made_of(after, after, threshold)


@settings(max_examples=100, deadline=None)
@given(lines())
def test_a_line_known_exactly_gives_exact_verdicts(line):
    maximizing, forced, values, threshold = line
    played = PlayedLine(0, maximizing, forced, threshold)
    for k, v in enumerate(values):
        played.settle(k, v)
    played.propagate()
    for k in range(len(values) - 1):
        verdict = played.verdict(k)
        made = [made_of(v, v, threshold) for v in values[k:k + 2]]
        assert verdict["value_before"] == values[k] and verdict["value_after"] == values[k + 1]
        assert verdict["cost"] == abs(values[k] - values[k + 1]) and "cost_bounds" not in verdict
        assert [verdict["made_before"], verdict["made_after"]] == made
        assert verdict["decisive"] == (threshold is not None and made[0] != made[1])


@st.composite
def lines_with_others(draw):
    """(maximizing, forced, true values, the others' true best at each card, threshold): a
    played line as :func:`lines` draws it, and at each card the best value of the cards
    not played — the value before the card where the card played lost, no better than the
    card played where it kept the value (a tie or worse)."""
    maximizing, forced, values, threshold = draw(lines())
    others = []
    for k in range(len(maximizing)):
        before, after = values[k], values[k + 1]
        if forced[k]:
            others.append(None)
        elif before != after:
            others.append(before)               # a mistake: another card was worth V[k]
        else:                                    # one of the best: the others tie or trail
            gap = draw(st.integers(0, 40))
            others.append(after - gap if maximizing[k] else after + gap)
    return maximizing, forced, values, others, threshold


@settings(max_examples=200, deadline=None)
@given(lines_with_others(), st.data())
def test_verdicts_and_seat_totals_hold_of_the_true_values(line, data):
    """Whatever is revealed of the values and of the other cards' best, every bound the
    line derives contains the truth, every card's cost range contains its true cost, and
    what a seat is said to have given away at least is at most what it gave away (the
    analysis' seat totals, on random seats)."""
    maximizing, forced, values, others, threshold = line
    played = PlayedLine(0, maximizing, forced, threshold)
    n = len(values)
    for k, v in enumerate(values):
        played.narrow(k, v - data.draw(st.integers(0, 200)), v + data.draw(st.integers(0, 200)))
    for _ in range(data.draw(st.integers(0, 3 * n))):
        k = data.draw(st.integers(0, n - 1))
        if data.draw(st.booleans()) and k < n - 1 and others[k] is not None:
            x = others[k]                       # a probe of the others: a bound on X
            played.narrow_others(k, x - data.draw(st.integers(0, 30)),
                                 x + data.draw(st.integers(0, 30)))
        elif data.draw(st.booleans()):
            played.settle(k, values[k])
        else:
            played.narrow(k, values[k] - data.draw(st.integers(0, 40)),
                          values[k] + data.draw(st.integers(0, 40)))
        played.propagate()
    seats = [data.draw(st.integers(0, 3)) for _ in range(n - 1)]
    at_least, true_total = [0] * 4, [0] * 4
    for k in range(n - 1):
        lo, hi = played.bounds(k)
        assert lo <= values[k] <= hi
        if others[k] is not None:
            xlo, xhi = played.others(k)
            assert xlo <= others[k] <= xhi
        cost = values[k] - values[k + 1] if maximizing[k] else values[k + 1] - values[k]
        clo, chi = played.cost_bounds(k)
        assert 0 <= clo <= cost <= chi
        verdict = played.verdict(k)
        if verdict["cost"] is not None:
            assert verdict["cost"] == cost
        if verdict["decisive"]:
            assert made_of(values[k], values[k], threshold) != made_of(values[k + 1], values[k + 1],
                                                                       threshold)
        at_least[seats[k]] += clo
        true_total[seats[k]] += cost
    assert all(a <= t for a, t in zip(at_least, true_total))


@settings(max_examples=100, deadline=None)
@given(lines_with_others())
def test_the_others_alone_settle_each_cost(line):
    """With the value after each card and the others' best at each card known exactly (and
    nothing of the values before), every cost is exact: a card's verdict needs only those
    two."""
    maximizing, forced, values, others, threshold = line
    played = PlayedLine(0, maximizing, forced, threshold)
    for k in range(len(maximizing)):
        played.settle(k + 1, values[k + 1])
        if others[k] is not None:
            played.narrow_others(k, others[k], others[k])
    played.propagate()
    for k in range(len(maximizing)):
        cost = values[k] - values[k + 1] if maximizing[k] else values[k + 1] - values[k]
        assert played.cost_bounds(k) == (cost, cost)
        assert played.exact(k) == values[k]


def test_a_forced_card_carries_bounds_both_ways():
    """One legal card: the value before it is the value after it, whoever plays it."""
    played = PlayedLine(0, [True, False], [False, True], 1)
    for k in range(3):
        played.narrow(k, -100, 100)
    played.narrow(2, 5, 7)
    played.propagate()
    assert played.bounds(1) == (5, 7)             # forced: equal
    assert played.bounds(0) == (5, 100)           # the taker's card: at least the value after
    assert played.made(0) is True and played.made(1) is True


# -- whole analyses, stopped early ------------------------------------------------------------

POLICY = mixed_policy(uniform_policy, slam_policy(0, 0.7), slam_policy(1, 0.7))
#: (game, options, tricks from the end the analysis starts; None: the whole deal)
CASES = [("at4", {"bid": "farbendreier"}, None), ("at4", {"bid": "bettler"}, None),
         ("at4", {"bid": "dreier", "objective": "pagat_ultimo"}, None),
         ("at4", {"bid": "trischaken"}, 8),
         ("fr4", {}, 8), ("fr4", {"bid": "prise", "chelem": True}, 7), ("fr3", {}, 8),
         ("fr5", {}, 8), ("priest5", {}, 8)]


def _played(rng, game, options, tricks):
    """A deal played out to the end (with mistakes) and where its analysis starts."""
    size = parse_position(random_endgame(rng, game, 0, **options)).rules.hand_size
    left = size if tricks is None else tricks
    obj = random_endgame(rng, game, left, **options)
    pos = parse_position(obj)
    start = len(pos.played)
    play_out(rng, pos, left * pos.seats, POLICY)
    return {**obj, "id": f"{game}-{rng.randrange(10 ** 6)}",
            "played": [token(c) for c in pos.played]}, start


def check_sound(obj, start, report, exact):
    """Everything ``report`` (stopped early) says holds of ``exact`` (the same deal analysed
    to the end): its exact parts are the exact analysis's, its bounds contain the exact
    values, its ``made`` are the exact outcome, its decisive cards are decisive."""
    pos = parse_position(obj)
    threshold = made_threshold(pos.contract, pos.hands)
    assert report["id"] == exact["id"] and report["outcome"] == exact["outcome"]
    assert [p["index"] for p in report["plays"]] == [p["index"] for p in exact["plays"]]
    assert "stopped_by" in report or report == exact

    def holds(value, bounds, true):
        if value is not None:
            assert value == true
        else:
            lo, hi = bounds
            assert lo <= true <= hi and lo < hi

    holds(report["start_value"], report.get("start_bounds"), exact["start_value"])
    assert report["made"] in (None, exact["made"])
    for p, e in zip(report["plays"], exact["plays"]):
        assert (p["seat"], p["card"]) == (e["seat"], e["card"])
        holds(p["value_before"], p.get("bounds_before"), e["value_before"])
        holds(p["value_after"], p.get("bounds_after"), e["value_after"])
        if p["cost"] is not None:
            assert p["cost"] == e["cost"] and "cost_bounds" not in p
        else:
            lo, hi = p["cost_bounds"]
            assert 0 <= lo <= e["cost"] <= hi and lo < hi
        if p["best"] is not None:
            assert p["best"] == e["best"]
        assert p["made_before"] in (None, e["made_before"])
        assert p["made_after"] in (None, e["made_after"])
        assert p["decisive"] <= e["decisive"]
        if threshold is None:
            assert p["made_before"] is None and not p["decisive"]
    for s, e in zip(report["seats"], exact["seats"]):
        assert s["cards"] == e["cards"] and s["mistakes"] <= e["mistakes"]
        if s["cost"] is not None:
            assert s["cost"] == e["cost"]
        else:
            # what a seat is said to have given away is proven, and so is what is open
            mine = [p for p in report["plays"] if p["seat"] == s["seat"]]
            assert s["at_least"] == sum(p["cost"] if p["cost"] is not None else p["cost_bounds"][0]
                                        for p in mine) <= e["cost"]
            assert s["not_judged"] == sum(p["cost"] is None and p["cost_bounds"][0] == 0
                                          for p in mine)
            assert "cost_bounds" not in s
    # where every value is exact, the costs add up as in an exact analysis
    signed = sum(p["cost"] if pos.contract.camp[p["seat"]] == pos.contract.maximizer else -p["cost"]
                 for p in report["plays"] if p["cost"] is not None)
    if report["start_value"] is not None and all(p["cost"] is not None for p in report["plays"]):
        end = report["plays"][-1]["value_after"] if report["plays"] else report["start_value"]
        assert report["start_value"] - end == signed


@pytest.mark.parametrize("game,options,tricks", CASES,
                         ids=[f"{g}-{o.get('bid', '')}-{t}" for g, o, t in CASES])
def test_what_a_stopped_analysis_prints_is_proven(game, options, tricks):
    rng = random.Random(f"whole-{game}-{options}-{tricks}")
    bounded = 0
    for i in range(3):
        obj, start = _played(rng, game, options, tricks)
        exact = analyze(obj, start=start, tt_mb=TT)
        assert "stopped_by" not in exact
        for limit in (0.001, 0.01, 0.05):
            report = analyze(obj, start=start, time_limit=limit, tt_mb=TT, threads=1 + i % 2)
            check_sound(obj, start, report, exact)
            bounded += report["start_value"] is None
        cancel = Cancel()
        cancel.set()                  # nothing searched: only what needs no search
        report = analyze(obj, start=start, tt_mb=TT, cancel=cancel)
        check_sound(obj, start, report, exact)
        assert report.get("stopped_by") in (None, "cancel")
    # (a millisecond solves none of these deals from its start — but a random Bettler,
    # mostly lost at once by its bounds: these three are all decided at the first card)
    assert bounded or options.get("bid") == "bettler"


def test_the_contract_question_along_a_whole_deal():
    """A whole at4 deal, its time split as the analysis splits it: exact values from the
    end, then the contract question along the line.  Whatever the split reached, sound;
    and an analysis with time to spare is the exact one."""
    rng = random.Random("whole-at4-made")
    obj, start = _played(rng, "at4", {"bid": "farbendreier", "counting": "standard"}, None)
    exact = analyze(obj, start=start, tt_mb=TT)
    for limit in (0.003, 0.03):
        check_sound(obj, start, analyze(obj, time_limit=limit, tt_mb=TT), exact)
    assert analyze(obj, time_limit=600, tt_mb=TT) == exact


def test_the_contract_question_alone_settles_every_position():
    """The analysis' second step alone, with time to spare: the contract question answered
    at every position of the line (by a probe, or by what another answer implies), each
    answer the exact analysis's."""
    from atout.solver.analyze import Analysis, _ask_made

    rng = random.Random("whole-made-alone")
    for game, options, tricks in [("fr4", {}, 6), ("fr5", {}, 6), ("priest5", {}, 6),
                                  ("at4", {"bid": "farbendreier"}, None)]:
        obj, start = _played(rng, game, options, tricks)
        exact = analyze(obj, start=start, tt_mb=TT)
        pos = parse_position(obj)
        analysis = Analysis(obj, start=start, tt_mb=TT)
        line = analysis.line
        _ask_made(analysis, time.perf_counter() + 600)
        made = [line.made(i) for i in range(start, len(pos.played) + 1)]
        assert made == [p["made_before"] for p in exact["plays"]] + [exact["plays"][-1]["made_after"]]
        for i in range(start, len(pos.played)):
            lo, hi = line.bounds(i)
            assert lo <= exact["plays"][i - start]["value_before"] <= hi
