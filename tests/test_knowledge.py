"""What a seat knows (atout/knowledge.py) and the deals drawn from it (atout/sampler.py).

The definition (docs/single-dummy.md): a deal is consistent for a seat when it is a valid
position with the same contract and cards played and the seat's view (``view``) of it is
the same.  So:

* every drawn deal, on thousands of random played deals of every game and contract, is a
  valid position with the same view, and the true deal meets the compiled constraints;
* on small positions, enumerating every deal of the unseen cards and keeping those the
  definition accepts gives exactly the sampler's count, and draws are uniform over them
  (a chi-square test with fixed seeds);
* the counting itself, on random small constraint sets (Hypothesis), against brute force;
* each rule of what a seat knows, on a position built for it.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from atout.cards import EXCUSE, KING, PETIT, card, is_trump, rank, suit_card, token, tokens
from atout.deal import BIDS
from atout.knowledge import (DOG, TALON, Case, Knowledge, piles, seat_knowledge, side_place,
                             view)
from atout.position import parse_position
from atout.sampler import Sampler
from atout.tricks import legal_cards
from deals import GAMES, random_endgame, random_position
from views import consistent_deals, deal_key, ways


def _contracts():
    """(game, bid) for every game and contract family."""
    for game in GAMES:
        for bid in BIDS[game] or (None,):
            yield game, bid


CONTRACTS = list(_contracts())


def _hidden_deal(pos, k: Knowledge) -> dict:
    """The true places of the seat's hidden cards."""
    where = {}
    for s, hand in enumerate(pos.hands):
        for c in hand:
            where[c] = s
    for place, cards in piles(pos).items():
        for c in cards:
            where[c] = place
    deal = {p: [] for p in k.places}
    for c in k.hidden:
        deal[where[c]].append(c)
    return {p: tuple(sorted(cs)) for p, cs in deal.items()}


# -- the trick rules have the shape the knowledge relies on -----------------------------------

@pytest.mark.parametrize("game,bid", CONTRACTS)
def test_legality_is_card_by_card(game, bid):
    """A card is legal in a hand exactly when it is legal beside each other card of the hand
    alone: so what a card played reveals is a set of cards its player did not hold."""
    rng = random.Random(f"legal-{game}-{bid}")
    checked = 0
    for _ in range(20):
        pos = parse_position(random_endgame(rng, game, rng.randrange(1, 10), bid=bid,
                                            partial=rng.random() < 0.7))
        rules, trick, no = pos.rules, pos.trick, pos.trick_no
        # the seat's own hand, and random hands of any cards not yet seen in play
        pool = [c for c in rules.deck if c not in pos.played]
        hands = [set(pos.held[pos.to_play])]
        hands += [set(rng.sample(pool, rng.randrange(1, min(8, len(pool) + 1)))) for _ in range(6)]
        for hand in hands:
            legal = set(legal_cards(rules, hand, trick, no))
            for c in hand:
                alone = all(c in legal_cards(rules, {c, x}, trick, no) for x in hand if x != c)
                assert (c in legal) == alone, (game, bid, tokens(hand), token(c))
                checked += 1
    assert checked > 200


# -- every drawn deal is consistent ---------------------------------------------------------------

@pytest.mark.parametrize("game,bid", CONTRACTS)
def test_drawn_deals_are_consistent(game, bid):
    """On random played deals (every stage, every seat): the true deal meets the constraints,
    and every drawn deal is valid and looks the same to the seat."""
    rng = random.Random(f"consistent-{game}-{bid}")
    deals = 0
    for i in range(10 if game != "at4" else 4):
        obj = random_endgame(rng, game, rng.randrange(1, 19 if game == "fr3" else 13), bid=bid,
                             partial=rng.random() < 0.5)
        pos = parse_position(obj)
        for seat in range(pos.seats):
            k = seat_knowledge(pos, seat)
            assert k.is_consistent(_hidden_deal(pos, k)), (obj, seat)
            seen = view(pos, seat)
            sampler = Sampler(k)
            assert sampler.count() >= 1
            for sample in sampler.positions(rng, 1):
                drawn = parse_position(sample)
                assert view(drawn, seat) == seen, (obj, seat, sample)
                deals += 1
    assert deals >= 16


