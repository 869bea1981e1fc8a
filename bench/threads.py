"""How one search scales with threads: time, total nodes, speed-up and search overhead.

    python bench/threads.py                              # every set, 1 2 4 8 16 threads
    python bench/threads.py --threads 1,2 --sets fr4-12,fr4-mid12
    python bench/threads.py --sets probes --threads 1,8,16 --time-limit 600
    python bench/threads.py --threads 1,4,8,16 --sets fr4-12 --lockstep-only --seeds 1,2,3

For each set and thread count: the wall time of the whole set, its total nodes (every
thread's), the speed-up (time on one thread / time on N) and the search overhead (nodes on
N threads / nodes on one).  Each search starts cold (a fresh engine and table), value alone
(``Engine.value()``), one after the other in this process.

Neither figure of the threads running free means much on a machine with fewer cores than
threads: time-sliced, they search one after the other more than side by side (16 threads
on 2 cores: 1.2x the nodes of one, on 16 cores 3x).  So each thread count is also searched
in lockstep (``Engine.set_lockstep``, solver/lockstep.pxi: the threads take turns of
``--lockstep`` nodes, as on as many equal cores, the same node counts run after run), once
per ``--seeds`` seed (turns of random length drawn from it): ``lockstep`` is the overhead
there (the median over the seeds, and their range), ``ls-speed`` one thread's nodes over
the caller's own in lockstep — the caller's nodes keep the time of them all, so that is the
speed-up N cores give where each thread runs as fast as one alone.  The sets:

    fr4-12      the six 12-trick fr4 positions of ``bench/totals.py fr4-full --tricks 12 --count 6``
    fr4-mid12   the first ``--mid-count`` positions of bench/data/fr4-mid12.jsonl
    fr4-end8, fr3-end10, fr5-end8, priest5-end8
                the first ``--end-count`` positions of those sets (small searches: they
                check that threads cost nothing where they cannot help)
    probes      one cold probe "is the value >= t?" of the first deal of fr4-full (t = 66:
                "no"), fr5-full (t = 88: "no") and priest5-full (t = -5: "yes", its value)
    priest5-value   the first deal of priest5-full, its exact value (404 M nodes on one
                thread: not among the default sets)
    stop        how long Ctrl-C takes to stop a search: the first fr4-full deal solved
                in a thread, cancelled after 2 s; the time from ``Cancel.set()`` until
                ``solve`` returns (every thread joined), the largest of five tries

Per position the time is also compared with one thread: ``worst`` is the largest ratio
(N threads / one thread) over the set's positions, for the "never slower" check.
``caller`` is the nodes of one thread over the nodes of the calling thread alone on N:
the speed-up the node counts promise if every thread ran as fast as one does alone — a
figure that a small or busy machine can give where its times cannot.
``M/cpu-s``: millions of nodes per CPU second of all the threads together — against one
thread's, how fast each thread ran (threads slowing each other on the memory, waiting).
``ceiling``: the most N threads can gain while the searches run alone for their first
``help_after`` nodes (Amdahl): the baseline's searches (the driver's probes, from
``Engine.trace()``) split into the part before the helpers would join and the rest, the
rest taken as N times faster.
``--repeat R`` searches each position R times, the thread counts taking turns, and counts its
fastest time (the median nodes): on a machine whose speed drifts from run to run.
``--help-after``, ``--defer-tricks``, ``--young``, ``--young-tricks``, ``--crowd``, ``--crowd-tricks``
set ``Engine.set_threads``' tuning.
``--lockstep-only`` leaves out the runs of the threads running free (their columns are
"-"): for working on the overhead, where only the lockstep counts.
"""

from __future__ import annotations

import argparse
import random
import threading
import statistics
import sys
import time

from atout.solver import Cancel, make_engine, solve
from scaling import load, random_prefix

# (set, target): the whole-deal probes, at a target near each deal's value (priest5-full's
# first deal is worth -5; fr4-full's first lies between 64 and 66; fr5-full's first at most 70)
PROBES = (("fr4-full", 66), ("fr5-full", 88), ("priest5-full", -5))
ENDGAME_SETS = ("fr4-end8", "fr3-end10", "fr5-end8", "priest5-end8")


def positions(name: str, args) -> list:
    """[(label, position, probe target or None)] of one set."""
    if name == "fr4-12":
        deals = load("fr4-full")
        rng = random.Random(12)                    # as bench/totals.py --tricks 12
        return [(f"fr4-12-{i}", random_prefix(deals[i % len(deals)], 12, rng), None) for i in range(6)]
    if name == "fr4-mid12":
        return [(p.id, p, None) for p in load("fr4-mid12")[:args.mid_count]]
    if name in ENDGAME_SETS:
        return [(p.id, p, None) for p in load(name)[:args.end_count]]
    if name == "probes":
        return [(f"{deal}[0] >= {t}", load(deal)[0], t) for deal, t in PROBES]
    if name == "priest5-value":
        return [("priest5-full[0]", load("priest5-full")[0], None)]
    raise SystemExit(f"threads.py: no set {name!r}")


