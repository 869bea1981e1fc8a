"""What a seat's view of the table counts as won so far (issue 56, problem 1): only the
cards that seat has seen.  The écart the taker laid face down, a garde sans or garde contre
dog, a talon a seat did not see must not show through the camps' points before the end of
the deal — as no hidden card's name shows (tests/test_viewer_seat.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from atout.knowledge import seen_outside
from atout.position import parse_position
from atout.present.view import _number, table

PLAYED = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "played.jsonl").read_text().splitlines()]


def _visible_total(pos, seat) -> float:
    """The points a seat can count: the cards of the tricks played, the outside cards seen."""
    pts = pos.contract.rules.points
    seen = [x for cards in seen_outside(pos, seat).values() for x in cards]
    return (sum(pts[x] for t in pos.tricks for _, x in t.cards)
            + sum(pts[x] for x in seen))


@pytest.mark.parametrize("index", [i for i, d in enumerate(PLAYED) if d["game"].startswith("fr")])
def test_a_seat_counts_no_face_down_card(index):
    deal = PLAYED[index]
    french = deal["game"].startswith("fr")
    seats = len(deal["hands"])
    checked = 0
    for k in range(0, len(deal["played"]), seats):          # after each whole trick
        pos = parse_position({**deal, "played": deal["played"][:k]})
        for seat in range(seats):
            view = table(pos, seat)
            if view["won"] is None:                          # the partner unknown: no points
                continue
            shown = sum(row["points"] for row in view["won"]["rows"])
            assert shown == _number(_visible_total(pos, seat), french), (k, seat)
            checked += 1
    assert checked


def test_the_taker_counts_his_ecart_the_defence_does_not():
    """fr3 prise, after its first trick: the taker made the écart and counts it; a defender
    sees only its trumps (none here) and is told why its count is lower."""
    deal = next(d for d in PLAYED if d["game"] == "fr3" and d["contract"]["bid"] == "prise")
    pos = parse_position({**deal, "played": deal["played"][:3]})
    taker = pos.contract.declarer
    every = table(pos)["won"]["rows"]
    mine = table(pos, taker)["won"]["rows"]
    assert mine == every                                         # he made it: he knows it
    defender = (taker + 1) % 3
    theirs = table(pos, defender)["won"]
    ecart = sum(pos.contract.rules.points[x] for x in pos.contract.outside[0])
    assert ecart > 0
    assert theirs["rows"][0]["points"] == every[0]["points"] - _number(ecart, True)
    assert any("not counted" in note for note in theirs["notes"])


def test_a_garde_contre_dog_counts_for_no_one_before_the_end():
    deal = next(d for d in PLAYED if d["contract"].get("bid") == "garde_contre")
    pos = parse_position({**deal, "played": []})
    for seat in range(pos.seats):
        assert sum(r["points"] for r in table(pos, seat)["won"]["rows"]) == 0
    end = parse_position(deal)                                   # at the end the dog is shown
    assert table(end, 0)["won"] == table(end)["won"]
