"""A garde over every écart: the classes of one cell searched on one engine, one table.

A seat that did not take is asked its garde with its best écart: made when one écart makes
it, not made only when every one is refuted.  :mod:`atout.ecart` gives one écart per class
of écarts that make the same game — still thousands per seat in ``fr4``, each a whole-deal
search.  But two écarts of one seat differ in a few of its cards, mostly plain ones, so
their searches go through much the same positions: the classes are searched one after the
other on one engine, whose table answers a class from what the classes before it stored
(``Engine.rebase``: sound, because an entry's key and bound say nothing of how its position
was reached, and the écart's points are part of what the taker has won so far).

**The order of the classes.**  :func:`atout.ecart.promise` ranks them as a taker would
(the suits left void, the points put safe, the fewest cards from the long suits): the likely
écarts first, since one that makes the contract settles the cell.  Each class is first
asked with a small node budget (:data:`FIRST_BUDGET`), and a class that runs out waits, its
budget doubled, behind the classes not tried yet: its place in the queue is its budget
times a weight that grows with its rank (:data:`STEP`) — so the first écarts are searched
deep early, and the later ones are each tried at all soon after.  Where the seat is far
from a garde (not made), most classes are refuted within their first budget, cheaply once
the table holds their neighbours' refutations, and the few dear ones are deepened last;
where it is close (made), the likely écarts get most of the nodes.

:class:`EcartSearch` does a cell's work in turns of a node budget, as the contract table
(:mod:`atout.solver.contract_table`) hands them out with every other cell's.
"""

from __future__ import annotations

import heapq
import itertools
import time
from typing import Callable

from atout.contract_table import TableCell
from atout.errors import PositionError
from atout.position import Position
from atout.scoring import made_threshold

from . import ask_made
from .params import code_of, engine_params, start_state

__all__ = ["EcartSearch", "FIRST_BUDGET", "STEP", "rebase_to"]

#: the nodes of a class's first try; each further try doubles it
FIRST_BUDGET = 1 << 14
#: the weight of the class of rank i: 1 + STEP * i * f, where f is what the classes' first
#: tries cost so far, as a share of FIRST_BUDGET (at least 1/64): where the écarts are
#: refuted cheaply (a seat far from the contract) they are all tried soon
STEP = 2.0


def rebase_to(engine, game: dict, pos: Position) -> None:
    """Move ``engine`` (its table kept) to ``pos``, another écart of the same cell: the
    écart changes only where the deal starts — the classes' contract, and so the game's
    parameters ``game`` (all but the state), are the same (``rebase`` checks them)."""
    engine.rebase(dict(game, state=start_state(pos)))
    for card in pos.played:
        engine.play(code_of(pos.rules, card))


class _Class:
    """One écart class: what its searches proved, and its next budget."""

    __slots__ = ("rank", "ecart", "lo", "hi", "made", "budget", "tries", "impossible")

    def __init__(self, rank: int, ecart: tuple):
        self.rank, self.ecart = rank, ecart
        self.lo: int | None = None
        self.hi: int | None = None
        self.made: bool | None = None
        self.budget = FIRST_BUDGET
        self.tries = 0
        self.impossible = False     # an écart the rules refuse (no choice at all)


