"""``atout serve``: run the gRPC service (and with ``--http``, the HTTP API and the hand viewer,
on the same search processes) until SIGTERM or Ctrl-C (then drain and exit).

Facing a network: ``--tls-cert``/``--tls-key`` (and ``--tls-client-ca`` for mutual TLS),
``--token-file``, and the limits on what one request may ask (``--max-…``)."""

from __future__ import annotations


def add_parser(sub, positive_float, positive_int) -> None:
    from atout import options

    from .cli import add_tt_mb_option, add_workers_option, checked, host_name

    p = sub.add_parser("serve", help="serve the solver over gRPC (atout.v1.Solver)")
    p.add_argument("--host", type=host_name, default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 or [::] for all: "
                        "then use TLS and a token)")
    p.add_argument("--port", type=int, default=50051,
                   help="port to listen on (default 50051; 0 picks a free one, shown in the log)")
    p.add_argument("--http", type=int, metavar="PORT",
                   help="also serve the HTTP JSON API and the hand viewer on PORT "
                        "(same host; 0 picks a free one, shown in the log)")
    add_workers_option(p, "search processes, one search each at a time (default: one per core)")
    add_tt_mb_option(p, "transposition table size per search in MB")
    p.add_argument("--grace", type=positive_float, default=30.0, metavar="S",
                   help="on SIGTERM/SIGINT, let running calls finish for up to S seconds (default 30)")

    tls = p.add_argument_group("TLS and a token (both front ends)")
    tls.add_argument("--tls-cert", metavar="FILE",
                     help="serve over TLS with this PEM certificate (chain); needs --tls-key")
    tls.add_argument("--tls-key", metavar="FILE", help="the PEM private key of --tls-cert")
    tls.add_argument("--tls-client-ca", metavar="FILE",
                     help="require client certificates signed by this PEM CA (mutual TLS)")
    tls.add_argument("--token-file", metavar="FILE",
                     help="every call must carry 'authorization: Bearer <the file's token>' "
                          "(gRPC: UNAUTHENTICATED, HTTP: 401 otherwise; health checks stay open)")

    from atout.server import limits as bounds
    limits = p.add_argument_group(
        "limits per request", "what one call may ask, each bounded by default; a call past a "
        "limit on room (queue, calls per peer) is refused at once with RESOURCE_EXHAUSTED "
        "(HTTP 429)")
    limits.add_argument("--max-time-limit", type=checked(options.time_limit), metavar="S",
                        default=options.MAX_TIME_LIMIT,
                        help="the longest search: a request asking more, or no limit, gets S "
                             f"(default {options.MAX_TIME_LIMIT:g})")
    limits.add_argument("--max-positions", type=positive_int, metavar="N",
                        default=bounds.DEFAULT_MAX_POSITIONS,
                        help="positions in one batch call; more is INVALID_ARGUMENT "
                             f"(default {bounds.DEFAULT_MAX_POSITIONS})")
    limits.add_argument("--max-samples", type=checked(options.samples, int), metavar="N",
                        default=bounds.DEFAULT_MAX_SAMPLES,
                        help="deals drawn for one advice; more is INVALID_ARGUMENT "
                             f"(default {bounds.DEFAULT_MAX_SAMPLES})")
    limits.add_argument("--max-tt-mb", type=checked(options.tt_mb, int), metavar="M",
                        help="the largest table of one search: default sizes above M are "
                             "lowered to M, and tables then do not grow (default: 4096, "
                             "what a default table may grow to)")
    limits.add_argument("--max-calls-per-peer", type=positive_int, metavar="N",
                        help="calls one client address may have running at once, gRPC and "
                             "HTTP together (default: no bound)")
    limits.add_argument("--max-queue", type=whole_queue, metavar="N",
                        default=bounds.DEFAULT_MAX_QUEUE,
                        help="searches that may wait for a search process; more are refused "
                             f"at once (default {bounds.DEFAULT_MAX_QUEUE}; 0: none wait)")

    links = p.add_argument_group(
        "connections (each port)", "what a client holds before and between its calls")
    links.add_argument("--max-connections", type=positive_int, metavar="N",
                       default=bounds.DEFAULT_MAX_CONNECTIONS,
                       help="open connections on each port; more are closed at once "
                            f"(default {bounds.DEFAULT_MAX_CONNECTIONS}, lowered to fit the "
                            "open-file limit, which is raised as far as the system allows)")
    links.add_argument("--header-timeout", type=connection_seconds, metavar="S",
                       default=bounds.DEFAULT_HEADER_TIMEOUT,
                       help="seconds for a TLS handshake and for an HTTP request's head (gRPC: "
                            "the handshake and the HTTP/2 preface) "
                            f"(default {bounds.DEFAULT_HEADER_TIMEOUT:g})")
    links.add_argument("--body-timeout", type=connection_seconds, metavar="S",
                       default=bounds.DEFAULT_BODY_TIMEOUT,
                       help="seconds for an HTTP request's body (408 past them) "
                            f"(default {bounds.DEFAULT_BODY_TIMEOUT:g})")
    links.add_argument("--idle-timeout", type=connection_seconds, metavar="S",
                       default=bounds.DEFAULT_IDLE_TIMEOUT,
                       help="close a connection with no call for S seconds (gRPC clients "
                            f"reconnect by themselves) (default {bounds.DEFAULT_IDLE_TIMEOUT:g})")
    links.add_argument("--keepalive", type=connection_seconds, metavar="S",
                       default=bounds.DEFAULT_KEEPALIVE,
                       help="gRPC: ping a quiet connection every S seconds, and drop it if "
                            f"the ping is not answered within {bounds.KEEPALIVE_TIMEOUT:g} s "
                            f"(default {bounds.DEFAULT_KEEPALIVE:g})")
    p.set_defaults(run=run)


