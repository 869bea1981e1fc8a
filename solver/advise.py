"""Single-dummy advice: the best card from what the seat to play could know (``atout advise``).

>>> from atout.solver.advise import advise                     # doctest: +SKIP
>>> a = advise(position, samples=100, seed=7)                  # doctest: +SKIP
>>> a.recommended, a.certainty, a.cards[1]["p_better"]         # doctest: +SKIP

The deals the seat cannot tell from the true one (:mod:`atout.knowledge`) are drawn
uniformly (:mod:`atout.sampler`), each drawn deal is solved double dummy for the legal
cards of the seat still in the running, and the cards are compared over the draws, each
against the recommended card (the best mean for the seat's camp) over the same draws:
:mod:`atout.solver.race` keeps the draws in order, reads the paired statistics at fixed
numbers of draws, drops the cards far behind, and stops once the recommended card is
ahead with the asked confidence — ``samples`` is the most draws, not the number.  Cards
worth the same in every deal the seat considers possible (:mod:`atout.solver.equivalent`)
are one choice, valued once; a seat with one choice is answered at once.

A draw's work: the deal's value (the contract's question first, as ``solve`` asks it),
then the exact value of each card still in the running, each walk starting from what the
value's probes proved of it.  Draws are solved on every core, one search per core
(threads: the search holds no lock while it runs), each with its own engine and table;
a draw left running while other workers have nothing to begin takes their cores for its
next searches (threads under one search: the slow draw of a look, or the last ones).

A **budgeted** advice (a time or node limit) asks less of each draw
(:func:`budget_cards`): the contract's question, the deal's value, the exact value of the
cards still in contention only — the others keep the bounds proven of them — each draw's
searches capped (:func:`draw_nodes`) and on one thread, so that many draws fit the time
and a node budget gives the same advice on any machine (docs/single-dummy.md, "Advice in
a budget").

Sampling is not proof: see docs/single-dummy.md for how to read the advice (strategy
fusion, and what the seat is assumed to know).
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from atout import options
from atout.cards import EXCUSE, token
from atout.contract import DECLARER_CAMP
from atout.errors import PositionError
from atout.games import AT4_BIRD, AT4_NEGATIVE_TRICKS
from atout.position import Position, parse_position
from atout.scoring import made_threshold

from . import (DEFAULT_FEATURES, FEATURES, MAX_THREADS, ask_made, default_tt_mb, made_of,
               make_engine, _known)
from .cancel import Cancel
from .params import card_of_code
from .race import AGAIN, DEFAULT_CONFIDENCE, WAIT, Draws, Race

__all__ = ["Advice", "Draws", "advise", "budget_cards", "budget_of", "check", "draw", "draw_nodes",
           "made", "made_flags", "solve_cards", "put_together", "start", "default_workers",
           "DEFAULT_SAMPLES", "DEFAULT_CONFIDENCE"]

DEFAULT_SAMPLES = options.ADVICE_SAMPLES
MAX_SAMPLES = options.MAX_SAMPLES


def default_workers() -> int:
    """Every core of this machine (at most 64): the searches run side by side."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(64, cores))


# -- one drawn deal ----------------------------------------------------------------------------

@dataclass
class CardValues:
    """The double-dummy values of the cards asked in one deal: ``values`` {card: value}
    when ``exact``, else {card: [low, high]} proven before a limit stopped the search;
    ``value`` the deal's value (its best card's, every legal card counted) when exact;
    ``width`` how far apart two cards' values can be in the deal (:func:`value_width`).

    A budgeted draw (:func:`budget_cards`) is ``complete`` when no time limit or cancel
    stopped it: its ``values`` then mix numbers (exact) and [low, high] (the bounds proven
    of a card left out of contention, or of one its node cap stopped: ``capped``), its
    ``value`` a number or [low, high]; ``first``: the card its search would try first."""

    exact: bool
    values: dict
    value: Any = None
    nodes: int = 0
    width: int = 0
    complete: bool | None = None   # (default: exact — a plain draw is complete when exact)
    capped: bool = False
    first: str | None = None

    def __post_init__(self):
        if self.complete is None:
            self.complete = self.exact


