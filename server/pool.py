"""The server's search processes: spawned at start, one search each at a time, driven from
asyncio, and kept at the size asked for.

:meth:`SearchPool.run` waits for a free worker, hands it the job and awaits the answer
without blocking the event loop (the pipe is watched with ``add_reader``).

- A cancelled call (the client went away, its deadline passed) tells its worker to stop
  that search; the worker is free again when it answers, or is killed and replaced if it
  has not answered within ``stop_grace``.
- A worker that dies — idle or busy, killed, out of memory, a crash — is replaced, and so
  is a replacement that dies before it is ready or cannot be spawned at all (EMFILE,
  ENOMEM): the pool retries with a growing pause (:data:`BACKOFF`) until it is whole.
- A job lost with its worker is run once more on another (every job kind here is a pure
  function of its input, so a rerun gives the same answer); lost twice, it is
  :class:`WorkerDied`, which the front ends answer as retryable (UNAVAILABLE / 503).
- A job may tell what it finds as it goes (``on_progress``, the review's verdicts) and go
  on where an earlier one stopped (``prefer``: the process that keeps its analysis).
- Idle cores are lent: a job that can search on more threads (a review) gets those of the
  workers that are idle — split between such jobs — and gives them back at once when a
  call takes one of those workers (``lend``), so that no call waits on a lent core.
- :attr:`SearchPool.ready` counts the workers that can take a job; ``on_ready(bool)`` is
  told when it goes to 0 and back (the health services say NOT_SERVING meanwhile), and
  while none is ready and the last :data:`FAILURES_TO_REFUSE` starts failed, a call is
  refused at once (:class:`NoWorker`) instead of waiting for a worker that may not come.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import signal
import time
from typing import AsyncIterator, Callable

from ..runner.process import JobKind, SearchProcess
from .limits import Busy

#: the module whose ``run_job`` the search processes run (see :mod:`.worker`)
JOBS = "atout.server.worker"
#: pauses between failed starts of a worker: the first, the factor, the longest
BACKOFF = (0.05, 2.0, 5.0)
#: seconds a new worker has to import the solver and say it is ready
START_TIMEOUT = 60.0
#: how many times one job is run when its worker dies under it
ATTEMPTS = 2
#: failed starts in a row after which, while no worker is ready, calls are refused at once
#: (one failure may be a fluke — a replacement killed with its predecessor)
FAILURES_TO_REFUSE = 3
#: the job kinds that search on the idle workers' cores too (the worker's run_job takes
#: ``options["threads"]`` and listens for more or fewer while it runs)
BORROWERS = (JobKind.ANALYZE_STREAM, JobKind.TABLE)
#: the most threads one job is lent (the solver's own bound)
MAX_LENT = 64

log = logging.getLogger("atout.server")


class WorkerDied(RuntimeError):
    """The job was lost with its search process, each time it ran (see :data:`ATTEMPTS`)."""


class NoWorker(WorkerDied):
    """No search process is running and the last attempt to start one failed."""


class _Lost(Exception):
    """A worker ended before its job's answer (internal: the pool reruns the job)."""


