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
from atout.scoring import made_threshold

from ._search import ALL_FEATURES, DEFAULT_FEATURES, FEATURES, MAX_THREADS, Engine
from .cancel import Cancel
from .params import card_of_code, code_of, engine_params

__all__ = ["Cancel", "MAX_THREADS", "SolveResult", "default_tt_mb", "made_of", "make_engine",
           "rebase_to", "solve"]

# The table size when the caller names none, by the cards still to play (docs/search.md,
# "Memory"): from 56 (fr4: 14 tricks) the searches run for minutes, and a whole fr4 deal's
# probes near its value cost 15-25x fewer nodes with 4 GB than with 256 MB; at 48-55 256 MB
# holds what the search stores (1 GB and 4 GB gave the same node counts at fr4's 12 tricks).
# Shorter searches store less, and a big fresh table costs them page faults and TLB misses:
# the 8-trick fr4 endgames solve in the same nodes about a quarter faster with 16 MB than
# with 256 MB, while 44 cards (fr4: 11 tricks) need 64 MB (16 MB: 27.5 M nodes against
# 19.1 M).  The memory is mapped lazily, so a search touches only what it uses; two
# whole-deal searches fit a 24 GiB machine.
TT_MB_BY_CARDS = ((56, 4096), (48, 256), (44, 64), (0, 16))   # (from cards in play, MB)
BIG_TT_MB = TT_MB_BY_CARDS[0][1]
STATUS_OK, STATUS_LIMIT = "ok", "limit"
#: How the threads of one search start, for testing the parallel search: (help_after,
#: defer_tricks, young) as ``Engine.set_threads`` takes them; None for the engine's own
#: (the helpers join a search once it has run 2^16 / threads nodes alone).  The tests set
#: (0, 0, 1), so that the smallest search runs on every thread and shares every node's
#: cards from its second on.
THREAD_TUNING: tuple[int, ...] | None = None


