"""Where a batch's lines are run: a pool of search processes on this machine, or a Ray
cluster.  Each gives (task, result line) as the lines are done; a line whose worker died
twice gets a result with field :data:`~atout.runner.files.WORKER_DIED`, which is not
written (the next run tries it again)."""

from __future__ import annotations

import os
from collections import Counter
from typing import Iterator

from .files import WORKER_DIED, BatchError, Task
from .lines import error_line

__all__ = ["run_local", "run_ray"]


def run_local(kind, tasks: Iterator[Task], opts: dict, workers: int, report,
              jobs: str) -> Iterator[tuple[Task, dict]]:
    """A pool of search processes running ``jobs``' ``run_job`` (the batch's module), one
    line at a time each.  A worker that dies (a crash, out of memory, a kill) is replaced
    and its line tried once more; after a second death the line's result has field
    :data:`WORKER_DIED`, which is not written to the output: the next run tries it
    again (``report.workers_lost`` counts the deaths)."""
    from multiprocessing.connection import wait

    from .process import SearchProcess

    pool: list[SearchProcess] = []
    doing: dict[SearchProcess, Task] = {}   # the puzzle each busy worker is on
    tries: Counter = Counter()

    def replace(w: SearchProcess) -> SearchProcess:
        pool.remove(w)
        doing.pop(w, None)
        w.close(kill=True)
        nw = w.respawn()
        pool.append(nw)
        return nw

    def give(w: SearchProcess, task: Task) -> None:
        while True:
            if not w.alive():
                w = replace(w)
            try:
                w.send((kind, task.line, (task.raw, task.line, task.oversize), opts))
                doing[w] = task
                return
            except OSError:
                w = replace(w)

    try:
        for _ in range(workers):
            task = next(tasks, None)
            if task is None:
                break
            w = SearchProcess(jobs)
            pool.append(w)
            give(w, task)
        while doing:
            ready = wait([w.conn for w in doing])
            for w in list(doing):
                if w.conn not in ready:
                    continue
                try:
                    msg = w.conn.recv()
                except (EOFError, OSError):
                    msg = None   # the worker died (its end of the pipe closed)
                if msg is not None and msg[0] == "ready":
                    continue
                done = doing.pop(w)
                if msg is None:
                    code = w.wait(5)
                    report.workers_lost += 1
                    w = replace(w)
                    tries[done.line] += 1
                    if tries[done.line] < 2:
                        give(w, done)
                        continue
                    result = error_line(done.ident, done.line, WORKER_DIED,
                                        f"the worker process died twice on this puzzle "
                                        f"(exit code {code}); the next run tries it again")
                else:
                    result = msg[2]
                yield done, result
                task = next(tasks, None)
                if task is not None:
                    give(w, task)
    finally:
        clean = not doing
        for w in pool:
            w.close(kill=not clean)


#: seconds Ray waits for its GCS server's port file on a local start (its default, 60 s,
#: was also too short on a busy machine: "Timed out waiting for file …/gcs_server_port_…")
RAY_GCS_WAIT_S = "180"


def _start_ray(ray, address: str | None, workers: int | None, local_starts: int) -> None:
    """ray.init for the batch: a cluster at ``address`` (asked once: its start is not
    ours), or a local instance of ``workers`` CPUs started here (no dashboard), tried up to
    ``local_starts`` times where its start times out."""
    kwargs: dict = {"address": address, "log_to_driver": False}
    tries = 1
    if address is None:
        kwargs.update(include_dashboard=False)
        if workers:
            kwargs["num_cpus"] = workers
        tries = local_starts
        # (an operator's own setting wins; Ray reads it from the environment only)
        os.environ.setdefault("RAY_gcs_server_port_wait_time_s", RAY_GCS_WAIT_S)
    for attempt in range(tries):
        try:
            ray.init(**kwargs)
            return
        except Exception as e:
            failure = e
            try:            # what a timed-out start left running, before the next try
                ray.shutdown()
            except Exception:
                pass
    raise BatchError(f"cannot start or reach Ray ({address or 'local'}): {failure}") from None


def run_ray(work, tasks: Iterator[Task], opts: dict, workers: int | None,
            address: str | None, local_starts: int) -> Iterator[tuple[Task, dict]]:
    """The lines run as Ray tasks, ``work(raw, line, opts, oversize)`` each: on the cluster
    at ``address``, or on a local instance started here (and shut down at the end)."""
    try:
        import ray
    except ImportError:
        raise BatchError("the ray backend needs Ray: pip install 'atout[ray]'") from None
    started = False
    if not ray.is_initialized():
        _start_ray(ray, address, workers, local_starts)
        started = True
    remote = ray.remote(num_cpus=1, max_retries=1)(work)
    cap = 2 * max(1, workers or int(ray.cluster_resources().get("CPU", 1)))
    inflight: dict = {}

    def submit() -> bool:
        task = next(tasks, None)
        if task is None:
            return False
        inflight[remote.remote(task.raw, task.line, opts, task.oversize)] = task
        return True

    try:
        while len(inflight) < cap and submit():
            pass
        while inflight:
            ready, _ = ray.wait(list(inflight), num_returns=1)
            for ref in ready:
                task = inflight.pop(ref)
                try:
                    result = ray.get(ref)
                except Exception as e:
                    result = error_line(task.ident, task.line, WORKER_DIED,
                                        f"the Ray task failed: {type(e).__name__}: {str(e)[:200]}")
                yield task, result
                submit()
    finally:
        for ref in inflight:
            try:
                ray.cancel(ref, force=True)
            except Exception:
                pass
        if started:
            ray.shutdown()
