"""Card-by-card double-dummy analysis of a played deal (``atout analyze``).

>>> import atout
>>> report = atout.analyze(position_obj, time_limit=60)    # doctest: +SKIP
>>> report["made"], report["plays"][0]["made_before"]       # doctest: +SKIP

For every card played: the value of the position before and after it, whether the
contract is made before and after it, what the card cost its camp against the best card
there (0 when it was optimal), every optimal card there, and whether it was decisive
(it turned a made contract into a lost one, or a lost one into a made one).  The
taker's / declarer's camp maximises the value (Trischaken: the analysed seat
minimises), so the cost of a card is ``value_before - value_after`` for a maximizing
seat and ``value_after - value_before`` for a minimizing one; it is never negative.
Summed over the deal, the maximizing camp's costs minus the minimizing camp's costs
equal ``start_value`` minus the value after the last card.

Whole deals are too big to solve exactly from their first card (docs/search.md), but
every card still gets a verdict within the time limit: where a value is not solved, the
bounds proven so far (:mod:`atout.solver.line` carries each bound along the line), and
from them whether the contract is made and what the card cost, as a range.  The time
goes where it tells most, on one engine whose transposition table stays warm:

1. exact values from the last card back, for a tenth of the time — an endgame is done
   here, and the later positions are the cheap ones;
2. the contract question ("made?", one null-window probe at ``made_threshold``) at
   every position still open, from the end back (cheap positions first; a probe that
   runs past its time is left for the next round, whose time per probe is doubled),
   until 60 % of the time is gone — one answer often settles a run of positions, and
   "not made" is cheap to prove in French Tarot (only the taker's cards are refuted);
3. exact values from where step 1 stopped, back, until a tenth of the time is left;
4. the optimal cards that waited (below), then the values again if time is left.

In steps 1 and 3 the values come first: at each position its optimal cards get at most as
long as its value took, and wait for step 4 where they need more (``_ExactWalk``) — a
card's cost needs only the values, and proving a second optimal card can cost many times
the value (priest5-full 0: 22 s for a value, over 220 s for its optimal cards).

Without a time limit step 1 solves every position, as the analysis always did.  Going
back one card, the value after that card is known, so it is both the guess and a bound
for the value before it, and the card played is known to be worth it.
``reuse_table=False`` builds a fresh engine for every search instead — the same
answers, for measuring what the warm table saves.
"""

from __future__ import annotations

import time
from typing import Any

from atout.cards import token
from atout.position import Position, parse_position
from atout.scoring import made_threshold

from . import _optimal, ask_made, check_limits, check_threads, default_tt_mb, make_engine, set_threads
from .cancel import Cancel
from .line import PlayedLine
from .params import card_of_code, code_of

__all__ = ["analyze"]

#: step 1's share of the time limit, and where step 2 ends (see the module's docstring)
EXACT_FIRST_SHARE = 0.1
MADE_UNTIL_SHARE = 0.6
#: step 2's first time per probe, as a share of its time (doubled every round)
FIRST_PROBE_SHARE = 1 / 32
#: with a time limit, the least time the optimal cards at a position get before they wait
#: (beyond it, as long as the position's value took; see _ExactWalk)
BEST_FLOOR = 0.05
#: the share of the time kept at the end for the optimal cards that waited
WAITING_SHARE = 0.1


