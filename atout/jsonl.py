"""Reading JSON Lines of positions, whatever arrives: one record per line, never a crash.

Each line becomes a :class:`Record`: its 1-based line number, a label for messages
(the position's ``id`` when it has one, else ``line N``), and either the parsed
:class:`~atout.position.Position` or the :class:`~atout.errors.PositionError` that
refused it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import BinaryIO, Iterator

from atout.errors import PositionError
from atout.position import Position, parse_position

#: a position is a few kilobytes; anything far larger is refused unread
MAX_LINE_BYTES = 1 << 20


@dataclass
class Record:
    line: int
    label: str
    id: object = None
    position: Position | None = None
    error: PositionError | None = None


def _label(obj, line: int):
    if isinstance(obj, dict):
        ident = obj.get("id")
        if type(ident) in (str, int) and len(str(ident)) <= 200:
            # Messages are one line each, `<label>: <field>: <reason>`: an empty id or one
            # with a newline or other control characters would garble or forge them.
            text = str(ident)
            return (text if text and text.isprintable() else f"line {line}"), ident
    return f"line {line}", None


def parse_line(raw: bytes, line: int) -> Record:
    """Parse one raw line (without the newline) into a Record."""
    if len(raw) > MAX_LINE_BYTES:
        return Record(line, f"line {line}", error=PositionError(
            "json", f"line of {len(raw)} bytes is longer than {MAX_LINE_BYTES}"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Record(line, f"line {line}", error=PositionError("json", "not UTF-8 text"))
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        return Record(line, f"line {line}", error=PositionError(
            "json", f"not valid JSON: {e.msg} at column {e.colno}{_hint(text)}"))
    except (ValueError, RecursionError):
        return Record(line, f"line {line}", error=PositionError("json", "not valid JSON: nested too deeply"))
    if isinstance(obj, list) and obj and all(isinstance(x, dict) for x in obj):
        return Record(line, f"line {line}", error=PositionError(
            "json", "a JSON array, not a position object: give one position per line "
                    "(e.g. jq -c '.[]' FILE)"))
    label, ident = _label(obj, line)
    try:
        return Record(line, label, ident, position=parse_position(obj))
    except PositionError as e:
        return Record(line, label, ident, error=e)
    except RecursionError:
        return Record(line, label, ident, error=PositionError("position", "nested too deeply"))


def _hint(text: str) -> str:
    """A hint for a line that is part of a pretty-printed object or array."""
    t = text.strip()
    if t in ("{", "}", "},", "[", "]", "],", "[{", "}]") or (t.startswith('"') and '":' in t):
        return ("; the input looks like pretty-printed JSON: JSON Lines needs each position "
                "on one line (e.g. jq -c . FILE)")
    return ""


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


def read_records(stream: BinaryIO) -> Iterator[Record]:
    """Records of a binary stream, one per non-blank line."""
    for number, raw, size in split_lines(stream):
        if raw is None:
            yield Record(number, f"line {number}", error=PositionError(
                "json", f"line of {size} bytes is longer than {MAX_LINE_BYTES}"))
        else:
            yield parse_line(raw, number)
