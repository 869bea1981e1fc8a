"""``atout analyze``: every card of played deals against double-dummy play.

Human output is a trick-by-trick table per deal; ``--json`` gives one object per deal
(see :func:`atout.solver.analyze.analyze`).  A bad deal, or one the time limit stops,
is a line on stderr (``<id>: <field>: <reason>``); the other deals go on and the exit
status is 1.
"""

from __future__ import annotations

import sys


def add_parser(sub, positive_float, positive_int) -> None:
    from .cli import whole_number

    p = sub.add_parser("analyze", help="analyse played deals card by card, double dummy")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("--json", action="store_true", help="one JSON object per deal")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--start", type=whole_number(0), metavar="N",
                       help="take the first N played cards as given; analyse from card N")
    where.add_argument("--last-tricks", type=positive_int, metavar="K",
                       help="analyse only the last K tricks of the deal")
    p.add_argument("--time-limit", type=positive_float, metavar="S",
                   help="give up a deal after S seconds (a line on stderr, exit status 1)")
    p.add_argument("--tt-mb", type=positive_int, metavar="M",
                   help="transposition table size in MB (default 256)")
    p.set_defaults(run=run)


def run(args) -> int:
    from atout.errors import PositionError
    from atout.solver.analyze import AnalysisLimit, analyze

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _emit, _open_input
    from atout.jsonl import read_records

    bad = 0
    first = True
    with _open_input(args.file) as f:
        for rec in read_records(f):
            error = rec.error
            report = None
            if error is None:
                pos = rec.position
                start = _start(args, pos)
                if start > len(pos.played):
                    error = PositionError("played", f"--start {start} is past the "
                                                    f"{len(pos.played)} cards played")
                else:
                    try:
                        report = analyze(pos, start=start, time_limit=args.time_limit,
                                         tt_mb=args.tt_mb)
                    except AnalysisLimit as e:
                        error = PositionError("time_limit", str(e))
            if error is not None:
                bad += 1
                print(f"{rec.label}: {error.field}: {error.reason}", file=sys.stderr)
                sys.stderr.flush()
                continue
            if args.json:
                _emit(report)
            else:
                if not first:
                    sys.stdout.write("\n")
                sys.stdout.write(render(rec.position, report, rec.label))
                sys.stdout.flush()
                first = False
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _start(args, pos) -> int:
    if args.start is not None:
        return args.start
    if args.last_tricks is not None:
        start = max(0, pos.rules.hand_size - args.last_tricks) * pos.seats
        return min(start, len(pos.played))
    return 0


# -- the human table --------------------------------------------------------------------------

_DECLARER = {"fr3": "taker", "fr4": "taker", "fr5": "taker", "priest5": "caller", "at4": "declarer"}


def _roles(pos) -> list[str]:
    con = pos.contract
    if con.bid == "trischaken":
        return ["analysed" if s == con.declarer else "other" for s in range(pos.seats)]
    out = []
    for s in range(pos.seats):
        if s == con.declarer:
            out.append(_DECLARER.get(pos.game, "declarer"))
        elif con.camp[s] == con.camp[con.declarer]:
            out.append("partner")
        else:
            out.append("defence")
    return out


def _contract_line(pos) -> str:
    con = pos.contract
    if con.bid == "trischaken":
        return f"{pos.game} trischaken, seat {con.declarer} analysed (minimises)"
    bid = con.bid if con.bid else "game"
    return f"{pos.game} {bid}, {_DECLARER.get(pos.game, 'declarer')} seat {con.declarer}"


def render(pos, report: dict, label: str) -> str:
    """A readable trick-by-trick table of one analysis."""
    from atout.cards import card as card_id
    from atout.position import Position

    seats = pos.seats
    roles = _roles(pos)
    lines = []
    plays = report["plays"]
    start = plays[0]["index"] if plays else len(pos.played)
    lines.append(f"{label}: {_contract_line(pos)}")
    side = ("the taker's camp" if pos.game.startswith("fr") else
            "the analysed seat" if pos.contract.bid == "trischaken" else "the declarer's camp")
    sense = "minimises" if pos.contract.bid == "trischaken" else "maximises"
    lines.append(f"double-dummy value at card {start + 1} (trick {start // seats + 1}): "
                 f"{report['start_value']}  ({side} {sense} it)")
    lines.append("")
    lines.append(f"{'trick':>5}  {'seat':<12} {'card':>4}  {'value':>6}  {'cost':>5}  optimal there")

    # Replay to know who won each trick.
    replay = Position(pos.game, pos.hands, pos.first, pos.contract, pos.id)
    for c in pos.played[:start]:
        replay.play(c)
    for p in plays:
        trick_no = p["index"] // seats
        in_trick = len(replay.trick)
        replay.play(card_id(p["card"]))
        head = f"{trick_no + 1:>5}" if (in_trick == 0 or p is plays[0]) else " " * 5
        who = f"{p['seat']} {roles[p['seat']]}"
        cost = f"{p['cost']:>5}" if p["cost"] else f"{'·':>5}"
        best = " ".join(p["best"])
        if len(best) > 48:
            best = best[:47] + "…"
        mark = "" if p["cost"] == 0 else "  ✗"
        lines.append(f"{head}  {who:<12} {p['card']:>4}  {p['value_after']:>6}  {cost}  {best}{mark}")
        if not replay.trick and replay.tricks:
            lines.append(f"{'':>5}  won by seat {replay.tricks[-1].winner}")

    lines.append("")
    lines.append(f"{'seat':>4}  {'role':<9} {'cards':>5}  {'mistakes':>8}  {'cost':>5}")
    for s in report["seats"]:
        lines.append(f"{s['seat']:>4}  {roles[s['seat']]:<9} {s['cards']:>5}  {s['mistakes']:>8}  "
                     f"{s['cost']:>5}")
    lines.append("")
    out = report["outcome"]
    if out is not None:
        diff = out["value"] - report["start_value"]
        verdict = ("as double dummy" if diff == 0 else
                   f"{abs(diff)} {'more' if diff > 0 else 'less'} than double dummy")
        lines.append(f"result: {out['value']}{_made(out)}; double dummy at the "
                     f"start: {report['start_value']} — {verdict}")
    else:
        now = plays[-1]["value_after"] if plays else report["start_value"]
        lines.append(f"deal not finished: double-dummy value now {now}; at the start "
                     f"{report['start_value']}")
    return "\n".join(lines) + "\n"


def _made(out: dict) -> str:
    if "made" not in out:
        return ""
    return " (made)" if out["made"] else " (went down)"
