"""The draws of one single-dummy advice, in order, and what they have shown so far.

:mod:`atout.solver.advise` solves the drawn deals (on threads, or the service on its
workers); this module decides, from the draws solved, which cards the next draws must
value and when the advice has seen enough, and puts the advice together.  It never
searches, and it decides nothing from how long a draw took: with the same seed the same
draws get the same work and the advice the same numbers, on one worker or sixty-four.

**The draws, in order.**  Deal ``i`` of the stream (:meth:`Draws.next`) is draw ``i``;
the advice is always about a *prefix*, the first ``n`` draws.  A prefix of independent
uniform draws is itself a uniform sample, so stopping after it biases nothing — where
leaving out the draws that were slow to solve (those of a limit) would: the hard deals
are not like the others.

**Paired statistics.**  Each card is compared with the recommended card (the best mean)
over the same draws: its loss in each draw (how much less it is worth there, for the
seat's camp), their mean (``behind``) and standard error (``behind_se``).  Pairing
removes what the draws have in common — most of the spread comes from the deal, not from
the card (issue 50: a paired standard error 0.21 against 12.19 for the card alone).  These
describe the draws; the stop rests on the tests below.

**Stopping early: a test that may be read after every draw.**  Each card has a test of
"this card is at least as good as every other" — a bet against it, draw by draw
(Waudby-Smith and Ramdas, "Estimating means of bounded random variables by betting",
2024).  Before a draw, the card stakes a share of its evidence (its *wealth*, 1 at the
start) on its *rival* — the best other card over the draws before — doing better than it
in that draw; the draw pays ``1 + bet * d / R`` where ``d`` is what the card loses there
against the rival (for the seat's camp) and ``R`` the widest range of values a deal drawn
before allows (:data:`BET_CAP` and the range: below).  If the card is as good as every
other, each draw pays at most 1 on average whatever the bet and the rival, so its wealth
reaches 1/α with probability at most α over every draw there will ever be (Ville's
inequality): ``p_better`` is 1 / the most the wealth has reached (at most 1), valid
however often it is read and whenever the drawing stops.  ``certainty`` is 1 − the
largest ``p_better`` of the other cards, and the advice stops on the first draw where it
reaches ``confidence``: a stop on a card that is not the best needs the best card's own
test to have reached 1/α, so it happens with probability at most 1 − confidence, per
position, however many cards and draws (no union bound over the cards is needed: only
the best card's test has to fail).

The bet is the growth-optimal one for the draws so far (a Kelly bet: the rival's mean
lead over the mean square of the differences, shrunk towards no bet by one imaginary draw
of spread ``R/2``), and at most :data:`BET_CAP`: a draw where the card turns out better
than its rival by the whole range takes away at most that share of the evidence.  That
cap is what accounts for the deals not drawn yet: a card behind its rival by the same
small amount in every draw gains a factor ``1 + BET_CAP * d / R`` a draw, so it is ruled
out only after enough draws that a share of deals where it does better, by as much as the
range allows, would have shown (a rule of three with the range) — never from a handful of
identical differences, as Student's t did (``p_better`` 0 from zero variance).

**The range.**  Each solved draw comes with the width of the solver's cheap bounds of
its deal (every point still in play to one camp, or none: they hold for every line of
play, so two cards of the deal never differ by more), and ``R`` for a draw's bet is the
widest of the draws before it.  The width varies a little with the unseen cards (an
unseen dog's points and trumps), so the cap also keeps a margin: a draw would have to
differ by more than 1/BET_CAP of every width seen before to break the test; should one
ever, that card's test starts again from 1, the wider range known.

**Cards worth the same, and cards tied so far.**  Cards the seat cannot tell apart in
any deal (:mod:`atout.solver.equivalent`: one suit, the same points, nothing the seat
cannot place between them) are one choice: the draws value one card of the group, and
the advice gives its numbers to each.  A card tied with the recommended one in every draw
so far is another matter: the tie is no evidence that they are equal (they may differ in
a few deals not drawn yet), and no evidence of which is better: its test gains nothing,
it keeps ``p_better`` 1 and the advice goes on drawing until a draw tells them apart.

**Cards far behind are dropped.**  At a look (:func:`looks`: 10, 15, 20, 25, 31, …, and
``samples``), a card whose ``p_better`` is below :data:`DROP_P` (and below 1 − confidence)
is no longer valued in the draws that follow: what those draws cost is spent on the cards
still in the running, and the dropped card keeps the statistics of the draws that valued
it (``draws``) and its test's verdict.  Draw ``i`` values the cards kept at the last look
at or before ``i −`` :data:`LAG`: the draws just after a look start before it is read, so
no worker waits for the slowest draw of a look.

**Limits.**  A draw that a limit stops counts with its proven bounds, in each card's
``low`` and ``high``; the means and the paired statistics are over the first draws, all
solved exactly (``solved``), up to the first one that was not — the draws after it count
in ``low`` and ``high`` only (``limited``).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any

from atout import options
from atout.cards import token
from atout.knowledge import Knowledge, seat_knowledge
from atout.position import Position
from atout.sampler import Sampler

from .equivalent import equivalent_cards

__all__ = ["Draws", "Job", "Race", "Tally", "WAIT", "AGAIN", "looks", "DEFAULT_CONFIDENCE",
           "MIN_DRAWS", "DROP_P", "LAG", "BET_CAP"]

#: the confidence an advice stops at, unless told otherwise (atout.options owns it)
DEFAULT_CONFIDENCE = options.ADVICE_CONFIDENCE
#: the first look: no card is dropped on fewer draws
MIN_DRAWS = 10
#: a card this unlikely to be as good as the others is no longer valued (at most 1 - confidence)
DROP_P = 0.001
#: draw i values the cards kept at the last look at or before i - LAG
LAG = 4
#: the largest bet of a card's test, per unit of the range: a draw where the card does
#: better than its rival by the whole range leaves it 1 - BET_CAP of its evidence (the
#: deals not drawn yet, and a margin on the range: see the module)
BET_CAP = 0.75
#: the imaginary draw a bet is shrunk by: one draw, of this spread in units of the range
BET_PRIOR_SPREAD = 0.5
#: what Race.take answers while the cards of the next draw wait on a look
WAIT = "wait"
#: what Race.take answers after drawing deals drawn before (their values count again):
#: ask again (a limit is checked between two calls)
AGAIN = "again"
#: deals drawn again that one call of Race.take counts at most before answering AGAIN
REPEATS = 256


def looks(samples: int) -> list[int]:
    """The numbers of draws at which the cards far behind are dropped: MIN_DRAWS, then
    about a quarter more each time (at least 5), and ``samples`` last."""
    out, n = [], MIN_DRAWS
    while n < samples:
        out.append(n)
        n += max(5, n // 4)
    out.append(samples)
    return out


# -- the deals drawn ---------------------------------------------------------------------------

@dataclass
class Draws:
    """The deals drawn for an advice, in the order drawn: ``order`` their keys (a deal
    drawn twice is there twice), ``deals`` {key: position object}, ``weight`` {key: how
    many times drawn}; ``count`` consistent deals in all; ``samples`` the most asked for."""

    position: Position
    seat: int
    seed: int
    samples: int
    count: float
    deals: dict
    weight: dict
    order: list = field(default_factory=list)
    stream: Any = field(default=None, repr=False)

    @classmethod
    def start(cls, position: Position, samples: int, seed: int | None = None,
              knowledge: Knowledge | None = None) -> "Draws":
        """Nothing drawn yet: the consistent deals of the seat to play of ``position``
        counted, ready to draw with ``seed`` (None: a new seed).  ``knowledge``: the
        seat's, when already at hand."""
        seed = random.SystemRandom().randrange(2 ** 32) if seed is None else int(seed)
        sampler = Sampler(knowledge or seat_knowledge(position, position.to_play))
        return cls(position, position.to_play, seed, int(samples), sampler.count(), {}, {},
                   stream=sampler.stream(random.Random(seed)))

    def next(self) -> tuple[str, bool]:
        """One more deal drawn: (its key, whether it was not drawn before)."""
        obj = next(self.stream)
        key = json.dumps([obj["hands"], obj["contract"]], sort_keys=True)
        self.order.append(key)
        self.weight[key] = self.weight.get(key, 0) + 1
        new = key not in self.deals
        if new:
            self.deals[key] = obj
        return key, new


