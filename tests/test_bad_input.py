"""Every kind of bad input is refused with the right field named (PositionError.field),
and the command line never shows a traceback."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from atout.cards import EXCUSE, is_trump, suit_card, token, tokens
from atout.errors import IllegalCardError, PositionError
from atout.position import loads, parse_position
from atout.proto import convert
from deals import random_position

KINGS = ["KS", "KH", "KD", "KC"]


def base(game, bid=None, seed=1, **options):
    return random_position(random.Random(f"{game}-{bid}-{seed}"), game, bid, **options)


def refused(obj, field, reason=None):
    with pytest.raises(PositionError) as e:
        parse_position(obj)
    assert e.value.field == field, str(e.value)
    if reason is not None:
        assert reason in e.value.reason, str(e.value)
    assert isinstance(e.value, ValueError)
    return e.value


def swap(obj, seat_a, tok_a, seat_b, tok_b):
    """Exchange one card between two hands."""
    ha, hb = obj["hands"][seat_a], obj["hands"][seat_b]
    ha[ha.index(tok_a)] = tok_b
    hb[hb.index(tok_b)] = tok_a


def where(obj, tok):
    return next(s for s, h in enumerate(obj["hands"]) if tok in h)


# -- the position object ----------------------------------------------------------------------

@pytest.mark.parametrize("junk", [None, 3, "fr4", [], [{"game": "fr4"}], True])
def test_not_an_object(junk):
    refused(junk, "position")


def test_top_level_fields():
    obj = base("fr4")
    refused({**obj, "hand": []}, "hand")
    refused({k: v for k, v in obj.items() if k != "game"}, "game", "missing")
    refused({**obj, "game": "fr6"}, "game", "unknown")
    refused({**obj, "game": ["fr4"]}, "game")
    refused({k: v for k, v in obj.items() if k != "hands"}, "hands", "missing")
    refused({k: v for k, v in obj.items() if k != "first"}, "first", "missing")
    refused({k: v for k, v in obj.items() if k != "contract"}, "contract", "missing")
    refused({**obj, "id": ["x"]}, "id")
    refused({**obj, "id": True}, "id")
    refused({**obj, "id": "x" * 1000}, "id")
    parse_position({**obj, "id": 17})
    parse_position({k: v for k, v in obj.items() if k != "played"})  # played is optional


@pytest.mark.parametrize("first", [True, False, "0", 1.0, -1, 4, None, [0]])
def test_first_wrong_type_or_seat(first):
    refused({**base("fr4"), "first": first}, "first")


def test_hands_shape():
    obj = base("fr4")
    refused({**obj, "hands": obj["hands"][:3]}, "hands")
    refused({**obj, "hands": "KS KH"}, "hands")
    refused({**obj, "hands": {"0": obj["hands"][0]}}, "hands")
    bad = copy.deepcopy(obj)
    bad["hands"][2] = " ".join(bad["hands"][2])
    refused(bad, "hands[2]", "list")
    bad = copy.deepcopy(obj)
    bad["hands"][1].pop()
    refused(bad, "hands[1]", "18")
    bad = copy.deepcopy(obj)
    bad["hands"][3].append(bad["contract"]["dog"][0])
    refused(bad, "hands[3]")


@pytest.mark.parametrize("junk", ["ZZ", "11S", "T22", "T0", "ks", "", " KS", 5, None, True, ["KS"], {"c": 1}])
def test_unknown_cards(junk):
    obj = base("fr4")
    obj["hands"][1][4] = junk
    refused(obj, "hands[1][4]")


def test_duplicate_cards():
    obj = base("fr4")
    obj["hands"][2][7] = obj["hands"][0][3]
    refused(obj, "hands[2][7]", "also at hands[0][3]")
    obj = base("fr4")
    obj["hands"][0][5] = obj["hands"][0][6]
    refused(obj, "hands[0][6]")


def test_hands_and_dog_not_the_deck():
    obj = base("fr4", "garde_sans")
    obj["contract"]["dog"][0] = obj["hands"][1][0]
    refused(obj, "contract.dog", "also in a hand")
    obj = base("fr4", "garde_sans")
    obj["contract"]["dog"][1] = obj["contract"]["dog"][0]
    refused(obj, "contract.dog", "twice")
    obj = base("fr4", "garde_sans")
    obj["contract"]["dog"].pop()
    refused(obj, "contract.dog", "6 cards")
    obj = base("fr4", "garde_sans")
    obj["contract"]["dog"] = "1S 2S"
    refused(obj, "contract.dog")
    obj = base("fr4", "garde_sans")
    obj["contract"]["dog"][2] = "X"
    refused(obj, "contract.dog[2]")


def test_at4_cards_not_in_the_pack():
    obj = base("at4", "dreier")
    obj["hands"][0][0] = "5H"       # red suits have 1-4 only
    refused(obj, "hands[0][0]", "pack")
    obj = base("at4", "dreier")
    obj["hands"][2][0] = "2S"       # black suits have 7-10 only
    refused(obj, "hands[2][0]", "pack")


# -- played cards -----------------------------------------------------------------------------

def test_played_card_not_held_or_not_legal():
    obj = base("fr4")
    pos = parse_position(obj)
    seat = pos.to_play
    other = next(t for t in tokens(pos.hands[(seat + 1) % 4]))
    refused({**obj, "played": [other]}, "played[0]", "does not hold")
    refused({**obj, "played": ["KQ"]}, "played[0]", "unknown")
    refused({**obj, "played": "KS"}, "played", "list")
    refused({**obj, "played": [None]}, "played[0]")
    # a card that is held but not legal: find a follow where the suit is not followed
    rng = random.Random(3)
    for _ in range(200):
        obj = base("fr4", seed=rng.random())
        pos = parse_position(obj)
        pos.play(pos.legal_cards()[0])
        bad = sorted(pos.held[pos.to_play] - set(pos.legal_cards()))
        if bad:
            e = refused({**obj, "played": tokens(pos.played) + [token(bad[0])]}, "played[1]",
                        "not legal")
            assert isinstance(e, IllegalCardError)
            break
    else:
        pytest.fail("no illegal card found")


def test_too_many_played_cards():
    obj = base("fr3")
    pos = parse_position(obj)
    while not pos.is_finished():
        pos.play(pos.legal_cards()[0])
    played = tokens(pos.played)
    parse_position({**obj, "played": played})
    refused({**obj, "played": played + ["KS"]}, "played")


def test_played_card_twice():
    obj = base("fr4")
    pos = parse_position(obj)
    for _ in range(4):
        pos.play(pos.legal_cards()[0])
    first = token(pos.played[0])
    # the leader of trick 2 "plays" a card that is already gone
    refused({**obj, "played": tokens(pos.played) + [first]}, "played[4]")


# -- French contracts ---------------------------------------------------------------------------

def test_fr_contract_fields():
    obj = base("fr4", "garde")
    c = obj["contract"]
    refused({**obj, "contract": []}, "contract", "object")
    refused({**obj, "contract": {**c, "taker": 4}}, "contract.taker")
    refused({**obj, "contract": {**c, "taker": True}}, "contract.taker")
    refused({**obj, "contract": {**c, "taker": "0"}}, "contract.taker")
    refused({**obj, "contract": {**c, "bid": "petite"}}, "contract.bid")
    refused({**obj, "contract": {**c, "bid": ["garde"]}}, "contract.bid")
    refused({**obj, "contract": {**c, "called": "KH"}}, "contract.called", "unknown field")
    refused({**obj, "contract": {k: v for k, v in c.items() if k != "bid"}}, "contract.bid")
    refused({**obj, "contract": {k: v for k, v in c.items() if k != "dog"}}, "contract.dog")


def test_a_key_that_is_the_empty_string_is_named():
    """An unknown field whose name is "" (found by tests/test_fuzz.py) is named "" in the
    error, not left blank — also by the message conversion of the gRPC client."""
    obj = base("fr4", "garde")
    refused({**obj, "": None}, '""', "unknown field")
    refused({**obj, "contract": {**obj["contract"], "": 1}}, 'contract.""', "unknown field")
    with pytest.raises(PositionError) as e:
        convert.position_message({**obj, "": None})
    assert e.value.field == '""'


def _fr4_with_ecart(rng, put_in_ecart):
    """A garde whose écart holds ``put_in_ecart`` (taken from the taker's hand)."""
    obj = base("fr4", "garde", seed=rng.random(), taker=0, poignees=False, chelem=False)
    holder = where(obj, put_in_ecart) if put_in_ecart not in obj["contract"]["dog"] else None
    if holder is not None:
        dog = obj["contract"]["dog"]
        h = obj["hands"][holder]
        h[h.index(put_in_ecart)] = dog[0]
        dog[0] = put_in_ecart
    return obj


@pytest.mark.parametrize("tok", ["KS", "KD", "T1", "T21", "EX"])
def test_ecart_with_king_or_bout(tok):
    obj = _fr4_with_ecart(random.Random(tok), tok)
    refused(obj, "contract.dog", "king or a bout")


def test_ecart_with_avoidable_trump():
    obj = _fr4_with_ecart(random.Random(5), "T7")
    refused(obj, "contract.dog", "trump")
    # the same trumps are fine when the taker has nothing else to discard (kings, trumps)
    taker = ["KS", "KH", "KD", "KC", "EX", "T21"] + [f"T{n}" for n in range(8, 20)]
    dog = ["T2", "T3", "T4", "T5", "T6", "T7"]
    rest = [c for c in tokens(range(78)) if c not in taker + dog]
    obj = {"game": "fr4", "hands": [taker, rest[:18], rest[18:36], rest[36:]], "first": 1,
           "contract": {"taker": 0, "bid": "prise", "dog": dog}}
    if any([t for t in h if t.startswith("T") or t == "EX"] == ["T1"] for h in obj["hands"]):
        pytest.skip("petit sec")
    parse_position(obj)
    # garde sans / contre: the dog is the dog, kings and bouts may be in it
    holder = where(obj, "T1")
    obj["hands"][holder][obj["hands"][holder].index("T1")] = "T2"
    obj["contract"] = {"taker": 0, "bid": "garde_sans", "dog": ["T1"] + dog[1:]}
    parse_position(obj)


def test_petit_sec():
    # seat 2 holds T1 and no other trump nor the Excuse: the deal is void
    suits = [r + s for s in "SHDC" for r in "1 2 3 4 5 6 7 8 9 10 J N Q K".split()]
    trumps = [f"T{n}" for n in range(2, 22)] + ["EX"]
    hands = [trumps[:18], trumps[18:] + suits[:15], ["T1"] + suits[15:32], suits[32:50]]
    obj = {"game": "fr4", "hands": hands, "first": 0,
           "contract": {"taker": 0, "bid": "garde_sans", "dog": suits[50:]}}
    refused(obj, "hands[2]", "petit sec")
    # the Excuse counts as a trump: T1 with the Excuse is not a petit sec
    hands[2][1], hands[1][0] = hands[1][0], hands[2][1]
    hands[2][1], hands[1][2] = hands[1][2], hands[2][1]
    assert sorted(t for t in hands[2] if t[0] == "T" or t == "EX") == ["EX", "T1"]
    parse_position(obj)


def test_poignee_too_large():
    obj = base("fr4", "garde_sans", poignee_seat=2, poignees=False)
    trumps = sum(1 for t in obj["hands"][2] if t.startswith("T"))
    has_ex = "EX" in obj["hands"][2]
    c = obj["contract"]
    for level, need in (("simple", 10), ("double", 13), ("triple", 15)):
        p = {**obj, "contract": {**c, "poignees": [{"seat": 2, "level": level}]}}
        if trumps + has_ex >= need:
            parse_position(p)
        else:
            refused(p, "contract.poignees[0].level", f"needs {need}")
    refused({**obj, "contract": {**c, "poignees": [{"seat": 2, "level": "quadruple"}]}},
            "contract.poignees[0].level")
    refused({**obj, "contract": {**c, "poignees": [{"seat": 7, "level": "simple"}]}},
            "contract.poignees[0].seat")
    refused({**obj, "contract": {**c, "poignees": {"seat": 2, "level": "simple"}}},
            "contract.poignees")
    refused({**obj, "contract": {**c, "poignees": ["simple"]}}, "contract.poignees[0]")
    refused({**obj, "contract": {**c, "poignees": [{"seat": 2, "level": "simple", "x": 1}]}},
            "contract.poignees[0].x")
    refused({**obj, "contract": {**c, "poignees": [{"seat": 2, "level": "simple"},
                                                    {"seat": 2, "level": "simple"}]}},
            "contract.poignees[1].seat")


def test_poignee_excuse_stands_in_for_one_trump():
    # fr4 simple = 10: 9 trumps and the Excuse are enough, 8 and the Excuse are not
    suits = [r + s for s in "SHDC" for r in "1 2 3 4 5 6 7 8 9 10 J N Q K".split()]
    t = [f"T{n}" for n in range(1, 22)]
    hands = [t[1:10] + ["EX"] + suits[:8], t[10:] + [t[0]] + suits[8:14], suits[14:32], suits[32:50]]
    obj = {"game": "fr4", "hands": hands, "first": 0,
           "contract": {"taker": 0, "bid": "garde_sans", "dog": suits[50:],
                        "poignees": [{"seat": 0, "level": "simple"}]}}
    assert parse_position(obj).contract.poignees == ((0, "simple"),)
    hands[0][0], hands[2][0] = hands[2][0], hands[0][0]
    refused(obj, "contract.poignees[0].level", "needs 10")


def test_chelem():
    obj = base("fr4", "garde", chelem=False)
    c = obj["contract"]
    other = (c["taker"] + 1) % 4
    refused({**obj, "first": other, "contract": {**c, "chelem": True}}, "contract.chelem", "leads")
    parse_position({**obj, "first": c["taker"], "contract": {**c, "chelem": True}})
    parse_position({**obj, "first": other, "contract": {**c, "chelem": False}})
    refused({**obj, "contract": {**c, "chelem": "yes"}}, "contract.chelem")
    refused({**obj, "contract": {**c, "chelem": 1}}, "contract.chelem")


def _fr5_taker_holds(ranks):
    """A fr5 garde sans where the taker (seat 0) holds every card of ``ranks``."""
    want = [suit_card(s, r) for r in ranks for s in range(4)]
    deck = [c for c in range(78) if c not in want]
    random.Random(9).shuffle(deck)
    # keep trumps away from seat 0's filler so the petit sec cannot happen there
    hands = [want + [c for c in deck if not is_trump(c) and c != EXCUSE][:15 - len(want)]]
    deck = [c for c in deck if c not in hands[0]]
    for s in range(4):
        hands.append(deck[15 * s:15 * s + 15])
    dog = deck[60:]
    obj = {"game": "fr5", "hands": [tokens(h) for h in hands], "first": 0,
           "contract": {"taker": 0, "bid": "garde_sans", "dog": tokens(dog)}}
    return obj


@pytest.mark.parametrize("ranks, ok, bad", [
    ((), ["KH"], ["QH", "NH", "JH"]),
    ((14,), ["QS", "KH"], ["NS", "JS"]),
    ((14, 13), ["NS", "QS", "KC"], ["JS"]),
    ((14, 13, 12), ["JS", "NS", "QS", "KS"], []),
])
def test_fr5_called_card(ranks, ok, bad):
    obj = _fr5_taker_holds(ranks)
    for tok in ok:
        parse_position({**obj, "contract": {**obj["contract"], "called": tok}})
    for tok in bad:
        refused({**obj, "contract": {**obj["contract"], "called": tok}}, "contract.called")
    for tok in ("1H", "10S", "T5", "EX", "T21", "ZZ", 14, None):
        if tok is None:
            refused(obj, "contract.called", "missing")
        else:
            refused({**obj, "contract": {**obj["contract"], "called": tok}}, "contract.called")


# -- priest5 ----------------------------------------------------------------------------------

def test_priest5_contract():
    obj = base("priest5", alone=False)
    c = obj["contract"]
    refused({**obj, "first": (c["dealer"] + 2) % 5}, "first", "after the dealer")
    refused({**obj, "contract": {**c, "open": c["open"][:2]}}, "contract.open", "3 cards")
    refused({**obj, "contract": {**c, "open": [c["open"][0]] * 3}}, "contract.open")
    refused({**obj, "contract": {k: v for k, v in c.items() if k != "called"}}, "contract.called")
    refused({**obj, "contract": {**c, "alone": True}}, "contract.called")
    refused({**obj, "contract": {**c, "alone": "no"}}, "contract.alone")
    refused({**obj, "contract": {**c, "caller": 5}}, "contract.caller")
    refused({**obj, "contract": {**c, "dealer": None}}, "contract.dealer")
    refused({**obj, "contract": {**c, "called": "K"}}, "contract.called")
    refused({**obj, "contract": {**c, "bid": "chiamo"}}, "contract.bid")
    alone = {k: v for k, v in c.items() if k != "called"}
    assert parse_position({**obj, "contract": {**alone, "alone": True}}).contract.partner is None
    # the called card held by the caller: alone; among the open cards: the dealer's partner
    mine = obj["hands"][c["caller"]][0]
    assert parse_position({**obj, "contract": {**c, "called": mine}}).contract.partner is None
    p = parse_position({**obj, "contract": {**c, "called": c["open"][0]}}).contract
    assert p.partner == (c["dealer"] if c["dealer"] != c["caller"] else None)


# -- at4 --------------------------------------------------------------------------------------

def test_at4_contract_fields():
    obj = base("at4", "solorufer", called_where="partner", objective="contract")
    c = obj["contract"]
    refused({**obj, "contract": {**c, "bid": "solo"}}, "contract.bid", "unknown")
    refused({**obj, "contract": {**c, "bid": 3}}, "contract.bid")
    refused({**obj, "contract": {**c, "declarer": 4}}, "contract.declarer")
    refused({**obj, "contract": {**c, "counting": "fancy"}}, "contract.counting")
    refused({**obj, "contract": {**c, "objective": "grand"}}, "contract.objective")
    refused({**obj, "contract": {**c, "objective": ["volat"]}}, "contract.objective")
    refused({**obj, "contract": {**c, "talon": []}}, "contract.talon")
    refused({**obj, "contract": {k: v for k, v in c.items() if k != "called"}}, "contract.called")
    refused({**obj, "contract": {**c, "called": "QH"}}, "contract.called", "king")
    refused({**obj, "contract": {**c, "called": "T1"}}, "contract.called", "king")
    parse_position({**obj, "contract": {**c, "objective": "koenig_ultimo"}})


def test_at4_side_cards():
    obj = base("at4", "dreier")
    c = obj["contract"]
    side = [t for cs in c["side_cards"].values() for t in cs]
    refused({**obj, "contract": {**c, "side_cards": side}}, "contract.side_cards")
    refused({**obj, "contract": {**c, "side_cards": {"0": side[:5]}}}, "contract.side_cards", "6 cards")
    refused({**obj, "contract": {**c, "side_cards": {"0": side[:5] + [obj["hands"][1][0]]}}},
            "contract.side_cards", "also in a hand")
    refused({**obj, "contract": {**c, "side_cards": {"4": side}}}, "contract.side_cards.4")
    refused({**obj, "contract": {**c, "side_cards": {"x": side}}}, "contract.side_cards.x")
    refused({**obj, "contract": {**c, "side_cards": {"0": side[:5] + ["5H"]}}},
            "contract.side_cards.0[5]")
    refused({**obj, "contract": {**c, "side_cards": {"1": "T1"}}}, "contract.side_cards.1")
    # (which seats may list which cards is the seed's talon rules': tests/test_talon.py; a
    # negative game's talon, no one's, may be listed under any seat)
    bettler = base("at4", "bettler")
    six = [t for cs in bettler["contract"]["side_cards"].values() for t in cs]
    parse_position({**bettler, "contract": {**bettler["contract"], "side_cards": {"3": six}}})


def test_at4_called_king_held_by_declarer():
    rng = random.Random(4)
    for _ in range(500):
        # (a Solorufer: the declarer of a Rufer with talon may have taken it from the talon)
        obj = base("at4", "solorufer", seed=rng.random(), declarer=0, objective="contract",
                   called_where="partner")
        held = [k for k in KINGS if k in obj["hands"][0]]
        if held and len(held) < 4:
            break
    c = obj["contract"]
    refused({**obj, "contract": {**c, "called": held[0]}}, "contract.called", "another king")
    # holding all four kings, the declarer may call one of them (and plays alone)
    hand = obj["hands"][0]
    for k in KINGS:
        if k in hand:
            continue
        spare = next(t for t in hand if t not in KINGS)
        if any(k in h for h in obj["hands"]):
            swap(obj, 0, spare, where(obj, k), k)
        else:  # among the side cards
            for cs in c["side_cards"].values():
                if k in cs:
                    cs[cs.index(k)] = spare
                    hand[hand.index(spare)] = k
    assert all(k in hand for k in KINGS)
    p = parse_position({**obj, "contract": {**c, "called": "KS"}}).contract
    assert p.partner is None and p.alone


def test_at4_negative_game_led_by_declarer():
    for bid in ("piccolo", "bettler", "triccolo_ouvert"):
        obj = base("at4", bid, declarer=1)
        assert obj["first"] == 1
        refused({**obj, "first": 2}, "first", "declarer")
        refused({**obj, "contract": {**obj["contract"], "objective": "volat"}}, "contract.objective")
        refused({**obj, "contract": {**obj["contract"], "called": "KH"}}, "contract.called")


def test_at4_objectives_need_their_game():
    obj = base("at4", "dreier", objective="contract")
    refused({**obj, "contract": {**obj["contract"], "objective": "koenig_ultimo"}},
            "contract.objective", "called king")
    for objective in ("volat", "pagat_ultimo", "uhu_ultimo", "kakadu_ultimo", "marabu_ultimo"):
        parse_position({**obj, "contract": {**obj["contract"], "objective": objective}})


def test_at4_trischaken():
    obj = base("at4", "trischaken")
    c = obj["contract"]
    refused({**obj, "contract": {**c, "talon": c["talon"][:5]}}, "contract.talon", "6 cards")
    refused({**obj, "contract": {**c, "talon": c["talon"][:5] + [c["talon"][0]]}}, "contract.talon")
    refused({**obj, "contract": {k: v for k, v in c.items() if k != "for_seat"}}, "contract.for_seat")
    refused({**obj, "contract": {**c, "for_seat": 4}}, "contract.for_seat")
    refused({**obj, "contract": {**c, "von_oben": 1}}, "contract.von_oben")
    refused({**obj, "contract": {**c, "declarer": 0}}, "contract.declarer")
    refused({**obj, "contract": {**c, "objective": "volat"}}, "contract.objective")
    refused({**obj, "contract": {**c, "side_cards": {}}}, "contract.side_cards")


def test_null_means_not_given():
    obj = base("fr4", "garde", chelem=False, poignees=False)
    parse_position({**obj, "contract": {**obj["contract"], "chelem": None, "poignees": None}})


def test_loads_bad_json():
    for text in ("", "{", "[1,", "nul", '{"game": "fr4",}', "\x00", "[" * 100000 + "]" * 100000):
        with pytest.raises(PositionError) as e:
            loads(text)
        assert e.value.field in ("json", "position")


# -- the command line -------------------------------------------------------------------------

def run_cli(args, data: bytes):
    """``atout ARGS`` with ``data`` on stdin: (exit status, stdout, stderr)."""
    p = subprocess.run([sys.executable, "-m", "atout.client.cli", *args], input=data,
                       capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def _good_lines(n=2):
    rng = random.Random(77)
    return [json.dumps({"id": f"ok{i}", **random_position(rng, g)})
            for i, g in enumerate(["fr4", "fr3", "fr5", "priest5", "at4"][:n])]


def test_cli_validate_good_input():
    code, out, err = run_cli(["validate"], ("\n".join(_good_lines(5)) + "\n").encode())
    assert (code, out, err) == (0, "5 positions checked, 0 bad\n", "")


def test_cli_validate_reports_each_bad_line():
    good = _good_lines(2)
    bad_card = json.loads(good[0])
    bad_card["hands"][1][2] = "XX"
    no_id = json.loads(good[1])
    del no_id["id"]
    no_id["first"] = "north"
    lines = [good[0], json.dumps(bad_card), "", json.dumps(no_id), '{"game": "fr4", "hands": [',
             "[[[[1]]]]", good[1]]
    code, out, err = run_cli(["validate"], "\n".join(lines).encode())
    assert code == 1 and out == "6 positions checked, 4 bad\n"
    msgs = err.splitlines()
    assert msgs[0] == "ok0: hands[1][2]: unknown card 'XX'"
    assert msgs[1].startswith("line 4: first: ")
    assert msgs[2].startswith("line 5: json: ")
    assert msgs[3].startswith("line 6: position: ")
    assert len(msgs) == 4
    assert "Traceback" not in err


@pytest.mark.parametrize("data", [
    b"",
    b"\n\n  \n",
    b'{"game": "fr4", "hands": [["KS"',
    b'{"game": "fr4", "hands": 5, "first": "x"}',
    b'{"game": true, "hands": [[1, 2], null], "first": [], "contract": "garde"}',
    b'{"game": "fr4", "hands": [[], [], [], []], "first": 0, "played": {}, "contract": []}',
    b"\xff\xfe\x00\x01binary\x80junk\n\x00\x00",
    b"[" * 200000 + b"]" * 200000,
    b'{"a": ' * 50000 + b"1" + b"}" * 50000,
    b"1" * 10000,
    b'"' + b"x" * (10 * 1024 * 1024) + b'"\n{"id": "after"}',
    b'{"id": "big", "hands": ["' + b"K" * (10 * 1024 * 1024) + b'"]}',
    b"NaN\nInfinity\n-1e999\n{}\n[]\nnull\ntrue\n",
    b'{"game": "at4", "hands": [], "first": 0, "contract": {"bid": "dreier", "side_cards": {"0": 5}}}',
], ids=lambda data: f"{len(data)}-bytes")
def test_cli_never_a_traceback(data):
    for cmd in ("validate", "score"):
        code, out, err = run_cli([cmd], data)
        assert "Traceback" not in err and "Error:" not in err.split(": ", 1)[0]
        if not data.strip():
            assert code == 0 and err == ""
        else:
            assert code == 1
            for line in err.splitlines():
                label, fld, reason = line.split(": ", 2)
                assert label.startswith("line ") or label in ("after", "big")
                assert fld and reason
            assert len(err) < 10000


def test_cli_label_is_the_id_escaped():
    obj = json.loads(_good_lines(1)[0])
    obj["first"] = 9
    lines = [json.dumps({**obj, "id": i}) for i in ("", "a\nline 9: json: forged", 0, "été 2",
                                                   "x" * 201)]
    code, out, err = run_cli(["validate"], "\n".join(lines).encode())
    assert code == 1
    assert [m.split(": ")[0] for m in err.splitlines()] == [
        "line 1", "a\\x0aline 9", "0", "été 2", "line 5"]


def test_cli_huge_line_then_good_line():
    good = _good_lines(1)[0]
    data = b'{"x": "' + b"a" * (10 * 1024 * 1024) + b'"}\n' + good.encode() + b"\n"
    code, out, err = run_cli(["validate"], data)
    assert code == 1
    assert err.splitlines() == [err.splitlines()[0]] and err.startswith("line 1: json: ")


def test_cli_validate_file_argument(tmp_path):
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(_good_lines(3)) + "\n")
    assert run_cli(["validate", str(f)], b"")[0] == 0
    code, out, err = run_cli(["validate", str(tmp_path / "missing.jsonl")], b"")
    assert code == 2 and "Traceback" not in err and "cannot read" in err


def test_cli_score(tmp_path):
    rng = random.Random(5)
    lines = []
    finished = {}
    for i, game in enumerate(["fr4", "fr3", "fr5", "priest5", "at4", "at4"]):
        bid = "trischaken" if i == 5 else None
        obj = random_position(rng, game, bid)
        pos = parse_position(obj)
        while not pos.is_finished():
            pos.play(rng.choice(pos.legal_cards()))
        obj = {"id": f"d{i}", **obj, "played": tokens(pos.played)}
        finished[obj["id"]] = pos.outcome()
        lines.append(json.dumps(obj))
    unfinished = json.loads(lines[0])
    unfinished["id"] = "half"
    unfinished["played"] = unfinished["played"][:10]
    code, out, err = run_cli(["score"], ("\n".join(lines) + "\n").encode())
    assert code == 0 and err == ""
    results = [json.loads(x) for x in out.splitlines()]
    assert [r["id"] for r in results] == list(finished)
    for r in results:
        assert r["status"] == "ok"
        assert r["outcome"] == json.loads(json.dumps(finished[r["id"]]))
        scores = r["outcome"]["scores"]
        if r["id"] == "d5":
            assert scores is None and len(r["outcome"]["points"]) == 4
        else:
            assert len(scores) == (4 if r["id"] in ("d0", "d4") else 3 if r["id"] == "d1" else 5)
            assert sum(scores) == 0
    # an unfinished deal is refused, and named
    code, out, err = run_cli(["score"], (lines[1] + "\n" + json.dumps(unfinished) + "\n").encode())
    assert code == 1
    assert err.startswith("half: played: ") and "not finished" in err
    assert json.loads(out.splitlines()[0])["status"] == "ok"


ENDGAME = (Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-end8.jsonl")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("cmd", [["validate"], ["score"], ["show"], ["deal"],
                                 ["solve", "--tt-mb", "8"], ["solve", "--text", "--tt-mb", "8"],
                                 ["analyze", "--last-tricks", "1", "--tt-mb", "8"]])
