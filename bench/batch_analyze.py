"""A session of played deals analysed by `atout batch --analyze`: wall time, deals an hour,
and the share of cards with a verdict a player can act on.

    python bench/batch_analyze.py deals /tmp/session.jsonl            # 40 played deals a game
    python bench/batch_analyze.py run /tmp/session.jsonl -o /tmp/local.jsonl --workers 2
    python bench/batch_analyze.py run /tmp/session.jsonl -o /tmp/ray.jsonl --workers 2 \\
        --backend ray
    python bench/batch_analyze.py figures /tmp/local.jsonl            # the table again

``deals``: ``--count`` played deals of each game, each a deal of ``bench/data`` played to
the end as ``bench/analyze.py`` plays it (``played_deal``: the search's first guess three
times in four, else a random card; seeded by set as there, so the first deals of a set are
bench/analyze.py's).  A game whose sets hold fewer deals takes them in turn from several
sets (at4: bettler, farbendreier, solorufer, trischaken, a quarter each), and a set
shorter than its share is played again with the next draws of its seed (fr3-full's 20
deals twice: the same hands at "table 2", as in a duplicate session).  The deals are
written game after game in turn, so that a run cut short has some of every game.

``run``: :func:`atout.runner.batch.analyze_all` on them (``--time-limit`` per deal, one
thread per analysis, ``--workers`` processes or a local Ray instance), resumable like the
command: rerun it to go on.  The wall time of this run, the load average (sampled every
10 s) and the CPU seconds the analyses got (each result's ``cpu_seconds``) are printed
beside the figures: on a machine shared with other work a deal still takes its time limit
but gets less CPU within it, so finds less.  ``figures``: the table of a results file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from collections import defaultdict

from analyze import played_deal
from scaling import load

#: the sets each game's deals come from, taken in turn
GAME_SETS = {"fr3": ["fr3-full"], "fr4": ["fr4-full"], "fr5": ["fr5-full"],
             "priest5": ["priest5-full"],
             "at4": ["at4-bettler-full", "at4-farbendreier-full", "at4-solorufer-full",
                     "at4-trischaken-full"]}


def session(count: int, seed: int) -> list[dict]:
    """``count`` played deals of each game, the games in turn (see the module's doc)."""
    per_game = {}
    for game, sets in GAME_SETS.items():
        deals = []
        share = [count // len(sets) + (k < count % len(sets)) for k in range(len(sets))]
        for name, n in zip(sets, share):
            rng = random.Random(f"{seed}-{name}")
            source = load(name)
            for k in range(n):
                i, table = k % len(source), k // len(source) + 1
                obj = played_deal(source[i], rng).to_json()
                obj["id"] = f"{name}-{i}" + (f"-t{table}" if table > 1 else "")
                obj["board"], obj["table"] = f"{name} {i}", table
                deals.append(obj)
        per_game[game] = deals
    out = []
    for k in range(count):
        out += [deals[k] for deals in per_game.values() if k < len(deals)]
    return out


def figures(results: list[dict]) -> list[str]:
    """The markdown table of a results file: per game and in all."""
    rows = defaultdict(lambda: defaultdict(float))
    for r in results:
        if r.get("status") not in ("ok", "limit"):
            continue
        for key in (r["position"]["game"], "all"):
            row = rows[key]
            plays = r["plays"]
            best = sum(p["cost"] == 0 for p in plays)
            mistakes = sum((p["cost"] or 0) > 0 or (p["cost"] is None and p["cost_bounds"][0] > 0)
                           for p in plays)
            row["deals"] += 1
            row["cards"] += len(plays)
            row["exact"] += sum(p["cost"] is not None for p in plays)
            row["best"] += best
            row["mistakes"] += mistakes
            row["not_judged"] += len(plays) - best - mistakes
            row["decisive"] += sum(bool(p.get("decisive")) for p in plays)
            row["limit"] += r["status"] == "limit"
            row["seconds"] += r["seconds"]
            row["cpu"] += r["cpu_seconds"]
    lines = ["| game | deals | cards | exact cost | proven mistakes | decisive | not judged "
             "| **actionable** | stopped by the limit | seconds per deal | CPU seconds per deal |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for game in [g for g in GAME_SETS if g in rows] + ["all"]:
        row = rows[game]
        n, cards = row["deals"], row["cards"] or 1
        lines.append(f"| {game} | {n:.0f} | {row['cards']:.0f} | {100 * row['exact'] / cards:.0f} % | "
                     f"{100 * row['mistakes'] / cards:.0f} % | {row['decisive']:.0f} | "
                     f"{100 * row['not_judged'] / cards:.0f} % | "
                     f"**{100 * (row['cards'] - row['not_judged']) / cards:.0f} %** | "
                     f"{row['limit']:.0f} | {row['seconds'] / (n or 1):.1f} | "
                     f"{row['cpu'] / (n or 1):.1f} |")
    return lines


class _Load:
    """The 1-minute load average, sampled every ``every`` seconds in a thread."""

    def __init__(self, every: float = 10.0):
        self.samples = [os.getloadavg()[0]]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(every,), daemon=True)
        self.thread.start()

    def _run(self, every: float) -> None:
        while not self.stop.wait(every):
            self.samples.append(os.getloadavg()[0])

    def close(self) -> str:
        self.stop.set()
        s = self.samples
        return f"load average (1 min) {min(s):.1f} to {max(s):.1f}, mean {sum(s) / len(s):.1f}"


def _results(path: str) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("deals", help="write the session's played deals")
    p.add_argument("out")
    p.add_argument("--count", type=int, default=40, help="deals per game")
    p.add_argument("--seed", type=int, default=33)
    p = sub.add_parser("run", help="analyse them (resumable) and print the figures")
    p.add_argument("deals")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--time-limit", type=float, default=30.0)
    p.add_argument("--tt-mb", type=int, default=None)
    p = sub.add_parser("figures", help="the table of a results file")
    p.add_argument("results")
    args = ap.parse_args(argv)

    if args.what == "deals":
        deals = session(args.count, args.seed)
        with open(args.out, "w") as f:
            f.writelines(json.dumps(d) + "\n" for d in deals)
        print(f"{len(deals)} played deals in {args.out}")
        return 0
    if args.what == "figures":
        print("\n".join(figures(_results(args.results))))
        return 0

    from atout.runner.batch import analyze_all
    print(f"`atout batch --analyze --time-limit {args.time_limit:g} --workers {args.workers}"
          f"{' --backend ray' if args.backend == 'ray' else ''}` on {os.cpu_count()} cores",
          flush=True)
    meter = _Load()
    started = time.perf_counter()
    report = analyze_all(args.deals, args.output, workers=args.workers, backend=args.backend,
                         time_limit=args.time_limit, tt_mb=args.tt_mb, progress=sys.stderr)
    wall = time.perf_counter() - started
    load_text = meter.close()
    results = _results(args.output)
    cpu = sum(r.get("cpu_seconds", 0) for r in results)
    print(f"this run: {report.solved} deals analysed in {wall:.0f} s "
          f"({3600 * report.solved / wall:.1f} deals an hour), {report.skipped} already done, "
          f"{report.errors} errors; {load_text}")
    print(f"the file: {len(results)} deals, CPU seconds the analyses got {cpu:.0f} "
          f"(of {sum(r.get('seconds', 0) for r in results):.0f} s of analysis)\n")
    print("\n".join(figures(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