@dataclass
class Job:
    """One drawn deal to solve: draw ``index``, its position object, the cards to value."""

    index: int
    key: str
    position: dict
    cards: tuple


@dataclass
class _Solved:
    """What one drawn deal showed, by card index (legal order): ``values`` exact (or
    None: not valued), else ``bounds`` [(lo, hi) or None]."""

    exact: bool
    values: tuple
    bounds: tuple
    best: int | None            # the deal's value (its best card's), when exact
    made: tuple                 # per card: made after it (True/False/None), where valued
    width: int = 0              # how far apart any two of its cards' values can be


class Tally:
    """What the first draws showed (see the module): running sums per card and per pair
    of cards, and each card's test.  ``add`` one draw after the other, in order; the
    advice reads ``standing`` after each.  ``sign``: 1 when the seat's camp wants the
    value high, -1 low."""

    def __init__(self, k: int, sign: int):
        self.sign = sign
        self.n = [0] * k                      # draws that valued the card
        self.sum = [0] * k
        self.sq = [0] * k
        self.optimal = [0] * k
        self.loss = [0] * k                   # sum of (draw's best - card), for its camp
        self.made = [0] * k
        self.made_unknown = [False] * k
        self.best_sum = 0
        # pair (a, b): over the draws valuing both, sums of d = sign * (v_a - v_b), d^2
        self.pn = [[0] * k for _ in range(k)]
        self.pd = [[0] * k for _ in range(k)]
        self.pq = [[0] * k for _ in range(k)]
        self.draws = 0
        self.range = 0                        # the widest width of a draw so far
        self.wealth = [0.0] * k               # per card: its test's wealth (log)
        self.peak = [0.0] * k                 # the most it has reached (log)

    def add(self, values: tuple, best: int, width: int, made: tuple | None = None) -> None:
        """One more draw: ``values`` per card (None: not valued; a card valued is valued
        in every draw before too), ``best`` the deal's value, ``width`` how far apart two
        cards' values can be in it, ``made`` per card (None: no contract)."""
        sign = self.sign
        valued = [i for i, v in enumerate(values) if v is not None]
        self._bet(values, valued)
        self.draws += 1
        self.best_sum += best
        for i in valued:
            v = values[i]
            self.n[i] += 1
            self.sum[i] += v
            self.sq[i] += v * v
            self.optimal[i] += v == best
            self.loss[i] += sign * (best - v)
            m = None if made is None else made[i]
            if m is None:
                self.made_unknown[i] = True
            else:
                self.made[i] += m
            for j in valued:
                d = sign * (v - values[j])
                self.pn[i][j] += 1
                self.pd[i][j] += d
                self.pq[i][j] += d * d
        self.range = max(self.range, width)

    def _bet(self, values: tuple, valued: list) -> None:
        """Each valued card's test takes this draw's bet, chosen from the draws before it
        only (the sums not yet counting it): against its rival, the best other card
        valued here, how much the rival's lead is worth staking."""
        r, sign = self.range, self.sign
        if not r:
            return                            # nothing drawn yet, or no room to differ
        prior = (BET_PRIOR_SPREAD * r) ** 2
        ranked = sorted(valued, key=lambda a: (-sign * self.sum[a], a))[:2]
        if len(ranked) < 2:
            return
        for b in valued:
            rival = ranked[1] if b == ranked[0] else ranked[0]
            m = self.pn[rival][b]
            lead = self.pd[rival][b] / (m + 1)
            if lead <= 0:
                continue                      # the rival is not ahead: nothing to stake
            bet = min(BET_CAP, lead * r / ((self.pq[rival][b] + prior) / (m + 1)))
            pays = 1 + bet * sign * (values[rival] - values[b]) / r
            if pays <= 0:
                # a difference beyond what every range seen so far allows (by the cap's
                # margin): the bets were too bold for it, so the test starts again
                self.wealth[b] = self.peak[b] = 0.0
                continue
            self.wealth[b] += math.log(pays)
            self.peak[b] = max(self.peak[b], self.wealth[b])

    def p_better(self, i: int) -> float:
        """Card ``i``'s always-valid p-value of being at least as good as every other."""
        return min(1.0, math.exp(-self.peak[i]))

    def standing(self) -> tuple:
        """(the recommended card's index, the indices with its mean, the certainty) over
        the draws so far; (None, [], None) before any.  The recommended card is the best
        mean among the cards valued in every draw."""
        k, n = len(self.n), self.draws
        alive = [i for i in range(k) if n and self.n[i] == n]
        if not alive:
            return None, [], None
        # the best mean for the seat's camp (exact sums: no rounding decides); ties: more
        # often optimal, then the smaller loss, then the card's order
        rec = min(alive, key=lambda i: (-self.sign * self.sum[i], -self.optimal[i], self.loss[i],
                                        i))
        best = [i for i in alive if self.pd[rec][i] == 0]
        # a wrong stop needs the best card's own test to have failed: the largest p_better
        # of the others is the error the stop risks (no sum over the cards: see the module)
        certainty = None if n < 2 else 1.0 - max(self.p_better(i) for i in range(k) if i != rec)
        return rec, best, certainty