def test_cli_output_that_cannot_be_written_is_one_line(cmd):
    """A full disk (/dev/full), a closed stdout or stdin: one line naming what cannot be
    written or read and why, a non-zero exit, no traceback."""
    data = ENDGAME.read_bytes().splitlines(keepends=True)[0]

    def cli(**streams):
        return subprocess.run([sys.executable, "-m", "atout.client.cli", *cmd], input=data,
                              capture_output="stdout" not in streams, timeout=60,
                              **({"stderr": subprocess.PIPE} if streams else {}), **streams)
    with open("/dev/full", "wb") as full:
        p = cli(stdout=full)
    assert p.returncode == 2 and p.stderr.decode().splitlines()[-1] == \
        "atout: cannot write standard output: No space left on device", p.stderr
    # started with stdout closed (closed by a shell before it runs the command, not by a
    # preexec_fn: a fork of this test process, gRPC's threads running in it after other
    # tests, can abort in gRPC's fork handlers before the command starts)
    atout = [sys.executable, "-m", "atout.client.cli", *cmd]
    p = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *atout], input=data,
                       stderr=subprocess.PIPE, timeout=60)
    assert p.returncode == 2 and p.stderr.decode().splitlines()[-1] == \
        "atout: cannot write standard output: it is closed", p.stderr
    if cmd != ["deal"]:
        p = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *atout], stdin=None,
                           capture_output=True, timeout=60)
        assert p.returncode == 2 and p.stderr.decode() == \
            "atout: cannot read standard input: it is closed\n", p.stderr


