"""Each card of a played deal judged from its player's view too (``atout analyze --single-dummy``).

A thin layer on :func:`atout.solver.analyze.analyze`: the double-dummy analysis first,
then for every card analysed the advice its player could have had
(:func:`atout.solver.advise.advise`, the same draws for every card of that position) and
what the card played cost against the single-dummy best card there — so a player tells a
real mistake (costly with what it could see) from a card that only double dummy could
find (costly with every hand open, not on average over what it could see).

Each play of the report gains ``"single_dummy": {"best", "cost", "se", "samples",
"limited"}``: ``best`` the cards with the best mean value, ``cost`` the mean over the draws
of what the card played lost against the recommended card for its camp (never negative),
``se`` its standard error (the draws are paired: both cards in the same deals), ``samples``
the draws solved exactly, ``limited`` those a limit stopped (left out of ``cost``).  Each
seat gains ``sd_cost`` (the sum of its cards' costs) and ``sd_mistakes`` (its cards whose
cost exceeds twice its standard error: clear single-dummy mistakes).  Like the analysis it
runs from the last card back, so a time limit leaves the deal's last cards judged.
"""

from __future__ import annotations

import math
import time
from typing import Any

from atout.cards import token
from atout.options import MAX_SEED
from atout.position import Position, parse_position

from .advise import DEFAULT_SAMPLES, advise
from .analyze import AnalysisLimit, analyze
from .cancel import Cancel

__all__ = ["analyze_single_dummy", "judge"]


def judge(position: Position, card: str, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
          time_limit: float | None = None, workers: int | None = None,
          tt_mb: int | None = None, cancel: Cancel | None = None) -> tuple[dict, bool]:
    """What ``card`` (a token), played by the seat to play of ``position``, cost against the
    single-dummy best card: (the ``single_dummy`` object of a play (see the module), whether
    every draw was solved)."""
    legal = [token(c) for c in position.legal_cards()]
    if len(legal) == 1:
        return {"best": legal, "cost": 0.0, "se": 0.0, "samples": 0, "limited": 0}, True
    advice = advise(position, samples=samples, seed=seed, time_limit=time_limit,
                    workers=workers, tt_mb=tt_mb, cancel=cancel)
    sign = 1 if advice.maximizing else -1
    n = sum(w for w, _ in advice.draws)
    out = {"best": advice.best, "cost": None, "se": None, "samples": advice.solved,
           "limited": advice.limited}
    if n and advice.recommended is not None:
        rec = advice.recommended
        diffs = [(w, sign * (values[rec] - values[card])) for w, values in advice.draws]
        mean = sum(w * d for w, d in diffs) / n
        out["cost"] = round(max(mean, 0.0), 4)
        if n > 1:
            var = sum(w * (d - mean) ** 2 for w, d in diffs) / (n - 1)
            out["se"] = round(math.sqrt(var / n), 4)
    return out, advice.status == "ok"


def analyze_single_dummy(position: Any, *, start: int = 0, samples: int = DEFAULT_SAMPLES,
                         seed: int = 0, time_limit: float | None = None,
                         workers: int | None = None, threads: int = 1,
                         tt_mb: int | None = None, cancel: Cancel | None = None) -> dict:
    """The report of :func:`~atout.solver.analyze.analyze` with each card also judged from
    its player's view (see the module).  ``samples`` and ``seed``: the draws of each
    position (card ``index`` draws with seed ``seed + index``, modulo 2**64); ``workers``: searches side
    by side for the draws; ``threads``: threads of the double-dummy searches.
    ``time_limit`` bounds the whole: when it runs out (or ``cancel`` is set),
    :class:`~atout.solver.analyze.AnalysisLimit` is raised with the report of the cards
    done, the last ones of the deal."""
    if not isinstance(position, Position):
        position = parse_position(position)
    started = time.perf_counter()
    cancel = cancel or Cancel()
    report = analyze(position, start=start, time_limit=time_limit, tt_mb=tt_mb,
                     cancel=cancel, threads=threads)
    report["single_dummy"] = {"samples": samples, "seed": seed}
    for summary in report["seats"]:
        summary.update(sd_cost=0.0, sd_mistakes=0)
    played = list(position.played)
    judged = []
    for play in reversed(report["plays"]):
        left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if (left is not None and left <= 0) or cancel.is_set():
            break
        at = Position(position.game, position.hands, position.first, position.contract, position.id)
        for c in played[:play["index"]]:
            at.play(c)
        sd, complete = judge(at, play["card"], samples=samples, seed=(seed + play["index"]) % (MAX_SEED + 1),
                             time_limit=left, workers=workers, tt_mb=tt_mb, cancel=cancel)
        if not complete:
            break          # stopped part-way: this card is not judged on all its draws
        play["single_dummy"] = sd
        judged.append(play)
        summary = report["seats"][play["seat"]]
        if sd["cost"] is not None:
            summary["sd_cost"] = round(summary["sd_cost"] + sd["cost"], 4)
            summary["sd_mistakes"] += sd["cost"] > 0 and sd["se"] is not None and sd["cost"] > 2 * sd["se"]
    if len(judged) < len(report["plays"]):
        why = "interrupted" if cancel.is_set() else f"time limit of {time_limit:g} s reached"
        raise AnalysisLimit(f"{why} while judging the cards from their players' view "
                            f"({len(judged)} of {len(report['plays'])} cards judged)",
                            _last(report, judged))
    return report


def _last(report: dict, judged: list) -> dict:
    """The report cut to the cards judged from their player's view (the deal's last)."""
    keep = {p["index"] for p in judged}
    cut = dict(report)
    cut["plays"] = [p for p in report["plays"] if p["index"] in keep]
    if cut["plays"]:
        cut["start_value"] = cut["plays"][0]["value_before"]
    cut["outcome"] = report["outcome"] if len(cut["plays"]) == len(report["plays"]) else None
    seats = [dict(s, cards=0, mistakes=0, cost=0) for s in report["seats"]]
    for p in cut["plays"]:
        s = seats[p["seat"]]
        s["cards"] += 1
        s["cost"] += p["cost"]
        s["mistakes"] += p["cost"] > 0
    cut["seats"] = seats
    return cut
