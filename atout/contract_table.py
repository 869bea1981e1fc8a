"""The double-dummy contract table of a deal: its cells, its par and the bid played.

``atout table`` asks, for a deal as dealt (:mod:`atout.dealt`), which contracts each seat
could have made with best play by both camps.  This module knows the rules side of it —
which cells a game's table has, the whole-deal position each cell stands for, how the
cells rank, what the deal's *par* is — and writes the JSON (docs/format.md, "A contract
table").  The searching is :mod:`atout.solver.contract_table`'s.

The cells, by game (docs/format.md lists them with their fields):

- French Tarot: every seat as taker × ``garde`` (standing for the ``prise`` too: the same
  play, only the multiplier differs, so either both are made or neither),
  ``garde_sans`` and ``garde_contre``; ``fr5`` also × each card the seat could call.  The
  ``garde`` of the taker of a ``prise``/``garde`` position is played with its own écart,
  and with the best beside it; every other seat's with the best écart: the cell is made
  when one écart (:mod:`atout.ecart`) makes it, not made only when every one is refuted.
- Priestertarock: every seat as caller × each partner a call can give it (the cards it
  could call to get that partner, ``calls``) and alone.
- Austrian Tarock: every seat as declarer × the games whose outcome does not hang on a
  talon choice — ``solorufer`` (× each king it may call), ``solodreier``, ``farbensolo``
  and the negative games with their ``_ouvert`` forms (the same game double dummy: the
  cards are open anyway) — with the announcements that apply to each (``volat`` and the
  ultimos; in a colour game ``volat`` only; none that no hand of the declarer's camp can
  make, its bird or called king lying elsewhere), and the position's own talon game with
  its declarer's discard.  A solo game's talon counts for the other camp (seed 003: "zählt zu
  den Punkten der Gegner"), a called king lying in it for the declarer; the position's
  own contract keeps its side cards as given.

**Par**: the contract the deal is worth under the game's bidding, every seat seeing
every card (docs/rules.md, "Par").  French Tarot and Austrian Tarock: the highest bid some
seat makes; between seats that make it, the first to bid (bidding goes round from the
seat that leads, and only a higher bid outbids one).  Priestertarock: the first seat (from
the one that leads) that makes any contract becomes the caller, and plays alone where that
makes, else calls.  Par leaves sacrifices aside: a taker who fails pays every other seat at
the multiplier of its own, higher, bid, so going down to stop another's contract costs more
than defending it but in rare extremes — par is the best contract made.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable

from .cards import (CAVALIER, EXCUSE, JACK, KING, PETIT, QUEEN, Card, is_trump, suit_card, token,
                    tokens, trump)
from .dealt import TALON_GAMES, Dealt
from .ecart import EcartClass, ecart_classes
from .errors import PositionError, Stopped
from .games import (AT4_COLOUR, AT4_NEGATIVE_TRICKS, AT4_ORDER, AT4_RUFER, AT4_SOLO, AT4_ULTIMO,
                    AUSTRIAN, FRENCH, PRIESTERTAROCK, game_of, rules_for)
from .position import Position, parse_position

__all__ = ["TableCell", "TableSpec", "Missing", "table_spec", "contracts_of", "CellResult",
           "cell_json", "table_json", "played_in", "AT4_ORDER", "rank_of"]

#: at4 games asked of every seat (the solo games, then the negative ones); the
#: announcements each may add
AT4_NEGATIVE = tuple(AT4_NEGATIVE_TRICKS)
ULTIMOS = ("pagat_ultimo", "uhu_ultimo", "kakadu_ultimo", "marabu_ultimo")
KINGS = tuple(suit_card(s, KING) for s in range(4))


def objectives_of(bid: str) -> tuple[str, ...]:
    """The announcements the table asks with an at4 game: none in a negative game,
    ``volat`` only in a colour game (seed 003, "Ansagen"), else ``volat`` and the
    ultimos, and ``koenig_ultimo`` with a called king."""
    if bid in AT4_NEGATIVE_TRICKS:
        return ()
    if bid in AT4_COLOUR:
        return ("volat",)
    return ("volat",) + ULTIMOS + (("koenig_ultimo",) if bid in AT4_RUFER else ())


def contracts_of(game: str) -> tuple[str, ...]:
    """The contracts a game's table may be asked for (``--contract``)."""
    return game_of(game).table_contracts


