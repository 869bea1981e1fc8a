"""Solver benchmarks over the positions of bench/data/*.jsonl, one core.

    pytest bench/ --benchmark-only                       # every set
    pytest bench/ --benchmark-only -k end8               # some sets
    ATOUT_BENCH_TIME_LIMIT=60 ATOUT_BENCH_COUNT=10 pytest bench/ --benchmark-only

Each set is one benchmark: every position solved once (value, every optimal card and
the line, as `atout solve` does).  The per-position seconds and nodes go into the
benchmark's extra_info (median, max, limits hit) and are printed as a table at the end.
A position stopped by ATOUT_BENCH_TIME_LIMIT (default 60 s) counts with its time at the
limit and is listed as a limit hit.
"""

from __future__ import annotations

import os
import statistics
from pathlib import Path

import pytest

from atout.position import loads
from atout.solver import solve

BENCH_DIR = Path(os.environ.get("ATOUT_BENCH_DIR",
                                Path(__file__).resolve().parent / "data"))
TIME_LIMIT = float(os.environ.get("ATOUT_BENCH_TIME_LIMIT", "60"))
COUNT = int(os.environ.get("ATOUT_BENCH_COUNT", "0"))  # 0: every position of a set
SETS = sorted(p.stem for p in BENCH_DIR.glob("*.jsonl"))
SUMMARY: list[str] = []


def _positions(name: str):
    lines = [l for l in (BENCH_DIR / f"{name}.jsonl").read_text().splitlines() if l.strip()]
    return [loads(l) for l in (lines[:COUNT] if COUNT else lines)]


@pytest.mark.skipif(not SETS, reason=f"no benchmark positions in {BENCH_DIR}")
@pytest.mark.parametrize("name", SETS)
def test_solve_set(benchmark, name):
    positions = _positions(name)
    runs = []

    def solve_all():
        runs.clear()
        for p in positions:
            runs.append(solve(p, time_limit=TIME_LIMIT))

    benchmark.pedantic(solve_all, rounds=1, iterations=1)
    seconds = [r.seconds for r in runs]
    nodes = [r.nodes for r in runs]
    limits = sum(r.status != "ok" for r in runs)
    info = {"positions": len(runs), "median_s": statistics.median(seconds), "max_s": max(seconds),
            "median_nodes": statistics.median(nodes), "max_nodes": max(nodes), "limit_hits": limits,
            "time_limit_s": TIME_LIMIT}
    benchmark.extra_info.update(info)
    SUMMARY.append(f"{name:28s} n={len(runs):3d} median {info['median_s'] * 1000:10.1f} ms  "
                   f"max {info['max_s']:8.2f} s  median nodes {info['median_nodes']:>12,.0f}  "
                   f"limit hits {limits}")
    assert all(r.status in ("ok", "limit") for r in runs)


def teardown_module(module):
    if SUMMARY:
        print("\n" + "\n".join(SUMMARY))
