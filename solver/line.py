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

From the bounds, each card's verdict (:meth:`PlayedLine.verdict`): its value before and
after, exact or bounded; whether the contract is made before and after it; what it cost
its camp, exact or a proven range; and whether it was *decisive* — it turned a made
contract into a lost one (a card of the maximizing camp) or the reverse (of the other).
"""

from __future__ import annotations

import math

from . import made_of


class PlayedLine:
    """The bounds of the values at positions ``first`` .. ``last`` of a played deal
    (position ``i``: before card ``i``; ``last``: after the last card played).

    ``maximizing[k]``: whether the seat to play at position ``first + k`` is of the
    maximizing camp (one entry per card, ``last - first`` of them); ``forced[k]``: whether
    it had no choice (one legal card, or only equivalent ones).  ``threshold``:
    :func:`~atout.scoring.made_threshold` (None: no contract, Trischaken).  Nothing is
    known of any value until :meth:`narrow` tells.
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

    def narrow(self, index: int, lo: int, hi: int) -> None:
        """The value at position ``index`` is proven to lie in [lo, hi] (too)."""
        k = index - self.first
        self.lo[k] = max(self.lo[k], lo)
        self.hi[k] = min(self.hi[k], hi)

    def settle(self, index: int, value: int) -> None:
        """The value at position ``index`` is ``value``."""
        self.narrow(index, value, value)

    def propagate(self) -> None:
        """Pass every bound along the line.  A bound reaches another position only along a
        run of cards that all point the same way (V[i] >= V[i+1] >= ... or <=), so one
        sweep back and one forward carry each as far as it goes."""
        lo, hi, up, forced = self.lo, self.hi, self.maximizing, self.forced
        for k in range(len(up) - 1, -1, -1):
            if up[k] or forced[k]:
                lo[k] = max(lo[k], lo[k + 1])        # V[k] >= V[k + 1]
            if not up[k] or forced[k]:
                hi[k] = min(hi[k], hi[k + 1])        # V[k] <= V[k + 1]
        for k in range(len(up)):
            if up[k] or forced[k]:
                hi[k + 1] = min(hi[k + 1], hi[k])
            if not up[k] or forced[k]:
                lo[k + 1] = max(lo[k + 1], lo[k])

    def bounds(self, index: int) -> tuple[int, int]:
        k = index - self.first
        return self.lo[k], self.hi[k]

    def exact(self, index: int) -> int | None:
        lo, hi = self.bounds(index)
        return lo if lo == hi else None

    def made(self, index: int) -> bool | None:
        """Whether the contract is made from position ``index`` on: True, False, or None
        (not proven, or no contract)."""
        return made_of(*self.bounds(index), self.threshold)

    def cost_bounds(self, index: int) -> tuple[int, int]:
        """What card ``index`` cost its camp: [lo, hi], proven (never below 0: no card is
        worth more to its camp than the best one)."""
        blo, bhi = self.bounds(index)
        alo, ahi = self.bounds(index + 1)
        if self.maximizing[index - self.first]:
            return max(0, blo - ahi), max(0, bhi - alo)
        return max(0, alo - bhi), max(0, ahi - blo)

    def verdict(self, index: int) -> dict:
        """Card ``index``'s verdict: ``value_before``, ``value_after`` and ``cost`` (None
        where not exact, with ``bounds_before``, ``bounds_after``, ``cost_bounds``),
        ``made_before``, ``made_after`` and ``decisive``."""
        before, after = self.exact(index), self.exact(index + 1)
        clo, chi = self.cost_bounds(index)
        made_before, made_after = self.made(index), self.made(index + 1)
        out = {"value_before": before, "value_after": after,
               "cost": clo if clo == chi else None,
               "made_before": made_before, "made_after": made_after,
               "decisive": made_before is not None and made_after is not None
               and made_before != made_after}
        if before is None:
            out["bounds_before"] = list(self.bounds(index))
        if after is None:
            out["bounds_after"] = list(self.bounds(index + 1))
        if clo != chi:
            out["cost_bounds"] = [clo, chi]
        return out