def run_one(pos, target, threads: int, args, seed: int | None = None) -> tuple:
    """(seconds, nodes, finished, answer, the caller's nodes, CPU seconds of every thread,
    the nodes of each of its searches (None where the trace missed some), help_after) of
    one cold search; ``seed`` not None: in lockstep (turns of args.lockstep nodes, drawn
    from the seed if it is not 0)."""
    engine = make_engine(pos, args.tt_mb)
    engine.set_threads(threads, args.help_after, args.defer_tricks, args.young, args.young_tricks,
                       args.crowd, args.crowd_tricks)
    if seed is not None:
        engine.set_lockstep(args.lockstep, seed)
    engine.set_limits(0, args.time_limit)
    started, cpu = time.perf_counter(), time.process_time()
    if target is None:
        done, lo, hi = engine.value()
        answer = str(lo) if done else f"[{lo}, {hi}]"
    else:
        done, yes = engine.at_least(target)
        answer = ("yes" if yes else "no") if done else "stopped"
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    caller = engine.nodes - (sum(engine.helper_nodes()) if threads > 1 else 0)
    searches = [probe[2] for probe in engine.trace()] if target is None else [engine.nodes]
    if sum(searches) != engine.nodes:
        searches = None                          # (the trace keeps the last 256 probes)
    return seconds, engine.nodes, done, answer, caller, cpu, searches, engine.help_after()


def best_of(tries: list) -> tuple:
    """One search's figures over its tries: the fastest time, the median of the others."""
    def median(i):
        return statistics.median_low(t[i] for t in tries)
    return (min(t[0] for t in tries), median(1), all(t[2] for t in tries), tries[0][3],
            median(4), median(5), tries[0][6], tries[0][7])


def ceiling(base: list, threads: int, help_after: int) -> float | None:
    """The speed-up ``threads`` threads cannot pass while each search of the baseline runs
    alone for its first ``help_after`` nodes (None if a search's size is unknown)."""
    if any(run[6] is None for run in base):
        return None
    nodes = sum(run[1] for run in base)
    alone = sum(min(n, help_after) for run in base for n in run[6]) / max(nodes, 1)
    return 1 / (alone + (1 - alone) / threads)


