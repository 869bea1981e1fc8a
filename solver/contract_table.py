"""The search behind ``atout table``: every cell of a deal's contract table, anytime.

>>> from atout.solver.contract_table import contract_table
>>> table = contract_table(position, time_limit=60, threads=2)   # doctest: +SKIP
>>> table["par"], table["cells"][0]["made"]                       # doctest: +SKIP

Each cell (:mod:`atout.contract_table`) is a whole-deal position and one question: is its
contract made (the value at least ``made_threshold``)?  That is one null-window probe at the
threshold, the same first question every search asks — and far from the threshold, where
most cells of a table lie, a cheap one: a seat that cannot come near a garde sans is
refuted in a few thousand nodes, where the exact value of the same deal costs minutes.

**Cheap cells first.**  Every search is a *unit* (cells whose positions are the same
game share one: an ``_ouvert`` game and its closed form, the calls of one Austrian
declarer that give the same partner), and every unit is probed in turns whose node budget
doubles: a turn that runs out of nodes leaves its engine's table warm for the next.  The
turns of every unit wait in one queue, cheapest first — their budget times the unit's
*weight* — and the ``threads`` workers take them in that order, each a search of its own
(one cell needs no other's answer); the last searches get the threads left over.  So
within the time limit the easy cells are all settled first, then the time goes to the
close ones, each proven or left with the bounds its probes proved.

**The écart** of a ``garde`` searched (:mod:`atout.ecart`): every class of écarts is a unit
of its own, the most promising first and each further one weighed a little more, so that
the likely écarts are searched deep before the unlikely ones are tried at all; the cell is
made as soon as one class is, and not made once every class is refuted.  (The search core
has no move for an écart, so the écarts cannot be the first moves of one search tree
sharing one table; each class is a search of its own.)

**Implied answers.**  A ``garde_contre`` made is a ``garde_sans`` made for the same seat
(the same play, the dog counted for the taker instead of the defence can only help it),
and a ``garde_sans`` lost is a ``garde_contre`` lost: the search stops asking the other.

With ``values`` every cell proven gets its exact value too, in turns weighed
:data:`VALUE_WEIGHT` times more, while time is left.  Ctrl-C (a :class:`Cancel`) and the
time limit stop every search at once; the table keeps what is proven.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Any, Callable

from atout.contract_table import CellResult, TableCell, TableSpec, cell_json, table_json, table_spec
from atout.dealt import dealt, is_deal, parse_deal
from atout.errors import PositionError
from atout.position import Position, parse_position
from atout.scoring import made_threshold

from . import ask_made, check_limits, check_threads, make_engine
from .cancel import Cancel

__all__ = ["contract_table", "FIRST_BUDGET", "VALUE_WEIGHT"]
#: the nodes of a unit's first turn (a few milliseconds); each turn doubles it
FIRST_BUDGET = 1 << 14
#: an exact value waits until the contract questions have had this many times its nodes
VALUE_WEIGHT = 16
#: the weight of the i-th écart class of a cell: ECART_WEIGHT + ECART_STEP * i * f, where f
#: is what its classes' first turns have cost, as a share of FIRST_BUDGET (at least
#: 1/64): so the likely écarts are searched deep first, and where the écarts are
#: refuted cheaply (a seat far from the contract) they are all tried soon
ECART_WEIGHT, ECART_STEP = 4.0, 8.0
#: a unit's table: this size at first, growing while its search needs room up to tt_mb
FIRST_TT_MB = 1
DEFAULT_TT_MB = 1024
#: the tables kept between turns may hold this many times ``tt_mb`` in all: beyond it the
#: engines searched longest ago are dropped, and rebuilt when their turn comes (a turn
#: costs twice the last, so a cold start costs the turns before it once more)
KEPT_TABLES = 2
#: the MB of one bucket of a table, as solver/table.pxi lays it out (64 entries of 32 bytes
#: and their 4-byte tags): only to tell how much the kept tables hold
BUCKET_MB = 64 * 36 / 2 ** 20


class _Unit:
    """One search: a position, its contract question and what is proven of its value."""

    def __init__(self, build: Callable[[], Position], weight: float):
        self.build = build
        self.weight = weight
        self.position: Position | None = None
        self.threshold: int | None = None
        self.engine = None
        self.made: bool | None = None
        self.lo: int | None = None
        self.hi: int | None = None
        self.budget = FIRST_BUDGET
        self.nodes = 0
        self.turns = 0
        self.rank = 0               # an écart class: its place in its cell's order
        self.cells: list["_Cell"] = []
        self.busy = False
        self.mb = 0.0               # the size of its engine's table
        self.impossible = False     # an écart the rules refuse (it is no choice)
        self.cut = False            # its turn stopped: the cores it ran on were taken back

    @property
    def exact(self) -> bool:
        return self.lo is not None and self.lo == self.hi

    def prove(self, made: bool) -> None:
        """The contract question answered elsewhere (an implied answer)."""
        self.made = made
        t = self.threshold
        if made:
            self.lo = t if self.lo is None else max(self.lo, t)
        else:
            self.hi = t - 1 if self.hi is None else min(self.hi, t - 1)

    def learn(self, lo: int, hi: int) -> None:
        """Bounds proven elsewhere (cheap bounds, a probe, an implied answer)."""
        self.lo = lo if self.lo is None else max(self.lo, lo)
        self.hi = hi if self.hi is None else min(self.hi, hi)
        if self.threshold is not None and self.made is None:
            if self.lo >= self.threshold:
                self.made = True
            elif self.hi < self.threshold:
                self.made = False


class _Cell:
    """A cell of the table and the units that answer it: one, or one per écart class
    (whose tallies are kept as their turns end: a garde has up to tens of thousands)."""

    def __init__(self, spec: TableCell, index: int):
        self.spec = spec
        self.index = index
        self.units: list[_Unit] = []
        self.tried = 0              # écart classes given their first turn so far
        self.first_nodes = 0        # and what those first turns cost (the finished ones)
        self.first_done = 0
        self.refuted: set[int] = set()    # the écart classes proven not to make it
        self.probed: set[int] = set()     # those with both bounds (or no choice at all)
        self.making: int | None = None    # the first class proven to make it
        self.best_lo: int | None = None
        self.highs: list = []             # (-hi, class) of every hi proven (stale ones too)
        self.result = CellResult(classes=len(spec.classes) if spec.ecart == "searched" else 0)

    @property
    def searched(self) -> bool:
        return self.spec.ecart == "searched"

    def settled(self, values: bool) -> bool:
        r = self.result
        if r.made is None:
            return False
        return not values or self.searched or r.lo == r.hi

    def note(self, unit: _Unit) -> None:
        """An écart class's turn ended: the tallies."""
        if unit.made is False:
            self.refuted.add(unit.rank)
        elif unit.made and (self.making is None or unit.rank < self.making):
            self.making = unit.rank
        if unit.impossible or (unit.lo is not None and unit.hi is not None):
            self.probed.add(unit.rank)
        if unit.lo is not None:
            self.best_lo = unit.lo if self.best_lo is None else max(self.best_lo, unit.lo)
        if unit.hi is not None:
            heapq.heappush(self.highs, (-unit.hi, unit.rank))

    def update(self, cap: tuple[int, int] | None) -> bool:
        """The cell's result from its units; True when it changed."""
        before = self.result.to_json()
        r = self.result
        if not self.searched:
            u = self.units[0]
            r.made, r.lo, r.hi = u.made, u.lo, u.hi
            return r.to_json() != before
        r.refuted = len(self.refuted)
        if not self.units:          # its écarts not counted (the time ran out first): open
            r.lo, r.hi = cap
            return r.to_json() != before
        if self.making is not None:
            r.made = True
            r.ecart = self.spec.classes[self.making].ecart
        elif r.refuted == len(self.units):
            r.made = False
        r.lo = self.best_lo if self.best_lo is not None else cap[0]
        # the best écart's value is at most the highest of every class's upper bound
        while self.highs and self.units[self.highs[0][1]].hi != -self.highs[0][0]:
            heapq.heappop(self.highs)       # (a bound since narrowed)
        if len(self.probed) == len(self.units) and self.highs:
            r.hi = -self.highs[0][0]
        else:
            r.hi = cap[1]
        return r.to_json() != before


