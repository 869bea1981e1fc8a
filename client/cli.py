"""The ``atout`` command line.

    atout validate [FILE|-]     check positions; bad ones on stderr, exit 1 if any
    atout show [FILE|-]         positions as a player reads them
    atout deal [--game G] ...   random valid deals and endgames
    atout score [FILE|-]        outcome and scores of finished deals, one JSON line each
    atout solve [FILE|-] ...    double-dummy results, one JSON line each
    atout serve [--port P] ...  the gRPC service (atout.v1.Solver)
    atout analyze [FILE|-] ...  every card of played deals against double-dummy play
    atout advise [FILE|-] ...   the best card from what the seat to play could know
    atout play [FILE|-] ...     bots play whole deals, each card from its own seat's view
    atout table [FILE|-] ...    the double-dummy contract table of each deal, and its par
    atout batch IN -o OUT ...   solve a puzzle set (or analyse played deals) on every core
    atout report OUT -o PAGE    a session's analyses as one HTML page
    atout import FILE...        TarotClub's deal files as positions
    atout export [FILE|-] ...   positions as TarotClub's deal files

Every command reads JSON Lines (docs/format.md) from FILE or standard input.  A user never
sees a traceback: bad input is a line on stderr naming the field, and the exit
status says whether anything was wrong.
"""

from __future__ import annotations

import argparse
import errno
import os
import importlib
import signal
import sys
from contextlib import contextmanager
from typing import BinaryIO, Iterator

from atout import options
from atout.errors import PositionError
from atout.jsonl import read_records
from atout.printable import printable

from .output import emit, emit_error  # noqa: F401 (the commands import them from here)

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2

#: the command modules of this package, in the order ``atout --help`` lists them; each has
#: ``add_parser(subparsers, positive_float, positive_int)`` (a new command: one line here)
COMMANDS = (
    "show_cmd",
    "solve_cmd",
    "analyze_cmd",
    "advise_cmd",
    "play_cmd",
    "table_cmd",
    "batch_cmd",
    "report_cmd",
    "deal_cmd",
    "import_cmd",
    "export_cmd",
    "serve_cmd",
    "view_cmd",
)


class UsageError(Exception):
    """A problem with the command itself (unreadable file, bad option value)."""


class OutputError(OSError):
    """Standard output cannot be written (a full disk, a closed stream): the run stops.  An
    OSError, as what it stands for (argparse's --help ignores those)."""


class _Output:
    """Standard output (``None`` where the process has none), whose failures to write are
    an :class:`OutputError`: told apart from the other OSErrors of a run.  A reader gone
    (BrokenPipeError) stays itself: it stops the run quietly."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return self._do("write", text)

    def flush(self) -> None:
        self._do("flush")

    def _do(self, name: str, *args):
        if self.stream is None:
            raise OutputError(errno.EBADF, "it is closed")
        try:
            return getattr(self.stream, name)(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(e.errno, e.strerror or str(e)) from None

    def __getattr__(self, name: str):   # encoding, isatty, fileno...: the stream's own
        return getattr(self.stream, name)


@contextmanager
def _open_input(path: str) -> Iterator[BinaryIO]:
    if path == "-":
        from atout.runner.batch import is_terminal
        if sys.stdin is None:       # started with stdin closed (`<&-`)
            raise UsageError("cannot read standard input: it is closed")
        if is_terminal(sys.stdin):
            print("atout: reading positions from the terminal, one JSON object per line "
                  "(Ctrl-D to end); or give a FILE", file=sys.stderr)
        yield sys.stdin.buffer
        return
    try:
        f = open(path, "rb")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    with f:
        yield f


# the commands' output lines (client/output.py), named here as the commands import them
_emit = emit


def default_threads() -> int:
    """Every core this process may run on: what one solve or analysis uses by default."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


# the most threads one search takes (atout.solver.MAX_THREADS; written out here so that
# building the parser does not load the search)
MAX_THREADS = 256


# what every --tt-mb says of its default (atout.solver.TT_MB_BY_CARDS; written out here so
# that building the parser does not load the search)
TT_MB_DEFAULT = ("(default by the cards left to play: 16, 64 from 44, 256 from 48, 4096 from 56, "
                 "growing up to 4096 while a search needs room; a given size stays fixed)")


def add_threads_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threads", type=_threads, metavar="N",
                   help=f"threads for each search, 1 to {MAX_THREADS} (default: every core, "
                        f"here {default_threads()})")


def _threads(text: str) -> int:
    n = _positive_int(text)
    if n > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"at most {MAX_THREADS} threads")
    return n


def checked(check, number=float):
    """An argparse type: ``number(text)`` passed through one of atout.options' checks, the
    same check as the HTTP API's and the gRPC service's (so the same reason)."""
    def parse(text: str):
        try:
            value = number(text)
        except ValueError:
            kind = "a whole number" if number is int else "a number"
            raise argparse.ArgumentTypeError(f"not {kind}: {text!r}") from None
        try:
            return check(value)
        except PositionError as e:
            raise argparse.ArgumentTypeError(e.reason) from None
    return parse