#: the table of a drawn deal's search when none is asked (MB): it starts at the solver's
#: own size for that many cards and grows up to this while the search gives up entries (a
#: single search may grow its table to 4 GB; an advice runs one search per core, each a
#: drawn deal from 12 tricks out at most, which 256 MB holds: docs/search.md, "Memory").
#: Growing matters: a drawn deal can be far harder than the real one its size is set by
#: (a hard 10-trick fr4 advice: 0.45-0.62x the CPU against a fixed 16 MB; docs/single-dummy.md)
DRAW_TT_MB = 256


def draw_tt_mb(position: Position) -> int:
    """The table size (MB) a drawn deal's search at ``position`` starts on: see DRAW_TT_MB."""
    tricks_left = position.rules.hand_size - len(position.played) // position.seats
    return min(DRAW_TT_MB, default_tt_mb(tricks_left, position.seats))


def value_width(position: Position) -> int:
    """How far apart the values of two legal cards of ``position`` can be: the width of the
    solver's cheap bounds without the sure points (every point still in play to one camp,
    or none of them), which hold for every line of play from here — the range the tests of
    the advice bet within (:mod:`atout.solver.race`).  The sure points are left out: they
    bound the value of the position, not that of each card."""
    lo, hi = make_engine(position, 1, features=DEFAULT_FEATURES & ~FEATURES["sure"]).bounds()
    return hi - lo


def solve_cards(position: Position, *, cards=None, time_limit: float | None = None,
                cancel: Cancel | None = None, tt_mb: int | None = None, cancels=(),
                threads: Callable[[], int] | None = None) -> CardValues:
    """The value of each legal card of the seat to play in ``cards`` (tokens; None: every
    one), double dummy, and the deal's value (the values of ``atout solve --all``
    without the line).  A limit, ``cancel`` or one of ``cancels`` leaves the proven
    bounds.  ``tt_mb``: the table, fixed (default: :func:`draw_tt_mb`, growing up to
    DRAW_TT_MB).  ``threads()``: the threads for each next search (default one).  An
    exact answer also has the deal's :func:`value_width`."""
    engine = (make_engine(position, tt_mb) if tt_mb else
              make_engine(position, draw_tt_mb(position), grow_to_mb=DRAW_TT_MB))
    engine.set_limits(0, float(time_limit or 0))
    stops = [c for c in (cancel, *cancels) if c is not None]
    for c in stops:
        c.attach(engine)
    start = engine.nodes
    try:
        names = card_of_code(position.rules)
        groups = engine.groups()
        wanted = None if cards is None else set(cards)
        order = [rep for rep in engine.move_codes()
                 if wanted is None or any(token(names[c]) in wanted for c in groups[rep])]

        def spread(known: dict) -> dict:
            return {token(names[c]): v for rep, v in known.items() for c in groups[rep]
                    if wanted is None or token(names[c]) in wanted}

        def more_threads():
            if threads is not None:
                n = max(1, min(MAX_THREADS, threads()))
                if n != engine.threads:
                    engine.set_threads(n)

        # The contract's question first: one probe, and never wasted (its bound starts
        # the value's walk: atout.solver.ask_made)
        more_threads()
        done, lo, hi = ask_made(engine, made_threshold(position.contract, position.hands), *engine.bounds())
        if done:
            more_threads()
            done, lo, hi = engine.value(at_least=lo, at_most=hi)
        if not done:
            return CardValues(False, spread({r: list(engine.child_bounds(r)) for r in order}),
                              nodes=engine.nodes - start)
        value = lo
        values: dict = {}
        for rep in order:
            # what the value's probes proved of the card, and that no card is worth more
            # than the value to the camp to play (none less to the other)
            klo, khi = _known(engine, groups[rep], value)
            more_threads()
            done, clo, chi = engine.child_value(rep, guess=min(max(value, klo), khi),
                                                at_least=klo, at_most=khi)
            if not done:
                known = {r: [v, v] for r, v in values.items()}
                known[rep] = [clo, chi]
                for r in order:
                    known.setdefault(r, list(engine.child_bounds(r)))
                return CardValues(False, spread(known), nodes=engine.nodes - start)
            values[rep] = clo
        return CardValues(True, spread(values), value, engine.nodes - start, value_width(position))
    finally:
        for c in stops:
            c.detach(engine)


