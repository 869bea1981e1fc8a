"""A command's output lines: each result a JSON line on standard output, each refused
record a line on standard error (``<id or line>: <field>: <reason>``) and an error result
line.  Below the command line and its Ctrl-C handling (:mod:`.interrupt`), which both
write through here."""

from __future__ import annotations

import json
import sys

__all__ = ["emit", "emit_error"]


def emit(obj: dict) -> None:
    """One result line on standard output, written at once."""
    sys.stdout.write(json.dumps(obj, separators=(", ", ": ")) + "\n")
    sys.stdout.flush()


def emit_error(rec, error=None) -> None:
    """A refused record: ``<id or line>: <field>: <reason>`` on stderr and an error result line."""
    error = error or rec.error
    print(f"{rec.label}: {error.field}: {error.reason}", file=sys.stderr)
    emit({"id": rec.id, "status": "error", "field": error.field, "reason": error.reason})