@dataclass
class TableCell:
    """One cell: a seat and a contract, and the position(s) that ask it.

    A cell with ``ecart`` "searched" has no one position but ``classes``, the écarts to
    try (:func:`atout.ecart.ecart_classes`), and ``with_ecart(ecart)`` builds the position
    of one of them; every other cell has its ``position``."""

    seat: int
    contract: str
    called: Card | None = None
    partner: int | None = None
    objective: str = "contract"
    calls: tuple[Card, ...] = ()
    ecart: str | None = None                     # "given" | "searched" (fr garde)
    position: Position | None = None
    classes: list[EcartClass] = field(default_factory=list)
    with_ecart: Callable[[tuple[Card, ...]], Position] | None = None
    given_ecart: tuple[Card, ...] = ()
    #: a searched écart's classes were counted (False: the time ran out first, or a
    #: check that counts none, :func:`table_spec`'s ``count_ecarts``)
    counted: bool = True

    def key(self) -> dict:
        """The cell's name in the JSON: seat, contract and what sets it apart."""
        out: dict[str, Any] = {"seat": self.seat, "contract": self.contract}
        if self.called is not None:
            out["called"] = token(self.called)
        if self.contract != "alone" and (self.called is not None or self.calls):
            out["partner"] = self.partner
        if self.objective != "contract":
            out["objective"] = self.objective
        if self.calls:
            out["calls"] = tokens(self.calls)
        if self.ecart is not None:
            out["ecart"] = self.ecart
        return out


@dataclass(frozen=True)
class Missing:
    """Cells that cannot be asked: which contract, which seats, the field and why."""

    contract: str
    seats: tuple[int, ...]
    field: str
    reason: str

    def to_json(self) -> dict:
        return {"contract": self.contract, "seats": list(self.seats), "field": self.field,
                "reason": self.reason}


@dataclass
class TableSpec:
    """What a deal's table asks: its cells (in the table's order), what it cannot, and
    the contracts of the game's table left out by ``--contract`` (``unasked``: par is
    not proven where one of them could beat it)."""

    dealt: Dealt
    cells: list[TableCell]
    missing: list[Missing]
    unasked: tuple[str, ...] = ()


def _check_contracts(game: str, contracts: Iterable[str] | None, played_bid: str | None) -> set | None:
    if contracts is None:
        return None
    asked = set()
    known = contracts_of(game)
    for name in contracts:
        if name not in known:
            raise PositionError("contracts", f"{game} has no contract {name!r} in its table "
                                             f"(its contracts: {', '.join(known)})")
        if name in TALON_GAMES and name != played_bid:
            raise PositionError("contracts", f"{name} is a talon game: the table has it only "
                                             "for a position that plays it, with its discard")
        asked.add("garde" if name == "prise" else name)
    return asked


class _Counting:
    """How the écarts of a table's searched gardes are counted: ``stop`` (Ctrl-C, a
    request gone) raises :class:`~atout.errors.Stopped`; past ``out_of_time`` (the time
    limit) or without ``count`` (a request's check) a garde's écarts are left uncounted."""

    def __init__(self, stop, out_of_time, count: bool):
        self.stop, self.out_of_time, self.count = stop, out_of_time, count

    def asked(self) -> bool:
        return bool((self.stop is not None and self.stop())
                    or (self.out_of_time is not None and self.out_of_time()))