class EcartSearch:
    """The écart classes of one searched garde (``cell.classes``), on one engine.

    ``made``: True once a class makes it (``making``: that class), False once every class
    is refuted, None while open; ``refuted``, ``lo`` and ``hi`` (the bounds of the best
    écart's value: None where nothing is proven) as the table reports them."""

    def __init__(self, cell: TableCell, first_budget: int = FIRST_BUDGET, step: float = STEP):
        self.cell = cell
        self.first_budget, self.step = first_budget, step
        self.classes = [_Class(i, k.ecart) for i, k in enumerate(cell.classes)]
        for c in self.classes:
            c.budget = first_budget
        self.made: bool | None = None
        self.making: _Class | None = None
        self.refuted = 0
        self.nodes = 0
        self.game: dict | None = None       # the engine's parameters but the state
        self.threshold: int | None = None
        self.queue: list = []               # (budget * weight, order, rank)
        self.order = itertools.count()
        self.tried = 0                      # the classes given a first try so far
        self.first_nodes = 0                # what the first tries that answered cost
        self.first_done = 0                 # (how many they are)
        self.best_lo: int | None = None
        self.probed = 0                     # classes with an upper bound (or no choice)
        self.highs: list = []               # (-hi, rank) of every hi proven (stale ones too)
        self.at: int | None = None          # the class the engine's root is at
        if self.classes:
            self._push(self.classes[0])

    # -- the bounds of the best écart ------------------------------------------------------

    @property
    def lo(self) -> int | None:
        return self.best_lo

    @property
    def hi(self) -> int | None:
        """The highest upper bound of every class, once every class has one."""
        if self.probed < len(self.classes):
            return None
        while self.highs and self.classes[self.highs[0][1]].hi != -self.highs[0][0]:
            heapq.heappop(self.highs)       # (a bound since narrowed)
        return -self.highs[0][0] if self.highs else None

    def _learn(self, c: _Class, lo: int, hi: int) -> None:
        had_hi = c.hi is not None or c.impossible
        c.lo = lo if c.lo is None else max(c.lo, lo)
        c.hi = hi if c.hi is None else min(c.hi, hi)
        if c.hi != hi or not had_hi:
            heapq.heappush(self.highs, (-c.hi, c.rank))
        if not had_hi:
            self.probed += 1
        self.best_lo = c.lo if self.best_lo is None else max(self.best_lo, c.lo)
        if c.made is None:
            if c.lo >= self.threshold:
                c.made = True
            elif c.hi < self.threshold:
                c.made = False
                self.refuted += 1
        if c.made and (self.making is None or c.rank < self.making.rank):
            self.making = c
            self.made = True
        if self.refuted == len(self.classes) and self.made is None:
            self.made = False

    # -- the order ---------------------------------------------------------------------------

    def _weight(self, rank: int) -> float:
        share = 1.0
        if self.first_done:
            share = min(1.0, max(1 / 64, self.first_nodes / self.first_done / self.first_budget))
        return 1.0 + self.step * rank * share

    def _push(self, c: _Class) -> None:
        heapq.heappush(self.queue, (c.budget * self._weight(c.rank), next(self.order), c.rank))

    # -- searching -------------------------------------------------------------------------

    def position(self, c: _Class) -> Position:
        return self.cell.with_ecart(c.ecart)

    def turn(self, budget: int, engine_of: Callable[[Position], tuple], deadline: float,
             cancel, cut: Callable[[], bool] = lambda: False) -> bool:
        """Search the classes, cheapest first, for about ``budget`` nodes (or until the cell
        is settled).  ``engine_of(position)``: (the cell's engine, whether it was made just
        now, at ``position``: the first, or the last one dropped for want of memory).
        ``cut()``: True once the turn's cores are taken back (the engine is stopped then):
        the turn ends at once, the class stopped keeping its budget.  Returns False when
        the time limit or ``cancel`` stopped it."""
        spent = 0
        while spent < budget and self.made is None and self.queue and not cut():
            _, _, rank = heapq.heappop(self.queue)
            c = self.classes[rank]
            if c.made is not None:
                continue
            if c.tries == 0 and self.tried == rank:
                self.tried += 1
                if self.tried < len(self.classes):
                    self._push(self.classes[self.tried])
            try:
                pos = self.position(c)
            except PositionError:
                # an écart whose position the rules refuse (a petit sec left in hand)
                c.impossible, c.made = True, False
                self.probed += 1
                self.refuted += 1
                if self.refuted == len(self.classes):
                    self.made = False
                continue
            engine, new = engine_of(pos)
            if self.threshold is None:
                self.threshold = made_threshold(pos.contract, pos.hands)
                self.game = {k: v for k, v in engine_params(pos).items() if k != "state"}
            if new:
                self.at = rank
            elif self.at != rank:
                rebase_to(engine, self.game, pos)
                self.at = rank
            left = deadline - time.monotonic()
            if left <= 0 or cancel.is_set():
                heapq.heappush(self.queue, (0, next(self.order), rank))     # (first again)
                return False
            limit = min(c.budget, max(budget - spent, self.first_budget))
            lo, hi = engine.bounds()
            if c.lo is not None:
                lo, hi = max(lo, c.lo), min(hi, c.hi)
            engine.set_limits(limit, left if left != float("inf") else 0)
            cancel.attach(engine)
            if cut():       # (its cores taken back before set_limits cleared the stop)
                engine.stop()
            before = engine.nodes
            try:
                done, lo, hi = ask_made(engine, self.threshold, lo, hi)
            finally:
                cancel.detach(engine)
            used = engine.nodes - before
            spent += used
            self.nodes += used
            if c.tries == 0 and done:
                self.first_nodes += used
                self.first_done += 1
            c.tries += 1
            self._learn(c, lo, hi)
            if c.made is None:
                if not done and (cancel.is_set() or time.monotonic() >= deadline):
                    heapq.heappush(self.queue, (0, next(self.order), rank))
                    return False
                if not done and cut():
                    heapq.heappush(self.queue, (0, next(self.order), rank))     # (first again)
                    return True
                if used >= c.budget:
                    c.budget *= 2
                self._push(c)
        return True