#: random played deals per game in the broad test (a few seconds in all: CI runs the whole
#: suite in minutes); ATOUT_SIM_SCALE=10 runs ten times as many, 1500 per game (a soak)
BROAD = int(150 * float(os.environ.get("ATOUT_SIM_SCALE", "1")))


@pytest.mark.parametrize("game", GAMES)
def test_thousands_of_deals_every_game(game):
    """The same, broadly: many random played deals of each game (BROAD), every contract,
    random stages and seats, one drawn deal each."""
    rng = random.Random(f"thousands-{game}")
    bids = BIDS[game] or (None,)
    for i in range(BROAD):
        pos = parse_position(random_endgame(rng, game, rng.randrange(1, 10), bid=bids[i % len(bids)],
                                            partial=rng.random() < 0.5))
        seat = rng.randrange(pos.seats)
        k = seat_knowledge(pos, seat)
        assert k.is_consistent(_hidden_deal(pos, k))
        sample = Sampler(k).positions(rng, 1)[0]
        assert view(parse_position(sample), seat) == view(pos, seat), (game, i)


# -- against the definition, by enumeration ---------------------------------------------------------

def _small_positions():
    """Positions whose unseen cards can be dealt in at most a few thousand ways."""
    rng = random.Random("small")
    found = []
    wanted = {(g, b): 0 for g, b in CONTRACTS}
    for _ in range(3000):
        game, bid = rng.choice(CONTRACTS)
        if wanted[(game, bid)] >= 1:
            continue
        tricks = 1 if game in ("fr4", "fr5", "at4") else 2
        pos = parse_position(random_endgame(rng, game, tricks, bid=bid, partial=rng.random() < 0.6))
        seat = rng.randrange(pos.seats)
        if 20 <= ways(pos, seat) <= 500:
            found.append((pos, seat))
            wanted[(game, bid)] += 1
    return found


SMALL = _small_positions()


@pytest.mark.parametrize("pos,seat", SMALL, ids=[f"{p.game}-{p.contract.bid}-seat{s}"
                                                  for p, s in SMALL])
def test_count_equals_the_definition(pos, seat):
    deals = consistent_deals(pos, seat)
    assert deals, "the true deal is always consistent"
    assert deal_key(pos.to_json()) in {deal_key(d) for d in deals}
    sampler = Sampler(seat_knowledge(pos, seat), exact=True)
    assert sampler.count() == len(deals)
    assert round(Sampler(seat_knowledge(pos, seat)).count()) == len(deals)


def _chi_square_p(counts: list[int], expected: float) -> float:
    """Upper tail of the chi-square statistic of equal cells (Wilson-Hilferty)."""
    df = len(counts) - 1
    x = sum((c - expected) ** 2 / expected for c in counts)
    if df < 1:
        return 1.0
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


UNIFORM = [(p, s) for p, s in SMALL if 3 <= Sampler(seat_knowledge(p, s), exact=True).count() <= 60][:8]


@pytest.mark.parametrize("pos,seat", UNIFORM, ids=[f"{p.game}-{p.contract.bid}-seat{s}"
                                                    for p, s in UNIFORM])
def test_draws_are_uniform(pos, seat):
    deals = consistent_deals(pos, seat)
    keys = {deal_key(d) for d in deals}
    per_deal = 40
    sampler = Sampler(seat_knowledge(pos, seat))
    drawn = Counter(deal_key(o) for o in
                    sampler.positions(random.Random(f"uniform-{pos.game}"), per_deal * len(deals)))
    assert set(drawn) <= keys
    counts = [drawn.get(key, 0) for key in keys]
    assert _chi_square_p(counts, per_deal) > 1e-4, counts


def test_uniform_cases_exist():
    assert len(UNIFORM) >= 5 and len({p.game for p, _ in SMALL}) == 5


# -- the counting, on random constraint sets ----------------------------------------------------------

