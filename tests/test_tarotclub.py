"""TarotClub's deal files in and out (atout/tarotclub.py, `atout import`, `atout export`).

TarotClub's own sample files import as positions the rules accept, whose scores are the
ones TarotClub's rules tests assert; random deals of the three French games go out and come
back unchanged; every broken file is refused naming its field, and the other files go on.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from atout import tarotclub
from atout.dealt import dealt, deal_json, parse_deal
from atout.errors import PositionError
from atout.position import parse_position

from deals import random_finished, random_position
from test_cli_player import _atout

DATA = Path(__file__).resolve().parent / "data" / "tarotclub"

# the per-defender value TarotClub's tests/src/tst_tarot_rules.cpp asserts for each file
# (its GetPoints(ATTACK) / 3), with the bouts it counts
TAROTCLUB_SCORES = {
    "tarotmag_17": (-34, 1), "tarotmag_18": (54, 2), "3_oudlers": (72, 3),
    "maximum_points": (962, 3), "slam_announced_failure": (120, 3),
    "slam_not_announed_by_defense": (-686, 0), "01-T_lasttrickbydefense_game_lost": (-58, 1),
}


def imported(name: str, **kw) -> dict:
    text = (DATA / f"{name}.json").read_text()
    return tarotclub.read(tarotclub.loads(text), name, **kw)


@pytest.mark.parametrize("name", sorted(TAROTCLUB_SCORES))
def test_tarotclub_samples_score_as_tarotclub_says(name):
    pos = parse_position(imported(name))
    outcome = pos.outcome()
    assert (outcome["value"], outcome["bouts"]) == TAROTCLUB_SCORES[name]


def test_what_a_played_deal_file_says_is_kept():
    obj = imported("maximum_points")       # garde contre, slam announced, a triple poignée
    con = obj["contract"]
    assert (con["taker"], con["bid"], con.get("chelem")) == (0, "garde_contre", True)
    assert con["poignees"] == [{"seat": 0, "level": "triple",
                                "shown": ["T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14",
                                          "T13", "T12", "T11", "T10", "T9", "T8", "T7"]}]
    assert con["dog"] == ["1S", "2S", "3S", "4S", "5S", "6S"]
    take = imported("01-T_lasttrickbydefense_game_lost")     # a prise: the dog as turned up
    assert take["contract"]["shown_dog"] == ["T21", "T2", "7C", "3S", "8S", "1S"]
    assert take["first"] == 1 and take["contract"]["taker"] == 2      # East leads, North takes
    # each trick is written from its leader: the second trick is led by the first one's winner
    pos = parse_position(take)
    assert pos.tricks[1].cards[0][0] == pos.tricks[0].winner


def test_a_version_2_file_names_its_players_and_its_ecart():
    obj = imported("deal_result_2014-08-24.145333")
    assert obj["players"] == ["Fry", "Zoidberg", "Bender", "Leela"]
    assert sorted(obj["contract"]["dog"]) == sorted(["6H", "8H", "NH", "QH", "1H", "QD"])
    assert parse_position(obj).is_finished


def test_a_custom_deal_is_a_deal_as_dealt():
    obj = imported("west_slam")
    assert "contract" not in obj and len(obj["dog"]) == 6 and len(obj["hands"]) == 4
    d = parse_deal(obj)
    assert d.first == obj["first"] and d.played is None
    with pytest.raises(PositionError, match="petit sec") as e:
        imported("petit_sec")
    assert e.value.field == "South"


@pytest.mark.parametrize("game", ["fr3", "fr4", "fr5"])
def test_a_deal_goes_out_and_comes_back_the_same(game):
    rng = random.Random(f"tarotclub-{game}")
    for i in range(25):
        bid = ("prise", "garde", "garde_sans", "garde_contre")[i % 4]
        obj = random_finished(rng, game, bid, poignee_seat=i % 3 if i % 5 == 0 else None)
        if i % 7 == 0:
            obj["players"] = [f"P{s}" for s in range(len(obj["hands"]))]
        out = tarotclub.export(parse_position(obj))
        back = tarotclub.read(json.loads(tarotclub.dumps(out)), obj.get("id"))
        assert _canonical(back) == _canonical(obj)
        # a deal not yet played goes out as a custom deal: its deal as dealt comes back
        fresh = {**obj, "played": []}
        d = dealt(parse_position(fresh))
        if d.hands is not None:
            back = tarotclub.read(tarotclub.export(parse_position(fresh)))
            assert back == deal_json(d)


def _canonical(obj: dict) -> dict:
    """A position as the format reads it: the order of the cards in a hand or the écart
    does not matter (docs/format.md), nor an unannounced slam's ``chelem: false``."""
    out = {k: v for k, v in obj.items() if k != "id"}
    out["hands"] = [sorted(h, key=_pack_order) for h in obj["hands"]]
    con = dict(obj["contract"])
    con["dog"] = sorted(con["dog"], key=_pack_order)
    if not con.get("chelem"):
        con.pop("chelem", None)
    out["contract"] = con
    return out


def _pack_order(tok: str) -> int:
    from atout.cards import card
    return card(tok)


def _broken(name: str, change) -> dict:
    obj = json.loads(tarotclub._without_trailing_commas((DATA / f"{name}.json").read_text()))
    change(obj)
    return obj


