"""What is proven of the values along a played deal, and each card's verdict from it.

An analysis (:mod:`atout.solver.analyze`) searches the positions of a played deal —
``V[i]``, the double-dummy value before card ``i`` — and each search proves a value or
bounds.  :class:`PlayedLine` keeps them, ``[lo[i], hi[i]]`` for every position, and
passes them along the line: the seat to play at position ``i`` could have played the
card it played, so for the maximizing camp ``V[i] >= V[i + 1]`` and for the other camp
``V[i] <= V[i + 1]`` (and ``V[i] == V[i + 1]`` where it had no other card).  A bound proven at one position thus bounds its neighbours, and
an answer to the contract question ("made?", ``V[i] >= threshold``) often settles many
positions at once: a taker's card cannot turn a lost contract into a made one, nor a
defender's a made one into a lost one.

Beside the line it keeps ``X[i]``, the best value the seat to play at ``i`` could have had
with a card *other* than the one played (its best for its own camp: the highest for the
maximizing camp, the lowest for the other), so that ``V[i] = max(V[i + 1], X[i])`` or
``min(...)``.  The cost of card ``i`` is how far ``X[i]`` lies beyond ``V[i + 1]``, and
bounds on the two settle a verdict without either value: the card was one of the best
once no other card can beat what the played one is proven to reach, and a mistake of at
least N once another card is proven N better than the played one can be.

From the bounds, each card's verdict (:meth:`PlayedLine.verdict`): its value before and
after, exact or bounded; whether the contract is made before and after it; what it cost
its camp, exact or a proven range; and whether it was *decisive* — it turned a made
contract into a lost one (a card of the maximizing camp) or the reverse (of the other).
"""

from __future__ import annotations

import math

from . import made_of
from atout.verdict import Verdict


