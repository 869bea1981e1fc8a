"""What it costs to settle each searched garde of a contract table: nodes and time a cell.

    python bench/gardes.py                       # fr4-full and fr5-full, 2e8 nodes a cell
    python bench/gardes.py --sets fr4-full --threads 2 --node-limit 0 --time-limit 60
    python bench/gardes.py --sets fr4-full --count 1 --seats 2 --out cells.jsonl
    python bench/gardes.py --sets fr4-full --whole-table --node-limit 8.4e8
    python bench/gardes.py --sets fr4-full --whole-table --ids fr4-full-001,fr4-full-006
    python bench/gardes.py --sets fr4-full --depth-first --skip fr4-full-000:1,fr4-full-002:2

The deals are bench/table.py's (a French deal as dealt, the taker's écart as the dog), and
every seat's ``garde`` is asked over every écart, each cell alone: the contract table's
search of that one cell (its unit and turns, as ``atout table`` runs them) on ``--threads``
threads within ``--time-limit`` seconds and ``--node-limit`` nodes (the last turn's budget
cut to what is left: so on one thread a cell's figures are the same on any machine, however
busy, when the time limit does not bind).  Per cell: made, not made or open; the nodes until
it was settled — made: until a class made it; not made: every class refuted — which are the
same on any machine on one thread; the CPU and wall seconds; the classes refuted.  Then the
totals and medians per set.

``--depth-first``: each cell as one search whose first six moves were the taker's écart
would walk it (issue 68's other way): the écart classes depth first, in the classes' order,
each searched to the end on the one table before the next — a stand-in that measures its
nodes with the engine as it is.

``--whole-table``: each deal's whole table instead (every cell, the implied answers on),
within ``--node-limit`` nodes in all — on one thread, what two cores search in 120 s at
3.5 M nodes a second is 8.4e8: the cells proven by kind, the same on any machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table import deals  # noqa: E402


def picked(name: str, count: int, ids: str | None) -> list[dict]:
    """The first ``count`` deals of the set, or those named in ``ids`` (comma-separated)."""
    if not ids:
        return deals(name, count)
    wanted = set(ids.split(","))
    return [obj for obj in deals(name, 10 ** 6) if obj.get("id") in wanted]


def cells_of(obj: dict):
    """The deal's table spec and its searched gardes."""
    from atout.contract_table import table_spec
    from atout.dealt import dealt
    from atout.position import parse_position

    spec = table_spec(dealt(parse_position(obj)), ["garde"])
    return spec, [c for c in spec.cells if c.ecart == "searched"]


def search(spec, cells, time_limit: float, node_limit: int, threads: int,
           tt_mb: int | None, implications: bool = False):
    """``cells`` of ``spec`` searched as the contract table searches them: (their results,
    the nodes, the CPU and wall seconds, and for each cell settled the nodes the whole
    search had spent when it was)."""
    from atout.contract_table import TableSpec
    from atout.solver import Cancel
    from atout.solver import contract_table as ct

    class Capped(ct._Search):
        """The table's search, stopped before a turn once it has spent ``node_limit``."""

        def turn(self, unit, threads):
            if node_limit and self.nodes >= node_limit:
                with self.cond:
                    self.stopped_by = self.stopped_by or "nodes"
                    self.cond.notify_all()
                return
            if node_limit:      # (a turn's budget doubles: the last one up to the limit)
                unit.budget = min(unit.budget, node_limit - self.nodes)
            super().turn(unit, threads)

    part = TableSpec(spec.dealt, list(cells), [])
    table_cells, units = ct._units(part)
    settled_at: dict = {}

    def changed(cs) -> None:        # (called under the search's lock, after a turn)
        for c in cs:
            if c.result.made is not None:
                settled_at.setdefault(c.index, run.nodes)

    started, cpu = time.perf_counter(), time.process_time()
    run = Capped(table_cells, units, threads, started + time_limit, Cancel(), False,
                 tt_mb or ct.DEFAULT_TT_MB, implications, changed)
    run.run()
    return ([c.result for c in table_cells], run.nodes, time.process_time() - cpu,
            time.perf_counter() - started, settled_at)


