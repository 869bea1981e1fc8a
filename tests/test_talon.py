"""The Austrian talon by seed 003 (atout/talon.py), rule by rule: what ``atout validate``
refuses and what ``atout deal`` makes — who takes which talon cards, what is laid away and
for whom what stays outside the hands counts.  Before, any split of the six side cards
was taken and dealt (a Solorufer's talon for the declarer, a Dreier laying one card away,
and a Trull card)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from atout.cards import card, token
from atout.deal import random_position
from atout.errors import PositionError
from atout.games import AT4_BIDS, AT4_COLOUR, AT4_NEGATIVE_TRICKS
from atout.position import parse_position
from atout.talon import DREIER, SECHSER, SOLO, TALON_RUFER

FUENFER = {"T1", "T21", "EX", "KS", "KH", "KD", "KC"}


def _refused(obj: dict, field: str, says: str) -> None:
    with pytest.raises(PositionError) as e:
        parse_position(obj)
    assert e.value.field == field and says in e.value.reason, (e.value.field, e.value.reason)


def _deal(bid: str, seed: int, **options) -> dict:
    return random_position(random.Random(seed), "at4", bid, **options)


def _side(obj: dict) -> dict[int, list[str]]:
    return {int(s): cs for s, cs in obj["contract"]["side_cards"].items() if cs}


def _with_side(obj: dict, side: dict) -> dict:
    out = json.loads(json.dumps(obj))
    out["contract"]["side_cards"] = {str(s): cs for s, cs in side.items()}
    return out


def test_the_issues_deals_are_refused():
    """What `atout deal --game at4 --seed 11` and `--bid solorufer --seed 21` made before:
    a Dreier laying one card away (and the Pagat), a Solorufer's talon for the declarer."""
    lines = (Path(__file__).resolve().parent / "data" / "at4_talon_refused.jsonl").read_text()
    dreier, solorufer = (json.loads(x) for x in lines.splitlines())
    _refused(dreier, "contract.side_cards", "three cards under seat 2, not 1")
    _refused(solorufer, "contract.side_cards.1", "the talon counts for the opponents")


def test_a_solo_games_talon_counts_for_the_opponents():
    for bid in SOLO:
        obj = _deal(bid, 1, declarer=0, called_where="partner" if bid == "solorufer" else None)
        pos = parse_position(obj)
        ours = {0, pos.contract.partner} - {None}
        six = [t for cs in _side(obj).values() for t in cs]
        assert not set(_side(obj)) & ours
        for seat in ours:
            _refused(_with_side(obj, {seat: six}), f"contract.side_cards.{seat}",
                     "the talon counts for the opponents")


def test_a_solorufers_called_king_in_the_talon_counts_for_the_declarer():
    obj = _deal("solorufer", 2, declarer=1, called_where="side")
    king = obj["contract"]["called"]
    assert _side(obj)[1] == [king]
    assert parse_position(obj).contract.partner is None
    six = [t for cs in _side(obj).values() for t in cs]
    _refused(_with_side(obj, {2: six}), "contract.side_cards.2", "counts for the declarer")


def test_a_rufer_with_talon_lays_away_four_one_and_one():
    for bid in TALON_RUFER:
        obj = _deal(bid, 3, declarer=2)
        assert {s: len(cs) for s, cs in _side(obj).items()} == {2: 4, 3: 1, 0: 1}, bid
        six = [t for cs in _side(obj).values() for t in cs]
        _refused(_with_side(obj, {2: six[:5], 3: six[5:]}), "contract.side_cards",
                 "4 under seat 2, 1 under seat 3, 1 under seat 0")


def test_a_rufer_with_talon_may_hold_the_king_it_called():
    """The declarer called a king it did not hold and took it from the talon: it holds it
    now and plays alone (refused before); a Solorufer's declarer, who takes no talon card,
    cannot have called a king it holds while another was there to call."""
    for seed in range(400):
        obj = _deal("vorhandrufer", seed, declarer=0)
        if obj["contract"]["called"] in obj["hands"][0]:
            break
    assert obj["contract"]["called"] in obj["hands"][0]
    pos = parse_position(obj)
    assert pos.contract.partner is None and pos.contract.alone
    for seed in range(400):
        solo = _deal("solorufer", seed, declarer=0)
        own = [k for k in ("KS", "KH", "KD", "KC") if k in solo["hands"][0]]
        if own and len(own) < 4:
            break
    _refused({**solo, "contract": {**solo["contract"], "called": own[0]}}, "contract.called",
             "another king could be called")


