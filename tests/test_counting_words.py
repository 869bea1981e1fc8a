"""Austrian Tarock's two countings written as players count them (issue 56, problem 7):
with standard counting (in threes, docs/rules.md: 3·S − 2·c, made with 107) the value is
in thirds of a point, so the words say points — "12⅔ of 70 points", "35⅔ needed", "lost
by 23" — not "lost by 69, 107 needed"; the session report keeps the two scales apart,
each headed by its own counting."""

from __future__ import annotations

import random

from atout.deal import random_endgame
from atout.position import parse_position
from atout.present.report import player_totals, value_kind
from atout.present.view import result
from atout.present.words import standard_points
from atout.present.text import outcome_text


def test_thirds_as_a_player_says_them():
    assert [standard_points(n) for n in (0, 1, 2, 3, 38, 107, 210)] == \
        ["0", "⅓", "⅔", "1", "12⅔", "35⅔", "70"]


def _finished(counting: str, seed: str) -> dict:
    obj = random_endgame(random.Random(seed), "at4", 0, bid="dreier", counting=counting)
    assert parse_position(obj).is_finished()
    return obj


def test_a_standard_count_is_written_in_points():
    pos = parse_position(_finished("standard", "count-1"))
    out = pos.outcome()
    res = result(pos)
    margin = abs(out["count"] - 107)
    assert res["headline"].endswith(f" by {standard_points(margin)}")
    said = " ".join(res["details"])
    assert f"{standard_points(out['count'])} of 70 points" in said and "35⅔ needed" in said
    assert "107 needed" not in said
    assert any("points counted in threes" in line for line in outcome_text(pos, out))
    seed = parse_position(_finished("seed", "count-1"))
    assert "of 106 points, 54 needed" in " ".join(result(seed)["details"])


def test_the_report_never_adds_the_two_scales():
    from atout.present.report import Played
    standard = parse_position(_finished("standard", "count-2"))
    seed = parse_position(_finished("seed", "count-3"))
    assert value_kind(standard) == "thirds" and value_kind(seed) == "points"

    def played(pos, line):
        seats = [{"seat": s, "cards": 12, "cost": 3, "mistakes": 1} for s in range(4)]
        return Played(line=line, position=pos, result={"seats": seats, "plays": []})
    deals = [played(standard, 1), played(seed, 2)]
    totals = player_totals(deals)
    assert set(totals) == {("at4", "thirds"), ("at4", "points")}
    assert all(t.deals == 1 for group in totals.values() for t in group)