def settle(spec, cell, time_limit: float, node_limit: int, threads: int,
           tt_mb: int | None) -> dict:
    """One cell searched alone, as the contract table searches it."""
    (r,), nodes, cpu, seconds, _ = search(spec, [cell], time_limit, node_limit, threads,
                                          tt_mb)
    return {"seat": cell.seat, "called": cell.called, "classes": len(cell.classes),
            "made": r.made, "refuted": r.refuted, "bounds": [r.lo, r.hi],
            "nodes": nodes, "cpu": cpu, "seconds": seconds}


def depth_first(cell, node_limit: int, tt_mb: int | None) -> dict:
    """The cell as one search whose first six moves are the taker's écart would walk it:
    depth first, each écart searched to the end before the next, in the order a move
    ordering would try them (``atout.ecart.promise``'s, the classes' order), on one table.
    A stand-in measured with the engine as it is (a class's proof is the same whole-deal
    search under the six moves as here; what the core would add is the moves' own few
    nodes), against the table's budgets that double class by class (``settle``)."""
    from atout.errors import PositionError
    from atout.scoring import made_threshold
    from atout.solver import ask_made, make_engine
    from atout.solver import contract_table as ct
    from atout.solver.ecarts import rebase_to
    from atout.solver.params import engine_params

    engine, game, threshold = None, None, None
    nodes = refuted = 0
    made = None
    cpu, started = time.process_time(), time.perf_counter()
    for k in cell.classes:
        try:
            pos = cell.with_ecart(k.ecart)
        except PositionError:               # (an écart the rules refuse: no choice)
            refuted += 1
            continue
        if engine is None:
            engine = make_engine(pos, ct.FIRST_TT_MB, grow_to_mb=tt_mb or ct.DEFAULT_TT_MB)
            threshold = made_threshold(pos.contract, pos.hands)
            game = {key: v for key, v in engine_params(pos).items() if key != "state"}
        else:
            rebase_to(engine, game, pos)
        if node_limit and nodes >= node_limit:
            break
        engine.set_limits(node_limit - nodes if node_limit else 0, 0)
        before = engine.nodes
        done, lo, hi = ask_made(engine, threshold, *engine.bounds())
        nodes += engine.nodes - before
        if not done:
            break
        if lo >= threshold:
            made = True
            break
        refuted += 1
    if refuted == len(cell.classes):
        made = False
    return {"seat": cell.seat, "called": cell.called, "classes": len(cell.classes),
            "made": made, "refuted": refuted, "bounds": [None, None], "nodes": nodes,
            "cpu": time.process_time() - cpu, "seconds": time.perf_counter() - started}


