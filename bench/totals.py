"""Total nodes and CPU time of the value alone over a set of positions: the quick yardstick
for a change to the search (node counts are what to compare; times move with the machine).

    python bench/totals.py fr4-end8,fr3-end10,fr5-end8,priest5-end8 --count 20
    python bench/totals.py fr4-full --tricks 12 --count 6     # random positions, 12 tricks left
    python bench/totals.py fr4-end8 --count 20 -- -memory     # a technique switched off
    python bench/totals.py fr4-end8 --count 20 --made-first   # the contract question first

A set is a file of ``bench/data``.  With ``--tricks``, each position is one of the set's
deals played on with random legal cards until that many tricks are left (seeded by the
number of tricks alone, so every run sees the same positions: those of the "six 12-trick
fr4 positions" in docs/search.md; ``bench/scaling.py`` seeds its own differently);
else the set's own positions, the first ``--count``.  Features after ``--`` switch
techniques on (``+name``) or off (``-name``) as in ``atout.solver.FEATURES``.  Prints, per
set, the total nodes, the CPU time, how many searches the time limit stopped and the sum
of the values found (two builds that find the same values print the same sum).
``--made-first`` asks the contract question ("made?", one null-window probe at
``made_threshold``) before the value, as ``solve`` may, and hands its answer to the value
search as a known bound: what the question costs or saves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from atout.scoring import made_threshold
from atout.solver import DEFAULT_FEATURES, FEATURES, make_engine
from scaling import DATA, load, random_prefix


def features_of(switches: list[str]) -> int:
    f = DEFAULT_FEATURES
    for s in switches:
        if s[:1] not in "+-" or s[1:] not in FEATURES:
            raise SystemExit(f"totals.py: unknown switch {s!r} (use +name or -name, name one of "
                             f"{', '.join(FEATURES)})")
        f = f | FEATURES[s[1:]] if s[0] == "+" else f & ~FEATURES[s[1:]]
    return f


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", help="comma-separated set names of bench/data")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--tricks", type=int, default=None, help="random positions with this many tricks left")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per search")
    ap.add_argument("--made-first", action="store_true",
                    help="ask the contract question before the value")
    ap.epilog = "switches after --: +name / -name"
    switches = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    features = features_of(switches)
    names = args.sets.split(",")
    for name in names:
        if not (DATA / f"{name}.jsonl").is_file():
            raise SystemExit(f"totals.py: no set {name!r} in {DATA}")
    for name in names:
        deals = load(name)
        if args.tricks is None:
            positions = deals[:args.count]
        else:
            rng = random.Random(args.tricks)
            positions = [random_prefix(deals[i % len(deals)], args.tricks, rng) for i in range(args.count)]
        nodes = stopped = values = 0
        started = time.process_time()
        for pos in positions:
            engine = make_engine(pos, None, features)
            engine.set_limits(0, args.time_limit)
            known = {}
            t = made_threshold(pos.contract, pos.hands) if args.made_first else None
            low, high = engine.bounds()
            if t is not None and low < t <= high:
                done, v = engine.search_window(t - 1, t)
                if done:
                    known = {"at_least": v} if v >= t else {"at_most": v}
            done, lo, _ = engine.value(**known)
            nodes += engine.nodes
            stopped += not done
            values += lo if done else 0
        print(f"{name}{'' if args.tricks is None else f' ({args.tricks} tricks)'}: "
              f"{len(positions)} positions, {nodes:,} nodes, "
              f"{time.process_time() - started:.2f} s CPU, stopped {stopped}, sum of values {values}",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
