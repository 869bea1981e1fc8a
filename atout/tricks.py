"""Playing a trick: which cards are legal, and who wins (docs/rules.md, every game).

A trick is a list of ``(seat, card)`` in playing order.  These functions are the
readable reference of the trick rules; the Cython search implements the same
rules on bitmasks and is checked against them.
"""

from __future__ import annotations

from .cards import EXCUSE, PETIT, T21, TAROCK, Card, is_trump
from .games import EXCUSE_FRENCH, EXCUSE_NARR, Rules

Trick = list  # [(seat, card), ...]


def led_suit(rules: Rules, trick: Trick) -> int | None:
    """The suit the trick asks for, or None while nothing sets it.

    fr: a led Excuse lets the second card set the suit.  priest5: a led Narr asks
    for tarock; players without tarock then follow the second card's suit.
    """
    if not trick:
        return None
    first = trick[0][1]
    if first == EXCUSE and rules.excuse == EXCUSE_FRENCH:
        return rules.suit(trick[1][1]) if len(trick) > 1 else None
    return rules.suit(first)


def _beats(rules: Rules, c: Card, best: Card) -> bool:
    """Card c beats the card best currently winning (no Excuse/Narr, no Trull here)."""
    cs, bs = rules.suit(c), rules.suit(best)
    if rules.trumps_win:
        if cs == TAROCK and bs != TAROCK:
            return True
        if bs == TAROCK and cs != TAROCK:
            return False
    if cs != bs:
        return False
    return rules.power[c] > rules.power[best]


def _never_wins(rules: Rules, c: Card) -> bool:
    return c == EXCUSE and rules.excuse in (EXCUSE_FRENCH, EXCUSE_NARR)


def winning_index(rules: Rules, trick: Trick) -> int | None:
    """Index in ``trick`` of the card winning it so far (None: only an Excuse/Narr).

    Ignores the French slam case, which :func:`trick_winner` adds for a last trick.
    """
    # The first card that can win leads the count: after a led Excuse or Narr, which never
    # wins, the second card's suit is the one to beat (and tarock beats it where trumps win).
    best = None
    for i, (_, c) in enumerate(trick):
        if _never_wins(rules, c):
            continue
        if best is None:
            best = i
        elif _beats(rules, c, trick[best][1]):
            best = i
    if rules.trull and best is not None:
        cards = [c for _, c in trick]
        if PETIT in cards and T21 in cards and EXCUSE in cards:
            best = cards.index(PETIT)
    return best


def legal_cards(rules: Rules, hand: set[Card] | frozenset, trick: Trick, trick_no: int) -> list[Card]:
    """The cards of ``hand`` that may be played now (sorted), ``trick_no`` 0-based."""
    hand = sorted(hand)
    if not trick:
        return _lead_cards(rules, hand, trick_no)
    if rules.excuse == EXCUSE_FRENCH:
        cands = _follow_french(rules, hand, trick)
    elif rules.excuse == EXCUSE_NARR:
        cands = _follow_priest(rules, hand, trick)
    else:
        cands = _follow_at4(rules, hand, trick)
    if rules.must_beat:
        best = winning_index(rules, trick)
        beating = [c for c in cands if best is None
                   or winning_index(rules, trick + [(-1, c)]) == len(trick)]
        cands = beating or cands
    return cands


def _lead_cards(rules: Rules, hand: list[Card], trick_no: int) -> list[Card]:
    cands = hand
    if rules.called_card is not None and trick_no == 0:
        # fr5: the called suit may not be led to the first trick, except the called card.
        called_suit = rules.suit(rules.called_card)
        cands = [c for c in hand if rules.suit(c) != called_suit or c == rules.called_card]
    if rules.colour_lead and any(not rules.is_tarock(c) for c in hand):
        cands = [c for c in hand if not rules.is_tarock(c)]
    if rules.pagat_last:
        cands = _pagat_last(rules, hand, cands)
    if rules.top_tarock_lead:
        tarocks = [c for c in hand if rules.is_tarock(c)]
        if tarocks:
            cands = [max(tarocks, key=lambda c: rules.power[c])]
    return cands or hand


def _pagat_last(rules: Rules, hand: list[Card], cands: list[Card]) -> list[Card]:
    if PETIT in cands and sum(1 for c in hand if rules.is_tarock(c)) > 1:
        return [c for c in cands if c != PETIT]
    return cands


def _follow_french(rules: Rules, hand: list[Card], trick: Trick) -> list[Card]:
    led = led_suit(rules, trick)
    if led is None:  # only the Excuse so far: anything goes
        return hand
    excuse = [c for c in hand if c == EXCUSE]
    if led != TAROCK:
        follow = [c for c in hand if rules.suit(c) == led]
        if follow:
            return follow + excuse
    trumps = [c for c in hand if is_trump(c)]
    if trumps:
        top = max((rules.power[c] for _, c in trick if is_trump(c)), default=0) if rules.overtrump else 0
        over = [c for c in trumps if rules.power[c] > top]
        return (over or trumps) + excuse
    return hand


def _follow_priest(rules: Rules, hand: list[Card], trick: Trick) -> list[Card]:
    tarocks = [c for c in hand if rules.is_tarock(c)]  # the Narr counts as one
    if trick[0][1] == EXCUSE:
        # A led Narr: tarock if able; else follow the second card if it is a suit card.
        if tarocks:
            return tarocks
        if len(trick) > 1 and not rules.is_tarock(trick[1][1]):
            follow = [c for c in hand if rules.suit(c) == rules.suit(trick[1][1])]
            if follow:
                return follow
        return hand
    led = rules.suit(trick[0][1])
    if led != TAROCK:
        follow = [c for c in hand if rules.suit(c) == led]
        if follow:
            return follow
    return tarocks or hand


def _follow_at4(rules: Rules, hand: list[Card], trick: Trick) -> list[Card]:
    led = rules.suit(trick[0][1])
    cands = [c for c in hand if rules.suit(c) == led]
    if not cands:
        cands = [c for c in hand if rules.is_tarock(c)] or hand
    if rules.pagat_last:
        cands = _pagat_last(rules, hand, cands)
    return cands
