"""The one strict JSON decoder of every interface that reads JSON — the command line's
lines, the HTTP API's bodies, a position given as text — so that they refuse the same text
for the same reason (no NaN or Infinity, no integer past Python's digit limit) and say
where, with a hint for the usual mistakes."""

from __future__ import annotations

import json
import sys
from typing import Any

from .errors import PositionError

__all__ = ["decode_json"]


class _NotJson(ValueError):
    """What strict JSON does not allow, found while decoding."""


def _number_constant(name: str):
    raise _NotJson(f"{name} is not a JSON number")


def _whole_number(text: str) -> int:
    # Python refuses to convert integers of more digits than this (a guard against slow
    # conversions); say so, rather than let its ValueError pass for something else
    limit = sys.get_int_max_str_digits()
    if limit and len(text.lstrip("-")) > limit:
        raise _NotJson(f"a number of more than {limit} digits")
    return int(text)


def decode_json(data: bytes | str) -> Any:
    """One JSON value, strictly (no NaN or Infinity): the decoder of every interface that
    reads JSON — the command line's lines and the HTTP API's bodies — so that they refuse
    the same text for the same reason.  Raises PositionError("json", reason)."""
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise PositionError("json", "not UTF-8 text") from None
    try:
        return json.loads(data, parse_constant=_number_constant, parse_int=_whole_number)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno} column {e.colno}" if e.lineno > 1 else f"column {e.colno}"
        raise PositionError("json", f"not valid JSON: {e.msg} at {where}{_hint(data)}") from None
    except _NotJson as e:
        raise PositionError("json", f"not valid JSON: {e}") from None
    except RecursionError:
        raise PositionError("json", "not valid JSON: nested too deeply") from None


def _hint(text: str) -> str:
    """A hint for a line that is part of a pretty-printed object or array."""
    t = text.strip()
    if "\n" in t:
        return ""
    if t in ("{", "}", "},", "[", "]", "],", "[{", "}]") or (t.startswith('"') and '":' in t):
        return ("; the input looks like pretty-printed JSON: JSON Lines needs each position "
                "on one line (e.g. jq -c . FILE)")
    return ""
