"""Advice on the server's search pool (the ``Advise`` calls and ``POST /api/advise``).

The deals are drawn here (:func:`atout.solver.advise.draw`, within the advice's time limit)
on threads of their own (:data:`DRAWING`), not the event loop's executor that other calls
need, and each drawn deal is one job of the pool (kind ``cards``: every legal card's value,
see :mod:`.worker`), at most one per worker at a time for one advice so that other calls
get their turn; the answers are put together as ``atout advise`` does
(:func:`atout.solver.advise.aggregate`).  Cancelling the coroutine (the client went away,
the deadline passed) stops the drawing (its :class:`~atout.solver.Cancel`) and cancels the
jobs still running: the pool stops their searches.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from atout.position import parse_position
from atout.solver import Cancel
from atout.solver.advise import (DEFAULT_SAMPLES, NO_TIME, Advice, CardValues, aggregate, check,
                                 draw)

#: the drawing and the putting together of advices: two threads of their own (the work holds
#: the GIL, more would not go faster), so that many advices wait for these, not for the
#: executor a batch's validation needs
DRAWING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="atout-draw")

from .pool import SearchPool

__all__ = ["advise_on_pool", "AdviceFailed"]


class AdviceFailed(RuntimeError):
    """A worker refused or failed a drawn deal: ``what`` (invalid | internal), ``reason``."""

    def __init__(self, what: str, reason: str):
        super().__init__(reason)
        self.what, self.reason = what, reason


async def advise_on_pool(pool: SearchPool, obj: dict, *, seat: int | None = None,
                         samples: int = DEFAULT_SAMPLES, seed: int | None = None,
                         time_limit: float | None = None, tt_mb: int | None = None,
                         turns: asyncio.Semaphore | None = None) -> Advice:
    """The advice for the seat to play of position ``obj``, its draws solved on ``pool``.

    Bad input raises :class:`~atout.errors.PositionError` (as :func:`atout.solver.advise.advise`);
    ``time_limit`` bounds the whole advice (stopped draws count with their bounds).
    ``turns``: the draws in flight (default: one per worker; a batch shares one for all
    its positions)."""
    started = time.perf_counter()
    loop = asyncio.get_running_loop()

    deadline = None if time_limit is None else started + time_limit

    stop = Cancel()

    def prepare():
        position = check(obj, seat=seat, samples=samples, time_limit=time_limit, seed=seed,
                         tt_mb=tt_mb)
        # the limit covers the drawing; a cancelled call stops it at the next deal
        return draw(position, samples, seed, deadline=deadline, cancel=stop)

    try:
        draws = await loop.run_in_executor(DRAWING, prepare)
    except asyncio.CancelledError:
        stop.set()
        raise
    turns = turns or asyncio.Semaphore(pool.size)
    solved: dict[str, CardValues] = {}

    async def one(key: str) -> None:
        async with turns:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                if key != draws.order[0]:
                    return               # out of time before it began: left out
                left = NO_TIME           # the first draw is begun: bounds at least
            answer = await pool.run("cards", draws.deals[key], {"time_limit": left, "tt_mb": tt_mb})
        if answer[0] == "failed":
            _, _, what, _, reason = answer
            raise AdviceFailed(what, reason)
        _, _, _, nodes, data = answer
        solved[key] = CardValues(data["exact"], data["values"], data["value"], nodes)

    tasks = [asyncio.ensure_future(one(key)) for key in draws.deals]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def put_together() -> Advice:
        results = {key: (parse_position(draws.deals[key]), cv) for key, cv in solved.items()}
        return aggregate(draws, results, stopped_by="time", seconds=time.perf_counter() - started)

    return await loop.run_in_executor(DRAWING, put_together)