#: the nodes a core searches in a second, nominally (fr4 from ten tricks out: 3-5 M): what
#: turns a budgeted advice's seconds into its draws' node caps.  A constant, not a
#: measure of this machine, so that the caps — and what each draw proves — are the same
#: on any machine and at any number of workers
NOMINAL_NODES_PER_SECOND = 4_000_000
#: a budgeted advice caps each draw's searches at this share of its budget (at least
#: MIN_DRAW_NODES): no single hard deal takes the time of all the others, and where no draw
#: can be solved (a whole deal) the budget still samples eight deals' worth of probes
DRAW_SHARE = 1 / 8
MIN_DRAW_NODES = 20_000


def draw_nodes(time_limit: float | None = None, node_limit: int | None = None) -> int:
    """The node cap of each draw of an advice budgeted ``time_limit`` seconds (at the
    nominal speed, per worker) or ``node_limit`` nodes in all: DRAW_SHARE of it."""
    budgets = []
    if time_limit is not None:
        budgets.append(time_limit * NOMINAL_NODES_PER_SECOND)
    if node_limit is not None:
        budgets.append(node_limit)
    return max(MIN_DRAW_NODES, int(min(budgets) * DRAW_SHARE))


def budget_cards(position: Position, *, cards=None, exact=(), leader: str | None = None,
                 node_cap: int = 0, time_limit: float | None = None, cancel: Cancel | None = None,
                 cancels=(), tt_mb: int | None = None) -> CardValues:
    """One drawn deal of a budgeted advice: what the decision needs of it, within
    ``node_cap`` nodes (0: no cap), on one thread (the same bounds on any machine).

    In order, each search starting from what the ones before proved: the contract's
    question ("made?", one null-window probe at the threshold), and where some card of
    the seat gets its camp's answer and others may not, the same question after each
    card in ``cards`` (one probe each, at most a share of the cap); the deal's value,
    whose probes bound every card; then the exact value of the cards in contention
    (``exact``, ``leader`` first).  The other cards keep the bounds proven of them (the
    cheap bounds, the probes', no card better than the deal's value for the camp to
    play).  The cap stops the searches where they are: what they proved is the draw's
    answer (``capped``), the same on any number of workers; a time limit or a cancel
    makes it incomplete (``complete`` False)."""
    engine = (make_engine(position, tt_mb) if tt_mb else
              make_engine(position, draw_tt_mb(position), grow_to_mb=DRAW_TT_MB))
    stops = [c for c in (cancel, *cancels) if c is not None]
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    start = engine.nodes
    names = card_of_code(position.rules)
    groups = engine.groups()
    wanted = None if cards is None else set(cards)
    order = [rep for rep in engine.move_codes()
             if wanted is None or any(token(names[c]) in wanted for c in groups[rep])]
    name = {rep: token(names[rep]) for rep in order}
    # (a card asked stands for its group: the engine's representative may be another of it)
    asked = {rep: {token(names[c]) for c in groups[rep]} for rep in order}
    want_exact = [rep for rep in order if leader in asked[rep]] + \
                 [rep for rep in order if asked[rep] & set(exact) and leader not in asked[rep]]
    state = {"capped": False, "complete": True}

    def go(most: int = 0) -> bool:
        """Limits for the next search: the nodes left to the draw (at most ``most``), the
        time left; False when none are left (the state says why)."""
        if any(c.is_set() for c in stops) or (deadline and time.perf_counter() >= deadline):
            state["complete"] = False
            return False
        left = node_cap - (engine.nodes - start) if node_cap else 0
        if node_cap and left <= 0:
            state["capped"] = True
            return False
        if most:
            left = min(left, most) if left else most
        engine.set_limits(left, max(deadline - time.perf_counter(), NO_TIME) if deadline else 0.0)
        for c in stops:
            c.attach(engine)        # (after set_limits, which clears the stop flag)
        return True

    def why_stopped(most: int = 0) -> bool:
        """After a search that did not finish: True when the draw is over (a limit, a
        cancel or its cap), False when only a probe's own share ran out."""
        if any(c.is_set() for c in stops) or (deadline and time.perf_counter() >= deadline):
            state["complete"] = False
            return True
        if node_cap and engine.nodes - start >= node_cap:
            state["capped"] = True
            return True
        return not most

    values: dict = {}
    value = None
    root = list(engine.bounds())
    try:
        threshold = made_threshold(position.contract, position.hands)
        over = not go()
        if not over:
            done, lo, hi = ask_made(engine, threshold, *root)
            if done:
                root = [lo, hi]
            else:
                over = why_stopped()
        if not over and threshold is not None and made_of(*root, threshold) is not None:
            # some card gets the seat's camp its answer ("made" for the declarer's side,
            # "down" for the other): which ones? one probe each, a share of the cap apiece
            maximizing = engine.maximizing()
            if (root[0] >= threshold) == maximizing:
                share = node_cap // (2 * len(order)) if node_cap else 0
                for rep in order:
                    if made_of(*engine.child_bounds(rep), threshold) is not None:
                        continue
                    if not go(share):
                        over = True
                        break
                    done, _ = engine.child_at_least(rep, threshold)
                    if not done and why_stopped(share):
                        over = True
                        break
        if not over and go():
            done, lo, hi = engine.value(at_least=root[0], at_most=root[1])
            if done:
                value = lo
            else:
                root = [max(root[0], lo), min(root[1], hi)]
                over = why_stopped()
        if not over and value is not None:
            # the leader first (the paired statistics are against it), then the card the
            # value's walk found best (an optimal card costs one probe), then the others
            found = engine.best_guess()
            if found is not None:
                top = next((r for r in want_exact if found in groups[r]), None)
                if top is not None and not (leader is not None and leader in asked[top]):
                    skip = 1 if want_exact and leader is not None and leader in asked[want_exact[0]] else 0
                    want_exact.remove(top)
                    want_exact.insert(skip, top)
            for rep in want_exact:
                if not go():
                    break
                klo, khi = _known(engine, groups[rep], value)
                done, clo, chi = engine.child_value(rep, guess=min(max(value, klo), khi),
                                                    at_least=klo, at_most=khi)
                if not done:
                    why_stopped()
                    break
                values[rep] = clo
        first = engine.best_guess()
    finally:
        for c in stops:
            c.detach(engine)
    out: dict = {}
    all_exact = True
    for rep in order:
        if rep in values:
            lo = hi = values[rep]
        else:
            lo, hi = engine.child_bounds(rep)
            if value is not None:
                klo, khi = _known(engine, groups[rep], value)
                lo, hi = max(lo, klo), min(hi, khi)
        all_exact &= lo == hi
        for c in groups[rep]:
            if wanted is None or token(names[c]) in wanted:
                out[token(names[c])] = lo if lo == hi else [lo, hi]
    first_card = None
    if first is not None:
        first_card = next((token(names[c]) for r in order if first in groups[r] for c in groups[r]
                           if wanted is None or token(names[c]) in wanted), None)
    return CardValues(state["complete"] and all_exact and value is not None, out,
                      value if value is not None else root, engine.nodes - start,
                      value_width(position), state["complete"], state["capped"], first_card)


