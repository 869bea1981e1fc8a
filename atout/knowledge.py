"""What one seat knows at a position: the deals it cannot tell from the true one.

A seat sees its own hand, every card played and by whom, the public part of the contract
and, by game and contract, some of the cards outside the hands (docs/single-dummy.md has
the list).  :func:`view` writes all of that down, and it is the definition this module
compiles: a deal is **consistent** for a seat when it is a valid position (the same
contract, the same cards played) and the seat's view of it is the same as of the true
deal.

:func:`seat_knowledge` turns a view into what a sampler can count (:mod:`atout.sampler`):

* ``known``: the cards whose place the seat knows — its hand, the cards played (each was in
  its player's hand when play began), a hand laid open (an at4 ouvert game's declarer's,
  after the first trick), the outside cards it saw, the trumps shown for a poignée, the fr5
  kings a called queen proves the taker holds;
* ``hidden``: every other card, and for each the places it may lie in (``allowed``): a
  *place* is a seat's hand at the start of play (0, 1, …) or a pile outside the hands
  (``"dog"``, ``"talon"``, ``"side:<seat>"``).  The play rules out places: a seat that did
  not follow, did not trump or did not overtrump held none of the cards that would have
  made its card illegal — asked of :func:`atout.tricks.legal_cards` card by card;
* ``capacity``: how many hidden cards each place holds;
* the rules that tie cards together: a poignée declared without saying which trumps were
  shown (``at_least``: that seat held enough trumps), no petit sec in French Tarot, and
  the Austrian called king (``alternatives``: the deal lies in exactly one of a few cases).

>>> import random
>>> from atout.deal import random_endgame
>>> from atout.position import parse_position
>>> pos = parse_position(random_endgame(random.Random(3), "fr4", 4))
>>> k = seat_knowledge(pos, pos.to_play)
>>> sum(k.capacity.values()) == len(k.hidden)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import (EXCUSE, JACK, KING, PETIT, QUEEN, CAVALIER, Card, card, is_trump, rank,
                    suit_card, tokens)
from .contract import poignee_needed
from .games import AT4_NEGATIVE_TRICKS, AT4_RUFER, AUSTRIAN, FRENCH, PRIESTERTAROCK, Game
from .position import Position
from .talon import TALON_RUFER, _first_choice, may_lay_away, takes
from .tricks import legal_cards

__all__ = ["Knowledge", "Case", "seat_knowledge", "view", "piles", "seen_outside", "laid_open",
           "DOG", "TALON", "OPEN", "side_place"]

Place = Any   # a seat (int) or a pile outside the hands (str)

DOG, TALON, OPEN = "dog", "talon", "open"

#: at4 contracts whose talon was taken up blind by the players, who each discarded as many
#: cards (seed 003: Rufer games take 4 + 1 + 1, Sechser games 6): each seat saw its own
#: discard, the side cards listed under its seat
AT4_TALON_OWN = ("vorhandrufer", "farbenrufer", "pagatrufer", "uhurufer", "kakadurufer",
                 "maraburufer", "farbensechser", "sechserdreier")
#: at4 contracts whose talon was laid open in two halves (Dreier games): the half left to
#: the opponents was seen by all, the declarer's discard by the declarer alone
AT4_TALON_OPEN = ("dreier", "farbendreier")
# Every other at4 contract (solo and negative games) leaves the talon unseen until the end.
#: at4 contracts whose declarer lays its hand open after the first trick, for all to see
#: (seed 003: "nach dem 1. Stich werden alle Karten offen aufgelegt (nicht Talon)")
AT4_OUVERT = tuple(bid for bid in AT4_NEGATIVE_TRICKS if bid.endswith("_ouvert"))

TRUMPS_AND_EXCUSE = frozenset(range(PETIT, EXCUSE + 1))


def side_place(key: str) -> str:
    """The place of the at4 side cards listed under seat ``key`` ("0".."3")."""
    return f"side:{key}"


@dataclass(frozen=True)
class Case:
    """One of several exclusive shapes a deal may have: ``allowed`` narrows where some
    hidden cards may lie, ``at_least`` adds counts to meet."""

    allowed: tuple = ()      # ((card, frozenset of places), ...)
    at_least: tuple = ()     # ((place, frozenset of cards, count), ...)


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows at a position (see the module's docstring)."""

    seat: int
    game: str
    #: the position as the seat can write it down: every field but the hidden cards (the
    #: outside piles are filled in again by the sampler)
    template: dict
    #: every place, seats first
    places: tuple
    #: place -> the cards the seat knows lie there at the start of play
    known: dict
    #: place -> how many hidden cards lie there
    capacity: dict
    #: the cards the seat cannot place, sorted
    hidden: tuple
    #: hidden card -> frozenset of the places it may lie in
    allowed: dict
    #: ((place, frozenset of hidden cards, count), ...): that place holds at least count of them
    at_least: tuple
    #: a tuple of alternatives, each a tuple of exclusive :class:`Case`: every consistent deal
    #: fits exactly one case of each
    alternatives: tuple
    #: Trischaken: the talon cards the seat has seen, in their order (the rest follow)
    talon_seen: tuple = ()

    def is_consistent(self, deal: dict) -> bool:
        """Whether ``deal`` (place -> the hidden cards there) meets every constraint here:
        the sampler's own check, independent of how it counts."""
        where = {}
        for place, cards in deal.items():
            if len(cards) != self.capacity.get(place, -1):
                return False
            for c in cards:
                where[c] = place
        if sorted(where) != list(self.hidden):
            return False
        if any(where[c] not in self.allowed[c] for c in self.hidden):
            return False
        if not _meets(self.at_least, where):
            return False
        for choice in self.alternatives:
            fitting = [case for case in choice
                       if all(where[c] in places for c, places in case.allowed)
                       and _meets(case.at_least, where)]
            if len(fitting) != 1:
                return False
        return True


