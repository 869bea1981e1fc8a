"""The worked scoring examples of docs/rules.md ("Check against seeds/000 §14") as real
finished deals (tests/data/examples.jsonl, found by tests/find_examples.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from atout.position import parse_position

DEALS = {obj["id"]: obj for obj in map(json.loads, (Path(__file__).parent / "data" /
                                                     "examples.jsonl").read_text().splitlines())}

# id: (taker points, bouts, petit au bout, poignée, S)
EXPECTED = {
    "seed000-1": (46, 2, None, 0, 60),          # (25 + 5) x 2
    "seed000-2": (39, 3, "taker", 0, 76),       # (25 + 3 + 10) x 2
    "seed000-3": (40, 2, "defence", 0, -72),    # -(25 + 1 + 10) x 2
    "seed000-4": (41, 2, "defence", 0, 30),         # (25 + 0 - 10) x 2
    "seed000-5": (40, 3, None, 20, 78),         # (25 + 4) x 2 + 20
    "seed000-fr5": (43, 2, None, 20, 74),       # (25 + 2) x 2 + 20
}


@pytest.mark.parametrize("ident", sorted(EXPECTED))
def test_worked_example(ident):
    obj = DEALS[ident]
    pos = parse_position(obj)
    assert pos.is_finished()
    assert obj["contract"]["bid"] == "garde"
    out = pos.outcome()
    points, bouts, pab, poignee, value = EXPECTED[ident]
    assert out["taker_points"] == points
    assert out["bouts"] == bouts
    assert out["petit_au_bout"] == pab
    assert out["poignee"] == poignee
    assert out["chelem"] is None
    assert out["multiplier"] == 2
    assert out["value"] == value
    taker = obj["contract"]["taker"]
    if obj["game"] == "fr4":
        want = [-value] * 4
        want[taker] = 3 * value
    else:
        # Renate +148, her partner Andreas +74, the three defenders -74 each
        partner = pos.contract.partner
        assert partner is not None and partner != taker
        want = [-value] * 5
        want[taker], want[partner] = 2 * value, value
    assert out["scores"] == want
    assert sum(out["scores"]) == 0


def test_seed_table_game_1():
    # "Lukas gewinnt also 180 Punkte, jeder Gegner verliert 60 Punkte."
    out = parse_position(DEALS["seed000-1"]).outcome()
    assert sorted(out["scores"]) == [-60, -60, -60, 180]


def test_example_4_taker_lost_the_petit():
    # Christian held three bouts but the petit was taken in the last trick.
    pos = parse_position(DEALS["seed000-4"])
    assert 56 in pos.hands[pos.contract.declarer]  # T1
    last = pos.tricks[-1]
    assert 56 in [c for _, c in last.cards]
    assert pos.contract.camp[last.winner] == 1


def test_example_5_poignee_declared_by_a_defender():
    pos = parse_position(DEALS["seed000-5"])
    (seat, level), = pos.contract.poignees
    assert level == "simple" and pos.contract.camp[seat] == 1


def test_examples_through_the_cli(tmp_path, capsys):
    from atout.client.cli import main
    f = tmp_path / "examples.jsonl"
    f.write_text("".join(json.dumps(DEALS[i]) + "\n" for i in sorted(EXPECTED)))
    assert main(["score", str(f)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["id"] for x in lines] == sorted(EXPECTED)
    assert [x["outcome"]["value"] for x in lines] == [EXPECTED[i][4] for i in sorted(EXPECTED)]