def made_bounds(position: Position, low: int, high: int) -> bool | None:
    """Whether the contract is made when the deal's value lies in [low, high]: ``made``
    where both ends agree (it is monotone in the value), else None."""
    a, b = made(position, low), made(position, high)
    return a if a == b else None


def made(position: Position, value: int) -> bool | None:
    """Whether the contract is made when the deal ends at ``value`` (the solver value of
    ``position``'s game); None in Trischaken, which has no contract to make.

    French Tarot: made exactly when the value is positive (the score per defender has the
    contract's sign, 25 points clear of zero) — or above −200 after an announced slam,
    whose −200 a made contract can outweigh and a failed one always adds to.
    Priestertarock: the caller's party's points less the others' is positive, or zero
    (33:33) with the Narr held by the other party.  Austrian Tarock: the goal's 1, or 54
    points (107 in the standard count)."""
    con = position.contract
    if position.game in ("fr3", "fr4", "fr5"):
        return value > (-200 if con.chelem else 0)
    if position.game == "priest5":
        if value != 0:
            return value > 0
        narr = next((s for s, h in enumerate(position.hands) if EXCUSE in h), None)
        narr_camp = con.camp[narr] if narr is not None else con.camp[con.dealer]
        return narr_camp != DECLARER_CAMP
    if con.bid == "trischaken":
        return None
    if con.objective != "contract" or con.bid in AT4_NEGATIVE_TRICKS or con.bid in AT4_BIRD:
        return value == 1
    return value >= (107 if con.counting == "standard" else 54)


