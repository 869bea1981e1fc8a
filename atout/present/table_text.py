"""A contract table in words (``atout table --text``) and the bidding verdict sentence
that ``atout report`` prints beside a board's play.

The grid has a row per declarer (and, where a cell is asked per card called or per
game, per call or game) and a column per contract (Austrian Tarock: per announcement);
a cell reads ``made``, ``down`` or ``open`` (not proven within the time), with the value
where it is exact and the proven range where the question is open.
"""

from __future__ import annotations

from atout.printable import printable
from .words import card_text

__all__ = ["describe_table", "grid", "cell_text", "contract_name", "verdict_text", "par_text"]

_GAMES = {"fr3": "French Tarot (3)", "fr4": "French Tarot (4)", "fr5": "French Tarot (5)",
          "priest5": "Priestertarock", "at4": "Austrian Tarock"}
_NAMES = {"garde": "prise/garde", "garde_sans": "garde sans", "garde_contre": "garde contre",
          "call": "call", "alone": "alone", "contract": "game"}
_DECLARER = {"priest5": "caller", "at4": "declarer"}


def contract_name(name: str | None, column: bool = True) -> str:
    """A contract or announcement as a player says it: ``garde sans``, ``pagat ultimo``;
    the French garde's column is ``prise/garde`` (``column=False``: ``garde``)."""
    if name is None:
        return "pass"
    if name == "garde" and not column:
        return "garde"
    return _NAMES.get(name, name.replace("_", " "))


def cell_text(cell: dict, values: bool = True) -> str:
    """``made``, ``down`` or ``open``, with the exact value or the open range."""
    made, value, bounds = cell.get("made"), cell.get("value"), cell.get("bounds") or [None, None]
    word = {True: "made", False: "down", None: "open"}[made]
    binary = bounds[0] is not None and bounds[1] is not None and 0 <= bounds[0] <= bounds[1] <= 1
    if value is not None and values and not binary:     # (a goal's 0 or 1 says no more)
        return f"{word} {value}"
    if made is None and bounds[0] is not None and bounds[1] is not None:
        return f"open {bounds[0]}..{bounds[1]}"
    return word


def _row_and_column(game: str, cell: dict, ascii: bool) -> tuple[str, str]:
    seat = f"seat {cell['seat']}"
    if game == "priest5":
        col = "alone" if cell["contract"] == "alone" else f"with seat {cell['partner']}"
        return seat, col
    called = ""
    if cell.get("called"):
        partner = cell.get("partner")
        called = (f" calling {card_text(cell['called'], ascii)} "
                  f"({'alone' if partner is None else f'partner {partner}'})")
    if game == "at4":
        return f"{seat} {cell['contract']}{called}", contract_name(cell.get("objective",
                                                                            "contract"))
    return seat + called, contract_name(cell["contract"])