@dataclass
class SolveResult:
    """The answer for one position (docs/format.md, "Result of a solve").

    ``status`` is ``ok`` (``value`` exact) or ``limit``: a time or node limit, or a
    :class:`Cancel` switch, stopped the search (``stopped_by``: ``time`` | ``nodes`` |
    ``cancel``) and ``bounds`` = [low, high] is what was proven; ``value`` is then None,
    unless the bounds meet (the value proven, the best cards or the line not yet).
    ``made``: whether the taker's/declarer's camp makes its contract from here (True,
    False, or None when not proven — and always in Trischaken, which has none).
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
    best_guess: str | None = None
    card_bounds: dict[str, list[int]] | None = None
    made: bool | None = None

    def to_json(self) -> dict:
        obj = {"id": self.id, "status": self.status, "value": self.value, "made": self.made,
               "to_play": self.to_play, "best": self.best}
        if self.cards is not None:
            obj["cards"] = self.cards
        obj.update({"line": self.line, "outcome": self.outcome, "nodes": self.nodes,
                    "seconds": round(self.seconds, 6)})
        if self.bounds is not None:
            obj["bounds"] = self.bounds
        if self.stopped_by is not None:
            obj["stopped_by"] = self.stopped_by
            obj["best_guess"] = self.best_guess
            if self.card_bounds is not None:
                obj["card_bounds"] = self.card_bounds
        return obj


def default_tt_mb(tricks_left: int, seats: int = 4) -> int:
    """The table size (MB) for a search with ``tricks_left`` tricks of ``seats`` cards to play."""
    cards = tricks_left * seats
    return next(mb for least, mb in TT_MB_BY_CARDS if cards >= least)


def make_engine(position: Position, tt_mb: int | None = None, features: int = DEFAULT_FEATURES,
                grow_to_mb: int = 0) -> Engine:
    """An engine at ``position`` (its played cards replayed), with a fresh table: of
    ``tt_mb`` MB, or by default sized by the cards left to play (``default_tt_mb``) and
    growing up to ``BIG_TT_MB`` while a long search needs room; a table of ``tt_mb`` MB
    grows up to ``grow_to_mb`` (0: never).

    ``features``: the search techniques switched on (``FEATURES``; DEFAULT_FEATURES) —
    fewer only to measure them or to check the search against its plain self."""
    params = engine_params(position)
    grow_to = grow_to_mb
    if not tt_mb:
        # by the cards left to play, and room to grow up to BIG_TT_MB for a search that
        # runs long (a 12-trick position can outgrow 256 MB: docs/search.md, "Memory")
        tt_mb = default_tt_mb(params["tricks"] - len(position.played) // params["seats"], params["seats"])
        grow_to = BIG_TT_MB
    engine = Engine(params, int(tt_mb), features, grow_to)
    for c in position.played:
        engine.play(code_of(position.rules, c))
    return engine


def rebase_to(engine: Engine, position: Position) -> None:
    """Move ``engine`` to ``position`` (its played cards replayed), a deal of the same game
    and contract as the engine's (ValueError otherwise), keeping its table warm:
    ``Engine.rebase`` says why that is sound.  The contract table takes a garde's écarts
    so, one after the other on one engine (solver/ecarts.py)."""
    engine.rebase(engine_params(position))
    for c in position.played:
        engine.play(code_of(position.rules, c))


def made_of(lo: int, hi: int, threshold: int | None) -> bool | None:
    """What the bounds [lo, hi] of a value prove of the contract (``made_threshold``):
    made, not made, or None (open, or no contract)."""
    if threshold is None:
        return None
    if lo >= threshold:
        return True
    if hi < threshold:
        return False
    return None


def ask_made(engine: Engine, threshold: int | None, lo: int, hi: int) -> tuple[bool, int, int]:
    """The contract question at the engine's root, whose value is known to lie in
    [lo, hi]: one null-window probe at ``threshold`` unless the bounds answer it.
    Returns (complete, lo, hi), the bounds narrowed by the probe's fail-soft answer.

    Measured on the bench sets (``bench/totals.py --made-first``), asking it before the
    value costs nothing: its answer is a bound the value's walk would prove anyway, and
    the walk starts from it (fr4-end8 -1.4 % nodes, priest5-end8 -10 %, fr4-mid12 and
    11-trick fr4 positions within 3 %)."""
    if made_of(lo, hi, threshold) is not None or threshold is None:
        return True, lo, hi
    done, v = engine.search_window(threshold - 1, threshold)
    if not done:
        return False, lo, hi
    return (True, max(lo, v), hi) if v >= threshold else (True, lo, min(hi, v))


def _known(engine: Engine, codes, value: int) -> tuple[int, int]:
    """(lo, hi): what is known of the value of a group of equivalent cards (one value for
    all) at a node whose value is ``value``: what the probes so far proved of any of
    them, and that no card is worth more than the node at a node of the maximizing camp,
    none less at the other camp's."""
    bounds = [engine.card_bounds(c) for c in codes]
    lo, hi = max(b[0] for b in bounds), min(b[1] for b in bounds)
    if engine.maximizing():
        return lo, min(hi, value)
    return max(lo, value), hi


def _optimal(engine: Engine, code: int, value: int, codes=()) -> tuple[bool, bool]:
    """(complete, is ``code`` optimal at a node whose value is ``value``).  ``codes``: the
    cards equivalent to it, whose proven bounds count for it too."""
    lo, hi = _known(engine, (code, *codes), value)
    if lo == value == hi:
        return True, True
    if lo > value or hi < value:
        return True, False
    if engine.maximizing():
        done, ok = engine.child_at_least(code, value)
        return done, ok
    done, higher = engine.child_at_least(code, value + 1)
    return done, not higher


def solve(position, *, all_cards: bool = False, time_limit: float | None = None,
          node_limit: int | None = None, tt_mb: int | None = None,
          cancel: Cancel | None = None, threads: int = 1,
          features: int = DEFAULT_FEATURES) -> SolveResult:
    """Solve ``position`` (a Position or a position JSON object) double dummy.

    ``time_limit`` (seconds), ``node_limit`` and ``cancel`` (a :class:`Cancel` set from
    another thread) stop the search cleanly: the result then has status ``limit``, the
    proven ``bounds`` and ``stopped_by``.  ``tt_mb`` bounds the memory of the
    transposition table (default: by the cards left to play, ``default_tt_mb``).  ``threads`` (1 to
    MAX_THREADS) searches with that many threads on one table (docs/search.md, "Threads";
    the node limit counts the nodes of them all).  ``features`` switches search techniques off (see ``FEATURES``): for measuring
    them and checking the search against its plain self.
    """
    if not isinstance(position, Position):
        position = parse_position(position)
    check_limits(time_limit, node_limit, tt_mb)
    check_threads(threads)
    started = time.perf_counter()
    if position.is_finished():
        out = position.outcome()
        return SolveResult(position.id, out["value"], None, [], [], out, 0,
                           time.perf_counter() - started, made=out.get("made"))

    engine = make_engine(position, tt_mb, features)
    set_threads(engine, threads)
    engine.set_limits(int(node_limit or 0), float(time_limit or 0))
    if cancel is not None:
        cancel.attach(engine)
    try:
        return _solve(position, engine, all_cards, started, node_limit, cancel)
    finally:
        if cancel is not None:
            cancel.detach(engine)


