"""``atout table``: the double-dummy contract table of each deal — who could have made what.

One JSON line per deal (docs/format.md, "A contract table"), or with ``--text`` a grid in
words.  Each deal's table is worked out within ``--time-limit`` (120 s by default): the
cheap cells first, every cell proven or left open with the bounds proven.  A bad deal, or
a contract its game's table does not have, is an error line naming the field; the other
deals go on and the exit status is 1 (with ``--text`` the refusal in words, not as JSON).
Ctrl-C prints the table of the deal in progress as far as it is proven and stops (exit
status 130).  On a terminal, a bar on stderr says how many cells are proven so far.
"""

from __future__ import annotations

import sys

#: seconds per deal unless --time-limit says otherwise: enough for most tables to be
#: proven whole (an Austrian one takes 10 to 40 s on two cores, a French one's close
#: cells longer), short enough to wait for


def add_parser(sub, positive_float, positive_int) -> None:
    from atout import options

    from .cli import MAX_THREADS, _threads, add_time_limit_option, checked, default_threads

    p = sub.add_parser("table", help="the double-dummy contract table of each deal: which "
                                     "contracts each seat could have made, and the par")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("--text", action="store_true", help="the table as a grid in words")
    p.add_argument("--ascii", action="store_true", help="with --text: suits as letters")
    p.add_argument("--contract", action="append", metavar="C", dest="contracts",
                   help="ask only this contract (repeat for more; e.g. garde_sans, bettler, "
                        "alone); default: every contract of the game's table")
    p.add_argument("--values", action="store_true",
                   help="also the exact value of each cell (the score; an Austrian point "
                        "game's card points), with the time the contract questions leave")
    add_time_limit_option(p, f"seconds for each deal's table (default {options.TABLE_TIME_LIMIT:g}): "
                             "what is not proven by then is left open with its bounds")
    p.set_defaults(time_limit=options.TABLE_TIME_LIMIT)
    p.add_argument("--tt-mb", type=checked(options.tt_mb, int), metavar="M",
                   help="the most MB one search's table grows to (default 1024; each starts "
                        "at 1 and grows while its search needs room)")
    p.add_argument("--threads", type=_threads, metavar="N",
                   help=f"searches at once, each on a thread (the last ones share the threads "
                        f"left), 1 to {MAX_THREADS} (default: every core, here "
                        f"{default_threads()})")
    p.set_defaults(run=run)


class _Told:
    """What a table has proven so far, for the progress bar on a terminal: "12 of 60
    cells proven, 5 s of 120 s" (a table can take minutes; the bar said nothing)."""

    def __init__(self, time_limit: float | None):
        import time

        self.time_limit, self.started, self.clock = time_limit, time.monotonic(), time.monotonic
        self.made: dict = {}

    @staticmethod
    def _key(cell: dict) -> tuple:
        return tuple(str(cell.get(k)) for k in ("seat", "contract", "called", "partner",
                                                "objective", "ecart"))

    def start(self, cells: list) -> None:
        self.started = self.clock()
        self.made = {self._key(c): c["made"] for c in cells}

    def cell(self, cell: dict) -> None:
        self.made[self._key(cell)] = cell["made"]

    def text(self) -> str:
        proven = sum(m is not None for m in self.made.values())
        spent = self.clock() - self.started
        limit = f" of {self.time_limit:g}" if self.time_limit else ""
        if not self.made:
            return f"counting the écarts, {spent:.0f} s{limit}"
        return f"{proven} of {len(self.made)} cells proven, {spent:.0f} s{limit}"


def run(args) -> int:
    from atout.errors import Stopped
    from atout.jsonl import read_records
    from atout.solver.contract_table import contract_table

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _open_input, default_threads
    from .interrupt import EXIT_INTERRUPTED, Searches, count_lines

    searches = Searches("table", "deal", count_lines(args.file))

    def search(position, cancel):
        told = _Told(args.time_limit)
        talk = {}
        if searches.bar is not None:        # a terminal: what is proven so far, as it goes
            talk = {"on_start": told.start, "on_cell": told.cell}
            searches.tick = lambda: searches.bar is not None and searches.bar.set_postfix_str(
                told.text(), refresh=True)
        try:
            return contract_table(position, time_limit=args.time_limit,
                                  threads=args.threads or default_threads(), tt_mb=args.tt_mb,
                                  contracts=args.contracts, values=args.values, cancel=cancel,
                                  **talk)
        except Stopped:
            return None          # Ctrl-C while the écarts were counted: nothing proven yet
        finally:
            searches.tick = None

    def refused(rec, error) -> None:
        """A refused deal: its line on stderr, and with --text the same in words (not
        the JSON error line) on standard output."""
        from .cli import emit_error
        if not args.text:
            emit_error(rec, error)
            return
        print(f"{rec.label}: {error.field}: {error.reason}", file=sys.stderr)
        sys.stdout.write(f"{rec.label}: refused: {error.field}: {error.reason}\n\n")
        sys.stdout.flush()

    with searches, _open_input(args.file) as f:
        for rec, table in searches.answers(_deals(read_records(f, deals=True)), search,
                                           emit_error=refused):
            if table is None:
                print(f"atout: interrupted: {rec.label}: stopped before any cell was asked",
                      file=sys.stderr)
                return EXIT_INTERRUPTED
            print_table(table, args)
            if searches.interrupted:
                proven = sum(c["made"] is not None for c in table["cells"])
                print(f"atout: interrupted: {rec.label}: {proven} of {len(table['cells'])} "
                      f"cells proven", file=sys.stderr)
                return EXIT_INTERRUPTED
    return EXIT_BAD_INPUT if searches.bad else EXIT_OK


def _deals(records):
    """The records, a deal as dealt's handed to the search as its object (the table takes
    it as a position's deal)."""
    from atout.dealt import deal_json
    for rec in records:
        if rec.deal is not None:
            rec.position = deal_json(rec.deal, rec.id)
        yield rec


def print_table(table: dict, args) -> None:
    from .cli import _emit
    if args.text:
        from atout.present.table_text import describe_table
        from atout.present.text import want_ascii
        sys.stdout.write(describe_table(table, ascii=want_ascii(args)) + "\n\n")
        sys.stdout.flush()
    else:
        _emit(table)
