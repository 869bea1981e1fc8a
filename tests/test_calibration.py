"""The advice's confidence means what it says: its stopping code fed draws of real
positions, and made-up close cases.

Each reference of ``tests/data/advice`` (written by tests/make_advice_references.py) holds
the values of every card the advice values over thousands of draws of one position, with
each draw's width.  Resampling those draws (with replacement) gives advices whose truth is
known — the best card is the best over the reference's draws — and the stopping code
(:class:`~atout.solver.race.Tally`, what :class:`~atout.solver.race.Race` reads after
every draw) is run on them as the advice runs it, with no search.  Among the runs that
stop at a confidence C, the share that stop on a card that is not the best must be at most
1 − C, up to a binomial margin (the runs are seeded: the counts are the same every time,
and the margin is one that a rule erring at exactly 1 − C would exceed once in a thousand
such counts).  The rule before (Student's t at eleven looks, each at the full C) fails it
on the close positions; a rule that never stops would fail the other half of the test,
that the clear positions are decided.
"""

from __future__ import annotations

import gzip
import json
import math
import random
from functools import lru_cache
from pathlib import Path

import pytest

from atout.position import parse_position
from atout.solver.race import WAIT, AGAIN, Race, Tally

DATA = Path(__file__).resolve().parent / "data" / "advice"
NAMES = sorted(p.name.removesuffix(".json.gz") for p in DATA.glob("*.json.gz"))
LEVELS = (0.8, 0.9, 0.95, 0.99)
#: resampled advices per reference, and the most draws of each
RUNS, SAMPLES = 120, 400
#: the references decided at 95 % in most runs: a rule that never stops fails here
CLEAR = {"fr5-8-6", "fr4-5-1", "at4-6-1", "priest5-5-8"}


@lru_cache(maxsize=None)
def reference(name: str) -> dict:
    return json.loads(gzip.decompress((DATA / f"{name}.json.gz").read_bytes()))


def truth(ref: dict) -> set:
    """The best cards over the reference's draws (their indices): the truth of a resample."""
    sign, values = ref["sign"], ref["values"]
    sums = [sum(sign * row[j] for row in values) for j in range(len(ref["cards"]))]
    return {j for j, s in enumerate(sums) if s == max(sums)}


def stops(rows: list, widths: list, sign: int, levels=LEVELS) -> dict:
    """Feed ``rows`` (each card's values, draw by draw) to a Tally as the advice does:
    {confidence: (the draws after which it stops, the recommended card then)} for the
    levels it reaches (the advice stops on the first draw whose certainty reaches it)."""
    tally, out = Tally(len(rows[0]), sign), {}
    for n, (row, width) in enumerate(zip(rows, widths), 1):
        tally.add(tuple(row), sign * max(sign * v for v in row), width)
        rec, _, certainty = tally.standing()
        for c in levels:
            if c not in out and certainty is not None and certainty >= c:
                out[c] = (n, rec)
        if len(out) == len(levels):
            break
    return out


def resample(ref: dict, run: int, samples: int = SAMPLES) -> tuple[list, list]:
    rng = random.Random(f"{ref['name']}-{run}")
    picks = [rng.randrange(len(ref["values"])) for _ in range(samples)]
    return [ref["values"][i] for i in picks], [ref["widths"][i] for i in picks]


def binomial_margin(n: int, p: float, tail: float = 1e-3) -> int:
    """The largest count k such that P(Binomial(n, p) >= k) >= tail: a rule wrong at rate p
    exceeds it less than once in 1/tail times."""
    total, k = 0.0, n
    while k >= 0:
        total += math.comb(n, k) * p ** k * (1 - p) ** (n - k)
        if total >= tail:
            return k
        k -= 1
    return 0


def test_the_references_are_there():
    """Positions of five games, close and clear, 2,000 draws or more each."""
    assert len(NAMES) >= 10 and CLEAR <= set(NAMES)
    games = {reference(n)["position"]["game"] for n in NAMES}
    assert games == {"fr3", "fr4", "fr5", "priest5", "at4"}
    for name in NAMES:
        ref = reference(name)
        assert len(ref["values"]) == len(ref["widths"]) >= 2000
        assert all(len(row) == len(ref["cards"]) >= 2 for row in ref["values"])
        # a width bounds every difference of the draw's cards (it bounds every line of play)
        assert all(max(row) - min(row) <= w for row, w in zip(ref["values"], ref["widths"]))


@pytest.mark.parametrize("name", NAMES)
def test_wrong_stops_are_within_what_the_confidence_allows(name):
    """Over RUNS resampled advices of the reference, at each confidence C: the stops on a
    card that is not the best number at most 1 - C of the stops, up to the binomial
    margin; and a clear position is decided in most runs."""
    ref = reference(name)
    best = truth(ref)
    counts = {c: [0, 0] for c in LEVELS}
    for run in range(RUNS):
        for c, (_, rec) in stops(*resample(ref, run), ref["sign"]).items():
            counts[c][0] += 1
            counts[c][1] += rec not in best
    for c, (stopped, wrong) in counts.items():
        assert wrong <= binomial_margin(stopped, 1 - c), (name, c, stopped, wrong)
    if name in CLEAR:
        assert counts[0.95][0] >= 0.8 * RUNS, (name, counts)


