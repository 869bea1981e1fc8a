"""``atout solve``: JSON Lines positions in, one JSON result line per position out."""

from __future__ import annotations

import sys


def add_parser(sub, positive_float, positive_int) -> None:
    from .cli import add_search_options, add_threads_option, server_address

    p = sub.add_parser("solve", help="solve positions double dummy (JSON Lines in and out)")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    add_search_options(p)
    add_threads_option(p)
    p.add_argument("--text", action="store_true",
                   help="the result in words (who makes the contract, the scores, the best cards)")
    p.add_argument("--ascii", action="store_true", help="with --text: suits as letters, no symbols")
    p.add_argument("--server", metavar="HOST:PORT", type=server_address,
                   help="solve on an `atout serve` there instead of here (the same output)")
    remote = p.add_argument_group("with --server")
    remote.add_argument("--tls-ca", metavar="FILE",
                        help="connect over TLS, trusting the server certificate this PEM CA "
                             "signed")
    remote.add_argument("--tls-cert", metavar="FILE",
                        help="this client's PEM certificate, for a server that requires one "
                             "(mutual TLS; with --tls-key)")
    remote.add_argument("--tls-key", metavar="FILE", help="the PEM private key of --tls-cert")
    remote.add_argument("--token-file", metavar="FILE",
                        help="send the token in FILE with every call (authorization: Bearer)")
    p.set_defaults(run=run)


def run(args) -> int:
    if args.server is not None:
        return run_remote(args)
    from .cli import UsageError
    for option in ("tls_ca", "tls_cert", "tls_key", "token_file"):
        if getattr(args, option) is not None:
            raise UsageError(f"--{option.replace('_', '-')} goes with --server")
    from atout.solver import solve

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _open_input, default_threads
    from atout.jsonl import read_records

    from .interrupt import EXIT_INTERRUPTED, Searches, count_lines

    def search(position, cancel):
        return solve(position, all_cards=args.all_cards, time_limit=args.time_limit,
                     node_limit=args.node_limit, tt_mb=args.tt_mb,
                     threads=args.threads or default_threads(), cancel=cancel)

    searches = Searches("solve", "position", count_lines(args.file))
    with searches, _open_input(args.file) as f:
        for rec, result in searches.answers(read_records(f), search):
            print_result(result, args, rec.position)
            if searches.interrupted:
                print(f"atout: interrupted: {stopped_line(rec.label, result)}", file=sys.stderr)
                return EXIT_INTERRUPTED
    return EXIT_BAD_INPUT if searches.bad else EXIT_OK


def result_json(result) -> dict:
    """The result line, with what the search knows so far when it was stopped (the best
    card found so far and per-card bounds, where the search gives them)."""
    obj = result.to_json()
    for extra in ("best_guess", "card_bounds"):
        value = getattr(result, extra, None)
        if value is not None and extra not in obj:
            obj[extra] = value
    return obj


def print_result(result, args, position) -> None:
    """A result as a JSON line, or with ``--text`` in words."""
    from .cli import _emit
    if getattr(args, "text", False):
        from atout.present.text import describe_result, want_ascii
        sys.stdout.write(describe_result(position, result_json(result),
                                         ascii=want_ascii(args)) + "\n")
        sys.stdout.flush()
    else:
        _emit(result_json(result))


def stopped_line(label: str, result) -> str:
    """One line on what a stopped search proved: ``<id>: value between L and H; best card
    so far X``."""
    obj = result_json(result)
    if obj.get("status") == "ok":
        return f"{label}: solved (value {obj['value']}) before it stopped"
    lo, hi = obj.get("bounds") or (None, None)
    text = f"{label}: stopped; value proven between {lo} and {hi}"
    if obj.get("best_guess"):
        guess = obj["best_guess"]
        text += f"; best card so far {' '.join(guess) if isinstance(guess, list) else guess}"
    return text


#: positions sent per SolveBatch call by ``--server`` (results still print one by one, in order)
REMOTE_CHUNK = 64
#: times a batch ended UNAVAILABLE is resumed with the positions it did not answer
RESUMES = 2


def run_remote(args) -> int:
    """``atout solve --server``: the positions are solved by the service, bad lines are
    reported here exactly as locally, and the lines come out in input order."""
    from .cli import EXIT_BAD_INPUT, EXIT_OK, UsageError, _open_input, emit_error
    from atout.jsonl import read_records
    from .remote import Client, ServiceError

    if args.tt_mb is not None:
        raise UsageError("--tt-mb belongs to the server (atout serve --tt-mb), not to --server")
    if (args.tls_cert is None) != (args.tls_key is None):   # named as here, not as Client's
        raise UsageError("--tls-cert and --tls-key go together")
    token = None
    if args.token_file is not None:
        from atout.server.security import SecurityError, load_token
        try:
            token = load_token(args.token_file).decode("ascii")
        except SecurityError as e:
            raise UsageError(str(e)) from None
    try:
        client = Client(args.server, tls_ca=args.tls_ca, client_cert=args.tls_cert,
                        client_key=args.tls_key, token=token)
    except ValueError as e:
        raise UsageError(str(e)) from None
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
                    print_result(done.pop(id(rec)), args, rec.position)
                k += 1
            return k

        printed = print_ready()
        pending, answered = valid, set()
        for attempt in range(1, RESUMES + 2):
            if not pending:
                break
            stream = client.solve_batch([rec.position for rec in pending],
                                        all_cards=args.all_cards, time_limit=args.time_limit,
                                        node_limit=args.node_limit)
            try:
                for index, result in stream:
                    done[id(pending[index])] = result
                    answered.add(id(pending[index]))
                    printed = print_ready()
                break
            except ServiceError as e:
                # UNAVAILABLE after some answers (a search lost with its process, a server
                # restarting): the positions not answered are sent again
                if e.code.name != "UNAVAILABLE" or attempt > RESUMES:
                    raise UsageError(f"server {args.server}: {e}") from None
                pending = [rec for rec in pending if id(rec) not in answered]

    with client, _open_input(args.file) as f:
        chunk: list = []
        for rec in read_records(f):
            bad += rec.error is not None
            chunk.append(rec)
            if len(chunk) - sum(r.error is not None for r in chunk) >= REMOTE_CHUNK:
                solve_chunk(client, chunk)
                chunk = []
        solve_chunk(client, chunk)
    return EXIT_BAD_INPUT if bad else EXIT_OK
