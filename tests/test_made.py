"""The contract question: ``made_threshold`` against the rules engine's own outcome, and
the ``made`` of every solve result against the exact value."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from atout.cards import EXCUSE
from atout.contract import DECLARER_CAMP
from atout.games import AT4_BIDS
from atout.position import parse_position
from atout.scoring import made_threshold
from atout.solver import made_of, solve
from atout.present.text import describe_result

from deals import (GAMES, keep_policy, mixed_policy, random_endgame, random_finished,
                   slam_policy, uniform_policy)

TT = 8  # MB
DATA = Path(__file__).resolve().parent / "data"

FR_BIDS = ("prise", "garde", "garde_sans", "garde_contre")
#: every contract family of every game: (game, options of random_position)
CONTRACTS = ([(g, {"bid": b}) for g in ("fr4", "fr3", "fr5") for b in FR_BIDS]
             + [(g, {"bid": b, "chelem": True}) for g in ("fr4", "fr5") for b in ("prise", "garde_contre")]
             + [("fr5", {"called_where": w}) for w in ("partner", "taker", "dog")]
             + [("priest5", {"alone": a}) for a in (False, True)]
             + [("at4", {"bid": b}) for b in AT4_BIDS]
             + [("at4", {"bid": "solorufer", "counting": "standard", "objective": "contract"}),
                ("at4", {"bid": "dreier", "objective": "volat"})])
#: random play, one camp taking everything, the Narr/Excuse kept to the end (priest5's 66)
POLICY = mixed_policy(uniform_policy, slam_policy(0, 0.8), slam_policy(1, 0.8),
                      keep_policy(["EX"]))


@pytest.mark.parametrize("game,options", CONTRACTS,
                         ids=[f"{g}-{'-'.join(str(v) for v in o.values())}" for g, o in CONTRACTS])
def test_made_is_the_value_from_the_threshold_on(game, options):
    rng = random.Random(f"made-{game}-{options}")
    for _ in range(80):
        pos = parse_position(random_finished(rng, game, policy=POLICY, **options))
        out = pos.outcome()
        t = made_threshold(pos.contract, pos.hands)
        if pos.contract.bid == "trischaken":
            assert t is None and "made" not in out
            continue
        assert out["made"] == (out["value"] >= t), (out, t)


def test_the_thresholds_edge_cases_are_met():
    """Where the threshold is not the obvious one, deals on both sides of it: a French
    contract made with an announced chelem failed (a negative score), and a 33:33
    Priestertarock tie, for each party holding the Narr."""
    rng = random.Random("made-edges")
    made_negative = 0
    for _ in range(200):
        pos = parse_position(random_finished(rng, "fr4", "prise", chelem=True, policy=POLICY))
        out = pos.outcome()
        assert out["made"] == (out["value"] >= made_threshold(pos.contract, pos.hands))
        made_negative += out["made"] and out["value"] < 1
    assert made_negative
    ties = set()
    for _ in range(3000):
        pos = parse_position(random_finished(rng, "priest5", policy=keep_policy(["EX"])))
        out = pos.outcome()
        if out["value"] == 0:
            holder = next(s for s, h in enumerate(pos.hands) if EXCUSE in h)
            ties.add(pos.contract.camp[holder] == DECLARER_CAMP)
            assert out["made"] == (0 >= made_threshold(pos.contract, pos.hands))
        if len(ties) == 2:
            break
    assert ties == {True, False}


# -- solve ------------------------------------------------------------------------------------

SOLVE_CASES = [(g, {}) for g in GAMES] + [("at4", {"bid": "trischaken"}),
                                          ("at4", {"bid": "solorufer"}),
                                          ("fr4", {"bid": "prise", "chelem": True})]


@pytest.mark.parametrize("game,options", SOLVE_CASES,
                         ids=[f"{g}-{o.get('bid', '')}" for g, o in SOLVE_CASES])
def test_every_solve_result_says_whether_the_contract_is_made(game, options):
    """``made`` is the exact value's verdict; a search a node limit stops says it only
    where its bounds prove it."""
    rng = random.Random(f"made-solve-{game}-{options}")
    limited = 0
    for i in range(5):
        obj = random_endgame(rng, game, 7, partial=bool(i % 2), **options)
        pos = parse_position(obj)
        t = made_threshold(pos.contract, pos.hands)
        r = solve(obj, tt_mb=TT)
        assert r.made == (None if t is None else r.value >= t)
        assert r.to_json()["made"] is r.made
        for limit in (1024, 4096):
            stopped = solve(obj, node_limit=limit, tt_mb=TT, all_cards=bool(i % 2))
            if stopped.status == "ok":
                continue
            limited += 1
            lo, hi = stopped.bounds
            assert lo <= r.value <= hi
            assert stopped.made in (None, r.made)
            assert stopped.made == made_of(lo, hi, t)
    end = parse_position(random_finished(rng, game, **options))
    assert solve(end).made == end.outcome().get("made")
    assert limited


def test_the_contract_question_comes_before_the_value():
    """A whole fr4 deal: its value is far out of reach of two million nodes, but that the
    taker goes down is proven well within them."""
    obj = json.loads((DATA / "played.jsonl").read_text().splitlines()[0])
    obj["played"] = []
    r = solve(obj, node_limit=1 << 21, tt_mb=64)
    assert r.status == "limit" and r.value is None
    assert r.made is False and r.bounds[1] < 1
    assert r.to_json()["made"] is False


def test_solve_text_says_what_is_proven_of_the_contract():
    obj = json.loads((DATA / "played.jsonl").read_text().splitlines()[0])
    obj["played"] = []
    main = "import sys; from atout.client.cli import main; sys.exit(main())"
    r = subprocess.run([sys.executable, "-c", main, "solve", "--text", "--ascii", "--threads", "1",
                        "--node-limit", str(1 << 21), "--tt-mb", "64"],
                       input=json.dumps(obj) + "\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "stopped by the node limit" in r.stdout
    assert "proven: the taker's camp goes down with best play" in r.stdout
    pos = parse_position(obj)
    for made, words in ((True, "makes its contract"), (None, "not proven whether")):
        text = describe_result(pos, {"id": 1, "status": "limit", "bounds": [-10, 10],
                                     "made": made, "stopped_by": "time", "to_play": 0})
        assert words in text


def test_made_and_the_bounds_cross_the_wire():
    """What gRPC and HTTP carry (atout.proto.convert): a stopped solve's ``made`` and
    bounds, and an analysis stopped before any search — every value bounded, none
    infinite — come back as the local objects, key order included."""
    from atout.proto import convert
    from atout.solver import Cancel
    from atout.solver.analyze import analyze

    obj = json.loads((DATA / "played.jsonl").read_text().splitlines()[0])
    stopped = solve({**obj, "played": obj["played"][:8]}, node_limit=4096, tt_mb=TT)
    assert stopped.status == "limit"
    back = convert.solve_result(convert.result_message(stopped)).to_json()
    local = stopped.to_json()
    assert back["made"] is local["made"] and back["bounds"] == local["bounds"]
    assert back == {k: local[k] for k in back}    # (stopped_by: HTTP adds it itself)
    cancel = Cancel()
    cancel.set()
    report = analyze(obj, tt_mb=TT, cancel=cancel)
    assert report["stopped_by"] == "cancel" and report["start_value"] is None
    assert all(p["cost"] is None for p in report["plays"][:4])
    text = json.dumps(report, allow_nan=False)       # every bound a finite number
    back = convert.analysis_object(convert.analysis_message(report, "limit"))
    assert json.dumps(back) == text
