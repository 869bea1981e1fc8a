"""The server's search processes: spawned once, one search each at a time, driven from asyncio.

:meth:`SearchPool.run` waits for a free worker, hands it the job and awaits the
answer without blocking the event loop (the pipe is watched with ``add_reader``).
When the awaiting call is cancelled (the client went away or its deadline passed)
the worker is told to stop that search; it goes back to the free workers when it
answers, or is killed and replaced if it has not answered within ``stop_grace``.
"""

from __future__ import annotations

import asyncio
import itertools
import logging

from ..runner.process import SearchProcess
from .limits import Busy

#: the module whose ``run_job`` the search processes run (see :mod:`.worker`)
JOBS = "atout.server.worker"

log = logging.getLogger("atout.server")


class WorkerDied(RuntimeError):
    """The worker process ended during a job (killed, out of memory, a crash)."""


class _Worker:
    """A :class:`~atout.runner.process.SearchProcess` driven from the event loop: its
    answers are read as they come (``add_reader``) into one future per job."""

    def __init__(self, loop: asyncio.AbstractEventLoop, on_idle_death=None):
        self.loop = loop
        self.on_idle_death = on_idle_death
        self.process = SearchProcess(JOBS)
        self.conn = self.process.conn
        self.ready = loop.create_future()
        self.answers: dict[int, asyncio.Future] = {}
        self.alive = True
        loop.add_reader(self.conn.fileno(), self._readable)

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def submit(self, job: int, kind: str, obj: dict, options: dict) -> asyncio.Future:
        answer = self.loop.create_future()
        self.answers[job] = answer
        self.process.send((kind, job, obj, options))
        return answer

    def stop(self, job: int) -> None:
        if self.alive:
            self.process.stop(job)

    def _readable(self) -> None:
        try:
            while self.alive and self.conn.poll():
                msg = self.conn.recv()
                if msg[0] == "ready":
                    if not self.ready.done():
                        self.ready.set_result(msg[1])
                    continue
                answer = self.answers.pop(msg[1], None)
                if answer is not None and not answer.done():
                    answer.set_result(msg)
        except (EOFError, OSError):
            self._gone()

    def _gone(self) -> None:
        if not self.alive:
            return
        self.alive = False
        self.loop.remove_reader(self.conn.fileno())
        error = WorkerDied(f"search process {self.pid} ended (exit code {self.process.exitcode})")
        busy = bool(self.answers) or not self.ready.done()
        for answer in [self.ready, *self.answers.values()]:
            if not answer.done():
                answer.set_exception(error)
                answer.exception()  # retrieved: no "never retrieved" warning if nobody waits
        self.answers.clear()
        if not busy and self.on_idle_death is not None:
            self.on_idle_death(self)  # whoever waits on a busy one replaces it

    def kill(self) -> None:
        self.on_idle_death = None
        self._gone()
        self.process.kill()
        self.conn.close()

    def close(self) -> None:
        try:
            self.process.send(("exit",))
        except OSError:
            pass


class SearchPool:
    """``workers`` spawned search processes; at most ``max_queue`` searches waiting for one
    (None: no bound), a search past that refused at once (:class:`~.limits.Busy`)."""

    def __init__(self, workers: int, stop_grace: float = 1.0, max_queue: int | None = None):
        self.size = workers
        self.stop_grace = stop_grace
        self.max_queue = max_queue
        self.waiting = 0
        self._jobs = itertools.count()
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] | None = None
        self._chores: set[asyncio.Task] = set()

    async def start(self) -> None:
        """Spawn the workers and wait until each has imported the solver."""
        self._idle = asyncio.Queue()
        self._workers = [self._new_worker() for _ in range(self.size)]
        await asyncio.gather(*(w.ready for w in self._workers))
        for w in self._workers:
            self._idle.put_nowait(w)

    def _new_worker(self) -> _Worker:
        return _Worker(asyncio.get_running_loop(), on_idle_death=self._idle_death)

    def _idle_death(self, worker: _Worker) -> None:
        log.warning("search process %s ended while idle: replaced", worker.pid)
        self._chore(self._replace(worker))

    def pids(self) -> list[int]:
        return [w.pid for w in self._workers if w.alive]

    async def run(self, kind: str, obj: dict, options: dict) -> tuple:
        """Run one job on a free worker; its answer tuple (see :mod:`.worker`)."""
        if (self.max_queue is not None and self._idle.empty()
                and self.waiting >= self.max_queue):
            raise Busy(f"{self.waiting} searches are waiting for a search process, the most "
                       f"this server queues (--max-queue)")
        self.waiting += 1
        try:
            worker = await self._idle.get()
            while not worker.alive:  # died while idle: its replacement is on the way
                worker = await self._idle.get()
        finally:
            self.waiting -= 1
        job = next(self._jobs)
        try:
            answer = worker.submit(job, kind, obj, options)
        except OSError:
            self._chore(self._replace(worker))
            raise WorkerDied("search process unreachable") from None
        try:
            result = await asyncio.shield(answer)
        except asyncio.CancelledError:
            worker.stop(job)
            self._chore(self._reclaim(worker, answer))
            raise
        except WorkerDied:
            self._chore(self._replace(worker))
            raise
        self._idle.put_nowait(worker)
        return result

    def _chore(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _reclaim(self, worker: _Worker, answer: asyncio.Future) -> None:
        """A stopped job's worker: free again once it answers, else replaced."""
        try:
            await asyncio.wait_for(answer, self.stop_grace)
        except (asyncio.TimeoutError, WorkerDied):
            log.warning("search process %s did not stop within %.1fs: replaced",
                        worker.pid, self.stop_grace)
            await self._replace(worker)
            return
        self._idle.put_nowait(worker)

    async def _replace(self, worker: _Worker) -> None:
        worker.kill()
        if worker not in self._workers:  # already replaced
            return
        self._workers.remove(worker)
        await asyncio.get_running_loop().run_in_executor(None, worker.process.wait, 5)
        fresh = self._new_worker()
        self._workers.append(fresh)
        await fresh.ready
        self._idle.put_nowait(fresh)

    async def close(self, timeout: float = 5.0) -> None:
        """Ask every worker to exit; kill those still there after ``timeout``."""
        for task in list(self._chores):
            task.cancel()
        loop = asyncio.get_running_loop()
        for w in self._workers:
            w.on_idle_death = None
            w.close()
        for w in self._workers:
            if await loop.run_in_executor(None, w.process.wait, timeout) is None:
                w.process.kill()
                await loop.run_in_executor(None, w.process.wait, 1)
            if w.alive:
                w.alive = False
                loop.remove_reader(w.conn.fileno())
            w.process.close(kill=True)
        self._workers = []