def stop_latency(threads: int, tries: int = 5, after: float = 2.0) -> float:
    """The longest time, over ``tries``, from Cancel.set() until solve() returns."""
    deal = load("fr4-full")[0]
    worst = 0.0
    for _ in range(tries):
        cancel = Cancel()
        done = []
        worker = threading.Thread(target=lambda: done.append((solve(deal, cancel=cancel, threads=threads),
                                                               time.perf_counter())))
        worker.start()
        time.sleep(after)
        asked = time.perf_counter()
        cancel.set()
        worker.join()
        result, returned = done[0]
        assert result.stopped_by == "cancel"
        worst = max(worst, returned - asked)
    return worst


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", default="1,2,4,8,16", help="thread counts (the first is the baseline)")
    ap.add_argument("--sets", default="fr4-12,fr4-mid12,probes," + ",".join(ENDGAME_SETS) + ",stop")
    ap.add_argument("--mid-count", type=int, default=10)
    ap.add_argument("--end-count", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per search")
    ap.add_argument("--tt-mb", type=int, default=None, help="table size (default: by the position)")
    ap.add_argument("--verbose", action="store_true", help="one line per search too")
    ap.add_argument("--repeat", type=int, default=1,
                    help="search each position this many times, the thread counts in turn: its "
                         "fastest time counts (for a machine whose speed drifts)")
    ap.add_argument("--help-after", type=int, default=-1, help="Engine.set_threads' (-1: its default)")
    ap.add_argument("--defer-tricks", type=int, default=-1, help="Engine.set_threads' (-1: its default)")
    ap.add_argument("--young", type=int, default=-1, help="Engine.set_threads' (-1: its default)")
    ap.add_argument("--young-tricks", type=int, default=-1, help="Engine.set_threads' (-1: its default)")
    ap.add_argument("--crowd", type=int, default=-1, help="Engine.set_threads' (-1: its default)")
    ap.add_argument("--crowd-tricks", type=int, default=-1, help="Engine.set_threads' (-1: its default)")
    ap.add_argument("--lockstep", type=int, default=16,
                    help="the lockstep's turn in nodes (Engine.set_lockstep; 0: no lockstep runs)")
    ap.add_argument("--seeds", default="1", help="the lockstep's seeds, one run each (0: equal turns)")
    ap.add_argument("--lockstep-only", action="store_true",
                    help="no runs of the threads running free (but the baseline's)")
    args = ap.parse_args(argv)
    counts = [int(n) for n in args.threads.split(",")]
    seeds = [int(n) for n in args.seeds.split(",")] if args.lockstep else []
    print(f"{'set':<13} {'threads':>7} {'time':>9} {'speed-up':>8} {'nodes':>14} {'overhead':>8} "
          f"{'worst':>6} {'caller':>7} {'M/cpu-s':>7} {'ceiling':>7} {'lockstep':>8} {'(range)':>13} "
          f"{'ls-speed':>8}  answers", flush=True)
    for name in args.sets.split(","):
        if name == "stop":
            for threads in counts:
                print(f"{'stop':<13} {threads:>7} {stop_latency(threads) * 1000:>8.1f} ms from Ctrl-C "
                      f"to every thread stopped (worst of 5)", flush=True)
            continue
        items = positions(name, args)
        # every search --repeat times, the thread counts in turn (1, 2, 1, 2, ...), so that a
        # machine whose speed drifts slows each count alike; a position's time is its
        # fastest, its nodes and CPU time the median
        tries: dict = {threads: [[] for _ in items] for threads in counts}
        free = [threads for threads in counts if threads == counts[0] or not args.lockstep_only]
        for k, (_, pos, target) in enumerate(items):
            for _ in range(args.repeat):
                for threads in free:
                    tries[threads][k].append(run_one(pos, target, threads, args))
        # in lockstep: each seed once (the node counts do not change from run to run)
        stepped = {threads: [[run_one(pos, target, threads, args, seed) for _, pos, target in items]
                             for seed in seeds] for threads in counts if threads > 1}
        base = None
        for threads in counts:
            lockstep = lockstep_columns(stepped.get(threads), base or [best_of(t) for t in tries[counts[0]]],
                                        items, args.verbose, threads)
            if threads not in free:
                print(f"{name:<13} {threads:>7} {'-':>9} {'-':>8} {'-':>14} {'-':>8} {'-':>6} {'-':>7} "
                      f"{'-':>7} {'-':>7} {lockstep}", flush=True)
                continue
            runs = [best_of(t) for t in tries[threads]]
            if args.verbose:
                for (label, _, _), (t, n, _, a, c, *_) in zip(items, runs):
                    print(f"    {label}: {threads} threads {t:.3f} s, {n:,} nodes ({c:,} the caller's), {a}",
                          flush=True)
            total = sum(r[0] for r in runs)
            nodes = sum(r[1] for r in runs)
            answers = [r[3] for r in runs]
            if base is None:
                base = runs
            speed = sum(r[0] for r in base) / total
            overhead = nodes / sum(r[1] for r in base)
            worst = max(r[0] / b[0] for r, b in zip(runs, base))
            # The baseline's nodes over the caller's: the speed-up the node counts promise if
            # every thread ran as fast as one alone (a figure a busy or small machine can give)
            caller = sum(r[1] for r in base) / sum(r[4] for r in runs)
            # millions of nodes per CPU second, all threads together: how fast each thread
            # ran against one alone (cores that slow each other, threads that wait)
            rate = nodes / max(sum(r[5] for r in runs), 1e-9) / 1e6
            # (one thread: the searches are measured; more: what their alone part allows)
            most = ceiling(base, threads, runs[0][7] if threads > 1 else 1 << 62)
            most = f"{most:>6.2f}x" if most is not None else f"{'-':>7}"
            same = "" if answers == [r[3] for r in base] else "  DIFFERENT ANSWERS"
            print(f"{name:<13} {threads:>7} {total:>8.2f}s {speed:>7.2f}x {nodes:>14,} {overhead:>7.2f}x "
                  f"{worst:>5.2f}x {caller:>6.2f}x {rate:>7.2f} {most} {lockstep}  "
                  f"{statistics.median(r[0] for r in runs):.3f} s median{same}", flush=True)


def lockstep_columns(seeded: list | None, base: list, items: list, verbose: bool, threads: int) -> str:
    """The lockstep's columns of one thread count: the overhead (the median over the seeds,
    and their range) and one thread's nodes over the caller's; "-" without lockstep runs."""
    if not seeded:
        return f"{'-':>8} {'-':>13} {'-':>8}"
    one = sum(b[1] for b in base)
    overheads = sorted(sum(r[1] for r in runs) / one for runs in seeded)
    speeds = sorted(one / sum(r[4] for r in runs) for runs in seeded)
    if verbose:
        for (label, _, _), *per_seed in zip(items, *seeded):
            print(f"    {label}: {threads} threads in lockstep, nodes (the caller's) by seed: " +
                  ", ".join(f"{r[1]:,} ({r[4]:,}){'' if r[3] == per_seed[0][3] else ' ' + r[3]}"
                            for r in per_seed), flush=True)
    wrong = any(r[3] != b[3] for runs in seeded for r, b in zip(runs, base))
    return (f"{statistics.median_low(overheads):>7.2f}x {f'({overheads[0]:.2f}-{overheads[-1]:.2f})':>13} "
            f"{statistics.median_low(speeds):>7.2f}x" + ("  LOCKSTEP ANSWERS DIFFER" if wrong else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
