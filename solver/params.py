"""From a :class:`~atout.position.Position` to the rule parameters of the C search.

The search knows no game by name: everything it needs — camps, card points, which
trick rules apply, what the final value is — is written here, from the same
:class:`~atout.games.Rules` and :class:`~atout.contract.Contract` that the
readable rules engine uses.  Cards become codes ``suit * 32 + bit`` (see
``_search.pyx``).
"""

from __future__ import annotations

from atout.cards import EXCUSE, PETIT, T21, TAROCK, Card, is_trump, trump
from atout.contract import POIGNEE_BONUS, Contract
from atout.games import (AT4_BIRD, AT4_NEGATIVE_TRICKS, AT4_ULTIMO, EXCUSE_FRENCH, EXCUSE_NARR,
                         Rules, bird_trick)
from atout.position import Position

KIND_FRENCH, KIND_PRIEST, KIND_AT4, KIND_TRISCHAKEN = 0, 1, 2, 3
EX_FRENCH, EX_NARR, EX_SKUS = 0, 1, 2
GOAL_POINTS, GOAL_NEGATIVE, GOAL_BIRD_GAME, GOAL_VOLAT, GOAL_ULTIMO, GOAL_KOENIG = range(6)

def code_of(rules: Rules, c: Card) -> int:
    """The search's code of a card: its suit (tarock 4) and its strength in that suit."""
    suit = TAROCK if (is_trump(c) or c == EXCUSE) else c // 14
    bit = 21 if c == EXCUSE else rules.power[c] - 1
    return suit * 32 + bit


def card_of_code(rules: Rules) -> dict[int, Card]:
    return {code_of(rules, c): c for c in rules.deck}


def engine_params(position: Position) -> dict:
    """The parameters of :class:`Engine` for the START of play of ``position``.

    The cards already played are replayed by the engine itself (``Engine.play``), so
    what each camp has won so far is counted by the same code that searches.
    """
    contract: Contract = position.contract
    rules = position.rules
    game = position.game

    points = [[0] * 32 for _ in range(5)]
    for c in rules.deck:
        code = code_of(rules, c)
        points[code >> 5][code & 31] = rules.points[c]
    special = [0] * 5
    for c in (PETIT, T21, EXCUSE):
        code = code_of(rules, c)
        special[code >> 5] |= 1 << (code & 31)

    p = dict(kind=KIND_FRENCH, seats=rules.seats, tricks=rules.hand_size, maxcamp=contract.maximizer,
             excuse={EXCUSE_FRENCH: EX_FRENCH, EXCUSE_NARR: EX_NARR}.get(rules.excuse, EX_SKUS),
             trumps_win=int(rules.trumps_win), overtrump=int(rules.overtrump),
             must_beat=int(rules.must_beat), pagat_last=int(rules.pagat_last),
             trull=int(rules.trull), colour_lead=int(rules.colour_lead),
             top_lead=int(rules.top_tarock_lead), called_code=-1,
             narr_last_trick=rules.narr_last_trick, total_points=sum(rules.points[c] for c in rules.deck),
             multiplier=1, poignee=0, chelem_announced=0, standard=int(contract.counting == "standard"),
             goal=GOAL_POINTS, goal_tricks=0, bird_code=-1, bird_trick=-1, koenig_code=-1,
             talon_points=[], camp=list(contract.camp), points=points)

    if game in ("fr4", "fr3", "fr5"):
        bonuses = [POIGNEE_BONUS[level] for _, level in contract.poignees]
        p.update(multiplier=contract.multiplier, chelem_announced=int(contract.chelem),
                 poignee=max(bonuses, default=0) if game == "fr5" else sum(bonuses))
        if rules.called_card is not None:
            p["called_code"] = code_of(rules, rules.called_card)
    elif game == "priest5":
        p["kind"] = KIND_PRIEST
    elif contract.bid == "trischaken":
        p.update(kind=KIND_TRISCHAKEN, talon_points=[rules.points[c] for c in contract.talon])
    else:
        p["kind"] = KIND_AT4
        bird = None
        if contract.objective == "volat":
            p["goal"] = GOAL_VOLAT
        elif contract.objective in AT4_ULTIMO:
            p["goal"], bird = GOAL_ULTIMO, AT4_ULTIMO[contract.objective]
        elif contract.objective == "koenig_ultimo":
            p.update(goal=GOAL_KOENIG, koenig_code=code_of(rules, contract.called))
        elif contract.bid in AT4_NEGATIVE_TRICKS:
            p.update(goal=GOAL_NEGATIVE, goal_tricks=AT4_NEGATIVE_TRICKS[contract.bid])
        elif contract.bid in AT4_BIRD:
            p["goal"], bird = GOAL_BIRD_GAME, AT4_BIRD[contract.bid]
        if bird is not None:
            p.update(bird_code=code_of(rules, trump(bird)), bird_trick=bird_trick(bird) - 1)
    # Cards whose identity matters beyond points and rank are never merged.
    for key in ("called_code", "bird_code", "koenig_code"):
        if p[key] >= 0:
            special[p[key] >> 5] |= 1 << (p[key] & 31)
    p["special"] = special
    p.update(_classes(rules, points, special,
                      counts_points=p["kind"] != KIND_AT4 or p["goal"] in (GOAL_POINTS, GOAL_BIRD_GAME)))
    p["state"] = start_state(position)
    return p


def start_state(position: Position) -> dict:
    """The ``state`` part of :func:`engine_params`: the hands at the start of play and what
    each camp holds before it (the écart, a talon's side cards).  Alone, for a deal that
    differs from another only there (a garde's écarts: ``Engine.rebase``)."""
    contract: Contract = position.contract
    rules = position.rules
    hands = []
    for h in position.hands:
        masks = [0] * 5
        for c in h:
            code = code_of(rules, c)
            masks[code >> 5] |= 1 << (code & 31)
        hands.append(masks)
    pts, cards, bouts = [0, 0], [0, 0], [0, 0]
    for camp, outside in enumerate(contract.outside):
        pts[camp] = sum(rules.points[c] for c in outside)
        cards[camp] = len(outside)
        bouts[camp] = sum(1 for c in outside if c in (PETIT, T21, EXCUSE))
    return dict(hand=hands, leader=position.first, trick_no=0, trick=[], pts=pts, cards=cards,
                tricks=[0, 0], bouts=bouts if position.game.startswith("fr") else [0, 0], pab=0,
                petit_prev=0, flags=0)


def _classes(rules: Rules, points: list[list[int]], special: list[int], counts_points: bool) -> dict:
    """What tells cards apart for the search beyond their rank.

    ``value_points``: the card points as far as the value counts them (all 0 when it
    counts only tricks or birds: at4 negative games, volat, ultimo objectives).
    ``cls``: 0 for a *plain* card — not special, worth the commonest (lowest) points —
    which a table pattern may exchange for another plain card of its suit held by the
    same seat; every other card (honours, bouts, called cards) a class of its own.
    """
    value_points = [[pts if counts_points else 0 for pts in row] for row in points]
    deck = [0] * 5
    for c in rules.deck:
        code = code_of(rules, c)
        deck[code >> 5] |= 1 << (code & 31)
    ordinary = [value_points[k][b] for k in range(5) for b in range(32)
                if (deck[k] >> b) & 1 and not (special[k] >> b) & 1]
    plain_points = min(ordinary)
    cls = [[0] * 32 for _ in range(5)]
    for k in range(5):
        for b in range(32):
            if (deck[k] >> b) & 1 and ((special[k] >> b) & 1 or value_points[k][b] != plain_points):
                cls[k][b] = b + 1
    return dict(value_points=value_points, cls=cls)
