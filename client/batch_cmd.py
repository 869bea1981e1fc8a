"""``atout batch IN.jsonl -o OUT.jsonl``: solve a puzzle set on every core, resumably.

One result line per puzzle in OUT as it finishes (see :mod:`atout.runner.batch`); rerunning
the same command after a crash or Ctrl-C goes on where it stopped.  Exit status 0 when
every puzzle of IN has a result with status ``ok`` or ``limit``, 1 when some are
errors, 2 for a problem with the run itself, 130 when interrupted.
"""

from __future__ import annotations

import os
import sys


def add_parser(sub, positive_float, positive_int) -> None:
    from .cli import add_search_options, add_workers_option

    p = sub.add_parser("batch", help="solve a puzzle set in parallel, resumably (JSON Lines in and out)")
    p.add_argument("file", metavar="IN", help="input positions (JSON Lines), or - for stdin")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="result file: appended to; puzzles already there are skipped")
    add_workers_option(p, f"worker processes (default: every core, here {os.cpu_count()})")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local process pool (default) or a Ray cluster (pip install 'atout[ray]')")
    p.add_argument("--address", metavar="ADDR",
                   help="Ray cluster address (default: start a local Ray instance)")
    add_search_options(p, " per worker")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=run)


def run(args) -> int:
    from atout.runner.batch import BatchError, solve_all

    from .cli import EXIT_BAD_INPUT, EXIT_OK, UsageError

    if args.address is not None and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    try:
        report = solve_all(args.file, args.output, workers=args.workers, backend=args.backend,
                           address=args.address, all_cards=args.all_cards,
                           time_limit=args.time_limit, node_limit=args.node_limit,
                           tt_mb=args.tt_mb, progress=None if args.quiet else sys.stderr)
    except BatchError as e:
        raise UsageError(str(e)) from None
    except KeyboardInterrupt:
        print(f"\natout batch: interrupted; the results so far are in {args.output} — "
              f"run the same command again to go on", file=sys.stderr)
        return 130
    if report.crashed:
        print(f"batch: {report.crashed} puzzle{'s' if report.crashed != 1 else ''} lost "
              f"{'their' if report.crashed != 1 else 'its'} worker twice and "
              f"{'are' if report.crashed != 1 else 'is'} not in {args.output}: run the same "
              f"command again to retry", file=sys.stderr)
    if not args.quiet:
        print(f"batch: {report.solved} solved in {report.seconds:.1f} s, {report.skipped} were "
              f"already done; {report.ok} ok, {report.limits} limit, {report.errors} error "
              f"in {args.output}", file=sys.stderr)
    return EXIT_BAD_INPUT if report.errors or report.crashed else EXIT_OK