def table_spec(d: Dealt, contracts: Iterable[str] | None = None,
               played: Iterable[Card] = (), stop: Callable[[], bool] | None = None,
               out_of_time: Callable[[], bool] | None = None,
               count_ecarts: bool = True) -> TableSpec:
    """The cells of the table of ``d`` (all its game's contracts, or those named in
    ``contracts``).  ``played``: cards taken as played in every cell, the same in each —
    for testing the table on deals cut short (a cell where they are not legal is
    missing).  ``stop``: asked now and then while the écarts are counted (a whole deal's
    take up to a second): raises :class:`~atout.errors.Stopped` when it says yes;
    ``out_of_time``: asked as well, and when it says yes the gardes whose écarts are not
    counted yet are left so (their cells open: ``counted`` False).  ``count_ecarts=False``
    counts none: a request's check (the contracts and the deal) that costs milliseconds.
    Raises PositionError naming ``contracts`` for a contract the game's table
    does not have, or the field that would give the deal when no cell can be asked."""
    played = tuple(played)
    game = d.game
    played_bid = d.played.contract.bid if d.played is not None else None   # (a deal as dealt: none)
    asked = _check_contracts(game, contracts, played_bid)
    builder = _CELLS[game_of(game).family]
    cells: list[TableCell] = []
    missing: list[Missing] = []
    builder(d, asked, played, cells, missing, _Counting(stop, out_of_time, count_ecarts))
    if not cells:
        if missing:
            raise PositionError(missing[0].field, missing[0].reason)
        raise PositionError("contracts", "no cell of the table to ask")
    unasked = ()
    if asked is not None:
        every = {"garde" if c == "prise" else c for c in contracts_of(game)}
        # a talon game is asked only of a position that plays it
        every = (every - set(TALON_GAMES)) | ({played_bid} & set(TALON_GAMES))
        unasked = tuple(sorted(every - asked))
    return TableSpec(d, cells, missing, unasked)


def _position(d: Dealt, hands, contract: dict, played: tuple, first: int | None = None) -> Position:
    return parse_position({"game": d.game, "hands": [tokens(h) for h in hands],
                           "first": d.first if first is None else first,
                           "played": tokens(played), "contract": contract})


def _add(cells: list, missing: list, cell: TableCell, build: Callable[[], Position]) -> None:
    """A cell with its position, or its seat among the missing where the rules refuse it
    (a card played that the cell's contract makes illegal, a deal void as dealt)."""
    try:
        cell.position = build()
    except PositionError as e:
        missing.append(Missing(cell.contract, (cell.seat,), e.field, e.reason))
        return
    cells.append(cell)


# -- French Tarot ----------------------------------------------------------------------------

def _fr5_calls(hand: Iterable[Card]) -> list[Card]:
    """The cards a fr5 taker may call with this hand: the kings, a queen when it holds the
    four kings, a cavalier when it also holds the four queens, a jack with all twelve."""
    held = set(hand)
    calls = list(KINGS)
    for have, then in ((KING, QUEEN), (QUEEN, CAVALIER), (CAVALIER, JACK)):
        if not all(suit_card(s, have) in held for s in range(4)):
            break
        calls += [suit_card(s, then) for s in range(4)]
    return calls


def _french(d: Dealt, asked, played: tuple, cells: list, missing: list, stop) -> None:
    con = d.played.contract if d.played is not None else None     # (a deal as dealt: none)
    facts = game_of(d.game)
    seats = facts.seats
    given_taker = con.declarer if con is not None and con.bid in ("prise", "garde") else None
    columns = [c for c in facts.columns if asked is None or c in asked]
    if d.hands is None:
        # only the contract played can be asked, with its own écart
        for col in columns:
            # (fr5: the taker's other calls need the dog too)
            others = tuple(s for s in range(seats) if not (col == "garde" and s == given_taker
                                                           and not facts.taker_calls))
            if others:
                missing.append(Missing(col, others, d.missing.field, d.missing.reason))
        if "garde" in columns:
            _given_garde(d, played, cells, missing)
        return
    dog = d.outside
    hands = d.hands
    for seat in range(seats):
        calls = _fr5_calls(hands[seat]) if facts.taker_calls else [None]
        if seat == given_taker and facts.taker_calls and con.called not in calls:
            calls.append(con.called)     # (a call its hand allowed only with the dog)
        for called in calls:
            holder = None
            if called is not None:
                holder = next((s for s, h in enumerate(hands) if called in h), None)
            partner = holder if holder not in (None, seat) else None
            base = {"taker": seat}
            if called is not None:
                base["called"] = token(called)
            for col in columns:
                cell = TableCell(seat, col, called, partner)
                if col != "garde":
                    contract = dict(base, bid=col, dog=tokens(dog))
                    _add(cells, missing, cell,
                         lambda contract=contract: _position(d, hands, contract, played))
                elif seat == given_taker and (not facts.taker_calls or called == con.called):
                    # its own écart, and beside it the best: could another have made it?
                    _given_garde(d, played, cells, missing)
                    _searched_garde(d, cell, base, played, cells, missing, stop)
                else:
                    _searched_garde(d, cell, base, played, cells, missing, stop)


