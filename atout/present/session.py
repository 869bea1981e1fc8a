"""A session's analyses read: the lines ``atout batch --analyze`` writes (docs/format.md, "A
session's analyses"), each checked for every field the report reads, of the type it reads
it as (a line the batch never writes is a problem named, not a traceback).

>>> from atout.present.session import read_analyses
>>> with open("analyses.jsonl", "rb") as f:                         # doctest: +SKIP
...     session = read_analyses(f)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, BinaryIO

from atout.cards import card, token
from atout.errors import PositionError
from atout.games import game_of
from atout.jsonl import MAX_LINE_BYTES, decode_json, result_position, split_lines
from atout.position import Position
from atout.printable import printable
from atout.verdict import VerdictKind

__all__ = ["ReportError", "Session", "DeadLine", "Played", "read_analyses"]


class ReportError(Exception):
    """A file that holds no analysis to report on."""


@dataclass
class Played:
    """One analysed deal: its result line (``result``), the deal as played (``position``,
    finished or not) and where it was in the file."""

    line: int
    result: dict
    position: Position

    @property
    def label(self) -> str:
        return str(self.position.id) if self.position.id is not None else f"line {self.line}"

    def player(self, seat: int) -> str:
        """Who played ``seat``: the name the deal gives, else "Seat N"."""
        names = self.position.players
        return names[seat] if names is not None and names[seat] is not None else f"Seat {seat}"


@dataclass
class DeadLine:
    """A deal the batch could not analyse (status error): its id, field and reason."""

    line: int
    ident: Any
    field: str
    reason: str


@dataclass
class Session:
    deals: list[Played] = field(default_factory=list)
    failed: list[DeadLine] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # lines that are not analyses


# -- reading ------------------------------------------------------------------------------------

class _Bad(Exception):
    def __init__(self, fld: str, reason: str):
        self.field, self.reason = fld, reason


def _need(obj: dict, key: str, kinds, where: str = "", nullable: bool = False):
    """``obj[key]``, checked to be of one of ``kinds`` (None too where ``nullable``)."""
    if key not in obj:
        raise _Bad(where + key, "is missing")
    value = obj[key]
    if value is None and nullable:
        return None
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in
                                           (kinds if isinstance(kinds, tuple) else (kinds,)))
    if not ok:
        raise _Bad(where + key, "has the wrong type")
    return value


def _pair(value, fld: str) -> list[int]:
    if not (isinstance(value, list) and len(value) == 2 and
            all(type(x) is int for x in value) and value[0] <= value[1]):
        raise _Bad(fld, "must be [low, high], whole numbers")
    return value


def _is_card(tok: Any, deck: set) -> bool:
    try:
        return card(tok) in deck
    except ValueError:
        return False


def _check_verdict(v, where: str) -> None:
    if not isinstance(v, dict) or not isinstance(v.get("kind"), str) or \
            v["kind"] not in {k.value for k in VerdictKind}:
        raise _Bad(where, "must be {kind, low, high}, kind one of "
                          + ", ".join(k.value for k in VerdictKind))
    if not (type(v.get("low")) is int and type(v.get("high")) is int
            and 0 <= v["low"] <= v["high"]):
        raise _Bad(where, "low and high must be whole numbers, 0 <= low <= high")


def _check_analysis(obj: dict, pos: Position) -> None:
    """The fields of an analysis the page uses, against the deal they are said of."""
    plays = _need(obj, "plays", list)
    if len(plays) > len(pos.played):
        raise _Bad("plays", f"has {len(plays)} plays, more than the {len(pos.played)} cards "
                            f"the deal played")
    start = len(pos.played) - len(plays)
    # who played each card, to check each play's seat against
    players = [s for t in pos.tricks for s, _ in t.cards] + [s for s, _ in pos.trick]
    deck = set(game_of(pos.game).deck)
    # null (bounded only) is a verdict, a missing key is no analysis the batch writes
    if _need(obj, "start_value", int, nullable=True) is None:
        _pair(obj.get("start_bounds"), "start_bounds")
    if "made" not in obj:           # (null is a verdict: not proven)
        raise _Bad("made", "is missing")
    if obj["made"] not in (True, False, None):
        raise _Bad("made", "must be true, false or null")
    for k, p in enumerate(plays):
        where = f"plays[{k}]."
        if not isinstance(p, dict):
            raise _Bad(f"plays[{k}]", "must be an object")
        if p.get("index") != start + k or type(p.get("index")) is not int:
            raise _Bad(where + "index", f"must be {start + k} (the plays of the deal's last "
                                        f"{len(plays)} cards, in order)")
        if p.get("card") != token(pos.played[start + k]):
            raise _Bad(where + "card", f"is not the card the deal played there "
                                       f"({token(pos.played[start + k])})")
        if _need(p, "seat", int, where) != players[start + k]:
            raise _Bad(where + "seat", f"must be {players[start + k]} (the seat that played "
                                       f"that card)")
        if _need(p, "cost", int, where, nullable=True) is None:
            _pair(p.get("cost_bounds"), where + "cost_bounds")
        _need(p, "decisive", bool, where)
        if "verdict" in p:
            _check_verdict(p["verdict"], where + "verdict")
        best = _need(p, "best", list, where, nullable=True)
        if best is not None and not all(_is_card(t, deck) for t in best):
            raise _Bad(where + "best", f"must be a list of cards of {pos.game}'s deck")
    seats = _need(obj, "seats", list)
    if len(seats) != pos.seats:
        raise _Bad("seats", f"must have one entry per seat ({pos.seats})")
    for s, row in enumerate(seats):
        where = f"seats[{s}]."
        if not isinstance(row, dict) or row.get("seat") != s:
            raise _Bad(f"seats[{s}]", f"must be seat {s}'s object")
        _need(row, "cards", int, where)
        _need(row, "mistakes", int, where)
        if _need(row, "cost", int, where, nullable=True) is None:
            _need(row, "at_least", int, where)
            _need(row, "not_judged", int, where)


def _read_line(raw: bytes, number: int, session: Session) -> None:
    try:
        obj = decode_json(raw)
    except PositionError as e:
        raise _Bad("json", e.reason) from None
    if not isinstance(obj, dict):
        raise _Bad("json", "not an object")
    status = obj.get("status")
    if status == "error":
        session.failed.append(DeadLine(number, obj.get("id"), str(obj.get("field", "")),
                                       str(obj.get("reason", ""))))
        return
    if status not in ("ok", "limit") or "plays" not in obj:
        raise _Bad("status", "not an analysis of atout batch --analyze (a solve's result, "
                             "or a position?)")
    try:
        pos = result_position(obj, "is missing: the page needs the deal itself, which atout "
                                   "batch --analyze writes beside each analysis")
    except PositionError as e:
        raise _Bad(e.field, e.reason) from None
    _check_analysis(obj, pos)
    session.deals.append(Played(number, obj, pos))


def read_analyses(stream: BinaryIO) -> Session:
    """The analyses of a binary stream of result lines.  A line that is not one (or whose
    analysis does not fit its deal) is a problem (``line N: field: reason``), the others are
    read on; raises :class:`ReportError` when no line is an analysis or a failed deal."""
    session = Session()
    for number, raw, size in split_lines(stream):
        try:
            if raw is None:
                raise _Bad("json", f"line of {size} bytes is longer than {MAX_LINE_BYTES}")
            _read_line(raw, number, session)
        except _Bad as e:
            session.problems.append(f"line {number}: {printable(e.field)}: {printable(e.reason)}")
    if not session.deals and not session.failed:
        why = f" ({session.problems[0]})" if session.problems else " (it is empty)"
        raise ReportError(f"no analysis of atout batch --analyze in it{why}")
    return session