def set_threads(engine: Engine, threads: int) -> None:
    """``engine`` searches on ``threads`` threads (THREAD_TUNING applied)."""
    engine.set_threads(threads, *(THREAD_TUNING or ()))


def check_limits(time_limit=None, node_limit=None, tt_mb=None) -> None:
    """A search's limits, where given: a ValueError naming the first that is wrong."""
    if time_limit is not None and not time_limit > 0:
        raise ValueError("time_limit must be greater than 0")
    if node_limit is not None and (int(node_limit) != node_limit or node_limit <= 0):
        raise ValueError("node_limit must be a positive whole number")
    if tt_mb is not None and (int(tt_mb) != tt_mb or tt_mb <= 0):
        raise ValueError("tt_mb must be a positive whole number")


def check_threads(threads) -> None:
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}")


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
    to_play = position.to_play
    threshold = made_threshold(position.contract, position.hands)

    def name(code: int) -> str:
        return token(names[code])

    def result(status, value, best, line, cards, bounds=None, card_bounds=None, best_guess=None):
        if value is None and bounds is not None and bounds[0] == bounds[1]:
            value = bounds[0]                   # stopped after the value was proven
        out = None
        if line:
            end = position.copy()
            for c in line:
                end.play(c)
            out = end.outcome() if end.is_finished() else None
        r = SolveResult(position.id, value, to_play, [name(c) for c in sorted(best)],
                        [token(c) for c in line], out, engine.nodes,
                        time.perf_counter() - started, status, bounds,
                        None if cards is None else {name(c): v for c, v in sorted(cards.items())},
                        None if status == STATUS_OK else _stopped_by(engine, node_limit, cancel))
        r.made = made_of(*(bounds or (value, value)), threshold)
        if status != STATUS_OK:
            r.best_guess = None if best_guess is None else name(best_guess)
            if card_bounds is not None:
                r.card_bounds = {name(c): list(card_bounds[r_]) for r_, cs in groups.items()
                                 for c in cs if r_ in card_bounds}
        return r

    # The contract question first ("made?": one probe, often cheap where the value is
    # dear, and never wasted: its bound starts the value's walk), then the value, then
    # what each card is worth: with the table warm and the value as the guess, an
    # optimal card costs two probes ("≥ v", "≥ v + 1") or one.
    done, lo, hi = ask_made(engine, threshold, *engine.bounds())
    if done:
        done, lo, hi = engine.value(at_least=lo, at_most=hi)
    if not done:
        guess = engine.best_guess()
        cards_known = {r: engine.child_bounds(r) for r in order} if all_cards else None
        return result(STATUS_LIMIT, None, [], [], None, [lo, hi], cards_known, guess)
    value = lo
    values: dict[int, int] = {}
    best_reps = []
    for rep in order:
        if all_cards:
            # the value's own probes bounded many cards already
            klo, khi = _known(engine, groups[rep], value)
            guess = min(max(value, klo), khi)
            done, clo, chi = engine.child_value(rep, guess=guess, at_most=khi, at_least=klo)
            if not done:
                known = {r: (values[r], values[r]) for r in values}
                known[rep] = (clo, chi)
                for r in order:
                    known.setdefault(r, engine.child_bounds(r))
                guess = best_reps[0] if best_reps else engine.best_guess()
                return result(STATUS_LIMIT, None, [], [], None, [value, value], known, guess)
            values[rep] = clo
            ok = clo == value
        else:
            done, ok = _optimal(engine, rep, value, groups[rep])
            if not done:
                guess = best_reps[0] if best_reps else engine.best_guess()
                return result(STATUS_LIMIT, None, [], [], None, [value, value], None, guess)
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
                return result(STATUS_LIMIT, None, best, [], cards, [value, value], None, best_reps[0])
            if ok:
                break
        else:  # pragma: no cover - the value is kept along an optimal line
            raise AssertionError("no optimal card found along the best line")
        line.append(names[rep])
        engine.play(rep)
    return result(STATUS_OK, value, best, line, cards)