@st.composite
def knowledge_sets(draw):
    """A small random Knowledge: places, capacities, allowed places, counts, cases."""
    places = (0, 1, 2, DOG)
    capacity = {p: draw(st.integers(0, 3)) for p in places}
    while sum(capacity.values()) > 8:     # at most a few thousand ways to deal them
        capacity[max(places, key=lambda p: capacity[p])] -= 1
    n = sum(capacity.values())
    hidden = tuple(range(56, 56 + n))
    busy = [p for p in places if capacity[p]]
    allowed = {c: frozenset(p for p in busy if draw(st.integers(0, 3))) for c in hidden}
    at_least = []
    for _ in range(draw(st.integers(0, 2))):
        place = draw(st.sampled_from(busy)) if busy else 0
        cards = frozenset(c for c in hidden if draw(st.integers(0, 2)))
        at_least.append((place, cards, draw(st.integers(1, max(1, capacity[place])))))
    alternatives = []
    if hidden and draw(st.booleans()):
        c = draw(st.sampled_from(hidden))
        alternatives.append(tuple(
            Case(allowed=((c, frozenset({p})),),
                 at_least=((p, frozenset(hidden) - {c}, draw(st.integers(1, 2))),)
                 if draw(st.booleans()) else ())
            for p in places))
    return Knowledge(seat=3, game="fr4", template={}, places=places,
                     known={p: () for p in places}, capacity=capacity, hidden=hidden,
                     allowed=allowed, at_least=tuple(at_least), alternatives=tuple(alternatives))


def _every_deal(k: Knowledge):
    """Every way to put the hidden cards in the places, each place holding its capacity."""
    def fill(i, left):
        if i == len(k.places):
            yield {}
            return
        p = k.places[i]
        for pick in itertools.combinations(left, k.capacity[p]):
            for rest in fill(i + 1, [c for c in left if c not in pick]):
                yield {p: pick, **rest}
    yield from fill(0, list(k.hidden))


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(knowledge_sets())
def test_counting_matches_brute_force(k):
    deals = [d for d in _every_deal(k) if k.is_consistent(d)]
    assert Sampler(k, exact=True).count() == len(deals)
    if deals:
        rng = random.Random(0)
        for d in Sampler(k).deals(rng, 20):
            assert k.is_consistent(d)


def test_draws_are_uniform_under_counts_and_cases():
    """Counts that can be exceeded (seat 0 holds at least one of three cards, at most all
    three) and exclusive cases (card 56 in each place, with a count in some): every deal
    equally often."""
    places = (0, 1, 2, DOG)
    hidden = tuple(range(56, 64))
    allowed = {c: frozenset(places) for c in hidden}
    allowed[63] = frozenset({1, 2})
    k = Knowledge(seat=3, game="fr4", template={}, places=places, known={p: () for p in places},
                  capacity={0: 3, 1: 2, 2: 2, DOG: 1}, hidden=hidden, allowed=allowed,
                  at_least=((0, frozenset({57, 58, 59}), 1),),
                  alternatives=(tuple(Case(allowed=((56, frozenset({p})),),
                                           at_least=((p, frozenset({60, 61, 62}), 1),) if p in (1, 2) else ())
                                      for p in places),))
    deals = [d for d in _every_deal(k) if k.is_consistent(d)]
    assert Sampler(k, exact=True).count() == len(deals) > 50
    per_deal = 40
    drawn = Counter(tuple(sorted(d.items(), key=str))
                    for d in Sampler(k).deals(random.Random(7), per_deal * len(deals)))
    keys = {tuple(sorted(d.items(), key=str)) for d in deals}
    assert set(drawn) <= keys
    assert _chi_square_p([drawn.get(key, 0) for key in keys], per_deal) > 1e-4


def test_drawing_never_starves():
    """One consistent deal among about 10**13: found at once, every time."""
    places = (0, 1, 2, DOG)
    hidden = tuple(range(30))
    allowed = {c: frozenset(places) for c in hidden}
    for c in range(10):      # seat 0 must hold exactly cards 0..9, seat 1 10..19
        allowed[c] = frozenset({0})
    at_least = ((1, frozenset(range(10, 20)), 10),)
    k = Knowledge(seat=3, game="fr4", template={}, places=places, known={p: () for p in places},
                  capacity={0: 10, 1: 10, 2: 4, DOG: 6}, hidden=hidden, allowed=allowed,
                  at_least=at_least, alternatives=())
    sampler = Sampler(k, exact=True)
    assert sampler.count() == math.comb(10, 4)
    for d in sampler.deals(random.Random(1), 50):
        assert k.is_consistent(d) and d[1] == tuple(range(10, 20))


# -- each rule, on a position built for it ----------------------------------------------------------

