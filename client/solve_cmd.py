"""``atout solve``: JSON Lines positions in, one JSON result line per position out."""

from __future__ import annotations

import sys


def add_parser(sub, positive_float, positive_int) -> None:
    p = sub.add_parser("solve", help="solve positions double dummy (JSON Lines in and out)")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("--all", action="store_true", dest="all_cards",
                   help="also give the value of every legal card")
    p.add_argument("--time-limit", type=positive_float, metavar="S",
                   help="stop each search after S seconds (status limit, with bounds)")
    p.add_argument("--node-limit", type=positive_int, metavar="N",
                   help="stop each search after N nodes (status limit, with bounds)")
    p.add_argument("--tt-mb", type=positive_int, metavar="M",
                   help="transposition table size in MB (default 256)")
    p.set_defaults(run=run)


def run(args) -> int:
    from atout.solver import solve

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _emit, _open_input
    from .jsonl import read_records

    bad = 0
    with _open_input(args.file) as f:
        for rec in read_records(f):
            if rec.error is not None:
                bad += 1
                print(f"{rec.label}: {rec.error.field}: {rec.error.reason}", file=sys.stderr)
                _emit({"id": rec.id, "status": "error", "field": rec.error.field,
                       "reason": rec.error.reason})
                continue
            result = solve(rec.position, all_cards=args.all_cards, time_limit=args.time_limit,
                           node_limit=args.node_limit, tt_mb=args.tt_mb)
            _emit(result.to_json())
    return EXIT_BAD_INPUT if bad else EXIT_OK
