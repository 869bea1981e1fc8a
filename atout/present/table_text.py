"""A contract table in words (``atout table --text``) and the sentence on the contract played
that ``atout report`` prints beside a board's play.

The grid has a row per declarer (and, where a cell is asked per card called or per
game, per call or game) and a column per contract (Austrian Tarock: per announcement;
Priestertarock: per partner, in seat order, then alone); a cell reads ``made``, ``down``
or ``open`` (not proven within the time), with the value where it is exact and the
proven range where the question is open, and ``–`` where the table has no such cell.
A legend says what the numbers count.  Contracts are named as players write them, the
viewer's header's way (:func:`atout.present.words.contract_words`).
"""

from __future__ import annotations

from atout.cards import card, is_trump, rank, suit
from atout.games import AUSTRIAN, FRENCH, GAME, PRIESTERTAROCK
from atout.printable import printable
from .words import (WORDS, card_text, contract_column, contract_words, plain, standard_points,
                    words_of)

__all__ = ["describe_table", "grid", "cell_text", "contract_name", "played_text", "par_text",
           "legend", "value_text", "seat_name"]

#: how many cells a sentence names before "and N more"
NAMED = 4


def contract_name(name: str | None, column: bool = True, ascii: bool = False) -> str:
    """A contract or announcement as a player writes it: ``Garde sans``, ``Pagat ultimo``,
    ``König ultimo``; the French garde's column is ``Prise/garde`` (``column=False``:
    ``Garde``)."""
    if column or name is None:
        return contract_column(name, ascii)
    return contract_words(name, ascii)


def seat_name(seat: int, names=None) -> str:
    """A seat as the page names it: its player where ``names`` gives one, else "seat N"."""
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"seat {seat}"


def value_text(value: int, table: dict, ascii: bool = False) -> str:
    """A cell's value as the rest of the project writes it: an Austrian count in thirds
    (standard counting) as ``55⅔``, every other value as it is."""
    if table.get("counting") == "standard":          # (Austrian Tarock's, in thirds)
        return standard_points(value, ascii)
    return str(value)


def _binary(bounds) -> bool:
    return bounds[0] is not None and bounds[1] is not None and 0 <= bounds[0] <= bounds[1] <= 1


def cell_text(cell: dict, values: bool = True, table: dict | None = None,
              ascii: bool = False) -> str:
    """``made``, ``down`` or ``open``, with the exact value or the open range."""
    table = table or {}
    made, value, bounds = cell.get("made"), cell.get("value"), cell.get("bounds") or [None, None]
    word = {True: "made", False: "down", None: "open"}[made]
    binary = _binary(bounds) or cell.get("objective")     # (a goal's 0 or 1 says no more)
    if value is not None and values and not binary:
        return f"{word} {value_text(value, table, ascii)}"
    if made is None and bounds[0] is not None and bounds[1] is not None and not binary:
        return (f"{word} {value_text(bounds[0], table, ascii)}.."
                f"{value_text(bounds[1], table, ascii)}")
    return word


def legend(table: dict, ascii: bool = False) -> str:
    """What a table's numbers count, in one sentence (the ranges "open a..b" too)."""
    what = words_of(table["game"]).table_value[table.get("counting") or "seed"]
    return plain(f"numbers: {what}; open a..b: not proven yet, the value lies from a to b; "
                 "–: no such cell", ascii)


def _call_card(calls: list) -> str | None:
    """The card a caller would call to get a partner (any of ``calls`` gives it): a king,
    else the highest suit card, else the highest tarock."""
    if not calls:
        return None
    cs = [card(t) for t in calls]
    suits = [c for c in cs if not is_trump(c) and c < 56]
    if suits:
        return max(suits, key=lambda c: (rank(c), -suit(c)))
    return max(cs)


def _called(cell: dict, ascii: bool, names) -> str:
    if not cell.get("called"):
        return ""
    partner = cell.get("partner")
    return (f" calling {card_text(cell['called'], ascii)} "
            f"({'alone' if partner is None else 'partner ' + seat_name(partner, names)})")


class _FrenchLayout:
    """A row per taker (and card called), a column per contract: the best écart's garde,
    the taker's own beside it, the garde sans and contre."""

    def place(self, cell: dict, ascii: bool, names) -> tuple[str, str]:
        row = seat_name(cell["seat"], names) + _called(cell, ascii, names)
        if cell["contract"] == "garde" and cell.get("ecart") == "given":
            return row, "own écart"
        return row, contract_name(cell["contract"])

    def order(self, facts, ascii: bool, names):
        garde, *higher = facts.columns
        order = [contract_name(garde), "own écart"] + [contract_name(c) for c in higher]
        return lambda c: order.index(c) if c in order else len(order)


