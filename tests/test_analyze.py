"""atout.analyze / `atout analyze`: every value against an independent solve, costs add up."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from atout.cards import card, token
from atout.errors import PositionError
from atout.position import parse_position
from atout.solver import solve
from atout.scoring import made_threshold
from atout.solver.analyze import analyze

from deals import GAMES, mixed_policy, play_out, random_endgame, slam_policy, uniform_policy
from reference import reference_values

TT = 8  # MB: small tables keep the tests light
DATA = Path(__file__).resolve().parent / "data"


def played_endgame(rng, game, tricks, **options):
    """A random deal played until ``tricks`` tricks remain, then played out to the end
    (randomly, so with mistakes): (finished position, where the endgame starts)."""
    obj = random_endgame(rng, game, tricks, **options)
    pos = parse_position(obj)
    start = len(pos.played)
    policy = mixed_policy(uniform_policy, slam_policy(0), slam_policy(1))
    play_out(rng, pos, tricks * pos.seats, policy)
    obj["played"] = [token(c) for c in pos.played]
    obj["id"] = f"{game}-{rng.randrange(10**6)}"
    return obj, start


def check_report(obj, start, report):
    """Every value against a fresh solve of that prefix; the costs add up; the contract
    made or not wherever the value says so."""
    pos = parse_position(obj)
    threshold = made_threshold(pos.contract, pos.hands)

    def made(value):
        return None if threshold is None else value >= threshold
    assert report["id"] == obj["id"]
    plays = report["plays"]
    assert [p["index"] for p in plays] == list(range(start, len(pos.played)))
    prefix = parse_position(obj)
    while len(prefix.played) > start:
        prefix.undo()
    assert report["start_value"] == solve(prefix, tt_mb=TT).value
    signed = 0
    for p in plays:
        seat = prefix.to_play
        maximizing = prefix.contract.camp[seat] == prefix.contract.maximizer
        ref = solve(prefix, tt_mb=TT)
        assert p["seat"] == seat
        assert p["value_before"] == ref.value
        assert sorted(p["best"]) == sorted(ref.best)
        prefix.play(card(p["card"]))
        after = solve(prefix, tt_mb=TT).value
        assert p["value_after"] == after
        assert p["cost"] >= 0
        assert p["cost"] == (ref.value - after if maximizing else after - ref.value)
        assert (p["cost"] == 0) == (p["card"] in p["best"])
        assert p["made_before"] == made(ref.value) and p["made_after"] == made(after)
        assert p["decisive"] == (threshold is not None and made(ref.value) != made(after))
        assert not {"bounds_before", "bounds_after", "cost_bounds"} & set(p)
        signed += p["cost"] if maximizing else -p["cost"]
    end = plays[-1]["value_after"] if plays else report["start_value"]
    # the maximizing camp's losses minus the minimizing camp's = start - end
    assert report["start_value"] - end == signed
    assert report["made"] == made(report["start_value"])
    assert "stopped_by" not in report and "start_bounds" not in report
    if pos.is_finished():
        assert report["outcome"] == pos.outcome()
        assert end == pos.outcome()["value"]
    else:
        assert report["outcome"] is None
    per_seat = {s["seat"]: s for s in report["seats"]}
    assert sorted(per_seat) == list(range(pos.seats))
    for seat, s in per_seat.items():
        mine = [p for p in plays if p["seat"] == seat]
        assert s["cards"] == len(mine)
        assert s["mistakes"] == sum(1 for p in mine if p["cost"] > 0)
        assert s["cost"] == sum(p["cost"] for p in mine)


CASES = [(game, {}) for game in GAMES] + [
    ("at4", {"bid": "trischaken"}), ("at4", {"bid": "solorufer"}), ("at4", {"bid": "bettler"}),
    ("fr4", {"bid": "garde_contre", "chelem": True}), ("fr5", {"called_where": "dog"}),
]


@pytest.mark.parametrize("game,options", CASES, ids=[f"{g}-{o.get('bid', '')}" for g, o in CASES])
def test_values_match_solve(game, options):
    rng = random.Random(f"analyze-{game}-{options}")
    for _ in range(5):
        obj, start = played_endgame(rng, game, 3, **options)
        check_report(obj, start, analyze(obj, start=start, tt_mb=TT))


def test_against_exhaustive_reference():
    """Independent of the solver: the minimax of tests/reference.py on 2-trick endgames."""
    rng = random.Random("analyze-reference")
    for game in GAMES:
        obj, start = played_endgame(rng, game, 2)
        report = analyze(obj, start=start, tt_mb=TT)
        pos = parse_position(obj)
        while len(pos.played) > start:
            pos.undo()
        for p in report["plays"]:
            values = reference_values(pos)
            maximizing = pos.contract.camp[pos.to_play] == pos.contract.maximizer
            best_value = max(values.values()) if maximizing else min(values.values())
            assert p["value_before"] == best_value
            assert sorted(p["best"]) == sorted(c for c, v in values.items() if v == best_value)
            assert p["value_after"] == values[p["card"]]
            pos.play(card(p["card"]))


def test_unfinished_deal_and_mid_trick_start():
    rng = random.Random("analyze-partial")
    obj = random_endgame(rng, "fr4", 4, partial=True)
    obj["id"] = 7
    pos = parse_position(obj)
    start = len(pos.played)
    play_out(rng, pos, 5)           # stop in the middle of the game
    obj["played"] = [token(c) for c in pos.played]
    report = analyze(obj, start=start, tt_mb=TT)
    assert report["outcome"] is None
    check_report(obj, start, report)


def test_fresh_tables_give_the_same_report():
    rng = random.Random("analyze-cold")
    obj, start = played_endgame(rng, "fr4", 4)
    assert analyze(obj, start=start, tt_mb=TT) == analyze(obj, start=start, tt_mb=TT,
                                                          reuse_table=False)


def test_nothing_to_analyse():
    rng = random.Random("analyze-nothing")
    obj, start = played_endgame(rng, "fr3", 2)
    pos = parse_position(obj)
    report = analyze(pos, start=len(pos.played), tt_mb=TT)
    assert report["plays"] == [] and report["start_value"] == pos.outcome()["value"]
    assert report["outcome"] == pos.outcome()
    assert all(s["cards"] == 0 for s in report["seats"])


def test_bad_arguments():
    rng = random.Random("analyze-bad")
    obj, start = played_endgame(rng, "fr4", 2)
    with pytest.raises(ValueError):
        analyze(obj, start=len(obj["played"]) + 1)
    with pytest.raises(ValueError):
        analyze(obj, start=-1)
    with pytest.raises(ValueError):
        analyze(obj, start=start, time_limit=0)
    bad = dict(obj, played=obj["played"][:-2] + obj["played"][-1:] * 2)
    with pytest.raises(PositionError):
        analyze(bad)


def test_a_time_limit_judges_every_card():
    """A whole deal is too big to analyse exactly from its first card in a fraction of a
    second: every card still gets its verdict, the last ones exact (the analysis goes back
    from the end) and the others bounded; the exact ones are today's."""
    obj = json.loads((DATA / "played.jsonl").read_text().splitlines()[0])
    assert len(obj["played"]) == 72
    report = analyze(obj, time_limit=0.3, tt_mb=TT)
    assert report["stopped_by"] == "time"
    assert [p["index"] for p in report["plays"]] == list(range(72))
    assert report["outcome"] == parse_position(obj).outcome()
    exact = [p for p in report["plays"] if p["value_before"] is not None]
    assert exact and exact[-1]["index"] == 71
    bounded = [p for p in report["plays"] if p["value_before"] is None]
    assert bounded and all(p["bounds_before"][0] < p["bounds_before"][1] for p in bounded)
    assert report["start_value"] is None and report["start_bounds"] == bounded[0]["bounds_before"]
    # Exact from the end back, and here and there further back where the judge's probes
    # met (a card's bounds can meet before the walk's exact values reach it): every exact
    # value is today's, and every bound holds today's value.
    first = exact[0]["index"]
    tail = {q["index"]: q for q in analyze(obj, start=first, tt_mb=TT)["plays"]}
    assert all(tail[i]["value_before"] is not None for i in tail)
    for p in report["plays"][first:]:
        q = tail[p["index"]]
        if p["value_before"] is None:
            low, high = p["bounds_before"]
            assert low <= q["value_before"] <= high, (p, q)
        elif p["value_after"] is None:
            assert p["value_before"] == q["value_before"], (p, q)
        else:
            # The best cards of a card whose values are exact may be still unknown (None)
            # where the time ran out while the walk back from the end was finding them:
            # known, they are today's.
            assert {k: p[k] for k in q if k != "best"} == \
                {k: v for k, v in q.items() if k != "best"}, (p, q)
            assert p["best"] in (None, q["best"]), (p, q)
    assert exact[-1]["best"] == tail[71]["best"]


