"""The contract tables of a session's deals on ``atout report``'s page (``--tables``).

``atout batch --table`` writes one line per deal: its contract table with the deal
(``position``).  Each board of the page then shows its table — who could have made what,
and the par — under its hands, and each table's play what the table says of the
contract played there ("garde by seat 1: made with best play; could also have made: seat 3
a garde sans").  A deal's own table is found by its id, else a table of the same deal as
dealt (the same hands and cards outside them: a duplicate board's other tables).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from atout.contract_table import contracts_of, played_in
from atout.dealt import dealt
from atout.errors import PositionError
from atout.games import GAME
from atout.jsonl import MAX_LINE_BYTES, decode_json, result_position, split_lines
from atout.position import Position
from atout.printable import printable
from atout.present.table_text import contract_name, grid, legend, par_text, played_text

__all__ = ["Tables", "read_tables", "board_table", "deal_played"]

#: the contracts a cell of each game's table may name ("garde" stands for the prise)
_CONTRACTS = {game: set(contracts_of(game)) for game in GAME}


@dataclass
class Tables:
    """The tables read, by the deal's id and by the deal as dealt; the lines refused."""

    by_id: dict = field(default_factory=dict)
    by_deal: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def of(self, position: Position) -> dict | None:
        """The table of ``position``'s deal: its own (by id), else one of the same deal."""
        if position.id is not None and position.id in self.by_id:
            table, pos = self.by_id[position.id]
            if _deal_key(pos) == _deal_key(position):
                return table
        return self.by_deal.get(_deal_key(position))


def _deal_key(position: Position):
    d = dealt(position)
    if d.hands is None:
        return None
    return (position.game, tuple(tuple(sorted(h)) for h in d.hands), tuple(sorted(d.outside)))


# -- a table line checked: every field the page reads, of the type it reads ----------------

def _kind(value, kinds, fld: str, reason: str, nullable: bool = False):
    if value is None and nullable:
        return None
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        raise PositionError(fld, reason)
    return value


def _whole(value, fld: str, nullable: bool = False, low: int | None = None) -> int | None:
    _kind(value, (int,), fld, "must be a whole number" + (" or null" if nullable else ""),
          nullable)
    if value is not None and low is not None and value < low:
        raise PositionError(fld, f"must be at least {low}")
    return value


def _texts(value, fld: str) -> list:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise PositionError(fld, "must be a list of strings")
    return value


def _bounds(value, fld: str) -> None:
    if not (isinstance(value, list) and len(value) == 2
            and all(type(x) is int for x in value) and value[0] <= value[1]):
        raise PositionError(fld, "must be [low, high], whole numbers")


def _cell_name(c, fld: str, game: str, seats: int, result: bool) -> None:
    """A cell (or par, or a cell named in par or ``played``) as the page reads it."""
    if not isinstance(c, dict):
        raise PositionError(fld, "must be an object")
    _whole(c.get("seat"), fld + ".seat")
    if not 0 <= c["seat"] < seats:
        raise PositionError(fld + ".seat", f"must be a seat of {game} (0 to {seats - 1})")
    contract = c.get("contract")
    if not isinstance(contract, str) or contract not in _CONTRACTS[game]:
        raise PositionError(fld + ".contract", f"must be a contract of {game}'s table")
    for key in ("called", "objective", "ecart"):
        _kind(c.get(key), (str,), f"{fld}.{key}", "must be a string or null", True)
    if c.get("partner") is not None:
        _whole(c["partner"], fld + ".partner", True, 0)
    if "calls" in c:
        _texts(c["calls"], fld + ".calls")
    if not result:
        return
    if "made" not in c or c["made"] not in (True, False, None):
        raise PositionError(fld + ".made", "must be true, false or null")
    _whole(c.get("value"), fld + ".value", nullable=True)
    _bounds(c.get("bounds"), fld + ".bounds")
    if "ecart_cards" in c:
        _texts(c["ecart_cards"], fld + ".ecart_cards")
    for key in ("ecart_classes", "refuted"):
        if key in c:
            _whole(c[key], f"{fld}.{key}", low=0)


