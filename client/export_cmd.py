"""``atout export``: positions as other programs' deal files.

    atout export deals.jsonl --format tarotclub -o deals/      # one file per deal
    atout export one.jsonl --format tarotclub -o deal.json     # one deal, one file
    atout export deals.jsonl --format tarotclub                # one file's JSON a line

TarotClub (:mod:`atout.tarotclub`) plays French Tarot: a finished deal becomes a played-deal
file (version 3), a deal not yet played — a position with no card played, or a deal as
dealt — a custom-deal file, which TarotClub's deal editor opens to play it again.
``atout import`` reads either back as the same position.  A position TarotClub cannot hold
(another game, a deal part-way through its play, two poignées of one camp) is one line on
stderr naming the field, and the others go on (exit status 1).
"""

from __future__ import annotations


def add_parser(sub, positive_float, positive_int) -> None:
    p = sub.add_parser("export", help="positions as TarotClub deal files")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("--format", choices=("tarotclub",), required=True,
                   help="the files' format: tarotclub (TarotClub's played and custom deals)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="a directory (one file per deal, named by its id) or, for one deal, a "
                        "file; default: standard output, one deal's JSON a line")
    p.set_defaults(run=run)


def run(args) -> int:
    import json
    import os
    import sys

    from atout import tarotclub
    from atout.errors import PositionError
    from atout.jsonl import read_records

    from .cli import EXIT_BAD_INPUT, EXIT_OK, UsageError, _open_input

    into_dir = args.output is not None and (os.path.isdir(args.output)
                                            or args.output.endswith(os.sep))
    if into_dir:
        try:
            os.makedirs(args.output, exist_ok=True)
        except OSError as e:
            raise UsageError(f"cannot make the directory {args.output}: {e.strerror}") from None
    bad = written = 0
    names: set[str] = set()
    with _open_input(args.file) as f:
        for rec in read_records(f, deals=True):
            if rec.error is None:
                try:
                    deal = tarotclub.export(rec.position if rec.position is not None
                                            else _deal_object(rec))
                except PositionError as e:
                    rec.error = e
            if rec.error is not None:
                bad += 1
                print(f"{rec.label}: {rec.error.field}: {rec.error.reason}", file=sys.stderr)
                continue
            if args.output is None:
                sys.stdout.write(json.dumps(deal, ensure_ascii=False) + "\n")
                continue
            if into_dir:
                path = os.path.join(args.output, _file_name(rec, names))
            elif written:
                raise UsageError(f"-o {args.output}: a file holds one deal; give a directory "
                                 "(-o DIR/) for several")
            else:
                path = args.output
            try:
                with open(path, "w", encoding="utf-8") as out:
                    out.write(tarotclub.dumps(deal))
            except OSError as e:
                raise UsageError(f"cannot write {path}: {e.strerror}") from None
            written += 1
    if args.output is not None:
        print(f"{written} deal{'s' if written != 1 else ''} written, {bad} refused",
              file=sys.stderr)
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _deal_object(rec) -> dict:
    from atout.dealt import deal_json
    return deal_json(rec.deal, rec.id)


def _file_name(rec, taken: set[str]) -> str:
    """The deal's file: its id made safe for a file name (else its line), once each."""
    import re

    base = re.sub(r"[^A-Za-z0-9._-]+", "_", str(rec.id)).strip("._") if rec.id is not None else ""
    base = base[:80] or f"line-{rec.line}"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return name + ".json"
