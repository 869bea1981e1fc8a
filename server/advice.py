"""Advice on the server's search pool (the ``Advise`` calls and ``POST /api/advise``).

The draws and what they show are kept as ``atout advise`` keeps them
(:class:`atout.solver.race.Race`: which cards each draw values, when the advice is sure
enough), and each drawn deal is one job of the pool (kind ``cards``: the values of the
cards it asks, see :mod:`.worker`), at most one per worker at a time for one advice so
that other calls get their turn; the answer is put together as ``atout advise`` does
(:func:`atout.solver.advise.put_together`): the same seed, the same advice.  Cancelling
the coroutine (the client went away, the deadline passed) cancels the jobs still
running: the pool stops their searches; so does an advice sure enough before its last
draws are solved.  Counting the consistent deals and putting the answer together run on
threads of their own (:data:`DRAWING`), not the event loop's executor that other calls
need; each deal is drawn as a worker is free for it (a few milliseconds at most), so a
large ``samples`` costs nothing once the advice stops.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from atout.position import parse_position
from atout.runner.process import JobKind
from atout.solver.advise import (DEFAULT_CONFIDENCE, DEFAULT_SAMPLES, NO_TIME, Advice,
                                 budget_of, check, made, made_bounds, put_together, start)
from atout.solver.race import AGAIN, WAIT

from .pool import SearchPool
from .worker import Failed

__all__ = ["advise_on_pool", "AdviceFailed"]

#: the counting and the putting together of advices: two threads of their own (the work
#: holds the GIL, more would not go faster), so that many advices wait for these, not for
#: the executor a batch's validation needs
DRAWING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="atout-draw")


class AdviceFailed(RuntimeError):
    """A worker refused or failed a drawn deal: ``what`` (invalid | internal), ``reason``."""

    def __init__(self, what: str, reason: str):
        super().__init__(reason)
        self.what, self.reason = what, reason


async def advise_on_pool(pool: SearchPool, obj: dict, *, seat: int | None = None,
                         samples: int = DEFAULT_SAMPLES, seed: int | None = None,
                         confidence: float = DEFAULT_CONFIDENCE,
                         time_limit: float | None = None, tt_mb: int | None = None,
                         turns: asyncio.Semaphore | None = None, node_limit: int | None = None,
                         budget: bool | None = None) -> Advice:
    """The advice for the seat to play of position ``obj``, its draws solved on ``pool``.

    Bad input raises :class:`~atout.errors.PositionError` (as :func:`atout.solver.advise.advise`);
    ``time_limit`` bounds the whole advice (stopped draws count with their bounds).
    ``node_limit``, ``budget``: a budgeted advice, as :func:`atout.solver.advise.advise`'s
    (each draw one job of the pool, capped, on one thread: the same advice as there).
    ``turns``: the draws in flight (default: one per worker; a batch shares one for all
    its positions)."""
    started = time.perf_counter()
    loop = asyncio.get_running_loop()
    deadline = None if time_limit is None else started + time_limit

    plan = budget_of(time_limit, node_limit, budget)

    def prepare():
        position = check(obj, seat=seat, samples=samples, time_limit=time_limit, seed=seed,
                         tt_mb=tt_mb, confidence=confidence, node_limit=node_limit)
        # (or the advice itself: one choice)
        return start(position, samples, seed, confidence, started, plan)

    race = await loop.run_in_executor(DRAWING, prepare)
    if isinstance(race, Advice):
        return race
    turns = turns or asyncio.Semaphore(pool.size)
    changed = asyncio.Condition()

    def out_of_time() -> bool:
        return deadline is not None and time.perf_counter() >= deadline

    async def solve_draws() -> None:
        while True:
            async with changed:
                while True:
                    if race.begun and out_of_time():
                        race.close()
                    job = race.take()
                    if job is AGAIN:
                        continue
                    if job is not WAIT:
                        break
                    try:                     # a look read, or the deadline
                        await asyncio.wait_for(changed.wait(), 0.05)
                    except asyncio.TimeoutError:
                        pass
            if job is None:
                return
            async with turns:
                left = None if deadline is None else max(deadline - time.perf_counter(), NO_TIME)
                options = {"time_limit": left, "tt_mb": tt_mb, "cards": list(job.cards)}
                if plan is not None:
                    options.update(budget=True, exact=list(job.exact), leader=job.leader,
                                   node_cap=job.nodes)
                answer = await pool.run(JobKind.CARDS, job.position, options)
            if isinstance(answer, Failed):
                raise AdviceFailed(answer.kind, answer.reason)
            nodes, data = answer.nodes, answer.result
            flags = {}
            if data["complete"]:
                drawn = parse_position(job.position)
                flags = {c: made(drawn, v) if not isinstance(v, list) else made_bounds(drawn, *v)
                         for c, v in data["values"].items()}
            async with changed:
                race.done(job, data["complete"], data["values"], data["value"], flags, nodes,
                          data["width"], data.get("first"), data.get("capped", False))
                changed.notify_all()
            if race.decided or race.spent_at is not None:
                return

    tasks = [asyncio.ensure_future(solve_draws()) for _ in range(pool.size)]
    try:
        pending = set(tasks)
        while pending:
            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in finished:
                task.result()                # a failed draw fails the advice
            if race.decided or race.spent_at is not None:
                break                        # the draws still running are not needed
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    return await loop.run_in_executor(
        DRAWING, lambda: put_together(race, stopped_by="time",
                                      seconds=time.perf_counter() - started, budget=plan))
