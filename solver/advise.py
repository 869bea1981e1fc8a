"""Single-dummy advice: the best card from what the seat to play could know (``atout advise``).

>>> from atout.solver.advise import advise                     # doctest: +SKIP
>>> a = advise(position, samples=100, seed=7)                  # doctest: +SKIP
>>> a.recommended, a.cards[0]["mean"], a.cards[0]["optimal"]   # doctest: +SKIP

The deals the seat cannot tell from the true one (:mod:`atout.knowledge`) are drawn
uniformly (:mod:`atout.sampler`), each drawn deal is solved double dummy for every legal
card of the seat, and the cards are compared over the draws: the mean value, its standard
error, how often the card was optimal, how often the contract was made after it, and the
mean loss against each draw's best card.  The recommended card has the best mean value for
the seat's camp.  Draws are solved on every core, one search per core (threads: the
search holds no lock while it runs), each with its own engine and table; identical draws
are solved once.

Sampling is not proof: see docs/single-dummy.md for how to read the advice (strategy
fusion, and what the seat is assumed to know).
"""

from __future__ import annotations

import json
import math
import os
import random
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable

from atout import options
from atout.cards import EXCUSE, token
from atout.contract import DECLARER_CAMP
from atout.errors import PositionError
from atout.games import AT4_BIRD, AT4_NEGATIVE_TRICKS
from atout.knowledge import seat_knowledge
from atout.position import Position, parse_position
from atout.sampler import Sampler

from . import make_engine
from .cancel import Cancel
from .params import card_of_code

__all__ = ["Advice", "Draws", "advise", "aggregate", "check", "draw", "made", "solve_cards",
           "default_workers", "DEFAULT_SAMPLES"]

DEFAULT_SAMPLES = 100
MAX_SAMPLES = options.MAX_SAMPLES


