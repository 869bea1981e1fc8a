"""The README's "Speed today" table, measured now: every row's benchmark run again.

    python bench/report.py                        # every row, as in the README (about 20 minutes)
    python bench/report.py --rows sets,at4        # some rows (see --rows)
    python bench/report.py --jobs 2               # two searches at a time (one per core)
    python bench/report.py --quick                # two positions per row, 1 s limits: checks the script

Prints the table in the README's Markdown, under a line naming the machine (CPU model,
cores), the commit and the date; paste both over the README's.  Each search runs on one
thread (``solve(..., threads=1)``, ``analyze(..., threads=1)``), in a process of its own
when ``--jobs`` is above 1.  The rows and the commands they stand for:

- ``tricks``: fr4 by tricks left, ``--count`` positions each, made from ``fr4-full`` by random
  legal play exactly as ``python bench/scaling.py --tricks 6,8,10,12,14 --count 6 --sets ""``
  makes them (the same positions), solved as ``atout solve`` does;
- ``sets``: the endgame sets, every position, as ``ATOUT_BENCH_TIME_LIMIT=30 pytest bench/
  --benchmark-only -k "end8 or end10 or mid12"`` solves them;
- ``at4`` and ``full``: the first five deals of the whole-deal sets, as ``python
  bench/scaling.py --tricks "" --sets ... --set-count 5`` solves them;
- ``played``: the first deal of each French game and of Priestertarock in
  ``tests/data/played.jsonl``, analysed as ``atout analyze --json --threads 1 --time-limit 60``
  does: how many of its last cards the analysis reaches.

A search stopped by its time limit counts at the limit; "worst" is the slowest search.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scaling import DATA, analysis_reach, load, random_prefix  # noqa: E402

from atout.position import loads  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ROWS = ("tricks", "sets", "at4", "full", "played")
TRICKS = (6, 8, 10, 12, 14)
SCALING_SEED = 2026          # bench/scaling.py's default --seed: the same positions as its table
ENDGAME_SETS = ("fr4-end8", "fr3-end10", "fr5-end8", "priest5-end8", "fr4-mid12")
AT4_SETS = (("at4-bettler-full", "at4-farbendreier-full"), ("at4-solorufer-full", "at4-trischaken-full"))
FULL_SETS = ("fr3-full", "fr4-full", "fr5-full", "priest5-full")
PLAYED_GAMES = ("fr4", "fr3", "fr5", "priest5")
#: The medians of the search before this work (commit dcfeae0, from that commit's README):
#: history to compare with, not measured here.
BEFORE = {"fr4-end8": "99 ms", "fr3-end10": "122 ms", "fr5-end8": "304 ms", "priest5-end8": "145 ms"}

HEADER = ("| what | measured | median | worst | stopped by the limit |\n"
          "|---|---|---|---|---|")


def solve_seconds(line: str, time_limit: float) -> tuple[float, bool]:
    """(seconds, finished) of ``atout solve`` on one position (a JSON line), one thread."""
    from atout.solver import solve
    r = solve(loads(line), time_limit=time_limit, threads=1)
    return r.seconds, r.status == "ok"


def analysis_cards(line: str, time_limit: float) -> tuple[int, int]:
    return analysis_reach(loads(line), time_limit, None, 1)


def fmt_time(s: float) -> str:
    """Two significant figures, as the README writes them: 2.3 ms, 14 ms, 0.12 s, 1.8 s, 30 s."""
    if s < 0.1:
        ms = s * 1e3
        return f"{ms:.2g} ms" if ms >= 1 else f"{ms:.2f} ms"
    return f"{s:.2f} s" if s < 1 else f"{s:.2g} s" if s < 10 else f"{s:.0f} s"


class Runner:
    """Runs searches one at a time here, or ``jobs`` at a time in worker processes."""

    def __init__(self, jobs: int):
        self.pool = ProcessPoolExecutor(jobs) if jobs > 1 else None

    def map(self, fn, items, *args):
        if self.pool is None:
            return [fn(item, *args) for item in items]
        return list(self.pool.map(fn, items, *([a] * len(items) for a in args)))

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()


def summary(runs: list[tuple[float, bool]], limit: float) -> tuple[str, str, int]:
    times = [t if done else max(t, limit) for t, done in runs]
    return fmt_time(statistics.median(times)), fmt_time(max(times)), sum(not d for _, d in runs)


def stopped(counts: list[int], sizes: list[int], limit: float) -> str:
    if not any(counts):
        return "0"
    if len(set(counts)) == 1 and counts[0] == sizes[0]:
        each = " each" if len(counts) > 1 else ""
        return f"{counts[0]} of {sizes[0]}{each} ({limit:g} s)"
    return " / ".join(f"{c} of {n}" for c, n in zip(counts, sizes)) + f" ({limit:g} s)"


def lines_of(name: str, count: int) -> list[str]:
    lines = [l for l in (DATA / f"{name}.jsonl").read_text().splitlines() if l.strip()]
    return lines[:count] if count else lines


def tricks_rows(run: Runner, count: int, tricks: list[int], limit: float) -> list[str]:
    deals = load("fr4-full")
    out = []
    for t in tricks:
        rng = random.Random(SCALING_SEED * 100 + t)
        lines = [json.dumps(random_prefix(deals[i % len(deals)], t, rng).to_json()) for i in range(count)]
        median, worst, hits = summary(run.map(solve_seconds, lines, limit), limit)
        what = f"fr4, {t} tricks left" + (" (random play from `fr4-full`)" if not out else "")
        out.append(f"| {what} | `atout solve`, {count} positions | {median} | {worst} | "
                   f"{stopped([hits], [count], limit)} |")
    return out


def sets_rows(run: Runner, count: int, limit: float) -> list[str]:
    out = []
    for name in ENDGAME_SETS:
        lines = lines_of(name, count)
        median, worst, hits = summary(run.map(solve_seconds, lines, limit), limit)
        before = f" ({BEFORE[name]} before)" if name in BEFORE else ""
        out.append(f"| {name} ({len(lines)} positions) | `atout solve` | {median}{before} | {worst} | "
                   f"{stopped([hits], [len(lines)], limit)} |")
    return out


def whole_deal_row(run: Runner, names: tuple[str, ...], count: int, limit: float) -> str:
    medians, worsts, hits, sizes = [], [], [], []
    for name in names:
        lines = lines_of(name, count)
        median, worst, h = summary(run.map(solve_seconds, lines, limit), limit)
        medians.append(median if h < len(lines) else "—")
        worsts.append(worst if h < len(lines) else "—")
        hits.append(h)
        sizes.append(len(lines))
    label = " / ".join(names) if names[0].startswith("at4") else \
        "/".join(n.removesuffix("-full") for n in names) + "-full"
    both = (lambda cells: "—" if set(cells) == {"—"} else " / ".join(cells))
    return (f"| {label} | `atout solve`, {count} whole deals each | {both(medians)} | {both(worsts)} | "
            f"{stopped(hits, sizes, limit)} |")


def played_row(run: Runner, limit: float) -> str:
    by_game = {}
    for line in (ROOT / "tests" / "data" / "played.jsonl").read_text().splitlines():
        if line.strip():
            by_game.setdefault(json.loads(line)["game"], line)
    reach = run.map(analysis_cards, [by_game[g] for g in PLAYED_GAMES], limit)
    cards = " / ".join(f"{done} of {total}" for done, total in reach)
    every = all(done == total for done, total in reach)
    return (f"| whole played {' / '.join(PLAYED_GAMES)} deals (`tests/data/played.jsonl`) | "
            f"`atout analyze --json --time-limit {limit:g} --threads 1` | its last {cards} cards | | "
            f"{'none' if every else f'the first cards ({limit:g} s)'} |")


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def commit() -> str:
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=30).stdout.strip()
    try:
        sha = git("rev-parse", "--short", "HEAD")
        changed = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "an unknown commit (no git)"
    return f"commit {sha}" + (" with uncommitted changes" if changed else "") if sha else "an unknown commit"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", default=",".join(ROWS),
                    help=f"rows to measure, comma separated, of: {', '.join(ROWS)} (default: all)")
    ap.add_argument("--tricks", default=",".join(map(str, TRICKS)), help="the tricks row's tricks left")
    ap.add_argument("--count", type=int, default=None,
                    help="positions per row (default: 6 by tricks left, every position of a "
                         "set, 5 whole deals)")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per search (default 30)")
    ap.add_argument("--analyze-limit", type=float, default=None,
                    help="seconds per analysis of a played deal (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="searches at a time, each in its own process")
    ap.add_argument("--quick", action="store_true",
                    help="two positions per row and 1 s limits: checks the script, measures nothing")
    args = ap.parse_args(argv)
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        ap.error(f"--rows: unknown row {unknown[0]!r} (rows: {', '.join(ROWS)})")
    try:
        tricks = [int(t) for t in args.tricks.split(",") if t.strip()]
    except ValueError:
        ap.error("--tricks: whole numbers, comma separated")
    if args.jobs < 1:
        ap.error("--jobs: at least 1")
    quick = 2 if args.quick else None
    limit = args.time_limit or (1.0 if args.quick else 30.0)
    analyze_limit = args.analyze_limit or (1.0 if args.quick else 60.0)

    run = Runner(args.jobs)
    table = []
    try:
        if "tricks" in rows:
            table += tricks_rows(run, args.count or quick or 6, tricks, limit)
        if "sets" in rows:
            table += sets_rows(run, args.count or quick or 0, limit)
        if "at4" in rows:
            table += [whole_deal_row(run, names, args.count or quick or 5, limit) for names in AT4_SETS]
        if "full" in rows:
            table.append(whole_deal_row(run, FULL_SETS, args.count or quick or 5, limit))
        if "played" in rows:
            table.append(played_row(run, analyze_limit))
    except KeyboardInterrupt:
        print("report: stopped (Ctrl-C); nothing printed", file=sys.stderr)
        return 130
    finally:
        run.close()
    command = " ".join(["python bench/report.py", *(sys.argv[1:] if argv is None else argv)])
    at_a_time = "one search at a time" if args.jobs == 1 else f"{args.jobs} searches at a time"
    quick_note = " (--quick: checks the script, measures nothing)" if args.quick else ""
    print(f"Measured on {machine()}, {commit()}, {datetime.date.today().isoformat()}: "
          f"`{command}`, {at_a_time}, each on one thread{quick_note}.\n")
    print(HEADER)
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