def test_optimal_cards_that_wait_are_found_after_the_values(monkeypatch):
    """With a time limit, a position's optimal cards that take longer than its value wait
    until the values reach the first card, keeping what was decided: here the first probe
    at each position is stopped as if by that cap, and the report is still the unlimited
    one."""
    import atout.solver.analyze as module
    real, stopped = module._optimal, []

    def first_probe_stopped(engine, code, value, codes=()):
        key = (engine.to_play(), tuple(engine.move_codes()), value)   # the position
        if key not in stopped:
            stopped.append(key)
            return False, False
        return real(engine, code, value, codes)
    rng = random.Random("analyze-waiting")
    obj, start = played_endgame(rng, "fr4", 4)
    expected = analyze(obj, start=start, tt_mb=TT)
    monkeypatch.setattr(module, "_optimal", first_probe_stopped)
    report = analyze(obj, start=start, tt_mb=TT, time_limit=60)
    assert len(stopped) > 5
    assert report == expected
    check_report(obj, start, report)


def test_import_atout_stays_light():
    code = ("import sys, atout; assert 'atout.solver' not in sys.modules; "
            "assert callable(atout.analyze); assert 'atout.solver' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


# -- the command ------------------------------------------------------------------------------

def _bench(name):
    from pathlib import Path
    return Path(__file__).resolve().parents[1] / "bench" / "data" / f"{name}.jsonl"


def _atout(*args, stdin=""):
    main = "import sys; from atout.client.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", main, *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_cli_json_and_table():
    rng = random.Random("analyze-cli")
    deals = [played_endgame(rng, g, 2)[0] for g in ("fr4", "at4")]
    text = "".join(json.dumps(d) + "\n" for d in deals)
    r = _atout("analyze", "--json", "--last-tricks", "2", "--tt-mb", "8", stdin=text)
    assert r.returncode == 0, r.stderr
    reports = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(reports) == 2
    for d, rep in zip(deals, reports):
        assert list(rep) == ["id", "start_value", "made", "plays", "seats", "outcome"]
        assert list(rep["plays"][0]) == ["index", "seat", "card", "value_before", "value_after",
                                         "cost", "best", "made_before", "made_after", "decisive",
                                         "verdict"]
        assert list(rep["seats"][0]) == ["seat", "cards", "mistakes", "cost"]
        pos = parse_position(d)
        assert rep == analyze(d, start=len(pos.played) - 2 * pos.seats, tt_mb=TT)
    r = _atout("analyze", "--last-tricks", "2", stdin=text)
    assert r.returncode == 0, r.stderr
    assert "trick" in r.stdout and "won by seat" in r.stdout and "double dummy" in r.stdout
    assert r.stdout.count("mistakes") == 2


def test_cli_bad_input_is_a_line_not_a_traceback():
    rng = random.Random("analyze-cli-bad")
    good = played_endgame(rng, "fr3", 1)[0]
    text = "not json\n" + json.dumps(good) + "\n" + json.dumps(dict(good, first=9)) + "\n"
    r = _atout("analyze", "--json", "--last-tricks", "1", stdin=text)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stderr.splitlines()[0].startswith("line 1: json:")
    assert "first" in r.stderr.splitlines()[1]
    assert len(r.stdout.splitlines()) == 1
    r = _atout("analyze", "--start", "999", stdin=json.dumps(good))
    assert r.returncode == 1 and ": start: must be a whole number from 0 to " in r.stderr
    assert "Traceback" not in r.stderr
    r = _atout("analyze", "/nonexistent/file")
    assert r.returncode == 2 and "cannot read" in r.stderr



def test_the_table_shows_ranges_the_contract_and_decisive_cards_only_where_bounded():
    """A stopped analysis' table: each value or cost not solved as its range, a contract
    column, decisive cards marked, the seats' cost ranges; an exact one has none of them
    (it reads as it always did)."""
    from atout.client.analyze_cmd import render
    from atout.solver import Cancel

    obj = json.loads((DATA / "played.jsonl").read_text().splitlines()[0])
    pos = parse_position(obj)
    cancel = Cancel()
    cancel.set()                       # no search: the cheap bounds only
    report = analyze(obj, tt_mb=TT, cancel=cancel)
    exact = sum(p["cost"] is not None for p in report["plays"])
    first = report["plays"][0]
    # (a verdict the cheap bounds cannot give, to see it drawn)
    first.update(made_before=True, made_after=False, decisive=True,
                 verdict={**first["verdict"], "kind": "decisive"})
    lines = render(pos, report, "deal", ascii=True).splitlines()
    best = sum(p["cost"] == 0 for p in report["plays"])
    assert lines[3].startswith(f"72 cards judged: {best} best, ")
    assert lines[3].endswith("; Ctrl-C left the rest not judged")
    unknown = sum(p["best"] is None for p in report["plays"])
    assert lines[4] == f'best there "?": Ctrl-C left the best cards unproven ({unknown} of 72 cards)'
    assert lines[6].startswith("cost: . one of the best cards")
    assert lines[7].split()[-3:] == ["contract", "best", "there"]
    row = next(line.split() for line in lines if line.split()[:2] == ["1", "0"])
    assert row[5:8] == ["{}..{}".format(*first["bounds_after"]),
                        "{}..{}".format(*first["cost_bounds"]), "down"]
    assert row[-1] == "decisive" and sum(line.endswith("decisive") for line in lines) == 1
    # the seats: what each is proven to have given away, never a sum of upper bounds
    seats = [line.split() for line in lines if len(line.split()) == 6
             and line.split()[0] in "0123" and line.split()[2] == "18"]
    assert [r[-2:] for r in seats] == [[f">={s['at_least']}", str(s["not_judged"])]
                                       for s in report["seats"]]
    words = [line for line in lines if line[:6] in ("seat 0", "seat 1", "seat 2", "seat 3")]
    assert len(words) == 4 and all(f"{s['not_judged']} card" in w
                                   for s, w in zip(report["seats"], words))

    exact = analyze(obj, start=len(pos.played) - 3 * pos.seats, tt_mb=TT)
    assert "stopped_by" not in exact
    exact["plays"][0]["decisive"] = True     # (its values say it: not marked)
    text = render(pos, exact, "deal", ascii=True)
    assert ".." not in text and "contract" not in text.splitlines()[4]
    assert "decisive" not in text and "open" not in text and "unproven" not in text
