"""Random valid deals for every game and contract (``atout deal``).

>>> import random
>>> from atout.deal import random_position, random_endgame
>>> obj = random_position(random.Random(1), "fr4", "garde")            # a new deal
>>> end = random_endgame(random.Random(1), "at4", 4, bid="solorufer")  # 4 tricks left
>>> len(end["played"])
32

Every position returned parses with :func:`atout.position.parse_position` (checked
here).  A deal is shuffled and dealt by the rules of its game: the French taker's écart
holds no king nor bout (a trump only when nothing else is left), and a prise or garde
records the dog as it was shown (``shown_dog``), no hand is a petit sec,
the fr5 called card is one the taker may call, Austrian Rufer games call a king the
declarer does not hold, each Austrian contract takes, lays away or leaves the talon as the
seed says (:mod:`atout.talon`), negative games are led by the declarer.  Endgames are reached
by playing random legal cards.

Options of :func:`random_position` (all optional):

* every game: ``first`` (the leading seat, where the rules leave it free);
* fr3/fr4/fr5: ``taker``; ``chelem`` (True/False, default: rarely True);
  ``poignee_seat`` (that seat is dealt enough trumps for a poignée, which it declares,
  showing its lowest trumps);
  ``poignees=False`` (declare none);
  fr5 ``called_where`` = ``"partner"`` | ``"taker"`` | ``"dog"`` (where the called card lies);
* priest5: ``caller``, ``dealer``, ``alone`` (True/False);
* at4: ``declarer``, ``for_seat``, ``counting``, ``objective``, ``von_oben``,
  ``called_where`` = ``"partner"`` | ``"side"`` (Rufer games).
"""

from __future__ import annotations

import random
from typing import Callable

from .cards import (EXCUSE, KING, PETIT, QUEEN, CAVALIER, JACK, T21, is_trump, rank,
                    suit_card, token, tokens)
from .contract import POIGNEE_LEVELS
from .games import (AT4_BIDS, AT4_NEGATIVE_TRICKS, AT4_OBJECTIVES, AT4_RUFER, AUSTRIAN, FR_BIDS,
                    FRENCH, GAME, GAMES, PRIESTERTAROCK, game_of)
from .position import Position, parse_position
from .talon import exchange

__all__ = ["GAMES", "BIDS", "random_position", "random_endgame", "random_finished", "play_out"]

BOUTS = (PETIT, T21, EXCUSE)
KINGS = tuple(suit_card(s, KING) for s in range(4))


def _deal(rng: random.Random, game: str, stack: dict | None = None) -> tuple[list[list[int]], list[int]]:
    """Shuffle and deal: (hands, the cards outside).  ``stack`` {seat: n} gives seat n
    trumps first (a rigged deal for poignées)."""
    facts = game_of(game)
    deck = list(facts.deck)
    rng.shuffle(deck)
    seats, size = facts.seats, facts.hand_size
    hands = [[] for _ in range(seats)]
    for seat, n in (stack or {}).items():
        trumps = [c for c in deck if is_trump(c) or c == EXCUSE][:n]
        hands[seat] = trumps
        deck = [c for c in deck if c not in trumps]
    for seat in range(seats):
        need = size - len(hands[seat])
        hands[seat] += deck[:need]
        deck = deck[need:]
    return hands, deck


def _petit_sec(hand) -> bool:
    return [c for c in hand if is_trump(c) or c == EXCUSE] == [PETIT]


def random_position(rng: random.Random, game: str, bid: str | None = None, **options) -> dict:
    make = _DEAL[game_of(game).family]
    for _ in range(10000):
        obj = make(rng, game, bid, **options)
        if obj is not None:
            parse_position(obj)  # a generator bug shows up here, not in a test far away
            return obj
    raise RuntimeError(f"no {game} deal with bid={bid} and {options}")


# -- French Tarot ----------------------------------------------------------------------------

def _ecart(rng, hand: list[int], dog: list[int]) -> tuple[list[int], list[int]]:
    """The taker takes the dog and discards as many cards: no king, no bout, trumps
    only when nothing else is left.  Returns (new hand, écart)."""
    full = hand + dog
    k = len(dog)
    plain = [c for c in full if not is_trump(c) and c != EXCUSE and rank(c) != KING]
    if len(plain) >= k:
        ecart = rng.sample(plain, k)
    else:
        trumps = [c for c in full if is_trump(c) and c not in BOUTS]
        ecart = plain + rng.sample(trumps, k - len(plain))
    return [c for c in full if c not in ecart], ecart