def _value_cap(cell: TableCell) -> tuple[int, int]:
    """The widest a French garde's value can be (a searched écart whose classes are not
    all probed): lost by 56 or made by 55 with the petit au bout, and a slam's 200."""
    return (-(25 + 56 + 10) * 2 - 200, (25 + 55 + 10) * 2 + 200)


class _Search:
    """The queue of turns and the workers that take them (module docstring)."""

    def __init__(self, cells: list[_Cell], units: list[_Unit], threads: int, deadline: float,
                 cancel: Cancel, values: bool, tt_mb: int, implications: bool,
                 on_change: Callable[[list[_Cell]], None] | None):
        self.cells, self.units = cells, units
        self.threads, self.deadline, self.cancel = threads, deadline, cancel
        self.values, self.tt_mb, self.implications = values, tt_mb, implications
        self.on_change = on_change
        self.queue: list = []
        self.order = itertools.count()
        self.cond = threading.Condition()
        self.busy = 0
        self.kept: dict[_Unit, None] = {}      # units holding an engine, oldest first
        self.kept_mb = 0.0
        self.error: BaseException | None = None
        self.workers: dict[int, threading.Thread] = {}
        self.running: dict[int, tuple[_Unit, int]] = {}    # worker -> (its unit, threads)
        self.finished = False       # every turn worth taking taken
        self.stopped_by: str | None = None
        self.nodes = 0
        self.pairs = self._pairs() if implications else {}

    # -- the queue ------------------------------------------------------------------------

    def push(self, unit: _Unit) -> None:
        phase_weight = 1 if unit.made is None else VALUE_WEIGHT
        heapq.heappush(self.queue, (unit.budget * unit.weight * phase_weight, next(self.order), unit))

    def push_next_class(self, cell: "_Cell") -> None:
        """Under the lock: the next écart class of ``cell`` joins the queue, weighed by
        its place and by what the first turns of its cell's classes cost so far."""
        cell.tried += 1
        if cell.tried >= len(cell.units) or cell.settled(False):
            return
        share = 1.0
        if cell.first_done:
            share = min(1.0, max(1 / 64, cell.first_nodes / cell.first_done / FIRST_BUDGET))
        unit = cell.units[cell.tried]
        unit.weight = ECART_WEIGHT + ECART_STEP * unit.rank * share
        self.push(unit)

    def wanted(self, unit: _Unit) -> bool:
        """Does a turn of ``unit`` still tell something?"""
        if unit.made is None:
            return any(not c.settled(False) for c in unit.cells)
        return self.values and not unit.exact and any(not c.searched for c in unit.cells)

    def run(self) -> None:
        for unit in self.units:
            if unit.rank == 0:
                self.push(unit)     # (an écart cell's further classes: as each is tried)
        with self.cond:
            self.start_workers()
        while True:
            with self.cond:
                waiting = [w for w in self.workers.values() if w.is_alive()]
            if not waiting:
                break
            for w in waiting:
                w.join()
        if self.error is not None:
            raise self.error

    def start_workers(self) -> None:
        """Under the lock: a worker thread for each of the ``threads`` not running."""
        for i in range(self.threads):
            if i not in self.workers or not self.workers[i].is_alive():
                w = threading.Thread(target=self.work, args=(i,), name=f"atout-table-{i}",
                                     daemon=True)
                self.workers[i] = w
                w.start()

    def want_threads(self, threads: int) -> None:
        """From now on ``threads`` searches at once (more cores lent, or taken back: the
        turns of the workers past the number, and those searching on more threads than
        are left, stop at once — a turn can last seconds, and the core lent is wanted now
        by another search — and their units go back in the queue, their budget kept)."""
        with self.cond:
            if max(1, threads) < self.threads:
                for index, (unit, used) in self.running.items():
                    if index >= max(1, threads) or used > 1:
                        unit.cut = True
                        if unit.engine is not None:
                            unit.engine.stop()
            self.threads = max(1, threads)
            if self.stopped_by is None and not self.finished:
                self.start_workers()
            self.cond.notify_all()

    def work(self, index: int) -> None:
        try:
            while True:
                with self.cond:
                    unit = self.take(index)
                    if unit is None:
                        return
                    self.busy += 1
                    unit.busy = True
                    # the last searches get the threads nobody else will use
                    threads = 1 if self.queue else max(1, self.threads - self.busy + 1)
                    self.running[index] = (unit, threads)
                try:
                    self.turn(unit, threads)
                finally:
                    with self.cond:
                        self.busy -= 1
                        unit.busy = False
                        unit.cut = False
                        self.running.pop(index, None)
                        self.after(unit)
                        self.cond.notify_all()
        except BaseException as e:      # handed to the caller (run)
            with self.cond:
                self.error = self.error or e
                self.stopped_by = self.stopped_by or "error"
                self.cond.notify_all()

    def take(self, index: int) -> _Unit | None:
        """The cheapest turn worth taking, waiting while others run; None when done (or
        this worker is one more than the threads now lent)."""
        while True:
            if self.stopped_by is not None or self.finished or index >= self.threads:
                return None
            while self.queue:
                _, _, unit = heapq.heappop(self.queue)
                if not unit.busy and self.wanted(unit):
                    if unit.turns == 0 and unit.cells[0].searched:
                        self.push_next_class(unit.cells[0])
                    return unit
            if self.busy == 0:
                self.finished = True
                self.cond.notify_all()
                return None
            self.cond.wait()

    # -- one turn -------------------------------------------------------------------------

    def turn(self, unit: _Unit, threads: int) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0 or self.cancel.is_set():
            self.stop()
            return
        try:
            engine = self.engine_of(unit)
        except PositionError:
            # an écart whose position the rules refuse (a petit sec left in hand): no choice
            unit.made, unit.impossible = False, True
            return
        engine.set_threads(threads)
        before = engine.nodes
        engine.set_limits(unit.budget, left if left != float("inf") else 0)
        self.cancel.attach(engine)
        if unit.cut:            # (its cores taken back before set_limits cleared the stop)
            engine.stop()
        try:
            if unit.made is None:
                done, lo, hi = ask_made(engine, unit.threshold, unit.lo, unit.hi)
            else:
                done, lo, hi = engine.value(at_least=unit.lo, at_most=unit.hi)
        finally:
            self.cancel.detach(engine)
        with self.cond:
            self.nodes += engine.nodes - before
        unit.nodes += engine.nodes - before
        unit.learn(lo, hi)      # (a probe or walk stopped still returns what it proved)
        if not done or self.wanted(unit):
            mb = engine.table_fill()[0] * BUCKET_MB
            with self.cond:
                self.keep(unit, mb)
        if not done:
            if self.cancel.is_set() or time.monotonic() >= self.deadline:
                self.stop()
            elif not unit.cut:          # (cut short: the same budget next time)
                unit.budget *= 2

    def engine_of(self, unit: _Unit):
        if unit.engine is None:
            with self.cond:
                self.make_room(FIRST_TT_MB)
            if unit.position is None:
                unit.position = unit.build()
                unit.threshold = made_threshold(unit.position.contract, unit.position.hands)
            unit.engine = make_engine(unit.position, FIRST_TT_MB, grow_to_mb=self.tt_mb)
            unit.learn(*unit.engine.bounds())
            with self.cond:
                self.keep(unit, FIRST_TT_MB)
        with self.cond:
            self.kept[unit] = self.kept.pop(unit, None)     # (the newest now)
        return unit.engine

    def keep(self, unit: _Unit, mb: float) -> None:
        """Under the lock: ``unit``'s engine kept, its table now of ``mb`` MB."""
        self.kept_mb += mb - unit.mb
        unit.mb = mb
        self.kept[unit] = None

    def drop(self, unit: _Unit) -> None:
        """Under the lock: ``unit``'s engine freed."""
        self.kept.pop(unit, None)
        self.kept_mb -= unit.mb
        unit.mb = 0.0
        unit.engine = None

    def make_room(self, mb: float) -> None:
        """Under the lock: drop the engines searched longest ago until ``mb`` more MB fit
        in what the kept tables may hold."""
        while self.kept_mb + mb > KEPT_TABLES * self.tt_mb:
            old = next((u for u in self.kept if not u.busy), None)
            if old is None:
                return
            self.drop(old)

    def stop(self) -> None:
        with self.cond:
            if self.stopped_by is None:
                self.stopped_by = "cancel" if self.cancel.is_set() else "time"
            self.cond.notify_all()

    # -- after a turn ---------------------------------------------------------------------

    def after(self, unit: _Unit) -> None:
        """Under the lock: the cells' results, what they imply, the next turn."""
        unit.turns += 1
        cell = unit.cells[0]
        if cell.searched and unit.turns == 1 and unit.made is not None:
            cell.first_nodes += unit.nodes
            cell.first_done += 1
        changed = self.imply(unit)
        for cell in unit.cells:
            if cell.searched:
                cell.note(unit)
            if cell.update(_value_cap(cell.spec) if cell.searched else None):
                changed.append(cell)
        if unit.engine is not None and not self.wanted(unit):
            self.drop(unit)
        if self.wanted(unit) and self.stopped_by is None:
            self.push(unit)
        if changed and self.on_change is not None:
            self.on_change(changed)

    def _pairs(self) -> dict:
        """Each French garde_sans unit with its garde_contre unit (same seat and call)."""
        by_key = {}
        for cell in self.cells:
            spec = cell.spec
            if spec.contract in ("garde_sans", "garde_contre") and len(cell.units) == 1:
                by_key[(spec.seat, spec.called, spec.contract)] = cell.units[0]
        pairs = {}
        for (seat, called, contract), unit in by_key.items():
            if contract == "garde_sans" and (seat, called, "garde_contre") in by_key:
                pairs[unit] = ("sans", by_key[(seat, called, "garde_contre")])
                pairs[by_key[(seat, called, "garde_contre")]] = ("contre", unit)
        return pairs

    def imply(self, unit: _Unit) -> list[_Cell]:
        """A garde_contre made makes the garde_sans; a garde_sans lost loses the
        garde_contre (module docstring)."""
        kind, other = self.pairs.get(unit, (None, None))
        if other is None or other.made is not None:
            return []
        if kind == "contre" and unit.made is True:
            other.prove(True)
        elif kind == "sans" and unit.made is False:
            other.prove(False)
        else:
            return []
        changed = []
        for cell in other.cells:
            if cell.update(None):
                changed.append(cell)
        return changed