class _PriestLayout:
    """A row per caller, a column per partner in seat order (the card that calls it in the
    cell), then alone."""

    def place(self, cell: dict, ascii: bool, names) -> tuple[str, str]:
        seat = seat_name(cell["seat"], names)
        if cell["contract"] == "alone":
            return seat, "Alone"
        return seat, f"with {seat_name(cell['partner'], names)}"

    def order(self, facts, ascii: bool, names):
        partners = {f"with {seat_name(s, names)}": s for s in range(facts.seats)}
        return lambda c: partners.get(c, facts.seats)


class _AustrianLayout:
    """A row per declarer, game (and king called), a column per goal: the game, then each
    announcement in the seed's order."""

    def place(self, cell: dict, ascii: bool, names) -> tuple[str, str]:
        return (f"{seat_name(cell['seat'], names)} "
                f"{contract_name(cell['contract'], ascii=ascii)}{_called(cell, ascii, names)}",
                contract_name(cell.get("objective", "contract"), ascii=ascii))

    def order(self, facts, ascii: bool, names):
        order = [contract_name(o, ascii=ascii) for o in facts.columns]
        return lambda c: order.index(c) if c in order else len(order)


#: each rulebook's grid
_LAYOUT = {FRENCH: _FrenchLayout(), PRIESTERTAROCK: _PriestLayout(), AUSTRIAN: _AustrianLayout()}


