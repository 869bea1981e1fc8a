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
seat's camp), their mean (``behind``) and standard error (``behind_se``), and the
probability that its mean over every consistent deal is higher (``p_better``: Student's
t on the paired losses, the usual model for a mean of a few draws).  Pairing removes
what the draws have in common — most of the spread comes from the deal, not from the
card (issue 50: a paired standard error 0.21 against 12.19 for the card alone).

**Looks, and stopping early.**  The statistics are read at fixed numbers of draws
(:func:`looks`: 10, 15, 20, 25, 31, …, and ``samples``), once the draws up to that number
are solved.  At a look the advice stops when the recommended card is ahead of every
other with the asked confidence: ``certainty`` = 1 − the sum of the other cards'
``p_better`` (a lower bound of the probability that none is better: the union bound) at
least ``confidence``.  At least :data:`MIN_DRAWS` draws first: too few draws make the t
model unreliable.

**Cards worth the same, and cards tied so far.**  Cards the seat cannot tell apart in
any deal (:mod:`atout.solver.equivalent`: one suit, the same points, nothing the seat
cannot place between them) are one choice: the draws value one card of the group, and
the advice gives its numbers to each.  A card tied with the recommended one in every draw
so far is another matter: the tie is no evidence that they are equal, only that they
differ in few deals.  Its paired t statistic is 0/0, so its ``p_better`` is instead the
rule of three: were the two cards different in a share :data:`TIE_SHARE` of the consistent
deals or more, n draws would all have shown them equal with probability at most
(1 − TIE_SHARE)^n — at most 1/2 (a tie favours neither card).  So a tie blocks the stop
until that is below what the confidence leaves (one tie at 95 %: 59 draws), and the
advice then claims no more than it has shown: no other card is better, except possibly
through fewer than 5 % of the deals, where the draws never saw them differ.

**Cards far behind are dropped.**  At a look, a card whose ``p_better`` is below
:data:`DROP_P` (and that is not tied with the best) is no longer valued in the draws
that follow: what those draws cost is spent on the cards still in the running, and the
dropped card keeps the statistics of the draws that valued it (``draws``).  Draw ``i``
values the cards kept at the last look at or before ``i −`` :data:`LAG`: the draws just
after a look start before it is read, so no worker waits for the slowest draw of a look.

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

from atout.cards import token
from atout.knowledge import Knowledge, seat_knowledge
from atout.position import Position
from atout.sampler import Sampler

from .equivalent import equivalent_cards

__all__ = ["Draws", "Job", "Race", "WAIT", "AGAIN", "looks", "t_sf", "tie_p_better",
           "DEFAULT_CONFIDENCE", "MIN_DRAWS", "DROP_P", "LAG", "TIE_SHARE"]

#: the confidence an advice stops at, unless told otherwise
DEFAULT_CONFIDENCE = 0.95
#: no early stop, and no card dropped, on fewer draws
MIN_DRAWS = 10
#: a card this unlikely to be better than the recommended one is no longer valued
DROP_P = 0.001
#: draw i values the cards kept at the last look at or before i - LAG
LAG = 4
#: a card tied with the recommended one in every draw so far counts as differing from it in
#: at least this share of the deals until the draws make that unlikely (tie_p_better)
TIE_SHARE = 0.05
#: what Race.take answers while the cards of the next draw wait on a look
WAIT = "wait"
#: what Race.take answers after drawing deals drawn before (their values count again):
#: ask again (a limit is checked between two calls)
AGAIN = "again"
#: deals drawn again that one call of Race.take counts at most before answering AGAIN
REPEATS = 256


