"""``atout analyze``: every card of played deals against double-dummy play.

Human output is a trick-by-trick table per deal; ``--json`` gives one object per deal
(see :func:`atout.solver.analyze.analyze`).  Each deal has a time limit (60 s unless
``--time-limit`` says otherwise) within which every card gets its verdict: exact where
solved, else the bounds proven (the table shows ranges).  A bad deal is a line on stderr
(``<id>: <field>: <reason>``); the other deals go on and the exit status is 1.
"""

from __future__ import annotations

import sys

from atout.verdict import Verdict

#: seconds per deal unless --time-limit says otherwise


def add_parser(sub, positive_float, positive_int) -> None:
    from atout import options

    from .cli import (add_threads_option, add_time_limit_option, add_tt_mb_option,
                      add_workers_option, checked, whole_number)

    p = sub.add_parser("analyze", help="analyse played deals card by card, double dummy")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("--json", action="store_true", help="one JSON object per deal")
    p.add_argument("--ascii", action="store_true", help="table: suits as letters, no symbols")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--start", type=whole_number(0), metavar="N",
                       help="take the first N played cards as given; analyse from card N")
    where.add_argument("--last-tricks", type=positive_int, metavar="K",
                       help="analyse only the last K tricks of the deal")
    add_time_limit_option(p, f"seconds for each deal (default {options.ANALYSIS_TIME_LIMIT:g}): every card "
                             "is judged, exactly where solved in time, else by proven bounds")
    p.set_defaults(time_limit=options.ANALYSIS_TIME_LIMIT)
    add_tt_mb_option(p)
    add_threads_option(p)
    sd = p.add_argument_group("single dummy", "each card judged also from its player's view: "
                                              "deals it could not tell apart, drawn and solved "
                                              "(as atout advise)")
    sd.add_argument("--single-dummy", action="store_true",
                    help="add each card's cost against the single-dummy best card, from the "
                         "last card back (the time limit covers both: at most half of it for "
                         "the double-dummy values)")
    sd.add_argument("--samples", type=checked(options.samples, int), metavar="N",
                    help=f"deals drawn for each card, 1 to {options.MAX_SAMPLES} (default 100)")
    sd.add_argument("--seed", type=checked(options.seed, int), metavar="K",
                    help="seed of the draws (card i draws with K + i; default: a new one, "
                         "printed)")
    add_workers_option(sd, "searches side by side for the draws (default: every core)")
    p.set_defaults(run=run)


def run(args) -> int:
    from atout import options
    from atout.errors import PositionError
    from atout.solver.analyze import analyze

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _open_input, default_threads
    from atout.jsonl import read_records

    from .interrupt import EXIT_INTERRUPTED, Searches, count_lines

    if not args.single_dummy and (args.samples or args.seed is not None or args.workers):
        from .cli import UsageError
        raise UsageError("--samples, --seed and --workers go with --single-dummy")
    run_one = analyze
    sd_options = {}
    if args.single_dummy:
        import random

        from atout.solver.advise import DEFAULT_SAMPLES
        from atout.solver.single_dummy import analyze_single_dummy
        run_one = analyze_single_dummy
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 32)
        sd_options = {"samples": args.samples or DEFAULT_SAMPLES, "seed": seed,
                   "workers": args.workers}
    from atout.runner.batch import is_terminal

    # on a terminal the verdicts are drawn as they are found (client/live.py), in place of
    # the progress bar; the single-dummy analysis has no such stream
    live_view = is_terminal(sys.stderr) and not args.single_dummy
    bad = 0
    first = True
    searches = Searches("analyze", "deal", count_lines(args.file), bar=not live_view)
    with searches, _open_input(args.file) as f:
        for rec in read_records(f):
            error = rec.error
            report = None
            if error is None:
                pos = rec.position
                try:
                    start = options.start(_start(args, pos), len(pos.played))
                except PositionError as e:
                    error = e
                else:
                    live = _live(args, rec, start) if live_view else None
                    more = {"on_update": live.update} if live is not None else {}
                    searches.tick = live.refresh if live is not None else None
                    try:
                        report = searches.run(run_one, pos, start=start,
                                              time_limit=args.time_limit, tt_mb=args.tt_mb,
                                              threads=args.threads or default_threads(),
                                              **sd_options, **more)
                    except MemoryError as e:  # a table this machine cannot give now
                        error = PositionError("tt_mb", str(e) or "out of memory")
                    finally:
                        if live is not None:
                            live.close()
                            searches.tick = None
                    if error is None:
                        if searches.interrupted:
                            # every card judged so far: exact where solved, else bounded
                            searches.close()
                            _print_report(args, rec, report, first)
                            print(f"atout: {rec.label}: interrupted; {_exact_count(report)}",
                                  file=sys.stderr)
                            return EXIT_INTERRUPTED
            searches.step()
            if error is not None:
                bad += 1
                print(f"{rec.label}: {error.field}: {error.reason}", file=sys.stderr)
                sys.stderr.flush()
                continue
            _print_report(args, rec, report, first)
            first = False
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _live(args, rec, start: int):
    """The live view of one deal's verdicts on standard error (client/live.py)."""
    from atout.cards import token
    from atout.printable import printable
    from atout.present.text import want_ascii
    from atout.present.words import card_text

    from .live import LiveVerdicts
    pos = rec.position
    ascii = want_ascii(args)
    plays = [(i, card_text(token(c), ascii)) for i, c in enumerate(pos.played) if i >= start]
    return LiveVerdicts(sys.stderr, printable(rec.label, ascii), plays, pos.seats,
                        args.time_limit, ascii)


