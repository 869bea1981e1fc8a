"""A card's verdict, named once: what the analysis proved of the card a seat played.

The analysis (:mod:`atout.solver.line`) proves bounds on what each card cost its camp
against the best card: ``[low, high]``, exact when they meet.  From them, and from
whether the card turned a made contract into a lost one (or back), the card gets one of
four kinds:

- ``best``: one of the best cards (its cost is exactly 0);
- ``mistake``: it is proven to have cost something, exactly ``low`` or at least ``low``;
- ``decisive``: a mistake that turned a made contract into a lost one, or back;
- ``not_judged``: its cost lies between 0 and ``high``, not decided within the time.

The JSON of an analysis carries it in each play as ``"verdict": {"kind", "low", "high"}``
(docs/format.md), gRPC as ``Play.verdict``; every renderer — the terminal table and live
view, the viewer, the report — reads it.  This module is the analysis' side (the kinds
and the one rule that gives them); how a verdict is written is the presentation's,
:func:`atout.present.words.verdict_mark` and ``verdict_words`` (the viewer:
server/static/review.js, the same words).  A new kind is added here, in
atout/present/words.py, in the proto's ``VerdictKind`` (and its stubs), in
docs/format.md and in review.js's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class VerdictKind(str, Enum):
    BEST = "best"
    MISTAKE = "mistake"
    DECISIVE = "decisive"
    NOT_JUDGED = "not_judged"


@dataclass(frozen=True)
class Verdict:
    """A card's verdict: its kind and the proven bounds of its cost, ``low`` .. ``high``."""

    kind: VerdictKind
    low: int
    high: int

    @classmethod
    def of_cost(cls, low: int, high: int, decisive: bool) -> Verdict:
        """The verdict of a card proven to have cost ``low`` .. ``high``: the one rule."""
        if decisive:
            kind = VerdictKind.DECISIVE
        elif low > 0:
            kind = VerdictKind.MISTAKE
        elif high == 0:
            kind = VerdictKind.BEST
        else:
            kind = VerdictKind.NOT_JUDGED
        return cls(kind, low, high)

    @classmethod
    def of_play(cls, play: dict) -> Verdict:
        """The verdict a play carries (an analysis' JSON); a play written before verdicts
        were named gets it from its cost by the same rule."""
        v = play.get("verdict")
        if v is not None:
            return cls(VerdictKind(v["kind"]), v["low"], v["high"])
        low, high = ((play["cost"], play["cost"]) if play["cost"] is not None
                     else tuple(play["cost_bounds"]))
        return cls.of_cost(low, high, bool(play.get("decisive")))

    def to_json(self) -> dict:
        return {"kind": self.kind.value, "low": self.low, "high": self.high}

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def is_mistake(self) -> bool:
        """Proven to have cost something (a decisive card is a mistake too)."""
        return self.low > 0

    @property
    def judged(self) -> bool:
        return self.kind is not VerdictKind.NOT_JUDGED
