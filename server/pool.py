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
import multiprocessing

from . import worker as worker_main
from .limits import Busy

log = logging.getLogger("atout.server")


class WorkerDied(RuntimeError):
    """The worker process ended during a job (killed, out of memory, a crash)."""


class _Worker:
    def __init__(self, ctx, loop: asyncio.AbstractEventLoop, number: int, on_idle_death=None):
        self.loop = loop
        self.on_idle_death = on_idle_death
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=worker_main.main, args=(child,),
                                   name=f"atout-search-{number}", daemon=True)
        self.process.start()
        child.close()
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
        self.conn.send((kind, job, obj, options))
        return answer

    def stop(self, job: int) -> None:
        if self.alive:
            try:
                self.conn.send(("stop", job))
            except OSError:
                pass

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
            self.conn.send(("exit",))
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
        self._ctx = multiprocessing.get_context("spawn")
        self._jobs = itertools.count()
        self._numbers = itertools.count()
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
        return _Worker(self._ctx, asyncio.get_running_loop(), next(self._numbers),
                       on_idle_death=self._idle_death)

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
        await asyncio.get_running_loop().run_in_executor(None, worker.process.join, 5)
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
            await loop.run_in_executor(None, w.process.join, timeout)
            if w.process.is_alive():
                w.process.kill()
                await loop.run_in_executor(None, w.process.join, 1)
            if w.alive:
                w.alive = False
                loop.remove_reader(w.conn.fileno())
            w.conn.close()
        self._workers = []
