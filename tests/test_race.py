"""The draws of an advice and their statistics (solver/race.py), without a search: the
draws get made-up values, so each rule is checked on numbers known in advance — the
paired statistics against a direct computation, the early stop, the cards dropped, the
same work whatever order the draws finish in, the prefix under a limit."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from atout.position import parse_position
from atout.solver.race import AGAIN, LAG, MIN_DRAWS, WAIT, Race, looks, t_sf
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


def test_a_card_equal_in_every_draw_blocks_nothing():
    pos = _position()
    race = Race(pos, samples=40, seed=3)
    a, b = race.cards[0], race.cards[1]
    _run(race, lambda i, c: race.sign * (5 + i % 3 if c in (a, b) else -30 - i % 5))
    s = race.summary()
    assert race.decided_at == MIN_DRAWS and {race.cards[i] for i in s["best"]} == {a, b}


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


def test_cards_equal_to_each_other_count_once():
    """Two cards equal to each other in every draw (not to the best) are one event in
    the certainty: their p_better counts once."""
    pos = _position()
    race = Race(pos, samples=10, seed=8, confidence=1)
    a, b, c = race.cards[:3]
    rng = random.Random(3)
    noise = [rng.randrange(-6, 7) for _ in range(10)]
    _run(race, lambda i, card: race.sign * (10 if card == a else 8 + noise[i] if card in (b, c) else -40))
    s = race.summary()
    rows = s["rows"]
    assert rows[1]["p_better"] == rows[2]["p_better"] > 0.001
    others = sum(r["p_better"] for k, r in enumerate(rows) if k > 2)
    assert s["certainty"] == pytest.approx(1 - rows[1]["p_better"] - others)
