"""``atout play``: bots play whole deals, each card from its own seat's view.

Each input position is a deal as dealt (its contract given; cards already played are
ignored): the bots play it to the end and the finished deal is written as one JSON line,
a played position (docs/format.md) naming the bot of each seat in ``players`` — what
``atout analyze`` reads.  By default every seat is the advice (``atout advise``) from its
own view within ``--time-per-card`` seconds (2) or ``--nodes-per-card`` nodes;
``--seat-budget S=T`` / ``--seat-nodes S=N`` give seat S another budget (bots of two
strengths at one table), ``--perfect S`` puts the double-dummy solver, who sees every
hand, in seat S, and ``--rule S`` a bot playing by a simple rule (the highest card that
wins the trick, else the cheapest).  Ctrl-C or SIGTERM stops at once: the deals finished
are written, the one under way is not (exit 130 / 143).
"""

from __future__ import annotations

import argparse
import sys
import time

#: seconds a card when no budget is given
DEFAULT_TIME_PER_CARD = 2.0
#: the most seats of a game (fr5, priest5)
MOST_SEATS = 5


def add_parser(sub, positive_float, positive_int) -> None:
    from atout import options

    from .cli import add_workers_option, checked

    p = sub.add_parser("play", help="bots play whole deals, each card from its own seat's view "
                                    "(the advice within a budget a card)")
    p.add_argument("file", nargs="?", default="-", help="input file of deals, or - for stdin "
                                                         "(default)")
    p.add_argument("--time-per-card", type=checked(options.time_limit), metavar="T",
                   help=f"seconds for each card of an advice bot (default "
                        f"{DEFAULT_TIME_PER_CARD:g} unless --nodes-per-card is given)")
    p.add_argument("--nodes-per-card", type=checked(options.node_limit, int), metavar="N",
                   help="nodes for each card of a bot instead of (or as well as) seconds: the "
                        "same play on any machine and at any number of workers")
    p.add_argument("--seat-budget", action="append", type=_seat_number(float), default=[],
                   metavar="S=T", help="seat S's bot gets T seconds a card (repeat for more seats)")
    p.add_argument("--seat-nodes", action="append", type=_seat_number(int), default=[],
                   metavar="S=N", help="seat S's bot gets N nodes a card")
    p.add_argument("--perfect", action="append", type=_seat, default=[], metavar="S",
                   help="seat S is the double-dummy solver, which sees every hand (within the "
                        "seat's budget: its best guess where the search does not finish)")
    p.add_argument("--rule", action="append", type=_seat, default=[], metavar="S",
                   help="seat S plays by rule: the highest card that wins the trick so far, "
                        "else the cheapest")
    p.add_argument("--samples", type=checked(options.samples, int), metavar="N",
                   help="the most deals an advice draws for a card (default 100)")
    p.add_argument("--seed", type=checked(options.seed, int), metavar="K",
                   help="seed of the advice's draws (default: a new one, printed): the same "
                        "seed and budgets in nodes play the same cards")
    add_workers_option(p, "searches side by side for each advice (default: every core)")
    p.set_defaults(run=run)


def _seat(text: str) -> int:
    try:
        seat = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seat number: {text!r}") from None
    if not 0 <= seat < MOST_SEATS:
        raise argparse.ArgumentTypeError(f"a seat is 0 to {MOST_SEATS - 1}, not {seat}")
    return seat


def _seat_number(number):
    """An argparse type: ``S=X``, a seat and a positive budget (``number``: float or int)."""
    def parse(text: str) -> tuple:
        seat, eq, value = text.partition("=")
        if not eq:
            raise argparse.ArgumentTypeError(f"must be SEAT=BUDGET, not {text!r}")
        try:
            v = number(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a budget: {value!r}") from None
        if not v > 0:
            raise argparse.ArgumentTypeError("a budget must be greater than 0")
        return _seat(seat), v
    return parse


def bots_for(args, seats: int) -> list:
    """The bot of each seat of a ``seats``-player deal, from the options; a seat named
    that the game does not have raises PositionError."""
    from atout.errors import PositionError
    from atout.solver.advise import DEFAULT_SAMPLES
    from atout.solver.bots import bot_of

    named = [s for s in args.perfect + args.rule] + [s for s, _ in args.seat_budget + args.seat_nodes]
    for s in named:
        if s >= seats:
            raise PositionError("seat", f"this game has seats 0 to {seats - 1}, not {s}")
    both = set(args.perfect) & set(args.rule)
    if both:
        raise PositionError("seat", f"seat {min(both)} cannot be both --perfect and --rule")
    time_per_card = args.time_per_card
    if time_per_card is None and args.nodes_per_card is None:
        time_per_card = DEFAULT_TIME_PER_CARD
    times, nodes = dict(args.seat_budget), dict(args.seat_nodes)
    bots = []
    for seat in range(seats):
        kind = "perfect" if seat in args.perfect else "rule" if seat in args.rule else "advice"
        t = times.get(seat, time_per_card if seat not in nodes else None)
        n = nodes.get(seat, args.nodes_per_card if seat not in times else None)
        bots.append(bot_of(kind, time_limit=t, node_limit=n,
                           samples=args.samples or DEFAULT_SAMPLES, workers=args.workers))
    return bots


def run(args) -> int:
    import random

    from atout.errors import PositionError
    from atout.jsonl import read_records
    from atout.solver.play import Stopped, play_deal

    from .cli import EXIT_BAD_INPUT, EXIT_OK, _emit, _open_input, emit_error
    from .interrupt import EXIT_INTERRUPTED, Searches

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 32)
    if args.seed is None:
        print(f"atout play: seed {seed}", file=sys.stderr)
    finished = bad = 0
    searches = Searches("play", "card", None)
    with searches, _open_input(args.file) as f:
        for number, rec in enumerate(read_records(f)):
            if rec.error is not None:
                bad += 1
                emit_error(rec)
                continue
            try:
                bots = bots_for(args, rec.position.seats)
            except PositionError as e:
                bad += 1
                emit_error(rec, e)
                continue
            started = time.perf_counter()
            try:
                played = searches.run(play_deal, rec.position, bots, seed=seed, number=number,
                                      on_card=lambda pos, choice: searches.step())
            except Stopped as e:
                print(f"atout: interrupted: {finished} deal{'s' if finished != 1 else ''} "
                      f"finished and written; {rec.label} stopped after {e.cards} cards "
                      f"(not written)", file=sys.stderr)
                return EXIT_INTERRUPTED
            except PositionError as e:
                bad += 1
                emit_error(rec, e)
                continue
            _emit(played.to_json())
            finished += 1
            out = played.position.outcome()
            if searches.bar is None:
                print(f"atout play: {rec.label}: finished in {time.perf_counter() - started:.1f} s, "
                      f"value {out['value']}", file=sys.stderr)
            if searches.interrupted:
                return EXIT_INTERRUPTED
    return EXIT_BAD_INPUT if bad else EXIT_OK
