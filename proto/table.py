"""A contract table (``atout table``'s object) to and from the ``atout.v1`` messages.

``table_object(table_message(t)) == t`` for a table of
:func:`atout.solver.contract_table.contract_table`, key order included, and the same for
one cell (:func:`cell_message`, :func:`cell_object`).
"""

from __future__ import annotations

from typing import Any

from atout.games import GAME

from .convert import STATUS_NAME, STATUS_OF, _get_id, _set_id
from .v1 import solver_pb2 as pb

__all__ = ["cell_message", "cell_object", "table_message", "table_object"]


def cell_message(cell: dict, msg: pb.TableCell | None = None) -> pb.TableCell:
    msg = pb.TableCell() if msg is None else msg
    msg.seat, msg.contract = cell["seat"], cell["contract"]
    if cell.get("called") is not None:
        msg.called = cell["called"]
    if cell.get("partner") is not None:
        msg.partner = cell["partner"]
    msg.objective = cell.get("objective", "")
    msg.calls.extend(cell.get("calls", ()))
    msg.ecart = cell.get("ecart") or ""
    if cell.get("made") is not None:
        msg.made = cell["made"]
    if cell.get("value") is not None:
        msg.value = cell["value"]
    if cell.get("bounds") is not None:
        msg.bounds.low, msg.bounds.high = cell["bounds"]
    msg.ecart_cards.extend(cell.get("ecart_cards", ()))
    msg.ecart_classes = cell.get("ecart_classes", 0)
    msg.refuted = cell.get("refuted", 0)
    return msg


def cell_object(msg: pb.TableCell, result: bool = True) -> dict:
    """A cell as the table's JSON has it (``result``: with its verdict)."""
    cell: dict[str, Any] = {"seat": msg.seat, "contract": msg.contract}
    if msg.HasField("called"):
        cell["called"] = msg.called
    if msg.contract != "alone" and (msg.HasField("called") or msg.calls):
        cell["partner"] = msg.partner if msg.HasField("partner") else None
    if msg.objective:
        cell["objective"] = msg.objective
    if msg.calls:
        cell["calls"] = list(msg.calls)
    if msg.ecart:
        cell["ecart"] = msg.ecart
    if not result:
        return cell
    cell["made"] = msg.made if msg.HasField("made") else None
    cell["value"] = msg.value if msg.HasField("value") else None
    cell["bounds"] = [msg.bounds.low, msg.bounds.high]
    if msg.ecart_cards:
        cell["ecart_cards"] = list(msg.ecart_cards)
    if msg.ecart_classes:
        cell["ecart_classes"] = msg.ecart_classes
        cell["refuted"] = msg.refuted
    return cell


_KEYS = ("seat", "contract", "called", "partner", "objective", "calls", "ecart")


def table_message(table: dict) -> pb.ContractTable:
    msg = pb.ContractTable(status=STATUS_OF[table["status"]], game=table["game"],
                           first=table["first"], stopped_by=table.get("stopped_by") or "",
                           nodes=table.get("nodes", 0), seconds=table.get("seconds", 0.0),
                           counting=table.get("counting", ""))
    _set_id(msg, table.get("id"))
    for cell in table["cells"]:
        cell_message(cell, msg.cells.add())
    for m in table.get("missing", ()):
        msg.missing.add(contract=m["contract"], seats=m["seats"], field=m["field"],
                        reason=m["reason"])
    par = table["par"]
    msg.par.proven = par["proven"]
    if par.get("contract") is not None:
        cell_message(par, msg.par.cell)
        msg.par.announcements.extend(par.get("announcements", ()))
    for c in par.get("open", ()):
        cell_message(c, msg.par.open.add())
    msg.par.unasked.extend(par.get("unasked", ()))
    played = table.get("played")
    if played is not None:
        msg.played.seat, msg.played.contract = played["seat"], played["contract"]
        if played.get("made") is not None:
            msg.played.made = played["made"]
        if played.get("bounds") is not None:
            msg.played.bounds.low, msg.played.bounds.high = played["bounds"]
        for c in played["higher"]:
            cell_message(c, msg.played.higher.add())
        msg.played.not_asked = played.get("asked") is False
    msg.notes.extend(table.get("notes", ()))
    return msg


def table_object(msg: pb.ContractTable) -> dict:
    table: dict[str, Any] = {"id": _get_id(msg), "status": STATUS_NAME.get(msg.status, "ok"),
                             "game": msg.game, "first": msg.first}
    facts = GAME.get(msg.game)          # (a message from elsewhere may name no game)
    if facts is not None and facts.countings:
        table["counting"] = msg.counting or "seed"
    table["cells"] = [cell_object(c) for c in msg.cells]
    if msg.missing:
        table["missing"] = [{"contract": m.contract, "seats": list(m.seats), "field": m.field,
                             "reason": m.reason} for m in msg.missing]
    if msg.par.HasField("cell"):
        par = cell_object(msg.par.cell)
        par = {k: v for k, v in par.items() if k in _KEYS or k in ("made", "value", "bounds",
                                                                    "ecart_cards")}
        if facts is not None and facts.objectives:
            par["announcements"] = list(msg.par.announcements)
        par["proven"] = msg.par.proven
    else:
        par = {"contract": None, "proven": msg.par.proven}
    if msg.par.open:
        par["open"] = [cell_object(c, result=False) for c in msg.par.open]
    if msg.par.unasked:
        par["unasked"] = list(msg.par.unasked)
    table["par"] = par
    if msg.HasField("played"):
        p = msg.played
        played: dict[str, Any] = {"seat": p.seat, "contract": p.contract}
        if p.not_asked:
            played.update({"made": None, "asked": False})
        else:
            played.update({"made": p.made if p.HasField("made") else None,
                           "bounds": [p.bounds.low, p.bounds.high]})
        played["higher"] = [cell_object(c, result=False) for c in p.higher]
        table["played"] = played
    else:
        table["played"] = None
    if msg.notes:
        table["notes"] = list(msg.notes)
    if msg.stopped_by:
        table["stopped_by"] = msg.stopped_by
    table["nodes"], table["seconds"] = msg.nodes, msg.seconds
    return table
