"""The search against the exhaustive reference (tests/reference.py).

On random endgames of every game and contract family, the solver's value, its
``best`` cards and every card's value must equal plain minimax over the rules
engine, and replaying its ``line`` must score exactly its value — on one thread, and on
two and four (the parallel search: tests/test_threads.py has what is particular to it).

ATOUT_XCHECK (default 1) multiplies the number of endgames: e.g. ATOUT_XCHECK=10 for
the thousands-per-game run before a release.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import zlib
import random
from unittest import mock

import pytest

import atout.solver as solver_module
from atout.cards import card, is_trump, rank, suit, token
from atout.games import AT4_BIDS
from atout.position import Position, parse_position
from atout.solver import make_engine, solve
from atout.solver.params import card_of_code, code_of, engine_params

from redeal import (TT_MB, covered, deal_around, full_equals_plain, played_codes,
                   probe_pattern_holds, with_live_cards)
from deals import keep_policy, mixed_policy, random_endgame, slam_policy, uniform_policy
from reference import maximizing, reference_values, value_of

SCALE = int(os.environ.get("ATOUT_XCHECK", "1"))


def check(obj: dict, threads=(1,)) -> None:
    """Solver == reference on one position, with and without per-card values, on each of
    ``threads`` thread counts."""
    pos = parse_position(obj)
    ref = reference_values(pos)
    value = value_of(pos, ref)
    best = sorted(c for c, v in ref.items() if v == value)

    for n in threads:
        full = solve(pos, all_cards=True, tt_mb=TT_MB, threads=n)
        assert full.status == "ok"
        assert full.cards == ref, (obj, n)
        assert full.value == value, (obj, n)
        assert sorted(full.best) == best, (obj, n)

        quick = solve(pos, tt_mb=TT_MB, threads=n)
        assert quick.value == value and sorted(quick.best) == best, (obj, n)
        assert quick.cards is None
        # The line is legal (the rules engine replays it) and scores exactly the value.
        end = pos.copy()
        for t in quick.line:
            end.play(next(c for c in end.legal_cards() if token(c) == t))
        assert end.is_finished()
        assert end.outcome()["value"] == value == quick.outcome["value"]
        assert quick.line[0] in best


def _endgames(game: str, count: int, seed: int, **kwargs):
    rng = random.Random(seed)
    policies = [uniform_policy, slam_policy(0), slam_policy(1), keep_policy(["EX", "T1"]),
                mixed_policy(uniform_policy, keep_policy(["EX"]))]
    for i in range(count):
        tricks = 2 if i % 3 else 3
        if game in ("fr5", "priest5") and tricks == 3 and i % 2:
            tricks = 2
        yield random_endgame(rng, game, tricks, partial=bool(i % 2),
                             policy=policies[i % len(policies)], **kwargs)


# The parallel search as well: two and four threads, the helpers joining every search at
# once and sharing every node's cards (THREAD_TUNING; by default they join only searches
# that have run 2^16 / threads nodes, which these endgames seldom reach).
THREADS = (1, 2, 4)


@pytest.fixture
def every_node_shared(monkeypatch):
    monkeypatch.setattr(solver_module, "THREAD_TUNING", (0, 0, 1))


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5"])
def test_matches_reference(game, every_node_shared):
    for obj in _endgames(game, 150 * SCALE, seed=zlib.crc32(game.encode())):
        check(obj, THREADS)


AT4_FAMILIES = {
    "trump point game": dict(bid="solorufer", objective="contract"),
    "colour game": dict(bid="farbendreier"),
    "colour rufer": dict(bid="farbenrufer"),
    "rufer with a bird": dict(bid="pagatrufer"),
    "uhu rufer": dict(bid="uhurufer"),
    "negative game": dict(bid="piccolo"),
    "bettler": dict(bid="bettler"),
    "trischaken": dict(bid="trischaken"),
    "volat": dict(bid="dreier", objective="volat"),
    "pagat ultimo": dict(bid="solorufer", objective="pagat_ultimo"),
    "koenig ultimo": dict(bid="vorhandrufer", objective="koenig_ultimo"),
    "standard counting": dict(bid="sechserdreier", counting="standard"),
}


@pytest.mark.parametrize("family", sorted(AT4_FAMILIES))
def test_at4_matches_reference(family, every_node_shared):
    options = AT4_FAMILIES[family]
    for obj in _endgames("at4", 40 * SCALE, seed=len(family), **options):
        check(obj, THREADS)


def test_every_at4_bid():
    rng = random.Random(4)
    for bid in AT4_BIDS:
        for i in range(6 * SCALE):
            check(random_endgame(rng, "at4", 2 + i % 2, bid=bid, partial=bool(i % 2)))


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5", "at4"])
def test_move_generation_matches_rules(game):
    """The C move generator gives exactly the rules engine's legal cards, anywhere in a deal
    (first trick included: the fr5 called suit, at4 lead rules)."""
    rng = random.Random(7)
    for i in range(60 * SCALE):
        size = parse_position(random_endgame(rng, game, 0)).rules.hand_size
        obj = random_endgame(rng, game, rng.randrange(1, size + 1), partial=bool(i % 2))
        pos = parse_position(obj)
        engine = make_engine(pos, 1)
        names = card_of_code(pos.rules)
        assert sorted(names[c] for c in engine.legal_codes()) == pos.legal_cards(), obj
        assert engine.maximizing() == maximizing(pos)


PLAIN_NODES = 5_000_000          # the plain search's cap in the pattern checks (see below)
BOUND_CASES = [("fr4", {}), ("fr3", {}), ("fr5", {}), ("priest5", {})] + \
    [("at4", options) for options in AT4_FAMILIES.values()]


@pytest.mark.parametrize("game,options", BOUND_CASES,
                         ids=[f"{g}-{o.get('bid', '')}-{o.get('objective', '')}" for g, o in BOUND_CASES])
def test_cheap_bounds_hold(game, options):
    """The sure-point bounds (top trumps, the Excuse, quick tricks, the trick floor) on
    their own: at every trick start the reference value lies inside them, before and
    after each card.  A bound that claims one point too many fails here directly."""
    rng = random.Random(zlib.crc32(f"bounds-{game}-{options}".encode()))
    policies = [uniform_policy, slam_policy(0), slam_policy(1), keep_policy(["EX", "T1"]),
                keep_policy(["EX", "T21"])]
    for i in range(100 * SCALE):
        obj = random_endgame(rng, game, 2 + (i % 4 == 3), partial=bool(i % 3 == 2),
                             policy=policies[i % len(policies)], **options)
        pos = parse_position(obj)
        ref = reference_values(pos)
        value = value_of(pos, ref)
        engine = make_engine(pos, 1)
        lo, hi = engine.bounds()
        assert lo <= value <= hi, (obj, lo, value, hi)
        names = card_of_code(pos.rules)
        for code in engine.legal_codes():
            lo, hi = engine.child_bounds(code)
            assert lo <= ref[token(names[code])] <= hi, (obj, token(names[code]), lo, hi)


def _petit_in_hand(pos: Position) -> bool:
    """A trick start with the petit still in a hand: where the bounds may claim a sure
    petit au bout for that hand's camp."""
    return not pos.trick and any(card("T1") in hand for hand in pos.held)


