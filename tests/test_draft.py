"""A deal entered by hand (atout/draft.py, /api/draft, /api/import): the draft of any position
gives that position back; the editor's choices are exactly what the rules accept; typing,
dealing the rest and every wrong entry are answered naming the field."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from atout import draft as drafts
from atout.cards import card
from atout.contract import parse_contract
from atout.errors import PositionError
from atout.position import parse_position

from deals import random_finished, random_position

DATA = Path(__file__).resolve().parent / "data"


def canonical(obj: dict) -> dict:
    """A position as the rules read it: the order of cards in a hand or a list outside the
    hands does not matter (but a Trischaken talon's, which joins tricks 1–6 in order)."""
    pos = parse_position(obj)
    con = dict(pos.contract.raw)
    for key in ("dog", "shown_dog", "open"):
        if key in con:
            con[key] = sorted(con[key])
    if con.get("objective") == "contract":      # the default, written or not
        del con["objective"]
    if "side_cards" in con:      # which camp each side card counts for is what matters
        con["side_cards"] = [sorted(cards) for cards in pos.contract.outside]
    return {"game": pos.game, "hands": [sorted(h) for h in pos.hands], "first": pos.first,
            "played": list(pos.played), "contract": con}


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5", "at4"])
def test_the_draft_of_a_position_gives_it_back(game):
    rng = random.Random(f"draft-{game}")
    for i in range(30):
        obj = random_finished(rng, game) if i % 2 else random_position(rng, game)
        if i % 5 == 0:
            obj = {**obj, "played": obj["played"][: 4 * i]}
        check = drafts.check(drafts.from_position(obj))
        assert check["stage"] == "play" and not check["problems"] and not check["todo"], check
        assert canonical(check["position"]) == canonical(obj)


def test_a_deal_entered_step_by_step():
    draft = {"game": "fr4"}
    check = drafts.check(draft)
    assert check["stage"] == "cards" and len(check["unplaced"]) == 78
    assert {t["field"] for t in check["todo"]} == {"hands[0]", "hands[1]", "hands[2]", "hands[3]",
                                                   "outside", "first"}
    draft = drafts.fill(draft, random.Random(1))
    draft["first"] = 3
    check = drafts.check(draft)
    assert check["stage"] == "contract" and check["deal"]["dog"] == draft["outside"]
    assert [t["field"] for t in check["todo"]] == ["contract.taker", "contract.bid"]
    draft["contract"] = {"taker": 1, "bid": "garde"}
    check = drafts.check(draft)
    assert [t["field"] for t in check["todo"]] == ["contract.ecart"]
    draft["contract"]["ecart"] = check["options"]["ecart"][:6]
    check = drafts.check(draft)
    assert check["stage"] == "play"
    pos = parse_position(check["position"])
    assert pos.contract.shown_dog == tuple(card(t) for t in draft["outside"])
    # the play: a card against the rules is named where it lies
    legal = pos.legal_cards()
    wrong = next(t for t in check["position"]["hands"][3] if card(t) not in legal) if len(legal) < 18 else None
    draft["played"] = [check["position"]["hands"][3][0]] if wrong is None else [wrong]
    check = drafts.check(draft)
    if wrong is not None:
        assert check["problems"][0]["field"] == "played[0]"


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5"])
def test_the_ecart_offered_is_what_the_rules_accept(game):
    """Each card offered is in some écart the rules accept; each card not offered is in none
    (one is tried with offered cards beside it)."""
    rng = random.Random(f"ecart-{game}")
    size = 3 if game == "fr5" else 6
    for i in range(40):
        stack = {"hands": [["T" + str(n) for n in range(2, 17)]]} if i % 4 == 0 else {}
        draft = drafts.fill({"game": game, "first": 0, **stack}, rng)
        if drafts.check(draft)["stage"] != "contract":
            continue                                            # a petit sec: dealt void
        draft["contract"] = {"taker": 0, "bid": "prise"}
        if game == "fr5":
            draft["contract"]["called"] = "KH" if "KH" not in draft["hands"][0] else "KS"
        offered = drafts.check(draft)["options"]["ecart"]
        plain = [t for t in offered if not t.startswith("T")]

        def accepted(ecart):
            draft["contract"]["ecart"] = ecart
            check = drafts.check(draft)
            return not any(p["field"] == "contract.ecart" for p in check["problems"])

        for tok in draft["hands"][0] + draft["outside"]:
            if tok in offered:
                # with it, the plain cards first, then (forced) trumps
                rest = [t for t in plain if t != tok] + [t for t in offered if t not in plain and t != tok]
                assert accepted([tok] + rest[:size - 1]), tok
            else:
                assert not accepted([tok] + [t for t in offered if t != tok][:size - 1]), tok


def test_the_called_cards_offered_are_what_the_rules_accept():
    rng = random.Random("called")
    for _ in range(20):
        draft = drafts.fill({"game": "fr5", "first": 0}, rng)
        draft["contract"] = {"taker": 2, "bid": "garde_sans"}
        offered = drafts.check(draft)["options"]["called"]
        for tok in ("KS", "KH", "KD", "KC", "QS", "QH", "NS", "JS"):
            draft["contract"]["called"] = tok
            problems = drafts.check(draft)["problems"]
            assert (tok in offered) == (not problems), (tok, problems)
    for seed in range(12):
        draft = drafts.fill({"game": "at4", "first": 0}, random.Random(seed))
        draft["contract"] = {"bid": "solorufer", "declarer": 1}
        check = drafts.check(draft)
        hands = [[card(t) for t in h] for h in draft["hands"]]
        for king in ("KS", "KH", "KD", "KC"):
            obj = {"bid": "solorufer", "declarer": 1, "called": king, "side_cards": {"0": draft["outside"]}}
            try:
                parse_contract("at4", obj, hands, 0)
                accepted = True
            except PositionError as e:
                accepted = e.field != "contract.called"
            assert (king in check["options"]["called"]) == accepted


@pytest.mark.parametrize("bid", ["vorhandrufer", "solorufer", "dreier", "sechserdreier", "farbendreier",
                                 "piccolo"])
def test_the_talon_split_offered_is_one_the_rules_accept(bid):
    """Austrian talon: the split offered (each card's seat) is accepted by the rules."""
    rng = random.Random(f"split-{bid}")
    offered = 0
    for _ in range(10):
        obj = random_position(rng, "at4", bid)
        draft = drafts.from_position(obj)
        del draft["contract"]["side"]
        check = drafts.check(draft)
        assert check["stage"] == "contract" and check["todo"][0]["field"] == "contract.side"
        default = check["options"]["side_default"]
        assert default is not None       # the deal as `atout deal` dealt it has one at least
        draft["contract"]["side"] = default
        check = drafts.check(draft)
        assert check["stage"] == "play", check["problems"]
        offered += 1
    assert offered == 10


def test_typing_a_hand():
    draft = drafts.fill({"game": "fr4"}, random.Random(2))
    moved = draft["hands"][2][:3]
    typed = drafts.typed(draft, "hands[0]", "k♠, q♥ 14-D t21 " + " ".join(moved) + " ex")
    assert typed["hands"][0] == ["KS", "QH", "KD", "T21"] + moved + ["EX"]
    assert not set(moved) & set(typed["hands"][2])          # taken from where they were
    with pytest.raises(PositionError) as e:
        drafts.typed(draft, "hands[1]", "KS ZZ")
    assert e.value.field == "hands[1]" and "'ZZ' is not a card" in e.value.reason
    with pytest.raises(PositionError, match="not in the at4 pack"):
        drafts.typed({"game": "at4"}, "outside", "5H")
    with pytest.raises(PositionError) as e:
        drafts.typed(draft, "hands[7]", "KS")
    assert e.value.field == "typed.to"


def test_dealing_the_rest():
    draft = {"game": "fr3", "hands": [["T1", "KS"], [], []], "outside": ["QH"]}
    a = drafts.fill(draft, random.Random(7))
    assert a == drafts.fill(draft, random.Random(7))       # the same seed, the same deal
    assert a["hands"][0][:2] == ["T1", "KS"] and a["outside"][0] == "QH"
    assert [len(h) for h in a["hands"]] == [24, 24, 24] and len(a["outside"]) == 6
    # a seat given the Petit and no other trump is dealt another one: never a petit sec
    for seed in range(20):
        filled = drafts.fill({"game": "fr4", "hands": [["T1"] + [f"{r}S" for r in range(1, 11)]
                                                        + [f"{r}H" for r in range(1, 5)]]}, random.Random(seed))
        assert drafts.check({**filled, "first": 0})["stage"] == "contract"
    with pytest.raises(PositionError) as e:
        drafts.fill({"game": "fr4", "hands": [["KS"], ["KS"], [], []]}, random.Random(1))
    assert e.value.field == "hands[1][0]"


def test_what_is_wrong_is_named():
    check = drafts.check({"game": "at4", "hands": [["5H", "KS"], ["KS"], [], []], "outside": ["XX"]})
    fields = {p["field"]: p["reason"] for p in check["problems"]}
    assert "not in the at4 pack" in fields["hands[0][0]"]
    assert "also at hands[0]" in fields["hands[1][0]"]
    assert "unknown card" in fields["outside[0]"]
    over = {"game": "fr4", "hands": [[t for t in drafts.check({"game": "fr4"})["pack"][:19]], [], [], []]}
    assert drafts.check(over)["problems"] == [{"field": "hands[0]", "reason": "holds 19 cards; it holds 18"}]
    # a petit sec is the deal's, said at the hand
    petit = drafts.fill({"game": "fr4", "hands": [["T1"] + [f"{r}S" for r in range(1, 11)]
                                                  + ["JS", "NS", "QS", "KS", "1H", "2H", "3H"]]},
                        random.Random(3))
    check = drafts.check({**petit, "first": 0})
    assert check["problems"][0]["field"] == "hands[0]" and "petit sec" in check["problems"][0]["reason"]
    # priest5: the seat after the dealer leads
    priest = drafts.fill({"game": "priest5", "dealer": 4}, random.Random(5))
    assert drafts.check(priest)["first"] == 0


def test_the_service(tmp_path):
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from atout.server.http import HttpApi

    api = HttpApi(None, workers=1)
    with TestClient(api.app) as client:
        r = client.post("/api/draft", json={"draft": {"game": "fr5"}, "fill": True, "seed": 3})
        assert r.status_code == 200 and r.json()["check"]["stage"] == "cards"
        assert r.json()["check"]["player_order"][:2] == ["EX", "T21"]
        draft = r.json()["draft"]
        r = client.post("/api/draft", json={"draft": draft, "typed": {"to": "outside", "text": "KS 2Z"}})
        assert r.status_code == 200 and r.json()["draft"] == draft
        assert r.json()["typed_error"]["field"] == "outside"
        for body, field in (({"draft": 3}, "draft"), ({"draft": {"game": "bridge"}}, "game"),
                            ({"drafts": {}}, "drafts"), ({"position": {"game": "fr4"}}, "position.hands"),
                            ({"draft": draft, "typed": {"to": "hands[9]", "text": ""}}, "typed.to")):
            r = client.post("/api/draft", json=body)
            assert r.status_code == 422 and r.json()["field"] == field, (body, r.json())
        text = (DATA / "tarotclub" / "tarotmag_17.json").read_text()
        r = client.post("/api/import", json={"text": text, "name": "tarotmag_17.json"})
        item = r.json()["items"][0]
        assert item["label"] == "tarotmag_17.json" and item["position"]["id"] == "tarotmag_17"
        r = client.post("/api/import", json={"text": text.replace('"South"', '"Nowhere"', 1), "name": "x.json"})
        assert r.json()["items"][0]["field"] == "deal_info.taker"
        r = client.post("/api/import", json={"text": 5})
        assert r.status_code == 422 and r.json()["field"] == "text"
        # the editor's deal before the bidding: a deal as dealt has a contract table
        r = client.post("/api/import", json={
            "text": (DATA / "tarotclub" / "west_slam.json").read_text(), "name": "west_slam.json"})
        deal = r.json()["items"][0]["deal"]
        r = client.post("/api/contract-table", json={"position": deal, "time_limit": 20,
                                                     "contracts": ["garde_contre"]})
        assert r.status_code == 200, r.json()
        assert r.json()["played"] is None and r.json()["par"]["seat"] == 3
        r = client.post("/api/contract-table", json={"position": {**deal, "dog": deal["dog"][:5]}})
        assert r.status_code == 422 and r.json()["field"] == "dog"

