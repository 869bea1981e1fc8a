"""Drawing the hidden cards: every deal consistent with a seat's knowledge equally likely.

The consistent deals are counted exactly, by dynamic programming over the hidden cards,
and drawn by the counts — never by dealing at random and throwing away what does not fit,
which starves when few deals fit (a seat known void in three suits, a poignée's trumps).

The count, for one case of :class:`~atout.knowledge.Knowledge`: the state after placing
the first ``i`` hidden cards is how many each place has received (one place is left out:
the total fixes it) and, for each count to meet (``at_least``), how many of its cards its
place has received, capped at the count.  ``F[i][state]`` is the number of ways to place
the first ``i`` cards reaching ``state``; ``F[0]`` is 1 at the empty state, and card ``i``
goes to any place it is allowed in, so ``F[i + 1]`` is the sum of ``F[i]`` shifted by one
along each such place's axis.  The number of consistent deals is ``F[n]`` at the full
state (every place at its capacity, every count met), summed over the cases.

A draw walks back from the full state: the last card goes to place ``p`` with probability
``F[n - 1][full - step(p)] / F[n][full]``, and so on down to the first card, so each
consistent deal comes out with probability exactly 1 / (their number).  The arrays are
numpy float64 (counts past 2**53 carry a relative error near 1e-16, which weights no deal
measurably); ``exact=True`` counts in Python integers, for tests.  Only every ``√n``-th
array is kept and the others are computed again when drawing, so memory stays small.

>>> import random
>>> from atout.deal import random_endgame
>>> from atout.knowledge import seat_knowledge
>>> from atout.position import parse_position
>>> pos = parse_position(random_endgame(random.Random(3), "fr4", 2))
>>> sampler = Sampler(seat_knowledge(pos, pos.to_play), exact=True)
>>> sampler.count() > 0
True
>>> obj = sampler.positions(random.Random(1), 1)[0]    # a whole deal, as a position object
>>> parse_position(obj).played == pos.played
True
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import numpy as np

from .cards import tokens
from .knowledge import DOG, TALON, Knowledge

__all__ = ["Sampler", "STREAM_BATCH"]

#: deals drawn together by :meth:`Sampler.stream`: a batch walks the counting arrays once
#: (a few ms on a whole fr5 deal), a deal costs 0.05-1 ms more
STREAM_BATCH = 16


class _Space:
    """The deals of one combination of cases: the arrays and how to walk them."""

    def __init__(self, knowledge: Knowledge, overrides: dict, extra_at_least: tuple, dtype):
        self.dtype = dtype
        self.cards = knowledge.hidden
        capacity = knowledge.capacity
        busy = [p for p in knowledge.places if capacity[p] > 0]
        allowed = [knowledge.allowed[c] & overrides.get(c, knowledge.allowed[c]) & set(busy)
                   for c in self.cards]
        at_least = knowledge.at_least + extra_at_least
        # The place left out of the state: the largest, for the smallest arrays.
        free = max(busy, key=lambda p: capacity[p]) if busy else None
        self.kept = [p for p in busy if p != free]
        axis = {p: a for a, p in enumerate(self.kept)}
        self.maxima = [capacity[p] for p in self.kept] + [count for _, _, count in at_least]
        self.shape = tuple(m + 1 for m in self.maxima)
        self.full = tuple(self.maxima)
        first_count = len(self.kept)
        # For each card, each place it may go to: (place, its axis or None, the axes of the
        # counts it adds to).
        self.steps = []
        for c, places in zip(self.cards, allowed):
            steps = []
            for p in sorted(places, key=str):
                counts = tuple(first_count + j for j, (q, cards, _) in enumerate(at_least)
                               if q == p and c in cards)
                steps.append((p, axis.get(p), counts))
            self.steps.append(tuple(steps))
        self.possible = all(self.steps)
        self.every = max(1, math.isqrt(len(self.cards)))
        self._total = None

    # -- counting -----------------------------------------------------------------------

    def _start(self) -> np.ndarray:
        a = np.zeros(self.shape, dtype=self.dtype)
        a[(0,) * len(self.shape)] = 1
        return a

    def _next(self, a: np.ndarray, steps) -> np.ndarray:
        out = np.zeros_like(a)
        for _, axis, counts in steps:
            b = a if axis is None else _shift(a, axis, saturate=False)
            for j in counts:
                b = _shift(b, j, saturate=True)
            out += b
        return out

    def total(self):
        """The number of deals in this space."""
        if self._total is None:
            if not self.possible:
                self._total = 0
            else:
                a = self._start()
                for steps in self.steps:
                    a = self._next(a, steps)
                self._total = a[self.full]
        return self._total

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, rng: random.Random, n: int) -> list[dict]:
        """``n`` deals as {card: place}, each consistent deal equally likely."""
        cards = len(self.cards)
        checkpoints = {0: self._start()}
        a = checkpoints[0]
        for i, steps in enumerate(self.steps):
            a = self._next(a, steps)
            if (i + 1) % self.every == 0:
                checkpoints[i + 1] = a
        states = [list(self.full) for _ in range(n)]
        deals: list[dict] = [{} for _ in range(n)]
        end = cards
        for begin in sorted((k for k in checkpoints if k < cards), reverse=True):
            arrays = [checkpoints[begin]]
            for i in range(begin, end - 1):
                arrays.append(self._next(arrays[-1], self.steps[i]))
            for i in range(end - 1, begin - 1, -1):
                before = arrays[i - begin]
                for deal, state in zip(deals, states):
                    place, state[:] = self._back(before, self.steps[i], state, rng)
                    deal[self.cards[i]] = place
            end = begin
        return deals

    def _back(self, before: np.ndarray, steps, state: list, rng: random.Random):
        """Where the card went, drawn by the counts, and the state before it."""
        options = []
        total = 0
        for place, axis, counts in steps:
            base = list(state)
            if axis is not None:
                if base[axis] == 0:
                    continue
                base[axis] -= 1
            befores = [base]
            for j in counts:
                more = []
                for b in befores:
                    if b[j] >= 1:
                        c = list(b)
                        c[j] -= 1
                        more.append(c)
                    if b[j] == self.maxima[j]:
                        more.append(b)       # a count already met stays met
                befores = more
            for b in befores:
                w = before[tuple(b)]
                if w:
                    options.append((w, place, b))
                    total += w
        r = rng.random() * float(total)
        for w, place, b in options:
            r -= float(w)
            if r < 0:
                return place, b
        return options[-1][1], options[-1][2]


def _shift(a: np.ndarray, axis: int, saturate: bool) -> np.ndarray:
    """``a`` moved one step up ``axis``: what falls off the end is lost, or (``saturate``)
    stays in the last cell."""
    out = np.zeros_like(a)
    lead = (slice(None),) * axis
    out[lead + (slice(1, None),)] = a[lead + (slice(None, -1),)]
    if saturate:
        out[lead + (-1,)] += a[lead + (-1,)]
    return out


class Sampler:
    """The consistent deals of a :class:`~atout.knowledge.Knowledge`: their number, and
    draws from them, each equally likely (seeded by the ``random.Random`` given)."""

    def __init__(self, knowledge: Knowledge, exact: bool = False):
        self.knowledge = knowledge
        dtype = object if exact else np.float64
        self.spaces = []
        for combo in itertools.product(*knowledge.alternatives):
            overrides: dict = {}
            extra: tuple = ()
            for case in combo:
                for c, places in case.allowed:
                    overrides[c] = overrides.get(c, places) & places
                extra += case.at_least
            self.spaces.append(_Space(knowledge, overrides, extra, dtype))
        self.exact = exact

    def count(self):
        """How many consistent deals there are (an int with ``exact``, else a float).  A
        Trischaken talon's unseen cards in each of their orders are different deals."""
        total = sum(space.total() for space in self.spaces)
        orders = math.factorial(self.knowledge.capacity.get(TALON, 0))
        return int(total) * orders if self.exact else float(total) * orders

    def deals(self, rng: random.Random, n: int) -> list[dict]:
        """``n`` consistent deals drawn independently, as {place: sorted hidden cards}."""
        weights = [float(space.total()) for space in self.spaces]
        if not sum(weights) > 0:
            raise ValueError("no deal is consistent with this knowledge")
        chosen = [_pick(rng, weights) for _ in range(n)]
        out: list[Any] = [None] * n
        for k, space in enumerate(self.spaces):
            mine = [i for i, c in enumerate(chosen) if c == k]
            if mine:
                for i, where in zip(mine, space.draw(rng, len(mine))):
                    out[i] = where
        result = []
        for where in out:
            deal = {p: [] for p in self.knowledge.places}
            for c, p in where.items():
                deal[p].append(c)
            result.append({p: tuple(sorted(cs)) for p, cs in deal.items()})
        return result

    def position(self, deal: dict, rng: random.Random) -> dict:
        """The whole deal as a position object: the seat's known cards and ``deal``'s hidden
        ones (a Trischaken talon's unseen cards in an order drawn from ``rng``)."""
        k = self.knowledge
        obj = {key: value for key, value in k.template.items()}
        contract = dict(k.template["contract"])
        full = {p: list(k.known[p]) + list(deal.get(p, ())) for p in k.places}
        obj["hands"] = [tokens(sorted(full[p])) for p in k.places if isinstance(p, int)]
        for p in k.places:
            if p == DOG:
                contract["dog"] = tokens(sorted(full[p]))
            elif p == TALON:
                rest = list(deal.get(p, ()))
                rng.shuffle(rest)        # the unseen slots are alike: any order, equally likely
                contract["talon"] = tokens(list(k.talon_seen) + rest)
            elif isinstance(p, str) and p.startswith("side:"):
                contract.setdefault("side_cards", {})[p.split(":")[1]] = tokens(sorted(full[p]))
        obj["contract"] = contract
        return obj

    def positions(self, rng: random.Random, n: int) -> list[dict]:
        """``n`` consistent whole deals as position objects (see :meth:`position`)."""
        return [self.position(deal, rng) for deal in self.deals(rng, n)]

    def stream(self, rng: random.Random, batch: int = STREAM_BATCH):
        """Consistent whole deals without end, as position objects, drawn ``batch`` at a
        time: a caller takes as many as it has time for, and the same ``rng`` seed gives
        the same sequence however many are taken."""
        while True:
            yield from self.positions(rng, batch)


def _pick(rng: random.Random, weights: list[float]) -> int:
    r = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        r -= w
        if r < 0 and w > 0:
            return i
    return max(i for i, w in enumerate(weights) if w > 0)
