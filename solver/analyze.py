"""Card-by-card double-dummy analysis of a played deal (``atout analyze``).

>>> import atout
>>> report = atout.analyze(position_obj)                  # doctest: +SKIP
>>> report["start_value"], report["plays"][0]["cost"]     # doctest: +SKIP

For every card played: the value of the position before and after it, what it cost
its camp against the best card there (0 when it was optimal) and every optimal card
there (equivalent cards included).  The taker's / declarer's camp maximises the
value (Trischaken: the analysed seat minimises), so the cost of a card is
``value_before - value_after`` for a maximizing seat and ``value_after - value_before``
for a minimizing one; it is never negative.  Summed over the deal, the maximizing
camp's costs minus the minimizing camp's costs equal ``start_value`` minus the value
after the last card (the outcome's value when the deal is finished).

The analysis runs from the last card back to the first.  The later positions are the
small ones, so a time limit, a node budget or Ctrl-C that stops it leaves a complete
analysis of the deal's last cards — on a whole deal too big to solve from its start,
as many of its last tricks as the time allowed — where a walk from the first card
would have nothing to show.  One engine serves every position, its transposition
table kept warm: going back one card, the value after that card is known, so it is
both the guess and a bound for the value before it, and the card played is known to
be worth it.  (Measured on eight random fr4 deals analysed over their last nine
tricks: 2.5 s backwards against 2.4 s forwards, docs/search.md.)
``reuse_table=False`` builds a fresh engine for every position instead — the same
answers, for measuring what the warm table saves.
"""

from __future__ import annotations

import time
from typing import Any

from atout.cards import token
from atout.position import Position, parse_position

from . import _optimal, check_threads, default_tt_mb, make_engine, set_threads
from .cancel import Cancel
from .params import card_of_code, code_of

__all__ = ["analyze", "AnalysisLimit"]


class AnalysisLimit(Exception):
    """The time limit stopped the analysis; ``partial`` is the report of the cards
    analysed so far: the deal's last ones (``plays`` shorter than the deal,
    ``start_value`` the value before the first of them, ``outcome`` None)."""

    def __init__(self, message: str, partial: dict):
        super().__init__(message)
        self.partial = partial


def analyze(position: Any, *, start: int = 0, time_limit: float | None = None,
            tt_mb: int | None = None, reuse_table: bool = True,
            cancel: Cancel | None = None, threads: int = 1) -> dict:
    """Analyse the cards of ``position`` (a Position or a position JSON object).

    ``start``: how many of the played cards to take as given; the analysis begins
    after them (default 0: from the first card).  ``time_limit`` (seconds) bounds the
    whole analysis; when it runs out, or ``cancel`` (a :class:`~atout.solver.Cancel`) is
    set from another thread, :class:`AnalysisLimit` is raised with the analysis of the
    last cards, those it reached going back from the end.  ``threads``: threads per
    search (1 to MAX_THREADS), on the one table.  Bad input
    raises :class:`~atout.errors.PositionError`.

    Returns ``{"id", "start_value", "plays": [{"index", "seat", "card", "value_before",
    "value_after", "cost", "best"}], "seats": [{"seat", "cards", "mistakes", "cost"}],
    "outcome"}`` — ``index`` is the card's index in ``played``, ``outcome`` (FORMAT.md)
    is None unless the deal is finished.
    """
    if not isinstance(position, Position):
        position = parse_position(position)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= len(position.played):
        raise ValueError(f"start must be a whole number from 0 to {len(position.played)} "
                         f"(the cards played)")
    if time_limit is not None and not time_limit > 0:
        raise ValueError("time_limit must be greater than 0")
    if tt_mb is not None and (int(tt_mb) != tt_mb or tt_mb <= 0):
        raise ValueError("tt_mb must be a positive whole number")
    check_threads(threads)

    rules = position.rules
    names = card_of_code(rules)
    played = list(position.played)

    def before(index: int) -> Position:
        """The deal with its first ``index`` played cards."""
        at = Position(position.game, position.hands, position.first, position.contract,
                      position.id)
        for c in played[:index]:
            at.play(c)
        return at

    report = {"id": position.id, "start_value": None, "plays": [],
              "seats": [{"seat": s, "cards": 0, "mistakes": 0, "cost": 0}
                        for s in range(position.seats)],
              "outcome": None}

    deadline = None if time_limit is None else time.perf_counter() + time_limit

    def deadline_left() -> float:
        if deadline is None:
            return 0.0
        return max(deadline - time.perf_counter(), 1e-6)

    def limit(what: str):
        why = "interrupted" if cancel is not None and cancel.is_set() else \
            f"time limit of {time_limit:g} s reached"
        return AnalysisLimit(f"{why} {what} "
                             f"({len(report['plays'])} of {len(played) - start} cards analysed)",
                             report)

    codes = [code_of(rules, c) for c in played]
    # one table for every position: sized for the biggest, the first one analysed
    size = tt_mb or default_tt_mb(rules.hand_size - start // position.seats, position.seats)
    end = before(len(played))

    def engine_at(index: int, engine=None):
        """An engine at the position before card ``index`` (the warm one, rewound)."""
        if engine is None or not reuse_table:
            engine = make_engine(before(index), size)
            set_threads(engine, threads)
            engine.set_limits(0, deadline_left())
            if cancel is not None:
                cancel.attach(engine)
            return engine
        engine.rewind()
        for c in codes[:index]:
            engine.play(c)
        return engine

    def node_value(e, **known) -> int:
        if e.finished():
            return e.final_value()
        done, lo, _ = e.value(**known)
        if not done:
            raise limit("while solving")
        return lo

    # The value after the last card: the outcome of a finished deal, else a search.
    engine = None
    if end.is_finished():
        after = end.outcome()["value"]
    else:
        engine = engine_at(len(played))
        after = node_value(engine)
    if start == len(played):
        report["start_value"] = after
    plays = report["plays"]
    for index in range(len(played) - 1, start - 1, -1):
        engine = engine_at(index, engine)
        code = codes[index]
        maximizing = engine.maximizing()
        # The card played is worth ``after``; the value before it is at least that for
        # the maximizing camp, at most that for the other (and the first guess).
        engine.learn(code, after, after)
        value = node_value(engine, guess=after, at_least=after if maximizing else None,
                           at_most=None if maximizing else after)
        groups = engine.groups()
        reps = engine.move_codes()
        if len(reps) == 1:
            best_reps = reps
        else:
            best_reps = []
            for rep in reps:
                done, ok = _optimal(engine, rep, value, groups[rep])
                if not done:
                    raise limit("while finding the optimal cards")
                if ok:
                    best_reps.append(rep)
        best = sorted(m for r in best_reps for m in groups[r])
        seat = engine.to_play()
        cost = (value - after) if maximizing else (after - value)
        plays.insert(0, {"index": index, "seat": seat, "card": token(played[index]),
                         "value_before": value, "value_after": after, "cost": cost,
                         "best": [token(names[m]) for m in best]})
        summary = report["seats"][seat]
        summary["cards"] += 1
        summary["cost"] += cost
        summary["mistakes"] += cost > 0
        report["start_value"] = value      # the value before the earliest card analysed
        after = value

    if end.is_finished():
        report["outcome"] = end.outcome()
    return report
