"""``atout batch IN.jsonl -o OUT.jsonl``: solve a puzzle set on every core, resumably;
``atout batch --analyze IN.jsonl -o OUT.jsonl``: analyse a session's played deals so.

One result line per puzzle or deal in OUT as it finishes (see :mod:`atout.runner.batch`);
rerunning the same command after a crash or Ctrl-C goes on where it stopped.  With
``--analyze`` each line is the deal's ``atout analyze --json`` object (each deal has a
time limit: 60 s unless ``--time-limit`` says otherwise), which ``atout report`` turns into
a page.  Exit status 0 when every line of IN has a result with status ``ok`` or
``limit``, 1 when some are errors, 2 for a problem with the run itself, 130 when
interrupted.
"""

from __future__ import annotations

import os
import sys


def add_parser(sub, positive_float, positive_int) -> None:
    from atout import options

    from .cli import (MAX_THREADS, _threads, add_time_limit_option, add_tt_mb_option,
                      add_workers_option, checked, whole_number)

    p = sub.add_parser("batch", help="solve a puzzle set, or analyse played deals (--analyze), "
                                     "in parallel, resumably (JSON Lines in and out)")
    p.add_argument("file", metavar="IN", help="input positions (JSON Lines), or - for stdin")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="result file: appended to; lines already there are skipped")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--analyze", action="store_true",
                      help="analyse each played deal card by card, as atout analyze --json "
                           "does (then atout report OUT makes a page of them)")
    kind.add_argument("--table", action="store_true",
                      help="work out each deal's contract table, as atout table does "
                           "(atout report --tables OUT shows them beside the play)")
    add_workers_option(p, f"worker processes (default: every core, here {os.cpu_count()})")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local process pool (default) or a Ray cluster (pip install 'atout[ray]')")
    p.add_argument("--address", metavar="ADDR",
                   help="Ray cluster address (default: start a local Ray instance)")
    p.add_argument("--all", action="store_true", dest="all_cards",
                   help="also give the value of every legal card (solving)")
    add_time_limit_option(p, "seconds for each puzzle (it stops with status limit and its "
                             "bounds) or, with --analyze, for each deal (default "
                             f"{options.ANALYSIS_TIME_LIMIT:g}: every card judged, exactly where "
                             "solved in time)")
    p.add_argument("--node-limit", type=checked(options.node_limit, int), metavar="N",
                   help="stop each search after N nodes (solving: status limit, with bounds)")
    add_tt_mb_option(p, "transposition table size in MB per worker")
    analysis = p.add_argument_group("with --analyze")
    where = analysis.add_mutually_exclusive_group()
    where.add_argument("--start", type=whole_number(0), metavar="N",
                       help="take the first N played cards of each deal as given; analyse "
                            "from card N")
    where.add_argument("--last-tricks", type=positive_int, metavar="K",
                       help="analyse only the last K tricks of each deal")
    analysis.add_argument("--threads", type=_threads, metavar="N",
                          help=f"threads for each analysis (--table: searches at once for "
                               f"each table), 1 to {MAX_THREADS} (default 1: the workers take "
                               f"the cores)")
    table = p.add_argument_group("with --table")
    table.add_argument("--contract", action="append", metavar="C", dest="contracts",
                       help="ask only this contract (repeat for more); default: every one")
    table.add_argument("--values", action="store_true",
                       help="also each cell's exact value, with the time left")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=run)


#: the options of one kind of batch only, as the command line writes them
_SOLVE_ONLY = {"all_cards": "--all", "node_limit": "--node-limit"}
_ANALYZE_ONLY = {"start": "--start", "last_tricks": "--last-tricks"}
_TABLE_ONLY = {"contracts": "--contract", "values": "--values"}


def run(args) -> int:
    from atout import options
    from atout.runner.batch import BatchError, analyze_all, solve_all, table_all

    from .cli import EXIT_BAD_INPUT, EXIT_OK, UsageError

    if args.address is not None and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    kind = "analyze" if args.analyze else "table" if args.table else "solve"
    wrong = {"solve": {**_ANALYZE_ONLY, **_TABLE_ONLY, "threads": "--threads"},
             "analyze": {**_SOLVE_ONLY, **_TABLE_ONLY},
             "table": {**_SOLVE_ONLY, **_ANALYZE_ONLY}}[kind]
    given = [flag for dest, flag in wrong.items() if getattr(args, dest) not in (None, False)]
    if given:
        owner = {"--all": "solving", "--node-limit": "solving", "--start": "--analyze",
                 "--last-tricks": "--analyze", "--threads": "--analyze or --table",
                 "--contract": "--table", "--values": "--table"}
        kinds = {"solve": "", "analyze": ", not --analyze", "table": ", not --table"}
        raise UsageError(f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} for "
                         f"{owner[given[0]]}{kinds[kind]}")
    # what every kind of run takes alike
    run = {"workers": args.workers, "backend": args.backend, "address": args.address,
           "tt_mb": args.tt_mb, "progress": None if args.quiet else sys.stderr}
    try:
        if args.analyze:
            time_limit = (args.time_limit if args.time_limit is not None
                          else options.ANALYSIS_TIME_LIMIT)
            report = analyze_all(args.file, args.output, time_limit=time_limit,
                                 threads=args.threads or 1, start=args.start,
                                 last_tricks=args.last_tricks, **run)
        elif args.table:
            time_limit = (args.time_limit if args.time_limit is not None
                          else options.TABLE_TIME_LIMIT)
            report = table_all(args.file, args.output, time_limit=time_limit,
                               threads=args.threads or 1, contracts=args.contracts,
                               values=args.values, **run)
        else:
            report = solve_all(args.file, args.output, all_cards=args.all_cards,
                               time_limit=args.time_limit, node_limit=args.node_limit, **run)
    except BatchError as e:
        raise UsageError(str(e)) from None
    except KeyboardInterrupt:
        print(f"\natout batch: interrupted; the results so far are in {args.output} — "
              f"run the same command again to go on", file=sys.stderr)
        return 130
    unit = "puzzle" if kind == "solve" else "deal"
    if report.crashed:
        print(f"batch: {report.crashed} {unit}{'s' if report.crashed != 1 else ''} lost "
              f"{'their' if report.crashed != 1 else 'its'} worker twice and "
              f"{'are' if report.crashed != 1 else 'is'} not in {args.output}: run the same "
              f"command again to retry", file=sys.stderr)
    if not args.quiet:
        done = {"solve": "solved", "analyze": "analysed", "table": "tabulated"}[kind]
        print(f"batch: {report.solved} {done} in {report.seconds:.1f} s, {report.skipped} were "
              f"already done; {report.ok} ok, {report.limits} limit, {report.errors} error "
              f"in {args.output}", file=sys.stderr)
    return EXIT_BAD_INPUT if report.errors or report.crashed else EXIT_OK
