"""A played deal's review: each card's verdict — one of the best, a mistake of at least N,
decisive, or not judged — proven soundly, found as the analysis goes, and an analysis that
can be run on ("keep going").

On deals small enough to analyse exactly (whole Austrian Tarock deals, French and
Priestertarock deals from seven to nine tricks out): the cards' judge alone, given time to
spare, decides every card the exact analysis's way; a run stopped early says only what
holds; the verdicts streamed end as the report's; a second run goes on from the first.
"""

from __future__ import annotations

import random

import pytest

from atout.position import parse_position
from atout.solver import Cancel
from atout.solver.analyze import TIGHT_MISTAKE, Analysis, analyze

from test_whole_deal import _played, check_sound

TT = 16  # MB
#: (game, options, tricks from the end the analysis starts; None: the whole deal)
CASES = [("at4", {"bid": "solorufer"}, None), ("fr4", {}, 8), ("fr3", {}, 8), ("fr5", {}, 7),
         ("priest5", {}, 7)]
IDS = [f"{g}-{t}" for g, _, t in CASES]
#: a node clock (Analysis's node_rate): the same analysis whatever the machine's load
RATE = 1e6


@pytest.mark.parametrize("game,options,tricks", CASES, ids=IDS)
def test_the_judge_alone_decides_every_card_as_the_exact_analysis(game, options, tricks):
    """Step 3 alone (no exact walk, no contract question), with time to spare: every card
    with a choice is proven one of the best or a mistake — none is left not judged — each
    as the exact analysis has it, and every mistake's bound tight (its low at least
    TIGHT_MISTAKE of its high)."""
    rng = random.Random(f"judge-{game}-{tricks}")
    for _ in range(1 if game == "at4" else 2):
        obj, start = _played(rng, game, options, tricks)
        exact = analyze(obj, start=start, tt_mb=TT)
        analysis = Analysis(obj, start=start, tt_mb=TT)
        try:
            analysis.judge.run(analysis, analysis.engines.now() + 3600)
            report = analysis.report()
        finally:
            analysis.close()
        check_sound(obj, start, report, exact)
        for p, e in zip(report["plays"], exact["plays"]):
            low, high = p.get("cost_bounds", (p["cost"], p["cost"]))
            assert (low > 0) == (e["cost"] > 0), (p, e)       # decided, and right
            assert low >= TIGHT_MISTAKE * high
        assert sum(e["cost"] == 0 for e in exact["plays"]) > 0


@pytest.mark.parametrize("game,options,tricks", CASES[:3], ids=IDS[:3])
def test_a_run_stopped_at_every_point_says_only_what_holds(game, options, tricks):
    """The whole schedule (exact values from the end, the contract question, the cards'
    judge, the values again) stopped at many points along the way by a node clock: every
    verdict sound, and the seats' proven totals at most the exact ones."""
    rng = random.Random(f"verdicts-stopped-{game}")
    obj, start = _played(rng, game, options, tricks)
    exact = analyze(obj, start=start, tt_mb=TT)
    for nodes in (2_000, 20_000, 200_000, 2_000_000):
        report = analyze(obj, start=start, tt_mb=TT, time_limit=nodes / RATE, node_rate=RATE)
        check_sound(obj, start, report, exact)


def test_a_node_clock_gives_the_same_analysis_every_time():
    rng = random.Random("verdicts-node-clock")
    obj, start = _played(rng, "fr4", {}, 12)
    runs = [analyze(obj, start=start, tt_mb=TT, time_limit=0.05, node_rate=RATE) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].get("stopped_by") == "time"


def test_the_verdicts_stream_as_found_and_end_as_the_report():
    """``on_update`` gets every card first (before any search), then each card whose
    verdict changed; the last verdict each card got is the report's."""
    rng = random.Random("verdicts-stream")
    obj, start = _played(rng, "fr5", {}, 8)
    calls: list[list[dict]] = []
    report = analyze(obj, start=start, tt_mb=TT, time_limit=0.3, node_rate=RATE,
                     on_update=lambda plays: calls.append(plays))
    assert [p["index"] for p in calls[0]] == [p["index"] for p in report["plays"]]
    assert len(calls) > 1
    last = {}
    for plays in calls:
        assert plays and all(p != last.get(p["index"]) for p in plays)
        last.update((p["index"], p) for p in plays)
    assert [last[p["index"]] for p in report["plays"]] == report["plays"]


def test_keep_going_narrows_and_ends_as_the_exact_analysis():
    """A second run goes on from the first (its table warm, what it proved kept): nothing
    proven is lost, and with time to spare it ends as the exact analysis."""
    rng = random.Random("verdicts-keep-going")
    obj, start = _played(rng, "fr4", {}, 9)
    exact = analyze(obj, start=start, tt_mb=TT)
    analysis = Analysis(obj, start=start, tt_mb=TT, node_rate=RATE)
    try:
        first = analysis.run(0.002)
        check_sound(obj, start, first, exact)
        second = analysis.run(0.01)
        check_sound(obj, start, second, exact)
        for a, b in zip(first["plays"], second["plays"]):
            for key in ("value_before", "value_after", "cost"):
                if a[key] is not None:
                    assert b[key] == a[key]
            ab, bb = a.get("cost_bounds", [a["cost"]] * 2), b.get("cost_bounds", [b["cost"]] * 2)
            assert ab[0] <= bb[0] and bb[1] <= ab[1]
        cancel = Cancel()
        cancel.set()                                  # a run stopped at once loses nothing
        third = analysis.run(1, cancel=cancel)
        assert third.pop("stopped_by") == "cancel" and second.pop("stopped_by") == "time"
        for a, b in zip(second["plays"], third["plays"]):
            # (optimal cards the teachings decide without a search may be added)
            assert a["best"] in (None, b["best"])
            a["best"] = b["best"]
        assert third == second
        assert analysis.run(None) == exact
    finally:
        analysis.close()


def test_where_every_value_is_exact_the_report_is_as_before():
    """An analysis that solves everything has exactly the keys it always had."""
    rng = random.Random("verdicts-exact-keys")
    obj, start = _played(rng, "fr3", {}, 3)
    report = analyze(obj, start=start, tt_mb=TT)
    assert list(report) == ["id", "start_value", "made", "plays", "seats", "outcome"]
    assert all(list(s) == ["seat", "cards", "mistakes", "cost"] for s in report["seats"])
    pos = parse_position(obj)
    assert len(report["plays"]) == len(pos.played) - start


def test_threads_given_and_taken_back_while_it_runs():
    """A server lends a lone analysis the threads of its idle workers and takes them back
    when calls arrive (Analysis.want_threads from another thread, the running search
    stopped and run again): the analysis is the same."""
    import threading
    import time

    rng = random.Random("verdicts-threads")
    obj, start = _played(rng, "fr4", {}, 8)
    exact = analyze(obj, start=start, tt_mb=TT)
    analysis = Analysis(obj, start=start, tt_mb=TT)
    done = threading.Event()
    asked = []

    def flip():
        n = 0
        while not done.is_set():
            n += 1
            asked.append(1 + n % 3)
            analysis.want_threads(asked[-1])
            time.sleep(0.002)
    flipper = threading.Thread(target=flip)
    flipper.start()
    try:
        report = analysis.run(None)
    finally:
        done.set()
        flipper.join()
        analysis.close()
    assert report == exact
    assert len(set(asked)) == 3
