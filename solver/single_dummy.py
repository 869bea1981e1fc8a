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
seat gains ``sd_cost`` (the sum of its judged cards' costs) and ``sd_mistakes`` (its cards
whose cost exceeds twice its standard error: clear single-dummy mistakes).

The single-dummy judgement needs no double-dummy value of the real deal: it stands whether
the analysis solved a card's value or only bounded it.  The time limit covers both, and
like the analysis it never raises: the double-dummy analysis gets at most
:data:`DOUBLE_DUMMY_SHARE` of it (an endgame takes far less, and leaves the rest), then the
cards are judged from the last one back, so a time limit (or a cancel) leaves the deal's
last cards judged and the earlier ones with ``"single_dummy": null`` — not judged — and the
report's ``single_dummy`` object says how many were judged and, when not all, why
(``stopped_by``).
"""

from __future__ import annotations

import time
from typing import Any

from atout.cards import token
from atout.options import MAX_SEED
from atout.position import Position, parse_position

from . import check_limits
from .advise import DEFAULT_SAMPLES, advise
from .analyze import analyze
from .cancel import Cancel

__all__ = ["analyze_single_dummy", "judge"]

#: the double-dummy analysis' share of the time limit at most (the judging gets the rest, and
#: whatever the analysis leaves): a whole deal's early cards are never judged in time anyway,
#: so half goes to the values of the whole line, half to judging its last cards
DOUBLE_DUMMY_SHARE = 0.5


def judge(position: Position, card: str, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
          time_limit: float | None = None, workers: int | None = None,
          tt_mb: int | None = None, cancel: Cancel | None = None) -> tuple[dict, bool]:
    """What ``card`` (a token), played by the seat to play of ``position``, cost against the
    single-dummy best card: (the ``single_dummy`` object of a play (see the module), whether
    every draw was solved)."""
    legal = [token(c) for c in position.legal_cards()]
    if len(legal) == 1:
        return {"best": legal, "cost": 0.0, "se": 0.0, "samples": 0, "limited": 0}, True
    # not budgeted: the time limit is the analysis' deadline, and a judgement needs the
    # exact paired losses of the draws it counts (a card not judged in time is not judged)
    advice = advise(position, samples=samples, seed=seed, time_limit=time_limit,
                    workers=workers, tt_mb=tt_mb, cancel=cancel, budget=False)
    out = {"best": advice.best, "cost": None, "se": None, "samples": advice.solved,
           "limited": advice.limited}
    row = next(r for r in advice.cards if r["card"] == card)
    if advice.decided == "one card":
        # every legal card worth the same in every deal the player could think possible
        out.update(cost=0.0, se=0.0)
    elif advice.solved and row["behind"] is not None:
        # the card's loss against the recommended card over the draws that valued both
        # (a card far behind is no longer valued once that is sure: its draws are fewer)
        out["cost"] = round(max(row["behind"], 0.0), 4)
        out["se"] = row["behind_se"]
    return out, advice.status == "ok"


def analyze_single_dummy(position: Any, *, start: int = 0, samples: int = DEFAULT_SAMPLES,
                         seed: int = 0, time_limit: float | None = None,
                         workers: int | None = None, threads: int = 1,
                         tt_mb: int | None = None, cancel: Cancel | None = None) -> dict:
    """The report of :func:`~atout.solver.analyze.analyze` with each card also judged from
    its player's view (see the module).  ``samples`` and ``seed``: the draws of each
    position (card ``index`` draws with seed ``seed + index``, modulo 2**64); ``workers``: searches side
    by side for the draws; ``threads``: threads of the double-dummy searches.
    ``time_limit`` bounds the whole and ``cancel`` stops it; either way every card has its
    double-dummy verdict (exact or bounded) and the cards judged in time their
    ``single_dummy``, the others None; ``report["single_dummy"]`` is ``{"samples",
    "seed", "judged"}``, with ``stopped_by`` (``time`` or ``cancel``) when some card is not
    judged."""
    if not isinstance(position, Position):
        position = parse_position(position)
    check_limits(time_limit)
    started = time.perf_counter()
    cancel = cancel or Cancel()
    report = analyze(position, start=start,
                     time_limit=None if time_limit is None else DOUBLE_DUMMY_SHARE * time_limit,
                     tt_mb=tt_mb, cancel=cancel, threads=threads)
    for summary in report["seats"]:
        summary.update(sd_cost=0.0, sd_mistakes=0)
    played = list(position.played)
    judged = 0
    stopped_by = None
    for play in report["plays"]:
        play["single_dummy"] = None
    for play in reversed(report["plays"]):
        left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if cancel.is_set() or (left is not None and left <= 0):
            stopped_by = "cancel" if cancel.is_set() else "time"
            break
        at = Position(position.game, position.hands, position.first, position.contract, position.id)
        for c in played[:play["index"]]:
            at.play(c)
        sd, complete = judge(at, play["card"], samples=samples, seed=(seed + play["index"]) % (MAX_SEED + 1),
                             time_limit=left, workers=workers, tt_mb=tt_mb, cancel=cancel)
        if not complete:
            # stopped part-way: not judged on all its draws (the hard ones would be missing)
            stopped_by = "cancel" if cancel.is_set() else "time"
            break
        play["single_dummy"] = sd
        judged += 1
        summary = report["seats"][play["seat"]]
        if sd["cost"] is not None:
            summary["sd_cost"] = round(summary["sd_cost"] + sd["cost"], 4)
            summary["sd_mistakes"] += sd["cost"] > 0 and sd["se"] is not None and sd["cost"] > 2 * sd["se"]
    report["single_dummy"] = {"samples": samples, "seed": seed, "judged": judged}
    if stopped_by is not None:
        report["single_dummy"]["stopped_by"] = stopped_by
    return report