def test_cli_main_in_process(capsys):
    from atout.client.cli import main
    import io
    good = _good_lines(1)[0]
    stdin = sys.stdin
    try:
        sys.stdin = io.TextIOWrapper(io.BytesIO((good + "\n{oops\n").encode()))
        assert main(["validate"]) == 1
    finally:
        sys.stdin = stdin
    err = capsys.readouterr().err
    assert err.startswith("line 2: json: ")


@pytest.mark.parametrize("server, reason", [
    ("", "must be HOST:PORT, not ''"),
    ("127.0.0.1", "must be HOST:PORT"),
    (":50051", "must be HOST:PORT"),
    ("[]:50051", "must be HOST:PORT"),
    ("localhost:", "must be HOST:PORT"),
    ("localhost:http", "must be HOST:PORT"),
    ("127.0.0.1:99999", "the port must be 1 to 65535, not 99999"),   # would wrap
    ("127.0.0.1:0", "the port must be 1 to 65535, not 0"),
])
def test_cli_solve_refuses_a_bad_server_address(server, reason):
    code, out, err = run_cli(["solve", "--server", server], (_good_lines(1)[0] + "\n").encode())
    assert code == 2 and out == ""
    assert f"atout solve: error: argument --server: {reason}" in err.splitlines()[-1], err


