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
every card still gets a verdict within the time limit, from what is proven of the values
along the line and of the cards *not* played (:mod:`atout.solver.line`): one of the best
cards (cost 0, proven), a mistake of at least N (proven: another card was N better), or
not judged (its cost a proven range); decisive where the contract is proven made before
and lost after (or the reverse).  The time goes where it tells most, on one engine whose
transposition table stays warm:

1. exact values from the last card back, for a tenth of the time — an endgame is done
   here, and the later positions are the cheap ones;
2. the contract question ("made?", one null-window probe at ``made_threshold``) at
   every position still open, from the end back (cheap positions first; a probe that
   runs past its time is left for the next round, whose time per probe is doubled),
   until a quarter of the time is gone — one answer often settles a run of positions,
   and "not made" is cheap to prove in French Tarot (only the taker's cards are refuted);
3. the cards' judge (:class:`_Judge`), until 40 % of the time: at each card not judged,
   from the end back, in rounds whose time per probe doubles, "is the card played worth
   t?" and "is another card worth t?" — the cheap side of each value first, then the one
   dear question that decides — a card proven one of the best, or a mistake, without
   either value exact; a mistake's bound is then narrowed until its low is 90 % of its
   high.  A round whose every probe ran out of time
   ends the step: a card as good as the best ties with it, and proving the tie costs what
   the exact value there costs (the walk of steps 1 and 4 does that in the best order);
4. exact values from where step 1 stopped, back, until a tenth of the time is left;
5. the optimal cards that waited (below), then the values again if time is left.

In steps 1 and 4 the values come first: at each position its optimal cards get at most as
long as its value took, and wait for step 5 where they need more (``_ExactWalk``) — a
card's cost needs only the values, and proving a second optimal card can cost many times
the value (priest5-full 0: 22 s for a value, over 220 s for its optimal cards).

Without a time limit step 1 solves every position, as the analysis always did.  Going
back one card, the value after that card is known, so it is both the guess and a bound
for the value before it, and the card played is known to be worth it.  Every search also
narrows what is known of each card there (its root probes bound every card they tried),
which the line and the judge keep.  ``reuse_table=False`` builds a fresh engine for every
search instead — the same answers, for measuring what the warm table saves.

An :class:`Analysis` can be run again ("keep going"): each run goes on from what the
earlier ones proved, its table warm; ``on_update`` hears of each verdict as it changes.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from atout.cards import token
from atout.position import Position, parse_position
from atout.scoring import made_threshold

from . import (MAX_THREADS, _optimal, ask_made, check_limits, check_threads, default_tt_mb,
               make_engine, set_threads)
from .cancel import Cancel
from .line import PlayedLine
from .params import card_of_code, code_of

__all__ = ["Analysis", "analyze", "summary"]

#: the shares of a run's time limit where its steps end (see the module's docstring)
EXACT_FIRST_SHARE = 0.1
MADE_UNTIL_SHARE = 0.25
JUDGE_UNTIL_SHARE = 0.4
#: steps 2 and 3: the first time per probe, as a share of the step's time (doubled every
#: round)
FIRST_PROBE_SHARE = 1 / 32
#: step 3 narrows a proven mistake until its lower bound is this share of its upper bound
#: at least (a seat's proven total then lies within this share of the exact one)
TIGHT_MISTAKE = 0.9
#: with a time limit, the least time the optimal cards at a position get before they wait
#: (beyond it, as long as the position's value took; see _ExactWalk)
BEST_FLOOR = 0.05
#: the share of the time kept at the end for the optimal cards that waited
WAITING_SHARE = 0.1

#: ``on_update``'s argument: the plays whose verdict changed, as the report has them
OnUpdate = Callable[[list], None]


def analyze(position: Any, *, start: int = 0, time_limit: float | None = None,
            tt_mb: int | None = None, reuse_table: bool = True,
            cancel: Cancel | None = None, threads: int = 1,
            on_update: OnUpdate | None = None, node_rate: float | None = None) -> dict:
    """Analyse the cards of ``position`` (a Position or a position JSON object).

    ``start``: how many of the played cards to take as given; the analysis begins
    after them (default 0: from the first card).  ``time_limit`` (seconds) bounds the
    whole analysis; ``cancel`` (a :class:`~atout.solver.Cancel`) set from another thread
    stops it at once.  Either way every card gets its verdict — exact where solved,
    else the bounds proven so far — and ``stopped_by`` says why some are not exact.
    ``threads``: threads per search (1 to MAX_THREADS), on the one table.
    ``on_update``: called (in this thread) with the plays whose verdict changed, as soon
    as a search changed them — the first call comes before any search.  ``node_rate``:
    see :class:`Analysis`.  Bad input raises
    :class:`~atout.errors.PositionError`.

    Returns ``{"id", "start_value", "made", "plays": [{"index", "seat", "card",
    "value_before", "value_after", "cost", "best", "made_before", "made_after",
    "decisive"}], "seats": [{"seat", "cards", "mistakes", "cost"}], "outcome"}`` —
    ``index`` is the card's index in ``played``, ``made`` the contract before the first
    card analysed (True / False / None: not proven, or Trischaken), ``outcome``
    (docs/format.md) None unless the deal is finished.  A value not solved is None, with
    ``bounds_before`` / ``bounds_after`` ([low, high], proven; ``start_bounds`` for
    ``start_value``); a cost not exact is None with ``cost_bounds`` (a proven mistake when
    its low is above 0, else not judged); a seat's total not exact is None with
    ``at_least`` (the sum of its cards' proven lows) and ``not_judged`` (its cards whose
    cost may be 0 or more); ``best`` is None where the optimal cards were not found;
    ``stopped_by`` (``time`` or ``cancel``) is there only when some value is not exact
    or some ``best`` not found.
    """
    analysis = Analysis(position, start=start, tt_mb=tt_mb, threads=threads,
                        reuse_table=reuse_table, node_rate=node_rate)
    try:
        return analysis.run(time_limit, cancel=cancel, on_update=on_update)
    finally:
        analysis.close()


class Analysis:
    """One played deal's analysis, which can be run again and again: each :meth:`run`
    goes on from what the earlier ones proved, on the same engine, its table warm (the
    viewer's "keep going").  ``start``, ``tt_mb``, ``threads`` and ``reuse_table``: as
    :func:`analyze` takes them.  ``node_rate``: count the time in nodes searched, this
    many a second, instead of seconds — the same analysis on a busy machine as on a quiet
    one, and on one thread the same every time (for measuring and testing it).  Not for
    two threads at once."""

    def __init__(self, position: Any, *, start: int = 0, tt_mb: int | None = None,
                 threads: int = 1, reuse_table: bool = True, node_rate: float | None = None):
        if not isinstance(position, Position):
            position = parse_position(position)
        if isinstance(start, bool) or not isinstance(start, int) or \
                not 0 <= start <= len(position.played):
            raise ValueError(f"start must be a whole number from 0 to {len(position.played)} "
                             f"(the cards played)")
        check_limits(tt_mb=tt_mb)
        check_threads(threads)
        self.position, self.start = position, start
        rules = position.rules
        codes = [code_of(rules, c) for c in position.played]
        # one table for every position: sized for the biggest, the first one analysed
        size = tt_mb or default_tt_mb(rules.hand_size - start // position.seats, position.seats)
        self.engines = _Engines(position, codes, size, threads, reuse_table, node_rate)
        self.line, self.seats, self.judge = _line(self.engines, position, start)
        self.walk = _ExactWalk(self.engines, self.line, codes, card_of_code(rules), self.judge)
        self.cancel: Cancel | None = None
        self.on_update: OnUpdate | None = None
        self.shown: dict[int, dict] = {}          # the verdicts on_update was last given
        self.made_cap: float | None = None        # step 2's and 3's time per probe
        self.judge_cap: float | None = None

    def run(self, time_limit: float | None = None, *, cancel: Cancel | None = None,
            on_update: OnUpdate | None = None) -> dict:
        """Search on for ``time_limit`` seconds (None: until every value and optimal card
        is known) and return the report (as :func:`analyze`'s)."""
        check_limits(time_limit)
        started = self.engines.now()
        deadline = None if time_limit is None else started + time_limit
        self.cancel, self.on_update = cancel, on_update
        self.engines.follow(cancel)
        self.walk.proved = self._proved
        try:
            self._proved()
            walk = self.walk
            if deadline is None:
                walk.run(None)
            elif walk.run(started + EXACT_FIRST_SHARE * time_limit) is False and \
                    not self._cancelled():
                _ask_made(self, started + MADE_UNTIL_SHARE * time_limit)
                self.judge.run(self, started + JUDGE_UNTIL_SHARE * time_limit)
                # the optimal cards that waited get the last share of the time, and the
                # values whatever of it they leave
                if walk.run(deadline - WAITING_SHARE * time_limit) is False and \
                        not self._cancelled() and walk.run_waiting(deadline):
                    walk.run(deadline)
        finally:
            self.engines.follow(None)
            self.cancel, self.on_update = None, None
        return self.report(cancelled=cancel is not None and cancel.is_set())

    def want_threads(self, threads: int) -> None:
        """Search on ``threads`` threads from now on (1 to MAX_THREADS; any thread may ask,
        while a run goes on): fewer at once — the search running is stopped and run again
        on them, its table keeping what it found — more from the next search on.  For a
        server that lends a lone search the cores of its idle workers."""
        self.engines.want_threads(threads)

    def report(self, cancelled: bool = False) -> dict:
        """What is proven now, as :func:`analyze` returns it (``stopped_by`` says
        ``cancel`` when ``cancelled``)."""
        return _report(self.position, self.start, self.line, self.seats, self.walk.best,
                       cancelled)

    def close(self) -> None:
        """Give the engine and its table back (the analysis cannot run again)."""
        self.engines.close()

    def _cancelled(self) -> bool:
        return _cancelled(self.cancel)

    def _proved(self) -> None:
        """Something was proven: pass it along the line, and tell ``on_update`` which
        verdicts changed."""
        self.line.propagate()
        if self.on_update is None:
            return
        changed = []
        for play in _plays(self.position, self.start, self.line, self.seats, self.walk.best):
            if self.shown.get(play["index"]) != play:
                self.shown[play["index"]] = play
                changed.append(play)
        if changed:
            self.on_update(changed)


def summary(report: dict) -> dict:
    """What a report says besides its plays: the seats' totals and the start's value."""
    return {"seats": report["seats"], "start_value": report["start_value"],
            "start_bounds": report.get("start_bounds"), "made": report["made"]}


def _cancelled(cancel: Cancel | None) -> bool:
    return cancel is not None and cancel.is_set()


class _Engines:
    """The analysis' engine (one, its table kept warm), placed at a position of the deal
    with the time it may search there."""

    def __init__(self, position: Position, codes: list[int], tt_mb: int, threads: int,
                 reuse: bool, node_rate: float | None = None):
        self.position, self.codes = position, codes
        self.tt_mb, self.threads, self.reuse = tt_mb, threads, reuse
        self.node_rate = node_rate
        self.cancel: Cancel | None = None
        self.engine = None
        self.nodes_before = 0           # the nodes of the engines closed (reuse=False)
        self.until: float | None = None  # the instant the search now running stops at
        self.yielded = False            # a search was stopped to give threads back

    def want_threads(self, threads: int) -> None:
        """Search on ``threads`` threads from the next search on (any thread may ask): a
        search running on more is stopped and run again on these (its table keeps what it
        found), so that threads are given back at once."""
        self.threads = max(1, min(threads, MAX_THREADS))
        engine = self.engine
        if engine is not None and self.threads < engine.threads:
            self.yielded = True
            engine.stop()

    def search(self, fn: Callable, *args, **kwargs):
        """``fn(*args, **kwargs)``, a search of the engine, run again on the threads asked
        for where :meth:`want_threads` stopped it."""
        while True:
            result = fn(*args, **kwargs)
            if not self.yielded or _cancelled(self.cancel):
                return result
            self.yielded = False
            self.limit(self.until)

    def now(self) -> float:
        """The analysis' clock: ``time.perf_counter()``, or with a node rate the nodes
        searched so far over that rate (see :class:`Analysis`)."""
        if not self.node_rate:
            return time.perf_counter()
        nodes = self.nodes_before + (self.engine.nodes if self.engine is not None else 0)
        return nodes / self.node_rate

    def follow(self, cancel: Cancel | None) -> None:
        """The run's Cancel switch from now on (None: none)."""
        if self.engine is not None and self.cancel is not None:
            self.cancel.detach(self.engine)
        self.cancel = cancel
        if self.engine is not None and cancel is not None:
            cancel.attach(self.engine)

    def at(self, index: int, until: float | None):
        """The engine at the position before card ``index``, searching until ``until``
        (an instant of :meth:`now`; None: no limit)."""
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
        """The engine searches until ``until`` (None: no limit) from now on, on the
        threads asked for."""
        self.until = until
        if self.engine.threads != self.threads:
            set_threads(self.engine, self.threads)
        if until is None:
            self.engine.set_limits(0, 0.0)
        elif self.node_rate:
            self.engine.set_limits(max(int((until - self.now()) * self.node_rate), 1), 0.0)
        else:
            self.engine.set_limits(0, max(until - time.perf_counter(), 1e-6))
        if _cancelled(self.cancel):
            self.engine.stop()     # (set_limits cleared the stop a Cancel set before)

    def close(self) -> None:
        if self.engine is not None:
            self.nodes_before += self.engine.nodes
            if self.cancel is not None:
                self.cancel.detach(self.engine)
        self.engine = None


def _line(engines: _Engines, position: Position, start: int):
    """The played line from card ``start`` on, with what is known without a search: the
    cheap bounds of every position and of every card there, and the value of a finished
    deal.  Also the seat that played each card, and the cards' judge."""
    engine = engines.at(start, None)
    seats, maximizing, forced, cheap = [], [], [], []
    judge = _Judge(start, engines)
    contract = position.contract
    maximizers = sum(camp == contract.maximizer for camp in contract.camp)
    judge.cheap = 1 if 2 * maximizers < position.seats else (-1 if 2 * maximizers > position.seats else 0)
    for code in engines.codes[start:]:
        seats.append(engine.to_play())
        maximizing.append(engine.maximizing())
        groups = engine.groups()
        forced.append(len(groups) == 1)
        cheap.append(engine.bounds())
        judge.add(engine, groups, code)
        engine.play(code)
    cheap.append((engine.final_value(),) * 2 if engine.finished() else engine.bounds())
    line = PlayedLine(start, maximizing, forced, made_threshold(position.contract, position.hands))
    for k, (lo, hi) in enumerate(cheap):
        line.narrow(start + k, lo, hi)
    for index in range(start, line.last):
        judge.tell(line, index)
    line.propagate()
    return line, seats, judge


class _Judge:
    """What is proven of every card group at each position of the line (``cards[i]``:
    {representative: [lo, hi]}), and step 3 of the analysis: null-window probes of the
    card played and of the others at each card whose verdict is still open (see the
    module's docstring).  Values here are the mover's: a maximizing seat's values as
    they are, the other camp's negated, so that every seat wants its card's value high
    and a card's cost is how far the others' best lies above the card played."""

    def __init__(self, first: int, engines: _Engines):
        self.first, self.engines = first, engines
        self.cards: list[dict[int, list]] = []
        self.played: list[int] = []             # the representative of the card played
        self.maximizing: list[bool] = []
        self.ran_out = False                    # a probe of this round ran out of time
        self.stride: list[list[int]] = []       # the cheap walks' steps: [played, others]
        # which answer is cheap to prove: 1 "below t" (the maximizing camp has fewer
        # seats, as the French taker's), -1 "t or more", 0 neither (as the engine's walk)
        self.cheap = 0

    def add(self, engine, groups: dict, code: int) -> None:
        """The next position of the line: ``engine`` there, the card ``code`` played."""
        self.cards.append({rep: list(engine.child_bounds(rep)) for rep in engine.move_codes()})
        self.played.append(next(rep for rep, codes in groups.items() if code in codes))
        self.maximizing.append(engine.maximizing())
        self.stride.append([1, 1])

    # -- what is known ------------------------------------------------------------------

    def learn(self, engine, index: int) -> None:
        """Keep what the searches of ``engine`` (at position ``index``) proved of each
        card there."""
        cards = self.cards[index - self.first]
        for rep, known in cards.items():
            lo, hi = engine.child_bounds(rep)
            known[0], known[1] = max(known[0], lo), min(known[1], hi)

    def tell(self, line: PlayedLine, index: int) -> None:
        """Pass what is known of the cards at ``index`` to the line: the card played's
        bounds are the value after it, the others' give ``X``."""
        k = index - self.first
        cards, played = self.cards[k], self.played[k]
        line.narrow(index + 1, *cards[played])
        others = [known for rep, known in cards.items() if rep != played]
        if others:
            best = max if self.maximizing[k] else min
            line.narrow_others(index, best(lo for lo, _ in others), best(hi for _, hi in others))

    def teach(self, engine, line: PlayedLine, index: int) -> None:
        """Tell ``engine`` (at position ``index``) what is known of its cards: what earlier
        searches proved, and what the line says (no card is better than the position)."""
        k = index - self.first
        lo, hi = line.bounds(index)
        for rep, (clo, chi) in self.cards[k].items():
            if self.maximizing[k]:
                chi = min(chi, hi)
            else:
                clo = max(clo, lo)
            if rep == self.played[k]:
                alo, ahi = line.bounds(index + 1)
                clo, chi = max(clo, alo), min(chi, ahi)
            engine.learn(rep, int(clo), int(chi))

    # -- step 3 -------------------------------------------------------------------------

    def open(self, line: PlayedLine) -> list[int]:
        """The cards whose verdict is open (neither "best" nor "mistake" proven), from the
        end back, then the proven mistakes whose bound is loose."""
        undecided, loose = [], []
        for index in range(line.last - 1, line.first - 1, -1):
            if line.forced[index - self.first]:
                continue
            lo, hi = line.cost_bounds(index)
            if lo == 0 < hi:
                undecided.append(index)
            elif 0 < lo < TIGHT_MISTAKE * hi:
                loose.append(index)
        return undecided + loose

    def run(self, analysis: Analysis, until: float) -> None:
        """Probe the open cards, from the end back, in rounds whose time per probe doubles
        (the cheap verdicts first), until none is open or ``until``."""
        engines, line = analysis.engines, analysis.line
        if analysis.judge_cap is None:
            analysis.judge_cap = FIRST_PROBE_SHARE * max(until - engines.now(), 0.0)
        while engines.now() < until and not analysis._cancelled():
            todo = self.open(line)
            if not todo:
                return
            before = self._verdicts(line, todo)
            self.ran_out = False
            for index in todo:
                now = engines.now()
                if now >= until or analysis._cancelled():
                    return
                if index in self.open(line):        # (another card's answer may settle it)
                    self.step(engines, line, index, analysis.judge_cap, until)
                    analysis._proved()
            if self.ran_out and self._verdicts(line, todo) == before:
                # a round that judged no card and proved no mistake bigger, its time per
                # probe too short: what is left costs about what the exact values cost (a
                # card as good as the best needs the value it ties with), so the time goes
                # back to them
                return
            analysis.judge_cap *= 2

    @staticmethod
    def _verdicts(line: PlayedLine, cards: list[int]) -> list:
        """The verdicts of ``cards``: for each, one of the best (proven) and what it is
        proven to have cost at least."""
        return [(line.cost_bounds(i)[1] == 0, line.cost_bounds(i)[0]) for i in cards]

    def step(self, engines: _Engines, line: PlayedLine, index: int, cap: float,
             until: float) -> None:
        """One step towards card ``index``'s verdict, each probe given ``cap`` (and never
        past ``until``).

        A verdict needs one bound of the card played (``P``) and one of the others' best
        (``X``): one of the best when X's high is at most P's low, a mistake when X's low
        is above P's high.  Where one camp has fewer seats, one side of every value is
        cheap to bound (in French Tarot, "below t": only the taker's cards are refuted)
        and the other dear, the more so the nearer the value.  So each step first moves
        the cheap bounds of P and X towards their values, galloping (each cheap answer
        doubles the stride; one from the dear side bounds the value and shortens it),
        then asks the one dear
        question that can decide, as far from the values as the cheap bounds allow: a
        mistake of C points needs a dear probe about C from its value, while a card that
        ties with the best needs one at the value itself — as the exact value does.
        Where neither side is cheaper (two against two), one threshold between the two
        ranges is asked of both."""
        k = index - self.first
        up = self.maximizing[k]
        engine = engines.at(index, min(engines.now() + cap, until))
        self.teach(engine, line, index)

        def known():
            self.learn(engine, index)
            self.tell(line, index)
            line.propagate()
            return _mine(up, *line.bounds(index + 1)) + _mine(up, *line.others(index))

        def limit():
            engines.limit(min(engines.now() + cap, until))
            return True

        p0, p1, x0, x1 = known()
        if self.cheap == 0:
            self._split(engine, index, p0, p1, x0, x1)
            known()
            return
        # the cheap bounds, in the mover's values: the lows (a yes to "worth t?" is
        # cheap) or the highs (a no is)
        lows = (self.cheap == -1) == up
        stride = self.stride[k]
        for which in (0, 1):
            # a gallop from the cheap side, while its answers come in time: each cheap
            # answer doubles the stride; the dear one (the value passed) bounds the other
            # side, shortens the stride and ends the walk for this step
            ask = self._played_at_least if which == 0 else self._others_at_least
            ends = engines.now() + cap
            while engines.now() < min(ends, until):
                lo, hi = known()[2 * which:2 * which + 2]
                if lo >= hi:
                    break
                engines.limit(min(ends, until))
                t = min(lo + stride[which], hi) if lows else max(hi - stride[which] + 1, lo + 1)
                if not ask(engine, index, t):
                    break
                n0, n1 = known()[2 * which:2 * which + 2]
                if (n0 >= t) if lows else (n1 < t):
                    stride[which] *= 2
                else:
                    stride[which] = max(1, stride[which] // 4)
                    break
        p0, p1, x0, x1 = known()
        limit()
        if x1 <= p0:
            return                                     # one of the best
        if x0 > p1:                                    # a mistake: tighten its dear side
            if lows and p0 < p1:
                self._played_at_least(engine, index, (p0 + p1 + 1) // 2)
            elif not lows and x0 < x1:
                self._others_at_least(engine, index, (x0 + x1 + 1) // 2)
        elif lows:
            if x0 > p0:     # the others reach above what the card played surely does
                self._played_at_least(engine, index, x0)       # no: a mistake
            else:
                self._others_at_least(engine, index, p0 + 1)   # no: one of the best
        else:
            if x1 > p1:     # the others may reach above what the card played can
                self._others_at_least(engine, index, p1 + 1)   # yes: a mistake
            else:
                self._played_at_least(engine, index, x1)       # yes: one of the best
        known()

    def _split(self, engine, index: int, p0, p1, x0, x1) -> None:
        """Where neither side is cheaper: one threshold between the two ranges asked of
        the card played and of the others — the best if only the card played reaches
        it, a mistake if only another does, else the ranges overlap on one side of it,
        half as wide."""
        if x0 > p1:                                    # a mistake: make its bound tight
            if p1 - p0 >= x1 - x0:
                self._played_at_least(engine, index, (p0 + p1 + 1) // 2)
            else:
                self._others_at_least(engine, index, (x0 + x1 + 1) // 2)
            return
        low, high = max(p0, x0), min(p1, x1)
        if low < high:
            played = others = (low + high + 1) // 2
        else:                 # one value left where both may lie: the best only if equal
            played, others = low, low + 1
        if p0 >= played or self._played_at_least(engine, index, played):
            if x1 >= others:
                self._others_at_least(engine, index, others)

    def _played_at_least(self, engine, index: int, t) -> bool:
        """Ask "is the card played worth t to its seat?"; False when stopped."""
        k = index - self.first
        if self.engines.search(_at_least, engine, self.played[k], self.maximizing[k], t) is None:
            self.ran_out = True
            return False
        return True

    def _others_at_least(self, engine, index: int, t) -> bool:
        """Ask "is another card worth t to the seat?": the others in turn, the most
        promising first, until one is; False when stopped."""
        k = index - self.first
        up, cards = self.maximizing[k], self.cards[k]
        others = sorted((rep for rep in cards if rep != self.played[k]),
                        key=lambda rep: -_mine(up, *cards[rep])[1])
        for rep in others:
            lo, hi = _mine(up, *cards[rep])
            if lo >= t:
                return True
            if hi < t:
                continue
            answer = self.engines.search(_at_least, engine, rep, up, t)
            if answer is None:
                self.ran_out = True
                return False
            if answer:
                return True
        return True


def _mine(maximizing: bool, lo, hi):
    """Bounds of a value as the seat to play sees them (the other camp's negated)."""
    return (lo, hi) if maximizing else (-hi, -lo)


def _at_least(engine, rep: int, maximizing: bool, t) -> bool | None:
    """Is the card ``rep`` worth at least ``t`` to the seat playing it (its value, negated
    for the minimizing camp)?  None when the search was stopped."""
    t = int(t)
    if maximizing:
        done, yes = engine.child_at_least(rep, t)
    else:                                   # -value >= t: value < -t + 1
        done, higher = engine.child_at_least(rep, -t + 1)
        yes = not higher
    return yes if done else None


class _ExactWalk:
    """Exact values and the optimal cards from the last card back, as far as each run's
    time goes; the next run goes on where the last one stopped.

    With a time limit the values come first: at each position the optimal cards get at
    most as long as its value took (at least ``BEST_FLOOR`` seconds).  Where that is not
    enough (proving a second optimal card can cost many times the value: every reply to it
    refuted), the position's search for them waits, with what it decided so far, until the
    values reach the first card or :meth:`run_waiting` is called.  Without a time limit
    each position is finished before the next."""

    def __init__(self, engines: _Engines, line: PlayedLine, codes: list[int], names: dict,
                 judge: _Judge):
        self.engines, self.line, self.codes, self.names = engines, line, codes, names
        self.judge = judge
        self.index = line.last          # the values from here on are exact
        self.best: dict[int, list[str]] = {}
        # positions whose optimal cards wait: index -> {card: optimal?} decided so far
        self.waiting: dict[int, dict[int, bool]] = {}
        self.proved: Callable[[], None] = line.propagate

    def run(self, until: float | None) -> bool:
        """Go back until every value and optimal card from the first card analysed on is
        known (True) or until the time or a cancel stops a search (False)."""
        line = self.line
        if self.index == line.last and line.exact(line.last) is None:
            # an unfinished deal: first the value after its last card
            engine = self.engines.at(line.last, until)
            done, lo, hi = self.engines.search(engine.value, at_least=line.lo[-1],
                                               at_most=line.hi[-1])
            line.narrow(line.last, lo, hi)
            self.proved()
            if not done:
                return False
        while self.index > line.first:
            index = self.index - 1
            started = self.engines.now()
            engine = self.engines.at(index, until)
            self.judge.teach(engine, line, index)
            after = line.exact(index + 1)
            if line.exact(index) is None:
                # The card played is worth ``after``; the value before it is at least that
                # for the maximizing camp, at most that for the other (the line knows it) —
                # and the first guess.
                lo, hi = line.bounds(index)
                done, lo, hi = self.engines.search(engine.value, guess=after, at_least=lo,
                                                   at_most=hi)
                line.narrow(index, lo, hi)
                self.judge.learn(engine, index)
                self.judge.tell(line, index)
                self.proved()
                if not done:
                    return False
            self.index = index
            self.waiting[index] = {}
            if until is not None:
                now = self.engines.now()
                self.engines.limit(min(until, now + max(now - started, BEST_FLOOR)))
            found = self._find_best(engine, index)
            self.proved()
            if not found and self._out_of_time(until):
                return False
        return self.run_waiting(until)

    def run_waiting(self, until: float | None) -> bool:
        """The optimal cards that wait, from the end back (the cheap positions first),
        until ``until``: True when none is left."""
        for index in sorted(self.waiting, reverse=True):
            engine = self.engines.at(index, until)
            self.judge.teach(engine, self.line, index)
            found = self._find_best(engine, index)
            self.proved()
            if not found:
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
                    done, ok = self.engines.search(_optimal, engine, rep, value, groups[rep])
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
                                                   self.engines.now() >= until)


def _ask_made(analysis: Analysis, until: float) -> None:
    """The contract question at every position of the line it is still open at, from the
    end back, until ``until``: rounds in which each probe gets a time that doubles from
    round to round, so that the cheap positions are all answered before a dear one
    takes the time."""
    engines, line, judge = analysis.engines, analysis.line, analysis.judge
    threshold = line.threshold
    if threshold is None:
        return
    if analysis.made_cap is None:
        analysis.made_cap = FIRST_PROBE_SHARE * max(until - engines.now(), 0.0)
    while engines.now() < until and not _cancelled(engines.cancel):
        open_ = [i for i in range(line.last, line.first - 1, -1) if line.made(i) is None]
        if not open_:
            return
        for index in open_:
            now = engines.now()
            if now >= until or _cancelled(engines.cancel):
                return
            if line.made(index) is not None:
                continue                     # answered by another position's answer
            engine = engines.at(index, min(now + analysis.made_cap, until))
            if index < line.last:
                judge.teach(engine, line, index)
            done, lo, hi = engines.search(ask_made, engine, threshold, *line.bounds(index))
            line.narrow(index, lo, hi)
            if index < line.last:
                judge.learn(engine, index)
                judge.tell(line, index)
            analysis._proved()
        analysis.made_cap *= 2


def _plays(position: Position, start: int, line: PlayedLine, seats: list[int],
           best: dict[int, list[str]]) -> list[dict]:
    """Every card's verdict, as the report has them."""
    played = position.played
    plays = []
    for index in range(start, len(played)):
        verdict = line.verdict(index)
        play = {"index": index, "seat": seats[index - start], "card": token(played[index]),
                "value_before": verdict.pop("value_before"),
                "value_after": verdict.pop("value_after"), "cost": verdict.pop("cost"),
                "best": best.get(index)}
        play.update(verdict)
        plays.append(play)
    return plays


def _report(position: Position, start: int, line: PlayedLine, seats: list[int],
            best: dict[int, list[str]], cancelled: bool) -> dict:
    plays = _plays(position, start, line, seats, best)
    summary = [{"seat": s, "cards": 0, "mistakes": 0, "cost": 0, "low": 0, "high": 0,
                "not_judged": 0} for s in range(position.seats)]
    for play in plays:
        low, high = line.cost_bounds(play["index"])
        s = summary[play["seat"]]
        s["cards"] += 1
        s["mistakes"] += low > 0
        s["not_judged"] += low == 0 < high
        s["low"] += low
        s["high"] += high
    for s in summary:
        # what a seat gave away is what is proven of it: the sum of its cards' lows, with
        # the cards not judged counted beside it (a sum of highs would add up guesses)
        low, high, not_judged = s.pop("low"), s.pop("high"), s.pop("not_judged")
        s["cost"] = low if low == high else None
        if low != high:
            s["at_least"] = low
            s["not_judged"] = not_judged
    start_value = line.exact(start)
    report = {"id": position.id, "start_value": start_value}
    if start_value is None:
        report["start_bounds"] = list(line.bounds(start))
    report.update({"made": line.made(start), "plays": plays, "seats": summary,
                   "outcome": position.outcome() if position.is_finished else None})
    if any(line.exact(i) is None for i in range(start, len(position.played) + 1)) or \
            any(p["best"] is None for p in plays):
        report["stopped_by"] = "cancel" if cancelled else "time"
    return report
