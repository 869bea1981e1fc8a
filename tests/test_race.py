"""The draws of an advice and their statistics (solver/race.py), without a search: the
draws get made-up values, so each rule is checked on numbers known in advance — the
paired statistics against a direct computation, the early stop and what it risks, the
cards dropped, the same work whatever order the draws finish in, the prefix under a
limit.  (tests/test_calibration.py feeds the stopping code draws of real positions.)"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from atout.cards import token
from atout.position import parse_position
from atout.solver.race import (AGAIN, BET_CAP, DROP_P, LAG, WAIT, Race, Tally, looks)
from deals import random_endgame

#: the width of the made-up draws' values (how far apart two cards may be in a deal)
WIDTH = 200


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


def _run(race, value, order=None, limit_at=None, width=WIDTH):
    """Solve every draw the race gives with made-up values ``value(index, card)`` (the
    deal's value: the best for the seat's camp; two cards at most ``width`` apart),
    finishing them in ``order(pending)``'s order (default: as begun).  ``limit_at``: that
    draw is stopped by a limit (bounds), and no draw is begun after it.  Returns the jobs,
    in the order begun."""
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
            race.done(done, True, vals, best, {c: v > 0 for c, v in vals.items()}, width=width)


def test_paired_statistics_and_the_tests():
    """behind and behind_se are the mean and standard error of the paired losses against
    the recommended card, draw by draw; p_better is each card's test (1 / the most its
    wealth has reached), and certainty 1 - the largest of the others'."""
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
            assert row["p_better"] is None
            continue
        assert row["behind_se"] == pytest.approx(statistics.stdev(d) / math.sqrt(n))
        assert row["mean"] == pytest.approx(statistics.mean(table[(i, c)] for i in range(n)))
        assert 0 < row["p_better"] <= 1
        assert row["p_better"] == pytest.approx(min(1, math.exp(-race.pairs.peak[k])))
    assert s["certainty"] == pytest.approx(1 - max(r["p_better"] for r in s["rows"] if r["p_better"] is not None))


def _tally(rows, sign=1, width=WIDTH):
    """A Tally fed ``rows`` (per draw, each card's value) in order: yields it after each."""
    tally = Tally(len(rows[0]), sign)
    for row in rows:
        tally.add(tuple(row), sign * max(sign * v for v in row), width)
        yield tally


def test_a_p_better_never_rises():
    """Each card's p_better is a running minimum over the draws (an always-valid p-value:
    evidence once shown stays), and the bets read only the draws before: a draw's own
    values cannot change what it was staked."""
    rng = random.Random(11)
    rows = [[rng.randrange(-30, 30) + 6 * k for k in range(4)] for _ in range(200)]
    before = [1.0] * 4
    for tally in _tally(rows):
        now = [tally.p_better(i) for i in range(4)]
        assert all(x <= y for x, y in zip(now, before))
        before = now
    assert before[0] < 1e-3 and before[3] > 0.5        # the worst card ruled out, the best not
    # the wealth after draw i, with draw i's values changed: the bets were the same (each
    # factor 1 + bet * d / R, the bet set before the draw is seen)
    for i in (5, 40, 150):
        one, two = Tally(4, 1), Tally(4, 1)
        for row in rows[:i]:
            one.add(tuple(row), max(row), WIDTH)
            two.add(tuple(row), max(row), WIDTH)
        start = list(one.wealth)
        one.add((0, 0, 0, 10), 10, WIDTH)
        two.add((0, 0, 0, 30), 30, WIDTH)
        for card in range(3):
            gain = [math.exp(t.wealth[card] - start[card]) - 1 for t in (one, two)]
            if gain[0]:
                # d (rival's lead over the card) is 10 - 0 against 30 - 0: three times the gain
                assert gain[1] == pytest.approx(3 * gain[0])