def contract_table(position: Any, *, time_limit: float | None = None,
                   threads: int = 1, tt_mb: int | None = None, contracts=None,
                   values: bool = False, cancel: Cancel | None = None,
                   on_cell: Callable[[dict], None] | None = None,
                   on_start: Callable[[list[dict]], None] | None = None,
                   on_threads: Callable[[Callable[[int], None]], None] | None = None,
                   played=(), implications: bool = True) -> dict:
    """The contract table of ``position``'s deal as dealt (a Position, a position JSON
    object, or a deal as dealt's object): docs/format.md, "A contract table".

    ``time_limit``: seconds for the whole table (None: until every cell is settled);
    ``threads``: searches at once (1 to MAX_THREADS); ``tt_mb``: the most one search's
    table grows to (default 1024); ``contracts``: the contracts asked (default: every one
    of the game's table); ``values``: also each cell's exact value, with the time left;
    ``cancel``: stops it at once (Ctrl-C), keeping what is proven; ``on_cell(cell)``:
    called with each cell's JSON as it changes (from the searching threads, one at a
    time), and first with every cell, in the table's order, as it stands before the
    search (each with the bounds its position gives at once) — or, where ``on_start`` is
    given, those in one call ``on_start(cells)``; ``on_threads(want)``: called once
    before the search with ``want(n)``, which changes the searches at once while it runs
    (the server lends idle cores so).  ``played`` (card ids) and ``implications`` are for
    tests: cards taken as played in every cell, and whether implied answers spare
    searches.

    Raises :class:`~atout.errors.PositionError` for a position the rules refuse, a
    contract its game's table does not have (``contracts``), or a deal no cell can be
    asked of (the field that would give it); :class:`~atout.errors.Stopped` when
    ``cancel`` stops it before its cells are known (while the écarts are counted).

    The time limit counts from the call: the écarts still to count when it runs out are
    left uncounted (their gardes open)."""
    if isinstance(position, dict) and is_deal(position):       # a deal as dealt, no contract
        d, ident = parse_deal(position), position.get("id")
    else:
        if not isinstance(position, Position):
            position = parse_position(position)
        d, ident = dealt(position), position.id
    check_limits(time_limit, None, tt_mb)
    check_threads(threads)
    started = time.monotonic()
    deadline = started + time_limit if time_limit else float("inf")
    cancel = cancel or Cancel()
    # (the écarts of a whole deal take up to a second to count: a cancel stops that too,
    # and the time limit leaves the ones not counted yet so)
    spec = table_spec(d, contracts, played, stop=cancel.is_set,
                      out_of_time=lambda: time.monotonic() >= deadline)
    cells, units = _units(spec)
    # every cell's bounds from the start (a position's cheap bounds, milliseconds each):
    # no cell is told, nor an implied answer written, with a bound unknown
    for unit in units:
        if unit.position is not None and unit.rank == 0 and not unit.cells[0].searched:
            unit.learn(*make_engine(unit.position, 1).bounds())
    for cell in cells:
        cell.update(_value_cap(cell.spec) if cell.searched else None)
    lock = threading.Lock()

    def changed(cs: list[_Cell]) -> None:
        if on_cell is None:
            return
        with lock:
            for c in cs:
                on_cell(cell_json(c.spec, c.result))

    if on_start is not None:        # the whole table first, in its order
        on_start([cell_json(c.spec, c.result) for c in cells])
    else:
        changed(cells)
    search = _Search(cells, units, threads, deadline, cancel, values, tt_mb or DEFAULT_TT_MB,
                     implications, changed if on_cell is not None else None)
    if on_threads is not None:
        on_threads(search.want_threads)
    search.run()
    # cells never searched (the time ran out first, or an answer implied) still get bounds
    for unit in units:
        if (unit.lo is None or unit.hi is None) and any(not c.searched for c in unit.cells):
            unit.position = unit.position or unit.build()
            unit.threshold = made_threshold(unit.position.contract, unit.position.hands)
            unit.learn(*make_engine(unit.position, 1).bounds())
    for cell in cells:      # (told too: the cells told, in order, end as the table's)
        if cell.update(_value_cap(cell.spec) if cell.searched else None):
            changed([cell])
    out = {"id": ident}
    out["status"] = "ok" if all(c.settled(values) for c in cells) else "limit"
    body = table_json(spec, [c.result for c in cells], ident)
    out.update(body)
    if out["status"] == "limit":
        out["stopped_by"] = search.stopped_by or "time"
    out["nodes"] = search.nodes
    out["seconds"] = round(time.monotonic() - started, 3)
    return out


