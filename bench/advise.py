"""How fast and how good single-dummy advice is: ``atout advise`` on positions of every game.

    python bench/advise.py                                   # every game, 8/10/12 tricks left
    python bench/advise.py --games fr4 --tricks 10 --count 10 --reference 2000
    python bench/advise.py --costs 3 --tricks 10 --count 3 --samples 6   # nodes per draw
    python bench/advise.py --budget 2s --against 30s --games fr4 --tricks 10  # issue 66
    taskset -c 0,1 python bench/advise.py                    # on two cores of a bigger machine

For each game and number of tricks left, ``--count`` positions made from the whole deals of
``bench/data/<game>-full.jsonl`` (at4: ``at4-solorufer-full``) by playing random legal cards
(seeded: every run sees the same positions) until that many tricks are left.  Each is
advised for the seat to play as ``atout advise`` does, on ``--workers`` searches side by
side: at most ``--samples`` draws, stopping once the recommended card is ahead with
``--confidence``.  Per game and tricks left:

* **time**: the whole advice, wall clock, median and worst; **CPU**: the processor time of
  every thread of it (on idle cores the wall time is about CPU / workers, so it says what
  a busy machine hides); a position that ``--time-limit`` stops counts at the limit;
* **draws**: the draws the advice used (median), how many positions stopped on the
  confidence (``decided``), and the draws those took (**draws to a decision**: median and
  worst, over the decided positions only) — what being sure costs, before and after a
  change of the stopping rule;
* **agreement**: the recommended card against a reference advice of ``--reference`` draws
  (another seed, no early stop; 0: none): the same card, or a card the reference cannot
  tell from its own at the same confidence (its ``p_better`` at least 1 − confidence), and
  the draws the reference solved (median: fewer than asked where
  ``--reference-time-limit`` stopped it);
* **true deal** (``--true-loss``): how often the recommended card is double-dummy best in
  the real deal, and what it loses there against that deal's best card — beside the mean
  over the legal cards (a random card).

``--budget B --against B2`` instead compares the budgeted advice (``--time-limit`` or a
node budget) with a bigger budget's on the same positions (:func:`against`): issue 66's
targets, the card of ``--time-limit 2`` at 10 tricks the 30 s advice's or one it cannot
tell apart in at least 90 % of the positions, and a loss against the 30 s card of at most
1 point a position on average by the 30 s draws (the same with 5 s at 12 tricks).

The targets of issue 50: a decision at 95 % confidence, or 100 draws, in at most 2 s at
10 tricks and 5 s at 12 (median, 2 cores), the reference's card in at least 90 % of the
positions.  The load average is printed with the table: wall-clock figures on a shared
machine are only as good as its load.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from atout.position import Position, loads
from atout.solver import solve
from atout.solver.advise import advise

DATA = Path(__file__).resolve().parent / "data"
SETS = {"fr4": "fr4-full", "fr3": "fr3-full", "fr5": "fr5-full", "priest5": "priest5-full",
        "at4": "at4-solorufer-full"}


def load(name: str) -> list[Position]:
    lines = [line for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line.strip()]
    return [loads(line) for line in lines]


def random_prefix(deal: Position, tricks_left: int, rng: random.Random) -> Position:
    pos = deal.copy()
    for _ in range((pos.rules.hand_size - tricks_left) * pos.seats):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def to_decide(decisions: list[int]) -> str:
    """The draws to a decision: median (worst) over the positions decided, – if none."""
    return f"{statistics.median(decisions):g} ({max(decisions)})" if decisions else "–"


def fmt(s: float) -> str:
    return f"{s * 1e3:.0f} ms" if s < 1 else f"{s:.2f} s"


def true_losses(pos: Position, time_limit: float, threads: int) -> tuple[dict, float] | None:
    """Each legal card's loss in the real deal against its best card (for the seat's
    camp), and the mean over the legal cards; None if ``time_limit`` stopped the solve."""
    r = solve(pos, all_cards=True, time_limit=time_limit, threads=threads)
    if r.status != "ok" or not r.cards:
        return None
    sign = 1 if pos.contract.camp[pos.to_play] == pos.contract.maximizer else -1
    losses = {c: sign * (r.value - v) for c, v in r.cards.items()}
    return losses, sum(losses.values()) / len(losses)


def draw_costs(game: str, tricks: int, positions: int, draws: int, keep: int, seed: int) -> str:
    """A table row: what one draw costs, in nodes, summed over ``draws`` draws of each of
    ``positions`` positions — every card exact, the value and the ``keep`` best cards
    (what a draw costs once the cards far behind are dropped), the value alone."""
    import random as _random

    from atout.knowledge import seat_knowledge
    from atout.position import parse_position
    from atout.sampler import Sampler
    from atout.solver import ask_made, make_engine
    from atout.scoring import made_threshold
    from atout.solver.advise import solve_cards

    deals = load(SETS[game])
    rng = _random.Random(seed * 100 + tricks)
    every = kept = alone = 0
    for i in range(positions):
        pos = random_prefix(deals[i % len(deals)], tricks, rng)
        sampler = Sampler(seat_knowledge(pos, pos.to_play))
        for obj in sampler.positions(_random.Random(i), draws):
            p = parse_position(obj)
            full = solve_cards(p)
            sign = 1 if p.contract.camp[p.to_play] == p.contract.maximizer else -1
            best = sorted(full.values, key=lambda c: -sign * full.values[c])[:keep]
            every += full.nodes
            kept += solve_cards(p, cards=best).nodes
            engine = make_engine(p)
            done, lo, hi = ask_made(engine, made_threshold(p.contract, p.hands), *engine.bounds())
            engine.value(at_least=lo, at_most=hi)
            alone += engine.nodes
    return (f"| {game} | {tricks} | {positions} × {draws} | {every / 1e6:.1f} M | "
            f"{kept / every:.2f}× | {alone / every:.2f}× |")


def budget_args(text: str) -> dict:
    """``advise`` keywords of a budget: ``2s`` (seconds) or ``8M`` / ``500k`` (nodes)."""
    b = text.strip().lower()
    if b.endswith("s"):
        return {"time_limit": float(b[:-1])}
    scale = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}.get(b[-1], 1)
    return {"node_limit": int(float(b[:-1] if b[-1] in "kmg" else b) * scale)}


def exact_loss(pos: Position, advice, card: str, seed: int,
               time_limit: float = 20.0) -> tuple[float, float]:
    """What ``card`` loses against ``advice``'s recommended card over the draws of that
    advice (the first ``advice.solved``, drawn again with its ``seed``), each solved for
    the two cards within ``time_limit`` seconds: (low, high), equal where every draw was
    solved, else the bounds the stopped ones proved."""
    from atout.position import parse_position
    from atout.solver.advise import draw, solve_cards

    rec = advice.recommended
    sign = 1 if advice.maximizing else -1
    deals = draw(pos, advice.solved, seed=seed)
    low = high = 0
    for key in deals.order:
        values = solve_cards(parse_position(deals.deals[key]), cards=[card, rec],
                             time_limit=time_limit).values
        r = values[rec] if isinstance(values[rec], list) else [values[rec]] * 2
        c = values[card] if isinstance(values[card], list) else [values[card]] * 2
        if sign > 0:
            low, high = low + r[0] - c[1], high + r[1] - c[0]
        else:
            low, high = low + c[0] - r[1], high + c[1] - r[0]
    return low / len(deals.order), high / len(deals.order)


def against(args) -> int:
    """The budgeted advice against a bigger budget's (issue 66's targets): per game and
    tricks left, how often its card is the bigger advice's or one that advice cannot tell
    apart from its own (in its ``best``, or its test cannot rule the card out at the same
    confidence: ``p_better`` >= 1 - confidence), and what its card loses against the bigger
    advice's card by the bigger advice's draws (that advice's ``behind`` of the card; its
    ``behind_low``..``behind_high`` where the card was left within bounds there)."""
    small, big = budget_args(args.budget), budget_args(args.against)
    print(f"budgeted advice {args.budget} against {args.against} (another seed), at most "
          f"{args.samples} draws, confidence {args.confidence}, {args.workers} workers; load "
          f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start\n")
    print(f"| game | tricks left | positions | same card | or one {args.against} cannot tell "
          f"apart | loss against its card (mean; low..high where bounded) | worst loss | "
          f"median CPU | median draws | {args.against}: median CPU, draws |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game in [g for g in args.games.split(",") if g]:
        deals = load(SETS[game])
        for t in [int(x) for x in args.tricks.split(",") if x.strip()]:
            rng = random.Random(args.seed * 100 + t)
            same = close = 0
            lows, highs, cpu, draws, bcpu, bdraws = [], [], [], [], [], []
            for i in range(args.first):
                random_prefix(deals[i % len(deals)], t, rng)    # (the positions before)
            for i in range(args.first, args.first + args.count):
                pos = random_prefix(deals[i % len(deals)], t, rng)
                c0 = time.process_time()
                a = advise(pos, samples=args.samples, seed=args.seed + i, workers=args.workers,
                           confidence=args.confidence, budget=True, **small)
                cpu.append(time.process_time() - c0)
                draws.append(a.solved)
                c0 = time.process_time()
                b = advise(pos, samples=args.samples, seed=args.seed + 10_000 + i,
                           workers=args.workers, confidence=args.confidence, budget=True, **big)
                bcpu.append(time.process_time() - c0)
                bdraws.append(b.solved)
                row = next(r for r in b.cards if r["card"] == a.recommended)
                same += a.recommended == b.recommended
                tied = (a.recommended in b.best or
                        (row["p_better"] is not None and row["p_better"] >= 1 - args.confidence))
                close += tied or a.recommended == b.recommended
                if row.get("behind") is not None:
                    lo = hi = row["behind"]
                elif a.recommended == b.recommended or a.recommended in b.best:
                    lo = hi = 0.0
                else:
                    # the bigger advice left our card within bounds: its exact loss over
                    # the same draws, each solved for the two cards
                    lo, hi = exact_loss(pos, b, a.recommended, args.seed + 10_000 + i)
                if lo is not None:
                    lows.append(lo)
                    highs.append(hi)
                if args.verbose:
                    print(f"  {game} {t} #{i}: {a.recommended} ({a.solved} draws, {a.capped} "
                          f"capped, cpu {fmt(cpu[-1])}) | {args.against}: {b.recommended} "
                          f"({b.solved} draws, certainty {b.certainty}) loss {lo}..{hi} "
                          f"p_better {row['p_better']}", file=sys.stderr, flush=True)
            n = args.count
            loss = (f"{statistics.mean(lows):.2f}" if lows == highs else
                    f"{statistics.mean(lows):.2f}..{statistics.mean(highs):.2f}") if lows else "–"
            print(f"| {game} | {t} | {n} | {same}/{n} | {close}/{n} | {loss} | "
                  f"{max(highs) if highs else '–'} | {fmt(statistics.median(cpu))} | "
                  f"{statistics.median(draws):g} | {fmt(statistics.median(bcpu))}, "
                  f"{statistics.median(bdraws):g} |", flush=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="fr4,fr3,fr5,priest5,at4")
    ap.add_argument("--tricks", default="8,10,12", help="tricks left, comma separated")
    ap.add_argument("--count", type=int, default=5, help="positions per game and tricks left")
    ap.add_argument("--samples", type=int, default=100, help="the most draws of an advice")
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=120.0,
                    help="seconds per advice (0: none, --samples bounds it)")
    ap.add_argument("--reference", type=int, default=0,
                    help="draws of the reference advice (0: no agreement column)")
    ap.add_argument("--reference-time-limit", type=float, default=None,
                    help="seconds per reference advice (default: none); a reference stopped "
                         "by it is over the draws it solved (its median is printed)")
    ap.add_argument("--true-loss", action="store_true",
                    help="the true-deal loss columns (solves every legal card of the real deal)")
    ap.add_argument("--true-time-limit", type=float, default=60.0,
                    help="seconds for the real deal's solve (a position it stops is left "
                         "out of the true-deal columns, which say over how many)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--verbose", action="store_true", help="a line per position")
    ap.add_argument("--costs", type=int, metavar="K", default=0,
                    help="instead: what a draw costs, in nodes — every card exact, the value "
                         "and the K best cards, the value alone (--count positions, "
                         "--samples draws each)")
    ap.add_argument("--budget", default=None, metavar="B",
                    help="instead: the budgeted advice of B a position (2s: seconds; 8M: "
                         "nodes) against --against's")
    ap.add_argument("--against", default="30s", metavar="B",
                    help="with --budget: the bigger budget it is compared with (default 30s)")
    ap.add_argument("--first", type=int, default=0,
                    help="with --budget: begin at this position of each game and tricks left")
    args = ap.parse_args(argv)
    if args.budget:
        return against(args)
    if args.costs:
        print(f"nodes per draw, {args.samples} draws of each position; the value and the "
              f"{args.costs} best cards, and the value alone, against every card exact\n")
        print("| game | tricks left | positions × draws | every card exact | the value and "
              f"{args.costs} cards | the value alone |\n|---|---|---|---|---|---|")
        for game in [g for g in args.games.split(",") if g]:
            for t in [int(x) for x in args.tricks.split(",") if x.strip()]:
                print(draw_costs(game, t, args.count, args.samples, args.costs, args.seed),
                      flush=True)
        return 0

    print(f"atout advise: at most {args.samples} draws, confidence {args.confidence}, "
          f"{args.workers} workers, time limit "
          f"{f'{args.time_limit:g} s' if args.time_limit else 'none'} per position; load "
          f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start\n")
    head = ("| game | tricks left | positions | median time | worst | median CPU | worst CPU | "
            "median draws | decided | draws to a decision | stopped by the limit |")
    if args.reference:
        head += f" same card as {args.reference} draws | or tied | reference draws |"
    if args.true_loss:
        head += " true-deal best | true-deal loss | random card |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for game in [g for g in args.games.split(",") if g]:
        deals = load(SETS[game])
        for t in [int(x) for x in args.tricks.split(",") if x.strip()]:
            rng = random.Random(args.seed * 100 + t)
            times, cpu, draws, decided, stopped, same, tied = [], [], [], 0, 0, 0, 0
            decisions = []
            ours_loss, random_loss, ref_draws, true_best = [], [], [], 0
            for i in range(args.count):
                pos = random_prefix(deals[i % len(deals)], t, rng)
                started, cpu_started = time.perf_counter(), time.process_time()
                a = advise(pos, samples=args.samples, seed=args.seed + i, workers=args.workers,
                           confidence=args.confidence, time_limit=args.time_limit or None)
                elapsed = time.perf_counter() - started
                cpu.append(time.process_time() - cpu_started)
                stopped += a.status != "ok"
                decided += a.decided == "confidence"
                if a.decided == "confidence":
                    decisions.append(a.solved)
                times.append(max(elapsed, args.time_limit) if a.status != "ok" else elapsed)
                draws.append(a.solved)
                line = (f"  {game} {t} #{i}: {a.recommended} {fmt(elapsed)} cpu {fmt(cpu[-1])} "
                        f"draws {a.solved} {a.decided or a.stopped_by} certainty {a.certainty}")
                if args.reference:
                    ref = advise(pos, samples=args.reference, seed=args.seed + 10_000 + i,
                                 workers=args.workers, confidence=1,
                                 time_limit=args.reference_time_limit)
                    ref_draws.append(ref.solved)
                    row = next(r for r in ref.cards if r["card"] == a.recommended)
                    same += a.recommended == ref.recommended
                    close = (a.recommended in ref.best or
                             (row["p_better"] is not None and row["p_better"] >= 1 - args.confidence))
                    tied += close
                    line += (f" | reference {ref.recommended} of {ref.solved} draws (ours behind {row['behind']}"
                             f" ± {row['behind_se']}, p_better {row['p_better']})")
                if args.true_loss:
                    true = true_losses(pos, args.true_time_limit, args.workers)
                    if true is None:
                        line += " | true deal not solved in the limit"
                    else:
                        losses, mean = true
                        ours_loss.append(losses[a.recommended])
                        true_best += losses[a.recommended] == 0
                        random_loss.append(mean)
                        line += f" | true loss {losses[a.recommended]} (random {mean:.1f})"
                if args.verbose:
                    print(line, file=sys.stderr, flush=True)
            n = len(times)
            out = (f"| {game} | {t} | {n} | {fmt(statistics.median(times))} | {fmt(max(times))} | "
                   f"{fmt(statistics.median(cpu))} | {fmt(max(cpu))} | "
                   f"{statistics.median(draws):g} | {decided} | {to_decide(decisions)} | {stopped} |")
            if args.reference:
                out += f" {same}/{n} | {tied}/{n} | {statistics.median(ref_draws):g} |"
            if args.true_loss:
                if ours_loss:
                    out += (f" {true_best}/{len(ours_loss)} | {statistics.mean(ours_loss):.1f} | "
                            f"{statistics.mean(random_loss):.1f} |")
                else:
                    out += " – | – | – |"
            print(out, flush=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