def _given_garde(d: Dealt, played: tuple, cells: list, missing: list) -> None:
    """The taker's garde with the écart it made (the position's own hands)."""
    pos = d.played
    con = pos.contract
    contract = {"taker": con.declarer, "bid": "garde", "dog": tokens(con.outside[0])}
    if con.called is not None:
        contract["called"] = token(con.called)
    cell = TableCell(con.declarer, "garde", con.called, con.partner, ecart="given",
                     given_ecart=tuple(con.outside[0]))
    _add(cells, missing, cell, lambda: _position(d, pos.hands, contract, played))


def _searched_garde(d: Dealt, cell: TableCell, base: dict, played: tuple, cells: list,
                    missing: list, counting: _Counting) -> None:
    """A garde with the best écart: one position per class of écarts (or the cell with
    none, its écarts not counted: see :func:`table_spec`)."""
    seat, hands, dog = cell.seat, d.hands, d.outside
    rules = rules_for(d.game)
    mine = set(hands[seat]) | set(dog)
    keep = [c for c in played if c in mine]       # the taker's cards played stay in hand
    fixed = [cell.called] if cell.called is not None else []
    if cell.called is not None and cell.called in dog:
        cell.partner = None          # the taker takes the called card with the dog
    if not counting.count or (counting.out_of_time is not None and counting.out_of_time()):
        classes = None
    else:
        try:
            classes = ecart_classes(rules, [list(h) for h in hands], seat, dog, keep=keep,
                                    fixed=fixed, stop=counting.asked)
        except Stopped:
            if counting.stop is not None and counting.stop():
                raise
            classes = None                        # the time limit came first
    if classes is None:
        cell.ecart, cell.counted = "searched", False
        cells.append(cell)
        return

    def after(ecart) -> list[list[Card]]:
        gone = set(ecart)
        out = [list(h) for h in hands]
        out[seat] = [c for c in list(hands[seat]) + list(dog) if c not in gone]
        return out

    if not classes:
        missing.append(Missing("garde", (seat,), "played", "no écart keeps the cards the "
                                                             "taker played"))
        return
    first = error = None
    for k in classes:       # (the cards played may rule out an écart: then the next)
        try:
            first = _position(d, after(k.ecart), dict(base, bid="garde", dog=tokens(k.ecart)),
                              played)
            break
        except PositionError as e:
            error = error or e
            if not played:
                break
    if first is None:
        missing.append(Missing("garde", (seat,), error.field, error.reason))
        return

    def with_ecart(ecart: tuple[Card, ...]) -> Position:
        """The position of one écart: the first's, checked in full, with another écart
        (the écart itself needs no check: ecart_classes makes only legal ones)."""
        if ecart == tuple(first.contract.outside[0]):
            return first
        hands_after = after(ecart)
        if _petit_sec(hands_after[seat]):
            raise PositionError(f"hands[{seat}]", "petit sec: the only trump is T1")
        con = first.contract
        contract = replace(con, outside=(tuple(ecart), ()),
                           raw=dict(con.raw, dog=tokens(ecart)))
        pos = Position(d.game, hands_after, first.first, contract, None)
        for i, c in enumerate(played):
            try:
                pos.play(c)
            except PositionError as e:
                raise PositionError(f"played[{i}]", e.reason) from None
        return pos

    cell.ecart, cell.classes, cell.with_ecart = "searched", classes, with_ecart
    cells.append(cell)


def _petit_sec(hand: Iterable[Card]) -> bool:
    return [c for c in hand if is_trump(c) or c == EXCUSE] == [PETIT]


# -- Priestertarock --------------------------------------------------------------------------

def _priest(d: Dealt, asked, played: tuple, cells: list, missing: list, counting) -> None:
    hands, opened, dealer = d.hands, d.outside, d.dealer
    base = {"dealer": dealer, "open": tokens(opened)}
    for caller in range(5):
        own = tuple(sorted(hands[caller])) + (tuple(sorted(opened)) if caller == dealer else ())
        if asked is None or "call" in asked:
            for partner in range(5):
                if partner == caller:
                    continue
                calls = tuple(sorted(hands[partner]))
                if partner == dealer:
                    calls += tuple(sorted(opened))
                contract = dict(base, caller=caller, called=token(calls[0]))
                cell = TableCell(caller, "call", partner=partner, calls=calls)
                _add(cells, missing, cell,
                     lambda contract=contract: _position(d, hands, contract, played))
        if asked is None or "alone" in asked:
            contract = dict(base, caller=caller, alone=True)
            cell = TableCell(caller, "alone", calls=own)
            _add(cells, missing, cell,
                 lambda contract=contract: _position(d, hands, contract, played))