@pytest.mark.parametrize("command", ["serve", "view"])
@pytest.mark.parametrize("host", ["", " ", "0.0.0.0 ", "a\nb"])
def test_servers_refuse_a_host_that_is_no_address(command, host):
    """Before anything is started: `atout view --host ''` listened on every interface and
    printed http://:PORT/ (serve failed with no reason)."""
    from unittest import mock

    from interfaces import cli
    with mock.patch("atout.server.app.run", return_value=0) as serve:
        code, out, err = cli([command, "--port", "0", "--host", host])
    assert code == 2 and not serve.called, err
    assert f"atout {command}: error: argument --host: must be a host name or an IP address, " \
           f"not {host!r}" == err.splitlines()[-1], err


@pytest.mark.parametrize("option", ["--header-timeout", "--body-timeout", "--idle-timeout",
                                    "--keepalive"])
@pytest.mark.parametrize("value", ["inf", "1e300", "nan", "0.0001", "0"])
def test_serve_refuses_connection_seconds_grpc_cannot_take(option, value):
    """Infinity or 1e300 seconds ended `atout serve` in an OverflowError (gRPC takes them
    in milliseconds as a C int); less than a millisecond was 0 ms."""
    from unittest import mock

    from interfaces import cli
    with mock.patch("atout.server.app.run", return_value=0) as serve:
        code, out, err = cli(["serve", "--port", "0", option, value])
    assert code == 2 and not serve.called, err
    assert err.splitlines()[-1] == (f"atout serve: error: argument {option}: must be a number "
                                    f"of seconds from 0.001 to 2147483")