def _meets(at_least, where) -> bool:
    return all(sum(1 for c in cards if where[c] == place) >= count
               for place, cards, count in at_least)


# -- the piles outside the hands -----------------------------------------------------------

def piles(position: Position) -> dict:
    """The cards outside the hands by place, as the position holds them (the truth)."""
    return _PILES[position.rules.facts.family](position.contract)


def _austrian_piles(con) -> dict:
    if con.bid == "trischaken":
        return {TALON: tuple(con.talon)}
    return {side_place(k): tuple(card(t) for t in v)
            for k, v in sorted(con.raw["side_cards"].items())}


#: each rulebook's piles outside the hands
_PILES = {FRENCH: lambda con: {DOG: tuple(card(t) for t in con.raw["dog"])},
          PRIESTERTAROCK: lambda con: {OPEN: tuple(card(t) for t in con.raw["open"])},
          AUSTRIAN: _austrian_piles}


def seen_outside(position: Position, seat: int) -> dict:
    """The outside cards ``seat`` has seen, by place (docs/single-dummy.md)."""
    con = position.contract
    out = {}
    for place, cards in piles(position).items():
        if place == DOG:
            if con.bid in ("prise", "garde"):
                # the taker made the écart; trumps discarded are shown to everyone
                seen = cards if seat == con.declarer else tuple(c for c in cards if is_trump(c))
            else:
                seen = ()       # garde sans, garde contre: the dog stays face down
        elif place == OPEN:
            seen = cards
        elif place == TALON:
            # Trischaken: each of tricks 1-6 takes one talon card, seen once the trick is won
            seen = cards[:min(len(cards), len(position.tricks))]
        else:
            key = int(place.split(":")[1])
            # cards of the kind laid away only when too few of the other may go are laid
            # away openly (seed 003: "müssen ... offen abgelegt werden"), for all to see
            shown = tuple(c for c in cards if not _first_choice(con.bid, c))
            if con.bid in AT4_TALON_OWN:
                seen = cards if key == seat else shown
            elif con.bid in AT4_TALON_OPEN:
                seen = cards if (key != con.declarer or seat == con.declarer) else shown
            else:
                seen = ()
        out[place] = tuple(seen)
    return out


def laid_open(position: Position) -> dict:
    """The hands laid open for every seat to see, {seat: its cards at the start of play}:
    an at4 ouvert game's declarer's once the first trick is over (docs/single-dummy.md)."""
    con = position.contract
    if con.bid in AT4_OUVERT and position.tricks:
        return {con.declarer: tuple(sorted(position.hands[con.declarer]))}
    return {}


# -- the view: the definition of a consistent deal ---------------------------------------------

def _hidden_fields(facts: Game) -> tuple[str, ...]:
    """The contract fields that hold hidden cards (the rest of the contract is public): its
    cards outside the hands, unless they lie face up."""
    return () if facts.outside_seen else facts.contract_outside