def _print_report(args, rec, report: dict, first: bool) -> None:
    from atout.present.text import want_ascii

    from .cli import _emit
    if args.json:
        _emit(report)
        return
    if not first:
        sys.stdout.write("\n")
    sys.stdout.write(render(rec.position, report, rec.label, ascii=want_ascii(args)))
    sys.stdout.flush()


def _exact_count(report: dict) -> str:
    plays = report["plays"]
    if not plays:       # a deal with no card played from the start
        return "no card to judge" + (", the value bounded" if report["start_value"] is None
                                     else "")
    text = verdict_counts(plays)
    if "single_dummy" in report:
        judged = sum(p.get("single_dummy") is not None for p in plays)
        text += f"; {judged} judged from their player's view"
    return text


def _sd_cost(sd, dot: str, pm: str = "±") -> str:
    """A card's single-dummy cost with its standard error, ``dot`` when nothing was lost,
    ``-`` when not judged."""
    if sd is None:
        return "-"
    if sd["cost"] is None:
        return "?"
    if sd["cost"] == 0:
        return dot
    se = f" {pm}{sd['se']:.1f}" if sd.get("se") is not None else ""
    return f"{sd['cost']:.1f}{se}"


def _sd_header(report: dict, plays: list) -> list[str]:
    """The lines saying how the cards were judged from their player's view, and how many."""
    sd = report["single_dummy"]
    lines = [f"single dummy: each card also against the best card from its player's view "
             f"({sd.get('samples')} deals drawn per card, seed {sd.get('seed')}; "
             f"sd cost ± its standard error)"]
    judged = sum(p.get("single_dummy") is not None for p in plays)
    if judged < len(plays):
        why = "Ctrl-C" if sd.get("stopped_by") == "cancel" else "the time limit"
        last = " (the last ones)" if judged else ""
        lines.append(f"{judged} of {len(plays)} cards judged from their player's view{last}; "
                     f"{why} left the others not judged (-)")
    return lines


def _start(args, pos) -> int:
    if args.start is not None:
        return args.start
    if args.last_tricks is not None:
        start = max(0, pos.rules.hand_size - args.last_tricks) * pos.seats
        return min(start, len(pos.played))
    return 0


# -- the human table --------------------------------------------------------------------------