def _check_table(obj: dict, pos: Position) -> None:
    """The fields of a table line the page reads, of the types it reads them as (a line
    the batch never writes is a problem, not a traceback)."""
    game = obj.get("game")
    if game != pos.game:
        raise PositionError("game", f"must be the game of its deal ({pos.game})")
    seats = pos.seats
    _whole(obj.get("first"), "first", low=0)
    if obj["first"] >= seats:
        raise PositionError("first", f"must be a seat of {game}")
    for i, c in enumerate(obj["cells"]):
        _cell_name(c, f"cells[{i}]", game, seats, True)
    par = obj.get("par")
    if not isinstance(par, dict):
        raise PositionError("par", "must be an object")
    if not isinstance(par.get("proven"), bool):
        raise PositionError("par.proven", "must be true or false")
    if par.get("contract") is not None:
        _cell_name(par, "par", game, seats, True)
    for key in ("announcements", "unasked"):
        if key in par:
            _texts(par[key], f"par.{key}")
    for i, c in enumerate(_kind(par.get("open", []), (list,), "par.open", "must be a list")):
        _cell_name(c, f"par.open[{i}]", game, seats, False)
    played = obj.get("played")
    if played is not None:
        if not isinstance(played, dict):
            raise PositionError("played", "must be an object or null")
        _whole(played.get("seat"), "played.seat", low=0)
        _kind(played.get("contract"), (str,), "played.contract", "must be a string")
        if played.get("made") not in (True, False, None):
            raise PositionError("played.made", "must be true, false or null")
        for i, c in enumerate(_kind(played.get("higher"), (list,), "played.higher",
                                    "must be a list")):
            _cell_name(c, f"played.higher[{i}]", game, seats, False)
    for i, m in enumerate(_kind(obj.get("missing", []), (list,), "missing", "must be a list")):
        if not (isinstance(m, dict) and isinstance(m.get("contract"), str)
                and isinstance(m.get("field"), str) and isinstance(m.get("reason"), str)
                and isinstance(m.get("seats"), list)
                and all(type(x) is int for x in m["seats"])):
            raise PositionError(f"missing[{i}]", "must be {contract, seats, field, reason}")
    _texts(obj.get("notes", []), "notes")
    _kind(obj.get("stopped_by"), (str,), "stopped_by", "must be a string or null", True)
    _kind(obj.get("seconds"), (int, float), "seconds", "must be a number or null", True)


def read_tables(stream: BinaryIO) -> Tables:
    """The tables of a binary stream of ``atout batch --table`` result lines; a line that
    is none is a problem (``line N: field: reason``), and a deal the batch refused is
    skipped."""
    tables = Tables()
    for number, raw, size in split_lines(stream):
        try:
            if raw is None:
                raise PositionError("json", f"line of {size} bytes is longer than {MAX_LINE_BYTES}")
            obj = decode_json(raw)
            if not isinstance(obj, dict):
                raise PositionError("json", "not an object")
            if obj.get("status") == "error":
                continue
            if obj.get("status") not in ("ok", "limit") or not isinstance(obj.get("cells"), list):
                raise PositionError("status", "not a contract table of atout batch --table")
            pos = result_position(obj, "is missing: the page matches a table to its deal by it")
            _check_table(obj, pos)
            if pos.id is not None:
                tables.by_id.setdefault(pos.id, (obj, pos))
            key = _deal_key(pos)
            if key is not None:
                tables.by_deal.setdefault(key, obj)
        except PositionError as e:
            tables.problems.append(f"line {number}: {printable(e.field)}: {printable(e.reason)}")
        except (KeyError, TypeError, ValueError, RecursionError) as e:
            tables.problems.append(f"line {number}: table: {printable(str(e))}")
    return tables


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _as_read(table: dict, position: Position) -> dict:
    """The table with what the page needs to read it: an Austrian table written before
    tables said their counting counts in the deal's."""
    if position.rules.facts.countings and "counting" not in table:
        return dict(table, counting=position.contract.counting)
    return table


def board_table(position: Position, tables: Tables | None, names=None) -> str:
    """The HTML of a board's contract table and par (empty when none was given);
    ``names``: its players by seat, where one table played it (else seats by number)."""
    table = tables.of(position) if tables is not None else None
    if table is None:
        return ""
    table = _as_read(table, position)
    columns, rows = grid(table, names=names)
    head = "".join(f"<th>{_e(c)}</th>" for c in columns)
    body = []
    for row, cells in rows.items():
        tds = []
        for c in columns:
            text = cells.get(c, "–")
            kind = text.split(" ")[0].rstrip(",") if text != "–" else ""
            cls = {"made": "made", "down": "down", "open": "open"}.get(kind, "")
            tds.append(f'<td class="verdict {cls}">{_e(text)}</td>')
        body.append(f"<tr><th>{_e(row)}</th>{''.join(tds)}</tr>")
    note = ""
    if table.get("status") == "limit":
        open_ = sum(1 for c in table["cells"] if c["made"] is None)
        note = (f'<p class="note">{open_} of {len(table["cells"])} cells not proven within '
                f'the time (open: their range proven).</p>')
    missing = "".join(f'<p class="note">Not asked: {_e(contract_name(m["contract"]))} of seats '
                      f'{_e(", ".join(map(str, m["seats"])))}: {_e(m["field"])}: '
                      f'{_e(m["reason"])}</p>' for m in table.get("missing", []))
    par = par_text(table, names=names)
    return ('<details class="contract-table" open><summary>Who could have made what '
            '(double dummy, the deal as dealt)</summary>'
            f'<div class="scroll"><table class="ctable" data-game="{_e(table["game"])}">'
            f'<thead><tr><th></th>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
            f'<p class="legend">{_e(legend(table)[0].upper() + legend(table)[1:])}.</p>'
            f'<p class="par">{_e(par[0].upper() + par[1:])}</p>'
            f"{note}{missing}</details>")


def deal_played(position: Position, tables: Tables | None, names=None) -> str:
    """The HTML of what the table says of the contract played at one table (empty when no
    table of its deal was given, or in Trischaken); ``names``: that table's players."""
    table = tables.of(position) if tables is not None else None
    if table is None:
        return ""
    played = played_in(table, position)
    if played is None:
        return ""
    return f'<p class="bidding">Bidding: {_e(played_text({"played": played}, names=names))}</p>'