# -- the advice ----------------------------------------------------------------------------------

@dataclass
class Advice:
    """What :func:`advise` found (``to_json``: the ``atout advise`` line; docs/single-dummy.md)."""

    id: Any
    seat: int
    maximizing: bool
    samples: int                   # the most draws asked for
    seed: int
    deals: float                   # consistent deals (their number)
    cards: list                    # per legal card, the recommended first: see to_json
    confidence: float = DEFAULT_CONFIDENCE
    certainty: float | None = None  # 1 - the sum of the other cards' p_better
    decided: str | None = None     # "confidence", "samples", "one card"; None under a limit
    solved: int = 0                # the first draws, solved exactly: the means are over them
    limited: int = 0               # the draws after them: their bounds count, in low/high
    distinct: int = 0              # different deals among the draws counted
    value: float | None = None     # the mean double-dummy value of the draws solved
    status: str = "ok"
    stopped_by: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    recommended: str | None = None
    best: list = field(default_factory=list)
    budget: dict | None = None     # a budgeted advice: {"time_limit", "node_limit", "draw_nodes"}
    capped: int = 0                # budgeted: draws counted whose node cap left bounds
    value_low: float | None = None   # budgeted: the bounds of the draws' mean value, where
    value_high: float | None = None  # some deal's value was only bounded

    def to_json(self) -> dict:
        obj = {"id": self.id, "status": self.status, "seat": self.seat, "to_play": self.seat,
               "maximizing": self.maximizing, "recommended": self.recommended,
               "best": self.best, "certainty": _round(self.certainty),
               "confidence": self.confidence, "decided": self.decided,
               "samples": self.samples, "solved": self.solved,
               "limited": self.limited, "distinct": self.distinct,
               "deals": _number(self.deals), "seed": self.seed,
               "value": _round(self.value), "cards": self.cards,
               "nodes": self.nodes, "seconds": round(self.seconds, 6)}
        if self.stopped_by is not None:
            obj["stopped_by"] = self.stopped_by
        if self.budget is not None:
            obj["budget"] = self.budget
            obj["capped"] = self.capped
            if self.value is None and self.value_low is not None:
                obj["value_low"], obj["value_high"] = _round(self.value_low), _round(self.value_high)
        return obj


def _round(x):
    return None if x is None else round(x, 4)


def _number(n):
    """A count of deals as JSON: exact while a float holds it exactly."""
    return int(n) if n < 2 ** 53 else float(f"{n:.6g}")


def check(position, *, seat=None, samples=DEFAULT_SAMPLES, time_limit=None, workers=None,
          tt_mb=None, seed=None, confidence=None, node_limit=None) -> Position:
    """The position of an advice request and its options, checked (through
    :mod:`atout.options`, as every interface checks them): a PositionError names the field."""
    if not isinstance(position, Position):
        position = parse_position(position)
    if position.is_finished:
        raise PositionError("played", "the deal is finished: no card left to advise on")
    if seat is not None:
        seat = options.seat(seat, position.seats)
        if seat != position.to_play:
            raise PositionError("seat", f"seat {seat} is not to play (seat {position.to_play} is): "
                                        "advice is for the seat to play, from its own view")
    options.samples(samples)
    if seed is not None:
        options.seed(seed)    # draw() seeds with int(seed): 7.0 from JSON draws as 7
    if time_limit is not None:
        options.time_limit(time_limit)
    if node_limit is not None:
        options.node_limit(node_limit)
    if workers is not None:
        options.workers(workers)
    if tt_mb is not None:
        options.tt_mb(tt_mb)
    if confidence is not None:
        options.confidence(confidence)
    return position