def _french(rng, game, bid=None, *, taker=None, first=None, chelem=None, poignee_seat=None,
            called_where=None, poignees=None):
    facts = game_of(game)
    seats = facts.seats
    taker = rng.randrange(seats) if taker is None else taker
    bid = bid or rng.choice(FR_BIDS)
    stack = None
    if poignee_seat is not None:
        low, high = facts.poignee_trumps[0], facts.poignee_trumps[-1]
        stack = {poignee_seat: rng.randint(low, min(high + 1, facts.hand_size))}
    hands, dog = _deal(rng, game, stack)
    shown_dog = None
    if bid in ("prise", "garde"):
        shown_dog = dog   # turned up for everyone to see before the taker takes it
        hands[taker], dog = _ecart(rng, hands[taker], dog)
    if any(_petit_sec(h) for h in hands):
        return None  # the deal is void: deal again
    contract = {"taker": taker, "bid": bid, "dog": tokens(dog)}
    if shown_dog is not None:
        contract["shown_dog"] = tokens(shown_dog)

    if facts.taker_calls:
        called = _fr5_called(rng, hands, dog, taker, called_where)
        if called is None:
            return None
        contract["called"] = token(called)

    if chelem is None:
        chelem = rng.random() < 0.05
    if chelem:
        contract["chelem"] = True
        first = taker
    elif first is None:
        first = rng.randrange(seats)

    declared = []
    for seat in range(seats):
        shown = sum(1 for c in hands[seat] if is_trump(c) or c == EXCUSE)
        levels = [lv for lv, n in zip(POIGNEE_LEVELS, facts.poignee_trumps) if shown >= n]
        if levels and (seat == poignee_seat or rng.random() < 0.5):
            level = rng.choice(levels)
            declared.append({"seat": seat, "level": level,
                             "shown": tokens(_poignee_shown(hands[seat], facts.poignee_trumps[
                                 POIGNEE_LEVELS.index(level)]))})
    if declared and poignees is not False:
        contract["poignees"] = declared
    return {"game": game, "hands": [tokens(h) for h in hands], "first": first, "played": [],
            "contract": contract}


def _poignee_shown(hand: list[int], needed: int) -> list[int]:
    """The trumps a poignée shows: the lowest ``needed`` (no random draw, so that adding
    this field left the deals of every seed as they were); the Excuse stands in for the
    missing one only beside all the seat's trumps."""
    trumps = sorted(c for c in hand if is_trump(c))
    return trumps[:needed] if len(trumps) >= needed else trumps + [EXCUSE]


def _fr5_called(rng, hands, dog, taker, where):
    """A king (a queen/cavalier/jack only when the taker holds every card above)."""
    held = set(hands[taker])
    callable_ranks = [KING]
    for r in (KING, QUEEN, CAVALIER):
        if all(suit_card(s, r) in held for s in range(4)):
            callable_ranks.append({KING: QUEEN, QUEEN: CAVALIER, CAVALIER: JACK}[r])
        else:
            break
    # Usually the lowest rank the taker does not hold all of (the sensible call).
    r = callable_ranks[-1] if rng.random() < 0.9 else rng.choice(callable_ranks)
    options = [suit_card(s, r) for s in range(4)]
    if where == "taker":
        options = [c for c in options if c in held]
    elif where == "dog":
        options = [c for c in options if c in dog]
    elif where == "partner":
        options = [c for c in options if c not in held and c not in dog]
    return rng.choice(options) if options else None


# -- Tessiner Priestertarock ------------------------------------------------------------------

def _priest(rng, game, bid=None, *, caller=None, dealer=None, alone=None, first=None):
    hands, opened = _deal(rng, game)
    caller = rng.randrange(5) if caller is None else caller
    dealer = rng.randrange(5) if dealer is None else dealer
    contract = {"caller": caller, "dealer": dealer, "open": tokens(opened)}
    if alone is None:
        alone = rng.random() < 0.2
    if alone:
        contract["alone"] = True
    else:
        # Usually a king; sometimes any card (held by the caller, or lying open).
        pool = list(KINGS) if rng.random() < 0.7 else list(game_of(game).deck)
        contract["called"] = token(rng.choice(pool))
    return {"game": game, "hands": [tokens(h) for h in hands], "first": (dealer + 1) % 5,
            "played": [], "contract": contract}


