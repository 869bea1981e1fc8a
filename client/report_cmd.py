"""``atout report OUT.jsonl -o report.html``: a session's analyses as one page a club can read.

OUT is what ``atout batch --analyze`` wrote (see :mod:`atout.present.report` for what the page
shows).  The page is self-contained: it opens offline in any browser, a phone's too.  A
line of OUT that is not an analysis is said on stderr (``OUT: line N: field: reason``) and
left out; the exit status is then 1.  No analysis at all, or a page that cannot be written:
one line on stderr, exit status 2, nothing written.
"""

from __future__ import annotations

import sys


def add_parser(sub, positive_float, positive_int) -> None:
    from atout.present.report import DEFAULT_VIEWER

    p = sub.add_parser("report", help="a session's analyses (atout batch --analyze) as one "
                                      "HTML page")
    p.add_argument("file", metavar="OUT.jsonl",
                   help="the results of atout batch --analyze, or - for stdin")
    p.add_argument("-o", "--output", required=True, metavar="PAGE",
                   help="the HTML page to write (replaced whole), or - for stdout")
    p.add_argument("--title", default="Session analysis", help="the page's title")
    p.add_argument("--viewer", default=DEFAULT_VIEWER, metavar="URL",
                   help=f"the viewer the deals' links open (default {DEFAULT_VIEWER}, where "
                        f"atout view serves)")
    p.add_argument("--tables", metavar="TABLES.jsonl",
                   help="the results of atout batch --table for these deals: each board's "
                        "contract table and par, and each play's bidding verdict")
    p.set_defaults(run=run)


def run(args) -> int:
    from atout.printable import printable
    from atout.present.report import ReportError, page, read_analyses, write_page

    from .cli import EXIT_BAD_INPUT, EXIT_OK, UsageError, _open_input

    if not args.viewer.startswith(("http://", "https://")):
        raise UsageError(f"--viewer must be an http:// or https:// address, not {args.viewer!r}")
    with _open_input(args.file) as f:
        try:
            session = read_analyses(f)
        except ReportError as e:
            raise UsageError(f"{args.file}: {e}") from None
    for problem in session.problems:
        print(f"{printable(args.file)}: {problem}", file=sys.stderr)
    tables = None
    if args.tables is not None:
        from atout.present.report_tables import read_tables
        if args.tables == "-" and args.file == "-":
            raise UsageError("--tables and the analyses cannot both come from standard input")
        with _open_input(args.tables) as f:
            tables = read_tables(f)
        for problem in tables.problems:
            print(f"{printable(args.tables)}: {problem}", file=sys.stderr)
    text = page(session, title=args.title, viewer=args.viewer,
                source=None if args.file == "-" else args.file, tables=tables)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            write_page(args.output, text)
        except OSError as e:
            raise UsageError(f"cannot write {args.output}: {e.strerror or e}") from None
        if sys.stderr is not None:
            print(f"report: {len(session.deals)} deals, {len(session.failed)} not analysed "
                  f"-> {args.output}", file=sys.stderr)
    return EXIT_BAD_INPUT if session.problems or (tables and tables.problems) else EXIT_OK