def analyze(position: Any, *, start: int = 0, time_limit: float | None = None,
            tt_mb: int | None = None, reuse_table: bool = True,
            cancel: Cancel | None = None, threads: int = 1) -> dict:
    """Analyse the cards of ``position`` (a Position or a position JSON object).

    ``start``: how many of the played cards to take as given; the analysis begins
    after them (default 0: from the first card).  ``time_limit`` (seconds) bounds the
    whole analysis; ``cancel`` (a :class:`~atout.solver.Cancel`) set from another thread
    stops it at once.  Either way every card gets its verdict — exact where solved,
    else the bounds proven so far — and ``stopped_by`` says why some are not exact.
    ``threads``: threads per search (1 to MAX_THREADS), on the one table.  Bad input
    raises :class:`~atout.errors.PositionError`.

    Returns ``{"id", "start_value", "made", "plays": [{"index", "seat", "card",
    "value_before", "value_after", "cost", "best", "made_before", "made_after",
    "decisive"}], "seats": [{"seat", "cards", "mistakes", "cost"}], "outcome"}`` —
    ``index`` is the card's index in ``played``, ``made`` the contract before the first
    card analysed (True / False / None: not proven, or Trischaken), ``outcome``
    (FORMAT.md) None unless the deal is finished.  A value not solved is None, with
    ``bounds_before`` / ``bounds_after`` ([low, high], proven; ``start_bounds`` for
    ``start_value``); a cost not exact is None with ``cost_bounds``, and a seat's total
    likewise; ``best`` is None where the optimal cards were not found; ``stopped_by``
    (``time`` or ``cancel``) is there only when some value is not exact or some ``best``
    not found.
    """
    if not isinstance(position, Position):
        position = parse_position(position)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= len(position.played):
        raise ValueError(f"start must be a whole number from 0 to {len(position.played)} "
                         f"(the cards played)")
    check_limits(time_limit, tt_mb=tt_mb)
    check_threads(threads)

    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    rules = position.rules
    played = list(position.played)
    codes = [code_of(rules, c) for c in played]
    # one table for every position: sized for the biggest, the first one analysed
    size = tt_mb or default_tt_mb(rules.hand_size - start // position.seats, position.seats)
    engines = _Engines(position, codes, size, threads, cancel, reuse_table)
    try:
        line, seats = _line(engines, position, start)
        walk = _ExactWalk(engines, line, codes, card_of_code(rules))
        if deadline is None:
            walk.run(None)
        elif walk.run(started + EXACT_FIRST_SHARE * time_limit) is False and not _cancelled(cancel):
            _ask_made(engines, line, started + MADE_UNTIL_SHARE * time_limit)
            # the optimal cards that waited get the last share of the time, and the
            # values whatever of it they leave
            if walk.run(deadline - WAITING_SHARE * time_limit) is False and \
                    not _cancelled(cancel) and walk.run_waiting(deadline):
                walk.run(deadline)
    finally:
        engines.close()
    return _report(position, start, line, seats, walk.best, cancel)


def _cancelled(cancel: Cancel | None) -> bool:
    return cancel is not None and cancel.is_set()


class _Engines:
    """The analysis' engine (one, its table kept warm), placed at a position of the deal
    with the time it may search there."""

    def __init__(self, position: Position, codes: list[int], tt_mb: int, threads: int,
                 cancel: Cancel | None, reuse: bool):
        self.position, self.codes = position, codes
        self.tt_mb, self.threads, self.cancel, self.reuse = tt_mb, threads, cancel, reuse
        self.engine = None

    def at(self, index: int, until: float | None):
        """The engine at the position before card ``index``, searching until ``until``
        (a ``time.perf_counter()`` instant; None: no limit)."""
        engine = self.engine
        if engine is None or not self.reuse:
            self.close()
            at = self.position.copy()
            while len(at.played) > index:
                at.undo()
            engine = self.engine = make_engine(at, self.tt_mb)
            set_threads(engine, self.threads)
            if self.cancel is not None:
                self.cancel.attach(engine)
        else:
            engine.rewind()
            for c in self.codes[:index]:
                engine.play(c)
        self.limit(until)
        return engine

    def limit(self, until: float | None) -> None:
        """The engine searches until ``until`` (None: no limit) from now on."""
        seconds = 0.0 if until is None else max(until - time.perf_counter(), 1e-6)
        self.engine.set_limits(0, seconds)
        if _cancelled(self.cancel):
            self.engine.stop()     # (set_limits cleared the stop a Cancel set before)

    def close(self) -> None:
        if self.engine is not None and self.cancel is not None:
            self.cancel.detach(self.engine)
        self.engine = None


def _line(engines: _Engines, position: Position, start: int) -> tuple[PlayedLine, list[int]]:
    """The played line from card ``start`` on, with what is known without a search: the
    cheap bounds of every position and the value of a finished deal.  Also the seat that
    played each card."""
    engine = engines.at(start, None)
    seats, maximizing, forced, cheap = [], [], [], []
    for code in engines.codes[start:]:
        seats.append(engine.to_play())
        maximizing.append(engine.maximizing())
        forced.append(len(engine.move_codes()) == 1)
        cheap.append(engine.bounds())
        engine.play(code)
    cheap.append((engine.final_value(),) * 2 if engine.finished() else engine.bounds())
    line = PlayedLine(start, maximizing, forced, made_threshold(position.contract, position.hands))
    for k, (lo, hi) in enumerate(cheap):
        line.narrow(start + k, lo, hi)
    line.propagate()
    return line, seats


def _learn_played(engine, line: PlayedLine, index: int, code: int) -> None:
    """What the searches at position ``index`` proved of the card played there (of any
    card equivalent to it) bounds the value after it."""
    group = next(cs for cs in engine.groups().values() if code in cs)
    bounds = [engine.card_bounds(c) for c in group]
    line.narrow(index + 1, max(b[0] for b in bounds), min(b[1] for b in bounds))


class _ExactWalk:
    """Exact values and the optimal cards from the last card back, as far as each run's
    time goes; the next run goes on where the last one stopped.

    With a time limit the values come first: at each position the optimal cards get at
    most as long as its value took (at least ``BEST_FLOOR`` seconds).  Where that is not
    enough (proving a second optimal card can cost many times the value: every reply to it
    refuted), the position's search for them waits, with what it decided so far, until the
    values reach the first card or :meth:`run_waiting` is called.  Without a time limit
    each position is finished before the next."""

    def __init__(self, engines: _Engines, line: PlayedLine, codes: list[int], names: dict):
        self.engines, self.line, self.codes, self.names = engines, line, codes, names
        self.index = line.last          # the values from here on are exact
        self.best: dict[int, list[str]] = {}
        # positions whose optimal cards wait: index -> {card: optimal?} decided so far
        self.waiting: dict[int, dict[int, bool]] = {}

    def run(self, until: float | None) -> bool:
        """Go back until every value and optimal card from the first card analysed on is
        known (True) or until the time or a cancel stops a search (False)."""
        line = self.line
        if self.index == line.last and line.exact(line.last) is None:
            # an unfinished deal: first the value after its last card
            engine = self.engines.at(line.last, until)
            done, lo, hi = engine.value(at_least=line.lo[-1], at_most=line.hi[-1])
            line.narrow(line.last, lo, hi)
            line.propagate()
            if not done:
                return False
        while self.index > line.first:
            index = self.index - 1
            started = time.perf_counter()
            engine = self.engines.at(index, until)
            code = self.codes[index]
            after = line.exact(index + 1)
            # The card played is worth ``after``; the value before it is at least that for
            # the maximizing camp, at most that for the other (the line knows it) — and
            # the first guess.
            engine.learn(code, after, after)
            if line.exact(index) is None:
                lo, hi = line.bounds(index)
                done, lo, hi = engine.value(guess=after, at_least=lo, at_most=hi)
                line.narrow(index, lo, hi)
                if not done:
                    _learn_played(engine, line, index, code)
                line.propagate()
                if not done:
                    return False
            self.index = index
            self.waiting[index] = {}
            if until is not None:
                spent = time.perf_counter() - started
                self.engines.limit(min(until, time.perf_counter() + max(spent, BEST_FLOOR)))
            if not self._find_best(engine, index) and self._out_of_time(until):
                return False
        return self.run_waiting(until)

    def run_waiting(self, until: float | None) -> bool:
        """The optimal cards that wait, from the end back (the cheap positions first),
        until ``until``: True when none is left."""
        for index in sorted(self.waiting, reverse=True):
            if not self._find_best(self.engines.at(index, until), index):
                return False
        return True

    def _find_best(self, engine, index: int) -> bool:
        """The optimal cards at position ``index`` (the engine there, its value exact),
        going on from what was decided before; False when a limit stopped it."""
        value = self.line.exact(index)
        groups = engine.groups()
        reps = engine.move_codes()
        decided = self.waiting[index]
        if len(reps) > 1:
            for rep in reps:
                if rep not in decided:
                    done, ok = _optimal(engine, rep, value, groups[rep])
                    if not done:
                        return False
                    decided[rep] = ok
        best_reps = reps if len(reps) == 1 else [r for r in reps if decided[r]]
        self.best[index] = [token(self.names[m]) for m in sorted(m for r in best_reps
                                                                  for m in groups[r])]
        del self.waiting[index]
        return True

    def _out_of_time(self, until: float | None) -> bool:
        return _cancelled(self.engines.cancel) or (until is not None and
                                                   time.perf_counter() >= until)


def _ask_made(engines: _Engines, line: PlayedLine, until: float) -> None:
    """The contract question at every position of the line it is still open at, from the
    end back, until ``until``: rounds in which each probe gets a time that doubles from
    round to round, so that the cheap positions are all answered before a dear one
    takes the time."""
    threshold = line.threshold
    if threshold is None:
        return
    cap = FIRST_PROBE_SHARE * max(until - time.perf_counter(), 0.0)
    while time.perf_counter() < until and not _cancelled(engines.cancel):
        open_ = [i for i in range(line.last, line.first - 1, -1) if line.made(i) is None]
        if not open_:
            return
        for index in open_:
            now = time.perf_counter()
            if now >= until or _cancelled(engines.cancel):
                return
            if line.made(index) is not None:
                continue                     # answered by another position's answer
            engine = engines.at(index, min(now + cap, until))
            done, lo, hi = ask_made(engine, threshold, *line.bounds(index))
            line.narrow(index, lo, hi)
            if index < line.last:
                _learn_played(engine, line, index, engines.codes[index])
            line.propagate()
        cap *= 2


def _report(position: Position, start: int, line: PlayedLine, seats: list[int],
            best: dict[int, list[str]], cancel: Cancel | None) -> dict:
    played = position.played
    plays = []
    summary = [{"seat": s, "cards": 0, "mistakes": 0, "cost": 0, "low": 0, "high": 0}
               for s in range(position.seats)]
    for index in range(start, len(played)):
        verdict = line.verdict(index)
        seat = seats[index - start]
        play = {"index": index, "seat": seat, "card": token(played[index]),
                "value_before": verdict.pop("value_before"),
                "value_after": verdict.pop("value_after"), "cost": verdict.pop("cost"),
                "best": best.get(index)}
        play.update(verdict)
        plays.append(play)
        low, high = line.cost_bounds(index)
        s = summary[seat]
        s["cards"] += 1
        s["mistakes"] += low > 0
        s["low"] += low
        s["high"] += high
    for s in summary:
        low, high = s.pop("low"), s.pop("high")
        s["cost"] = low if low == high else None
        if low != high:
            s["cost_bounds"] = [low, high]
    start_value = line.exact(start)
    report = {"id": position.id, "start_value": start_value}
    if start_value is None:
        report["start_bounds"] = list(line.bounds(start))
    report.update({"made": line.made(start), "plays": plays, "seats": summary,
                   "outcome": position.outcome() if position.is_finished else None})
    if any(line.exact(i) is None for i in range(start, len(played) + 1)) or \
            any(p["best"] is None for p in plays):
        report["stopped_by"] = "cancel" if _cancelled(cancel) else "time"
    return report
