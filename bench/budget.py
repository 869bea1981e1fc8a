"""Whether `atout analyze` keeps its time limit: the wall time of the command itself (start,
table, searches, output) on whole played deals, against ``--time-limit``.

    python bench/budget.py                                   # limits 5, 20, 60 s, one deal a set
    python bench/budget.py --limits 10 --sets fr4-full,priest5-full --count 2

The deals are those of ``bench/analyze.py`` (a set's deals played out by the search's first
guess, now and then a random card).  Each run is the command as a user types it, in a fresh
process, its JSON read back: every card must have its verdict, and the wall time may pass
the limit by at most 10 % or 2 s (issue 33).  Tests never assert timings: this is the check,
by hand, on the machine at hand (say how loaded it was).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time

from analyze import played_deal
from scaling import load

DEFAULT_SETS = "fr4-full,fr3-full,fr5-full,priest5-full,at4-solorufer-full"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    ap.add_argument("--limits", default="5,20,60", help="time limits in seconds, comma separated")
    ap.add_argument("--count", type=int, default=1, help="deals per set")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=33)
    args = ap.parse_args(argv)
    print("| set | deal | limit | wall time | over | cards judged | exact cost |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for name in [s for s in args.sets.split(",") if s.strip()]:
        rng = random.Random(f"{args.seed}-{name}")
        deals = [played_deal(d, rng) for d in load(name)[:args.count]]
        for i, pos in enumerate(deals):
            for limit in [float(x) for x in args.limits.split(",") if x.strip()]:
                started = time.perf_counter()
                run = subprocess.run([sys.executable, "-m", "atout.client.cli", "analyze", "--json",
                                      "--time-limit", str(limit), "--threads", str(args.threads)],
                                     input=json.dumps(pos.to_json()) + "\n", capture_output=True,
                                     text=True)
                wall = time.perf_counter() - started
                if run.returncode != 0:
                    print(f"{name} {i}: exit {run.returncode}: {run.stderr.strip()}", file=sys.stderr)
                    return 1
                report = json.loads(run.stdout)
                plays = report["plays"]
                judged = sum(p["cost"] is not None or "cost_bounds" in p for p in plays)
                exact = sum(p["cost"] is not None for p in plays)
                over = wall - limit
                allowed = max(0.1 * limit, 2.0)
                worst = max(worst, over / allowed)
                print(f"| {name} | {i} | {limit:g} s | {wall:.2f} s | {over:+.2f} s"
                      f"{' (too long)' if over > allowed else ''} | {judged} of {len(plays)} | "
                      f"{exact} |", flush=True)
    print(f"\nthe worst overrun: {100 * worst:.0f} % of what is allowed (10 % of the limit or 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