def _out_of_time(deadline: float | None, cancel: Cancel | None) -> bool:
    return ((cancel is not None and cancel.is_set())
            or (deadline is not None and time.perf_counter() >= deadline))


def draw(position: Position, samples: int, seed: int | None = None, *,
         deadline: float | None = None, cancel: Cancel | None = None) -> Draws:
    """``samples`` deals the seat to play of ``position`` (checked) cannot tell from the
    true one, drawn uniformly with ``seed`` (None: a new seed), in the order
    :func:`advise` draws them; a deal drawn twice is kept once, with its weight.  Drawing
    stops early at ``deadline`` (a ``time.perf_counter()`` time) or when ``cancel`` is
    set, keeping what was drawn (one deal at least)."""
    draws = Draws.start(position, samples, seed)
    while len(draws.order) < draws.samples and not (draws.order and _out_of_time(deadline, cancel)):
        draws.next()
    return draws


#: the last resort of a draw begun after the deadline (the first draw always is, so that
#: an advice answers with bounds at least): its search stops at once with the cheap bounds
NO_TIME = 1e-3


def group_rows(row: dict, group: tuple, recommended: bool) -> list[dict]:
    """The advice's rows of a group of cards worth the same (:mod:`atout.solver.equivalent`),
    valued once as ``row``: one per card with the group's numbers and, where the group has
    several cards, the group in ``equivalent``; in the recommended card's group the others
    are never better than it (``p_better`` 0: proven, not drawn)."""
    if len(group) == 1:
        return [dict(row, card=group[0])]
    return [dict(row, card=card, equivalent=list(group),
                 **({"p_better": 0.0} if recommended and card != group[0] else {}))
            for card in group]


def start(position: Position, samples: int, seed: int | None, confidence: float,
          started: float, budget: dict | None = None) -> Race | Advice:
    """The race of an advice for ``position`` (checked), or the advice itself where the
    seat has one choice — one legal card, or legal cards all worth the same in every deal
    it considers possible (:mod:`atout.solver.equivalent`): the first of them, at once
    (nothing drawn and nothing solved; the consistent deals are counted all the same, in
    milliseconds).  ``started``: the advice's ``time.perf_counter()`` start.  ``budget``: a
    budgeted advice's {"time_limit", "node_limit", "draw_nodes"} (:func:`budget_of`)."""
    race = Race(position, samples, seed, confidence, budget=budget is not None,
                draw_nodes=budget["draw_nodes"] if budget else 0,
                node_budget=(budget or {}).get("node_limit") or 0)
    if len(race.groups) > 1:
        return race
    group = race.groups[0]
    rows = group_rows({"card": None, "mean": None, "se": None, "optimal": None, "made": None,
                       "loss": None, "draws": 0, "behind": 0.0, "behind_se": 0.0,
                       "p_better": None},
                      group, recommended=True)
    return Advice(id=position.id, seat=position.to_play, maximizing=race.sign > 0,
                  samples=samples, seed=race.draws.seed, deals=race.draws.count, cards=rows,
                  confidence=confidence, certainty=1.0, decided="one card",
                  recommended=group[0], best=sorted(group),
                  seconds=time.perf_counter() - started, budget=budget)


def budget_of(time_limit: float | None, node_limit: int | None, budget: bool | None) -> dict | None:
    """The budget of an advice (None: not budgeted): by default an advice is budgeted
    when it has a time limit or a node limit (``budget`` True or False says otherwise)."""
    if budget is None:
        budget = time_limit is not None or node_limit is not None
    if not budget:
        return None
    return {"time_limit": time_limit, "node_limit": node_limit,
            "draw_nodes": draw_nodes(time_limit, node_limit) if (time_limit or node_limit) else 0}


