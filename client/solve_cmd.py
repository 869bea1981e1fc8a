"""``atout solve``: JSON Lines positions in, one JSON result line per position out."""

from __future__ import annotations



def add_parser(sub, positive_float, positive_int) -> None:
    from .cli import add_search_options

    p = sub.add_parser("solve", help="solve positions double dummy (JSON Lines in and out)")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    add_search_options(p)
    p.add_argument("--server", metavar="HOST:PORT",
                   help="solve on an `atout serve` there instead of here (the same output)")
    p.set_defaults(run=run)


def run(args) -> int:
    if args.server:
        return run_remote(args)
    from atout.errors import PositionError
    from atout.solver import solve

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _emit, _open_input, emit_error
    from atout.jsonl import read_records

    bad = 0
    with _open_input(args.file) as f:
        for rec in read_records(f):
            if rec.error is not None:
                bad += 1
                emit_error(rec)
                continue
            try:
                result = solve(rec.position, all_cards=args.all_cards, time_limit=args.time_limit,
                               node_limit=args.node_limit, tt_mb=args.tt_mb)
            except MemoryError as e:
                bad += 1
                emit_error(rec, PositionError("tt_mb", str(e) or "out of memory"))
                continue
            except Exception as e:  # a bug must not cost the user the other positions
                bad += 1
                emit_error(rec, PositionError("position", f"internal error ({type(e).__name__}: {e}); "
                                                          "please report this position"))
                continue
            _emit(result.to_json())
    return EXIT_BAD_INPUT if bad else EXIT_OK


#: positions sent per SolveBatch call by ``--server`` (results still print one by one, in order)
REMOTE_CHUNK = 64


def run_remote(args) -> int:
    """``atout solve --server``: the positions are solved by the service, bad lines are
    reported here exactly as locally, and the lines come out in input order."""
    from .cli import EXIT_BAD_INPUT, EXIT_OK, UsageError, _emit, _open_input, emit_error
    from atout.jsonl import read_records
    from .remote import Client, ServiceError

    if args.tt_mb is not None:
        raise UsageError("--tt-mb belongs to the server (atout serve --tt-mb), not to --server")
    bad = 0

    def solve_chunk(client, chunk) -> None:
        valid = [rec for rec in chunk if rec.error is None]
        done: dict = {}
        printed = 0

        def print_ready() -> int:
            k = printed
            while k < len(chunk) and (chunk[k].error is not None or id(chunk[k]) in done):
                rec = chunk[k]
                if rec.error is not None:
                    emit_error(rec)
                else:
                    _emit(done.pop(id(rec)).to_json())
                k += 1
            return k

        printed = print_ready()
        if valid:
            stream = client.solve_batch([rec.position for rec in valid], all_cards=args.all_cards,
                                        time_limit=args.time_limit, node_limit=args.node_limit)
            try:
                for index, result in stream:
                    done[id(valid[index])] = result
                    printed = print_ready()
            except ServiceError as e:
                raise UsageError(f"server {args.server}: {e}") from None

    with Client(args.server) as client, _open_input(args.file) as f:
        chunk: list = []
        for rec in read_records(f):
            bad += rec.error is not None
            chunk.append(rec)
            if len(chunk) - sum(r.error is not None for r in chunk) >= REMOTE_CHUNK:
                solve_chunk(client, chunk)
                chunk = []
        solve_chunk(client, chunk)
    return EXIT_BAD_INPUT if bad else EXIT_OK
