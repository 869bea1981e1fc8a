"""Every écart a French Tarot taker could make, as few as the play can tell apart.

A taker of a ``prise`` or ``garde`` takes the dog into its hand and puts as many cards
aside: no king, no bout, a trump only when too few other cards may go (docs/rules.md).  The
contract table (:mod:`atout.contract_table`) asks whether *some* écart makes the contract,
so it needs every écart — thousands in ``fr4`` (six of 15 to 22 cards) — but many of them
make the same game: discarding the 3♥ or the 5♥ is the same when every heart between them
is the taker's, since the cards the taker keeps then stand in the same order against the
other seats' cards, with the same points.

:func:`ecart_classes` gives one écart per such class.  Two écarts are in one class when,
suit by suit, the cards left in play read the same from the lowest to the highest — who
holds each and what it is worth — and the écarts are worth the same: a renaming of cards
that keeps every order, owner and point then turns one game into the other, so both have
the same value.  Cards whose identity the rules name (the bouts, the ``fr5`` called card,
a card the play shows: ``fixed``) keep their names.  Each class comes with its most
promising écart first and the classes in a taker's order of preference (:func:`promise`):
the search tries them in that order, since one écart that makes the contract settles it.
"""

from __future__ import annotations

import itertools
from typing import Callable, Iterable, Iterator, NamedTuple

from .cards import EXCUSE, KING, PETIT, T21, Card, is_trump, rank, suit
from .errors import Stopped
from .games import Rules

__all__ = ["EcartClass", "class_key", "ecart_classes", "ecart_choices", "may_discard", "promise"]

BOUTS = (PETIT, T21, EXCUSE)
TRUMPS = 4          # the suit number of the trumps (atout.cards.TAROCK)
TAKER = -1          # the owner a signature writes for the taker's cards
#: how many écarts ecart_classes looks at between two questions to its ``stop``
STOP_EVERY = 1024


class EcartClass(NamedTuple):
    """One class of écarts that make the same game: ``ecart`` (the most promising of
    them, in card order) and ``size`` (how many écarts the class holds)."""

    ecart: tuple[Card, ...]
    size: int


def may_discard(c: Card) -> bool:
    """No king and no bout in an écart (a trump only when forced: :func:`ecart_classes`)."""
    return c not in BOUTS and (is_trump(c) or rank(c) != KING)


def ecart_choices(cards: Iterable[Card], size: int) -> list[Card]:
    """The cards of ``cards`` (the taker's hand and the dog) that some écart of ``size``
    cards may hold: every card :func:`may_discard` allows, the trumps among them only when
    fewer than ``size`` other cards may go (atout.contract checks a whole écart so)."""
    allowed = [c for c in cards if may_discard(c)]
    plain = [c for c in allowed if not is_trump(c)]
    return allowed if len(plain) < size else plain


def promise(ecart: Iterable[Card], taker_cards: Iterable[Card], rules: Rules) -> tuple:
    """How a taker ranks an écart, best first (a sort key): the suits it leaves void (a
    void lets the taker trump), then the points it puts safe, then the fewest cards taken
    from the taker's longest suits.  Only an order to try them in: every écart is tried."""
    gone = set(ecart)
    kept = [c for c in taker_cards if c not in gone]
    held = {suit(c) for c in kept if not is_trump(c) and c != EXCUSE}
    voids = sum(1 for s in range(4) if s not in held)
    points = sum(rules.points[c] for c in gone)
    length = {s: sum(1 for c in taker_cards if suit(c) == s) for s in range(4)}
    from_long = sum(length[suit(c)] for c in gone if not is_trump(c))
    return (-voids, -points, from_long)