def advise(position, *, seat: int | None = None, samples: int = DEFAULT_SAMPLES,
           seed: int | None = None, confidence: float = DEFAULT_CONFIDENCE,
           time_limit: float | None = None, workers: int | None = None,
           tt_mb: int | None = None, cancel: Cancel | None = None,
           progress: Callable[[int, int], None] | None = None, node_limit: int | None = None,
           budget: bool | None = None) -> Advice:
    """Advice for the seat to play of ``position`` (a Position or a position object),
    from what it knows.

    Deals are drawn (with ``seed``; None draws a seed, reported in the advice) uniformly
    among those the seat cannot tell from the true one, and solved on ``workers`` threads
    (default: every core) as they are drawn, until the recommended card is ahead of every
    other with probability ``confidence`` (1: never early) or ``samples`` draws are
    solved (see :mod:`atout.solver.race`).  A seat with one choice (one legal card, or
    cards all worth the same: :func:`start`) is answered at once.  ``time_limit``
    (seconds) bounds the whole advice, the drawing as the solving: a draw whose search it
    stops counts with its proven bounds, draws not begun are left out (the first draw is
    always begun, so that an advice has bounds at least).
    ``cancel`` (a :class:`~atout.solver.Cancel`) stops it the same way.
    ``progress(done, total)`` is called as draws are solved.  ``seat``, when given, must be
    the seat to play.  Bad input raises :class:`~atout.errors.PositionError` (``field``:
    ``seat``, ``played``, ``samples``, ``seed``, ``confidence``, ``time_limit``,
    ``node_limit``, ``workers``, ``tt_mb``).

    **Budgeted** (a ``time_limit`` or a ``node_limit``, unless ``budget`` is False): each
    draw spends its time where the decision is (:func:`budget_cards`: the cards in
    contention with the leader valued exactly, the others within proven bounds, its
    searches capped at :func:`draw_nodes`, one thread each), so that many draws fit the
    time; ``node_limit`` (nodes in all) counts the draws begun before the nodes of those
    before them reach it, in order — with a node limit and no time limit the advice is
    the same on any machine and at any number of workers.  docs/single-dummy.md says
    what each number then proves.
    """
    started = time.perf_counter()
    position = check(position, seat=seat, samples=samples, time_limit=time_limit,
                     workers=workers, tt_mb=tt_mb, seed=seed, confidence=confidence,
                     node_limit=node_limit)
    plan = budget_of(time_limit, node_limit, budget)
    race = start(position, samples, seed, confidence, started, plan)
    if isinstance(race, Advice):
        return race
    deadline = None if time_limit is None else started + time_limit
    cancel = cancel or Cancel()
    finish = Cancel()              # the draws begun after the look that decided
    lock = threading.Condition()
    n_workers = workers or default_workers()
    state = {"idle": 0, "running": 0}

    def share() -> int:
        """The threads of a running draw's next search: its core, and its share of the
        cores whose workers have nothing to begin (the slow draw left at a look or at the
        end gets them)."""
        return 1 + state["idle"] // max(1, state["running"])

    def work() -> None:
        while True:
            with lock:
                while True:
                    if race.begun and _out_of_time(deadline, cancel):
                        race.close()
                    job = race.take()
                    if job is AGAIN:
                        continue
                    if job is not WAIT:
                        break
                    state["idle"] += 1
                    lock.wait(0.05)        # a look read, a limit, a cancel: checked again
                    state["idle"] -= 1
                if job is None:
                    state["idle"] += 1     # for good: this core is free for the others
                    lock.notify_all()
                    return
                state["running"] += 1
            left = None if deadline is None else max(deadline - time.perf_counter(), NO_TIME)
            try:
                drawn = parse_position(job.position)
                if plan is not None:
                    # one thread: what a capped search proves is then the same every time
                    result = budget_cards(drawn, cards=job.cards, exact=job.exact,
                                          leader=job.leader, node_cap=job.nodes, time_limit=left,
                                          tt_mb=tt_mb, cancels=(cancel, finish))
                else:
                    result = solve_cards(drawn, cards=job.cards, time_limit=left, tt_mb=tt_mb,
                                         cancels=(cancel, finish), threads=share)
                flags = made_flags(drawn, result)
            except BaseException:
                with lock:           # no worker waits for a look this draw will never reach
                    race.close()
                    lock.notify_all()
                raise
            finally:
                with lock:
                    state["running"] -= 1
            with lock:
                race.done(job, result.complete, result.values, result.value, flags,
                          result.nodes, result.width, result.first, result.capped)
                if race.decided or race.spent_at is not None:
                    finish.set()        # the draws under way are not part of the advice
                if progress is not None:
                    progress(min(race.prefix, race.counted()), race.samples)
                lock.notify_all()

    with ThreadPoolExecutor(max_workers=n_workers, thread_name_prefix="atout-advise") as pool:
        for future in [pool.submit(work) for _ in range(n_workers)]:
            future.result()
    return put_together(race, stopped_by="cancel" if cancel.is_set() else "time",
                        seconds=time.perf_counter() - started, budget=plan)


