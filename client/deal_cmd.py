"""``atout deal``: random valid deals as JSON Lines — a way to make a puzzle set.

    atout deal --game fr4 --count 10 --seed 7                 # ten fresh four-player deals
    atout deal --game at4 --bid solorufer --tricks-left 4     # an endgame, 4 tricks to go

Deals follow the rules of their game (see :mod:`atout.deal`); with ``--tricks-left N``
random legal cards are played until N tricks remain (``--partial``: and some cards of the
next trick lie on the table).  The same seed gives the same deals.
"""

from __future__ import annotations


def add_parser(sub, positive_float, positive_int) -> None:
    from atout.deal import GAMES

    from .cli import whole_number

    p = sub.add_parser("deal", help="random valid deals (JSON Lines), for every game and contract")
    p.add_argument("--game", choices=GAMES, action="append",
                   help="the game (repeat for several; default: every game in turn)")
    p.add_argument("--bid", metavar="BID",
                   help="the contract's bid (fr: prise, garde, garde_sans, garde_contre; "
                        "at4: solorufer, trischaken, …; default: random)")
    p.add_argument("--count", type=positive_int, default=1, metavar="N",
                   help="how many deals (default 1)")
    p.add_argument("--seed", metavar="S", type=_seed, help="random seed (any text; default: random)")
    p.add_argument("--tricks-left", type=whole_number(0), metavar="N",
                   help="play random legal cards until N tricks are left (default: none played)")
    p.add_argument("--partial", action="store_true",
                   help="with --tricks-left: some cards of the next trick are on the table too")
    p.set_defaults(run=run)


def _seed(text: str) -> str:
    # the seed goes into every id: text that is not Unicode (bytes the locale cannot
    # decode) is refused, as in an id (docs/format.md, "Text and numbers")
    import argparse

    from atout.printable import lone_surrogate
    if lone_surrogate(text):
        raise argparse.ArgumentTypeError("must be text in this terminal's encoding")
    return text


def run(args) -> int:
    import random
    import secrets

    from atout.deal import BIDS, GAMES, random_endgame, random_position
    from atout.games import HAND_SIZE

    from .cli import EXIT_OK, UsageError, _emit

    games = args.game or list(GAMES)
    if args.bid is not None:
        for g in games:
            if args.bid not in BIDS[g]:
                choices = ", ".join(BIDS[g]) or "none: its contract is a call"
                raise UsageError(f"--bid {args.bid}: not a {g} bid ({choices})")
    if args.tricks_left is not None:
        for g in games:
            if args.tricks_left > HAND_SIZE[g]:
                raise UsageError(f"--tricks-left {args.tricks_left}: a {g} deal has "
                                 f"{HAND_SIZE[g]} tricks")
            if args.partial and args.tricks_left == 0:
                raise UsageError("--partial needs --tricks-left of 1 or more")
    elif args.partial:
        raise UsageError("--partial goes with --tricks-left")
    seed = args.seed if args.seed is not None else secrets.token_hex(4)
    rng = random.Random(seed)
    for i in range(args.count):
        game = games[i % len(games)]
        if args.tricks_left is None:
            obj = random_position(rng, game, args.bid)
        else:
            obj = random_endgame(rng, game, args.tricks_left, args.bid, partial=args.partial)
        _emit({"id": f"{game}-{seed}-{i:03d}", **obj})
    return EXIT_OK