def exit_text(code: int | None) -> str:
    """A process's exit code in words: 'killed by SIGKILL', 'exit status 1'."""
    if code is None:
        return "exit status unknown"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class _Worker:
    """A :class:`~atout.runner.process.SearchProcess` driven from the event loop: its
    answers are read as they come (``add_reader``) into one future per job, and its end
    (the pipe's end) is told to ``on_death`` once."""

    def __init__(self, loop: asyncio.AbstractEventLoop, on_death):
        self.loop = loop
        self.on_death = on_death
        self.process = SearchProcess(JOBS)      # OSError if it cannot be spawned
        self.conn = self.process.conn
        self.ready = loop.create_future()
        self.answers: dict[int, asyncio.Future] = {}
        self.progress: dict[int, Callable] = {}   # job -> what to call with its progress
        self.alive = True
        self.started = False        # it said it is ready
        self.lent = 0               # threads its job may use (0: its job does not borrow)
        self.job: int | None = None  # the job it runs (or ran last)
        loop.add_reader(self.conn.fileno(), self._readable)

    @property
    def pid(self) -> int | None:
        return self.process.pid

    @property
    def busy(self) -> bool:
        return bool(self.answers)

    def submit(self, job: int, kind: JobKind, obj: dict, options: dict) -> asyncio.Future:
        """The future of ``job``'s answer; it fails with :class:`_Lost` if the worker ends."""
        answer = self.loop.create_future()
        self.answers[job] = answer
        try:
            self.process.send((kind, job, obj, options))
        except OSError:      # its pipe is closed: it is dead, or dying
            self._gone()
        return answer

    def stop(self, job: int) -> None:
        if self.alive:
            self.process.stop(job)

    def lend(self, job: int, threads: int) -> None:
        if self.alive:
            self.lent = threads
            self.process.lend(job, threads)

    def _readable(self) -> None:
        try:
            while self.alive and self.conn.poll():
                msg = self.conn.recv()
                if msg[0] == "ready":
                    self.started = True
                    if not self.ready.done():
                        self.ready.set_result(msg[1])
                    continue
                if msg[0] == "progress":
                    tell = self.progress.get(msg[1])
                    if tell is not None:
                        try:
                            tell(msg[2])
                        except Exception:      # the caller's bug must not stop the reading
                            log.exception("a progress message could not be handed on")
                    continue
                self.progress.pop(msg[1], None)
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
        for answer in [self.ready, *self.answers.values()]:
            if not answer.done():
                answer.set_exception(_Lost())
                answer.exception()  # retrieved: no "never retrieved" warning if nobody waits
        self.answers.clear()
        self.progress.clear()
        on_death, self.on_death = self.on_death, None
        if on_death is not None:
            on_death(self)

    def kill(self) -> None:
        """SIGKILL, now; ``on_death`` is told as for any other end."""
        try:
            self.process.kill()
        except OSError:
            pass
        self._gone()

    def close(self) -> None:
        """Ask it to exit (the pool is closing: nobody is told of its end)."""
        self.on_death = None
        try:
            self.process.send(("exit",))
        except OSError:
            pass