def view(position: Position, seat: int) -> dict:
    """Everything ``seat`` has seen of ``position``, as plain JSON: two valid deals with
    the same contract and the same cards played are consistent for ``seat`` exactly when
    their views are equal."""
    hidden = _hidden_fields(position.rules.facts)
    contract = {k: v for k, v in position.contract.raw.items() if k not in hidden}
    seen = seen_outside(position, seat)
    outside = {}
    for place, cards in piles(position).items():
        shown = seen[place]
        outside[place] = {"size": len(cards),
                          "seen": tokens(shown) if place == TALON else sorted(tokens(shown))}
    return {"game": position.game, "seat": seat, "first": position.first,
            "played": tokens(position.played), "hand": sorted(tokens(position.hands[seat])),
            "contract": contract, "outside": outside,
            "open_hands": {str(s): tokens(cards) for s, cards in laid_open(position).items()}}


# -- compiling a view into constraints ---------------------------------------------------------

def seat_knowledge(position: Position, seat: int) -> Knowledge:
    """What ``seat`` knows at ``position`` (a valid one), as constraints.

    Reads only what :func:`view` holds, the rules of the game and the consequences of the
    position being valid (docs/rules.md "Input that is refused"), never where the hidden cards
    really are."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < position.seats:
        raise ValueError(f"seat must be a seat number 0..{position.seats - 1}")
    rules, con, game = position.rules, position.contract, position.game
    seats = position.seats
    pile_cards = piles(position)
    seen = seen_outside(position, seat)
    places: tuple = tuple(range(seats)) + tuple(pile_cards)
    size = {p: rules.hand_size for p in range(seats)}
    size.update({p: len(cs) for p, cs in pile_cards.items()})

    where: dict[Card, Place] = {}

    def know(c: Card, place: Place) -> None:
        assert where.get(c, place) == place, f"card {c} in two places"
        where[c] = place

    for c in position.hands[seat]:
        know(c, seat)
    for shower, cards in laid_open(position).items():
        for c in cards:
            know(c, shower)
    plays = _plays(position)
    for player, c, _, _ in plays:
        know(c, player)
    for place, cards in seen.items():
        for c in cards:
            know(c, place)
    poignee_shown = dict(con.poignee_shown)
    for shower, cards in poignee_shown.items():
        for c in cards:
            know(c, shower)
    if rules.facts.called_ladder and con.called is not None and rank(con.called) < KING:
        # a queen is called only by a taker holding the four kings, and so on (docs/rules.md)
        for r in (KING, QUEEN, CAVALIER, JACK):
            if r <= rank(con.called):
                break
            for s in range(4):
                know(suit_card(s, r), con.declarer)

    hidden = tuple(sorted(c for c in rules.deck if c not in where))
    known = {p: tuple(sorted(c for c, q in where.items() if q == p)) for p in places}
    capacity = {p: size[p] - len(known[p]) for p in places}
    assert sum(capacity.values()) == len(hidden) and min(capacity.values()) >= 0
    open_places = frozenset(p for p in places if capacity[p] > 0)
    allowed = {c: set(open_places) for c in hidden}

    def ban(place: Place, cards) -> None:
        for c in cards:
            if c in allowed:
                allowed[c].discard(place)

    # What the play revealed: a seat held none of the cards that would have made its card
    # illegal (the trick rules of every game have this shape: tests/test_knowledge.py).
    for player, c, trick, trick_no in plays:
        if player == seat:
            continue
        maybe = [x for x in hidden if player in allowed[x]]
        if c in legal_cards(rules, {c, *maybe}, trick, trick_no):
            continue        # legal beside every card the seat might hold: it reveals nothing
        ban(player, [x for x in maybe if c not in legal_cards(rules, {c, x}, trick, trick_no)])

    taker = con.declarer
    if DOG in pile_cards and con.bid in ("prise", "garde") and seat != taker:
        # The écart holds no king and no bout, and its trumps were all shown.
        ban(DOG, [c for c in hidden if is_trump(c) or c == EXCUSE or rank(c) == KING])
        if any(is_trump(c) for c in known[DOG]):
            # a trump is discarded only when the taker could discard nothing else
            ban(taker, [c for c in hidden if not is_trump(c) and c != EXCUSE and rank(c) != KING])
        for c in con.shown_dog:
            if c in allowed:
                allowed[c] &= {taker, DOG}
    for shower, cards in poignee_shown.items():
        if EXCUSE in cards:
            # the Excuse stands in for a trump only beside all the seat's trumps
            ban(shower, [c for c in hidden if is_trump(c)])

    at_least = []
    alternatives = []
    if rules.facts.petit_sec_void:      # French Tarot: its poignées, and no petit sec
        hidden_te = frozenset(c for c in hidden if c in TRUMPS_AND_EXCUSE)
        for shower, level in con.poignees:
            if shower == seat or shower in poignee_shown:
                continue
            needed = poignee_needed(game, level)
            missing = needed - sum(1 for c in known[shower] if c in TRUMPS_AND_EXCUSE)
            if missing > 0:
                at_least.append((shower, hidden_te, missing))
        # No hand is a petit sec (T1 its only trump, the Excuse counting as one).
        others = hidden_te - {PETIT}

        def may_be_sec(s: Place) -> bool:
            return (isinstance(s, int) and s != seat
                    and not any(c in TRUMPS_AND_EXCUSE and c != PETIT for c in known[s]))

        if PETIT in where:
            if may_be_sec(where[PETIT]):
                at_least.append((where[PETIT], others, 1))
        elif any(may_be_sec(p) for p in allowed[PETIT]):
            alternatives.append(tuple(
                Case(allowed=((PETIT, frozenset({p})),),
                     at_least=((p, others, 1),) if may_be_sec(p) else ())
                for p in sorted(allowed[PETIT], key=str)))
    if "side_cards" in con.raw:         # at4 but Trischaken: what the talon rules tell
        _talon_rules(con, seat, pile_cards, known, hidden, allowed, ban)
    if con.bid in AT4_RUFER and con.bid not in TALON_RUFER and seat != con.declarer:
        # A Solorufer calls a king the declarer does not hold, unless it holds all four (a
        # Rufer with talon may hold it: taken from the talon).
        declarer, called = con.declarer, con.called
        kings = [suit_card(s, KING) for s in range(4)]
        all_kings = Case(allowed=tuple((k, frozenset({declarer})) for k in kings if k in allowed))
        if called in where:
            if where[called] == declarer:
                for k in kings:
                    if k in allowed:
                        allowed[k] &= {declarer}
        else:
            cases = [Case(allowed=((called, frozenset(allowed[called] - {declarer})),))]
            if all(where.get(k, declarer) == declarer for k in kings):
                cases.append(all_kings)
            alternatives.append(tuple(cases))

    template = {"game": game, "first": position.first, "played": tokens(position.played),
                "contract": {k: v for k, v in con.raw.items()
                             if k not in _hidden_fields(rules.facts)}}
    return Knowledge(seat=seat, game=game, template=template, places=places, known=known,
                     capacity=capacity, hidden=hidden,
                     allowed={c: frozenset(ps) for c, ps in allowed.items()},
                     at_least=tuple(at_least), alternatives=tuple(alternatives),
                     talon_seen=seen.get(TALON, ()))


def _talon_rules(con, seat: int, pile_cards: dict, known: dict, hidden: tuple, allowed: dict,
                 ban) -> None:
    """What the seed's talon rules (:mod:`atout.talon`) tell a seat of the hidden cards:
    nothing is laid away that may not be, a card of the second kind only openly (so the
    hidden ones lie elsewhere) and only by a seat left with none of the first kind; a
    Solorufer's talon counts for the opponents, the called king lying in it for the
    declarer — so the seat a pile is listed under is no partner."""
    declarer = con.declarer
    for s in takes(con.bid, declarer):
        place = f"side:{s}"
        if s == seat or place not in pile_cards:
            continue                    # (its own: it knows it)
        ban(place, [c for c in hidden if not may_lay_away(c)])
        ban(place, [c for c in hidden if not _first_choice(con.bid, c)])
        if any(not _first_choice(con.bid, c) for c in known[place]):
            ban(s, [c for c in hidden if _first_choice(con.bid, c)])
    if con.bid == "solorufer":
        mine = f"side:{declarer}"
        if mine in pile_cards:          # the called king, and it alone
            if con.called in allowed:
                allowed[con.called] &= {mine}
            ban(mine, [c for c in hidden if c != con.called])
        else:
            if con.called in allowed:
                allowed[con.called] -= {p for p in pile_cards}
                allowed[con.called] -= {int(p.split(":")[1]) for p in pile_cards}


def _plays(position: Position) -> list:
    """(seat, card, the trick before it, trick number) for every card played."""
    out = []
    for no, trick in enumerate(position.tricks):
        for i, (s, c) in enumerate(trick.cards):
            out.append((s, c, list(trick.cards[:i]), no))
    for i, (s, c) in enumerate(position.trick):
        out.append((s, c, list(position.trick[:i]), len(position.tricks)))
    return out
