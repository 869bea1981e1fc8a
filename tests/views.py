"""The deals a seat cannot tell from the true one, straight from the definition of
docs/single-dummy.md (for tests of atout/knowledge.py, atout/sampler.py and advise).

    consistent_deals(pos, seat) -> [position object]: deal the cards the seat's view does
        not show in every way, keep the valid ones with the same view
    ways(pos, seat) -> int: in how many ways those cards can be dealt (valid or not)
    deal_key(obj) -> a hashable key of a whole deal
"""

from __future__ import annotations

import itertools
import math

from atout.cards import card, tokens
from atout.knowledge import DOG, TALON, piles, view
from atout.position import parse_position


def _unseen(pos, seat):
    """What the view leaves open: {place: the cards seen there}, {place: its size}, and the
    cards not seen anywhere."""
    seen_view = view(pos, seat)
    places = {s: [] for s in range(pos.seats)}
    places[seat] = list(pos.hands[seat])
    for s, c in [sc for t in pos.tricks for sc in t.cards] + list(pos.trick):
        if s != seat:
            places[s].append(c)
    for shower, cards in pos.contract.poignee_shown:
        places[shower] += [c for c in cards if c not in places[shower]]
    for place, info in seen_view["outside"].items():
        places[place] = [card(t) for t in info["seen"]]
    sizes = {s: pos.rules.hand_size for s in range(pos.seats)}
    sizes.update({p: len(cs) for p, cs in piles(pos).items()})
    visible = {c for cs in places.values() for c in cs}
    return places, sizes, [c for c in pos.rules.deck if c not in visible]


def ways(pos, seat) -> int:
    """In how many ways the unseen cards can be dealt (valid or not)."""
    places, sizes, unseen = _unseen(pos, seat)
    ways = math.factorial(len(unseen))
    for p in places:
        if p != TALON:
            ways //= math.factorial(sizes[p] - len(places[p]))
    return ways


def consistent_deals(pos, seat) -> list[dict]:
    """Every deal consistent for ``seat``, straight from the definition: deal the cards the
    view does not show in every way, keep the valid ones with the same view."""
    seen_view = view(pos, seat)
    places, sizes, unseen = _unseen(pos, seat)
    order = list(places)
    out = []

    def fill(i, left, chosen):
        if i == len(order):
            out.append(dict(chosen))
            return
        p = order[i]
        need = sizes[p] - len(places[p])
        picks = (itertools.permutations if p == TALON else itertools.combinations)(left, need)
        for pick in picks:
            chosen[p] = places[p] + list(pick)
            fill(i + 1, [c for c in left if c not in pick], chosen)

    fill(0, unseen, {})
    good = []
    for deal in out:
        obj = {"game": pos.game, "first": pos.first, "played": tokens(pos.played),
               "hands": [tokens(deal[s]) for s in range(pos.seats)],
               "contract": dict(pos.contract.raw)}
        for p in piles(pos):
            if p == DOG:
                obj["contract"]["dog"] = tokens(deal[p])
            elif p == TALON:
                obj["contract"]["talon"] = tokens(deal[p])
            elif p.startswith("side:"):
                obj["contract"]["side_cards"] = dict(obj["contract"]["side_cards"])
                obj["contract"]["side_cards"][p.split(":")[1]] = tokens(deal[p])
        try:
            drawn = parse_position(obj)
        except ValueError:
            continue
        if view(drawn, seat) == seen_view:
            good.append(obj)
    return good


def deal_key(obj) -> tuple:
    c = obj["contract"]
    return (tuple(tuple(sorted(h)) for h in obj["hands"]), tuple(sorted(c.get("dog", []))),
            tuple(c.get("talon", [])),
            tuple(sorted((k, tuple(sorted(v))) for k, v in c.get("side_cards", {}).items())))