@pytest.mark.parametrize("game", ["fr3", "fr4", "fr5"])
def test_sure_petit_au_bout(game):
    """The bounds' sure petit au bout (bounds.pxi, sure_petit_au_bout) in endgames with the
    petit still in a hand, the trumps kept late: counting the others' trumps once instead
    of twice, or leaving out the holder's side cards, claims a petit that the other camp
    can still catch or force out early (each was tried: each fails here)."""
    rng = random.Random(zlib.crc32(f"petit-{game}".encode()))
    trumps_last = mixed_policy(keep_policy([f"T{i}" for i in range(1, 22)] + ["EX"]), uniform_policy)
    policies = [trumps_last, slam_policy(0), slam_policy(1)]    # (slam: the Excuse's case)
    for i in range(60 * SCALE):
        obj = random_endgame(rng, game, 1 + i % 3, policy=policies[i // 3 % 3], accept=_petit_in_hand)
        pos = parse_position(obj)
        value = value_of(pos, reference_values(pos))
        lo, hi = make_engine(pos, 1).bounds()
        assert lo <= value <= hi, (obj, lo, value, hi)


def _long_suit_to_cash(pos: Position) -> bool:
    """A trick start where the leader holds more cards of a plain suit than any other seat
    and no other seat holds a trump (the Excuse aside): the leader's last cards of that
    suit win once the others are void of it."""
    if pos.trick:
        return False
    lead = pos.leader
    others = [h for seat, h in enumerate(pos.held) if seat != lead]
    if any(is_trump(c) for h in others for c in h):
        return False

    def length(hand, x):
        return sum(1 for c in hand if suit(c) == x)
    return any(length(pos.held[lead], x) > max(length(h, x) for h in others) for x in range(4))


def _long_suit_against_the_excuse(pos: Position) -> bool:
    return _long_suit_to_cash(pos) and any(card("EX") in h for s, h in enumerate(pos.held)
                                           if s != pos.leader)


@pytest.mark.parametrize("game", ["fr3", "fr4", "fr5"])
def test_quick_tricks_with_long_cards(game):
    """The quick tricks' long cards (bounds.pxi, quick_tricks): in round q of a suit only
    the seats holding q cards or more can still beat the leader's card — or q - 1 and the
    Excuse, played instead of following once.  Counting a seat with exactly q cards as void
    by then, or forgetting the Excuse, claims a round it can still win (each was tried: each
    fails here, the Excuse in the positions the bounds' pattern covers).  Endgames of 2-3
    tricks, trumps played first, where a long suit is there to cash."""
    rng = random.Random(zlib.crc32(f"long-{game}".encode()))
    side_last = keep_policy([token(c) for c in range(card("T1"))] + ["EX"])   # trumps first
    for i in range(60 * SCALE):
        # half of them with the Excuse in another hand: it can hold a card back one round
        accept = _long_suit_to_cash if i % 4 < 2 else _long_suit_against_the_excuse
        obj = random_endgame(rng, game, 2 + i % 2, accept=accept,
                             policy=mixed_policy(side_last, side_last, side_last, uniform_policy))
        _bounds_and_their_pattern_hold(obj, rng)


def _honour_to_fall(pos: Position, excuse: bool = False) -> bool:
    """A trick start where the leader holds the top card of a plain suit and another seat,
    with no more cards of that suit than the leader (``excuse``: and the Excuse), holds
    an honour of it: an honour the quick tricks may force out."""
    if pos.trick:
        return False
    live = [c for h in pos.held for c in h]
    mine = pos.held[pos.leader]
    for k in range(4):
        ours = [c for c in mine if suit(c) == k]
        if not ours or max(ours) != max(c for c in live if suit(c) == k):
            continue
        for seat, h in enumerate(pos.held):
            theirs = [c for c in h if suit(c) == k]
            if seat != pos.leader and theirs and len(theirs) <= len(ours) and \
                    any(rank(c) >= 11 for c in theirs) and (not excuse or card("EX") in h):
                return True
    return False


QUICK_CASES = [("fr4", {}), ("fr3", {}), ("fr5", {}), ("priest5", {}),
               ("at4", AT4_FAMILIES["trump point game"]), ("at4", AT4_FAMILIES["colour game"])]


@pytest.mark.parametrize("game,options", QUICK_CASES, ids=[f"{g}-{o.get('bid', '')}" for g, o in QUICK_CASES])
def test_quick_tricks_force_honours(game, options):
    """The quick tricks' forced cards (bounds.pxi, quick_tricks): in the rounds the leader
    cashes, every other seat must follow, so gives at least its cheapest cards of the
    suit — an honour when it holds few others — and a French seat holding the Excuse may
    keep one card back.  Counting one card too many, or forgetting the Excuse, claims
    points that are not sure (each was tried: each fails here).  Endgames of 2-3 tricks,
    half of the French ones with the Excuse in the short hand; and positions the bounds'
    pattern covers."""
    rng = random.Random(zlib.crc32(f"honours-{game}-{options}".encode()))
    french = game.startswith("fr")
    for i in range(60 * SCALE):
        excuse = french and i % 2 == 1
        obj = random_endgame(rng, game, 2 + i % 3 // 2, policy=keep_policy(["EX"]),
                             accept=lambda pos: _honour_to_fall(pos, excuse), **options)
        _bounds_and_their_pattern_hold(obj, rng)


def _guarded_master(pos: Position, variant: int) -> bool:
    """A trick start where a seat P of the camp not on lead holds the top card of a plain
    suit X, and every other seat holding a trump holds a card of X — the masters the
    bounds count for P's camp (guarded_masters) — with, by ``variant``: 0, P holding the
    top trump (the master counts); 1, P holding the top trump but one seat of the other
    camp with a trump void in X (it may ruff: no count); 2, P without the top trump (it
    may be stuck with the master in a last trick led in another suit: no count); 3, as 1
    with the void seat a partner of P's (it must ruff, then leads: no count); 4, as 0
    with the at4 Trull in play and the Pagat in the other camp (the Sküs may lose a
    trick to it: no count)."""
    if pos.trick:
        return False
    camp, power = pos.contract.camp, pos.rules.power
    skus = pos.game == "at4"                 # at4: EX is the Sküs, the top trump

    def trump(c):
        return is_trump(c) or (skus and c == card("EX"))
    live = [c for h in pos.held for c in h]
    trumps = [c for c in live if trump(c)]
    if not trumps:
        return False
    top = max(trumps, key=lambda c: power[c])
    if variant == 4:
        pagat = [o for o, h in enumerate(pos.held) if card("T1") in h]
        if card("T21") not in live or not pagat or camp[pagat[0]] == camp[pos.leader]:
            return False
    for p, hand in enumerate(pos.held):
        if camp[p] == camp[pos.leader] or (top in hand) != (variant != 2):
            continue
        for k in range(4):
            ours = [c for c in hand if suit(c) == k]
            if not ours or max(power[c] for c in ours) != max(power[c] for c in live if suit(c) == k):
                continue
            void = [o for o, h in enumerate(pos.held) if o != p
                    and any(trump(c) for c in h) and not any(suit(c) == k for c in h)]
            if variant == 1 and len(void) == 1 and camp[void[0]] != camp[p] or \
                    variant == 3 and len(void) == 1 and camp[void[0]] == camp[p] or \
                    variant in (0, 2, 4) and not void:
                return True
    return False


# at4, three tricks left: seat 1 holds the top trump (T21, the Sküs is out) and the only
# masters of clubs and hearts, but its partner, seat 2, holds two trumps and neither suit.
# Made to ruff a master, the partner leads its diamond, and seat 1 must throw its other
# master to the other camp's queen: the masters are not both sure.
PARTNER_RUFFS = {
    "game": "at4", "first": 1,
    "hands": [["T8", "JD", "NC", "8S", "T7", "KS", "7S", "T20", "T15", "QD", "ND", "T18"],
              ["QC", "T14", "4D", "8C", "T6", "10C", "T12", "4H", "EX", "NH", "T21", "3H"],
              ["1H", "T11", "1D", "T13", "T1", "T16", "3D", "KC", "2D", "T5", "T17", "9S"],
              ["KD", "7C", "T10", "2H", "10S", "NS", "T9", "JS", "T19", "JC", "QH", "KH"]],
    "played": ["T6", "T11", "T10", "T20", "8S", "T14", "9S", "10S", "8C", "KC", "7C", "NC",
               "2D", "KD", "JD", "4D", "KH", "T8", "3H", "1H", "ND", "T12", "3D", "T9",
               "10C", "T16", "JC", "T15", "T17", "T19", "T7", "EX", "4H", "T5", "QH", "T18"],
    "contract": {"bid": "solorufer", "declarer": 3, "called": "KS", "counting": "seed",
                 "objective": "contract",
                 "side_cards": {"2": ["T4", "JH"], "3": ["T2", "9C"], "1": ["QS", "T3"]}}}


@contextlib.contextmanager
def _any_talon_split():
    """The search counts each at4 side card for the camp of the seat it is listed under,
    whatever the split; some regression positions were found (and are kept, to go on
    testing the search) with splits the seed's talon rules refuse (atout.talon, the input
    checks): they are read with those rules set aside."""
    with mock.patch("atout.contract.check_side_cards", lambda *args: None):
        yield


def test_guarded_masters_partner_ruffs():
    """A partner void in the suit with a trump must ruff the master and then leads: the
    bounds hold here only when a partner's trumps count against the master as the other
    camp's do (each was tried: counting the other camp's alone fails here)."""
    with _any_talon_split():        # (its talon partly the declarer's camp's)
        _bounds_and_their_pattern_hold(PARTNER_RUFFS, random.Random(7))


GUARD_CASES = [("fr4", {}), ("fr3", {}), ("fr5", {}), ("priest5", {}),
               ("at4", AT4_FAMILIES["trump point game"])]


@pytest.mark.parametrize("game,options", GUARD_CASES, ids=[g for g, _ in GUARD_CASES])
def test_guarded_masters(game, options):
    """The masters of a seat of the camp not on lead that holds the top trump, in suits
    where no other seat can ruff them (bounds.pxi, guarded_masters): the bounds hold on
    both sides of each condition.  Counting them although another seat with a trump is
    void in the suit (of the other camp; a partner: see the next test), or although the
    seat lacks the top trump, claims points that are not sure (each was tried: each fails
    here).  The at4 Trull against the Sküs is drawn as well (3 tricks): the masters
    count only with the run of top trumps, which a Trull that can go to the other camp's
    Pagat denies (dropping that clause of sure_trumps fails test_cheap_bounds_hold and
    test_sure_petit_drawn for at4; no position drawn here has needed it for the masters
    alone).  Endgames of 2-3 tricks, some with the Excuse (the Narr, the Trull) kept; and
    positions the bounds' pattern covers."""
    rng = random.Random(zlib.crc32(f"guarded-{game}-{options}".encode()))
    at4 = game == "at4"
    for i in range(60 * SCALE):
        variant = i % (5 if at4 else 4)
        # (fr: the Excuse kept; priest5: the Narr; at4: the Trull)
        keep = ["EX", "T21", "T1"] if variant == 4 else ["EX"]
        policy = keep_policy(keep) if i % 3 == 2 or variant == 4 else uniform_policy
        obj = random_endgame(rng, game, 3 if variant == 4 else 2 + i % 2, policy=policy,
                             accept=lambda pos: _guarded_master(pos, variant), **options)
        _bounds_and_their_pattern_hold(obj, rng)


def _petit_to_draw(pos: Position) -> bool:
    """A trick start where the lowest tarock (fr: the petit; at4, priest5: the Pagat) is in
    a hand of the camp not on lead, and the rounds the leader can surely draw trumps in
    are as many as its holder can answer a run trump with before it must give it up, or
    one fewer: the two sides of the count the bounds rely on.  Those rounds: the leader's
    tarocks above all of that camp's, but no more than those above every partner's, and
    one (a partner holding a higher one may have to overtake it and lead)."""
    if pos.trick:
        return False
    camp, lead = pos.contract.camp, pos.leader
    holder = [seat for seat, h in enumerate(pos.held) if card("T1") in h]
    if not holder or camp[holder[0]] == camp[lead]:
        return False
    skus = pos.game == "at4"                 # at4: EX is the Sküs, the top tarock

    def tarocks(hand):
        return [rank(c) for c in hand if is_trump(c) or (skus and c == card("EX"))]
    theirs = [r for seat, h in enumerate(pos.held) if camp[seat] != camp[lead] for r in tarocks(h)]
    run = sum(1 for r in tarocks(pos.held[lead]) if r > max(theirs))
    partners = [r for seat, h in enumerate(pos.held) if seat != lead and camp[seat] == camp[lead]
                for r in tarocks(h)]
    if partners:
        run = min(run, sum(1 for r in tarocks(pos.held[lead]) if r > max(partners)) + 1)
    held = pos.held[holder[0]]
    answers = len(tarocks(held)) - 1 + (not skus and card("EX") in held)
    return run in (answers, answers + 1)


def _petit_to_draw_with_the_excuse(pos: Position) -> bool:
    """The same with the Excuse (or the Narr) in the petit's hand or the leader's."""
    return _petit_to_draw(pos) and any(card("EX") in pos.held[seat] for seat in
                                       [pos.leader] + [s for s, h in enumerate(pos.held) if card("T1") in h])


# fr4, the defenders' run split: seat 0 leads T20 or T19, its partner must overtrump with
# T21 and then leads a heart, which the taker ruffs with the petit (seat 0 must follow).
# The petit is not sure to fall to the run; claiming it gave -106 where the value is -96.
PETIT_PARTNER_OVERTRUMPS = {
    "game": "fr4", "first": 1,
    "hands": [
        ["T20", "T19", "2H", "9H", "QD", "T8", "3D", "T7", "QH", "8C", "QS", "5H", "9D",
         "T11", "7C", "T16", "EX", "T14"],
        ["T1", "T5", "KC", "JS", "5S", "T4", "T17", "10H", "10D", "JC", "2D", "1C", "2C",
         "T2", "6H", "KH", "T12", "10S"],
        ["T21", "3H", "4H", "4C", "KD", "8H", "T18", "10C", "T6", "T10", "8S", "T13", "6C",
         "1H", "6D", "JH", "7S", "5D"],
        ["1S", "2S", "3S", "T9", "NC", "8D", "9C", "4S", "6S", "5C", "T15", "1D", "ND", "4D",
         "9S", "KS", "NH", "T3"]],
    "played": ["T17", "T18", "T15", "EX", "JH", "NH", "9H", "6H", "4S", "QS", "5S", "8S", "T7",
               "T12", "T13", "T9", "1H", "T3", "QH", "KH", "4D", "9D", "10D", "6D", "2C", "6C",
               "9C", "8C", "8D", "3D", "2D", "5D", "NC", "7C", "1C", "4C", "5C", "T11", "JC",
               "10C", "T8", "T2", "T10", "ND", "8H", "1D", "5H", "10H", "JS", "7S", "9S", "T16",
               "QD", "T4", "KD", "6S", "10S", "T6", "KS", "T14"],
    "contract": {"taker": 1, "bid": "garde", "dog": ["QC", "7D", "NS", "JD", "3C", "7H"]}}


def test_petit_drawn_partner_overtrumps():
    """The rounds the leader draws trumps in end where a partner may have to overtake its
    run trump (PETIT_PARTNER_OVERTRUMPS): counting all the leader's run trumps claims the
    petit here and gives a wrong value (it did before the fix)."""
    _bounds_and_their_pattern_hold(PETIT_PARTNER_OVERTRUMPS, random.Random(11))
    check(PETIT_PARTNER_OVERTRUMPS)


def _split_run(pos: Position, rng: random.Random) -> tuple[dict, list[int]] | None:
    """The live cards of ``pos`` (a trick start) dealt anew, each seat keeping as many:
    the top tarock to a partner P of the leader, the next two or three to the leader, the
    lowest (the petit, the Pagat) and none or one other to a seat D of the other camp,
    the rest at random.  So the leader's run lies under a partner's trump that may have
    to overtake it, and D can answer one or two trump leads: the two sides of the count
    of the petit drawn (bounds.pxi, petit_trapped).  Returns the engine parameters and
    the played codes, or None where the position cannot be dealt so.  (Such a deal may
    not be reachable by legal play from its history; the engine does not need it to be,
    and random play hardly ever makes this split.)"""
    camp, lead = pos.contract.camp, pos.leader
    partners = [s for s in range(len(camp)) if s != lead and camp[s] == camp[lead]]
    others = [s for s in range(len(camp)) if camp[s] != camp[lead]]
    played = played_codes(pos)
    live = [code_of(pos.rules, c) for h in pos.held for c in h]
    trump_bits = 0x3FFFFF if pos.game == "at4" else 0x1FFFFF    # (at4: the Sküs on top)
    trumps = sorted((c for c in live if c >> 5 == 4 and trump_bits >> (c & 31) & 1), reverse=True)
    n = len(pos.held[lead])
    a, d = rng.choice([2, 3]), rng.choice([0, 1, 1])
    if not partners or not others or 4 * 32 not in trumps or len(trumps) < 2 + a + d or a > n:
        return None
    top, run, low = trumps[0], trumps[1:1 + a], [c for c in trumps[1 + a:] if c != 4 * 32]
    rng.shuffle(low)
    fixed = {rng.choice(partners): [top], lead: run, rng.choice(others): [4 * 32] + low[:d]}
    params = deal_around(pos, rng, fixed, {})
    return None if params is None else (params, played)


@pytest.mark.parametrize("game,options", GUARD_CASES[:1] + GUARD_CASES[2:],
                         ids=[g for g, _ in GUARD_CASES[:1] + GUARD_CASES[2:]])
def test_petit_drawn_split_run(game, options):
    """The leader's run split under a partner's higher trump, the petit against it
    (_split_run): the cheap bounds hold the plain search's value, and the full search
    finds the value and every card's value the plain one does.  Counting every run trump
    of the leader as a sure round fails here in each of the four games (it did before
    the fix): fr4, fr5 and priest5 within the first 12 positions, at4 only at its 345th,
    so at4 gets 800 (about one position in 270 fails there)."""
    rng = random.Random(zlib.crc32(f"split-run-{game}".encode()))
    done = 0
    while done < (800 if game == "at4" else 200) * SCALE:
        obj = random_endgame(rng, game, 3 + done % 2, policy=mixed_policy(
            uniform_policy, keep_policy([f"T{i}" for i in range(1, 22)] + ["EX"])), **options)
        pos = parse_position(obj)
        dealt = _split_run(pos, rng) if not pos.trick else None
        if dealt is None:
            continue
        full_equals_plain(obj, *dealt)
        done += 1


def _slam_in_progress(pos: Position, rng: random.Random, camp: int, shape: str):
    """The engine state of ``pos`` (a French trick start, the Excuse live) as if ``camp``
    had won every trick so far — the slam case, which random play never reaches (none in
    hundreds of endgames played with slam_policy) — with the live cards dealt anew: the
    Excuse to ``camp``, and the trumps by ``shape``: "top" (the top trump to the other
    camp), "all" (every trump to the other camp), "petit" (the lowest trumps, the petit
    among them, to one seat of the other camp, the rest to that camp too) or "any".  The leader is one of ``camp``'s
    seats.  Returns the engine parameters (nothing to replay), or None."""
    rules, seats = pos.rules, len(pos.held)
    ex = code_of(rules, card("EX"))
    live = [code_of(rules, c) for h in pos.held for c in h]
    trumps = sorted(c for c in live if c >> 5 == 4 and c != ex)
    ours = [s for s in range(seats) if pos.contract.camp[s] == camp]
    theirs = [s for s in range(seats) if pos.contract.camp[s] != camp]
    if ex not in live or not trumps or not ours or not theirs or \
            any(c == card("T1") for c in pos.played[-seats:]):   # (no petit au bout so far)
        return None
    owner = {ex: rng.choice(ours)}
    if shape == "top":
        owner[trumps[-1]] = rng.choice(theirs)
    elif shape == "all":
        owner.update((c, rng.choice(theirs)) for c in trumps)
    elif shape == "petit":
        holder = rng.choice(theirs)
        owner.update((c, holder) for c in trumps[:len(pos.held[0])])
        owner.update((c, rng.choice(theirs)) for c in trumps[len(pos.held[0]):])
    n = len(pos.held[0])
    new: list[list[int]] = [[] for _ in range(seats)]
    for c, seat in owner.items():
        new[seat].append(c)
    if any(len(h) > n for h in new):
        return None
    pool = [c for c in live if c not in owner]
    rng.shuffle(pool)
    for seat in range(seats):
        while len(new[seat]) < n:
            new[seat].append(pool.pop())
    params = engine_params(pos)
    state = params["state"]
    state["hand"] = [[0] * 5 for _ in range(seats)]
    for seat in range(seats):
        for c in new[seat]:
            state["hand"][seat][c >> 5] |= 1 << (c & 31)
    played = [code_of(rules, c) for c in pos.played]
    state["leader"] = rng.choice(ours)
    state["trick_no"] = len(pos.played) // seats
    state["tricks"] = [0, 0]
    state["tricks"][camp] = len(pos.played) // seats
    state["pts"][camp] += sum(rules.points[c] for c in pos.played)
    state["cards"][camp] += len(pos.played)
    state["bouts"][camp] += sum(1 for c in played if c in (ex, code_of(rules, card("T1")),
                                                            code_of(rules, card("T21"))))
    return params


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5"])
def test_slam_in_progress(game):
    """One camp has won every trick so far and the other holds the Excuse, which wins the
    last trick for a camp that has won them all (_slam_in_progress): the cheap bounds hold
    the plain search's value, and the full search finds it and every card's value.  Each
    slam clause of the bounds was dropped in turn (sure_trumps' run against the Excuse,
    long_trumps_worth's trick the Excuse may spoil, sure_petit_au_bout's last trick): each
    fails here, and none failed any other test."""
    rng = random.Random(zlib.crc32(f"slam-in-progress-{game}".encode()))
    done = 0
    while done < 150 * SCALE:
        obj = random_endgame(rng, game, 1 + done % 4, policy=keep_policy(["EX"]))
        pos = parse_position(obj)
        params = None if pos.trick else \
            _slam_in_progress(pos, rng, done % 2, ("top", "all", "petit", "any")[done // 2 % 4])
        if params is None:
            continue
        full_equals_plain(obj, params, [])
        done += 1


def _excuse_and_masters(pos: Position, rng: random.Random) -> dict | None:
    """The live cards of ``pos`` (a French trick start, the Excuse live) dealt anew: the
    leader gets the Excuse and the top cards of the longest live plain suit, the other
    seats as many cards of that suit as there are (so they must follow), then the rest at
    random.  The leader cannot cash all its masters and still play the Excuse before the
    last trick: the cap on the quick tricks' rounds.  Returns the engine parameters (the
    played cards to replay as they were), or None."""
    rules, seats, lead = pos.rules, len(pos.held), pos.leader
    ex = code_of(rules, card("EX"))
    live = [code_of(rules, c) for h in pos.held for c in h]
    n = len(pos.held[lead])
    suits = [[c for c in live if c >> 5 == k] for k in range(4)]
    longest = sorted(max(suits, key=len), reverse=True)
    if ex not in live or n < 2 or len(longest) < n:
        return None
    fixed = {s: [] for s in range(seats)}
    fixed[lead] = [ex] + longest[:n - 1]
    others = [s for s in range(seats) if s != lead]
    for i, c in enumerate(longest[n - 1:][:n * len(others)]):
        fixed[others[i % len(others)]].append(c)
    return deal_around(pos, rng, fixed, {})


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5"])
def test_quick_tricks_leave_room_for_the_excuse(game):
    """The leader holds the Excuse and masters the others must follow
    (_excuse_and_masters): the quick tricks count only the rounds that leave a trick for
    the Excuse before the last.  The cheap bounds hold the plain search's value, and the
    full search finds it and every card's value; counting every round (the cap dropped)
    fails here, and failed no other test."""
    rng = random.Random(zlib.crc32(f"excuse-and-masters-{game}".encode()))
    done = 0
    while done < 150 * SCALE:
        obj = random_endgame(rng, game, 2 + done % 3, policy=keep_policy(["EX"]))
        pos = parse_position(obj)
        params = None if pos.trick else _excuse_and_masters(pos, rng)
        if params is None:
            continue
        full_equals_plain(obj, params, played_codes(pos))
        done += 1


PETIT_CASES = [("fr4", {}), ("fr3", {}), ("fr5", {}), ("priest5", {}),
               ("at4", AT4_FAMILIES["trump point game"]), ("at4", AT4_FAMILIES["standard counting"])]


@pytest.mark.parametrize("game,options", PETIT_CASES, ids=[f"{g}-{o.get('bid', '')}" for g, o in PETIT_CASES])
def test_sure_petit_drawn(game, options):
    """The petit drawn by the leader's run (bounds.pxi, petit_trapped): the holder can
    answer a run trump led with its other tarocks, and once with the Excuse or the Narr,
    before the petit must fall; the leader needs that many run trumps, in tricks the
    quick tricks leave free and, if it holds the Excuse, before the last but one (it must
    lead the Excuse before the last trick).  Counting one answer too few, forgetting the
    holder's Excuse or the leader's, claims a petit that is not sure (each was tried: each
    fails here).  Endgames of 2-3 tricks, the petit and the Excuse kept late, half of
    them with the Excuse in one of the two hands; and positions the bounds' pattern covers."""
    rng = random.Random(zlib.crc32(f"petit-drawn-{game}-{options}".encode()))
    for i in range(60 * SCALE):
        accept = _petit_to_draw if i % 4 < 2 or game == "at4" else _petit_to_draw_with_the_excuse
        obj = random_endgame(rng, game, 2 + i % 2, accept=accept,
                             policy=keep_policy(["EX", "T1"]), **options)
        _bounds_and_their_pattern_hold(obj, rng)


def _bounds_and_their_pattern_hold(obj: dict, rng: random.Random) -> None:
    """The cheap bounds hold the reference value of ``obj``, and the plain search's value of
    positions their pattern covers."""
    pos = parse_position(obj)
    value = value_of(pos, reference_values(pos))
    lo, hi, fixed = make_engine(pos, 1).bound_pattern()
    assert lo <= value <= hi, (obj, lo, value, hi)
    _check_covered(obj, pos, lo, hi, fixed, rng)


def _check_covered(obj: dict, pos: Position, lo: int, hi: int, fixed: list[int],
                   rng: random.Random) -> None:
    """The bounds [lo, hi] of ``pos`` hold in three positions their pattern ``fixed`` covers."""
    params, played = engine_params(pos), played_codes(pos)
    for _ in range(3):
        value = covered(params, played, fixed, rng).value()
        assert value[0] and lo <= value[1] <= hi, (obj, fixed, lo, value, hi)


@pytest.mark.parametrize("game,options", BOUND_CASES, ids=[f"{g}-{o.get('bid', '')}" for g, o in BOUND_CASES])
def test_bounds_hold_wherever_their_pattern_does(game, options):
    """A table entry proven by the cheap bounds serves every position its pattern covers:
    so the bounds must hold there too.  Deal the cards the bounds did not fix anew and
    check the bounds against the exact value (a bound that relies on a card's rank without
    reporting it fails here).  Positions of 4-6 tricks, where long trumps and quick tricks
    decide bounds."""
    rng = random.Random(zlib.crc32(f"bound-patterns-{game}-{options}".encode()))
    for i in range(60 * SCALE):
        obj = random_endgame(rng, game, 4 + i % 3, **options)
        pos = parse_position(obj)
        lo, hi, fixed = make_engine(pos, 1).bound_pattern()
        _check_covered(obj, pos, lo, hi, fixed, rng)


@pytest.mark.parametrize("game,options", BOUND_CASES, ids=[f"{g}-{o.get('bid', '')}" for g, o in BOUND_CASES])
def test_searches_hold_wherever_their_pattern_does(game, options):
    """The same for an entry proven by search: one probe at a trick start, on the value
    and one past it (both answers), and the bound it returns must hold in positions its
    pattern covers.  Every technique that leaves cards out of a search (equal cards, small
    cards of no rank, the point-aware runs of a settled trick) must report what it relied
    on, or a re-dealt position shows it.  Positions of 5-7 tricks."""
    rng = random.Random(zlib.crc32(f"search-patterns-{game}-{options}".encode()))
    checked = 0
    for i in range(30 * SCALE):
        obj = random_endgame(rng, game, 5 + i % 3, **options)
        pos = parse_position(obj)
        # The plain search that gives the exact values is capped: one fr5 position in 30
        # took it 96 s of the suite's 15 minutes (ATOUT_XCHECK lifts the cap)
        checked += probe_pattern_holds(obj, engine_params(pos), played_codes(pos), rng,
                                       plain_nodes=0 if SCALE > 1 else PLAIN_NODES)
    assert checked >= 27 * SCALE, f"only {checked} positions within the plain search's cap"


def test_finished_deal_returns_its_outcome():
    rng = random.Random(3)
    obj = random_endgame(rng, "fr4", 0)
    r = solve(obj)
    assert r.status == "ok" and r.best == [] and r.line == []
    assert r.value == Position.from_json(obj).outcome()["value"] == r.outcome["value"]


def test_limits_end_cleanly_with_bounds():
    rng = random.Random(11)
    obj = random_endgame(rng, "fr5", 10)
    r = solve(obj, node_limit=5000, tt_mb=TT_MB)
    assert r.status == "limit" and r.value is None
    lo, hi = r.bounds
    exact = solve(obj, tt_mb=64)
    assert lo <= exact.value <= hi
    r = solve(obj, time_limit=0.01, tt_mb=TT_MB)
    assert r.status in ("limit", "ok")


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5", "at4"])
def test_what_the_probes_prove_of_each_card_holds(game):
    """The bounds the root's probes leave on each card (``solve`` asks only what they leave
    open; a stopped ``--all`` reports them) contain the card's exact value, whether the
    search finished or a node limit stopped it."""
    rng = random.Random(zlib.crc32(game.encode()) + 5)
    known = 0
    for i in range(4 * SCALE):
        obj = random_endgame(rng, game, 5, partial=bool(i % 2))
        exact = solve(obj, all_cards=True, tt_mb=TT_MB).cards
        pos = parse_position(obj)
        names = card_of_code(pos.rules)
        for limit in (300, 3000, 0):
            engine = make_engine(pos, TT_MB)
            engine.set_limits(limit, 0)
            engine.value()
            for code in engine.legal_codes():
                lo, hi = engine.card_bounds(code)
                assert lo <= exact[token(names[code])] <= hi, (obj, limit, token(names[code]))
                known += lo > -30000 or hi < 30000
    assert known          # the probes did bound some cards

def test_bad_arguments_are_value_errors():
    rng = random.Random(12)
    obj = random_endgame(rng, "fr4", 2)
    for kwargs in (dict(time_limit=0), dict(node_limit=-1), dict(tt_mb=0)):
        with pytest.raises(ValueError):
            solve(obj, **kwargs)


def test_regression_positions():
    """Positions that once broke the search (tests/data/regressions.jsonl): the best line
    must replay to exactly the value."""
    path = os.path.join(os.path.dirname(__file__), "data", "regressions.jsonl")
    with open(path) as f:
        for line in f:
            r = solve(parse_position(json.loads(line)), tt_mb=TT_MB)
            assert r.status == "ok" and r.outcome["value"] == r.value


def test_partition_regressions():
    """Positions where a table pattern was once too general (tests/data/
    partition_regressions.jsonl), against the exhaustive reference.

    trischaken-equal-cards-split: T5 and T11 of one hand were searched as one card; the
    pattern kept only T11, so it also covered a hand of T5 and T2 with the opponent's T3
    between them — where leading the low tarock forces the opponent to take the trick."""
    path = os.path.join(os.path.dirname(__file__), "data", "partition_regressions.jsonl")
    with open(path) as f:
        for line in f:
            check(json.loads(line))


def test_dealt_regressions():
    """Dealt positions (tests/data/dealt_regressions.jsonl: a position and its live cards
    dealt anew, which the exhaustive reference cannot read — the history need not fit the
    new hands) where the partition search once went wrong, against the plain search: the
    value, every card's value, and the root probe's fail-soft bound at the value and just
    above it, there and in positions its pattern covers.

    priest5-plain-card-in-an-honours-run: a run of adjacent cards whose points differ,
    played as one card where its trick is settled, must be honours only — a plain card's
    rank is not in the table's pattern, so a plain card joined to it gave two cards wrong
    values.
    fr4-overtrump-on-a-plain-lead: a seat void in the led plain suit must overtrump, so
    its highest trump is relevant there as on a trump lead; without it the probe "at least
    the value?" answered no.
    at4-colour-rufer-group-wins-its-trick: a group of equal cards that won its trick by
    rank must stay a group in the pattern (below); without it a too general entry gave
    one card 151 where it is worth 148.

    The entries with ``covered`` also name a position the weakened search's pattern
    covered and where its bound failed; the pattern of the search as it is must either
    not cover it or hold there:
    at4-colour-game-tarock-group-over-the-lead: a group of equal tarocks that won its
    trick by rank must stay a group — the trick's own cards say so, not the rest of the
    search, which never sees the played card.
    trischaken-group-beside-a-master: the lowest card of each move's group must travel
    with the move when the moves are sorted, or the wrong card is kept in the pattern.
    fr5-excuse-led-then-a-trump: after the Excuse the led suit is the second card's, and
    the overtrump rule (and so the trump to beat) follows from it."""
    path = os.path.join(os.path.dirname(__file__), "data", "dealt_regressions.jsonl")
    with open(path) as f, _any_talon_split():
        for line in f:
            entry = json.loads(line)
            pos = parse_position(entry["position"])
            dealt = [with_live_cards(pos, [[code_of(pos.rules, card(t)) for t in held]
                                           for held in live])
                     for live in [entry["live"]] + entry.get("covered", [])]
            params, others = dealt[0], dealt[1:]
            played = played_codes(pos)
            full_equals_plain(entry["name"], params, played)
            probe_pattern_holds(entry["name"], params, played, random.Random(0), others=others)


def test_bound_regressions():
    """Positions where a sure-point bound once claimed too much (tests/data/
    bound_regressions.jsonl), against the exhaustive reference.

    fr5-own-excuse-in-the-last-trick: in the last trick a camp's own Excuse changes camp,
    so it adds nothing to the camp's sure trump trick there.
    at4-colour-trull-wins-a-suit-trick: in a colour game tarock never wins a suit trick —
    except the Pagat when Sküs and Mond fall in the same trick.
    fr4-other-excuse-in-the-last-trick, fr3-excuse-changes-camp-without-a-trick: what a
    camp can take at most counted the other camp's Excuse as the low card given for it,
    but in the last trick the Excuse changes camp whole, trick or no trick."""
    path = os.path.join(os.path.dirname(__file__), "data", "bound_regressions.jsonl")
    with open(path) as f, _any_talon_split():
        for line in f:
            check(json.loads(line))


def test_the_default_table_grows_with_the_tricks_left():
    """No size named: a whole deal gets the big table, an endgame the small one; a size
    named is kept whatever the position."""
    from atout.solver import BIG_TT_MB, default_tt_mb

    for seats in (3, 4, 5):
        sizes = [default_tt_mb(t, seats) for t in range(25)]
        assert sizes == sorted(sizes) and sizes[0] >= 16        # never less with more tricks
    assert default_tt_mb(18) == default_tt_mb(14) == BIG_TT_MB > default_tt_mb(13) > default_tt_mb(8)
    assert default_tt_mb(15, 5) == default_tt_mb(24, 3) == BIG_TT_MB          # whole deals
    assert default_tt_mb(10, 3) == default_tt_mb(8, 5) == default_tt_mb(8)     # endgames
    from atout.client.cli import TT_MB_DEFAULT
    from atout.solver import TT_MB_BY_CARDS
    said = [int(n) for n in re.findall(r"\d+", TT_MB_DEFAULT)]   # what --tt-mb says, in order
    smallest, *rest = reversed(TT_MB_BY_CARDS)
    # the sizes by cards, then how far a default table may grow
    assert said == [smallest[1]] + [n for least, mb in rest for n in (mb, least)] + [BIG_TT_MB], said
    rng = random.Random(6)
    whole, endgame = (Position.from_json(random_endgame(rng, "fr4", n)) for n in (18, 8))
    buckets = [make_engine(p, mb).table_fill()[0] for p, mb in
               ((whole, None), (endgame, None), (whole, 4))]
    assert buckets[0] > buckets[1] > buckets[2]


def test_a_full_table_changes_nothing():
    """A 1 MB table overflows on these positions; replacement must keep results exact."""
    rng = random.Random(21)
    for game, tricks in (("fr4", 9), ("priest5", 8)):   # both overflow 1 MB (node counts differ)
        obj = random_endgame(rng, game, tricks)
        small, large = solve(obj, all_cards=True, tt_mb=1), solve(obj, all_cards=True, tt_mb=64)
        assert (small.value, small.best, small.cards) == (large.value, large.best, large.cards)
        assert small.outcome["value"] == small.value


def test_cancel_stops_a_running_search_from_another_thread():
    """Cancel.set() from another thread stops a long search at once, with proven bounds."""
    import threading
    import time

    from atout.solver import Cancel

    rng = random.Random(5)
    obj = random_endgame(rng, "fr3", 24)          # a whole fr3 deal: seconds at least
    cancel = Cancel()
    results = []
    worker = threading.Thread(target=lambda: results.append(solve(obj, cancel=cancel, tt_mb=16)))
    worker.start()
    time.sleep(0.1)
    stopped_at = time.perf_counter()
    was_running = worker.is_alive()
    cancel.set()
    worker.join(5)
    assert not worker.is_alive() and time.perf_counter() - stopped_at < 2
    r = results[0]
    if was_running:
        assert r.status == "limit" and r.stopped_by == "cancel" and r.value is None
        lo, hi = r.bounds
        assert lo <= hi
    # a switch already set stops the next search before it starts
    assert solve(obj, cancel=cancel, tt_mb=16).stopped_by == "cancel"
