"""The table as a picture (atout/present/picture.py) and its route, POST /api/picture: a
well-formed SVG for every game, each held card drawn by its seat, values only with every
hand open, and bad values refused naming the field."""

from __future__ import annotations

import json
import random
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from atout.present import picture
from atout.deal import random_endgame
from atout.position import parse_position
from atout.present.view import table

pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from atout.server.http import HttpApi  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
PLAYED = [json.loads(line) for line in
          (Path(__file__).resolve().parent / "data" / "played.jsonl").read_text().splitlines()]


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(SVG + "text")]


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5", "at4"])
def test_every_game_draws_every_card_held(game):
    obj = random_endgame(random.Random(game), game, 5)
    pos = parse_position(obj)
    shown = table(pos)
    words = texts(picture.svg(shown))
    ranks = [w for w in words if len(w) <= 2]             # the cards' rank lines
    held = sum(len(h) for h in pos.held)
    assert len(ranks) >= held
    assert any("by seat" in w or "calls" in w or "Trischaken" in w for w in words)
    # from one seat's view: the other hands face down, their cards not drawn
    seat = pos.to_play
    seen = texts(picture.svg(table(pos, seat), {"status": "ok", "value": 0, "cards": {}}))
    assert sum(w.endswith("unseen") for w in seen) == pos.seats - 1
    assert not any(w.startswith("Double-dummy") for w in seen)


@pytest.fixture(scope="module")
def client():
    with TestClient(HttpApi(None, workers=1, tt_mb=16).app) as c:
        yield c


def test_the_route_draws_the_values_it_is_given(client):
    deal = PLAYED[0]
    obj = {**deal, "played": deal["played"][:64]}
    pos = parse_position(obj)
    legal = [t for t in table(pos)["legal"]]
    assert pos.contract.camp[pos.to_play] == 1           # a defender: lower is better for it
    values = {"status": "ok", "value": -20, "cards": {legal[0]: -20, **{t: 10 for t in legal[1:]}}}
    r = client.post("/api/picture", json={"position": obj, "values": values})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["name"] == f"{deal['id']}-card-64"
    words = texts(answer["svg"])
    assert "Double-dummy value: -20 (" in " ".join(words)
    assert words.count("best") == 1 and words.count("−30") == len(legal) - 1
    for bad, reason in [({"status": "ok", "value": 1.5, "cards": {}}, "value"),
                        ({"status": "ok", "value": 1, "cards": {"ZZ": 1}}, "legal cards"),
                        ({"status": "limit", "bounds": [3, 1]}, "bounds"),
                        ("values", "object")]:
        r = client.post("/api/picture", json={"position": obj, "values": bad})
        assert r.status_code == 422 and r.json()["field"] == "values"
        assert reason in r.json()["reason"]


def test_a_what_if_is_said_and_a_bad_real_line_refused(client):
    deal = PLAYED[1]
    k = 6
    pos = parse_position({**deal, "played": deal["played"][:k]})
    other = next(c for c in table(pos)["legal"] if c != deal["played"][k])
    line = {**deal, "played": deal["played"][:k] + [other]}
    r = client.post("/api/picture", json={"position": line, "real_played": deal["played"]})
    assert r.status_code == 200 and r.json()["name"].endswith("-what-if")
    assert any(t.startswith(f"What-if, not the real play: from card {k + 1}, ")
               for t in texts(r.json()["svg"]))
    # from a seat that did not hold the card really played, that card is not named
    seat = next(s for s in range(3) if deal["played"][k] not in deal["hands"][s])
    r = client.post("/api/picture", json={"position": line, "real_played": deal["played"],
                                          "seat": seat})
    said = next(t for t in texts(r.json()["svg"]) if t.startswith("What-if"))
    assert said.endswith("instead of the real card")
    same = client.post("/api/picture", json={"position": {**deal, "played": deal["played"][:k]},
                                             "real_played": deal["played"]})
    assert not any(t.startswith("What-if") for t in texts(same.json()["svg"]))
    bad = client.post("/api/picture", json={"position": line, "real_played": "KH"})
    assert bad.status_code == 422 and bad.json()["field"] == "real_played"