def grid(table: dict, ascii: bool = False) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The table laid out as ``--text`` and ``atout report`` show it: (the column names,
    {row name: {column: the cell in words}})."""
    rows: dict[str, dict[str, str]] = {}
    columns: list[str] = []
    for cell in table["cells"]:
        row, col = _row_and_column(table["game"], cell, ascii)
        if col not in columns:
            columns.append(col)
        rows.setdefault(row, {})[col] = cell_text(cell)
    return columns, rows


def describe_table(table: dict, ascii: bool = False) -> str:
    """A table (the JSON of ``atout table``) in words: a heading, the grid, the par, the
    contract played and what could not be asked."""
    ident = table.get("id")
    label = "(no id)" if ident is None else printable(str(ident), ascii)
    if table.get("status") == "error":
        return f"{label}: refused: {table.get('field')}: {table.get('reason')}"
    game = table["game"]
    lines = [f"{label}: {_GAMES.get(game, game)}, the deal as dealt (seat {table['first']} "
             f"bids and leads first)"]
    columns, rows = grid(table, ascii)
    width = max(len(r) for r in rows) if rows else 4
    widths = {c: max([len(c)] + [len(r.get(c, "")) for r in rows.values()]) for c in columns}
    lines.append(" " * width + "  " + "  ".join(c.ljust(widths[c]) for c in columns))
    for row, values in rows.items():
        lines.append(row.ljust(width) + "  " + "  ".join(values.get(c, "-").ljust(widths[c])
                                                        for c in columns).rstrip())
    for cell in table["cells"]:
        if cell.get("ecart") == "searched":
            lines.append(_ecart_line(cell, ascii))
    lines.append(par_text(table, ascii))
    played = verdict_text(table, ascii)
    if played:
        lines.append(f"the contract played: {played}")
    for gap in table.get("missing", []):
        seats = ", ".join(str(s) for s in gap["seats"])
        lines.append(f"not asked: {contract_name(gap['contract'])} of seat{'s' if len(gap['seats']) > 1 else ''} "
                     f"{seats}: {gap['field']}: {gap['reason']}")
    for note in table.get("notes", []):
        lines.append(f"note: {note}")
    if table.get("status") == "limit":
        why = {"time": "the time limit", "cancel": "Ctrl-C"}.get(table.get("stopped_by"), "a limit")
        lines.append(f"stopped by {why} after {table.get('seconds')} s: the open cells are "
                     "not proven either way")
    return "\n".join(lines)


def _ecart_line(cell: dict, ascii: bool) -> str:
    who = f"seat {cell['seat']}'s garde"
    if cell.get("called"):
        who += f" calling {card_text(cell['called'], ascii)}"
    if cell.get("made") and cell.get("ecart_cards"):
        return f"{who}: made with the écart {' '.join(card_text(c, ascii) for c in cell['ecart_cards'])}"
    total, refuted = cell.get("ecart_classes", 0), cell.get("refuted", 0)
    if cell.get("made") is False:
        return f"{who}: down whatever the écart ({total} different écarts refuted)"
    return f"{who}: open; {refuted} of its {total} different écarts refuted"


def _who(cell: dict, ascii: bool) -> str:
    text = f"seat {cell['seat']}"
    if cell.get("called"):
        text += f" calling {card_text(cell['called'], ascii)}"
    if cell.get("contract") == "call" and cell.get("partner") is not None:
        text += f" with seat {cell['partner']}"
    return text


def par_text(table: dict, ascii: bool = False) -> str:
    """The par line: ``par: garde sans by seat 1 (proven)``."""
    par = table.get("par") or {}
    proof = "proven" if par.get("proven") else "not proven: some cell that would beat it is open"
    if par.get("contract") is None:
        return f"par: everyone passes, no contract is made ({proof})"
    text = f"par: {contract_name(par['contract'], False)} by {_who(par, ascii)}"
    if par.get("value") is not None:
        text += f", value {par['value']}"
    if par.get("announcements"):
        text += ", with " + ", ".join(contract_name(a) for a in par["announcements"])
    return text + f" ({proof})"


def verdict_text(table: dict, ascii: bool = False) -> str | None:
    """The bidding verdict for the contract played: ``garde by seat 1: made with best
    play; seat 3 could also have made a garde sans``.  None when the table has none
    (Trischaken)."""
    played = table.get("played")
    if not played:
        return None
    name = contract_name(played["contract"], False)
    made = {True: "made with best play", False: "down with best play",
            None: "not proven either way"}[played.get("made")]
    if played.get("asked") is False:
        made = "not asked"
    if played.get("ecart") == "searched":
        made += " (its best écart; the table has not the one played)"
    text = f"{name} by seat {played['seat']}: {made}"
    higher = played.get("higher") or []
    if higher:
        could = [f"{_who(c, ascii)} a {contract_name(c['contract'], False)}" for c in higher]
        if len(could) > 4:
            could = could[:4] + [f"{len(higher) - 4} more"]
        text += "; could also have made: " + ", ".join(could)
    return text