def test_the_close_fr5_position():
    """A close case like the issue's: fr5 with six tricks left, QS ahead of KS by 0.17 ±
    0.015 over the reference's 8,000 draws, the two 2 points apart in 43 % of the deals.  Student's t at eleven looks stopped on the worse card, resampled, in 8 runs of
    100 at 80 %, 2 at 95 % (2 of its 9 stops).  Now at most 4 runs of 100 at 95 %, with 100
    draws (the default) and with 1,000."""
    ref = reference("fr5-6-13")
    best = truth(ref)
    for samples in (100, 1000):
        wrong = 0
        for run in range(100):
            got = stops(*resample(ref, run, samples), ref["sign"], levels=(0.95,))
            wrong += 0.95 in got and got[0.95][1] not in best
        assert wrong <= 4, (samples, wrong)


def _fake_draws(race: Race) -> None:
    """The race draws placeholders, not deals (its stream is replaced): the values come
    from the test, and drawing a real deal is the slow part of building a race."""
    race.draws.stream = ({"hands": i, "contract": None} for i in range(10 ** 9))


def test_the_race_stops_where_the_tally_says():
    """The Race, run end to end on resampled draws (its looks, its dropped cards, its
    workers' order), stops after the same draws, on the same card, as the Tally alone."""
    ref = reference("fr5-8-6")
    pos = parse_position(ref["position"])
    for run in range(12):
        rows, widths = resample(ref, run, 200)
        race = Race(pos, 200, 1, confidence=0.95)
        assert race.cards == ref["cards"]
        _fake_draws(race)
        pending = []
        while True:
            job = race.take()
            if job is AGAIN:
                continue
            if job is not None and job is not WAIT:
                pending.append(job)
                if len(pending) < 3:
                    continue
            if not pending:
                break
            job = pending.pop(len(pending) // 2)          # out of order, as workers finish
            row = dict(zip(ref["cards"], rows[job.index]))
            values = {c: row[c] for c in job.cards}
            best = ref["sign"] * max(ref["sign"] * v for v in rows[job.index])
            race.done(job, True, values, best, {}, width=widths[job.index])
        want = stops(rows, widths, ref["sign"], levels=(0.95,)).get(0.95)
        got = (race.decided_at, race.summary()["rec"]) if race.decided else None
        assert got == want, run


# -- made-up close cases -----------------------------------------------------------------------

def _made_up(draw, runs: int, samples: int, width: int, confidence: float = 0.95):
    """Wrong stops over ``runs`` advices of ``samples`` draws ``draw(rng)`` -> (the best
    card's value, the other's), the first card the best: (stops, wrong)."""
    stopped = wrong = 0
    for run in range(runs):
        rng = random.Random(run)
        rows = [draw(rng) for _ in range(samples)]
        got = stops(rows, [width] * samples, 1, levels=(confidence,))
        if got:
            stopped += 1
            wrong += got[confidence][1] != 0
    return stopped, wrong


def test_close_cards_a_hundredth_of_a_spread_apart():
    """The better card 0.01 standard deviations ahead: the rule before stopped on the
    worse one in 17 % of the advices of 100 draws, 22 % of 1,000.  Within 5 % now (the
    binomial margin), at 100 draws and at 1,000."""
    def draw(rng):
        base = rng.randrange(-40, 40)
        return [base, base - round(rng.gauss(0.1, 10))]   # the loss: 0.1 on average, spread 10
    for samples, runs in ((100, 300), (1000, 60)):
        stopped, wrong = _made_up(draw, runs, samples, width=80)
        assert wrong <= binomial_margin(runs, 0.05), (samples, stopped, wrong)


def test_a_card_ahead_in_most_deals_but_worse_on_average():
    """The second card ahead by 1 in 95 % of the deals and behind by 30 in the others:
    worse on average by 0.55.  The rule before recommended it in 59 % of the advices,
    always after 10 draws (no loss seen yet: no variance).  Now within 5 %."""
    def draw(rng):
        return [0, 1] if rng.random() < 0.95 else [0, -30]
    for samples, runs in ((100, 300), (1000, 60)):
        stopped, wrong = _made_up(draw, runs, samples, width=31)
        assert wrong <= binomial_margin(runs, 0.05), (samples, stopped, wrong)


if __name__ == "__main__":
    # the table of docs/single-dummy.md ("Stopping early, before and after"):
    #     python tests/test_calibration.py [DRAWS [ADVICES]]      (default 100 100)
    import statistics
    import sys

    args = [int(a) for a in sys.argv[1:3]]
    samples, runs = (args + [100, 100][len(args):])
    for name in NAMES:
        ref, cells = reference(name), []
        best = truth(ref)
        got = [stops(*resample(ref, run, samples), ref["sign"]) for run in range(runs)]
        for c in LEVELS:
            at = [g[c] for g in got if c in g]
            wrong = sum(rec not in best for _, rec in at)
            median = statistics.median(n for n, _ in at) if at else "-"
            cells.append(f"{c}: {wrong} wrong of {len(at)} stops (median draws {median})")
        print(f"{name}: " + " | ".join(cells))
