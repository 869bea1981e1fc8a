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

**A budget** (``budget``: :func:`atout.solver.advise.budget_cards` solves the draws).  A
draw then values exactly only the cards in *contention* — the card recommended so far
(the leader, first) and the cards not yet clearly behind it (:meth:`Race._contends`, a
rule for spending time) — and leaves the others within the bounds its searches proved;
a node cap may leave more of it bounded.  Such a draw is complete all the same (the same
bounds on any machine) and counts in the sums as bounds: each card's mean becomes
``low``..``high``, its paired loss ``behind_low``..``behind_high``, and each test is paid
by the lower bound of the rival's lead (:class:`Tally`: a test on bounds is only more
cautious).  The looks come after every draw from :data:`BUDGET_FIRST_LOOK` on, and draw
``i`` follows the look at ``i -`` :data:`BUDGET_LAG`.  A node budget counts the draws
begun, in order, before the nodes of those before them reach it (``spent_at``).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

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
#: a budgeted advice (see the module) looks after every draw from this one on, and draw i
#: follows the look at i - BUDGET_LAG: which cards stay in contention is read as soon as a
#: few draws can say anything, and acted on soon after (a budget holds a dozen draws or
#: so; more workers than BUDGET_LAG then wait on the looks more often)
BUDGET_FIRST_LOOK = 3
BUDGET_LAG = 2
#: a card leaves the contention of a budgeted advice once the recommended card's proven
#: lead over it, over at least CONTENTION_DRAWS draws, is more than CONTENTION_Z standard
#: errors above 0 (and above CONTENTION_POINTS): a rule for spending the time, which claims
#: nothing — the card's test goes on, on the bounds its later draws prove
CONTENTION_DRAWS = 3
CONTENTION_Z = 2.0
CONTENTION_POINTS = 1.0
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
    """One drawn deal to solve: draw ``index``, its position object, the cards to value.
    A budgeted advice's draw also says which of them to value exactly (``exact``: the
    cards in contention, ``leader`` first), the rest within proven bounds, and the most
    nodes its searches may take (``nodes``; 0: no cap)."""

    index: int
    key: str
    position: dict
    cards: tuple
    exact: tuple = ()
    leader: str | None = None
    nodes: int = 0


@dataclass
class _Solved:
    """What one drawn deal showed, by card index (legal order): ``values`` a number
    (exact), ``(lo, hi)`` (bounds a budget left) or None (not valued) when ``complete``,
    else ``bounds`` [(lo, hi) or None] (a limit stopped it)."""

    exact: bool                 # complete: every search of the draw's plan ran its course
    values: tuple
    bounds: tuple
    best: Any                   # the deal's value (its best card's), or its bounds, or None
    made: tuple                 # per card: made after it (True/False/None), where valued
    width: int = 0              # how far apart any two of its cards' values can be
    first: int | None = None    # the card its search would try first (budget: a tie-break)
    capped: bool = False        # its node cap left some values bounds
    nodes: int = 0              # what its searches cost