def default_workers() -> int:
    """Every core of this machine (at most 64): the searches run side by side."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(64, cores))


# -- one drawn deal ----------------------------------------------------------------------------

@dataclass
class CardValues:
    """Every legal card's double-dummy value in one deal: ``values`` {card: value} when
    ``exact``, else {card: [low, high]} proven before a limit stopped the search."""

    exact: bool
    values: dict
    value: int | None = None        # the deal's value (the best card's), when exact
    nodes: int = 0


def solve_cards(position: Position, *, time_limit: float | None = None,
                cancel: Cancel | None = None, tt_mb: int | None = None) -> CardValues:
    """The value of every legal card of the seat to play, double dummy (the values of
    ``atout solve --all`` without the line).  A limit or ``cancel`` leaves the proven bounds."""
    engine = make_engine(position, tt_mb)
    engine.set_limits(0, float(time_limit or 0))
    if cancel is not None:
        cancel.attach(engine)
    try:
        names = card_of_code(position.rules)
        groups = engine.groups()
        order = engine.move_codes()
        maximizing = engine.maximizing()

        def spread(known: dict) -> dict:
            return {token(names[c]): v for rep, v in known.items() for c in groups[rep]}

        done, lo, hi = engine.value()
        if not done:
            return CardValues(False, spread({r: list(engine.child_bounds(r)) for r in order}),
                              nodes=engine.nodes)
        value = lo
        values: dict = {}
        for rep in order:
            # no card is worth more than the value to the camp to play, none less to the other
            done, clo, chi = engine.child_value(rep, guess=value,
                                                at_most=value if maximizing else None,
                                                at_least=None if maximizing else value)
            if not done:
                known = {r: [v, v] for r, v in values.items()}
                known[rep] = [clo, chi]
                for r in order:
                    known.setdefault(r, list(engine.child_bounds(r)))
                return CardValues(False, spread(known), nodes=engine.nodes)
            values[rep] = clo
        return CardValues(True, spread(values), value, engine.nodes)
    finally:
        if cancel is not None:
            cancel.detach(engine)


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
    """What :func:`advise` found (``to_json``: the ``atout advise`` line)."""

    id: Any
    seat: int
    maximizing: bool
    samples: int                   # asked for
    seed: int
    deals: float                   # consistent deals (their number)
    cards: list                    # per legal card, best first: see to_json
    solved: int = 0                # draws solved exactly
    limited: int = 0               # draws a limit stopped: their bounds count, in low/high
    distinct: int = 0              # different deals among the draws
    value: float | None = None     # the mean double-dummy value of the draws solved
    status: str = "ok"
    stopped_by: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    recommended: str | None = None
    best: list = field(default_factory=list)
    #: the draws solved exactly: [(how many times drawn, {card: value})] (not in to_json)
    draws: list = field(default_factory=list, repr=False)

    def to_json(self) -> dict:
        obj = {"id": self.id, "status": self.status, "seat": self.seat, "to_play": self.seat,
               "maximizing": self.maximizing, "recommended": self.recommended,
               "best": self.best, "samples": self.samples, "solved": self.solved,
               "limited": self.limited, "distinct": self.distinct,
               "deals": _number(self.deals), "seed": self.seed,
               "value": _round(self.value), "cards": self.cards,
               "nodes": self.nodes, "seconds": round(self.seconds, 6)}
        if self.stopped_by is not None:
            obj["stopped_by"] = self.stopped_by
        return obj


def _round(x):
    return None if x is None else round(x, 4)


def _number(n):
    """A count of deals as JSON: exact while a float holds it exactly."""
    return int(n) if n < 2 ** 53 else float(f"{n:.6g}")


def check(position, *, seat=None, samples=DEFAULT_SAMPLES, time_limit=None, workers=None,
          tt_mb=None, seed=None) -> Position:
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
    if workers is not None:
        options.workers(workers)
    if tt_mb is not None:
        options.tt_mb(tt_mb)
    return position


@dataclass
class Draws:
    """The deals drawn for an advice, in the order drawn: ``order`` their keys (a deal
    drawn twice is there twice), ``deals`` {key: position object}, ``weight`` {key: how
    many times drawn}; ``count`` consistent deals in all; ``samples`` the most asked for."""

    position: Position
    seat: int
    seed: int
    samples: int
    count: float
    deals: dict
    weight: dict
    order: list = field(default_factory=list)
    stream: Any = field(default=None, repr=False)

    @classmethod
    def start(cls, position: Position, samples: int, seed: int | None = None) -> "Draws":
        """Nothing drawn yet: the consistent deals of the seat to play of ``position``
        counted, ready to draw with ``seed`` (None: a new seed)."""
        seed = random.SystemRandom().randrange(2 ** 32) if seed is None else int(seed)
        sampler = Sampler(seat_knowledge(position, position.to_play))
        return cls(position, position.to_play, seed, int(samples), sampler.count(), {}, {},
                   stream=sampler.stream(random.Random(seed)))

    def next(self) -> tuple[str, bool]:
        """One more deal drawn: (its key, whether it was not drawn before)."""
        obj = next(self.stream)
        key = json.dumps([obj["hands"], obj["contract"]], sort_keys=True)
        self.order.append(key)
        self.weight[key] = self.weight.get(key, 0) + 1
        new = key not in self.deals
        if new:
            self.deals[key] = obj
        return key, new


def _out_of_time(deadline: float | None, cancel: Cancel | None) -> bool:
    return ((cancel is not None and cancel.is_set())
            or (deadline is not None and time.perf_counter() >= deadline))


def draw(position: Position, samples: int, seed: int | None = None, *,
         deadline: float | None = None, cancel: Cancel | None = None) -> Draws:
    """``samples`` deals the seat to play of ``position`` (checked) cannot tell from the
    true one, drawn uniformly with ``seed`` (None: a new seed); a deal drawn twice is kept
    once, with its weight.  Drawing stops early at ``deadline`` (a ``time.perf_counter()``
    time) or when ``cancel`` is set, keeping what was drawn (one deal at least)."""
    draws = Draws.start(position, samples, seed)
    while len(draws.order) < draws.samples and not (draws.order and _out_of_time(deadline, cancel)):
        draws.next()
    return draws


#: the last resort of a draw begun after the deadline (the first draw always is, so that
#: an advice answers with bounds at least): its search stops at once with the cheap bounds
NO_TIME = 1e-3


def advise(position, *, seat: int | None = None, samples: int = DEFAULT_SAMPLES,
           seed: int | None = None, time_limit: float | None = None,
           workers: int | None = None, tt_mb: int | None = None,
           cancel: Cancel | None = None,
           progress: Callable[[int, int], None] | None = None) -> Advice:
    """Advice for the seat to play of ``position`` (a Position or a position object),
    from what it knows.

    ``samples`` deals are drawn (with ``seed``; None draws a seed, reported in the
    advice), uniformly among those the seat cannot tell from the true one, and solved on
    ``workers`` threads (default: every core) as they are drawn.  ``time_limit`` (seconds)
    bounds the whole advice, the drawing as the solving: a draw whose search it stops
    counts with its proven bounds (``limited``), draws not begun are left out (the last
    ones drawn: the first is always begun, so that an advice has bounds at least).
    ``cancel`` (a :class:`~atout.solver.Cancel`) stops it the same way.  ``progress(done,
    total)`` is called as draws are solved.  ``seat``, when given, must be the seat to
    play.  Bad input raises :class:`~atout.errors.PositionError` (``field``: ``seat``,
    ``played``, ``samples``, ``seed``, ``time_limit``, ``workers``, ``tt_mb``).
    """
    started = time.perf_counter()
    position = check(position, seat=seat, samples=samples, time_limit=time_limit,
                     workers=workers, tt_mb=tt_mb, seed=seed)
    deadline = None if time_limit is None else started + time_limit
    cancel = cancel or Cancel()
    draws = Draws.start(position, samples, seed)
    results: dict[str, tuple] = {}
    done_count = [0]
    lock = threading.Lock()

    def solve_one(key: str, first: bool):
        left = None if deadline is None else deadline - time.perf_counter()
        if not first and (cancel.is_set() or (left is not None and left <= 0)):
            return
        drawn_pos = parse_position(draws.deals[key])
        result = solve_cards(drawn_pos, time_limit=None if left is None else max(left, NO_TIME),
                             cancel=cancel, tt_mb=tt_mb)
        with lock:
            results[key] = (drawn_pos, result)
            done_count[0] += draws.weight[key]
            if progress is not None:
                progress(done_count[0], draws.samples)

    # The deals are drawn as the searches need them, a few ahead so that no search waits,
    # and the limits are checked between two draws: a large --samples costs the time it
    # is given, no more (drawing takes 0.05-1 ms a deal, solving one far longer).
    n_workers = workers or default_workers()
    with ThreadPoolExecutor(max_workers=n_workers, thread_name_prefix="atout-advise") as pool:
        running: set = set()
        while True:
            while (len(running) < 2 * n_workers and len(draws.order) < draws.samples
                   and not (draws.order and _out_of_time(deadline, cancel))):
                key, new = draws.next()
                if new:
                    running.add(pool.submit(solve_one, key, len(draws.order) == 1))
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                future.result()
    return aggregate(draws, results, stopped_by="cancel" if cancel.is_set() else "time",
                     seconds=time.perf_counter() - started)


def aggregate(draws: Draws, results: dict, stopped_by: str = "time",
              seconds: float = 0.0) -> Advice:
    """The advice from the draws solved: ``results`` {key: (the drawn Position, its
    CardValues)}; draws missing from it were not begun.  ``stopped_by``: why, if any draw
    is missing or was stopped."""
    position, seat, weight, samples = draws.position, draws.seat, draws.weight, draws.samples
    maximizing = position.contract.camp[seat] == position.contract.maximizer
    sign = 1 if maximizing else -1
    cards = sorted({c for _, r in results.values() for c in r.values})
    if not cards:
        cards = sorted(token(c) for c in position.legal_cards())
    exact = [(weight[k], p, r) for k, (p, r) in results.items() if r.exact]
    limited = [(weight[k], r) for k, (_, r) in results.items() if not r.exact]
    n_exact = sum(w for w, _, _ in exact)
    n_limited = sum(w for w, _ in limited)
    advice = Advice(id=position.id, seat=seat, maximizing=maximizing, samples=samples,
                    seed=draws.seed, deals=draws.count, cards=[], solved=n_exact, limited=n_limited,
                    distinct=len(results),
                    nodes=sum(r.nodes for _, r in results.values()))
    advice.draws = [(w, r.values) for w, _, r in exact]
    if n_exact:
        advice.value = sum(w * r.value for w, _, r in exact) / n_exact
    rows = []
    for c in cards:
        row: dict = {"card": c}
        if n_exact:
            vals = [(w, r.values[c], r.value, p) for w, p, r in exact]
            mean = sum(w * v for w, v, _, _ in vals) / n_exact
            row["mean"] = round(mean, 4)
            if n_exact > 1:
                var = sum(w * (v - mean) ** 2 for w, v, _, _ in vals) / (n_exact - 1)
                row["se"] = round(math.sqrt(var / n_exact), 4)
            else:
                row["se"] = None
            row["optimal"] = round(sum(w for w, v, best, _ in vals if v == best) / n_exact, 4)
            made_flags = [(w, made(p, v)) for w, v, _, p in vals]
            row["made"] = (None if any(m is None for _, m in made_flags)
                           else round(sum(w for w, m in made_flags if m) / n_exact, 4))
            row["loss"] = round(sum(w * sign * (best - v) for w, v, best, _ in vals) / n_exact, 4)
        else:
            row.update(mean=None, se=None, optimal=None, made=None, loss=None)
        if n_limited:
            total = n_exact + n_limited
            lows = sum(w * r.values[c] for w, _, r in exact) + sum(w * r.values[c][0] for w, r in limited)
            highs = sum(w * r.values[c] for w, _, r in exact) + sum(w * r.values[c][1] for w, r in limited)
            row["low"], row["high"] = round(lows / total, 4), round(highs / total, 4)
        rows.append(row)

    def score(row):
        if row["mean"] is not None:
            mid = row["mean"]
        elif "low" in row:
            mid = (row["low"] + row["high"]) / 2
        else:
            mid = 0
        return (-sign * mid, -(row["optimal"] or 0), row["loss"] or 0)

    rows.sort(key=score)
    advice.cards = rows
    if rows and (n_exact or n_limited):
        advice.recommended = rows[0]["card"]
        top = score(rows[0])[0]
        advice.best = sorted(r["card"] for r in rows if abs(score(r)[0] - top) < 1e-9)
    if advice.limited or advice.solved < samples:
        advice.status, advice.stopped_by = "limit", stopped_by
    advice.seconds = seconds
    return advice
