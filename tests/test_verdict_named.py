"""A card's verdict is named once (issue 56): the analysis gives each play a ``verdict``
(atout/verdict.py: best, mistake, decisive, not judged, with the cost's proven bounds),
carried by the JSON and gRPC, and every renderer reads it rather than working it out again
from the cost — a play whose verdict says otherwise than its cost is drawn as its verdict
says (a test only: the analysis never writes such a play)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

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


# -- written on the type, "not judged" decided once (issue 67) ---------------------------------

def test_the_type_writes_every_verdict_one_way():
    """Each kind has its mark, words and style on the type; "not judged" is one rule, the
    one the analysis counts a seat's not_judged by (its cost proven only within 0..high)."""
    grid = [Verdict.of_cost(lo, hi, d) for lo in (0, 3) for hi in (0, 3, 40) if lo <= hi
            for d in (False, True)]
    assert {v.kind for v in grid} == set(VerdictKind)
    for v in grid:
        assert v.judged == (v.low == v.high or v.low > 0)
        assert (v.mark() == "?") == (not v.judged)
        assert v.words().startswith("not judged") == (not v.judged)
        assert v.mark(open_range=True) == (f"{v.low}…{v.high}" if not v.judged else v.mark())
        assert v.style.split()[0] in ("best", "mistake", "open")
        assert verdict_mark(v) == v.mark() and verdict_words(v) == v.words()
    _, _, report = _report()
    for seat in report["seats"]:
        plays = [Verdict.of_play(p) for p in report["plays"] if p["seat"] == seat["seat"]]
        if seat["cost"] is None:
            assert seat["not_judged"] == sum(not v.judged for v in plays)


def _listed() -> set[str]:
    """The files atout/verdict.py says a new kind touches."""
    import atout.verdict
    items = atout.verdict.__doc__.split("A new kind touches", 1)[1].split("\n- ", 1)[1]
    items = re.sub(r"``python [^`]*``", "", items)          # (the command that makes the stubs)
    return set(re.findall(r"\b(?:[\w-]+/)+[\w.-]+\.\w+|\bREADME\.md\b", items))


#: a kind named: a member of VerdictKind or of the message's enum, a kind compared or written
#: (``kind === "best"``, ``"kind": "best"``), the docs' table of kinds
_KINDS = "best|mistake|decisive|not_judged"
_NAMES_A_KIND = re.compile(rf"(?:VerdictKind\.|VERDICT_KIND_)(?:{_KINDS.upper()})\b"
                           rf"|\bkind\"?\s*(?:[!=]==?|:)\s*[\"'](?:{_KINDS})\b"
                           rf"|`verdict\.kind`")


def test_a_new_kind_touches_only_the_files_verdict_py_lists():
    """Issue 67: a new kind touched about 11 files where verdict.py listed 5.  Now no file
    outside its list names a kind — the renderers ask the type (mark, words, style,
    decisive, is_mistake, tally) — and each file listed is there."""
    root = Path(__file__).resolve().parent.parent
    listed = _listed()
    assert {"atout/verdict.py", "proto/v1/solver.proto", "server/static/review-view.js",
            "docs/format.md"} <= listed
    assert all((root / f).exists() for f in listed), listed
    naming = set()
    for folder in ("atout", "solver", "server", "client", "runner", "proto", "bench", "docs"):
        for path in (root / folder).rglob("*"):
            if path.suffix in (".py", ".pyi", ".pyx", ".pxi", ".proto", ".js", ".md") \
                    and _NAMES_A_KIND.search(path.read_text(encoding="utf-8")):
                naming.add(path.relative_to(root).as_posix())
    assert naming <= listed, sorted(naming - listed)
    assert "atout/verdict.py" in naming and "proto/v1/solver.proto" in naming