def made_flags(drawn: Position, result: CardValues) -> dict:
    """{card: made after it} where the draw ``result`` of ``drawn`` proves it (its value,
    or bounds on one side of the threshold); {} for a draw a limit stopped."""
    if not result.complete:
        return {}
    return {c: made(drawn, v) if not isinstance(v, list) else made_bounds(drawn, *v)
            for c, v in result.values.items()}


def put_together(race: Race, stopped_by: str = "time", seconds: float = 0.0,
                 budget: dict | None = None) -> Advice:
    """The advice from what ``race`` has solved (every search it began is over).
    ``stopped_by``: why, if a limit stopped it; ``budget``: a budgeted advice's."""
    position = race.position
    summary = race.summary()
    counted = race.counted()
    limited = counted - race.prefix
    advice = Advice(id=position.id, seat=position.to_play, maximizing=race.sign > 0,
                    samples=race.samples, seed=race.draws.seed, deals=race.draws.count,
                    cards=[], confidence=race.confidence, solved=race.prefix, limited=limited,
                    distinct=len(set(race.draws.order[:counted])), nodes=race.nodes,
                    seconds=seconds, budget=budget, capped=race.capped)
    if race.prefix:
        if race.pairs.best_n == race.prefix:
            advice.value = race.pairs.best_sum / race.prefix
        else:
            advice.value_low = race.pairs.best_lo / race.prefix
            advice.value_high = race.pairs.best_hi / race.prefix
    rows = []
    bounds = race.bounds() if limited else None
    for i, card in enumerate(race.cards):
        stats = summary["rows"][i]
        row = {"card": card}
        for name in ("mean", "se", "optimal", "made", "loss", "draws", "behind", "behind_se",
                     "p_better", "low", "high", "exact", "behind_low", "behind_high",
                     "made_low", "made_high"):
            if name in stats:
                v = stats[name]
                row[name] = _round(v) if isinstance(v, float) else v
        if bounds is not None and bounds[i] is not None:
            row["low"], row["high"] = round(bounds[i][0], 4), round(bounds[i][1], 4)
        rows.append(row)
    rec = summary["rec"]
    if rec is None:
        # no draw solved exactly: by the middle of the bounds proven (the first draw is
        # always begun, so there are some)
        scored = [i for i in range(len(rows)) if "low" in rows[i]]
        if scored:
            rec = min(scored, key=lambda i: (-race.sign * (rows[i]["low"] + rows[i]["high"]), i))
            mid = rows[rec]["low"] + rows[rec]["high"]
            summary["best"] = [i for i in scored if rows[i]["low"] + rows[i]["high"] == mid]
    order = list(range(len(rows)))
    if rec is not None:
        advice.recommended = race.cards[rec]
        advice.best = sorted(card for i in summary["best"] for card in race.groups[i])
        advice.certainty = summary["certainty"]

        def rank(i):
            behind = summary["rows"][i]["behind"]
            mid = rows[i]["low"] + rows[i]["high"] if "low" in rows[i] else 0
            if budget is not None:
                # the cards by their mean, or the middle of its bounds
                mean = rows[i]["mean"]
                return (i != rec, -race.sign * (2 * mean if mean is not None else mid), i)
            return (i != rec, behind is None, behind or 0, -race.sign * mid, i)
        order.sort(key=rank)
    advice.cards = [row for i in order for row in group_rows(rows[i], race.groups[i], i == rec)]
    if race.decided:
        advice.decided = "confidence"
    elif race.prefix == race.samples:
        advice.decided = "samples"
    elif race.spent_at is not None:
        advice.status, advice.stopped_by = "limit", "nodes"
    else:
        advice.status, advice.stopped_by = "limit", stopped_by
    return advice
