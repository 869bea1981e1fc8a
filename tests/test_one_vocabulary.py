"""One way of counting and writing, whatever the tool (issue 56, problem 8): the points won
so far that `atout show` prints are the viewer's (the écart, dog or talon counted as the
outcome counts them), and a card is written as a player writes it — K♥, 14 atout, Excuse —
by the report, the command line and the viewer alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from atout.position import parse_position
from atout.present.view import table
from atout.present.text import describe_position

PLAYED = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "played.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("index", range(len(PLAYED)))
def test_show_counts_the_points_won_as_the_viewer(index):
    deal = PLAYED[index]
    seats = len(deal["hands"])
    for k in range(seats, len(deal["played"]), 3 * seats):
        pos = parse_position({**deal, "played": deal["played"][:k]})
        text = describe_position(pos)
        won = table(pos)["won"]
        if won["by"] == "seat":
            said = re.search(r"points so far: (.*)", text).group(1)
            assert said == ", ".join(f"seat {s} {r['points']:g}" for s, r in enumerate(won["rows"]))
            continue
        m = re.search(r"won so far: \S+ camp (\S+) points in (\d+) tricks?, the others (\S+) in (\d+)",
                      text)
        assert m, text
        shown = [(float(m.group(1)), int(m.group(2))), (float(m.group(3)), int(m.group(4)))]
        assert shown == [(r["points"], r["tricks"]) for r in won["rows"]], (k, text)


def test_a_card_in_a_sentence_is_written_as_the_viewer_writes_it():
    from atout.present.words import card_text, cards_text
    assert [card_text(t, game="fr4") for t in ("KH", "T14", "EX")] == ["K♥", "14 atout", "Excuse"]
    assert [card_text(t, game="at4") for t in ("T1", "EX")] == ["1 tarock", "Sküs"]
    assert card_text("EX", ascii=True, game="at4") == "Skus"
    assert cards_text(["T7", "T17"], game="fr3") == "7 atout, 17 atout"
    assert card_text("T14") == "T14"                # a table's compact column keeps the code


def test_solve_text_and_the_report_name_cards_in_words():
    from atout.present.report import _card, _cards
    from atout.present.text import describe_result
    deal = PLAYED[1]                                                  # fr3
    pos = parse_position({**deal, "played": deal["played"][:-3]})
    said = describe_result(pos, {"id": "x", "status": "ok", "value": 3, "to_play": pos.to_play,
                                 "best": ["T7", "T17"],
                                 "cards": {"T7": 3, "T17": 3, "EX": 1}})
    assert "best: 7 atout, 17 atout" in said and "other cards: Excuse 1" in said
    assert "T7" not in said and "EX" not in said
    assert ">14 atout<" in _card("T14", "fr3") and ">Excuse<" in _card("EX", "fr3")
    assert "T14" not in _cards(["T14", "EX"], "fr3", compact=True)