@pytest.mark.parametrize("change, field, reason", [
    (lambda o: o.update(version="1"), "version", "versions 2.0 and 3"),
    (lambda o: o["deal_info"].update(taker="Fifth"), "deal_info.taker", "not a place"),
    (lambda o: o["deal_info"].update(contract="Small"), "deal_info.contract", "not a contract"),
    (lambda o: o["deal_info"].update(number_of_players=6), "deal_info.number_of_players", "3, 4 or 5"),
    (lambda o: o["tricks"].pop(), "tricks", "has 18 tricks, not 17"),
    (lambda o: o["tricks"].__setitem__(2, "14-D;01-D;04-D"), "tricks[2]", "holds 3 cards"),
    (lambda o: o["tricks"].__setitem__(2, "14-D;01-D;04-D;15-X"), "tricks[2][3]", "not a TarotClub card"),
    (lambda o: o["tricks"].__setitem__(2, "14-D;01-D;04-D;01-H"), "tricks[2][3]", "played already"),
    (lambda o: o["deal_info"].update(slam="yes"), "deal_info.slam", "true or false"),
    (lambda o: o["deal_info"].update(attack_handle="21-T;20-T"), "deal_info.attack_handle", "shows 2 trumps"),
])
def test_a_broken_played_deal_is_refused_naming_its_field(change, field, reason):
    with pytest.raises(PositionError) as e:
        tarotclub.read(_broken("tarotmag_17", change))
    assert e.value.field == field and reason in e.value.reason


def test_a_card_against_the_rules_is_named_where_it_lies():
    # a trump played by a seat that could follow suit: the rules refuse the file there
    def swap(o):
        t = o["tricks"]
        t[0], t[4] = t[0].replace("03-H", "02-T"), t[4].replace("02-T", "03-H")
    with pytest.raises(PositionError) as e:
        tarotclub.read(_broken("tarotmag_17", swap))
    assert e.value.field.startswith("tricks[") and "not legal" in e.value.reason


def test_a_five_player_deal_needs_its_called_card():
    obj = tarotclub.export(parse_position(random_finished(random.Random(5), "fr5", "garde")))
    del obj["deal_info"]["called"]
    with pytest.raises(PositionError) as e:
        tarotclub.read(obj)
    assert e.value.field == "deal_info.called" and "--called" in e.value.reason


def test_export_refuses_what_tarotclub_cannot_hold():
    rng = random.Random(3)
    with pytest.raises(PositionError) as e:
        tarotclub.export(parse_position(random_position(rng, "priest5")))
    assert e.value.field == "game"
    part = random_finished(rng, "fr4", "garde")
    part["played"] = part["played"][:10]
    with pytest.raises(PositionError) as e:
        tarotclub.export(parse_position(part))
    assert e.value.field == "played"


def test_the_commands_go_on_past_a_bad_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": "3", "deal_info": ')
    r = _atout("import", str(DATA / "tarotmag_17.json"), str(bad), str(DATA / "west_slam.json"))
    assert r.returncode == 1
    assert r.stderr.strip() == f"{bad}: file: not valid JSON at line 1 column 31 (Expecting value)"
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["id"] for x in lines] == ["tarotmag_17", "west_slam"]
    # both kinds go out again, into a directory, and `atout validate` takes the deal as dealt
    (tmp_path / "in.jsonl").write_text(r.stdout)
    r = _atout("validate", str(tmp_path / "in.jsonl"))
    assert r.returncode == 0, r.stderr
    r = _atout("export", str(tmp_path / "in.jsonl"), "--format", "tarotclub", "-o", f"{tmp_path}/out/")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["tarotmag_17.json", "west_slam.json"]
    r = _atout("import", *sorted(str(p) for p in (tmp_path / "out").iterdir()))
    assert [json.loads(x) for x in r.stdout.splitlines()] == lines


def test_show_prints_a_deal_as_dealt(tmp_path):
    r = _atout("import", str(DATA / "west_slam.json"))
    (tmp_path / "deal.jsonl").write_text(r.stdout)
    r = _atout("show", str(tmp_path / "deal.jsonl"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("west_slam: French Tarot (4), a deal as dealt (no contract yet); seat 0 leads")
    assert "dog: ♠ 6 5 4 3 2 1" in r.stdout
    r = _atout("show", str(tmp_path / "deal.jsonl"), "--svg", str(tmp_path / "x.svg"))
    assert r.returncode == 1 and "contract: is missing" in r.stderr


def test_the_table_of_a_deal_as_dealt(tmp_path):
    """A custom deal has no contract: its table is the deal's, with no contract played."""
    r = _atout("import", str(DATA / "west_slam.json"))
    (tmp_path / "deal.jsonl").write_text(r.stdout)
    r = _atout("table", str(tmp_path / "deal.jsonl"), "--contract", "garde_contre",
               "--time-limit", "20", "--threads", "1")
    assert r.returncode == 0, r.stderr
    table = json.loads(r.stdout)
    assert table["id"] == "west_slam" and table["played"] is None
    made = {c["seat"]: c["made"] for c in table["cells"]}
    assert made[3] is True                  # West holds every trump but two: a garde contre
    assert table["par"]["seat"] == 3 and table["par"]["contract"] == "garde_contre"