# -- Austrian Tarock -------------------------------------------------------------------------

def _at4(d: Dealt, asked, played: tuple, cells: list, missing: list, counting) -> None:
    hands, talon = d.hands, d.outside
    con = d.played.contract if d.played is not None else None     # (a deal as dealt: none)
    own_bid = con.bid if con is not None and con.bid != "trischaken" else None
    games = [g for g in AT4_SOLO + AT4_NEGATIVE if asked is None or g in asked]
    for seat in range(4):
        for bid in games:
            for called in (_at4_calls(hands[seat]) if bid in AT4_RUFER else [None]):
                _at4_game(d, seat, bid, called, played, cells, missing)
    if own_bid in TALON_GAMES and (asked is None or own_bid in asked):
        _at4_game(d, con.declarer, own_bid, con.called, played, cells, missing)


def _at4_calls(hand: Iterable[Card]) -> list[Card]:
    """The kings a Rufer may call: one it does not hold, or any when it holds all four."""
    held = set(hand)
    return [k for k in KINGS if k not in held] or list(KINGS)


def _at4_game(d: Dealt, seat: int, bid: str, called: Card | None, played: tuple,
              cells: list, missing: list) -> None:
    """The cells of one at4 game of ``seat``: its own goal and each announcement."""
    hands, talon = d.hands, d.outside
    con = d.played.contract if d.played is not None else None
    holder = None
    if called is not None:
        holder = next((s for s, h in enumerate(hands) if called in h), None)
    partner = holder if holder not in (None, seat) else None
    if con is not None and con.bid == bid and con.declarer == seat and con.called == called:
        side = con.raw["side_cards"]            # the position's own contract, as given
    else:
        other = next(s for s in range(4) if s not in (seat, partner))
        rest = [c for c in talon if c != called]
        side = {str(other): tokens(rest)}
        if called is not None and called in talon:
            side[str(seat)] = [token(called)]   # the called king in the talon: the declarer's
    first = seat if bid in AT4_NEGATIVE_TRICKS else d.first
    camp = [hands[s] for s in (seat, partner) if s is not None]
    for objective in ("contract",) + objectives_of(bid):
        # an ultimo whose bird (König ultimo: whose king) no hand of the camp holds — in
        # the talon, or the other camp's — cannot be made: no cell, no search
        needed = trump(AT4_ULTIMO[objective]) if objective in AT4_ULTIMO else \
            called if objective == "koenig_ultimo" else None
        if needed is not None and not any(needed in h for h in camp):
            continue
        contract = {"bid": bid, "declarer": seat, "side_cards": side, "counting": d.counting,
                    "objective": objective}
        if called is not None:
            contract["called"] = token(called)
        cell = TableCell(seat, bid, called, partner, objective)
        _add(cells, missing, cell,
             lambda contract=contract: _position(d, hands, contract, played, first))


#: each rulebook's cells
_CELLS = {FRENCH: _french, PRIESTERTAROCK: _priest, AUSTRIAN: _at4}


# -- ranking, par and the bid played ----------------------------------------------------------

def rank_of(game: str, contract: str) -> int:
    """How high a contract bids in its game (higher outbids lower)."""
    return game_of(game).ranks.index(contract)


@dataclass
class CellResult:
    """What the search has proven of a cell: ``made`` (None: open), the value's bounds
    [lo, hi] (equal: exact), and for a searched écart the écart that makes it (or the
    best found), the classes refuted so far and their number."""

    made: bool | None = None
    lo: int | None = None
    hi: int | None = None
    ecart: tuple[Card, ...] | None = None
    refuted: int = 0
    classes: int = 0

    def to_json(self) -> dict:
        exact = self.lo is not None and self.lo == self.hi
        out: dict[str, Any] = {"made": self.made, "value": self.lo if exact else None,
                               "bounds": [self.lo, self.hi]}
        if self.ecart is not None:
            out["ecart_cards"] = tokens(self.ecart)
        if self.classes:
            out["ecart_classes"] = self.classes
            out["refuted"] = self.refuted
        return out