def render(pos, report: dict, label: str, ascii: bool = False) -> str:
    """A readable trick-by-trick table of one analysis.  Cards are numbered as ``--start``
    and the JSON's ``index`` number them: from 0, in the order played.  A value or cost
    not solved shows as its proven range (``-474…-330``); then a column says whether the
    contract is made after each card, and decisive cards are marked (an exact table leaves
    both out: its values say it, and it stays as it always was)."""
    from atout.cards import card as card_id
    from atout.position import Position
    from atout.printable import printable
    from atout.scoring import made_threshold
    from atout.present.text import contract_text, roles, value_meaning
    from atout.present.words import card_text, cards_text

    seats = pos.seats
    role = roles(pos)
    lines = []
    plays = report["plays"]
    start = plays[0]["index"] if plays else len(pos.played)
    dots = ".." if ascii else "…"
    bounded = any(p["cost"] is None or p["value_before"] is None or p["value_after"] is None
                  for p in plays) or report["start_value"] is None
    # whether the contract is made, where an exact value does not say it (not Trischaken)
    contract = bounded and made_threshold(pos.contract, pos.hands) is not None

    def value(v, bounds) -> str:
        return str(v) if v is not None else f"{bounds[0]}{dots}{bounds[1]}"

    lines.append(f"{printable(label, ascii)}: {contract_text(pos, ascii)}")
    lines.append(f"value: {value_meaning(pos, ascii)}")
    start_text = value(report["start_value"], report.get("start_bounds"))
    if report["start_value"] is None:
        start_text = f"between {report['start_bounds'][0]} and {report['start_bounds'][1]}"
    lines.append(f"double-dummy value before card {start} (trick {start // seats + 1}): "
                 f"{start_text}{_made_words(report.get('made'), contract)}")
    why = ("Ctrl-C" if report.get("stopped_by") == "cancel" else "the time limit")
    if not plays:
        # no card played from the start (a deal not begun, --start at its last card): what
        # is known is the value there, said above; no tables of cards without cards
        lines.append(f"no card played from card {start}: none to judge"
                     + (f"; {why} left the value a proven range" if bounded else ""))
        lines.append("")
        lines += _result_lines(pos, report, start, start_text, contract, ascii)
        return _finish(lines, ascii)
    if bounded:
        lines.append(verdict_counts(plays) + f"; {why} left the rest not judged")
    unknown = sum(p["best"] is None for p in plays)
    if unknown:
        lines.append(f"best there \"?\": {why} left the best cards unproven "
                     f"({unknown} of {len(plays)} cards)")
    lines.append("")
    values = [value(p["value_after"], p.get("bounds_after")) for p in plays]
    costs = [cost_text(p, ascii) for p in plays]
    vw = max([6] + [len(v) for v in values])
    cw = max([5] + [len(c) for c in costs])
    width = max(len(r) for r in role) + 2
    single = "single_dummy" in report
    if single:
        lines += _sd_header(report, plays)
    head = (f"{'trick':>5}  {'card':>4}  {'seat':<{width}} {'plays':>5}  {'value':>{vw}}  "
            f"{'cost':>{cw}}  " + (f"{'sd cost':>12}  " if single else ""))
    if bounded:
        lines.append(f"cost: {'.' if ascii else '·'} one of the best cards, N what the card cost, "
                     f"{'>=' if ascii else '≥'}N a mistake of at least N (proven), "
                     f"L{dots}H not judged (its cost lies in that range)")
    lines.append(head + (f"{'contract':<8}  " if contract else "") + "best there"
                 + ("  (single dummy)" if single else ""))

    # Replay to know who won each trick.
    replay = Position(pos.game, pos.hands, pos.first, pos.contract, pos.id)
    for c in pos.played[:start]:
        replay.play(c)
    for p, v, cost in zip(plays, values, costs):
        trick_no = p["index"] // seats
        in_trick = len(replay.trick)
        replay.play(card_id(p["card"]))
        head = f"{trick_no + 1:>5}" if (in_trick == 0 or p is plays[0]) else " " * 5
        who = f"{p['seat']} {role[p['seat']]}"
        best = cards_text(p["best"], ascii) if p["best"] is not None else "?"
        if len(best) > 48:
            best = best[:45] + "..."
        verdict = Verdict.of_play(p)
        mistake = verdict.is_mistake
        mark = ("  X" if ascii else "  ✗") if mistake else ""
        if contract and verdict.decisive:
            # with the contract column (where an exact value does not say it already): an
            # exact table stays as it always was
            mark += " decisive" if mistake else "  decisive"
        made = f"{_MADE[p.get('made_after')]:<8}  " if contract else ""
        sd_text = sd_best = ""
        if single:
            sd = p.get("single_dummy")
            sd_text = f"{_sd_cost(sd, '.' if ascii else '·', '+-' if ascii else '±'):>12}  "
            if sd is not None:
                sd_best = "  (" + cards_text(sd["best"], ascii) + ")"
                if len(sd_best) > 30:
                    sd_best = sd_best[:27] + "...)"
        lines.append(f"{head}  {p['index']:>4}  {who:<{width}} {card_text(p['card'], ascii):>5}  "
                     f"{v:>{vw}}  {cost:>{cw}}  {sd_text}{made}{best}{mark}{sd_best}")
        if not replay.trick and replay.tricks:
            lines.append(f"{'':>5}  won by seat {replay.tricks[-1].winner}")

    at_least = ">=" if ascii else "≥"
    seat_costs = [str(s["cost"]) if s["cost"] is not None else f"{at_least}{s['at_least']}"
                  for s in report["seats"]]
    sw = max([5] + [len(c) for c in seat_costs])
    judged = any(s["cost"] is None for s in report["seats"])
    lines.append("")
    lines.append(f"{'seat':>4}  {'role':<{width}} {'cards':>5}  {'mistakes':>8}  {'cost':>{sw}}"
                 + ("  not judged" if judged else "")
                 + (f"  {'sd mistakes':>11}  {'sd cost':>8}" if single else ""))
    for s, cost in zip(report["seats"], seat_costs):
        lines.append(f"{s['seat']:>4}  {role[s['seat']]:<{width}} {s['cards']:>5}  "
                     f"{s['mistakes']:>8}  {cost:>{sw}}"
                     + (f"  {s.get('not_judged', 0):>10}" if judged else "")
                     + (f"  {s.get('sd_mistakes', 0):>11}  {s.get('sd_cost', 0):>8.1f}"
                        if single else ""))
    if judged:
        lines.append("")
        lines += [seat_words(s, role[s["seat"]]) for s in report["seats"]]
    lines.append("")
    lines += _result_lines(pos, report, start, start_text, contract, ascii)
    return _finish(lines, ascii)