def looks(samples: int) -> list[int]:
    """The numbers of draws at which the statistics are read: MIN_DRAWS, then about a
    quarter more each time (at least 5), and ``samples`` last."""
    out, n = [], MIN_DRAWS
    while n < samples:
        out.append(n)
        n += max(5, n // 4)
    out.append(samples)
    return out


def t_sf(t: float, df: int) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (exact for whole ``df``:
    Abramowitz and Stegun 26.7.3-4; the normal past 300, closer than 1e-3 there)."""
    if t < 0:
        return 1.0 - t_sf(-t, df)
    if df > 300:
        return 0.5 * math.erfc(t / math.sqrt(2.0))
    theta = math.atan(t / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2:
        term, total = 1.0, 1.0 if df > 1 else 0.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        inside = 2.0 / math.pi * (theta + s * math.cos(theta) * total)
    else:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        inside = s * total
    return max(0.0, (1.0 - inside) / 2.0)


def tie_p_better(n: int) -> float:
    """The ``p_better`` of a card equal to the recommended one in each of ``n`` draws (and
    not provably equal: :mod:`atout.solver.equivalent`): the chance that ``n`` draws all
    show two cards equal that differ in a share TIE_SHARE of the deals or more, at most
    1/2 — a tie says nothing of which card would be better where they differ."""
    return min(0.5, (1.0 - TIE_SHARE) ** n)


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


class _Pairs:
    """Running sums over the draws of a prefix, per card and per pair of cards."""

    def __init__(self, k: int):
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

    def add(self, solved: _Solved, sign: int) -> None:
        vals, best = solved.values, solved.best
        self.draws += 1
        self.best_sum += best
        valued = [i for i, v in enumerate(vals) if v is not None]
        for i in valued:
            v = vals[i]
            self.n[i] += 1
            self.sum[i] += v
            self.sq[i] += v * v
            self.optimal[i] += v == best
            self.loss[i] += sign * (best - v)
            m = solved.made[i]
            if m is None:
                self.made_unknown[i] = True
            else:
                self.made[i] += m
            for j in valued:
                d = sign * (v - vals[j])
                self.pn[i][j] += 1
                self.pd[i][j] += d
                self.pq[i][j] += d * d


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
        self.pairs = _Pairs(len(self.cards))
        self.decided_at: int | None = None       # the look that was sure enough
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
             nodes: int = 0) -> None:
        """Draw ``job`` solved: ``values`` {card: value} when ``exact``, else {card: [lo,
        hi]} (the cards of ``job``); ``best`` the deal's value when exact; ``made``
        {card: made after it (None: no contract)}."""
        self.nodes += nodes
        self.jobs += 1
        self.running.discard(job.key)
        if self.decided and job.index >= self.decided_at:
            return          # begun after the look that decided: not part of the advice
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
                                       tuple(flags))
        self._advance()

    def _advance(self) -> None:
        """Add the draws now solved in order to the sums; read the looks they reach."""
        order = self.draws.order
        while self.prefix < self.begun and not self.decided:
            solved = self.solved.get(order[self.prefix])
            if solved is None or not solved.exact:
                return
            self.pairs.add(solved, self.sign)
            self.prefix += 1
            if self.prefix in self.looks:
                self._look(self.prefix)

    def _look(self, n: int) -> None:
        summary = self.summary()
        rec, certainty = summary["rec"], summary["certainty"]
        if n >= MIN_DRAWS and self.confidence < 1 and certainty is not None \
                and certainty >= self.confidence:
            self.decided_at = n
            self.closed = True
            return
        if n == self.samples:
            self.closed = True
            return
        before = [m for m in self.looks if m < n]
        kept = self.plans[before[-1]] if before else tuple(range(len(self.cards)))
        if n >= MIN_DRAWS:
            rows = summary["rows"]
            kept = tuple(i for i in kept if i == rec or i in summary["best"]
                         or rows[i]["p_better"] is None or rows[i]["p_better"] >= DROP_P)
        self.plans[n] = kept

    # -- the statistics ----------------------------------------------------------------------

    def summary(self) -> dict:
        """The statistics of the first ``prefix`` draws: {"rec": the recommended card's
        index (None: no draw solved), "best": indices with its mean, "certainty", "rows":
        per card of ``cards`` (each standing for its group) {mean, se, optimal, made, loss,
        draws, behind, behind_se, p_better}}."""
        p, k, n = self.pairs, len(self.cards), self.prefix
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
        alive = [i for i in range(k) if n and p.n[i] == n]
        if not alive:
            return {"rec": None, "best": [], "certainty": None, "rows": rows}
        # the best mean for the seat's camp (exact sums: no rounding decides); ties: more
        # often optimal, then the smaller loss, then the card's order
        rec = min(alive, key=lambda i: (-self.sign * p.sum[i], -p.optimal[i], p.loss[i], i))
        best = [i for i in alive if p.pd[rec][i] == 0]
        total = 0.0
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
            if m > 1:
                se = math.sqrt(max(0.0, (q - m * mean * mean) / (m - 1)) / m)
                rows[i]["behind_se"] = se
                if q == 0:
                    # equal in every draw so far, yet not provably (those are one card
                    # here): t is 0/0, and the tie only shows they differ in few deals
                    better = tie_p_better(m)
                elif se == 0:
                    # the same loss in every draw: t's limit (as a loss nearly the same
                    # in every draw would give)
                    better = 0.0 if mean > 0 else 1.0
                else:
                    better = t_sf(mean / se, m - 1)
                rows[i]["p_better"] = better
                # each card its own event, even two cards equal to each other in every
                # draw so far: a later draw may tell them apart (the union bound)
                total += better
        certainty = None if n < 2 else max(0.0, 1.0 - total)
        return {"rec": rec, "best": best, "certainty": certainty, "rows": rows}

    # -- the answer ----------------------------------------------------------------------------

    def counted(self) -> int:
        """The draws the advice is about: up to the deciding look, else every one begun."""
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