def _bidding_order(d: Dealt, seat: int) -> int:
    return (seat - d.first) % game_of(d.game).seats


def _par_key(d: Dealt, cell: TableCell) -> tuple:
    """Bigger is better for par: the bid's rank, then the earlier seat (priest5: the
    earlier seat first, then playing alone)."""
    rank = rank_of(d.game, cell.contract)
    early = -_bidding_order(d, cell.seat)
    return (early, rank) if game_of(d.game).par_by_seat else (rank, early)


def _announced(spec: TableSpec, results: list[CellResult], cell: TableCell) -> list[str]:
    """The at4 objectives ``cell``'s declarer makes with its game (the same seat, game and
    call), in the table's order."""
    return [c.objective for c, r in zip(spec.cells, results)
            if c.objective != "contract" and r.made and c.seat == cell.seat
            and c.contract == cell.contract and c.called == cell.called]


def par(spec: TableSpec, results: list[CellResult]) -> dict:
    """The deal's par (module docstring): ``{"contract", "seat", ..., "made", "value",
    "bounds", "proven"}`` — the best cell proven made; ``{"contract": null, "proven"}``
    when no cell is proven made (everyone passes, where proven).

    Between the cells of one seat and contract (fr5 and at4: each card called; a French
    taker: its own écart and the best), the best is the one whose declarer also makes the
    most announcements (at4: ``announcements``, volat first), then the highest value
    proven, then the best écart.  ``proven``: every cell that would beat it was asked and
    is proven not made, and the other calls of its seat and contract are settled; where
    not, ``open`` lists the cells that could still beat it and ``unasked`` the contracts
    left out of the table (``--contract``) that could."""
    d = spec.dealt
    facts = game_of(d.game)
    ranked = [(cell, r) for cell, r in zip(spec.cells, results) if cell.objective == "contract"]
    made = [(cell, r) for cell, r in ranked if r.made]

    def better(cr) -> tuple:
        cell, r = cr
        said = _announced(spec, results, cell) if facts.objectives else []
        return (_par_key(d, cell), "volat" in said, len(said),
                r.lo if r.lo is not None else float("-inf"), cell.ecart != "given")

    best = max(made, key=better, default=None)
    floor = _par_key(d, best[0]) if best else None

    def beats(cell: TableCell) -> bool:
        if floor is None or _par_key(d, cell) > floor:
            return True
        # another call of the par's seat and contract: not known to be worse while open
        # (its own écart or the best are one game's choices: the same par either way)
        par_cell = best[0]
        return _par_key(d, cell) == floor and (cell.called, cell.partner) != \
            (par_cell.called, par_cell.partner)

    could = [cell for cell, r in ranked if beats(cell) and r.made is not False]
    seats = facts.seats
    unasked = []
    for name in spec.unasked:
        who = range(seats) if name not in TALON_GAMES else [d.played.contract.declarer]
        if any(floor is None or _par_key(d, TableCell(s, name)) > floor for s in who):
            unasked.append(name)
    proven = not spec.missing and not could and not unasked
    out: dict[str, Any]
    if best is None:
        out = {"contract": None}
    else:
        cell, r = best
        out = dict(cell.key())
        out.update({k: v for k, v in cell_json(cell, r).items()
                    if k in ("made", "value", "bounds", "ecart_cards")})
        if facts.objectives:
            out["announcements"] = _announced(spec, results, cell)
    out["proven"] = proven
    if could:
        out["open"] = [c.key() for c in could]
    if unasked:
        out["unasked"] = unasked
    return out


def _french_column(con) -> str:
    return "garde" if con.bid in ("prise", "garde") else con.bid      # (a prise plays as a garde)


#: the contract table's contract a position's contract plays, by rulebook
_TABLE_CONTRACT = {FRENCH: _french_column,
                   PRIESTERTAROCK: lambda con: "alone" if con.partner is None else "call",
                   AUSTRIAN: lambda con: con.bid}


def table_contract(position: Position) -> str:
    """The contract of the table that ``position``'s contract plays: a French prise is its
    taker's garde, a Priestertarock call a ``call`` (or ``alone``), an Austrian game itself."""
    return _TABLE_CONTRACT[position.rules.facts.family](position.contract)


