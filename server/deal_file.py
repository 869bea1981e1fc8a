"""The deals `atout view FILE` opens: a JSON Lines file (or one JSON value, a list or a
position), each position checked by the rules, the lines refused said with their reason."""

from __future__ import annotations

import json
from typing import Any

from atout.errors import PositionError
from atout.position import parse_position


def load_deals(path: str) -> tuple[list[dict], list[str]]:
    """The positions of a JSON Lines (or one JSON) file for `atout view`: (deals, problems)."""
    deals, problems = [], []
    with open(path, "rb") as f:
        text = f.read()
    try:
        whole: Any = json.loads(text)
        lines = whole if isinstance(whole, list) else [whole]
        records = [(i + 1, x) for i, x in enumerate(lines)]
    except (ValueError, RecursionError):    # not one JSON value: JSON Lines
        records = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append((n, json.loads(line)))
            except ValueError as e:
                problems.append(f"line {n}: json: not valid JSON ({str(e)[:60]})")
            except RecursionError:          # as atout validate says it
                problems.append(f"line {n}: json: not valid JSON: nested too deeply")
    for n, obj in records:
        try:
            parse_position(obj)
        except PositionError as e:
            problems.append(f"line {n}: {e.field}: {e.reason}")
            continue
        deals.append(obj)
    return deals, problems