def grid(table: dict, ascii: bool = False, names=None) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The table laid out as ``--text`` and ``atout report`` show it: (the column names,
    {row name: {column: the cell in words}}).  ``names``: the players, by seat."""
    facts = GAME[table["game"]]
    layout = _LAYOUT[facts.family]
    rows: dict[str, dict[str, str]] = {}
    columns: list[str] = []
    for cell in table["cells"]:
        row, col = layout.place(cell, ascii, names)
        text = cell_text(cell, table=table, ascii=ascii)
        if cell["contract"] == "call":         # priest5: the card that calls this partner
            call = _call_card(cell.get("calls") or [])
            if call is not None:
                text += f", call {card_text(call, ascii)}"
        if col not in columns:
            columns.append(col)
        rows.setdefault(row, {})[col] = text
    columns.sort(key=layout.order(facts, ascii, names))
    return [plain(c, ascii) for c in columns], \
        {row: {plain(c, ascii): t for c, t in cols.items()} for row, cols in rows.items()}


def describe_table(table: dict, ascii: bool = False) -> str:
    """A table (the JSON of ``atout table``) in words: a heading, the grid, what its
    numbers count, the écarts, the par, the contract played and what could not be asked."""
    ident = table.get("id")
    label = "(no id)" if ident is None else printable(str(ident), ascii)
    if table.get("status") == "error":
        return f"{label}: refused: {table.get('field')}: {table.get('reason')}"
    game = table["game"]
    lines = [f"{label}: {WORDS[game].name if game in WORDS else game}, the deal as dealt (seat {table['first']} "
             f"bids and leads first)"]
    columns, rows = grid(table, ascii)
    width = max(len(r) for r in rows) if rows else 4
    widths = {c: max([len(c)] + [len(r.get(c, "")) for r in rows.values()]) for c in columns}
    lines.append(" " * width + "  " + "  ".join(c.ljust(widths[c]) for c in columns).rstrip())
    blank = "-" if ascii else "–"
    for row, values in rows.items():
        lines.append(row.ljust(width) + "  " + "  ".join(values.get(c, blank).ljust(widths[c])
                                                        for c in columns).rstrip())
    lines.append(legend(table, ascii))
    for cell in table["cells"]:
        if cell.get("ecart") == "given":
            lines.append(plain(_own_ecart_line(table, cell, ascii), ascii))
    for cell in table["cells"]:
        if cell.get("ecart") == "searched":
            lines.append(plain(_ecart_line(cell, ascii), ascii))
    lines.append(plain(par_text(table, ascii), ascii))
    played = played_text(table, ascii)
    if played:
        lines.append(plain(f"the contract played: {played}", ascii))
    for gap in table.get("missing", []):
        seats = ", ".join(str(s) for s in gap["seats"])
        lines.append(plain(f"not asked: {contract_name(gap['contract'])} of "
                           f"seat{'s' if len(gap['seats']) > 1 else ''} {seats}: {gap['field']}: "
                           f"{gap['reason']}", ascii))
    for note in table.get("notes", []):
        lines.append(plain(f"note: {note}", ascii))
    if table.get("status") == "limit":
        why = {"time": "the time limit", "cancel": "Ctrl-C"}.get(table.get("stopped_by"), "a limit")
        lines.append(f"stopped by {why} after {table.get('seconds')} s: the open cells are "
                     "not proven either way")
    return "\n".join(lines)


def _who_garde(cell: dict, ascii: bool, names=None) -> str:
    who = f"{seat_name(cell['seat'], names)}'s garde"
    if cell.get("called"):
        who += f" calling {card_text(cell['called'], ascii)}"
    return who


def _own_ecart_line(table: dict, cell: dict, ascii: bool, names=None) -> str:
    """The taker's garde with the écart it made, and beside it the best écart's."""
    ecart = " ".join(card_text(c, ascii) for c in cell.get("ecart_cards", []))
    words = {True: "made", False: "down", None: "open"}
    text = (f"{_who_garde(cell, ascii, names)} with the écart it made ({ecart}): "
            f"{words[cell.get('made')]}")
    best = next((c for c in table["cells"] if c.get("ecart") == "searched"
                 and c["seat"] == cell["seat"] and c.get("called") == cell.get("called")), None)
    if best is not None:
        could = {True: "yes, another écart makes it" if not cell.get("made") else "made",
                 False: "no, no écart makes it", None: "not known yet"}[best.get("made")]
        text += f"; with the best écart: {could}"
    return text


def _ecart_line(cell: dict, ascii: bool, names=None) -> str:
    who = _who_garde(cell, ascii, names)
    if cell.get("made") and cell.get("ecart_cards"):
        return f"{who}: made with the écart {' '.join(card_text(c, ascii) for c in cell['ecart_cards'])}"
    total, refuted = cell.get("ecart_classes"), cell.get("refuted", 0)
    if total is None:
        return f"{who}: open; its écarts not counted within the time"
    if cell.get("made") is False:
        return f"{who}: down whatever the écart ({total} different écarts refuted)"
    return f"{who}: open; {refuted} of its {total} different écarts refuted"


def _who(cell: dict, ascii: bool, names=None) -> str:
    text = seat_name(cell["seat"], names)
    if cell.get("called"):
        text += f" calling {card_text(cell['called'], ascii)}"
    if cell.get("contract") == "call" and cell.get("partner") is not None:
        text += f" with {seat_name(cell['partner'], names)}"
    return text


def _cells_named(cells: list, ascii: bool, names=None) -> str:
    said = [f"{contract_name(c['contract'], False, ascii)} by {_who(c, ascii, names)}"
            + (" (its own écart)" if c.get("ecart") == "given" else "")
            for c in cells[:NAMED]]
    if len(cells) > NAMED:
        said.append(f"{len(cells) - NAMED} more")
    return ", ".join(said)


def par_text(table: dict, ascii: bool = False, names=None) -> str:
    """The par line: ``par: Garde sans by seat 1 (proven)``; where it is not proven, the
    cells that could still beat it (``par: not known yet`` where no cell is made)."""
    par = table.get("par") or {}
    could = ""
    if par.get("open"):
        could += "; could still be made: " + _cells_named(par["open"], ascii, names)
    if par.get("unasked"):
        could += "; not asked: " + ", ".join(contract_name(c, False, ascii)
                                             for c in par["unasked"])
    if par.get("contract") is None:
        if par.get("proven"):
            return "par: everyone passes, no contract is made (proven)"
        return "par: not known yet — no contract is proven made" + could
    text = (f"par: {contract_name(par['contract'], False, ascii)} by "
            f"{_who(par, ascii, names)}")
    if par.get("value") is not None:
        text += f", value {value_text(par['value'], table, ascii)}"
    if par.get("announcements"):
        text += ", with " + ", ".join(contract_name(a, ascii=ascii) for a in par["announcements"])
    if par.get("proven"):
        return text + " (proven)"
    return text + " so far — not proven" + could


def played_text(table: dict, ascii: bool = False, names=None) -> str | None:
    """The contract played, as the table sees it: ``Garde by seat 1: made with best
    play; could also have made: Garde sans by seat 3``.  None when the table has none
    (Trischaken)."""
    played = table.get("played")
    if not played:
        return None
    name = contract_name(played["contract"], False, ascii)
    made = {True: "made with best play", False: "down with best play",
            None: "not proven either way"}[played.get("made")]
    if played.get("asked") is False:
        made = "not asked"
    if played.get("ecart") == "searched":
        made += " (its best écart; the table has not the one played)"
    elif played.get("ecart") == "given":
        made += " (with the écart it made)"
    text = f"{name} by {seat_name(played['seat'], names)}: {made}"
    higher = played.get("higher") or []
    if higher:
        text += "; could also have made: " + _cells_named(higher, ascii, names)
    return text
