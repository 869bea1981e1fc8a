"""A card's verdict, named once and written by itself: what the analysis proved of the card
a seat played.

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
view, the report — reads it and writes it as the type writes itself (as python-chess's
``Outcome.result()``): :meth:`Verdict.mark` (``·``, ``12``, ``≥12``, ``?`` or the range
``0…30``), :meth:`Verdict.words`, :attr:`Verdict.style` (how a page classes it) and
:meth:`Verdict.tally` (a deal's verdicts in a line); whether a card is judged at all is
decided here once (:attr:`Verdict.judged`).  A new kind touches these files and no others
(tests/test_verdict_named.py checks that no other file names a kind):

- atout/verdict.py: the kind, the rule that gives it, how it is written;
- proto/v1/solver.proto: the message's ``VerdictKind``, and its stubs
  proto/v1/solver_pb2.py and proto/v1/solver_pb2.pyi (``python proto/generate.py``);
- server/static/review-view.js: the page's words for it (the page runs no Python);
- docs/format.md and README.md: the kinds as users read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class VerdictKind(str, Enum):
    BEST = "best"
    MISTAKE = "mistake"
    DECISIVE = "decisive"
    NOT_JUDGED = "not_judged"


#: how a page classes a card of each kind (the report's play table, the viewer's list)
_STYLE = {VerdictKind.BEST: "best", VerdictKind.MISTAKE: "mistake",
          VerdictKind.DECISIVE: "mistake decisive", VerdictKind.NOT_JUDGED: "open"}
assert set(_STYLE) == set(VerdictKind), "every kind is written"


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
    def decisive(self) -> bool:
        """It turned a made contract into a lost one, or back."""
        return self.kind is VerdictKind.DECISIVE

    @property
    def best(self) -> bool:
        return self.kind is VerdictKind.BEST

    @property
    def judged(self) -> bool:
        """Whether its cost is decided: exactly, or proven above 0 (a mistake of at least
        ``low``).  The one place "not judged" is decided: a cost proven only to lie from 0
        to ``high`` is not, decisive or not (the analysis counts a seat's ``not_judged``
        cards so too)."""
        return self.exact or self.low > 0

    @property
    def style(self) -> str:
        """How a page classes the card: ``best``, ``mistake``, ``mistake decisive``,
        ``open`` (not judged)."""
        return _STYLE[self.kind]

    def mark(self, ascii: bool = False, open_range: bool = False) -> str:
        """In a few characters, as every table writes it: ``·`` one of the best cards,
        ``12`` a mistake costing 12, ``≥12`` a mistake of at least 12 (proven), ``?`` not
        judged — with ``open_range`` the range its cost lies in instead, ``0…30``
        (``ascii``: ``.``, ``>=12``, ``0..30``)."""
        if self.best:
            return "." if ascii else "·"
        if not self.judged:
            return f"{self.low}{'..' if ascii else '…'}{self.high}" if open_range else "?"
        return str(self.low) if self.exact else f"{'>=' if ascii else '≥'}{self.low}"

    def words(self) -> str:
        """In words: "one of the best cards", "a mistake costing 12", "a mistake of at
        least 12 (proven)", "not judged: its cost lies between 0 and 30"; "; decisive"."""
        if self.best:
            return "one of the best cards"
        if not self.judged:
            text = f"not judged: its cost lies between {self.low} and {self.high}"
        elif self.exact:
            text = f"a mistake costing {self.low}"
        else:
            text = f"a mistake of at least {self.low} (proven)"
        return text + ("; decisive" if self.decisive else "")

    @staticmethod
    def tally(verdicts: list["Verdict"]) -> str:
        """A deal's verdicts in a line: "72 cards judged: 60 best, 3 mistakes (2 with an
        exact cost), 1 decisive, 9 not judged"."""
        def n(count: int, word: str) -> str:
            return f"{count} {word}{'' if count == 1 else 's'}"
        best = sum(v.best for v in verdicts)
        mistakes = [v for v in verdicts if v.is_mistake]
        exact = sum(v.exact for v in mistakes)
        decisive = sum(v.decisive for v in verdicts)
        open_ = len(verdicts) - best - len(mistakes)
        return (f"{n(len(verdicts), 'card')} judged: {best} best, {n(len(mistakes), 'mistake')} "
                f"({exact} with an exact cost), {decisive} decisive, {open_} not judged")