# -- Austrian Tarock -----------------------------------------------------------------------

def _at4(rng, game, bid=None, *, declarer=None, for_seat=None, counting=None, objective=None,
         von_oben=None, called_where=None, first=None):
    bid = bid or rng.choice(AT4_BIDS)
    hands, outside = _deal(rng, game)
    counting = counting or rng.choice(("seed", "standard"))
    if bid == "trischaken":
        contract = {"bid": bid, "for_seat": rng.randrange(4) if for_seat is None else for_seat,
                    "talon": tokens(outside), "counting": counting}
        if von_oben if von_oben is not None else rng.random() < 0.3:
            contract["von_oben"] = True
        first = rng.randrange(4) if first is None else first
        return {"game": game, "hands": [tokens(h) for h in hands], "first": first,
                "played": [], "contract": contract}

    declarer = rng.randrange(4) if declarer is None else declarer
    called = None
    if bid in AT4_RUFER:
        own = set(hands[declarer])
        kings = [k for k in KINGS if k not in own] or list(KINGS)
        if called_where == "side":         # (only a Solorufer's talon stays as it lies)
            kings = [k for k in kings if k in outside and bid == "solorufer"]
        elif called_where == "partner":
            kings = [k for k in kings if k not in outside and k not in own]
        if not kings:
            return None
        called = rng.choice(kings)
    # the talon taken, laid away or left by the contract's rules (seed 003: atout.talon)
    side = exchange(rng, bid, declarer, hands, outside, called)
    contract = {"bid": bid, "declarer": declarer, "side_cards": side, "counting": counting}
    if called is not None:
        contract["called"] = token(called)
    negative = bid in AT4_NEGATIVE_TRICKS
    if negative:
        first = declarer
    elif first is None:
        first = rng.randrange(4)
    if objective is None and not negative and rng.random() < 0.4:
        allowed = [o for o in AT4_OBJECTIVES if o != "koenig_ultimo" or bid in AT4_RUFER]
        objective = rng.choice(allowed)
    if objective is not None:
        contract["objective"] = objective
    return {"game": game, "hands": [tokens(h) for h in hands], "first": first, "played": [],
            "contract": contract}


#: each rulebook's deals
_DEAL = {FRENCH: _french, PRIESTERTAROCK: _priest, AUSTRIAN: _at4}

#: the bids of each game (priest5 has none: its contract is a call or playing alone), as
#: ``atout deal --bid`` offers them
BIDS = {name: g.bids for name, g in GAME.items()}


# -- playing random cards ----------------------------------------------------------------------

Policy = Callable[[random.Random, Position, list], int]


def uniform_policy(rng: random.Random, pos: Position, legal: list) -> int:
    return rng.choice(legal)


def play_out(rng: random.Random, pos: Position, cards: int, policy: Policy | None = None) -> None:
    """Play ``cards`` cards (legal, chosen by ``policy``) on ``pos``."""
    policy = policy or uniform_policy
    for _ in range(cards):
        pos.play(policy(rng, pos, pos.legal_cards()))


def random_endgame(rng: random.Random, game: str, tricks_left: int, bid: str | None = None,
                   partial: bool = False, policy: Policy | None = None,
                   accept: Callable[[Position], bool] | None = None, tries: int = 10000,
                   **options) -> dict:
    """A random deal played with legal cards until exactly ``tricks_left`` tricks remain
    (``partial``: then 1..seats-1 cards of the next trick are on the table as well).
    Deals are drawn again until ``accept(position)`` holds."""
    facts = game_of(game)
    seats, size = facts.seats, facts.hand_size
    if not 0 <= tricks_left <= size or (partial and tricks_left == 0):
        raise ValueError("tricks_left out of range")
    for _ in range(tries):
        obj = random_position(rng, game, bid, **options)
        pos = parse_position(obj)
        n = (size - tricks_left) * seats + (rng.randrange(1, seats) if partial else 0)
        play_out(rng, pos, n, policy)
        if accept is None or accept(pos):
            obj["played"] = tokens(pos.played)
            return obj
    raise RuntimeError(f"no acceptable {game} endgame in {tries} deals")


def random_finished(rng: random.Random, game: str, bid: str | None = None, **kwargs) -> dict:
    """A whole random deal, played to the end."""
    return random_endgame(rng, game, 0, bid, **kwargs)
