"""How fast single-dummy advice is: ``atout advise`` on positions of every game.

    python bench/advise.py                              # 100 draws, 2 workers, 8/10/12 tricks left
    python bench/advise.py --games fr4 --tricks 8 --count 10 --workers 2 --samples 100
    taskset -c 0,1 python bench/advise.py               # on two cores of a bigger machine

For each game and number of tricks left, ``--count`` positions made from the whole deals of
``bench/data/<game>-full.jsonl`` (at4: ``at4-solorufer-full``) by playing random legal cards
(seeded: every run sees the same positions) until that many tricks are left; each is advised
for the seat to play with ``--samples`` draws on ``--workers`` searches side by side, as
``atout advise`` does (drawing the deals, solving every legal card of each).  The whole
advice is timed, wall clock.  A position whose advice ``--time-limit`` stops counts with
its time at the limit and is listed; medians and maxima, as advice times are skewed.
"CPU" is the processor time of every thread of the advice together: on idle cores the
wall time is about CPU / workers, so it says what a busy machine hides; "nodes" (every draw's
search, a draw solved once however often drawn) does not depend on the machine at all.
The target of issue 37: 100 draws of an 8-trick fr4 position in at most 2 s on 2 cores.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from atout.position import Position, loads
from atout.solver.advise import advise

DATA = Path(__file__).resolve().parent / "data"
SETS = {"fr4": "fr4-full", "fr3": "fr3-full", "fr5": "fr5-full", "priest5": "priest5-full",
        "at4": "at4-solorufer-full"}


def load(name: str) -> list[Position]:
    lines = [line for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line.strip()]
    return [loads(line) for line in lines]


def random_prefix(deal: Position, tricks_left: int, rng: random.Random) -> Position:
    pos = deal.copy()
    for _ in range((pos.rules.hand_size - tricks_left) * pos.seats):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def fmt(s: float) -> str:
    return f"{s * 1e3:.0f} ms" if s < 1 else f"{s:.2f} s"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="fr4,fr3,fr5,priest5,at4")
    ap.add_argument("--tricks", default="8,10,12", help="tricks left, comma separated")
    ap.add_argument("--count", type=int, default=5, help="positions per game and tricks left")
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per advice")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)

    print(f"atout advise: {args.samples} draws per position, {args.workers} workers, "
          f"time limit {args.time_limit:g} s per position\n")
    print("| game | tricks left | positions | median | max | median CPU | median nodes | "
          "draws solved per second | stopped by the limit |\n|---|---|---|---|---|---|---|---|---|")
    for game in [g for g in args.games.split(",") if g]:
        deals = load(SETS[game])
        for t in [int(x) for x in args.tricks.split(",") if x.strip()]:
            rng = random.Random(args.seed * 100 + t)
            times, cpu, nodes, solved, stopped = [], [], [], 0, 0
            for i in range(args.count):
                pos = random_prefix(deals[i % len(deals)], t, rng)
                started, cpu_started = time.perf_counter(), time.process_time()
                a = advise(pos, samples=args.samples, seed=args.seed + i, workers=args.workers,
                           time_limit=args.time_limit)
                elapsed = time.perf_counter() - started
                cpu.append(time.process_time() - cpu_started)
                nodes.append(a.nodes)
                stopped += a.status != "ok"
                times.append(max(elapsed, args.time_limit) if a.status != "ok" else elapsed)
                solved += a.solved
            rate = solved / sum(times)
            print(f"| {game} | {t} | {len(times)} | {fmt(statistics.median(times))} | "
                  f"{fmt(max(times))} | {fmt(statistics.median(cpu))} | "
                  f"{statistics.median(nodes) / 1e6:.1f} M | {rate:.0f} | {stopped} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