def test_stops_once_sure_and_drops_the_cards_far_behind():
    """One card always 10 better, the others 60 behind or more: decided after a few
    draws — not from the first ones, the range of a deal (WIDTH) being far wider than what
    they showed; with confidence 1 it draws every sample, and no longer values the cards
    far behind from LAG draws after the look that dropped them."""
    pos = _position()
    best = None

    def value(i, c):
        return race.sign * (10 if c == best else -50 - (i % 7))
    race = Race(pos, samples=100, seed=2)
    best = race.cards[1]
    _run(race, value)
    assert race.decided and 10 < race.decided_at < 40 and race.counted() == race.decided_at
    assert 0.95 <= race.summary()["certainty"] < 1

    race = Race(pos, samples=60, seed=2, confidence=1)
    jobs = _run(race, value)
    assert not race.decided and race.prefix == 60
    rows = race.summary()["rows"]
    dropped_at = next(n for n in looks(60) if n >= 10 and all(
        p < DROP_P for p in _p_after(value, race, n)))
    for job in jobs:
        assert set(job.cards) == (set(race.cards) if job.index < dropped_at + LAG else {best})
    assert [r["draws"] for r in rows] == [60 if c == best else dropped_at + LAG for c in race.cards]


def _p_after(value, race, n):
    """The p_better of the cards other than the best after the first ``n`` draws of
    ``value`` (every card valued)."""
    rows = [[value(i, c) for c in race.cards] for i in range(n)]
    *_, tally = _tally(rows, race.sign)
    rec = tally.standing()[0]
    return [tally.p_better(i) for i in range(len(race.cards)) if i != rec]


def test_a_tie_is_no_proof():
    """Two cards equal in every draw so far, not provably equal (the race's cards are one
    per group of cards worth the same): the tie is no evidence of which is better — the
    two may differ in deals not drawn yet — so it blocks the stop for as long as it lasts
    (certainty 0), and never reads as certainty 1.  (It first counted as equal: a stop
    after 10 draws, certainty 1; then as different in fewer than 5 % of the deals after 59
    draws, which a pair of cards parting in 2 % of them, by a lot, is not.)"""
    pos = _position()
    race = Race(pos, samples=100, seed=3)
    a, b = race.cards[0], race.cards[1]
    _run(race, lambda i, c: race.sign * (5 + i % 3 if c in (a, b) else -30 - i % 5))
    s = race.summary()
    assert not race.decided and race.prefix == 100 and {race.cards[i] for i in s["best"]} == {a, b}
    tied = s["rows"][race.cards.index(b)]
    assert tied["behind"] == tied["behind_se"] == 0 and tied["p_better"] == 1.0
    assert s["certainty"] == 0.0
    assert all(r["p_better"] < DROP_P for r in s["rows"][2:])       # the others are out

    # tied at first, apart later: the card found better is recommended, and decided on
    race = Race(pos, samples=300, seed=3)
    _run(race, lambda i, c: race.sign * (5 + (4 if c == b and i >= 25 and i % 2 else 0)
                                         if c in (a, b) else -30 - i % 5), width=40)
    s = race.summary()
    assert race.cards[s["rec"]] == b and race.decided and race.decided_at > 25


def test_the_same_loss_in_every_draw_is_no_proof():
    """A card behind by the same amount in every draw: zero variance is no proof that it is
    worse everywhere (Student's t said p_better 0 and stopped after 10 draws, certainty 1).
    Its test gains at most a factor 1 + BET_CAP * loss / width a draw — the deals where it
    might do better by as much as the width allows, not drawn yet — so the stop waits for
    at least log(1 / (1 - confidence)) / log(1 + BET_CAP * loss / width) draws, and certainty
    never reaches 1; it stops, on the right card, once the draws have ruled that out."""
    pos = _position(2)
    for loss, width, confidence in ((10, 200, 0.95), (1, 31, 0.95), (3, 40, 0.99)):
        race = Race(pos, samples=2000, seed=4, confidence=confidence)
        good = race.cards[0]
        _run(race, lambda i, c: race.sign * (7 * (i % 5) + (0 if c == good else -loss)), width=width)
        least = math.log(1 / (1 - confidence)) / math.log(1 + BET_CAP * loss / width)
        assert race.decided and race.decided_at >= least, (loss, width, race.decided_at, least)
        s = race.summary()
        assert race.cards[s["rec"]] == good and confidence <= s["certainty"] < 1


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
    jobs = _run(race, lambda i, c: race.sign * (10 if c == best else -50 - (i % 7)), width=60)
    assert all(set(job.cards) <= set(race.cards) for job in jobs)
    assert race.decided and race.decided_at < 40
    advice = put_together(race)
    assert advice.recommended == best and advice.best == sorted(group)
    assert advice.decided == "confidence" and advice.certainty >= 0.95
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


