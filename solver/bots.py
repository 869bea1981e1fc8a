"""Bots: a card for the seat to play, by one of three players (``atout play``).

* :class:`AdviceBot` plays the advice's card (:func:`atout.solver.advise.advise`) within a
  budget per card, seconds or nodes: the advice reads only what its seat can know (its
  own hand, the cards played, what they revealed, what was shown) — it draws the deals
  the seat cannot tell apart and solves those, never the real one.
* :class:`PerfectBot` sees every hand: it solves the real deal double dummy and plays an
  optimal card (the first in the search's order); a budget that stops the search first
  leaves it the search's best guess (docs/single-dummy.md: "perfect" only where the
  search finishes).
* :class:`RuleBot` plays by a rule a beginner would: the highest card that wins the
  trick so far where one does, else the cheapest card (fewest points, then the weakest).

Each bot's ``choose(position, seed, cancel)`` returns a :class:`Choice`; a budget in nodes
makes the choice the same on any machine and at any number of workers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from atout.cards import TAROCK, token
from atout.position import Position
from atout.scoring import made_threshold
from atout.tricks import winning_index

from . import _optimal, ask_made, make_engine
from .advise import DEFAULT_SAMPLES, DRAW_TT_MB, advise, draw_tt_mb
from .cancel import Cancel
from .params import card_of_code

__all__ = ["AdviceBot", "PerfectBot", "RuleBot", "Choice", "bot_of"]


@dataclass
class Choice:
    """A bot's card (a token) and how it got there: ``how`` "advice" | "double dummy" |
    "guess" (the double-dummy search stopped by its budget) | "rule" | "only card";
    ``nodes`` searched; ``stopped``: a cancel stopped the search (the card is what it had)."""

    card: str
    how: str
    nodes: int = 0
    seconds: float = 0.0
    stopped: bool = False
    detail: dict = field(default_factory=dict)


@dataclass
class AdviceBot:
    """The advice's recommended card, from the seat's own view, within ``time_limit``
    seconds and/or ``node_limit`` nodes a card (at least one of them)."""

    time_limit: float | None = None
    node_limit: int | None = None
    samples: int = DEFAULT_SAMPLES
    workers: int | None = None

    @property
    def name(self) -> str:
        parts = [f"{self.time_limit:g} s" if self.time_limit else "",
                 f"{_nodes(self.node_limit)} nodes" if self.node_limit else ""]
        return "advice " + ", ".join(p for p in parts if p) + " a card"

    def choose(self, position: Position, seed: int, cancel: Cancel | None = None) -> Choice:
        started = time.perf_counter()
        a = advise(position, samples=self.samples, seed=seed, time_limit=self.time_limit,
                   node_limit=self.node_limit, workers=self.workers, cancel=cancel, budget=True)
        detail = {"solved": a.solved, "certainty": a.certainty, "decided": a.decided}
        chosen = a.recommended
        if chosen is None:          # (no draw had anything to say: a cancel at once)
            chosen = token(position.legal_cards()[0])
        return Choice(chosen, "advice", a.nodes, time.perf_counter() - started,
                      a.stopped_by == "cancel", detail)


@dataclass
class PerfectBot:
    """An optimal card of the real deal, every hand seen, within ``time_limit`` seconds
    and/or ``node_limit`` nodes a card (neither: no limit)."""

    time_limit: float | None = None
    node_limit: int | None = None

    @property
    def name(self) -> str:
        parts = [f"{self.time_limit:g} s" if self.time_limit else "",
                 f"{_nodes(self.node_limit)} nodes" if self.node_limit else ""]
        budget = ", ".join(p for p in parts if p)
        return "double dummy" + (f" {budget} a card" if budget else "")

    def choose(self, position: Position, seed: int = 0, cancel: Cancel | None = None) -> Choice:
        started = time.perf_counter()
        # one thread, a table that grows as a drawn deal's does: the same card every time
        engine = make_engine(position, draw_tt_mb(position), grow_to_mb=DRAW_TT_MB)
        engine.set_limits(int(self.node_limit or 0), float(self.time_limit or 0))
        if cancel is not None:
            cancel.attach(engine)
        try:
            names = card_of_code(position.rules)
            groups = engine.groups()
            done, lo, hi = ask_made(engine, made_threshold(position.contract, position.hands),
                                    *engine.bounds())
            if done:
                done, lo, hi = engine.value(at_least=lo, at_most=hi)
            if done:
                for rep in engine.move_codes():
                    done, ok = _optimal(engine, rep, lo, groups[rep])
                    if not done:
                        break
                    if ok:
                        return Choice(token(names[rep]), "double dummy", engine.nodes,
                                      time.perf_counter() - started, detail={"value": lo})
            guess = engine.best_guess()
            return Choice(token(names[guess]), "guess", engine.nodes, time.perf_counter() - started,
                          cancel is not None and cancel.is_set(), {"bounds": [lo, hi]})
        finally:
            if cancel is not None:
                cancel.detach(engine)


@dataclass
class RuleBot:
    """The highest card that wins the trick so far, where one does (a lead: any card
    but an Excuse or Narr); else the cheapest card — fewest points, then the weakest."""

    @property
    def name(self) -> str:
        return "rule"

    def choose(self, position: Position, seed: int = 0, cancel: Cancel | None = None) -> Choice:
        rules = position.rules
        seat = position.to_play
        legal = position.legal_cards()
        trick = list(position.trick)

        def strength(c):
            # tarock above every suit where tarock wins, then the card's power in its suit
            return (rules.trumps_win and rules.suit(c) == TAROCK, rules.power[c], -c)

        winners = [c for c in legal if winning_index(rules, trick + [(seat, c)]) == len(trick)]
        if winners:
            return Choice(token(max(winners, key=strength)), "rule")
        return Choice(token(min(legal, key=lambda c: (rules.points[c], rules.power[c], c))), "rule")


def _nodes(n: int) -> str:
    return f"{n / 1e6:g} M" if n >= 1_000_000 else f"{n:,}"


def bot_of(kind: str, *, time_limit: float | None = None, node_limit: int | None = None,
           samples: int = DEFAULT_SAMPLES, workers: int | None = None):
    """A bot by name: "advice", "perfect" or "rule" (the budget: see each)."""
    if kind == "advice":
        return AdviceBot(time_limit, node_limit, samples, workers)
    if kind == "perfect":
        return PerfectBot(time_limit, node_limit)
    if kind == "rule":
        return RuleBot()
    raise ValueError(f"no bot {kind!r}: advice, perfect or rule")