def _fr4(played, bid="garde", **contract):
    """A fixed fr4 deal: seat 0 takes."""
    hands = [
        "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 KS QS NS JS KH QH NH JH",
        "T1 T2 T3 T4 EX 10S 9S 8S 7S 6S 5S 4S 3S 2S 1S 10H 9H 8H",
        "T5 T6 T7 T8 T9 T10 T11 7H 6H 5H 4H 3H 2H 1H KD QD ND JD",
        "10D 9D 8D 7D 6D 5D 4D 3D 2D 1D KC QC NC JC 10C 9C 8C 7C",
    ]
    dog = "6C 5C 4C 3C 2C 1C".split()
    con = {"taker": 0, "bid": bid, "dog": dog, **contract}
    return parse_position({"game": "fr4", "hands": [h.split() for h in hands], "first": 0,
                           "played": played.split(), "contract": con})


def test_a_seat_not_following_is_void():
    pos = _fr4("KS 10S T5 KC")      # seat 2 trumps a spade, seat 3 discards a club
    k = seat_knowledge(pos, 1)
    spades = [suit_card(0, r) for r in range(1, 15)]
    for c in spades:
        if c in k.allowed:
            assert 2 not in k.allowed[c] and 3 not in k.allowed[c]
    trumps = [c for c in k.hidden if is_trump(c)]
    assert trumps and all(3 not in k.allowed[c] for c in trumps)   # no trump either
    assert all(2 in k.allowed[c] for c in trumps if c < card("T5"))


def test_a_seat_not_overtrumping_holds_no_higher_trump():
    pos = _fr4("T12 T1 T5 1D")       # seat 1 plays T1 under T12: it has no trump above T12
    k = seat_knowledge(pos, 2)
    assert all(1 not in k.allowed[c] for c in k.hidden if is_trump(c) and c > card("T12"))
    assert any(1 in k.allowed[c] for c in k.hidden if is_trump(c) and c < card("T12"))


def test_the_ecart_and_the_shown_dog():
    pos = _fr4("", shown_dog="KS QS T12 3C 2C 1C".split(), bid="garde")
    for seat in (1, 2, 3):
        k = seat_knowledge(pos, seat)
        # the écart (no king, no bout, no hidden trump: shown ones would be known)
        assert k.capacity[DOG] == 6
        assert all(DOG not in k.allowed[c] for c in k.hidden
                   if is_trump(c) or c == EXCUSE or (c < PETIT and rank(c) == KING))
        for t in ("KS", "QS", "T12", "3C"):    # shown, now in the taker's hand or the écart
            if card(t) in k.allowed:
                assert k.allowed[card(t)] <= {0, DOG}
        assert k.allowed[card("KS")] == {0} and k.allowed[card("3C")] == {0, DOG}
    taker = seat_knowledge(pos, 0)
    assert taker.capacity[DOG] == 0 and set(taker.known[DOG]) == {card(t) for t in pos.contract.raw["dog"]}


def test_a_trump_in_the_ecart_shows_the_taker_has_no_plain_card():
    """A trump is discarded only when nothing else could be: the taker holds no plain suit
    card, and every seat knows it from the trump shown."""
    deck = [token(c) for c in range(78)]
    taker = "KS KH KD KC EX T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9".split()
    ecart = "T8 2S 3S 4S 5S 6S".split()
    rest = [t for t in deck if t not in taker and t not in ecart]
    pos = parse_position({"game": "fr4", "hands": [taker, rest[:18], rest[18:36], rest[36:54]],
                          "first": 1, "played": [],
                          "contract": {"taker": 0, "bid": "prise", "dog": ecart}})
    k = seat_knowledge(pos, 2)
    assert card("T8") in k.known[DOG]
    plain = [c for c in k.hidden if c < PETIT and rank(c) != KING]
    assert plain and all(0 not in k.allowed[c] for c in plain)
    for sample in Sampler(k).positions(random.Random(3), 50):
        assert view(parse_position(sample), 2) == view(pos, 2)


def test_garde_sans_dog_is_unseen_by_all():
    pos = _fr4("", bid="garde_sans")
    for seat in range(4):
        k = seat_knowledge(pos, seat)
        assert k.capacity[DOG] == 6 and not k.known[DOG]