def test_the_certainty_is_the_weakest_test():
    """Two cards equal to each other in every draw (not to the best) each keep their own
    test, and the certainty is 1 - the largest p_better: a stop on a card that is not the
    best needs the best card's test to fail, whatever the others (it used to be 1 - their
    sum, the union bound, which that argument makes unnecessary)."""
    pos = _position()
    race = Race(pos, samples=40, seed=8, confidence=1)
    a, b, c = race.cards[:3]
    rng = random.Random(3)
    noise = [rng.randrange(-6, 7) for _ in range(40)]
    _run(race, lambda i, card: race.sign * (10 if card == a else 8 + noise[i] if card in (b, c) else -40),
         width=60)
    s = race.summary()
    rows = s["rows"]
    assert rows[1]["p_better"] == rows[2]["p_better"] > DROP_P
    assert s["certainty"] == pytest.approx(1 - max(r["p_better"] for r in rows[1:]))


def test_decided_and_certainty_agree_under_a_limit():
    """The stop is read after every draw, so an advice that a limit ends before it decides
    has a certainty below its confidence, whenever the limit falls (the looks used to be
    the only reads: a certainty past the confidence between two of them, decided null)."""
    from atout.solver.advise import put_together
    pos = _position()
    best = None

    def value(i, c):
        return race.sign * ((10 if c == best else -40 - (i % 7)) + 3 * (i % 4))
    race = Race(pos, samples=200, seed=5)
    best = race.cards[0]
    _run(race, value)
    assert race.decided
    full = race.decided_at
    for limit_at in range(1, full + 3):
        race = Race(pos, samples=200, seed=5)
        best = race.cards[0]
        _run(race, value, limit_at=limit_at)
        advice = put_together(race)
        if limit_at >= full:
            assert advice.decided == "confidence" and advice.solved == full
        else:
            assert advice.status == "limit" and advice.decided is None
            assert advice.certainty is None or advice.certainty < race.confidence, limit_at


def test_a_budget_values_exactly_only_the_cards_in_contention():
    """A budgeted race: one card 10 better than the others in every draw, which lose
    50 to 56 — after a few draws the card leads, the draws from BUDGET_LAG after each
    look value it exactly and the others only within bounds (a box of 10 around their
    values here), whatever the order the draws finish in; the means of the bounded
    cards become low..high, and their tests keep ruling them out."""
    from atout.solver.race import BUDGET_FIRST_LOOK, BUDGET_LAG, CONTENTION_DRAWS
    pos = _position()
    runs = []
    for order in (None, lambda n: n - 1):
        race = Race(pos, samples=40, seed=2, confidence=1, budget=True, draw_nodes=1000)
        best = race.cards[1]

        def value(i, c):
            return race.sign * (10 if c == best else -50 - (i % 7))
        jobs, pending = [], []
        while True:
            job = race.take()
            if job is not None and job is not WAIT and job is not AGAIN:
                jobs.append(job)
                pending.append(job)
                if len(pending) < 2:
                    continue
            if not pending:
                break
            done = pending.pop(0 if order is None else order(len(pending)))
            assert done.nodes == 1000
            vals = {c: value(done.index, c) if c in done.exact else
                    [value(done.index, c) - 5, value(done.index, c) + 5] for c in done.cards}
            race.done(done, True, vals, race.sign * 10, {}, width=WIDTH)
        runs.append(([(j.index, j.exact, j.leader) for j in jobs], race.summary()))
        late = [j for j in jobs if j.index >= BUDGET_FIRST_LOOK + CONTENTION_DRAWS + BUDGET_LAG + 2]
        assert late and all(j.exact == (best,) and j.leader == best for j in late)
        assert all(set(j.exact) == set(race.cards) for j in jobs if j.index < BUDGET_FIRST_LOOK + BUDGET_LAG)
        s = race.summary()
        assert race.cards[s["rec"]] == best and s["rows"][1]["mean"] == race.sign * 10
        for k, row in enumerate(s["rows"]):
            if k != 1:
                assert row["mean"] is None and row["low"] < row["high"] and row["exact"] < row["draws"]
                assert row["behind_low"] > 0 and row["p_better"] < 0.5
    assert runs[0] == runs[1]