class Tally:
    """What the first draws showed (see the module): running sums per card and per pair
    of cards, and each card's test.  ``add`` one draw after the other, in order; the
    advice reads ``standing`` after each.  ``sign``: 1 when the seat's camp wants the
    value high, -1 low.

    A draw values a card exactly (a number) or within proven bounds (``(low, high)``: a
    budgeted advice leaves the cards out of contention so, :mod:`atout.solver.advise`).
    Exact draws count as before; a bounded one counts in the sums of the lower and of the
    upper bounds (``slo``, ``shi``), never in the statistics that need values (``sq``,
    ``optimal``, ``loss``, ``made``), and in each test by what it proves: the lower bound
    of the rival's lead (the bet pays at most what the card would have paid exactly, so a
    test on bounds is only ever more cautious)."""

    def __init__(self, k: int, sign: int):
        self.sign = sign
        self.n = [0] * k                      # draws that valued the card (exactly or not)
        self.kept = [0] * k                   # draws that had it in contention (see add)
        self.exact = [0] * k                  # draws that valued it exactly
        self.slo = [0] * k                    # sums of its lower and upper bounds
        self.shi = [0] * k
        self.sq = [0] * k                     # sum of its squares, over its exact draws
        self.optimal = [0] * k                # over the draws valuing it and the deal exactly
        self.loss = [0] * k                   # sum of (draw's best - card), for its camp
        self.scored = [0] * k                 # the draws optimal and loss are over
        self.made = [0] * k                   # draws proven made after it
        self.made_open = [0] * k              # draws where that is not proven either way
        self.made_unknown = [False] * k       # no contract to make (Trischaken)
        self.first = [0] * k                  # draws whose search would try it first
        self.best_sum = 0                     # sum of the deals' values, where exact
        self.best_lo = 0                      # sums of their bounds, every draw
        self.best_hi = 0
        self.best_n = 0                       # draws whose value is exact
        # pair (a, b): over the draws valuing both, sums of d = sign * (v_a - v_b): its
        # lower bound (``pd``; d itself in an exact draw), its upper bound (``pdh``), the
        # lower bound squared (``pq``), and the draws where both were exact (``pe``)
        self.pn = [[0] * k for _ in range(k)]
        self.pd = [[0] * k for _ in range(k)]
        self.pdh = [[0] * k for _ in range(k)]
        self.pq = [[0] * k for _ in range(k)]
        self.pe = [[0] * k for _ in range(k)]
        self.draws = 0
        self.range = 0                        # the widest width of a draw so far
        self.wealth = [0.0] * k               # per card: its test's wealth (log)
        self.peak = [0.0] * k                 # the most it has reached (log)

    @property
    def sum(self) -> list:
        """Per card, the sum of its values (exact draws) or of its bounds' middles, twice
        over: what the cards are ranked by."""
        return [lo + hi for lo, hi in zip(self.slo, self.shi)]

    def add(self, values: tuple, best, width: int, made: tuple | None = None,
            kept: tuple | None = None, first: int | None = None) -> None:
        """One more draw: ``values`` per card — None (not valued), a number (exact) or
        ``(low, high)`` (proven bounds); ``best`` the deal's value (a number, ``(low,
        high)``, or None: not known); ``width`` how far apart two cards' values can be in
        it; ``made`` per card (True/False; None: not known or no contract); ``kept`` per
        card whether it was in contention in this draw (default: valued); ``first``: the
        card the draw's search would try first (a tie-break, no value)."""
        sign = self.sign
        box = [None if v is None else (v, v) if not isinstance(v, (tuple, list)) else tuple(v)
               for v in values]
        valued = [i for i, b in enumerate(box) if b is not None]
        self._bet(box, valued)
        self.draws += 1
        if best is None:
            blo = bhi = None
        else:
            blo, bhi = (best, best) if not isinstance(best, (tuple, list)) else best
        if blo is not None and blo == bhi:
            self.best_sum += blo
            self.best_n += 1
        if blo is not None:
            self.best_lo += blo
            self.best_hi += bhi
        if first is not None:
            self.first[first] += 1
        for i in valued:
            lo, hi = box[i]
            self.n[i] += 1
            self.kept[i] += kept[i] if kept is not None else 1
            self.slo[i] += lo
            self.shi[i] += hi
            if lo == hi:
                self.exact[i] += 1
                self.sq[i] += lo * lo
                if blo is not None and blo == bhi:
                    self.scored[i] += 1
                    self.optimal[i] += lo == blo
                    self.loss[i] += sign * (blo - lo)
            m = None if made is None else made[i]
            if made is None or (m is None and lo == hi):
                self.made_unknown[i] = True
            elif m is None:
                self.made_open[i] += 1
            else:
                self.made[i] += m
            for j in valued:
                # (a card against itself: no lead, whatever its bounds)
                dlo, dhi = _lead(box[i], box[j], sign) if j != i else (0, 0)
                self.pn[i][j] += 1
                self.pd[i][j] += dlo
                self.pdh[i][j] += dhi
                self.pq[i][j] += dlo * dlo
                self.pe[i][j] += dlo == dhi
        self.range = max(self.range, width)

    def _bet(self, box: list, valued: list) -> None:
        """Each valued card's test takes this draw's bet, chosen from the draws before it
        only (the sums not yet counting it): against its rival, the best other card
        valued here, how much the rival's lead is worth staking.  The draw pays by the
        lower bound of the rival's lead (the lead itself where both are exact)."""
        r, sign = self.range, self.sign
        if not r:
            return                            # nothing drawn yet, or no room to differ
        prior = (BET_PRIOR_SPREAD * r) ** 2
        total = self.sum
        ranked = sorted(valued, key=lambda a: (-sign * total[a], a))[:2]
        if len(ranked) < 2:
            return
        for b in valued:
            rival = ranked[1] if b == ranked[0] else ranked[0]
            m = self.pn[rival][b]
            lead = self.pd[rival][b] / (m + 1)
            if lead <= 0:
                continue                      # the rival is not ahead: nothing to stake
            bet = min(BET_CAP, lead * r / ((self.pq[rival][b] + prior) / (m + 1)))
            pays = 1 + bet * _lead(box[rival], box[b], sign)[0] / r
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
        mean (of its bounds' middles, where bounded) among the cards in contention in
        every draw."""
        k, n = len(self.n), self.draws
        alive = [i for i in range(k) if n and self.kept[i] == n]
        if not alive:
            return None, [], None
        # the best mean for the seat's camp (exact sums: no rounding decides); ties: more
        # often optimal, then the smaller loss, then more often the search's first card,
        # then the card's order
        total = self.sum
        rec = min(alive, key=lambda i: (-self.sign * total[i], -self.optimal[i], self.loss[i],
                                        -self.first[i], i))
        best = [i for i in alive if self.pd[rec][i] == 0 and self.pdh[rec][i] == 0]
        # a wrong stop needs the best card's own test to have failed: the largest p_better
        # of the others is the error the stop risks (no sum over the cards: see the module)
        certainty = None if n < 2 else 1.0 - max(self.p_better(i) for i in range(k) if i != rec)
        return rec, best, certainty


def _lead(a: tuple, b: tuple, sign: int) -> tuple:
    """(low, high) of ``sign * (v_a - v_b)`` for values within the bounds ``a`` and ``b``."""
    if sign > 0:
        return a[0] - b[1], a[1] - b[0]
    return b[0] - a[1], b[1] - a[0]


# -- the race ------------------------------------------------------------------------------------

class Plan(NamedTuple):
    """What a draw asks of its deal: the cards valued (indices), those of them valued
    exactly (the rest within proven bounds), and the card in the lead (None: none yet)."""

    cards: tuple
    exact: tuple
    leader: int | None = None


class Race:
    """The draws of one advice and what they showed (see the module).  Not thread-safe:
    the caller holds a lock around every call.

    ``take()`` gives the next draw to solve (a :class:`Job`), :data:`WAIT` while its
    cards wait on a look, :data:`AGAIN` after counting many deals drawn before (call
    again), or None when no draw is left to begin; ``done(job, values)``
    records a solved draw; ``close()`` begins no more (a limit); ``advice()`` is the
    answer so far.

    ``budget``: a budgeted advice (:mod:`atout.solver.advise`): each draw values exactly
    only the cards in contention, the others within the bounds its searches prove, its
    searches capped at ``draw_nodes`` nodes; ``node_budget``: the draws counted are those
    begun, in order, before the nodes of the draws before them reach it (0: no budget).
    """

    def __init__(self, position: Position, samples: int, seed: int | None,
                 confidence: float = DEFAULT_CONFIDENCE, *, budget: bool = False,
                 draw_nodes: int = 0, node_budget: int = 0):
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
        self.budget = budget
        self.draw_nodes = int(draw_nodes)
        self.node_budget = int(node_budget)
        self.looks = (looks(self.samples) if not budget else
                      [n for n in range(BUDGET_FIRST_LOOK, self.samples)] + [self.samples])
        #: look -> the plan of the draws from LAG after it
        self.plans: dict[int, Plan] = {}
        self.solved: dict[str, _Solved] = {}     # key -> what it showed
        self.running: set = set()                # keys being solved
        self.begun = 0                           # draws begun, in order
        self.prefix = 0                          # draws complete, from the first on
        self.pairs = Tally(len(self.cards), self.sign)
        self.decided_at: int | None = None       # the draws after which it was sure enough
        self.spent_at: int | None = None         # the draws the node budget covered
        self.spent = 0                           # nodes of the draws counted, in order
        self.capped = 0                          # draws counted whose cap left bounds
        self._paid: set = set()                  # keys whose nodes the budget has counted
        self.closed = False
        self.nodes = 0
        self.jobs = 0                            # searches run (draws solved, repeats not)

    # -- which draw next ----------------------------------------------------------------------

    def plan(self, i: int) -> Plan | None:
        """What draw ``i`` asks, or None while the look it comes from is unread."""
        ready = [n for n in self.looks if n <= i - (BUDGET_LAG if self.budget else LAG)]
        if not ready:
            every = tuple(range(len(self.cards)))
            return Plan(every, every)
        return self.plans.get(ready[-1])

    def take(self):
        """The next draw to solve, WAIT, AGAIN or None (see the class)."""
        repeats = 0
        while not self.closed and self.begun < self.samples:
            plan = self.plan(self.begun)
            if plan is None:
                return WAIT
            if repeats == REPEATS:
                return AGAIN
            key, _ = self.draws.next()
            self.begun += 1
            if key in self.solved or key in self.running:
                # drawn before: its first draw's values count again (they value every
                # card this one would, as exactly: the cards kept and those in contention
                # only ever shrink, and the leader is always in contention)
                repeats += 1
                self._advance()
                continue
            self.running.add(key)
            obj, self.draws.deals[key] = self.draws.deals[key], None    # the job holds it now
            names = self.cards
            return Job(self.begun - 1, key, obj, tuple(names[i] for i in plan.cards),
                       tuple(names[i] for i in plan.exact),
                       None if plan.leader is None else names[plan.leader], self.draw_nodes)
        return None

    def close(self) -> None:
        """Begin no more draws (a limit or a cancel)."""
        self.closed = True

    @property
    def decided(self) -> bool:
        return self.decided_at is not None

    def done(self, job: Job, exact: bool, values: dict, best, made: dict,
             nodes: int = 0, width: int | None = None, first: str | None = None,
             capped: bool = False) -> None:
        """Draw ``job`` solved: ``exact`` (complete) when every search of its plan ran its
        course — ``values`` {card: value, or [lo, hi] for a card a budgeted draw left
        bounded}, ``best`` the deal's value (or its bounds, or None), ``width`` needed: how
        far apart the values of two cards of the deal can be (the width of its cheap
        bounds, :func:`atout.solver.advise.value_width`) — else a limit stopped it:
        {card: [lo, hi]}; ``made`` {card: made after it (None: not known, or no
        contract)}; ``first`` the card its search would try first; ``capped``: the
        draw's node cap left some of it bounded."""
        self.nodes += nodes
        self.jobs += 1
        self.running.discard(job.key)
        if self.decided and job.index >= self.decided_at:
            return          # begun after the draw that decided: not part of the advice
        if self.spent_at is not None and job.index >= self.spent_at:
            return          # begun past the node budget: not part of the advice either
        if exact and width is None:
            raise ValueError("an exact draw needs its width")
        k = len(self.cards)
        vals, bounds, flags = [None] * k, [None] * k, [None] * k
        for card, v in values.items():
            i = self.index[card]
            box = tuple(v) if isinstance(v, (tuple, list)) else (v, v)
            bounds[i] = box
            if exact:
                vals[i] = box[0] if box[0] == box[1] else box
                flags[i] = made.get(card)
        if isinstance(best, (tuple, list)):
            best = best[0] if best[0] == best[1] else tuple(best)
        self.solved[job.key] = _Solved(exact, tuple(vals), tuple(bounds), best if exact else None,
                                       tuple(flags), int(width or 0),
                                       self.index.get(first) if first is not None else None,
                                       capped, nodes)
        self._advance()

    def _advance(self) -> None:
        """Add the draws now complete in order to the sums; stop once sure enough (read
        after every draw: the tests allow it), or once the node budget is spent; read the
        looks they reach."""
        order = self.draws.order
        while self.prefix < self.begun and not self.decided and self.spent_at is None:
            solved = self.solved.get(order[self.prefix])
            if solved is None or not solved.exact:
                return
            if self.node_budget and self.spent >= self.node_budget:
                # the draws counted are those begun before the budget was spent, in order:
                # the same ones whatever the workers and whichever finished first
                self.spent_at = self.prefix
                self.closed = True
                return
            plan = self.plan(self.prefix)
            kept = [False] * len(self.cards)
            for i in plan.exact:
                kept[i] = True
            self.pairs.add(solved.values, solved.best, solved.width, solved.made, tuple(kept),
                           solved.first)
            if order[self.prefix] not in self._paid:       # a deal drawn again costs nothing
                self._paid.add(order[self.prefix])
                self.spent += solved.nodes
            self.capped += solved.capped
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
        them.  A budgeted advice also reads which cards are still in contention with the
        recommended card (the leader of the next draws)."""
        before = [m for m in self.looks if m < n]
        last = self.plans[before[-1]] if before else self.plan(0)
        kept, exact = last.cards, last.exact
        p = self.pairs
        if n >= (BUDGET_FIRST_LOOK if self.budget else MIN_DRAWS):
            # a dropped card cannot come back, so dropping the best card must be as rare as
            # a wrong stop: below 1 - confidence too (no wrong stop at confidence 1)
            below = DROP_P if self.confidence >= 1 else min(DROP_P, 1 - self.confidence)
            kept = tuple(i for i in kept if i == rec or (p.pd[rec][i] == 0 and p.pdh[rec][i] == 0)
                         or p.p_better(i) >= below)
        if self.budget:
            exact = tuple(i for i in exact if i in kept and (i == rec or self._contends(i, rec)))
            self.plans[n] = Plan(kept, exact, rec)
        else:
            self.plans[n] = Plan(kept, kept)

    def _contends(self, i: int, rec: int) -> bool:
        """Whether card ``i`` is still in contention with the recommended card ``rec`` in a
        budgeted advice: not yet behind it by a clear margin, by what the draws valuing
        both prove (its lower bound, the lead itself where exact) — a rule for spending
        the draws' time on the cards that can still be the best, not a claim."""
        p = self.pairs
        m = p.pn[rec][i]
        if m < CONTENTION_DRAWS:
            return True
        mean = p.pd[rec][i] / m
        spread = math.sqrt(max(0.0, (p.pq[rec][i] - m * mean * mean) / (m - 1)))
        return not (mean > CONTENTION_POINTS and mean > CONTENTION_Z * spread / math.sqrt(m))

    # -- the statistics ----------------------------------------------------------------------

    def summary(self) -> dict:
        """The statistics of the first ``prefix`` draws: {"rec": the recommended card's
        index (None: no draw solved), "best": indices with its mean, "certainty", "rows":
        per card of ``cards`` (each standing for its group) {mean, se, optimal, made, loss,
        draws, behind, behind_se, p_better, and where some draw left it bounded: low,
        high, exact, behind_low, behind_high, made_low, made_high}}.  The numbers that need
        values (mean, se, optimal, made, loss, behind, behind_se) are None for a card not
        valued exactly in every draw that valued it: its bounds say what is proven."""
        p, k = self.pairs, len(self.cards)
        rows = []
        for i in range(k):
            m = p.n[i]
            row: dict = {"mean": None, "se": None, "optimal": None, "made": None, "loss": None,
                         "draws": m, "behind": None, "behind_se": None, "p_better": None}
            whole = m and p.exact[i] == m
            if whole:
                mean = p.slo[i] / m
                row["mean"] = mean
                if p.scored[i] == m:
                    row.update(optimal=p.optimal[i] / m, loss=p.loss[i] / m)
                if not p.made_unknown[i] and not p.made_open[i]:
                    row["made"] = p.made[i] / m
                if m > 1:
                    row["se"] = math.sqrt(max(0.0, (p.sq[i] - m * mean * mean) / (m - 1)) / m)
            elif m:
                row.update(low=p.slo[i] / m, high=p.shi[i] / m, exact=p.exact[i])
                if not p.made_unknown[i]:
                    row.update(made_low=p.made[i] / m, made_high=(p.made[i] + p.made_open[i]) / m)
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
            rows[i]["p_better"] = p.p_better(i)
            if p.pe[rec][i] < m:
                # bounds only: what the recommended card is proven to gain over it, at least
                # and at most, over the draws valuing both
                rows[i]["behind_low"] = p.pd[rec][i] / m
                rows[i]["behind_high"] = p.pdh[rec][i] / m
                continue
            d, q = p.pd[rec][i], p.pq[rec][i]      # d = sum of (rec - card) for the camp
            mean = d / m
            rows[i]["behind"] = mean
            if m > 1:
                rows[i]["behind_se"] = math.sqrt(max(0.0, (q - m * mean * mean) / (m - 1)) / m)
        if rows[rec].get("low") is not None:
            rows[rec].update(behind=None, behind_se=None, behind_low=0.0, behind_high=0.0)
        return {"rec": rec, "best": best, "certainty": certainty, "rows": rows}

    # -- the answer ----------------------------------------------------------------------------

    def counted(self) -> int:
        """The draws the advice is about: up to the deciding draw (or the last the node
        budget covered), else every one begun."""
        if self.decided:
            return self.decided_at
        if self.spent_at is not None:
            return self.spent_at
        return self.begun

    def bounds(self) -> list:
        """Per card (low, high) summed over every draw counted — the complete draws'
        values and bounds, and the bounds of the rest — and how many draws valued it; None
        where no draw did."""
        p, k = self.pairs, len(self.cards)
        low, high, n = list(p.slo), list(p.shi), list(p.n)
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
