"""How far from the end the search proves exact values: played deals cut mid-deal.

    python bench/reach.py                                  # every game and depth, 10 M nodes
    python bench/reach.py --games fr4 --cards 55,64 --count 4
    python bench/reach.py --node-limit 2000000 --verbose   # each position's line too
    python bench/reach.py --make                           # write the positions anew (see below)
    python bench/reach.py --value-only -- -memory          # the value alone, a technique off

The positions are fixed, in ``bench/data/reach/played-cut.jsonl``: each is one of the
first deals of a ``*-full`` set (``bench/data``) played the way ``bench/analyze.py``
plays a deal (the search's first guess three times in four, else a random legal card:
a deal a player might have played, with mistakes), cut at the start of the trick that
leaves about 48, 55, 64 or 72 cards in the hands.  ``--make`` writes that file from the
deals (it depends on the search's move order, which is why the positions are kept in a
file: every later run, whatever the search, sees the same ones).

Each position is solved as ``atout solve --threads 1 --node-limit N`` does (the contract
question, the value, every optimal card and one optimal line), on one thread so that the
node counts are the same on any machine.  Per game and depth: how many were solved
(``atout solve``'s status ``ok``), how many had their value proven within the limit
(the value exact, the optimal cards perhaps not), the median nodes (a position stopped
by the limit counted at the limit, so a median at the limit reads "≥ N") and the CPU
seconds.  ``--value-only`` asks only the value (``Engine.value()``, as ``bench/totals.py``).
Switches after ``--`` turn techniques on (``+name``) or off (``-name``), as in
``atout.solver.FEATURES``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from atout.position import loads
from atout.solver import DEFAULT_FEATURES, FEATURES, make_engine, solve
from scaling import DATA, load

POSITIONS = DATA / "reach" / "played-cut.jsonl"
#: the games and their whole-deal sets; the depths, in cards left, and for each game the
#: tricks left nearest to them (fr4 4 seats of 18 cards, fr3 3 of 24, fr5 and priest5 5 of 15)
GAMES = {"fr4": "fr4-full", "fr3": "fr3-full", "fr5": "fr5-full", "priest5": "priest5-full"}
CARDS = (48, 55, 64, 72)
TRICKS = {"fr4": {48: 12, 55: 14, 64: 16, 72: 18}, "fr3": {48: 16, 55: 18, 64: 21, 72: 24},
          "fr5": {48: 10, 55: 11, 64: 13, 72: 14}, "priest5": {48: 10, 55: 11, 64: 13, 72: 14}}
#: positions made per game and depth (a run can take fewer: --count)
MADE = 8


def make_positions(seed: int) -> list[dict]:
    """The positions: for each game, its first MADE deals played out once (seeded by the
    game), each cut at every depth."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from analyze import played_deal      # the same play as bench/analyze.py's deals

    out = []
    for game, name in GAMES.items():
        rng = random.Random(f"{seed}-{game}")
        for i, deal in enumerate(load(name)[:MADE]):
            played = played_deal(deal, rng)
            for cards in CARDS:
                tricks = TRICKS[game][cards]
                cut = deal.copy()
                for c in played.played[:(deal.rules.hand_size - tricks) * deal.seats]:
                    cut.play(c)
                obj = cut.to_json()
                obj["id"] = f"{game}-{cards}-{i}"
                out.append(obj)
    return out


def features_of(switches: list[str]) -> int:
    f = DEFAULT_FEATURES
    for s in switches:
        if s[:1] not in "+-" or s[1:] not in FEATURES:
            raise SystemExit(f"reach.py: unknown switch {s!r} (use +name or -name, name one of "
                             f"{', '.join(FEATURES)})")
        f = f | FEATURES[s[1:]] if s[0] == "+" else f & ~FEATURES[s[1:]]
    return f


