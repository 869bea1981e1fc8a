"""``atout show``: positions as a player reads them.

The contract and the roles, every hand by seat with suit symbols, highest card first,
what lies outside the hands (dog, écart, open cards, talon), the tricks so far with their
winners, and the points and bouts won.  ``--ascii`` (automatic when standard output cannot
print ♠♥♦♣) writes suits as letters.

``--link URL`` reads the position from a viewer's share link instead (atout/present/link.py: the
deal is in the link): the table the link shows, at its card, its what-if line played.
``--svg OUT`` draws each position as a picture (atout/present/picture.py, as the viewer's "Save
image"), ``--values`` with its double-dummy value and each legal card's cost;
``--make-link`` prints each position's viewer link; ``--json`` the positions as JSON lines.
A deal as dealt (docs/format.md: no contract yet) is shown as its hands and the cards
outside them.  ``--card K`` shows each position after its first K cards played (as a link's ``card=``);
without it a picture of a finished deal is drawn before its first card, not at its end
(where no hand holds a card), and stderr says so.
"""

from __future__ import annotations

import json
import sys

DEFAULT_BASE = "http://127.0.0.1:8765/"


def add_parser(sub, positive_float, positive_int) -> None:
    from atout import options

    from .cli import checked

    p = sub.add_parser("show", help="print positions as a player reads them")
    p.add_argument("file", nargs="?", default=None, help="input file, or - for stdin (default)")
    p.add_argument("--ascii", action="store_true", help="suits as letters (S H D C), no symbols")
    p.add_argument("--link", metavar="URL",
                   help="the position of a viewer link (…#d=…), at the card it shows")
    p.add_argument("--json", action="store_true",
                   help="print the positions as JSON lines (with --link: the one it shows)")
    p.add_argument("--svg", metavar="OUT",
                   help="draw each position as an SVG picture: OUT (one position; - for "
                        "standard output), or OUT-1.svg, OUT-2.svg, … for several")
    p.add_argument("--values", action="store_true",
                   help="with --svg: solve each position and show its double-dummy value and "
                        "each legal card's cost")
    p.add_argument("--time-limit", type=checked(options.time_limit),
                   default=options.SEARCH_TIME_LIMIT, metavar="S",
                   help=f"with --values: seconds per search (default "
                        f"{options.SEARCH_TIME_LIMIT:g}; a search stopped by it shows the "
                        "bounds it proved)")
    p.add_argument("--card", type=checked(_card_count, int), metavar="K",
                   help="show each position after its first K cards played, 0 before the "
                        "first (as a viewer link's card=; default: as given, and a finished "
                        "deal's picture before its first card)")
    p.add_argument("--make-link", nargs="?", const=DEFAULT_BASE, metavar="BASE",
                   help=f"print each position's viewer link (BASE: the viewer's address, "
                        f"default {DEFAULT_BASE})")
    p.set_defaults(run=run)


def _card_count(value: int) -> int:
    from atout.errors import PositionError
    if value < 0:
        raise PositionError("card", "must be 0 or more (the cards played before the table shown)")
    return value


def _at_card(label, obj, pos, link, args):
    """The position at the card ``--card`` asks (a link: along its line), or for a picture
    of a finished deal before its first card; (obj, pos), or None when the position has
    fewer cards (said on stderr)."""
    from atout.dealt import Dealt
    from atout.position import parse_position

    if isinstance(pos, Dealt):
        return obj, pos                              # (no card played: --card is moot)
    line = link["line"] if link is not None else obj["played"]
    k = args.card
    if k is None:
        if not (args.svg and pos.is_finished()):
            return obj, pos
        k = 0
        print(f"{label}: the deal is finished: drawn before its first card "
              f"(--card K draws it after card K)", file=sys.stderr)
    if k > len(line):
        print(f"{label}: card: {k} asked, only {len(line)} played", file=sys.stderr)
        return None
    obj = {**obj, "played": line[:k]}
    return obj, parse_position(obj)


def _records(args):
    """(label, position object, Position) for each good position, counting the bad ones
    (said on stderr) in ``bad[0]``; with --link the one position of the link."""
    from atout.dealt import deal_json
    from atout.errors import PositionError
    from atout.jsonl import read_records
    from atout.position import parse_position

    from .cli import _open_input

    if args.link is not None:
        from atout.present.link import read_link

        link = read_link(args.link)        # LinkError / PositionError: the caller says it
        shown = link["line"] if link["card"] is None else link["line"][:link["card"]]
        obj = {**link["position"], "played": shown}
        yield "link", obj, parse_position(obj), link
        return
    with _open_input(args.file or "-") as f:
        for rec in read_records(f, deals=True):
            if rec.error is None and rec.deal is not None and (args.svg or args.make_link):
                rec.error = PositionError("contract", "is missing: a deal as dealt is drawn and "
                                                      "linked once it has a contract")
            if rec.error is not None:
                print(f"{rec.label}: {rec.error.field}: {rec.error.reason}", file=sys.stderr)
                yield rec.label, None, None, None
                continue
            if rec.deal is not None:                 # a deal as dealt: no position to play
                yield rec.label, deal_json(rec.deal, rec.id), rec.deal, None
                continue
            yield rec.label, rec.position.to_json(), rec.position, None


