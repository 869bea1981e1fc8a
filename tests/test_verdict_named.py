"""A card's verdict is named once (issue 56): the analysis gives each play a ``verdict``
(atout/verdict.py: best, mistake, decisive, not judged, with the cost's proven bounds),
carried by the JSON and gRPC, and every renderer reads it rather than working it out again
from the cost — a play whose verdict says otherwise than its cost is drawn as its verdict
says (a test only: the analysis never writes such a play)."""

from __future__ import annotations

import json
import random

from atout.deal import random_endgame
from atout.present.words import verdict_mark, verdict_words
from atout.proto import convert
from atout.solver.analyze import analyze
from atout.verdict import Verdict, VerdictKind


def _report():
    obj = random_endgame(random.Random("verdict-named"), "fr4", 3)
    from atout.position import parse_position
    pos = parse_position(obj)
    rng = random.Random(1)
    while not pos.is_finished():
        pos.play(rng.choice(sorted(pos.legal_cards())))
    done = pos.to_json()
    return done, pos, analyze(done, start=len(done["played"]) - 12, tt_mb=16)


def test_every_play_carries_its_verdict_by_the_one_rule():
    _, _, report = _report()
    for p in report["plays"]:
        low, high = (p["cost"], p["cost"]) if p["cost"] is not None else p["cost_bounds"]
        assert p["verdict"] == Verdict.of_cost(low, high, p["decisive"]).to_json()
        assert json.loads(json.dumps(p["verdict"])) == p["verdict"]
    # through gRPC and back: the same verdicts
    back = convert.analysis_object(convert.analysis_message(report))
    assert [p["verdict"] for p in back["plays"]] == [p["verdict"] for p in report["plays"]]


def test_the_renderers_read_the_verdict():
    from atout.client.analyze_cmd import cost_text, verdict_counts
    from atout.client.live import LiveVerdicts
    from atout.present.report import _cost, _verdict_title, is_mistake
    _, pos, report = _report()
    play = dict(report["plays"][0], cost=7, decisive=False,
                verdict={"kind": "best", "low": 0, "high": 0})
    assert cost_text(play) == "·" and _cost(play) == "·" and not is_mistake(play)
    assert _verdict_title(play) == "one of the best cards"
    assert verdict_counts([play]).startswith("1 card judged: 1 best")
    bounded = dict(play, verdict={"kind": "mistake", "low": 20, "high": 52})
    assert cost_text(bounded) == "≥20" == _cost(bounded)
    assert _verdict_title(bounded) == "a mistake of at least 20 (proven)"
    decisive = dict(play, verdict={"kind": "decisive", "low": 9, "high": 9})
    assert _verdict_title(decisive) == "a mistake costing 9; decisive"

    import io
    live = LiveVerdicts(io.StringIO(), "x", [(play["index"], play["card"])], pos.seats, 5, False)
    live.update([decisive])
    assert live.verdicts[play["index"]] == "9!"


def test_verdict_words_and_marks():
    assert Verdict.of_cost(0, 0, False).kind is VerdictKind.BEST
    assert verdict_mark(Verdict.of_cost(0, 30, False)) == "?"
    assert verdict_words(Verdict.of_cost(0, 30, False)) == "not judged: its cost lies between 0 and 30"
    assert verdict_mark(Verdict.of_cost(12, 12, False)) == "12"
    assert verdict_mark(Verdict.of_cost(12, 40, False), ascii=True) == ">=12"
    assert Verdict.of_cost(12, 12, True).kind is VerdictKind.DECISIVE