def measure(pos, node_limit: int, value_only: bool, features: int) -> tuple[bool, bool, int]:
    """(solved, value proven, nodes) of one position on one thread."""
    if value_only:
        engine = make_engine(pos, None, features)
        engine.set_limits(node_limit, 0)
        done, lo, hi = engine.value()
        return done, done, engine.nodes
    r = solve(pos, threads=1, node_limit=node_limit, features=features)
    return r.status == "ok", r.value is not None, r.nodes


def fmt_nodes(n: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}" if n < 100 * size else f"{n / size:.0f} {unit}"
    return f"{n:.0f}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma separated")
    ap.add_argument("--cards", default=",".join(map(str, CARDS)),
                    help="depths in cards left, comma separated (of 48, 55, 64, 72)")
    ap.add_argument("--count", type=int, default=MADE, help="positions per game and depth")
    ap.add_argument("--node-limit", type=int, default=10_000_000)
    ap.add_argument("--value-only", action="store_true", help="the value alone, not atout solve")
    ap.add_argument("--verbose", action="store_true", help="a line per position")
    ap.add_argument("--make", action="store_true", help=f"write {POSITIONS} anew and stop")
    ap.add_argument("--seed", type=int, default=60)
    ap.epilog = "switches after --: +name / -name"
    switches = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if args.make:
        POSITIONS.parent.mkdir(parents=True, exist_ok=True)
        POSITIONS.write_text("".join(json.dumps(p) + "\n" for p in make_positions(args.seed)))
        print(f"wrote {POSITIONS}")
        return 0
    features = features_of(switches)
    games = [g for g in args.games.split(",") if g]
    depths = [int(c) for c in args.cards.split(",") if c]
    for g in games:
        if g not in GAMES:
            raise SystemExit(f"reach.py: --games: unknown game {g!r} (one of {', '.join(GAMES)})")
    for c in depths:
        if c not in CARDS:
            raise SystemExit(f"reach.py: --cards: {c} is not one of {', '.join(map(str, CARDS))}")
    positions = {}
    for line in POSITIONS.read_text().splitlines():
        if line.strip():
            pos = loads(line)
            positions[pos.id] = pos
    what = "value alone" if args.value_only else "atout solve"
    print(f"{what}, one thread, node limit {fmt_nodes(args.node_limit)}"
          f"{', switches ' + ' '.join(switches) if switches else ''}\n")
    print("| cards left | game (tricks) | positions | solved | value proven | median nodes "
          "| nodes in all | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    grand = {}
    for cards in depths:
        for g in games:
            runs = []
            cpu = time.process_time()
            for i in range(args.count):
                pos = positions.get(f"{g}-{cards}-{i}")
                if pos is None:
                    break
                solved, proven, nodes = measure(pos, args.node_limit, args.value_only, features)
                runs.append((solved, proven, nodes))
                if args.verbose:
                    print(f"  {pos.id}: {'solved' if solved else 'proven' if proven else 'open'}"
                          f" {nodes:,} nodes", file=sys.stderr, flush=True)
            cpu = time.process_time() - cpu
            nodes = [min(n, args.node_limit) if s else args.node_limit for s, _, n in runs]
            med = statistics.median(nodes) if nodes else 0
            med_s = ("≥ " if med >= args.node_limit else "") + fmt_nodes(med)
            solved = sum(s for s, _, _ in runs)
            proven = sum(p for _, p, _ in runs)
            print(f"| ~{cards} | {g} ({TRICKS[g][cards]}) | {len(runs)} | {solved} | {proven} | "
                  f"{med_s} | {fmt_nodes(sum(n for _, _, n in runs))} | {cpu:.1f} |", flush=True)
            t = grand.setdefault(cards, [0, 0, 0])
            t[0] += len(runs)
            t[1] += solved
            t[2] += proven
    print()
    for cards, (n, solved, proven) in grand.items():
        print(f"~{cards} cards: {solved} of {n} solved ({100 * solved / (n or 1):.0f} %), "
              f"value proven in {proven} ({100 * proven / (n or 1):.0f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