# -- the race ------------------------------------------------------------------------------------

class Race:
    """The draws of one advice and what they showed (see the module).  Not thread-safe:
    the caller holds a lock around every call.

    ``take()`` gives the next draw to solve (a :class:`Job`), :data:`WAIT` while its
    cards wait on a look, :data:`AGAIN` after counting many deals drawn before (call
    again), or None when no draw is left to begin; ``done(job, values)``
    records a solved draw; ``close()`` begins no more (a limit); ``advice()`` is the
    answer so far.
    """

    def __init__(self, position: Position, samples: int, seed: int | None,
                 confidence: float = DEFAULT_CONFIDENCE):
        self.position = position
        knowledge = seat_knowledge(position, position.to_play)
        self.draws = Draws.start(position, samples, seed, knowledge)
        self.samples = self.draws.samples
        self.confidence = confidence
        self.sign = 1 if position.contract.camp[position.to_play] == position.contract.maximizer else -1
        #: the legal cards in groups worth the same in every deal (card order), and the
        #: cards the draws value: the first of each group, which stands for the group
        self.groups = [tuple(token(c) for c in g) for g in equivalent_cards(position, knowledge)]
        self.cards = [g[0] for g in self.groups]
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.looks = looks(self.samples)
        #: look -> the cards (indices) valued from LAG draws after it
        self.plans: dict[int, tuple] = {}
        self.solved: dict[str, _Solved] = {}     # key -> what it showed
        self.running: set = set()                # keys being solved
        self.begun = 0                           # draws begun, in order
        self.prefix = 0                          # draws solved exactly, from the first on
        self.pairs = Tally(len(self.cards), self.sign)
        self.decided_at: int | None = None       # the draws after which it was sure enough
        self.closed = False
        self.nodes = 0
        self.jobs = 0                            # searches run (draws solved, repeats not)

    # -- which draw next ----------------------------------------------------------------------

    def plan(self, i: int) -> tuple | None:
        """The cards draw ``i`` values, or None while the look they come from is unread."""
        ready = [n for n in self.looks if n <= i - LAG]
        if not ready:
            return tuple(range(len(self.cards)))
        return self.plans.get(ready[-1])

    def take(self):
        """The next draw to solve, WAIT, AGAIN or None (see the class)."""
        repeats = 0
        while not self.closed and self.begun < self.samples:
            cards = self.plan(self.begun)
            if cards is None:
                return WAIT
            if repeats == REPEATS:
                return AGAIN
            key, _ = self.draws.next()
            self.begun += 1
            if key in self.solved or key in self.running:
                # drawn before: its first draw's values count again (they value every
                # card this one would: the cards kept only ever shrink)
                repeats += 1
                self._advance()
                continue
            self.running.add(key)
            obj, self.draws.deals[key] = self.draws.deals[key], None    # the job holds it now
            return Job(self.begun - 1, key, obj, tuple(self.cards[i] for i in cards))
        return None

    def close(self) -> None:
        """Begin no more draws (a limit or a cancel)."""
        self.closed = True

    @property
    def decided(self) -> bool:
        return self.decided_at is not None

    def done(self, job: Job, exact: bool, values: dict, best: int | None, made: dict,
             nodes: int = 0, width: int | None = None) -> None:
        """Draw ``job`` solved: ``values`` {card: value} when ``exact``, else {card: [lo,
        hi]} (the cards of ``job``); ``best`` the deal's value when exact; ``made``
        {card: made after it (None: no contract)}; ``width``, needed when exact: how far
        apart the values of two cards of the deal can be (the width of its cheap bounds,
        :func:`atout.solver.advise.value_width`)."""
        self.nodes += nodes
        self.jobs += 1
        self.running.discard(job.key)
        if self.decided and job.index >= self.decided_at:
            return          # begun after the draw that decided: not part of the advice
        if exact and width is None:
            raise ValueError("an exact draw needs its width")
        k = len(self.cards)
        vals, bounds, flags = [None] * k, [None] * k, [None] * k
        for card, v in values.items():
            i = self.index[card]
            if exact:
                vals[i] = v
                bounds[i] = (v, v)
                flags[i] = made.get(card)
            else:
                bounds[i] = tuple(v)
        self.solved[job.key] = _Solved(exact, tuple(vals), tuple(bounds), best if exact else None,
                                       tuple(flags), int(width or 0))
        self._advance()

    def _advance(self) -> None:
        """Add the draws now solved in order to the sums; stop once sure enough (read after
        every draw: the tests allow it); drop cards at the looks they reach."""
        order = self.draws.order
        while self.prefix < self.begun and not self.decided:
            solved = self.solved.get(order[self.prefix])
            if solved is None or not solved.exact:
                return
            self.pairs.add(solved.values, solved.best, solved.width, solved.made)
            self.prefix += 1
            rec, _, certainty = self.pairs.standing()
            if self.confidence < 1 and certainty is not None and certainty >= self.confidence:
                self.decided_at = self.prefix
                self.closed = True
                return
            if self.prefix == self.samples:
                self.closed = True
                return
            if self.prefix in self.looks:
                self._look(self.prefix, rec)

    def _look(self, n: int, rec: int) -> None:
        """Drop the cards far behind: the draws from LAG after this look no longer value
        them."""
        before = [m for m in self.looks if m < n]
        kept = self.plans[before[-1]] if before else tuple(range(len(self.cards)))
        if n >= MIN_DRAWS:
            p = self.pairs
            # a dropped card cannot come back, so dropping the best card must be as rare as
            # a wrong stop: below 1 - confidence too (no wrong stop at confidence 1)
            below = DROP_P if self.confidence >= 1 else min(DROP_P, 1 - self.confidence)
            kept = tuple(i for i in kept if i == rec or p.pd[rec][i] == 0 or p.p_better(i) >= below)
        self.plans[n] = kept

    # -- the statistics ----------------------------------------------------------------------

    def summary(self) -> dict:
        """The statistics of the first ``prefix`` draws: {"rec": the recommended card's
        index (None: no draw solved), "best": indices with its mean, "certainty", "rows":
        per card of ``cards`` (each standing for its group) {mean, se, optimal, made, loss,
        draws, behind, behind_se, p_better}}."""
        p, k = self.pairs, len(self.cards)
        rows = []
        for i in range(k):
            m = p.n[i]
            row: dict = {"mean": None, "se": None, "optimal": None, "made": None, "loss": None,
                         "draws": m, "behind": None, "behind_se": None, "p_better": None}
            if m:
                mean = p.sum[i] / m
                row.update(mean=mean, optimal=p.optimal[i] / m, loss=p.loss[i] / m,
                           made=None if p.made_unknown[i] else p.made[i] / m)
                if m > 1:
                    row["se"] = math.sqrt(max(0.0, (p.sq[i] - m * mean * mean) / (m - 1)) / m)
            rows.append(row)
        rec, best, certainty = self.pairs.standing()
        if rec is None:
            return {"rec": None, "best": [], "certainty": None, "rows": rows}
        for i in range(k):
            m = p.pn[rec][i]
            if i == rec:
                rows[i].update(behind=0.0, behind_se=0.0)
                continue
            if not m:
                continue
            d, q = p.pd[rec][i], p.pq[rec][i]      # d = sum of (rec - card) for the camp
            mean = d / m
            rows[i]["behind"] = mean
            rows[i]["p_better"] = p.p_better(i)
            if m > 1:
                rows[i]["behind_se"] = math.sqrt(max(0.0, (q - m * mean * mean) / (m - 1)) / m)
        return {"rec": rec, "best": best, "certainty": certainty, "rows": rows}

    # -- the answer ----------------------------------------------------------------------------

    def counted(self) -> int:
        """The draws the advice is about: up to the deciding draw, else every one begun."""
        return self.decided_at if self.decided else self.begun

    def bounds(self) -> list:
        """Per card (low, high) summed over every draw counted — the exact values of the
        prefix and the bounds of the rest — and how many draws valued it; None where
        no draw did."""
        p, k = self.pairs, len(self.cards)
        low, high, n = list(p.sum), list(p.sum), list(p.n)
        for key in self.draws.order[self.prefix:self.counted()]:
            solved = self.solved.get(key)
            if solved is None:
                continue
            for i, b in enumerate(solved.bounds):
                if b is not None:
                    low[i] += b[0]
                    high[i] += b[1]
                    n[i] += 1
        return [(low[i] / n[i], high[i] / n[i]) if n[i] else None for i in range(k)]