def whole_tables(args) -> int:
    """--whole-table: each deal's whole table within the node limit (module docstring)."""
    from atout.contract_table import table_spec
    from atout.dealt import dealt
    from atout.position import parse_position

    print("| set | deals | gardes proven | garde sans/contre proven | other cells proven | "
          "nodes | CPU s | nodes to settle the garde sans/contre, the others (sum over the deals "
          "where all settled) |")
    out = open(args.out, "w") if args.out else None
    for name in [s for s in args.sets.split(",") if s]:
        chosen = picked(name, args.count or (10 if name == "fr4-full" else 2), args.ids)
        totals = [0] * 6
        nodes = cpu = 0.0
        at = {"gsgc": 0, "other": 0}
        whole = {"gsgc": 0, "other": 0}     # the deals where every cell of the kind settled
        for obj in chosen:
            spec = table_spec(dealt(parse_position(obj)))
            results, n, c, _, settled_at = search(
                spec, spec.cells, args.time_limit, int(args.node_limit), args.threads,
                args.tt_mb, implications=True)
            kinds = ["garde" if cell.contract == "garde" else
                     "gsgc" if cell.contract in ("garde_sans", "garde_contre") else "other"
                     for cell in spec.cells]
            for i, kind in enumerate(("garde", "gsgc", "other")):
                mine = [r for k, r in zip(kinds, results) if k == kind]
                totals[2 * i] += sum(r.made is not None for r in mine)
                totals[2 * i + 1] += len(mine)
            for kind in at:
                mine = [i for i, k in enumerate(kinds) if k == kind]
                if mine and all(i in settled_at for i in mine):
                    at[kind] += max(settled_at[i] for i in mine)
                    whole[kind] += 1
            nodes += n
            cpu += c
            if out is not None:
                out.write(json.dumps({"id": obj.get("id"), "nodes": n, "cpu": c, "cells": [
                    dict(cell.key(), made=r.made, settled_at=settled_at.get(i))
                    for i, (cell, r) in enumerate(zip(spec.cells, results))]}) + "\n")
            print(f"  {obj.get('id')}: gardes "
                  f"{sum(r.made is not None for k, r in zip(kinds, results) if k == 'garde')}, "
                  f"{n / 1e6:.0f} M nodes, {c:.0f} CPU s", file=sys.stderr, flush=True)
        print(f"| {name} | {len(chosen)} | {totals[0]} of {totals[1]} | "
              f"{totals[2]} of {totals[3]} | {totals[4]} of {totals[5]} | {nodes / 1e6:.0f} M | "
              f"{cpu:.0f} | {at['gsgc'] / 1e6:.1f} M ({whole['gsgc']} deals), "
              f"{at['other'] / 1e6:.1f} M ({whole['other']} deals) |")
    if out is not None:
        out.close()
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sets", default="fr4-full,fr5-full")
    p.add_argument("--count", type=int, default=None, help="deals of each set (default: "
                                                           "10 of fr4, 2 of the others)")
    p.add_argument("--seats", default=None, help="only these seats' gardes (e.g. 0,2)")
    p.add_argument("--time-limit", type=float, default=600.0, help="seconds a cell (600)")
    p.add_argument("--node-limit", type=float, default=2e8, help="nodes a cell, checked "
                                                                 "before each turn (2e8)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--tt-mb", type=int, default=None)
    p.add_argument("--out", metavar="FILE", help="one JSON line per cell")
    p.add_argument("--ids", help="only these deals (comma-separated ids; --count ignored)")
    p.add_argument("--skip", default="", help="cells to leave out: id:seat,... "
                                              "(e.g. fr4-full-000:1)")
    p.add_argument("--depth-first", action="store_true",
                   help="each cell as one search with the écart as its first moves would "
                        "walk it: écarts depth first, each to the end (one thread)")
    p.add_argument("--whole-table", action="store_true",
                   help="each deal's whole table instead, within --node-limit in all")
    args = p.parse_args()
    if args.whole_table:
        return whole_tables(args)
    out = open(args.out, "w") if args.out else None
    seats = {int(s) for s in args.seats.split(",")} if args.seats else None
    skip = set(args.skip.split(","))
    print("| set | cells | made | not made | open | nodes to settle (median, max) | "
          "CPU s to settle (median, max) |")
    rows = []
    for name in [s for s in args.sets.split(",") if s]:
        count = args.count or (10 if name == "fr4-full" else 2)
        results = []
        for obj in picked(name, count, args.ids):
            spec, cells = cells_of(obj)
            for cell in cells:
                if seats is not None and cell.seat not in seats or \
                        f"{obj.get('id')}:{cell.seat}" in skip:
                    continue
                if args.depth_first:
                    r = depth_first(cell, int(args.node_limit), args.tt_mb)
                else:
                    r = settle(spec, cell, args.time_limit, int(args.node_limit),
                               args.threads, args.tt_mb)
                r["id"] = obj.get("id")
                results.append(r)
                state = {True: "made", False: "not made", None: "open"}[r["made"]]
                print(f"  {r['id']} seat {r['seat']}"
                      + (f" calling {r['called']}" if r["called"] is not None else "")
                      + f": {state}, {r['refuted']} of {r['classes']} refuted, "
                      f"{r['nodes'] / 1e6:.2f} M nodes, {r['cpu']:.1f} CPU s, "
                      f"{r['seconds']:.1f} s", file=sys.stderr, flush=True)
                if out is not None:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
        done = [r for r in results if r["made"] is not None]
        nodes = [r["nodes"] for r in done]
        cpu = [r["cpu"] for r in done]
        rows.append(f"| {name} | {len(results)} | {sum(r['made'] is True for r in results)} | "
                    f"{sum(r['made'] is False for r in results)} | "
                    f"{sum(r['made'] is None for r in results)} | "
                    + (f"{statistics.median(nodes) / 1e6:.2f} M, {max(nodes) / 1e6:.1f} M | "
                       f"{statistics.median(cpu):.1f}, {max(cpu):.1f} |" if done else "- | - |"))
    print("\n".join(rows))
    if out is not None:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
