"""``atout advise``: the best card from what the seat to play could know, by sampling.

One JSON line per position (``--text``: in words): for each legal card of the seat to
play, over deals drawn among those the seat cannot tell from the true one and solved
double dummy, its mean value, standard error, how often it was optimal, how often the
contract was made after it, the mean loss against each draw's best card, and against
the recommended card over the same draws with the probability that it is better; the
recommended card and how sure it is (see :func:`atout.solver.advise.advise` and
docs/single-dummy.md).  Drawing stops once that card is ahead with ``--confidence``.
A bad position, or one where the seat asked for is not to play, is an error line (as in
``atout solve``) and exit status 1.
"""

from __future__ import annotations

import sys


def add_parser(sub, positive_float, positive_int) -> None:
    from atout import options

    from .cli import (add_time_limit_option, add_tt_mb_option, add_workers_option, checked,
                      whole_number)

    p = sub.add_parser("advise", help="the best card from what the seat to play could know "
                                      "(sampled deals, each solved double dummy)")
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("--seat", type=whole_number(0), metavar="S",
                   help="the seat advised; it must be the seat to play (default: the seat to play)")
    p.add_argument("--samples", type=checked(options.samples, int), metavar="N",
                   help=f"the most deals to draw and solve, 1 to {options.MAX_SAMPLES} "
                        f"(default 100; fewer once --confidence is reached)")
    p.add_argument("--confidence", type=checked(options.confidence, float), metavar="C",
                   help="stop drawing once the recommended card is ahead of every other with "
                        "this confidence, 0.5 to 1: a chance of at most 1 - C of stopping on a "
                        "card that is not the best, however many draws (default 0.95; 1: draw "
                        "every sample)")
    p.add_argument("--seed", type=checked(options.seed, int), metavar="K",
                   help="seed of the draws: the same seed, the same deals (default: a new one, "
                        "printed in the result)")
    add_time_limit_option(p, "advise each position within S seconds: a budget, each draw "
                             "searched for what the decision needs and capped so that many fit "
                             "(the cards out of contention within proven bounds: low..high)")
    p.add_argument("--node-limit", type=checked(options.node_limit, int), metavar="N",
                   help="a budget of N nodes for each position's advice instead of (or as well "
                        "as) seconds: the same advice on any machine and at any number of "
                        "workers")
    p.add_argument("--no-budget", action="store_true",
                   help="with --time-limit: solve each draw whole, the limit only stopping the "
                        "draws under way (the advice before budgets)")
    add_workers_option(p, "searches side by side, one per core (default: every core)")
    add_tt_mb_option(p, "transposition table of each search in MB")
    p.add_argument("--text", action="store_true", help="the advice in words")
    p.add_argument("--ascii", action="store_true", help="with --text: suits as letters, no symbols")
    p.set_defaults(run=run)


def run(args) -> int:
    from atout.jsonl import read_records
    from atout.solver.advise import DEFAULT_CONFIDENCE, DEFAULT_SAMPLES, advise

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _emit, _open_input
    from .interrupt import EXIT_INTERRUPTED, Searches, count_lines

    def search(position, cancel):
        confidence = DEFAULT_CONFIDENCE if args.confidence is None else args.confidence
        return advise(position, seat=args.seat, samples=args.samples or DEFAULT_SAMPLES,
                      seed=args.seed, confidence=confidence, time_limit=args.time_limit,
                      workers=args.workers, tt_mb=args.tt_mb, cancel=cancel,
                      node_limit=args.node_limit, budget=False if args.no_budget else None)

    searches = Searches("advise", "position", count_lines(args.file))
    with searches, _open_input(args.file) as f:
        for rec, advice in searches.answers(read_records(f), search):
            obj = advice.to_json()
            if args.text:
                from atout.present.text import want_ascii
                sys.stdout.write(render(rec.position, obj, ascii=want_ascii(args)) + "\n")
                sys.stdout.flush()
            else:
                _emit(obj)
            if searches.interrupted:
                print(f"atout: interrupted: {rec.label}: {obj['solved']} of {obj['samples']} "
                      f"draws solved", file=sys.stderr)
                return EXIT_INTERRUPTED
    return EXIT_BAD_INPUT if searches.bad else EXIT_OK


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.0f} %"


def _num(x) -> str:
    return "-" if x is None else f"{x:.1f}"


