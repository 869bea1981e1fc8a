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

One engine walks the whole deal: after each card it plays that card at its root and
keeps its transposition table, so each search starts from what the previous ones
proved (as DDS's play analyser does).  ``reuse_table=False`` builds a fresh engine for
every prefix instead — the same answers, for measuring what the warm table saves.
"""

from __future__ import annotations

import time
from typing import Any

from atout.cards import token
from atout.position import Position, parse_position

from . import _optimal, check_threads, make_engine
from .cancel import Cancel
from .params import card_of_code, code_of

__all__ = ["analyze", "AnalysisLimit"]


class AnalysisLimit(Exception):
    """The time limit stopped the analysis; ``partial`` is the report of the cards
    analysed so far (``plays`` shorter than the deal, ``outcome`` None)."""

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
    set from another thread, :class:`AnalysisLimit` is raised.  ``threads``: threads per
    search (1 to 8), on one table.  Bad input
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
    node = Position(position.game, position.hands, position.first, position.contract, position.id)
    for c in played[:start]:
        node.play(c)

    report = {"id": position.id, "start_value": None, "plays": [],
              "seats": [{"seat": s, "cards": 0, "mistakes": 0, "cost": 0}
                        for s in range(position.seats)],
              "outcome": None}

    deadline = None if time_limit is None else time.perf_counter() + time_limit

    def deadline_left() -> float:
        if deadline is None:
            return 0.0
        return max(deadline - time.perf_counter(), 1e-6)

    def fresh_engine():
        e = make_engine(node, tt_mb)
        e.set_threads(threads)
        e.set_limits(0, deadline_left())
        if cancel is not None:
            cancel.attach(e)
        return e

    def limit(what: str):
        why = "interrupted" if cancel is not None and cancel.is_set() else \
            f"time limit of {time_limit:g} s reached"
        return AnalysisLimit(f"{why} {what} "
                             f"({len(report['plays'])} of {len(played) - start} cards analysed)",
                             report)

    def node_value(e, guess=None) -> int:
        if e.finished():
            return e.final_value()
        done, lo, _ = e.value(guess)      # the value before the card: a close guess
        if not done:
            raise limit("while solving")
        return lo

    engine = fresh_engine()
    value = node_value(engine)
    report["start_value"] = value

    for index in range(start, len(played)):
        c = played[index]
        seat = node.to_play
        code = code_of(rules, c)
        if not reuse_table and index > start:
            # solving this prefix from scratch: a new engine, its value searched again
            engine = fresh_engine()
            value = node_value(engine)
        maximizing = engine.maximizing()
        groups = engine.groups()
        reps = engine.move_codes()
        rep_of = {m: r for r, members in groups.items() for m in members}
        if len(reps) == 1:
            best_reps = reps
        else:
            best_reps = []
            for rep in reps:
                done, ok = _optimal(engine, rep, value)
                if not done:
                    raise limit("while finding the optimal cards")
                if ok:
                    best_reps.append(rep)
        best = sorted(m for r in best_reps for m in groups[r])
        optimal = rep_of[code] in best_reps

        engine.play(code)
        node.play(c)
        if optimal:
            after = value
        else:
            after = node_value(engine, value)
        cost = (value - after) if maximizing else (after - value)
        report["plays"].append({"index": index, "seat": seat, "card": token(c),
                                "value_before": value, "value_after": after, "cost": cost,
                                "best": [token(names[m]) for m in best]})
        summary = report["seats"][seat]
        summary["cards"] += 1
        summary["cost"] += cost
        summary["mistakes"] += cost > 0
        value = after

    if node.is_finished():
        report["outcome"] = node.outcome()
    return report