def test_poignee_shown_and_unshown():
    shown = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12".split()
    pos = _fr4("", poignees=[{"seat": 0, "level": "simple", "shown": shown}])
    k = seat_knowledge(pos, 1)
    assert {card(t) for t in shown} <= set(k.known[0]) and not k.at_least
    pos = _fr4("", poignees=[{"seat": 0, "level": "simple"}])
    k = seat_knowledge(pos, 1)
    (place, cards, count), = k.at_least
    assert place == 0 and count == 10 and cards == {c for c in k.hidden if c >= PETIT}
    for sample in Sampler(k).positions(random.Random(2), 30):
        drawn = parse_position(sample)
        assert sum(1 for c in drawn.hands[0] if c >= PETIT) >= 10


def test_no_petit_sec_is_drawn():
    """Seat 1 holds T1 and T2..T4 and the Excuse; a seat that may hold T1 alone must then
    hold another trump: no drawn deal has a petit sec."""
    pos = _fr4("")
    k = seat_knowledge(pos, 3)
    assert k.alternatives
    rng = random.Random(4)
    for sample in Sampler(k).positions(rng, 200):
        for hand in sample["hands"]:
            assert [t for t in hand if t.startswith("T") or t == "EX"] != ["T1"]


def test_fr5_called_queen_shows_the_kings():
    """A queen is called only by a taker holding the four kings: every seat knows where they are."""
    obj = random_position(random.Random(11), "fr5", "garde_sans", taker=0)
    hands = [[card(t) for t in h] for h in obj["hands"]]
    kings = [suit_card(s, KING) for s in range(4)]
    for k in kings:                       # give the taker the four kings, in exchange for plain cards
        holder = next((s for s, h in enumerate(hands) if k in h), None)
        if holder == 0:
            continue
        plain = next(c for c in hands[0] if c < PETIT and rank(c) < 11 and c not in kings)
        if holder is None:
            dog = [card(t) for t in obj["contract"]["dog"]]
            dog[dog.index(k)] = plain
            obj["contract"]["dog"] = tokens(dog)
        else:
            hands[holder][hands[holder].index(k)] = plain
        hands[0][hands[0].index(plain)] = k
    obj["hands"] = [tokens(h) for h in hands]
    obj["contract"]["called"] = "QH"
    pos = parse_position(obj)
    for seat in range(1, 5):
        k = seat_knowledge(pos, seat)
        assert set(kings) <= set(k.known[0])
        assert all(c not in k.allowed for c in kings)


def test_at4_called_king_cases():
    rng = random.Random(12)
    obj = random_position(rng, "at4", "solorufer", called_where="partner")
    pos = parse_position(obj)
    declarer = pos.contract.declarer
    seat = next(s for s in range(4) if s != declarer and pos.contract.called not in pos.hands[s])
    k = seat_knowledge(pos, seat)
    (cases,) = k.alternatives
    assert cases[0].allowed[0][0] == pos.contract.called
    assert declarer not in cases[0].allowed[0][1]
    for sample in Sampler(k).positions(rng, 100):
        drawn = parse_position(sample)       # never the declarer holding the called king alone
        assert drawn is not None


def test_priest5_open_cards_are_known():
    pos = parse_position(random_position(random.Random(13), "priest5"))
    for seat in range(5):
        k = seat_knowledge(pos, seat)
        assert set(k.known["open"]) == {card(t) for t in pos.contract.raw["open"]}


def test_at4_talon_by_contract():
    rng = random.Random(14)
    for bid, seen_by in (("solorufer", lambda key, seat, d: False),
                         ("vorhandrufer", lambda key, seat, d: key == seat),
                         ("dreier", lambda key, seat, d: key != d or seat == d)):
        pos = parse_position(random_position(rng, "at4", bid))
        for seat in range(4):
            k = seat_knowledge(pos, seat)
            for key, cards in pos.contract.raw["side_cards"].items():
                place = side_place(key)
                expect = seen_by(int(key), seat, pos.contract.declarer)
                assert (set(k.known[place]) == {card(t) for t in cards}) == expect or not cards


@pytest.mark.parametrize("bid", ["piccolo_ouvert", "zwiccolo_ouvert", "triccolo_ouvert",
                                 "bettler_ouvert"])