def test_the_longest_connection_seconds_are_taken_by_grpc():
    import grpc

    from atout.client.serve_cmd import MAX_CONNECTION_SECONDS, connection_seconds
    from atout.server.app import grpc_options
    from atout.server.limits import Limits
    most = connection_seconds(str(MAX_CONNECTION_SECONDS))
    server = grpc.server(None, options=grpc_options(Limits(
        header_timeout=most, body_timeout=most, idle_timeout=most, keepalive=most)))
    server.stop(None)


def test_good_server_addresses_are_taken():
    from atout.client.cli import server_address
    for text in ("127.0.0.1:50051", "localhost:1", "[::1]:65535", "solver.example:443"):
        assert server_address(text) == text


def test_cli_solve_names_its_own_tls_options(tmp_path):
    """Refused before any connection, with the command line's option names (not the
    Python client's arguments, nor gRPC's UNAVAILABLE for a CA file it cannot use)."""
    not_pem = tmp_path / "ca.txt"
    not_pem.write_text("not a certificate\n")
    data = (_good_lines(1)[0] + "\n").encode()
    server = ["solve", "--server", "127.0.0.1:1"]
    for half in (["--tls-cert", str(not_pem)], ["--tls-key", str(not_pem)]):
        code, out, err = run_cli([*server, *half], data)
        assert (code, out, err) == (2, "", "atout: --tls-cert and --tls-key go together\n")
    code, out, err = run_cli([*server, "--tls-ca", str(not_pem)], data)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"atout: CA file {not_pem} is not a PEM certificate"), err
    assert "UNAVAILABLE" not in err