#: the longest of the connection timeouts: gRPC takes them in milliseconds as a C int
MAX_CONNECTION_SECONDS = (2 ** 31 - 1) // 1000          # 24 days
#: the shortest: a millisecond (gRPC's unit; less was 0 ms, a ping on every tick)
MIN_CONNECTION_SECONDS = 0.001


def connection_seconds(text: str) -> float:
    """An argparse type: a connection's timeout or keep-alive in seconds, finite and within
    what gRPC can take (infinity or 1e300 ended `atout serve` in an OverflowError)."""
    import argparse
    import math

    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(v) and MIN_CONNECTION_SECONDS <= v <= MAX_CONNECTION_SECONDS):
        raise argparse.ArgumentTypeError(f"must be a number of seconds from "
                                         f"{MIN_CONNECTION_SECONDS:g} to {MAX_CONNECTION_SECONDS}")
    return v


def whole_queue(text: str) -> int:
    from .cli import whole_number
    return whole_number(0)(text)


def run(args) -> int:
    from .cli import UsageError

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, not {args.port}")
    if args.http is not None and not 0 <= args.http <= 65535:
        raise UsageError(f"--http must be 0..65535, not {args.http}")
    if args.tt_mb is not None and args.max_tt_mb is not None and args.tt_mb > args.max_tt_mb:
        raise UsageError(f"--tt-mb {args.tt_mb} is more than --max-tt-mb {args.max_tt_mb}")
    from atout.server.limits import Limits
    from atout.server.security import SecurityError, load_tls, load_token

    try:
        tls = load_tls(args.tls_cert, args.tls_key, args.tls_client_ca)
        token = load_token(args.token_file)
    except SecurityError as e:
        raise UsageError(str(e)) from None
    limits = Limits(max_time_limit=args.max_time_limit, max_positions=args.max_positions,
                    max_samples=args.max_samples, max_tt_mb=args.max_tt_mb,
                    max_calls_per_peer=args.max_calls_per_peer, max_queue=args.max_queue,
                    max_connections=args.max_connections, header_timeout=args.header_timeout,
                    body_timeout=args.body_timeout, idle_timeout=args.idle_timeout,
                    keepalive=args.keepalive)
    from atout.server.app import run as serve

    return serve(args.host, args.port, args.workers, args.tt_mb, args.grace, http_port=args.http,
                 limits=limits, tls=tls, token=token)