class SearchPool:
    """``workers`` search processes, kept at that number; at most ``max_queue`` searches
    waiting for one (None: no bound), a search past that refused at once
    (:class:`~.limits.Busy`).  ``on_ready(serving)`` is called when the number of ready
    workers goes to 0 (False) and back (True)."""

    def __init__(self, workers: int, stop_grace: float = 1.0, max_queue: int | None = None,
                 on_ready=None):
        self.size = workers
        self.stop_grace = stop_grace
        self.max_queue = max_queue
        self.on_ready = on_ready
        self._jobs = itertools.count()
        self._workers: set[_Worker] = set()     # alive, ready or starting
        self._idle: list[_Worker] = []
        self._waiters: collections.deque[asyncio.Future] = collections.deque()
        self._serving = False
        self._failures = 0          # failed starts of a worker in a row
        self._pause = BACKOFF[0]    # before the next start, after a failed one
        self._closing = False
        self._refill: asyncio.Task | None = None
        self._chores: set[asyncio.Task] = set()

    # -- the workers ------------------------------------------------------------------------

    async def start(self) -> None:
        """Spawn the workers and wait until each has imported the solver (OSError if one
        cannot be started: a server that cannot start its workers does not start)."""
        loop = asyncio.get_running_loop()
        started = []
        try:
            for _ in range(self.size):
                started.append(_Worker(loop, self._died))
                self._workers.add(started[-1])
            await asyncio.wait_for(asyncio.shield(asyncio.gather(*(w.ready for w in started))),
                                   START_TIMEOUT)
        except (OSError, _Lost, asyncio.TimeoutError) as e:
            await self.close(timeout=1)
            reason = e.strerror if isinstance(e, OSError) else "it ended before it was ready" \
                if isinstance(e, _Lost) else f"not ready within {START_TIMEOUT:g}s"
            raise OSError(f"cannot start the search processes ({reason})") from None
        for w in started:
            self._release(w)
        self._set_serving()

    @property
    def ready(self) -> int:
        """Workers alive and ready for a job (busy or not)."""
        return sum(1 for w in self._workers if w.alive and w.started)

    def pids(self) -> list[int]:
        return sorted(w.pid for w in self._workers if w.alive)

    def _set_serving(self) -> None:
        serving = self.ready > 0
        if serving != self._serving:
            self._serving = serving
            if not serving:
                log.warning("no search process is running: not serving until one starts")
            if self.on_ready is not None:
                self.on_ready(serving)

    def _died(self, worker: _Worker) -> None:
        """Any worker's end: replaced, and reaped and logged in one line (by a chore)."""
        self._workers.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        self._set_serving()
        self._chore(self._reap(worker))
        self._fill()

    async def _reap(self, worker: _Worker) -> None:
        worker.process.kill()            # (if its pipe closed before it ended)
        code = await self._exit_code(worker)
        worker.process.release()
        if not self._closing and worker.started:
            log.warning("search process %s ended (%s): replaced", worker.pid, exit_text(code))

    @staticmethod
    async def _exit_code(worker: _Worker, timeout: float = 2.0) -> int | None:
        """The exit code once the process is gone (polled: no thread is tied up waiting)."""
        deadline = time.monotonic() + timeout
        while (code := worker.process.exitcode) is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return code

    def _fill(self) -> None:
        """Start the task that brings the pool back to its size, unless it runs already."""
        if self._closing or (self._refill is not None and not self._refill.done()):
            return
        if len(self._workers) < self.size:
            self._refill = asyncio.ensure_future(self._fill_up())

    async def _fill_up(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closing and len(self._workers) < self.size:
            try:
                fresh = _Worker(loop, self._died)
            except OSError as e:
                problem = f"could not be started ({e.strerror or e})"
            else:
                self._workers.add(fresh)
                try:
                    await asyncio.wait_for(asyncio.shield(fresh.ready), START_TIMEOUT)
                except _Lost:
                    problem = f"(pid {fresh.pid}) ended before it was ready"
                except asyncio.TimeoutError:
                    problem = f"(pid {fresh.pid}) was not ready within {START_TIMEOUT:g}s"
                    fresh.kill()
                else:
                    self._failures = 0
                    self._pause = BACKOFF[0]
                    self._release(fresh)
                    self._set_serving()
                    continue
            self._failures += 1
            log.warning("a new search process %s: trying again in %.2fs", problem, self._pause)
            if self._refusing:       # nobody to wait for: the calls waiting are told so
                for waiter in self._waiters:
                    if not waiter.done():
                        waiter.set_exception(NoWorker(self._no_worker_reason()))
                self._waiters.clear()
            await asyncio.sleep(self._pause)
            self._pause = min(self._pause * BACKOFF[1], BACKOFF[2])

    @property
    def _refusing(self) -> bool:
        return not self.ready and self._failures >= FAILURES_TO_REFUSE

    def _no_worker_reason(self) -> str:
        return (f"no search process is running: the last {self._failures} did not start "
                f"(the server is trying again)")

    # -- free workers and the calls waiting for one ------------------------------------------

    def _release(self, worker: _Worker) -> None:
        """A ready worker is free: to the first call waiting, else to the idle ones (whose
        cores the borrowing jobs may use meanwhile)."""
        if not worker.alive:
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)
        self._lend()

    async def _take(self, prefer: int | None = None) -> _Worker:
        """A free worker: the one whose pid is ``prefer`` if it is idle, else any."""
        for worker in self._idle:
            if worker.pid == prefer and worker.alive:
                self._idle.remove(worker)
                return worker
        while self._idle:
            worker = self._idle.pop()
            if worker.alive:
                return worker
        if self._refusing:
            raise NoWorker(self._no_worker_reason())
        waiting = sum(not w.done() for w in self._waiters)
        if self.max_queue is not None and waiting >= self.max_queue:
            raise Busy(f"{waiting} searches are waiting for a search process, the most "
                       f"this server queues (--max-queue)")
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release(waiter.result())      # handed over just as the call ended
            raise

    @property
    def waiting(self) -> int:
        return sum(not w.done() for w in self._waiters)

    # -- jobs ---------------------------------------------------------------------------------

    def analyze_stream(self, obj: dict, settings: dict) -> tuple[asyncio.Future, AsyncIterator[dict]]:
        """A played deal's analysis, told as it goes, begun on the pool (``settings``' ``session``, a name an
        earlier review gave, sends it to the process that keeps that analysis): the job's
        future, and its progress messages as they come, every one, until the job is done
        (its answer, or its error, is then the future's).  None is lost: the worker sends
        its last verdicts before its answer (see :mod:`.worker`), on the one pipe read in
        order, so all of them are queued here before the future is done."""
        session = settings.get("session")
        return self.stream(JobKind.ANALYZE_STREAM, obj, settings,
                           prefer=int(session.split("-")[0]) if session else None)

    def stream(self, kind: JobKind, obj: dict, settings: dict, prefer: int | None = None,
               stopper: dict | None = None) -> tuple[asyncio.Future, AsyncIterator[dict]]:
        """A job that tells what it finds as it goes (an analysis, a contract table) begun on
        the pool: its future and its progress messages, every one, as :meth:`analyze_stream`
        (``stopper``: see :meth:`run`)."""
        told: asyncio.Queue = asyncio.Queue()
        search = asyncio.ensure_future(self.run(kind, obj, settings, on_progress=told.put_nowait,
                                                prefer=prefer, stopper=stopper))

        async def messages():
            waiting = None
            try:
                while True:
                    waiting = asyncio.ensure_future(told.get())
                    await asyncio.wait({waiting, search}, return_when=asyncio.FIRST_COMPLETED)
                    if not waiting.done():
                        waiting.cancel()
                        break
                    yield waiting.result()
                while not told.empty():          # (a message the cancelled get left queued)
                    yield told.get_nowait()
            finally:
                # closed while it waited (the client went away, the call was cancelled): the
                # get still pending would be destroyed pending ("Task was destroyed but it is
                # pending!" in the log)
                if waiting is not None and not waiting.done():
                    waiting.cancel()
        return search, messages()

    async def run(self, kind: JobKind | str, obj: dict, options: dict, *,
                  on_progress: Callable | None = None, prefer: int | None = None,
                  stopper: dict | None = None) -> tuple:
        """Run one job on a free worker; its answer tuple (see :mod:`.worker`).  Its
        ``time_limit`` counts from this call: the time waiting for a worker is taken from
        it, and a job lost with its worker runs once more with what is left.
        ``on_progress(data)``: called with each ("progress", job, data) the job sends;
        ``prefer``: the pid of the worker to run it on if that one is idle (it keeps what
        an earlier job found); a job of a kind in :data:`BORROWERS` is lent the idle
        workers' cores (``options["threads"]`` set, and changed as calls come and go);
        ``stopper``: a dict in which the job puts ``stop``, which tells its search to stop
        where it is and answer with what it found (as Ctrl-C does) — set ``asked`` in it
        before the job begins and it stops as soon as it does.  ``kind``: a
        :class:`~atout.runner.process.JobKind` (its value: the same; ValueError for any
        other, before a worker is taken)."""
        kind = JobKind(kind)
        started = time.monotonic()
        for attempt in range(1, ATTEMPTS + 1):
            worker = await self._take(prefer)
            if options.get("time_limit") is not None:
                # the limit counts from the call: the wait for a worker (a job run again:
                # the first run too) is taken from it
                options = {**options, "time_limit": max(
                    0.001, options["time_limit"] - (time.monotonic() - started))}
                started = time.monotonic()
            try:
                return await self._job(worker, kind, obj, options, on_progress, stopper)
            except _Lost:
                code = await self._exit_code(worker, 0.5)
                if attempt == ATTEMPTS:
                    raise WorkerDied(f"the search process running this search ended "
                                     f"({exit_text(code)}), {ATTEMPTS} times") from None
                log.warning("search process %s ended (%s) during a %s search: run again",
                            worker.pid, exit_text(code), kind.value)
        raise AssertionError("unreachable")

    async def _job(self, worker: _Worker, kind: JobKind, obj: dict, options: dict,
                   on_progress: Callable | None = None, stopper: dict | None = None) -> tuple:
        job = next(self._jobs)
        worker.job = job
        if on_progress is not None:
            worker.progress[job] = on_progress
        borrows = kind in BORROWERS
        if borrows:
            worker.lent = 1
            options = {**options, "threads": self._lendable(worker)}
            worker.lent = options["threads"]
        answer = worker.submit(job, kind, obj, options)
        if stopper is not None:
            stopper["stop"] = lambda: worker.stop(job)
            if stopper.get("asked"):
                worker.stop(job)
        self._lend()                  # (a worker less is idle: the lent cores come back)
        try:
            result = await asyncio.shield(answer)
        except asyncio.CancelledError:
            worker.stop(job)
            worker.lent = 0
            self._chore(self._reclaim(worker, answer))
            raise
        finally:
            worker.progress.pop(job, None)
            if stopper is not None:
                stopper.pop("stop", None)
        worker.lent = 0
        self._release(worker)
        return result

    # -- idle cores lent ------------------------------------------------------------------

    def _lendable(self, worker: _Worker) -> int:
        """The threads ``worker``'s borrowing job may use now: its own, and its share of the
        idle workers' (shared between the borrowing jobs; the first ones get the odd
        ones)."""
        borrowers = sorted((w for w in self._workers if w.alive and w.lent and w.busy),
                           key=lambda w: w.pid or 0)
        if worker not in borrowers:
            borrowers.append(worker)
        idle = sum(1 for w in self._idle if w.alive)
        share, odd = divmod(idle, len(borrowers))
        return min(1 + share + (borrowers.index(worker) < odd), MAX_LENT)

    def _lend(self) -> None:
        """Tell each borrowing job the threads it may use now, where that changed."""
        for worker in list(self._workers):
            if worker.alive and worker.lent and worker.busy:
                threads = self._lendable(worker)
                if threads != worker.lent:
                    worker.lend(worker.job, threads)

    def _chore(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _reclaim(self, worker: _Worker, answer: asyncio.Future) -> None:
        """A stopped job's worker: free again once it answers, else killed (and replaced)."""
        try:
            await asyncio.wait_for(answer, self.stop_grace)
        except _Lost:
            return                               # it died meanwhile: replaced already
        except asyncio.TimeoutError:
            log.warning("search process %s did not stop within %.1fs: killed",
                        worker.pid, self.stop_grace)
            worker.kill()
            return
        self._release(worker)

    async def close(self, timeout: float = 5.0) -> None:
        """Ask every worker to exit; kill those still there after ``timeout``."""
        self._closing = True
        for task in [self._refill, *self._chores]:
            if task is not None:
                task.cancel()
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(NoWorker("the server is shutting down"))
        self._waiters.clear()
        workers = list(self._workers)
        for w in workers:
            w.close()
        deadline = time.monotonic() + timeout
        for w in workers:
            while w.process.exitcode is None and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            if w.alive:
                w.alive = False
                w.loop.remove_reader(w.conn.fileno())
            w.process.kill()
            await self._exit_code(w, 1.0)
            w.process.release()
        self._workers.clear()
        self._idle.clear()