class PlayedLine:
    """The bounds of the values at positions ``first`` .. ``last`` of a played deal
    (position ``i``: before card ``i``; ``last``: after the last card played), and of the
    other cards' best value ``X`` at each card (see the module's docstring).

    ``maximizing[k]``: whether the seat to play at position ``first + k`` is of the
    maximizing camp (one entry per card, ``last - first`` of them); ``forced[k]``: whether
    it had no choice (one legal card, or only equivalent ones: then there is no ``X``).
    ``threshold``: :func:`~atout.scoring.made_threshold` (None: no contract,
    Trischaken).  Nothing is known of any value until :meth:`narrow` tells.
    """

    def __init__(self, first: int, maximizing: list[bool], forced: list[bool],
                 threshold: int | None):
        self.first = first
        self.last = first + len(maximizing)
        self.maximizing = list(maximizing)
        self.forced = list(forced)
        self.threshold = threshold
        n = len(maximizing) + 1
        self.lo = [-math.inf] * n
        self.hi = [math.inf] * n
        self.xlo = [-math.inf] * (n - 1)
        self.xhi = [math.inf] * (n - 1)

    def narrow(self, index: int, lo, hi) -> None:
        """The value at position ``index`` is proven to lie in [lo, hi] (too)."""
        k = index - self.first
        self.lo[k] = max(self.lo[k], lo)
        self.hi[k] = min(self.hi[k], hi)

    def narrow_others(self, index: int, lo, hi) -> None:
        """The best value of the cards other than the one played at ``index`` is proven
        to lie in [lo, hi] (too)."""
        k = index - self.first
        self.xlo[k] = max(self.xlo[k], lo)
        self.xhi[k] = min(self.xhi[k], hi)

    def settle(self, index: int, value: int) -> None:
        """The value at position ``index`` is ``value``."""
        self.narrow(index, value, value)

    def propagate(self) -> None:
        """Pass every bound along the line until nothing changes.  A bound reaches another
        position only along a run of cards that all point the same way (V[i] >= V[i+1]
        >= ... or <=), so one sweep back and one forward carry each as far as it goes;
        the others' bounds take part at each card (``V[k]`` is the better of the card
        played and the others), which can open another run, hence the loop."""
        while self._sweep():
            pass

    def _sweep(self) -> bool:
        before = (list(self.lo), list(self.hi), list(self.xlo), list(self.xhi))
        for k in range(len(self.maximizing) - 1, -1, -1):
            self._card(k)
        for k in range(len(self.maximizing)):
            self._card(k)
        return before != (self.lo, self.hi, self.xlo, self.xhi)

    def _card(self, k: int) -> None:
        """The bounds at card ``k`` made consistent: ``B = V[k]``, ``A = V[k + 1]`` (the
        card played), ``X`` (the others), with ``B = max(A, X)`` for the maximizing camp,
        ``min(A, X)`` for the other, ``B = A`` for a forced card."""
        lo, hi, xlo, xhi = self.lo, self.hi, self.xlo, self.xhi
        if self.forced[k]:
            lo[k] = lo[k + 1] = max(lo[k], lo[k + 1])
            hi[k] = hi[k + 1] = min(hi[k], hi[k + 1])
            return
        if self.maximizing[k]:
            lo[k] = max(lo[k], lo[k + 1], xlo[k])
            hi[k] = min(hi[k], max(hi[k + 1], xhi[k]))
            hi[k + 1] = min(hi[k + 1], hi[k])
            xhi[k] = min(xhi[k], hi[k])
            if hi[k + 1] < lo[k]:         # the card played is below: another card is V[k]
                xlo[k] = max(xlo[k], lo[k])
            if xhi[k] < lo[k]:            # the others are below: the card played is V[k]
                lo[k + 1] = max(lo[k + 1], lo[k])
        else:
            hi[k] = min(hi[k], hi[k + 1], xhi[k])
            lo[k] = max(lo[k], min(lo[k + 1], xlo[k]))
            lo[k + 1] = max(lo[k + 1], lo[k])
            xlo[k] = max(xlo[k], lo[k])
            if lo[k + 1] > hi[k]:
                xhi[k] = min(xhi[k], hi[k])
            if xlo[k] > hi[k]:
                hi[k + 1] = min(hi[k + 1], hi[k])

    def bounds(self, index: int) -> tuple[int, int]:
        k = index - self.first
        return self.lo[k], self.hi[k]

    def others(self, index: int) -> tuple[int, int]:
        """The bounds of the best value of the other cards at card ``index`` (not for a
        forced card: it has none)."""
        k = index - self.first
        return self.xlo[k], self.xhi[k]

    def exact(self, index: int) -> int | None:
        lo, hi = self.bounds(index)
        return lo if lo == hi else None

    def made(self, index: int) -> bool | None:
        """Whether the contract is made from position ``index`` on: True, False, or None
        (not proven, or no contract)."""
        return made_of(*self.bounds(index), self.threshold)

    def cost_bounds(self, index: int) -> tuple[int, int]:
        """What card ``index`` cost its camp: [lo, hi], proven (never below 0: no card is
        worth more to its camp than the best one): how far the others' best lies beyond
        the card played."""
        k = index - self.first
        if self.forced[k]:
            return 0, 0
        blo, bhi = self.lo[k], self.hi[k]
        alo, ahi = self.lo[k + 1], self.hi[k + 1]
        xlo, xhi = self.xlo[k], self.xhi[k]
        # (the others' best is V[k] where the card played falls short of it: so V[k]'s
        # bounds count for X too, whether or not propagate() has passed them on)
        if self.maximizing[k]:
            return max(0, xlo - ahi, blo - ahi), max(0, min(xhi, bhi) - alo)
        return max(0, alo - xhi, alo - bhi), max(0, ahi - max(xlo, blo))

    def verdict(self, index: int) -> dict:
        """Card ``index``'s verdict: ``value_before``, ``value_after`` and ``cost`` (None
        where not exact, with ``bounds_before``, ``bounds_after``, ``cost_bounds``),
        ``made_before``, ``made_after``, ``decisive`` and ``verdict``: the card's
        :class:`~atout.verdict.Verdict` (best, a mistake exact or at least N,
        decisive, not judged, with the cost's proven bounds) as JSON."""
        before, after = self.exact(index), self.exact(index + 1)
        clo, chi = self.cost_bounds(index)
        made_before, made_after = self.made(index), self.made(index + 1)
        decisive = (made_before is not None and made_after is not None
                    and made_before != made_after)
        out = {"value_before": before, "value_after": after,
               "cost": clo if clo == chi else None,
               "made_before": made_before, "made_after": made_after,
               "decisive": decisive}
        if before is None:
            out["bounds_before"] = list(self.bounds(index))
        if after is None:
            out["bounds_after"] = list(self.bounds(index + 1))
        if clo != chi:
            out["cost_bounds"] = [clo, chi]
        out["verdict"] = Verdict.of_cost(clo, chi, decisive).to_json()      # last, as gRPC's
        return out
