"""``atout show``: positions as a player reads them.

The contract and the roles, every hand by seat with suit symbols, highest card first,
what lies outside the hands (dog, écart, open cards, talon), the tricks so far with their
winners, and the points and bouts won.  ``--ascii`` (automatic when standard output cannot
print ♠♥♦♣) writes suits as letters.
"""

from __future__ import annotations

import sys


def add_parser(sub, positive_float, positive_int) -> None:
    p = sub.add_parser("show", help="print positions as a player reads them")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("--ascii", action="store_true", help="suits as letters (S H D C), no symbols")
    p.set_defaults(run=run)


def run(args) -> int:
    from atout.jsonl import read_records
    from atout.text import describe_position, want_ascii

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _open_input

    ascii = want_ascii(args)
    bad = 0
    first = True
    with _open_input(args.file) as f:
        for rec in read_records(f):
            if rec.error is not None:
                bad += 1
                print(f"{rec.label}: {rec.error.field}: {rec.error.reason}", file=sys.stderr)
                continue
            sys.stdout.write(("" if first else "\n") + describe_position(rec.position, ascii) + "\n")
            sys.stdout.flush()
            first = False
    return EXIT_BAD_INPUT if bad else EXIT_OK
