"""The contract tables of a session's deals on ``atout report``'s page (``--tables``).

``atout batch --table`` writes one line per deal: its contract table with the deal
(``position``).  Each board of the page then shows its table — who could have made what,
and the par — under its hands, and each table's play the bidding verdict for the
contract played there ("garde by seat 1: made with best play; could also have made: seat 3
a garde sans").  A deal's own table is found by its id, else a table of the same deal as
dealt (the same hands and cards outside them: a duplicate board's other tables).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from atout.contract_table import verdict_in
from atout.dealt import dealt
from atout.errors import PositionError
from atout.jsonl import MAX_LINE_BYTES, decode_json, result_position, split_lines
from atout.position import Position
from atout.printable import printable
from atout.present.table_text import contract_name, grid, par_text, verdict_text

__all__ = ["Tables", "read_tables", "board_table", "deal_verdict"]


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


def board_table(position: Position, tables: Tables | None) -> str:
    """The HTML of a board's contract table and par (empty when none was given)."""
    table = tables.of(position) if tables is not None else None
    if table is None:
        return ""
    columns, rows = grid(table)
    head = "".join(f"<th>{_e(c)}</th>" for c in columns)
    body = []
    for row, cells in rows.items():
        tds = []
        for c in columns:
            text = cells.get(c, "–")
            kind = text.split(" ")[0] if text != "–" else ""
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
    return ('<details class="contract-table" open><summary>Who could have made what '
            '(double dummy, the deal as dealt)</summary>'
            f'<div class="scroll"><table class="ctable" data-game="{_e(table["game"])}">'
            f'<thead><tr><th></th>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
            f'<p class="par">{_e(par_text(table)[0].upper() + par_text(table)[1:])}</p>'
            f"{note}{missing}</details>")


def deal_verdict(position: Position, tables: Tables | None) -> str:
    """The HTML of the bidding verdict for the contract played at one table (empty when no
    table of its deal was given, or in Trischaken)."""
    table = tables.of(position) if tables is not None else None
    if table is None:
        return ""
    played = verdict_in(table, position)
    if played is None:
        return ""
    return f'<p class="bidding">Bidding: {_e(verdict_text({"played": played}))}</p>'
