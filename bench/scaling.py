"""How the search scales: time and nodes by tricks left, and whole deals of every game.

    python bench/scaling.py                         # the fr4 table, then the whole-deal sets
    python bench/scaling.py --count 6 --time-limit 60 --tricks 6,8,10,12,14,16,18
    python bench/scaling.py --sets "" --mode value  # only the fr4 table, value only
    python bench/scaling.py --tricks "" --sets "" --analyze-sets fr4-full,fr5-full,priest5-full
                                                    # how far back a whole-deal analysis gets

The fr4 table: for each number of tricks left, ``--count`` positions made from the deals
of ``bench/data/fr4-full.jsonl`` by playing random legal cards (seeded, so every run
sees the same positions) until that many tricks are left.  ``value`` is the value alone
(``Engine.value()``), ``solve`` what ``atout solve`` does (value, every optimal card and
the line).  Then one line per whole-deal set (``--sets``), solved as ``atout solve``
does.  Each search runs on one core, in this process, one after the other.  A search
stopped by ``--time-limit`` counts with its time at the limit and is listed as a limit
hit.  Medians and maxima: solve times are skewed, so both are shown.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from atout.position import Position, loads
from atout.solver import make_engine, solve

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_SETS = "fr3-full,fr4-full,fr5-full,priest5-full,at4-bettler-full,at4-farbendreier-full," \
               "at4-solorufer-full,at4-trischaken-full"


def load(name: str) -> list[Position]:
    lines = [l for l in (DATA / f"{name}.jsonl").read_text().splitlines() if l.strip()]
    return [loads(l) for l in lines]


def random_prefix(deal: Position, tricks_left: int, rng: random.Random) -> Position:
    """``deal`` with random legal cards played until ``tricks_left`` tricks are left."""
    pos = deal.copy()
    cards = (pos.rules.hand_size - tricks_left) * pos.seats
    for _ in range(cards):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def value_only(pos: Position, time_limit: float, tt_mb: int | None, threads: int) -> tuple[float, int, bool]:
    started = time.perf_counter()
    engine = make_engine(pos, tt_mb)
    engine.set_limits(0, time_limit)
    done, _, _ = engine.value()
    return time.perf_counter() - started, engine.nodes, done


def full_solve(pos: Position, time_limit: float, tt_mb: int | None, threads: int) -> tuple[float, int, bool]:
    r = solve(pos, time_limit=time_limit, tt_mb=tt_mb)
    return r.seconds, r.nodes, r.status == "ok"


def fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"


def fmt_nodes(n: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f}"


def row(label: str, runs: list[tuple[float, int, bool]], time_limit: float) -> str:
    times = [t if done else max(t, time_limit) for t, _, done in runs]
    nodes = [n for _, n, _ in runs]
    hits = sum(not done for _, _, done in runs)
    return (f"| {label} | {len(runs)} | {fmt_time(statistics.median(times))} | {fmt_time(max(times))} | "
            f"{fmt_nodes(statistics.median(nodes))} | {fmt_nodes(max(nodes))} | {hits} |")


HEADER = ("| {} | positions | median time | max time | median nodes | max nodes | stopped by the limit |\n"
          "|---|---|---|---|---|---|---|")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tricks", default="6,8,10,12,14,16,18", help="tricks left, comma separated")
    ap.add_argument("--count", type=int, default=6, help="positions per number of tricks left")
    ap.add_argument("--mode", choices=("value", "solve", "both"), default="both")
    ap.add_argument("--sets", default=DEFAULT_SETS, help="whole-deal sets (bench/data), comma separated")
    ap.add_argument("--set-count", type=int, default=10, help="deals per whole-deal set")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per search")
    ap.add_argument("--tt-mb", type=int, default=None,
                    help="table size in MB (default: the solver's, by the tricks left)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--analyze-sets", default="",
                    help="whole-deal sets whose deals, played out at random, `atout analyze` goes "
                         "through with --analyze-limit: how many cards it reaches (e.g. "
                         "fr4-full,fr5-full,priest5-full)")
    ap.add_argument("--analyze-count", type=int, default=2, help="deals per --analyze-sets set")
    ap.add_argument("--analyze-limit", type=float, default=60.0, help="seconds per analysis")
    args = ap.parse_args(argv)

    deals = load("fr4-full")
    modes = ("value", "solve") if args.mode == "both" else (args.mode,)
    tricks = [int(t) for t in args.tricks.split(",") if t.strip()]
    if tricks:
        for mode in modes:
            run = value_only if mode == "value" else full_solve
            print(f"\nfr4, {mode}{' (value, best, line)' if mode == 'solve' else ''}, "
                  f"time limit {args.time_limit:g} s\n")
            print(HEADER.format("tricks left"))
            for t in tricks:
                rng = random.Random(args.seed * 100 + t)
                runs = []
                for i in range(args.count):
                    pos = random_prefix(deals[i % len(deals)], t, rng)
                    runs.append(run(pos, args.time_limit, args.tt_mb, args.threads))
                print(row(str(t), runs, args.time_limit), flush=True)
    sets = [s for s in args.sets.split(",") if s.strip()]
    if sets:
        print(f"\nwhole deals, solve (value, best, line), time limit {args.time_limit:g} s\n")
        print(HEADER.format("set"))
        for name in sets:
            runs = [full_solve(p, args.time_limit, args.tt_mb, args.threads)
                    for p in load(name)[:args.set_count]]
            print(row(name, runs, args.time_limit), flush=True)
    analyze_sets = [s for s in args.analyze_sets.split(",") if s.strip()]
    if analyze_sets:
        print(f"\nwhole deals played out at random, `atout analyze`, time limit "
              f"{args.analyze_limit:g} s: the cards analysed (from the end of the deal back)\n")
        print("| set | deal | cards analysed | of | from trick |\n|---|---|---|---|---|")
        for name in analyze_sets:
            rng = random.Random(args.seed)
            for i, deal in enumerate(load(name)[:args.analyze_count]):
                played = random_prefix(deal, 0, rng)
                done, total = analysis_reach(played, args.analyze_limit, args.tt_mb, args.threads)
                first = total - done
                print(f"| {name} | {i} | {done} | {total} | {first // played.seats + 1} |", flush=True)
    return 0


def analysis_reach(deal: Position, time_limit: float, tt_mb: int | None, threads: int) -> tuple[int, int]:
    """(cards analysed exactly, cards played) by an analysis of the whole ``deal`` within the
    limit: the last cards, from the first whose cost and every later one's is exact
    (``bench/analyze.py`` tells the rest: what is proven of the others)."""
    from atout.solver.analyze import analyze
    report = analyze(deal, time_limit=time_limit, tt_mb=tt_mb, threads=threads)
    exact = 0
    for play in reversed(report["plays"]):
        if play["cost"] is None or play["best"] is None:
            break
        exact += 1
    return exact, len(deal.played)


if __name__ == "__main__":
    sys.exit(main())