def render(pos, advice: dict, ascii: bool = False) -> str:
    """The advice in words: who is advised, from how many draws, the recommended card and
    a table of every card."""
    from atout.knowledge import seat_knowledge
    from atout.present.text import contract_text, roles, value_meaning
    from atout.present.words import card_text, cards_text

    from atout.printable import printable

    label = printable(str(advice["id"])) if advice.get("id") is not None else "(no id)"
    seat = advice["seat"]
    role = roles(pos)[seat]
    want = "high" if advice["maximizing"] else "low"
    called = pos.contract.called
    # the seat's own view: who holds the called card only once it can know
    partner_known = called is None or called not in seat_knowledge(pos, seat).hidden
    counted = advice["solved"] + advice["limited"]
    deals = advice["deals"]
    lines = [f"{label}: {contract_text(pos, ascii, partner_known)}",
             f"seat {seat} ({role}) to play, from what it can see: {counted} deals drawn "
             f"(seed {advice['seed']}, at most {advice['samples']}) among {deals:,} it cannot "
             f"tell apart",
             f"value: {value_meaning(pos, ascii)}; seat {seat} wants it {want}"]
    if advice.get("decided") == "one card":
        choice = ("one legal card" if len(advice["cards"]) == 1 else
                  "its legal cards are worth the same in every deal it cannot tell apart")
        lines[1] = f"seat {seat} ({role}) to play: {choice}, nothing to weigh"
    elif advice.get("decided") == "confidence":
        lines.append(f"stopped drawing after {counted}: the card is ahead of every other with "
                     f"{_pct(advice['certainty'])} certainty (asked {_pct(advice['confidence'])})")
    if advice["status"] != "ok":
        why = {"time": "the time limit", "cancel": "Ctrl-C",
               "nodes": "the node budget"}.get(advice.get("stopped_by"), "a limit")
        lines.append(f"stopped by {why}: {advice['solved']} draws solved, {advice['limited']} "
                     f"more counted by their proven bounds (low..high), "
                     f"{advice['samples'] - counted} not begun")
    if advice.get("budget") is not None:
        cap = advice["budget"]["draw_nodes"]
        lines.append(f"budgeted: each draw searched for the cards in contention, the others "
                     f"bounded (low..high), at most {cap:,} nodes a draw"
                     + (f"; {advice['capped']} draws stopped by that cap" if advice.get("capped") else ""))
    if advice["recommended"] is not None:
        top = advice["cards"][0]
        text = f"play {cards_text(advice['best'], ascii, pos.game)}"
        if top.get("mean") is not None:
            se = f" ± {top['se']:.1f}" if top.get("se") is not None else ""
            text += (f": mean {top['mean']:.1f}{se}, optimal in {_pct(top['optimal'])} of the "
                     f"draws")
            if top.get("made") is not None:
                text += f", contract made in {_pct(top['made'])}"
            if advice.get("certainty") is not None and advice.get("decided") != "confidence":
                text += f"; {_pct(advice['certainty'])} sure no other card is better"
        elif "low" in top:
            solved = "over the draws" if advice["solved"] else "no draw was solved"
            text += f" (by its proven bounds {top['low']:.1f}..{top['high']:.1f}: {solved})"
        # (else one choice: nothing was drawn, the card is the whole answer)
        lines.append(text)
        if advice.get("value") is not None:
            lines.append(f"with every card seen (double dummy) the draws are worth "
                         f"{advice['value']:.1f} on average")
    groups = [row["equivalent"] for row in advice["cards"]
              if row.get("equivalent") and row["card"] == row["equivalent"][0]]
    if groups and advice.get("decided") != "one card":
        lines.append("worth the same in every deal it cannot tell apart (one choice each): "
                     + "; ".join(cards_text(g, ascii, pos.game) for g in groups))
    lines.append("")
    limited = any("low" in row for row in advice["cards"])
    head = (f"{'card':>5}  {'mean':>7}  {'± se':>6}  {'optimal':>7}  {'made':>5}  {'loss':>6}  "
            f"{'behind':>6}  {'± se':>6}  {'better':>6}  {'draws':>5}")
    lines.append(head + ("  low..high" if limited else ""))
    for row in advice["cards"]:
        better = "-" if row.get("p_better") is None else f"{100 * row['p_better']:.1f} %"
        made_text = _pct(row['made'])
        if row.get("made") is None and row.get("made_low") is not None:
            made_text = f"{100 * row['made_low']:.0f}-{100 * row['made_high']:.0f}%"
        behind = _num(row.get("behind"))
        if row.get("behind") is None and row.get("behind_low") is not None:
            behind = f">={row['behind_low']:.1f}"
        line = (f"{card_text(row['card'], ascii):>5}  {_num(row['mean']):>7}  {_num(row['se']):>6}  "
                f"{_pct(row['optimal']):>7}  {made_text:>5}  {_num(row['loss']):>6}  "
                f"{behind:>6}  {_num(row.get('behind_se')):>6}  {better:>6}  "
                f"{row.get('draws', 0):>5}")
        if "low" in row:
            line += f"  {row['low']:.1f}..{row['high']:.1f}"
        lines.append(line)
    text = "\n".join(lines)
    return text.replace("±", "+-").replace("é", "e").replace("—", "-") if ascii else text