def add_time_limit_option(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--time-limit", type=checked(options.time_limit), metavar="S", help=help)


def add_tt_mb_option(p: argparse.ArgumentParser, help: str = "transposition table size in MB") -> None:
    p.add_argument("--tt-mb", type=checked(options.tt_mb, int), metavar="M",
                   help=f"{help} {TT_MB_DEFAULT}")


def add_search_options(p: argparse.ArgumentParser, table_help: str = "") -> None:
    """The options every solving command shares."""
    p.add_argument("--all", action="store_true", dest="all_cards",
                   help="also give the value of every legal card")
    add_time_limit_option(p, "stop each search after S seconds (status limit, with bounds)")
    p.add_argument("--node-limit", type=checked(options.node_limit, int), metavar="N",
                   help="stop each search after N nodes (status limit, with bounds)")
    add_tt_mb_option(p, f"transposition table size in MB{table_help}")


def cmd_validate(args) -> int:
    bad = checked = 0
    with _open_input(args.file) as f:
        for rec in read_records(f, deals=True):    # a deal as dealt is checked as one
            checked += 1
            if rec.error is not None:
                bad += 1
                print(f"{rec.label}: {rec.error.field}: {rec.error.reason}", file=sys.stderr)
    print(f"{checked} position{'s' if checked != 1 else ''} checked, {bad} bad")
    return EXIT_BAD_INPUT if bad else EXIT_OK


def cmd_score(args) -> int:
    bad = 0
    with _open_input(args.file) as f:
        for rec in read_records(f):
            if rec.error is None and not rec.position.is_finished:
                rec.error = PositionError("played", f"the deal is not finished "
                                                    f"({len(rec.position.played)} cards played)")
            if rec.error is not None:
                bad += 1
                emit_error(rec)
                continue
            _emit({"id": rec.id, "status": "ok", "outcome": rec.position.outcome()})
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not v > 0:
        raise argparse.ArgumentTypeError("must be greater than 0")
    return v


def whole_number(minimum: int, maximum: int | None = None):
    """An argparse type: a whole number of at least ``minimum`` (and at most ``maximum``)."""
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more")
        if maximum is not None and v > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum}")
        return v
    return parse


def server_address(text: str) -> str:
    """An argparse type: ``HOST:PORT`` (``[IPv6]:PORT`` too) with a port of 1 to 65535,
    checked here: gRPC would take an empty target, and a port past 65535 wraps."""
    host, colon, port = text.rpartition(":")
    if not colon or not host.strip("[] ") or not (port.isascii() and port.isdigit()):
        raise argparse.ArgumentTypeError(f"must be HOST:PORT, not {text!r}")
    if not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be 1 to 65535, not {port}")
    return text


def host_name(text: str) -> str:
    """An argparse type: the address a server listens on, a name or an IP address.  An
    empty one is refused here: `atout view` took it as every interface and printed the
    address http://:PORT/, `atout serve` failed with no reason."""
    if not text or not text.isprintable() or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"must be a host name or an IP address, not {text!r}")
    return text


def add_workers_option(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--workers", type=whole_number(1, options.MAX_WORKERS), metavar="N",
                   help=f"{help} (at most {options.MAX_WORKERS})")


_positive_int = whole_number(1)


def build_parser() -> argparse.ArgumentParser:
    from atout import __version__

    parser = argparse.ArgumentParser(prog="atout", description="Double-dummy solver for tarot games.")
    parser.add_argument("--version", action="version", version=f"atout {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("validate", help="check positions (JSON Lines); bad ones are listed on stderr")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("score", help="outcome and scores of finished deals")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.set_defaults(run=cmd_score)

    for name in COMMANDS:
        importlib.import_module(f".{name}", __package__).add_parser(sub, _positive_float,
                                                                    _positive_int)
    return parser


def _never_fail_to_print() -> None:
    """What cannot be encoded on stdout/stderr (a non-ASCII id on an ASCII terminal) is
    written as a backslash escape instead of ending the run (atout.printable escapes the
    rest: control characters)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):
            pass


def main(argv: list[str] | None = None) -> int:
    from .interrupt import EXIT_INTERRUPTED, exit_status, stop_on_sigterm

    if sys.stderr is None:      # started with stderr closed: nowhere to say anything
        sys.stderr = open(os.devnull, "w")
    _never_fail_to_print()
    previous = stop_on_sigterm()        # SIGTERM stops a command as Ctrl-C does (exit 143)
    stdout = sys.stdout
    try:
        parser = build_parser()         # (it imports every command: Ctrl-C may come now)
        args = parser.parse_args(argv)
        sys.stdout = _Output(stdout)
        status = exit_status(args.run(args))
        sys.stdout.flush()      # a file's last block: written here, where a failure is told
        return status
    except UsageError as e:   # it may quote what the user typed: escaped (atout.printable)
        print(f"atout: {printable(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("atout: interrupted", file=sys.stderr)
        return exit_status(EXIT_INTERRUPTED)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        _drop_output()
        return EXIT_OK
    except OutputError as e:
        print(f"atout: cannot write standard output: {e.strerror}", file=sys.stderr)
        _drop_output()
        return EXIT_USAGE
    finally:
        if isinstance(sys.stdout, _Output):
            sys.stdout = stdout
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _drop_output() -> None:
    """Standard output to /dev/null: what is left in its buffer is not written again (at
    exit, as an error)."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


if __name__ == "__main__":
    # `python -m atout.client.cli`: run the imported module's main, whose UsageError is the
    # one the commands raise (this file run as __main__ has a UsageError class of its own)
    from atout.client.cli import main as imported_main
    sys.exit(imported_main())
