"""Duplicate matches between two bots: each deal played twice, the bots' seats swapped.

    python bench/duplicate.py --game fr4 --count 40 --a advice:8M --b rule -o fr4-rule.jsonl
    python bench/duplicate.py --game fr4 --a advice:2s --b advice:30s -o fr4-2-30.jsonl
    python bench/duplicate.py --summary fr4-rule.jsonl fr4-2-30.jsonl     # the table again

As duplicate tarot and bridge are played: in the first play of a deal, bot A holds every
seat of the declarer's camp (the taker and a partner, the caller's party, the declarer's)
and bot B the others; in the second play the seats are swapped.  The luck of the cards
is the same for both bots, so the difference of what each made as declarer — value
first play minus value second play, in the game's solver value (French Tarot: the score
per defender from the taker's side; Priestertarock: the caller's party's points minus
the others'; Austrian Tarock: the declarer's camp's points or 1/0 for a goal) — is A's
advantage on that deal; the table gives its mean over the deals with the standard error
(the standard deviation over the deals / √n) and how many deals each bot won.

The deals are the bench's whole deals (``bench/data/<game>-full.jsonl``, at4:
``at4-solorufer-full``), played from the deal as dealt with its contract
(:mod:`atout.solver.play`).  A bot is ``advice:B`` (the advice from its seat's view),
``perfect:B`` (double dummy, every hand seen) or ``rule`` (the highest card that wins the
trick so far, else the cheapest), B a budget a card: seconds (``2s``) or nodes (``8M``,
``500k``).  Budgets in nodes make a match the same on any machine, however loaded (4 M
nodes is about a second of one core: docs/single-dummy.md); seconds are what a player
waits.  Each deal's result is a line of ``-o`` as soon as both plays are over, with the
two played deals: a run stopped (Ctrl-C, SIGTERM, a crash) goes on where it stopped when
started again with the same arguments.  Run it in the background, ``nice -n 10``, one
at a time on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import signal
import statistics
import sys
import threading
import time
from pathlib import Path

from atout.position import loads
from atout.solver import Cancel
from atout.solver.bots import bot_of
from atout.solver.play import Stopped, play_deal

DATA = Path(__file__).resolve().parent / "data"
SETS = {"fr4": "fr4-full", "fr3": "fr3-full", "fr5": "fr5-full", "priest5": "priest5-full",
        "at4": "at4-solorufer-full"}


def parse_bot(spec: str, workers: int | None, samples: int):
    """A bot from ``kind[:budget]`` (see the module)."""
    kind, _, budget = spec.partition(":")
    time_limit = node_limit = None
    if budget:
        b = budget.strip().lower()
        if b.endswith("s"):
            time_limit = float(b[:-1])
        else:
            scale = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}.get(b[-1], 1)
            node_limit = int(float(b[:-1] if b[-1] in "kmg" else b) * scale)
    elif kind != "rule":
        raise SystemExit(f"bot {spec!r}: give a budget a card, e.g. {kind}:2s or {kind}:8M")
    return bot_of(kind, time_limit=time_limit, node_limit=node_limit, samples=samples,
                  workers=workers)


def declarers(position) -> list[int]:
    """The seats of the declarer's camp (the side the solver's value is for)."""
    con = position.contract
    return [s for s in range(position.seats) if con.camp[s] == con.maximizer]


def cpu() -> float:
    """The processor time of this process so far, every thread."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def play_twice(deal, a, b, seed: int, number: int, cancel=None) -> dict:
    """Both plays of ``deal``: A in the declarer's camp, then B; the result line."""
    camp = set(declarers(deal))
    out = {"id": deal.id, "game": deal.game, "number": number, "a": a.name, "b": b.name,
           "declarers": sorted(camp)}
    plays = []
    for first, second in ((a, b), (b, a)):
        bots = [first if s in camp else second for s in range(deal.seats)]
        started, cpu_started = time.perf_counter(), cpu()
        played = play_deal(deal, bots, seed=seed, number=number, cancel=cancel)
        value = played.position.outcome()["value"]
        searched = [c for c in played.choices if c.how != "only card"]
        plays.append({"value": value, "seconds": round(played.seconds, 2),
                      "cpu": round(cpu() - cpu_started, 2), "cards": len(searched),
                      "nodes": sum(c.nodes for c in searched),
                      "slowest": round(max((c.seconds for c in searched), default=0.0), 2),
                      "played": played.position.to_json()["played"]})
    out["plays"] = plays
    out["diff"] = plays[0]["value"] - plays[1]["value"]
    return out