def test_at4_ouvert_lays_the_declarers_hand_open(bid):
    """An ouvert game's declarer lays its hand open after the first trick (seed 003): from
    then on every seat knows it and every draw keeps it; during the first trick it is
    still hidden (the other seats see only what it played)."""
    rng = random.Random(f"ouvert-{bid}")
    later = parse_position(random_endgame(rng, "at4", 8, bid=bid, partial=True))
    declarer = later.contract.declarer
    for seat in range(4):
        k = seat_knowledge(later, seat)
        assert set(k.known[declarer]) == set(later.hands[declarer])
        assert k.capacity[declarer] == 0
        hands = {tuple(s["hands"][declarer]) for s in Sampler(k).positions(rng, 20)}
        assert hands == {tuple(tokens(sorted(later.hands[declarer])))}
    first = parse_position(random_endgame(rng, "at4", 12, bid=bid, partial=True))
    assert not first.tricks
    other = (first.contract.declarer + 1) % 4
    k = seat_knowledge(first, other)
    assert k.capacity[first.contract.declarer] > 0
    assert view(first, other)["open_hands"] == {}


def test_trischaken_talon_seen_trick_by_trick():
    rng = random.Random(15)
    obj = random_endgame(rng, "at4", 9, bid="trischaken", partial=True)    # trick 4 on the table
    pos = parse_position(obj)
    k = seat_knowledge(pos, 0)
    assert tokens(k.talon_seen) == obj["contract"]["talon"][:3]
    assert k.capacity[TALON] == 3
    orders = {tuple(s["contract"]["talon"][3:]) for s in Sampler(k).positions(rng, 200)}
    assert len(orders) > 1


def test_seat_out_of_range():
    pos = _fr4("")
    with pytest.raises(ValueError, match="seat"):
        seat_knowledge(pos, 4)


# -- the contract fields that say what was shown ------------------------------------------------------

@pytest.mark.parametrize("change,field", [
    ({"bid": "garde_sans", "shown_dog": "KS QS T12 3C 2C 1C".split()}, "contract.shown_dog"),
    ({"shown_dog": "KS QS T12 3C 2C".split()}, "contract.shown_dog"),
    ({"shown_dog": "KS QS T12 3C 2C 2C".split()}, "contract.shown_dog"),
    ({"shown_dog": "KD QS T12 3C 2C 1C".split()}, "contract.shown_dog[0]"),
    ({"poignees": [{"seat": 0, "level": "simple", "shown": ["T21"]}]}, "contract.poignees[0].shown"),
    ({"poignees": [{"seat": 1, "level": "simple",
                    "shown": "T1 T2 T3 T4 EX 10S 9S 8S 7S 6S".split()}]}, "contract.poignees[0].level"),
    ({"poignees": [{"seat": 0, "level": "simple",
                    "shown": "T21 T20 T19 T18 T17 T16 T15 T14 T13 KS".split()}]},
     "contract.poignees[0].shown[9]"),
    ({"poignees": [{"seat": 0, "level": "simple",
                    "shown": "T21 T20 T19 T18 T17 T16 T15 T14 T13 T1".split()}]},
     "contract.poignees[0].shown[9]"),
])
def test_shown_fields_refused(change, field):
    from atout.errors import PositionError
    with pytest.raises(PositionError) as e:
        _fr4("", **change)
    assert e.value.field == field


def test_shown_excuse_needs_every_trump():
    """Seat 1 (T1-T4 and the Excuse) cannot declare a poignée at all; seat 0 shows ten of its
    ten trumps: the Excuse may not stand in while a trump stays hidden."""
    from atout.errors import PositionError
    shown = "T21 T20 T19 T18 T17 T16 T15 T14 T13 EX".split()
    with pytest.raises(PositionError, match="Excuse"):
        hands = [
            "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 KS QS NS JS KH QH NH EX",
            "T1 T2 T3 T4 JH 10S 9S 8S 7S 6S 5S 4S 3S 2S 1S 10H 9H 8H",
            "T5 T6 T7 T8 T9 T10 T11 7H 6H 5H 4H 3H 2H 1H KD QD ND JD",
            "10D 9D 8D 7D 6D 5D 4D 3D 2D 1D KC QC NC JC 10C 9C 8C 7C"]
        parse_position({"game": "fr4", "hands": [h.split() for h in hands], "first": 0,
                        "played": [], "contract": {"taker": 0, "bid": "garde",
                                                   "dog": "6C 5C 4C 3C 2C 1C".split(),
                                                   "poignees": [{"seat": 0, "level": "simple",
                                                                 "shown": shown}]}})
