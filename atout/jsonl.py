"""Reading JSON Lines of positions, whatever arrives: one record per line, never a crash.

Each line becomes a :class:`Record`: its 1-based line number, a label for messages
(the position's ``id`` when it has one, else ``line N``), and either the parsed
:class:`~atout.position.Position` or the :class:`~atout.errors.PositionError` that
refused it.  The commands that take a deal as dealt too (``show``, ``table``, ``export``,
``validate``) read with ``deals=True``: such a line's record holds its
:class:`~atout.dealt.Dealt` instead of a position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, BinaryIO, Iterator

from atout.errors import PositionError
from atout.dealt import is_deal, parse_deal
from atout.strict_json import decode_json  # noqa: F401 (read from here by the interfaces)
from atout.position import Position, check_id, parse_position
from atout.printable import printable

#: a position is a few kilobytes; anything far larger is refused unread
MAX_LINE_BYTES = 1 << 20


@dataclass
class Record:
    line: int
    label: str
    id: object = None
    position: Position | None = None
    error: PositionError | None = None
    #: a deal as dealt (no contract yet), where the command takes one (``deals=True``)
    deal: Any = None


def _label(obj, line: int):
    if isinstance(obj, dict):
        ident = obj.get("id")
        try:
            check_id(ident)     # an id refused (too long, not Unicode) is not echoed back
        except PositionError:
            ident = None
        if ident is not None:
            # Messages are one line each, `<label>: <field>: <reason>`: an id with a newline
            # or other control characters is escaped (atout.printable) so as not to garble
            # or forge them; an empty one would say nothing
            text = printable(str(ident))
            return (text if text else f"line {line}"), ident
    return f"line {line}", None


def parse_line(raw: bytes, line: int, deals: bool = False) -> Record:
    """Parse one raw line (without the newline) into a Record (``deals``: a deal as dealt
    is read as one)."""
    if len(raw) > MAX_LINE_BYTES:
        return Record(line, f"line {line}", error=PositionError(
            "json", f"line of {len(raw)} bytes is longer than {MAX_LINE_BYTES}"))
    try:
        obj = decode_json(raw)
    except PositionError as e:
        return Record(line, f"line {line}", error=e)
    if isinstance(obj, list) and obj and all(isinstance(x, dict) for x in obj):
        return Record(line, f"line {line}", error=PositionError(
            "json", "a JSON array, not a position object: give one position per line "
                    "(e.g. jq -c '.[]' FILE)"))
    label, ident = _label(obj, line)
    try:
        if deals and is_deal(obj):
            return Record(line, label, ident, deal=parse_deal(obj))
        return Record(line, label, ident, position=parse_position(obj))
    except PositionError as e:
        return Record(line, label, ident, error=e)
    except RecursionError:
        return Record(line, label, ident, error=PositionError("position", "nested too deeply"))


def result_position(obj: dict, missing: str) -> Position:
    """The deal a result line carries beside its result (``atout batch --analyze`` and
    ``--table`` write it as ``position``), validated by the rules; a PositionError naming
    ``position.<field>`` otherwise (``missing``: the reason when there is none)."""
    if not isinstance(obj.get("position"), dict):
        raise PositionError("position", missing)
    try:
        return parse_position(obj["position"])
    except PositionError as e:
        raise PositionError(f"position.{e.field}", e.reason) from None
    except RecursionError:
        raise PositionError("position", "nested too deeply") from None


def split_lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None, int]]:
    """``(number, line, size)`` for each non-blank line of a binary stream (numbered from 1,
    blank lines counted), read in bounded chunks: a line longer than MAX_LINE_BYTES comes
    as ``line=None`` with its size, the rest of it skipped unread."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            size = len(raw)
            while raw and not raw.endswith(b"\n"):  # skip the rest of a huge line
                raw = stream.readline(MAX_LINE_BYTES)
                size += len(raw)
            yield number, None, size
            continue
        raw = raw.rstrip(b"\r\n")
        if not raw.strip():
            continue
        yield number, (raw if len(raw) <= MAX_LINE_BYTES else None), len(raw)


def read_records(stream: BinaryIO, deals: bool = False) -> Iterator[Record]:
    """Records of a binary stream, one per non-blank line (``deals``: deals as dealt too)."""
    for number, raw, size in split_lines(stream):
        if raw is None:
            yield Record(number, f"line {number}", error=PositionError(
                "json", f"line of {size} bytes is longer than {MAX_LINE_BYTES}"))
        else:
            yield parse_line(raw, number, deals)
