"""The double-dummy solver: exact values, every optimal card, one best line.

>>> from atout.solver import solve                       # doctest: +SKIP
>>> r = solve(position, all_cards=True)                  # doctest: +SKIP
>>> r.value, r.best, r.cards, r.line, r.outcome          # doctest: +SKIP

The search itself is the compiled module ``_search`` (C, no GIL held); this layer
turns a :class:`~atout.position.Position` into its rule parameters, drives the
search and returns plain Python objects.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from atout.cards import token
from atout.position import Position, parse_position

from ._search import ALL_FEATURES, DEFAULT_FEATURES, FEATURES, Engine
from .cancel import Cancel
from .params import card_of_code, code_of, engine_params

__all__ = ["Cancel", "SolveResult", "make_engine", "solve"]

DEFAULT_TT_MB = 256
STATUS_OK, STATUS_LIMIT = "ok", "limit"


@dataclass
class SolveResult:
    """The answer for one position (FORMAT.md "Result of a solve").

    ``status`` is ``ok`` (``value`` exact) or ``limit``: a time or node limit, or a
    :class:`Cancel` switch, stopped the search (``stopped_by``: ``time`` | ``nodes`` |
    ``cancel``) and ``bounds`` = [low, high] is what was proven; ``value`` is then None.
    """

    id: Any
    value: int | None
    to_play: int | None
    best: list[str]
    line: list[str]
    outcome: dict | None
    nodes: int
    seconds: float
    status: str = STATUS_OK
    bounds: list[int] | None = None
    cards: dict[str, int] | None = None
    stopped_by: str | None = None

    def to_json(self) -> dict:
        obj = {"id": self.id, "status": self.status, "value": self.value, "to_play": self.to_play,
               "best": self.best}
        if self.cards is not None:
            obj["cards"] = self.cards
        obj.update({"line": self.line, "outcome": self.outcome, "nodes": self.nodes,
                    "seconds": round(self.seconds, 6)})
        if self.bounds is not None:
            obj["bounds"] = self.bounds
        if self.stopped_by is not None:
            obj["stopped_by"] = self.stopped_by
        return obj


def make_engine(position: Position, tt_mb: int | None = None, features: int = DEFAULT_FEATURES) -> Engine:
    """An engine at ``position`` (its played cards replayed), with a fresh table.

    ``features``: the search techniques switched on (``FEATURES``; DEFAULT_FEATURES) —
    fewer only to measure them or to check the search against its plain self."""
    engine = Engine(engine_params(position), int(tt_mb or DEFAULT_TT_MB), features)
    for c in position.played:
        engine.play(code_of(position.rules, c))
    return engine


def _optimal(engine: Engine, code: int, value: int) -> tuple[bool, bool]:
    """(complete, is ``code`` optimal at a node whose value is ``value``)."""
    if engine.maximizing():
        done, ok = engine.child_at_least(code, value)
        return done, ok
    done, higher = engine.child_at_least(code, value + 1)
    return done, not higher


def solve(position, *, all_cards: bool = False, time_limit: float | None = None,
          node_limit: int | None = None, tt_mb: int | None = None,
          cancel: Cancel | None = None, features: int = DEFAULT_FEATURES) -> SolveResult:
    """Solve ``position`` (a Position or a position JSON object) double dummy.

    ``time_limit`` (seconds), ``node_limit`` and ``cancel`` (a :class:`Cancel` set from
    another thread) stop the search cleanly: the result then has status ``limit``, the
    proven ``bounds`` and ``stopped_by``.  ``tt_mb`` bounds the memory of the
    transposition table (default 256 MB).  ``features`` switches search techniques off
    (see ``FEATURES``): for measuring them and checking the search against its plain self.
    """
    if not isinstance(position, Position):
        position = parse_position(position)
    if time_limit is not None and not time_limit > 0:
        raise ValueError("time_limit must be greater than 0")
    if node_limit is not None and (int(node_limit) != node_limit or node_limit <= 0):
        raise ValueError("node_limit must be a positive whole number")
    if tt_mb is not None and (int(tt_mb) != tt_mb or tt_mb <= 0):
        raise ValueError("tt_mb must be a positive whole number")
    started = time.perf_counter()
    if position.is_finished():
        out = position.outcome()
        return SolveResult(position.id, out["value"], None, [], [], out, 0,
                           time.perf_counter() - started)

    engine = make_engine(position, tt_mb, features)
    engine.set_limits(int(node_limit or 0), float(time_limit or 0))
    if cancel is not None:
        cancel.attach(engine)
    try:
        return _solve(position, engine, all_cards, started, node_limit, cancel)
    finally:
        if cancel is not None:
            cancel.detach(engine)


def _stopped_by(engine: Engine, node_limit, cancel) -> str:
    if cancel is not None and cancel.is_set():
        return "cancel"
    if node_limit and engine.nodes >= node_limit:
        return "nodes"
    return "time"


def _solve(position: Position, engine: Engine, all_cards: bool, started: float,
           node_limit, cancel) -> SolveResult:
    rules = position.rules
    names = card_of_code(rules)
    groups = engine.groups()
    order = engine.move_codes()
    maximizing = engine.maximizing()
    to_play = position.to_play

    def result(status, value, best, line, cards, bounds=None):
        out = None
        if line:
            end = position.copy()
            for c in line:
                end.play(c)
            out = end.outcome() if end.is_finished() else None
        return SolveResult(position.id, value, to_play,
                           [token(names[c]) for c in sorted(best)],
                           [token(c) for c in line], out, engine.nodes,
                           time.perf_counter() - started, status, bounds,
                           None if cards is None else {token(names[c]): v for c, v in sorted(cards.items())},
                           None if status == STATUS_OK else _stopped_by(engine, node_limit, cancel))

    # The value, and every optimal group of equivalent cards.
    values: dict[int, int] = {}
    if all_cards:
        proven = []
        for rep in order:
            done, lo, hi = engine.child_value(rep)
            if not done:
                return result(STATUS_LIMIT, None, [], [], None,
                              _partial_bounds(engine, maximizing, proven, (lo, hi)))
            proven.append((lo, hi))
            values[rep] = lo
        value = max(values.values()) if maximizing else min(values.values())
        best_reps = [r for r in order if values[r] == value]
    else:
        done, lo, hi = engine.value()
        if not done:
            return result(STATUS_LIMIT, None, [], [], None, [lo, hi])
        value = lo
        best_reps = []
        for rep in order:
            done, ok = _optimal(engine, rep, value)
            if not done:
                return result(STATUS_LIMIT, None, [], [], None, [value, value])
            if ok:
                best_reps.append(rep)

    best = [c for r in best_reps for c in groups[r]]
    cards = None
    if all_cards:
        cards = {c: values[r] for r, cs in groups.items() for c in cs}

    # One optimal line: at every card, the first optimal card in search order.
    line = [names[best_reps[0]]]
    engine.play(best_reps[0])
    while not engine.finished():
        for rep in engine.move_codes():
            done, ok = _optimal(engine, rep, value)
            if not done:
                return result(STATUS_LIMIT, None, best, [], cards, [value, value])
            if ok:
                break
        else:  # pragma: no cover - the value is kept along an optimal line
            raise AssertionError("no optimal card found along the best line")
        line.append(names[rep])
        engine.play(rep)
    return result(STATUS_OK, value, best, line, cards)


def _partial_bounds(engine: Engine, maximizing: bool, proven: list, current: tuple) -> list[int]:
    """Root bounds when a limit stopped the per-card values part way."""
    lo, hi = engine.bounds()
    known = proven + [current]
    if maximizing:
        lo = max([lo] + [p[0] for p in known])
    else:
        hi = min([hi] + [p[1] for p in known])
    return [lo, hi]