def _units(spec: TableSpec) -> tuple[list[_Cell], list[_Unit]]:
    """The cells and their units, one unit per distinct game (docstring)."""
    cells = [_Cell(c, i) for i, c in enumerate(spec.cells)]
    units: list[_Unit] = []
    by_game: dict = {}
    for cell in cells:
        spec_ = cell.spec
        if cell.searched:
            for i, k in enumerate(spec_.classes):
                unit = _Unit(lambda e=k.ecart, f=spec_.with_ecart: f(e), ECART_WEIGHT)
                unit.rank = i
                unit.cells.append(cell)
                cell.units.append(unit)
                units.append(unit)
            continue
        key = _game_key(spec_.position)
        unit = by_game.get(key)
        if unit is None:
            pos = spec_.position
            unit = by_game[key] = _Unit(lambda p=pos: p, 1.0)
            unit.position = pos
            unit.threshold = made_threshold(pos.contract, pos.hands)
            units.append(unit)
        unit.cells.append(cell)
        cell.units.append(unit)
    return cells, units


def _game_key(position: Position) -> str:
    """Positions that make the same game for the search (its rule parameters, the cards
    played, the threshold): one search answers them all."""
    import json

    from .params import engine_params
    params = engine_params(position)
    return json.dumps([params, position.played, made_threshold(position.contract, position.hands)],
                      sort_keys=True)
