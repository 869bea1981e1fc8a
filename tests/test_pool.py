"""The server's pool of search processes heals (issue 48): a worker that cannot be spawned
(EMFILE) is tried again with a pause until the pool is whole, readiness goes to 0 and back,
calls meanwhile are refused at once rather than left waiting — in this process, on a pool of
one worker."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import random
import signal
import time

from atout.server import pool as pools
from atout.server.worker import Done
from deals import random_endgame

SMALL = random_endgame(random.Random("pool"), "fr3", 2)


def test_a_worker_that_cannot_be_spawned_is_tried_again(monkeypatch, caplog):
    real = pools.SearchProcess
    refusals = {"left": 0}

    def spawn(jobs):
        if refusals["left"]:
            refusals["left"] -= 1
            raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))
        return real(jobs)
    monkeypatch.setattr(pools, "SearchProcess", spawn)

    async def main():
        ready = []
        pool = pools.SearchPool(1, on_ready=ready.append)
        await pool.start()
        try:
            refusals["left"] = pools.FAILURES_TO_REFUSE + 1
            os.kill(pool.pids()[0], signal.SIGKILL)
            refused = None
            deadline = time.monotonic() + 60
            while not (pool.ready and not refusals["left"]):
                assert time.monotonic() < deadline, "the pool never came back"
                if refused is None and pool.ready == 0 and \
                        refusals["left"] < pools.FAILURES_TO_REFUSE - 1:
                    try:
                        await pool.run("solve", SMALL, {"tt_mb": 16})
                    except pools.NoWorker as e:       # not left waiting for a worker
                        refused = str(e)
                await asyncio.sleep(0.01)
            answer = await pool.run("solve", SMALL, {"tt_mb": 16})
            assert isinstance(answer, Done) and answer.status == "ok"
            assert ready == [True, False, True] and len(pool.pids()) == 1
            assert refused is None or "no search process is running" in refused
        finally:
            await pool.close()
    with caplog.at_level(logging.WARNING, logger="atout.server"):
        asyncio.run(main())
    text = caplog.text
    assert "could not be started (Too many open files)" in text
    assert "never retrieved" not in text


def test_a_job_runs_again_when_its_worker_dies_then_is_lost(monkeypatch):
    """The job's first worker killed under it: the answer comes from a second run; killed
    again: WorkerDied (the front ends answer it UNAVAILABLE), the pool whole again."""
    hard_deal = random_endgame(random.Random(2), "fr5", 15)

    async def main():
        pool = pools.SearchPool(1)
        await pool.start()
        try:
            async def kill_when_busy(times: int):
                killed = 0
                seen = set()
                while killed < times:
                    for w in list(pool._workers):
                        if w.busy and w.pid not in seen:
                            seen.add(w.pid)
                            os.kill(w.pid, signal.SIGKILL)
                            killed += 1
                    await asyncio.sleep(0.01)
            killer = asyncio.ensure_future(kill_when_busy(1))
            answer = await pool.run("solve", hard_deal, {"time_limit": 0.5, "tt_mb": 16})
            await killer
            assert isinstance(answer, Done)
            killer = asyncio.ensure_future(kill_when_busy(2))
            try:
                await pool.run("solve", hard_deal, {"time_limit": 30, "tt_mb": 16})
                raise AssertionError("not lost")
            except pools.WorkerDied as e:
                assert "killed by SIGKILL" in str(e) and "2 times" in str(e)
            await killer
            answer = await pool.run("solve", SMALL, {"tt_mb": 16})
            assert answer.status == "ok" and len(pool.pids()) == 1
        finally:
            await pool.close()
    asyncio.run(main())