def _link_note(link: dict, ascii: bool, game: str) -> str:
    """What the link shows besides the deal, in words."""
    from atout.present.words import cards_text

    parts = []
    if link["whatif"]:
        parts.append(f"a what-if line from card {link['from'] + 1}: "
                     + cards_text(link["whatif"], ascii, game))
    if link["card"] is not None:
        parts.append(f"shown after card {link['card']}" if link["card"] else "shown before the first card")
    if link["seat"] is not None:
        parts.append(f"from seat {link['seat']}'s view")
    return ("Link: " + "; ".join(parts) + ".") if parts else ""


def _values(obj: dict, time_limit: float) -> dict:
    """The double-dummy result the picture shows (exact, or the bounds proved in time).
    The search runs where Ctrl-C and SIGTERM stop it (atout.client.interrupt): in this
    thread they waited for its end, the time limit."""
    from atout.solver import solve

    from .interrupt import Searches

    with Searches("show", "position", bar=False) as searches:
        r = searches.run(solve, obj, all_cards=True, time_limit=time_limit)
    if searches.interrupted:
        raise KeyboardInterrupt         # main says it: no picture, exit 130 (143 for SIGTERM)
    if r.status == "ok":
        return {"status": "ok", "value": r.value, "cards": r.cards}
    return {"status": "limit", "bounds": list(r.bounds)}


def _svg_path(out: str, n: int, many: bool) -> str:
    stem = out[:-4] if out.lower().endswith(".svg") else out
    return f"{stem}-{n}.svg" if many else f"{stem}.svg"


def run(args) -> int:
    from atout.errors import PositionError
    from atout.present.text import describe_deal, describe_position, want_ascii

    from .cli import EXIT_BAD_INPUT, EXIT_OK, UsageError

    if args.link is not None and args.file is not None:
        raise UsageError("give a FILE or --link URL, not both")
    if args.values and not args.svg:
        raise UsageError("--values goes with --svg")
    ascii = want_ascii(args)
    records = _records(args)
    try:
        records = list(records)
    except PositionError as e:         # a link that holds no good deal
        print(f"link: {e.field}: {e.reason}", file=sys.stderr)
        return EXIT_BAD_INPUT
    good = []
    for label, obj, pos, link in records:
        if obj is not None:
            chosen = _at_card(label, obj, pos, link, args)
            if chosen is not None:
                if link is not None and args.card is not None:
                    # the link's note speaks of the card shown, and of its what-if if reached
                    reached = link["whatif"] and args.card > link["from"]
                    link = {**link, "card": args.card, "whatif": link["whatif"] if reached else []}
                good.append((label, *chosen, link))
    bad = len(records) - len(good)
    if args.svg == "-" and len(good) > 1:
        raise UsageError("--svg - writes one picture: the input holds several positions")
    first = True
    for n, (label, obj, pos, link) in enumerate(good, 1):
        if args.svg:
            _write_svg(args, obj, pos, link, n, len(good) > 1)
            continue
        if args.json:
            print(json.dumps(obj, ensure_ascii=True))
            continue
        if args.make_link:
            from atout.present.link import make_link
            print(make_link(args.make_link, obj))
            continue
        text = describe_deal(pos, obj.get("id"), ascii) if "contract" not in obj else describe_position(pos, ascii)
        if link is not None and _link_note(link, ascii, pos.game):
            text += "\n" + _link_note(link, ascii, pos.game)
        sys.stdout.write(("" if first else "\n") + text + "\n")
        sys.stdout.flush()
        first = False
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _write_svg(args, obj, pos, link, n: int, many: bool) -> None:
    from atout.present import picture
    from atout.present.view import shown

    from .cli import UsageError

    seat = link["seat"] if link is not None else None
    view = shown(pos, seat)
    values = _values(obj, args.time_limit) if args.values and seat is None else None
    text = picture.svg(view, values)
    if args.svg == "-":
        sys.stdout.write(text)
        return
    path = _svg_path(args.svg, n, many)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror}") from None
    print(path, file=sys.stderr)
