"""``atout import``: deal files of other programs as positions, one JSON line each.

    atout import deal_result_2024-03-14.json custom.json > deals.jsonl
    atout import --called KH five-players.json          # a five-player deal's called king

Today's one format is TarotClub's (:mod:`atout.tarotclub`): a played deal becomes a
finished position (the hands from the tricks, the écart, the dog as turned up, poignées,
an announced slam), a custom deal a deal as dealt (no contract yet: ``atout table``,
``show`` and ``export`` take it).  Each FILE holds one deal (as TarotClub writes them) or
one deal a line (as ``atout export`` prints them).  A file that breaks the format or the
rules is one line on stderr, ``<file>: <field>: <reason>``, and the other files go on; the
exit status is then 1.
"""

from __future__ import annotations

#: a TarotClub deal file is about a kilobyte; a file far larger is not one
MAX_FILE_BYTES = 4 << 20


def add_parser(sub, positive_float, positive_int) -> None:
    p = sub.add_parser("import", help="deal files of TarotClub as positions (JSON Lines)")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="TarotClub deal files (played deals, custom deals); - for stdin")
    p.add_argument("--format", choices=("tarotclub",), default="tarotclub",
                   help="the files' format (default and only one today: tarotclub)")
    p.add_argument("--called", metavar="CARD", type=_called,
                   help="the called card of five-player deals whose file does not name it "
                        "(TarotClub's files do not keep it), e.g. KH")
    p.set_defaults(run=run)


def _called(text: str) -> str:
    import argparse

    from atout.cards import card, token
    try:
        return token(card(text.upper()))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def run(args) -> int:
    import sys

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _emit

    bad = 0
    for path in args.files:
        for label, obj_or_error in deals_of(path, args.called):
            if isinstance(obj_or_error, Exception):
                bad += 1
                print(f"{label}: {obj_or_error.field}: {obj_or_error.reason}", file=sys.stderr)
            else:
                _emit(obj_or_error)
    return EXIT_BAD_INPUT if bad else EXIT_OK


def deals_of(path: str, called: str | None):
    """``(label, position or PositionError)`` for each deal of the file at ``path``."""
    import sys
    from pathlib import Path

    from atout import tarotclub
    from atout.errors import PositionError
    from atout.printable import printable

    from .cli import UsageError

    if path == "-":
        if sys.stdin is None:
            raise UsageError("cannot read standard input: it is closed")
        data, name, stem = sys.stdin.buffer.read(MAX_FILE_BYTES + 1), "stdin", "stdin"
    else:
        name, stem = printable(path), Path(path).stem
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_FILE_BYTES + 1)
        except OSError as e:
            yield name, PositionError("file", f"cannot be read: {e.strerror}")
            return
    if len(data) > MAX_FILE_BYTES:
        yield name, PositionError("file", f"is larger than {MAX_FILE_BYTES >> 20} MB: not a "
                                          "TarotClub deal file")
        return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        yield name, PositionError("file", "is not UTF-8 text")
        return
    for number, item in tarotclub.read_text(text, stem, called):
        yield (name if number is None else f"{name}: line {number}"), item