def _same_cell(position: Position, cell: dict) -> bool:
    """Whether ``cell`` (a cell's JSON, or its :meth:`TableCell.key`) asks ``position``'s
    contract, whoever its declarer: the same contract, its own goal (no announcement), and
    the same partner — a Priestertarock call's cell is told apart by its partner (``calls``:
    the cards that give it), every other by the card called."""
    con = position.contract
    name = table_contract(position)
    if cell["contract"] != name or cell.get("objective", "contract") != "contract":
        return False
    if "calls" in cell:
        return name == "alone" or cell.get("partner") == con.partner
    return cell.get("called") == (token(con.called) if con.called is not None else None)


def played_contract(spec: TableSpec, results: list[CellResult]) -> dict | None:
    """The contract played as the table sees it: whether its cell is made, and the contracts
    that outbid it that some seat makes (``higher``, the bidding's missed chances); None
    in Trischaken, and for a deal as dealt (no contract played)."""
    d = spec.dealt
    if d.played is None:
        return None
    con = d.played.contract
    if con.bid == "trischaken":
        return None
    name = table_contract(d.played)
    mine = [(c, r) for c, r in zip(spec.cells, results)
            if c.seat == con.declarer and _same_cell(d.played, c.key())]
    # the taker's own écart where the table has it, not the best one beside it
    here = next((cr for cr in mine if cr[0].ecart == "given"), mine[0] if mine else None)
    out: dict[str, Any] = {"seat": con.declarer, "contract": con.bid}
    if here is None:
        out.update({"made": None, "asked": False})
    else:
        out.update({"made": here[1].made, "bounds": here[1].to_json()["bounds"]})
    rank = rank_of(d.game, name)
    out["higher"] = [c.key() for c, r in zip(spec.cells, results)
                     if c.objective == "contract" and r.made and rank_of(d.game, c.contract) > rank]
    return out


def played_in(table: dict, position: Position) -> dict | None:
    """The verdict a table (its JSON) gives on the contract ``position`` plays — the
    ``played`` object, for a deal of the same board as the table's: its declarer's cell of
    that contract (``made``, ``bounds``, and ``ecart``: whether that cell's écart is the one
    played or the best one) and the cells that outbid it that some seat makes.  None in
    Trischaken, or for a table of another game."""
    con = position.contract
    if con.bid == "trischaken" or table.get("game") != position.game:
        return None
    name = table_contract(position)
    mine = [c for c in table["cells"]
            if c["seat"] == con.declarer and _same_cell(position, c)]
    here = next((c for c in mine if c.get("ecart") == "given"), mine[0] if mine else None)
    out: dict[str, Any] = {"seat": con.declarer, "contract": con.bid}
    if here is None:
        out.update({"made": None, "asked": False})
    else:
        out.update({"made": here["made"], "bounds": here["bounds"]})
        if here.get("ecart"):
            out["ecart"] = here["ecart"]
    rank = rank_of(position.game, name)
    out["higher"] = [{k: c[k] for k in ("seat", "contract", "called", "partner") if k in c}
                     for c in table["cells"] if not c.get("objective") and c["made"]
                     and rank_of(position.game, c["contract"]) > rank]
    return out


def cell_json(cell: TableCell, r: CellResult) -> dict:
    """One cell's JSON (docs/format.md): its name and what is proven of it — the same
    object whether it is streamed as it changes or written in the whole table."""
    obj = cell.key()
    obj.update(r.to_json())
    if cell.ecart == "given":
        obj["ecart_cards"] = tokens(cell.given_ecart)
    return obj


def table_json(spec: TableSpec, results: list[CellResult], ident: Any = None) -> dict:
    """The table as one JSON object (docs/format.md, "A contract table"), without the
    search's own fields (status, seconds, nodes)."""
    d = spec.dealt
    cells = [cell_json(cell, r) for cell, r in zip(spec.cells, results)]
    out: dict[str, Any] = {"id": ident, "game": d.game, "first": d.first}
    if game_of(d.game).countings:
        out["counting"] = d.counting        # (what an Austrian cell's points count in)
    out["cells"] = cells
    if spec.missing:
        out["missing"] = [m.to_json() for m in spec.missing]
    out["par"] = par(spec, results)
    out["played"] = played_contract(spec, results)
    if d.notes:
        out["notes"] = list(d.notes)
    return out
