"""What `atout analyze` tells of whole played deals within a time limit: each card's verdict.

    python bench/analyze.py                                   # 3 deals of each set, 60 s each
    python bench/analyze.py --sets fr4-full --count 2 --time-limit 300
    python bench/analyze.py --sets fr4-full --count 1 --reports out.jsonl   # the reports too
    python bench/analyze.py --node-rate 2e6 --threads 1       # the same on a busy machine

Each deal is one of a ``*-full`` set's deals (``bench/data``) played to the end: each card
the search's first guess (its move ordering: cash masters, give points to a partner's
trick, win cheaply, keep points) three times in four, else a random legal card — a deal
a player might have played, with mistakes (seeded: every run sees the same deals).  The
whole deal is analysed from its first card with ``--time-limit`` and ``--threads``.

Per deal, the cards by verdict: an exact cost, one of the best (cost 0, exact), a proven
mistake (exact or at least N), decisive, not judged; the share with an *actionable*
verdict (exact, or a proven mistake: what a player can act on); whether ``made_before`` is
proven at every card; the first trick from which every cost is exact; the wall time.  Then
per set the totals.  On a machine shared with other work the time limit is still kept, but
less is found within it: the CPU seconds the analysis got (all its threads) say how much,
beside the wall time.  ``--node-rate R`` counts the time in nodes instead (R a second: the
analysis' node clock), so that a busy machine finds what a quiet one would.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from atout.position import Position
from atout.solver import make_engine
from atout.solver.analyze import analyze
from atout.solver.params import card_of_code
from scaling import load

DEFAULT_SETS = "fr4-full,fr5-full,priest5-full,fr3-full,at4-solorufer-full"
#: the share of cards played by the search's first guess (the others: a random legal card)
FIRST_GUESS = 0.75


def played_deal(deal: Position, rng: random.Random) -> Position:
    """``deal`` played to the end: the search's first guess, or now and then a random card."""
    pos = deal.copy()
    names = card_of_code(pos.rules)
    while not pos.is_finished:
        legal = pos.legal_cards()
        if rng.random() < FIRST_GUESS:
            card = names[make_engine(pos, 1).move_codes()[0]]
        else:
            card = rng.choice(legal)
        pos.play(card)
    return pos


def measure(pos: Position, time_limit: float, threads: int, tt_mb: int | None,
            node_rate: float | None = None) -> tuple[dict, dict]:
    """(figures, report) of one analysis of the whole deal ``pos``."""
    started, cpu = time.perf_counter(), time.process_time()
    report = analyze(pos, time_limit=time_limit, threads=threads, tt_mb=tt_mb,
                     node_rate=node_rate)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    plays = report["plays"]
    exact = [p["cost"] is not None for p in plays]
    mistakes = [(p["cost"] or 0) > 0 or (p["cost"] is None and p["cost_bounds"][0] > 0)
                for p in plays]
    # the first card from which every cost is exact (len(plays): none), and the first
    # trick whose every card is: a trick begins at a multiple of the seats
    first_exact = next((k for k in range(len(plays)) if all(exact[k:])), len(plays))
    first_trick = -(-first_exact // pos.seats)
    figures = {"cards": len(plays), "exact": sum(exact),
               "best": sum(p["cost"] == 0 for p in plays), "mistakes": sum(mistakes),
               "not_judged": len(plays) - sum(p["cost"] == 0 for p in plays) - sum(mistakes),
               "made": sum(p["made_before"] is not None for p in plays),
               "made_everywhere": all(p["made_before"] is not None for p in plays),
               "exact_from_trick": first_trick + 1
               if first_trick * pos.seats < len(plays) else None,
               "decisive": sum(p["decisive"] for p in plays),
               "start_made": report["made"], "seconds": seconds, "cpu": cpu}
    return figures, report


def _share(part: int, whole: int) -> str:
    return f"{100 * part / (whole or 1):.0f} %"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=DEFAULT_SETS, help="whole-deal sets of bench/data, comma separated")
    ap.add_argument("--count", type=int, default=3, help="deals per set")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first deals of each set")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--tt-mb", type=int, default=None)
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--reports", metavar="FILE", help="also write each report there, one JSON line")
    ap.add_argument("--node-rate", type=float, default=None, metavar="R",
                    help="count the time limit in nodes, R a second (the analysis' node clock)")
    args = ap.parse_args(argv)

    clock = f", time counted as {args.node_rate:g} nodes a second" if args.node_rate else ""
    print(f"whole played deals, `atout analyze --time-limit {args.time_limit:g} "
          f"--threads {args.threads}`{clock}\n")
    print("| set | deal | cards | exact cost | best | mistakes | decisive | not judged "
          "| actionable | made proven | made at every card | exact from trick | made at the start "
          "| seconds | CPU seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    reports = open(args.reports, "w") if args.reports else None
    keys = ("cards", "exact", "best", "mistakes", "decisive", "not_judged", "made", "seconds", "cpu")
    for name in [s for s in args.sets.split(",") if s.strip()]:
        rng = random.Random(f"{args.seed}-{name}")
        deals = [played_deal(d, rng) for d in load(name)[:args.skip + args.count]][args.skip:]
        total = dict.fromkeys(keys, 0)
        total["everywhere"] = total["actionable"] = 0
        for i, pos in enumerate(deals):
            f, report = measure(pos, args.time_limit, args.threads, args.tt_mb, args.node_rate)
            if reports is not None:
                reports.write(json.dumps(report) + "\n")
                reports.flush()
            print(f"| {name} | {args.skip + i} | {f['cards']} | {f['exact']} | {f['best']} | "
                  f"{f['mistakes']} | {f['decisive']} | {f['not_judged']} | "
                  f"{_share(f['cards'] - f['not_judged'], f['cards'])} | "
                  f"{f['made']} | {'yes' if f['made_everywhere'] else 'no'} | "
                  f"{f['exact_from_trick'] or '-'} | "
                  f"{ {True: 'made', False: 'down', None: 'open'}[f['start_made']]} | "
                  f"{f['seconds']:.1f} | {f['cpu']:.1f} |", flush=True)
            for k in keys:
                total[k] += f[k]
            total["actionable"] += f["cards"] - f["not_judged"]
            total["everywhere"] += f["made_everywhere"]
        n = total["cards"] or 1
        print(f"| {name} | all {len(deals)} | {total['cards']} | {_share(total['exact'], n)} | "
              f"{_share(total['best'], n)} | {_share(total['mistakes'], n)} | {total['decisive']} | "
              f"{_share(total['not_judged'], n)} | **{_share(total['actionable'], n)}** | "
              f"{_share(total['made'], n)} | {total['everywhere']} of {len(deals)} | | | "
              f"{total['seconds']:.0f} | {total['cpu']:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