def _suit_of(c: Card) -> int:
    return TRUMPS if is_trump(c) else (5 if c == EXCUSE else c // 14)


def _suit_signature(rules: Rules, in_suit: list[Card], owner: dict, gone: frozenset,
                    fixed: frozenset) -> tuple:
    """The cards of one suit left in play, lowest first: (owner, points) each, and the
    card itself where its name matters."""
    return tuple((owner[c], rules.points[c], c if c in fixed else -1)
                 for c in in_suit if c not in gone)


class _Setup(NamedTuple):
    """What every écart of one taker shares: the cards that must go (``forced``), how many
    more (``need``) and from which free cards, by suit; who holds each card."""

    need: int
    forced: tuple[Card, ...]
    by_suit: dict
    deck_by_suit: dict
    owner: dict
    fixed: frozenset
    taker_cards: tuple[Card, ...]


def _setup(rules: Rules, hands, taker: int, dog, keep, fixed) -> _Setup | None:
    dog = list(dog)
    size = len(dog)
    taker_cards = list(hands[taker]) + dog
    keep = set(keep)
    owner = {c: s for s, h in enumerate(hands) for c in h}
    owner.update({c: TAKER for c in taker_cards})
    fixed = frozenset(fixed) | frozenset(BOUTS) | frozenset(keep)
    plain = [c for c in taker_cards if may_discard(c) and not is_trump(c)]
    trumps = [c for c in taker_cards if may_discard(c) and is_trump(c)]
    if len(plain) >= size:
        free = [c for c in plain if c not in keep]
        forced: list[Card] = []
    else:
        # every card but trumps must go, and the fewest trumps beside them
        if any(c in keep for c in plain):
            return None
        free = [c for c in trumps if c not in keep]
        forced = plain
    by_suit: dict[int, list[Card]] = {}
    for c in free:
        by_suit.setdefault(_suit_of(c), []).append(c)
    # each suit's cards, lowest first
    deck_by_suit: dict[int, list[Card]] = {}
    for c in sorted(rules.deck, key=lambda c: (_suit_of(c), rules.power[c])):
        deck_by_suit.setdefault(_suit_of(c), []).append(c)
    return _Setup(size - len(forced), tuple(forced), by_suit, deck_by_suit, owner, fixed,
                  tuple(taker_cards))


def _subset_signature(rules: Rules, setup: _Setup, s: int, subset) -> tuple:
    """What discarding ``subset`` of suit ``s`` (with the forced cards) leaves in play."""
    gone = frozenset(subset) | frozenset(setup.forced)
    return (len(subset), _suit_signature(rules, setup.deck_by_suit[s], setup.owner, gone,
                                         setup.fixed),
            sum(rules.points[c] for c in subset))


def class_key(rules: Rules, hands: list[list[Card]], taker: int, dog: Iterable[Card],
              ecart: Iterable[Card], keep: Iterable[Card] = (),
              fixed: Iterable[Card] = ()) -> tuple | None:
    """The class of one écart (as :func:`ecart_classes` groups them): écarts with the same
    key make the same game.  None for an écart the rules refuse."""
    setup = _setup(rules, hands, taker, dog, keep, fixed)
    ecart = set(ecart)
    if setup is None or not set(setup.forced) <= ecart:
        return None
    free = {c for cards in setup.by_suit.values() for c in cards}
    rest = ecart - set(setup.forced)
    if not rest <= free or len(rest) != setup.need:
        return None
    return tuple(_subset_signature(rules, setup, s, tuple(sorted(c for c in rest
                                                                 if c in setup.by_suit[s])))
                 for s in sorted(setup.by_suit))


class _Steps:
    """Counts the work and asks ``stop`` every :data:`STOP_EVERY` steps."""

    def __init__(self, stop: Callable[[], bool] | None):
        self.stop, self.left = stop, STOP_EVERY

    def take(self) -> None:
        self.left -= 1
        if self.left <= 0:
            self.left = STOP_EVERY
            if self.stop is not None and self.stop():
                raise Stopped("stopped while the écarts were counted")


def ecart_classes(rules: Rules, hands: list[list[Card]], taker: int, dog: Iterable[Card],
                  keep: Iterable[Card] = (), fixed: Iterable[Card] = (),
                  stop: Callable[[], bool] | None = None) -> list[EcartClass]:
    """Every écart of ``len(dog)`` cards the taker may make after taking the dog into its
    hand, one per class (above), the most promising class first.

    ``hands``: every seat's cards as dealt; ``keep``: the taker's cards that must stay in
    its hand (the cards it played, for a table of a deal part-way through); ``fixed``:
    cards whose name the rules use beyond their rank and points (the ``fr5`` called card).
    An écart holds no king and no bout, and trumps only when fewer other cards than the
    dog may go: then every such card and the fewest trumps.  Empty when no écart is
    possible (too few cards may go once ``keep`` is kept).

    ``stop``: asked every :data:`STOP_EVERY` écarts looked at; when it says yes, raises
    :class:`~atout.errors.Stopped` (a whole deal's classes take a second or more, and a
    search process must stop within its grace when its request goes away)."""
    steps = _Steps(stop)
    setup = _setup(rules, hands, taker, dog, keep, fixed)
    if setup is None:
        return []
    need, forced = setup.need, list(setup.forced)

    # Per suit: every way to discard k of its free cards, one per (k, signature, points),
    # with how many ways give it.
    options: dict[int, dict[int, list[tuple[tuple, tuple[Card, ...], int]]]] = {}
    for s, cards in setup.by_suit.items():
        seen: dict[tuple, list] = {}
        for k in range(0, min(need, len(cards)) + 1):
            for subset in itertools.combinations(sorted(cards), k):
                steps.take()
                entry = seen.setdefault(_subset_signature(rules, setup, s, subset), [subset, 0])
                entry[1] += 1
        per_k: dict[int, list[tuple[tuple, tuple[Card, ...], int]]] = {}
        for sig, (subset, count) in seen.items():
            per_k.setdefault(sig[0], []).append((sig, subset, count))
        options[s] = per_k
    suits = sorted(options)

    def spread(i: int, left: int, chosen: tuple) -> Iterator[tuple]:
        if i == len(suits):
            if left == 0:
                yield chosen
            return
        for k, entries in options[suits[i]].items():
            if k <= left:
                for entry in entries:
                    yield from spread(i + 1, left - k, chosen + (entry,))

    # Each combination of the suits' classes is one class of écarts: the suits' signatures
    # tell the games apart, and every écart of it ranks the same (promise() reads only
    # the cards gone from each suit, their number and points).  Each class's rank is
    # worked out as it is made, between two questions to ``stop`` (sorting tens of
    # thousands of classes by promise() itself took seconds that no stop could cut short).
    rank_of = _promise_key(setup, rules)
    ranked = []
    for chosen in spread(0, need, ()):
        steps.take()
        ecart = tuple(sorted(forced + [c for _, subset, _ in chosen for c in subset]))
        size = 1
        for _, _, count in chosen:
            size *= count
        ranked.append((rank_of(ecart), ecart, size))
    ranked.sort()
    return [EcartClass(ecart, size) for _, ecart, size in ranked]


def _promise_key(setup: _Setup, rules: Rules) -> Callable[[tuple[Card, ...]], tuple]:
    """:func:`promise` for this taker's écarts, what the taker's cards share counted once:
    the same key, in a fraction of the time."""
    length = [0, 0, 0, 0]               # the taker's suit cards, by suit
    for c in setup.taker_cards:
        if not is_trump(c) and c != EXCUSE:
            length[suit(c)] += 1
    points = rules.points

    def key(ecart: tuple[Card, ...]) -> tuple:
        gone = [0, 0, 0, 0]
        from_long = worth = 0
        for c in ecart:
            worth += points[c]
            if not is_trump(c):
                gone[suit(c)] += 1
                from_long += length[suit(c)]
        voids = sum(1 for s in range(4) if length[s] == gone[s])
        return (-voids, -worth, from_long)
    return key
