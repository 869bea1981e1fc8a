"""The draws of an advice and their statistics (solver/race.py), without a search: the
draws get made-up values, so each rule is checked on numbers known in advance — the
paired statistics against a direct computation, the early stop, the cards dropped, the
same work whatever order the draws finish in, the prefix under a limit."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from atout.cards import token
from atout.position import parse_position
from atout.solver.race import (AGAIN, LAG, MIN_DRAWS, TIE_SHARE, WAIT, Race, looks, t_sf,
                               tie_p_better)
from deals import random_endgame


@pytest.mark.parametrize("t,df,p", [(1.0, 1, 0.25), (1.833, 9, 0.05), (2.262, 9, 0.025),
                                    (2.0, 2, 0.5 - 1 / math.sqrt(6)), (1.697, 30, 0.05),
                                    (3.25, 9, 0.005), (0.0, 7, 0.5), (-1.833, 9, 0.95),
                                    (1.645, 5000, 0.05)])
def test_student_t_tail(t, df, p):
    """The t distribution's upper tail at known quantiles (tables of Student's t)."""
    assert t_sf(t, df) == pytest.approx(p, abs=5e-4)


def test_looks():
    assert looks(100) == [10, 15, 20, 25, 31, 38, 47, 58, 72, 90, 100]
    assert looks(7) == [7] and looks(10) == [10]
    assert all(b > a for a, b in zip(looks(100_000), looks(100_000)[1:]))


def _position(cards_at_least=4):
    rng = random.Random("race")
    while True:
        pos = parse_position(random_endgame(rng, "fr4", 6))
        if len(pos.legal_cards()) >= cards_at_least:
            return pos


def _run(race, value, order=None, limit_at=None):
    """Solve every draw the race gives with made-up values ``value(index, card)`` (the
    deal's value: the best for the seat's camp), finishing them in ``order(pending)``'s
    order (default: as begun).  ``limit_at``: that draw is stopped by a limit (bounds),
    and no draw is begun after it.  Returns the jobs, in the order begun."""
    jobs, pending = [], []
    while True:
        job = race.take() if limit_at is None or race.begun <= limit_at else None
        if job is AGAIN:
            continue
        if job is not None and job is not WAIT:
            jobs.append(job)
            pending.append(job)
            if len(pending) < 3:
                continue
        if not pending:
            if limit_at is not None and race.begun > limit_at:
                race.close()
            return jobs
        k = 0 if order is None else order(len(pending))
        done = pending.pop(k)
        vals = {c: value(done.index, c) for c in done.cards}
        if done.index == limit_at:
            race.done(done, False, {c: [v - 5, v + 5] for c, v in vals.items()}, None, {})
        else:
            best = max(race.sign * v for v in vals.values()) * race.sign
            race.done(done, True, vals, best, {c: v > 0 for c, v in vals.items()})


def test_paired_statistics_are_the_paired_t_test():
    """behind, behind_se and p_better are the mean, standard error and t tail of the
    paired losses against the recommended card, draw by draw."""
    pos = _position()
    race = Race(pos, samples=30, seed=1, confidence=1)
    cards = race.cards
    rng = random.Random(5)
    table = {(i, c): rng.randrange(-40, 40) + 3 * k for i in range(30) for k, c in enumerate(cards)}
    _run(race, lambda i, c: table[(i, c)])
    s = race.summary()
    rec = cards[s["rec"]]
    means = {c: statistics.mean(table[(i, c)] for i in range(30)) for c in cards}
    assert rec == (max if race.sign > 0 else min)(cards, key=lambda c: means[c])
    for k, c in enumerate(cards):
        row = s["rows"][k]
        n = row["draws"]
        d = [race.sign * (table[(i, rec)] - table[(i, c)]) for i in range(n)]
        assert row["behind"] == pytest.approx(statistics.mean(d))
        if c == rec:
            continue
        se = statistics.stdev(d) / math.sqrt(n)
        assert row["behind_se"] == pytest.approx(se)
        assert row["p_better"] == pytest.approx(t_sf(statistics.mean(d) / se, n - 1))
        assert row["mean"] == pytest.approx(statistics.mean(table[(i, c)] for i in range(n)))


def test_stops_once_sure_and_drops_the_cards_far_behind():
    """One card always 10 better, the others far behind: decided at the first look;
    with confidence 1 it draws every sample, and no longer values the cards far behind
    from LAG draws after the look that dropped them."""
    pos = _position()
    best = None

    def value(i, c):
        return race.sign * (10 if c == best else -50 - (i % 7))
    race = Race(pos, samples=40, seed=2)
    best = race.cards[1]
    _run(race, value)
    assert race.decided_at == MIN_DRAWS and race.counted() == MIN_DRAWS
    assert race.summary()["certainty"] == pytest.approx(1.0)

    race = Race(pos, samples=40, seed=2, confidence=1)
    jobs = _run(race, value)
    assert not race.decided and race.prefix == 40
    for job in jobs:
        assert set(job.cards) == (set(race.cards) if job.index < MIN_DRAWS + LAG else {best})
    rows = race.summary()["rows"]
    assert [r["draws"] for r in rows] == [40 if c == best else MIN_DRAWS + LAG for c in race.cards]


def test_a_tie_is_no_proof():
    """Two cards equal in every draw so far, not provably equal (the race's cards are one
    per group of cards worth the same): the tie blocks the stop until the draws make a
    difference in TIE_SHARE of the deals unlikely, and never reads as certainty 1.  (It
    used to count as equal: stopped at the first look, certainty 1.)"""
    pos = _position()
    race = Race(pos, samples=100, seed=3)
    a, b = race.cards[0], race.cards[1]
    _run(race, lambda i, c: race.sign * (5 + i % 3 if c in (a, b) else -30 - i % 5))
    s = race.summary()
    first = next(n for n in looks(100) if (1 - TIE_SHARE) ** n <= 0.05)
    assert race.decided_at == first == 72 and {race.cards[i] for i in s["best"]} == {a, b}
    tied = s["rows"][race.cards.index(b)]
    assert tied["behind"] == tied["behind_se"] == 0 and tied["p_better"] == pytest.approx(0.95 ** 72)
    assert s["certainty"] < 1

    # tied at the first looks, apart later: the card found better later is recommended
    race = Race(pos, samples=100, seed=3)
    _run(race, lambda i, c: race.sign * (5 + (4 if c == b and i >= 25 and i % 2 else 0)
                                         if c in (a, b) else -30 - i % 5))
    s = race.summary()
    assert race.cards[s["rec"]] == b and (race.decided_at or 100) > 25


def test_tie_p_better():
    """A tie of n draws: 1/2 while n draws would often miss a difference in TIE_SHARE of
    the deals, then (1 - TIE_SHARE)^n: below 5 % from 59 draws (the rule of three)."""
    assert tie_p_better(0) == tie_p_better(10) == 0.5
    assert tie_p_better(58) > 0.05 > tie_p_better(59) == pytest.approx(0.95 ** 59)
    assert all(tie_p_better(n) >= tie_p_better(n + 1) > 0 for n in range(500))


def test_cards_worth_the_same_are_one_card():
    """Cards of one group (solver/equivalent.py) are valued once, by the group's first
    card, and the advice stops as soon as the group is ahead of the others: the group
    blocks nothing."""
    from atout.solver.advise import put_together
    rng = random.Random("race groups")
    while True:
        pos = parse_position(random_endgame(rng, "fr4", 5))
        race = Race(pos, samples=40, seed=2)
        if 1 < len(race.groups) < len(pos.legal_cards()):
            break
    group = next(g for g in race.groups if len(g) > 1)
    best = group[0]
    assert race.cards == [g[0] for g in race.groups]
    jobs = _run(race, lambda i, c: race.sign * (10 if c == best else -50 - (i % 7)))
    assert all(set(job.cards) <= set(race.cards) for job in jobs)
    assert race.decided_at == MIN_DRAWS
    advice = put_together(race)
    assert advice.recommended == best and advice.best == sorted(group)
    assert advice.certainty == pytest.approx(1.0)
    rows = {row["card"]: row for row in advice.cards}
    assert set(rows) == {token(c) for c in pos.legal_cards()}
    for card in group:
        assert rows[card]["equivalent"] == list(group) and rows[card]["mean"] == rows[best]["mean"]
        assert rows[card]["p_better"] == (None if card == best else 0.0)
    assert all("equivalent" not in rows[c] for g in race.groups if len(g) == 1 for c in g)


def test_the_same_work_whatever_order_the_draws_finish_in():
    """Which cards each draw values, when the advice stops, and its numbers depend on the
    draws, not on which search finished first."""
    pos = _position()
    rng = random.Random(9)
    table = {}

    def value(i, c):
        return table.setdefault((i, c), rng.randrange(-20, 20) + (12 if c == race.cards[0] else 0))
    runs = []
    for order in (None, lambda n: n - 1, lambda n: random.Random(n).randrange(n)):
        race = Race(pos, samples=60, seed=4)
        jobs = _run(race, value, order)
        runs.append(([(j.index, j.cards) for j in jobs if j.index < race.counted()],
                     race.counted(), race.summary()))
    assert runs[0] == runs[1] == runs[2]


def test_a_limit_keeps_the_prefix_for_the_means():
    """A draw stopped by a limit ends the means' draws there (the dear draws are not left
    out of the means while the cheap ones after them count); the draws after it count in
    low..high only."""
    pos = _position()
    race = Race(pos, samples=20, seed=6)

    def value(i, c):
        return 7 * (i % 4) + len(c)
    _run(race, value, limit_at=6)
    assert race.prefix == 6 and race.counted() == 7
    bounds = race.bounds()
    rows = race.summary()["rows"]
    for k, c in enumerate(race.cards):
        assert rows[k]["draws"] == 6
        assert rows[k]["mean"] == pytest.approx(sum(value(i, c) for i in range(6)) / 6)
        total = sum(value(i, c) for i in range(7))
        assert bounds[k] == pytest.approx(((total - 5) / 7, (total + 5) / 7))


def test_deals_drawn_again_count_again():
    """A position with a handful of consistent deals: each is solved once, and every
    draw of it counts (the advice is about the draws, not the deals)."""
    rng = random.Random("few deals")
    from atout.knowledge import seat_knowledge
    from atout.sampler import Sampler
    while True:
        pos = parse_position(random_endgame(rng, "fr4", 2, partial=True))
        if len(pos.legal_cards()) >= 2 and 2 <= Sampler(seat_knowledge(pos, pos.to_play), exact=True).count() <= 4:
            break
    race = Race(pos, samples=1000, seed=1, confidence=1)
    jobs = _run(race, lambda i, c: len(c) + i % 3)
    assert len(jobs) == len(set(race.draws.order)) <= 4
    assert race.prefix == 1000 and race.pairs.draws == 1000


def test_cards_equal_to_each_other_count_each():
    """Two cards equal to each other in every draw (not to the best) are two events in
    the certainty, each its p_better (the union bound): a later draw may tell them apart.
    (They used to count once.)"""
    pos = _position()
    race = Race(pos, samples=10, seed=8, confidence=1)
    a, b, c = race.cards[:3]
    rng = random.Random(3)
    noise = [rng.randrange(-6, 7) for _ in range(10)]
    _run(race, lambda i, card: race.sign * (10 if card == a else 8 + noise[i] if card in (b, c) else -40))
    s = race.summary()
    rows = s["rows"]
    assert rows[1]["p_better"] == rows[2]["p_better"] > 0.001
    assert s["certainty"] == pytest.approx(1 - sum(r["p_better"] for r in rows[1:]))
