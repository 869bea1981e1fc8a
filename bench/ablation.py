"""Each search technique switched off (or on) in turn: nodes and time on the bench sets.

    python bench/ablation.py                                  # the table of docs/search.md
    python bench/ablation.py --sets fr4-end8 --count 10 --time-limit 20

For every configuration and set, the value alone (``Engine.value()``) of the first
``--count`` positions, one core, a fresh table each.  Shown: median nodes, median time and
positions stopped by ``--time-limit``; the ratio against the default configuration is the
median of the per-position node ratios.  Every configuration must find the same values
(the script says so when one does not).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from atout.position import loads
from atout.solver import DEFAULT_FEATURES, FEATURES, make_engine

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_SETS = "fr4-end8,fr3-end10,fr5-end8,priest5-end8,at4-farbendreier-full,at4-solorufer-full"


def configurations() -> list[tuple[str, int]]:
    out = [("default", DEFAULT_FEATURES)]
    for name, bit in FEATURES.items():
        if DEFAULT_FEATURES & bit:
            out.append((f"without {name}", DEFAULT_FEATURES & ~bit))
        else:
            out.append((f"with {name}", DEFAULT_FEATURES | bit))
    out.append(("plain (all off)", 0))
    return out


def run(lines: list[str], features: int, time_limit: float, tt_mb: int | None):
    rows = []
    for line in lines:
        engine = make_engine(loads(line), tt_mb, features)
        engine.set_limits(0, time_limit)
        started = time.perf_counter()
        done, lo, hi = engine.value()
        rows.append((engine.nodes, time.perf_counter() - started, done, lo if done else None))
    return rows


def fmt_nodes(n: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    ap.add_argument("--count", type=int, default=20, help="positions per set")
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--tt-mb", type=int, default=None,
                    help="table size in MB (default: the solver's, by the tricks left)")
    args = ap.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    print("| configuration | " + " | ".join(sets) + " |")
    print("|---|" + "---|" * len(sets))
    base: dict[str, list] = {}
    for label, features in configurations():
        cells = []
        for name in sets:
            lines = [l for l in (DATA / f"{name}.jsonl").read_text().splitlines() if l.strip()]
            rows = run(lines[:args.count], features, args.time_limit, args.tt_mb)
            nodes = statistics.median(r[0] for r in rows)
            secs = statistics.median(r[1] for r in rows)
            hits = sum(not r[2] for r in rows)
            cell = f"{fmt_nodes(nodes)}, {secs * 1000:.0f} ms"
            if name in base:
                ratio = statistics.median(r[0] / b[0] for r, b in zip(rows, base[name]) if b[0])
                cell += f" (×{ratio:.2f})"
                if any(r[2] and b[2] and r[3] != b[3] for r, b in zip(rows, base[name])):
                    cell += " **values differ**"
            else:
                base[name] = rows
            if hits:
                cell += f", {hits} stopped"
            cells.append(cell)
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