def cost_text(play: dict, ascii: bool = False) -> str:
    """A card's verdict in the table's cost column (atout.verdict): ``·`` one of the best
    cards, ``N`` its exact cost, ``≥N`` a proven mistake of at least N, ``L…H`` not judged
    (the range its cost lies in)."""
    return Verdict.of_play(play).mark(ascii, open_range=True)


def verdict_counts(plays: list[dict]) -> str:
    """The verdicts of a deal's cards in a line: how many best, mistakes, decisive, not
    judged."""
    return Verdict.tally([Verdict.of_play(p) for p in plays])


def seat_words(seat: dict, role: str) -> str:
    """What a seat is proven to have given away, in words."""
    if not seat["mistakes"]:
        gave = "no mistake" + (" proven" if seat["cost"] is None else "")
    elif seat["cost"] is not None:
        gave = f"gave away {seat['cost']} in {_n(seat['mistakes'], 'mistake')}"
    else:
        gave = (f"gave away at least {seat['at_least']} in "
                f"{_n(seat['mistakes'], 'proven mistake')}")
    return (f"seat {seat['seat']} ({role}): {gave}; "
            f"{_n(seat.get('not_judged', 0), 'card')} not judged")


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _finish(lines: list[str], ascii: bool) -> str:
    text = "\n".join(lines) + "\n"
    return text.replace("—", "-").replace("é", "e").replace("±", "+-") if ascii else text


def _result_lines(pos, report: dict, start: int, start_text: str, contract: bool,
                  ascii: bool = False) -> list[str]:
    """The table's last lines: the result against double dummy where the deal is finished,
    else the value now (the start's where no card was analysed)."""
    from atout.present.text import outcome_text
    out = report["outcome"]
    if out is not None and report["start_value"] is not None:
        diff = out["value"] - report["start_value"]
        verdict = ("as double dummy" if diff == 0 else
                   f"{abs(diff)} {'more' if diff > 0 else 'less'} than double dummy")
        return [f"result: {out['value']}; double dummy before card {start}: "
                f"{report['start_value']} ({verdict})", *outcome_text(pos, out, ascii)]
    if out is not None:
        return [f"result: {out['value']}; double dummy before card {start}: {start_text}"
                f"{_made_words(report.get('made'), contract)}", *outcome_text(pos, out, ascii)]
    now = start_text          # no card analysed: the value now is the start's
    if report["plays"]:
        last = report["plays"][-1]
        now = last["value_after"]
        if now is None:
            now = "between {} and {}".format(*last["bounds_after"])
    return [f"deal not finished: double-dummy value now {now}; before card {start} "
            f"{start_text}"]


#: the contract column: made / down / not proven
_MADE = {True: "made", False: "down", None: "open"}


def _made_words(made, contract: bool) -> str:
    """What the header says of the contract, where some value is bounded (an exact value
    says it already)."""
    if not contract:
        return ""
    return {True: "; the contract is made", False: "; the contract goes down",
            None: "; made or not: open"}.get(made, "")
