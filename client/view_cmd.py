"""``atout view [FILE]``: the hand viewer on a local server (HTTP only, 127.0.0.1 by default).

Prints the address of the page (and opens it in a browser on a desktop), then serves
until Ctrl-C.  FILE (JSON Lines, or one JSON position or list) gives the deals the page
offers first (its refused lines are named here and on the page); the page can also open a
file, take a pasted position or a share link that carries the deal (atout/present/link.py).
"""

from __future__ import annotations

import os
import sys


def add_parser(sub, positive_float, positive_int) -> None:
    from .cli import add_tt_mb_option, add_workers_option, host_name

    p = sub.add_parser("view", help="see deals and their double-dummy analysis in a browser")
    p.add_argument("file", nargs="?", help="positions to show (JSON Lines or JSON)")
    p.add_argument("--port", type=int, default=8765,
                   help="port of the page (default 8765; 0 picks a free one)")
    p.add_argument("--host", type=host_name, default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only)")
    add_workers_option(p, "search processes (default: one per core)")
    add_tt_mb_option(p, "transposition table size per search in MB")
    p.add_argument("--no-open", action="store_true", help="do not open a browser")
    p.set_defaults(run=run)


def _desktop() -> bool:
    return sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args) -> int:
    from .cli import UsageError

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, not {args.port}")
    deals, problems = [], []
    if args.file is not None:
        from atout.server.deal_file import load_deals
        try:
            deals, problems = load_deals(args.file)
        except OSError as e:
            raise UsageError(f"cannot read {args.file}: {e.strerror}") from None
        for problem in problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        if not deals:
            raise UsageError(f"{args.file}: no valid position to show")

    def started(server) -> None:
        # the refused lines on the page too, not only on this terminal
        server.http.api.refused = [f"{p}" for p in problems]
        server.http.api.deals_file = os.path.basename(args.file) if args.file else None
        url = server.http.url + ("#deal=0" if deals else "")
        print(f"atout view: {url}  (Ctrl-C to stop)", flush=True)
        if _desktop() and not args.no_open:
            import webbrowser
            webbrowser.open(url)

    import logging

    from atout.server.app import run as serve
    return serve(args.host, None, args.workers, args.tt_mb, 2.0, http_port=args.port,
                 deals=deals, on_started=started, log_level=logging.WARNING,
                 prog="atout view")