def summary(lines: list[dict]) -> str:
    """The table row of a match's result lines."""
    first = lines[0]
    diffs = [x["diff"] for x in lines]
    n = len(diffs)
    mean = statistics.mean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else float("nan")
    won = sum(d > 0 for d in diffs)
    lost = sum(d < 0 for d in diffs)
    cpu_total = sum(p["cpu"] for x in lines for p in x["plays"])
    nodes = sum(p["nodes"] for x in lines for p in x["plays"])
    wall = sum(p["seconds"] for x in lines for p in x["plays"])
    slowest = max(p["slowest"] for x in lines for p in x["plays"])
    return (f"| {first['game']} | {first['a']} | {first['b']} | {n} | {mean:+.1f} ± {se:.1f} | "
            f"{won} / {lost} / {n - won - lost} | {cpu_total / (2 * n):.0f} s | "
            f"{nodes / (2 * n) / 1e6:.0f} M | {wall / (2 * n):.0f} s | {slowest:.1f} s |")


HEAD = ("| game | bot A | bot B | deals | A − B per deal (± se) | A won / lost / even | CPU a "
        "play | nodes a play | wall a play | slowest card (wall) |\n"
        "|---|---|---|---|---|---|---|---|---|---|")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="fr4", choices=sorted(SETS))
    ap.add_argument("--count", type=int, default=40, help="deals (from the set's first)")
    ap.add_argument("--start", type=int, default=0, help="the set's first deal to play")
    ap.add_argument("--a", default="advice:2s", help="bot A (see the module)")
    ap.add_argument("--b", default="rule", help="bot B")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the advice's draws")
    ap.add_argument("--samples", type=int, default=100, help="the most draws of an advice")
    ap.add_argument("--workers", type=int, default=None, help="searches side by side per advice")
    ap.add_argument("-o", "--output", help="result lines (appended; deals already there are skipped)")
    ap.add_argument("--summary", nargs="+", metavar="FILE", help="only print the table of these files")
    args = ap.parse_args(argv)
    if args.summary:
        print(HEAD)
        for name in args.summary:
            lines = [json.loads(x) for x in Path(name).read_text().splitlines() if x.strip()]
            if lines:
                print(summary(lines))
        return 0
    if not args.output:
        ap.error("-o is needed (the results, resumable)")
    a, b = (parse_bot(x, args.workers, args.samples) for x in (args.a, args.b))
    deals = [loads(x) for x in (DATA / f"{SETS[args.game]}.jsonl").read_text().splitlines() if x.strip()]
    chosen = list(enumerate(deals))[args.start:args.start + args.count]
    done = set()
    path = Path(args.output)
    if path.exists():
        done = {json.loads(x)["number"] for x in path.read_text().splitlines() if x.strip()}
    print(f"{args.game}: {a.name} against {b.name}, {len(chosen)} deals ({len(done)} done before), "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", file=sys.stderr)
    cancel = Cancel()
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        with path.open("a") as out:
            for number, deal in chosen:
                if number in done:
                    continue
                result = _stoppable(play_twice, cancel, deal, a, b, args.seed, number, cancel)
                out.write(json.dumps(result) + "\n")
                out.flush()
                print(f"  {deal.id}: {result['diff']:+} (A declares {result['plays'][0]['value']}, "
                      f"B declares {result['plays'][1]['value']}; "
                      f"{result['plays'][0]['seconds'] + result['plays'][1]['seconds']:.0f} s, "
                      f"load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
    except (KeyboardInterrupt, Stopped):
        print("stopped: the deals finished are kept", file=sys.stderr)
        return 130
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    print(HEAD)
    print(summary(lines))
    return 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _stoppable(fn, cancel, *args):
    """``fn(*args)`` in a thread, the main thread waiting where a signal can reach it:
    Ctrl-C or SIGTERM sets ``cancel``, which stops the searches at once."""
    box: dict = {}
    over = threading.Event()

    def work():
        try:
            box["value"] = fn(*args)
        except BaseException as e:
            box["error"] = e
        finally:
            over.set()
    threading.Thread(target=work, daemon=True).start()
    while not over.is_set():
        try:
            over.wait(0.5)
        except KeyboardInterrupt:
            cancel.set()
    if "error" in box:
        raise box["error"]
    return box["value"]


if __name__ == "__main__":
    sys.exit(main())
