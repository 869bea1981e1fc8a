"""``atout serve``: run the gRPC service (and with ``--http``, the HTTP API and the hand viewer,
on the same search processes) until SIGTERM or Ctrl-C (then drain and exit)."""

from __future__ import annotations


def add_parser(sub, positive_float, positive_int) -> None:
    from .cli import add_tt_mb_option, add_workers_option

    p = sub.add_parser("serve", help="serve the solver over gRPC (atout.v1.Solver)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 or [::] for all)")
    p.add_argument("--port", type=int, default=50051,
                   help="port to listen on (default 50051; 0 picks a free one, shown in the log)")
    p.add_argument("--http", type=int, metavar="PORT",
                   help="also serve the HTTP JSON API and the hand viewer on PORT "
                        "(same host; 0 picks a free one, shown in the log)")
    add_workers_option(p, "search processes, one search each at a time (default: one per core)")
    add_tt_mb_option(p, "transposition table size per search in MB")
    p.add_argument("--grace", type=positive_float, default=30.0, metavar="S",
                   help="on SIGTERM/SIGINT, let running calls finish for up to S seconds (default 30)")
    p.set_defaults(run=run)


def run(args) -> int:
    from .cli import UsageError

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, not {args.port}")
    if args.http is not None and not 0 <= args.http <= 65535:
        raise UsageError(f"--http must be 0..65535, not {args.http}")
    from atout.server.app import run as serve

    return serve(args.host, args.port, args.workers, args.tt_mb, args.grace, http_port=args.http)