def test_a_sechser_lays_away_six_and_a_dreier_three():
    for bid in SECHSER:
        obj = _deal(bid, 6, declarer=3)
        assert _side(obj).keys() == {3} and len(_side(obj)[3]) == 6
        six = _side(obj)[3]
        _refused(_with_side(obj, {3: six[:3], 0: six[3:]}), "contract.side_cards",
                 "6 under seat 3")
    for bid in DREIER:
        obj = _deal(bid, 7, declarer=1)
        side = _side(obj)
        assert len(side[1]) == 3 and sum(len(cs) for s, cs in side.items() if s != 1) == 3
        six = [t for cs in side.values() for t in cs]
        _refused(_with_side(obj, {1: six[:1], 0: six[1:]}), "contract.side_cards",
                 "three cards under seat 1, not 1")
        # the three its declarer did not take count for the opponents, not for it
        rest = [t for s, cs in side.items() if s != 1 for t in cs]
        _refused(_with_side(obj, {1: side[1] + rest}), "contract.side_cards",
                 "three cards under seat 1, not 6")


def test_no_fuenferstueck_is_laid_away():
    """Pagat, Mond, Sküs and the kings never go in the talon (the generator laid a Pagat)."""
    for bid in ("dreier", "sechserdreier", "farbendreier"):
        for seed in range(200):
            obj = _deal(bid, seed, declarer=0)
            hand = obj["hands"][0]
            five = next((t for t in hand if t in FUENFER), None)
            if five:
                break
        laid = _side(obj)[0]
        swapped = json.loads(json.dumps(obj))
        swapped["hands"][0] = [laid[0] if t == five else t for t in hand]
        swapped["contract"]["side_cards"]["0"] = [five] + laid[1:]
        _refused(swapped, "contract.side_cards.0", f"{five} is never laid away")


def _swap_kind(obj: dict, seat: int, laid_kind, kept_kind) -> dict | None:
    """``obj`` with one laid-away card of ``laid_kind`` and one kept card of ``kept_kind``
    (neither a Fünferstück) swapped, or None where the seat has none such."""
    laid = obj["contract"]["side_cards"][str(seat)]
    hand = obj["hands"][seat]
    out_c = next((t for t in laid if kept_kind(t) and t not in FUENFER), None)
    in_c = next((t for t in hand if laid_kind(t) and t not in FUENFER), None)
    if out_c is None or in_c is None:
        return None
    swapped = json.loads(json.dumps(obj))
    swapped["hands"][seat] = [out_c if t == in_c else t for t in hand]
    swapped["contract"]["side_cards"][str(seat)] = [in_c if t == out_c else t for t in laid]
    return swapped


def test_a_colour_game_lays_away_tarocks_first_every_other_game_suit_cards():
    tarock = lambda t: t.startswith("T")            # noqa: E731
    suit = lambda t: not t.startswith("T") and t != "EX"   # noqa: E731
    checked = set()
    for bid in ("farbendreier", "farbensechser", "dreier", "sechserdreier", "farbenrufer"):
        colour = bid in AT4_COLOUR
        first, then = (tarock, suit) if colour else (suit, tarock)
        for seed in range(300):
            obj = _deal(bid, seed, declarer=2)
            swapped = _swap_kind(obj, 2, then, first)   # one of the first kind kept instead
            if swapped is not None:
                break
        assert swapped is not None, bid
        _refused(swapped, "contract.side_cards.2",
                 ("only tarocks are laid away" if colour else "only suit cards are laid away"))
        checked.add(colour)
    assert checked == {True, False}


def test_the_other_kind_is_laid_away_only_when_too_few_of_the_first_may_go():
    """A hand with no suit card that may go (a trump game) lays tarocks away, openly: taken."""
    for seed in range(2000):
        obj = _deal("sechserdreier", seed, declarer=0)
        if any(t.startswith("T") for t in _side(obj)[0]):
            break
    laid = _side(obj)[0]
    assert any(t.startswith("T") for t in laid)
    assert not any(not t.startswith("T") and t != "EX" and not t.startswith("K")
                   for t in obj["hands"][0])
    parse_position(obj)


def test_a_negative_games_talon_is_nobodys():
    """No one takes a negative game's talon and no point counts: any split is taken."""
    obj = _deal("bettler", 9, declarer=3)
    six = [t for cs in _side(obj).values() for t in cs]
    for seat in range(4):
        parse_position(_with_side(obj, {seat: six}))


def test_every_deal_made_keeps_the_seeds_talon_rules():
    """Each at4 contract's deals by `atout deal`: every one valid (the rules above), the
    talon split as its contract says."""
    rng = random.Random(65)
    for bid in AT4_BIDS:
        for _ in range(30):
            obj = random_position(rng, "at4", bid)
            parse_position(obj)
            if bid == "trischaken":
                continue
            d, side = obj["contract"]["declarer"], _side(obj)
            laid = [card(t) for s in side for t in side[s]
                    if bid in TALON_RUFER + SECHSER or (bid in DREIER and s == d)]
            assert not any(token(c) in FUENFER for c in laid), obj
            if bid in AT4_NEGATIVE_TRICKS or bid in SOLO:
                assert not laid
