"""A search process: a fresh interpreter that runs one job at a time, stoppable at any moment.

The batch runner (:mod:`atout.runner.batch`) and the server's pool (:mod:`atout.server.pool`)
both run their searches in these.  The parent spawns one with :class:`SearchProcess`, naming
the module whose ``run_job`` does the work (``atout.runner.batch`` for puzzles,
``atout.server.worker`` for the service's calls); they talk over two pipes, in tuples:

    parent → worker   (kind, job, payload, options)   run ``run_job(kind, job, payload,
                                                       options, cancel)`` in a thread
                      ("stop", job)                  stop that search now (cancelled call)
                      ("threads", job, n)            that search may use n threads from now
                                                     on (a job that listens: :class:`Channel`)
                      ("exit",)
    worker → parent   ("ready", pid)                 once, after the imports
                      ("progress", job, data)        what a job found so far (a job that
                                                     tells: :class:`Channel`)
                      the reply tuple ``run_job`` returns; its second item is the job

``kind`` is a :class:`JobKind`, the one list of what a search process does for the batch
runner and the server alike; every job answers a plain object (the JSON the command line
writes), whichever front end reads it.

A worker that dies (a crash, out of memory, a kill) shows as the end of its pipe; replacing
it and what becomes of its job is the caller's policy (:meth:`SearchProcess.respawn` starts
the replacement).

Why a fresh interpreter (``python -c``) and not a multiprocessing child: a spawned child
re-imports the caller's main script, which fails (or runs the batch again) when a plain script
calls ``solve_all`` without an ``if __name__ == "__main__":`` guard, and forking is unsafe in
threaded callers such as the gRPC server.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import signal
import subprocess
import sys
import threading
from enum import Enum
from multiprocessing.connection import Connection


class JobKind(str, Enum):
    """What a search process is asked to do (its ``run_job`` looks the kind up)."""

    #: one position's value, best cards and line (`atout solve`; Solve, /api/solve)
    SOLVE = "solve"
    #: a played deal's every card judged (`atout analyze`; Analyze, /api/analyze)
    ANALYZE = "analyze"
    #: the same, telling its verdicts as they are found and going on with an analysis kept
    #: warm (AnalyzeStream, /api/analyze/stream)
    ANALYZE_STREAM = "analyze_stream"
    #: a deal's contract table (`atout table`; Table, /api/contract-table)
    TABLE = "table"
    #: every legal card's value in one deal drawn for an advice (Advise, /api/advise)
    CARDS = "cards"

    @classmethod
    def _missing_(cls, value):
        # the older name of the analysis told as it goes, kept for the callers that use it
        return cls.ANALYZE_STREAM if value == "review" else None


def _die_with_parent() -> None:
    """Linux: this worker gets SIGKILL when the process that started it dies."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        except Exception:
            pass


class Channel:
    """What a job that takes a ``channel`` argument (``run_job(..., channel=...)``) can say
    and hear while it runs: ``progress(data)`` sends ("progress", job, data) to the parent
    at once; ``on_threads``, if the job sets it, is called with the threads the parent
    lends the search from now on."""

    def __init__(self, job, send):
        self.job, self._send = job, send
        self.on_threads = None

    def progress(self, data) -> None:
        self._send(("progress", self.job, data))


class _Job:
    """The job running in this worker and the switch that stops its search."""

    def __init__(self):
        self.lock = threading.Lock()
        self.job = None
        self.cancel = None
        self.channel: Channel | None = None

    def begin(self, job, channel: Channel | None = None):
        from atout.solver import Cancel

        with self.lock:
            self.job, self.cancel, self.channel = job, Cancel(), channel
            return self.cancel

    def end(self) -> None:
        with self.lock:
            self.job, self.cancel, self.channel = None, None, None

    def threads(self, job, n: int) -> None:
        """The running ``job`` may use ``n`` threads (if it listens)."""
        with self.lock:
            if self.job is None or job != self.job or self.channel is None:
                return
            listener = self.channel.on_threads
        if listener is not None:
            listener(n)

    def stop(self, job=None) -> None:
        """Stop the running search (if ``job`` is given, only when it is that job)."""
        with self.lock:
            if self.job is None or (job is not None and job != self.job):
                return
            self.cancel.set()    # also stops the engines analyze makes after this


def worker_process(jobs: str) -> None:
    """The body of a search process: jobs in on standard input, replies out on the original
    standard output, one pickled message each; ``jobs`` names the module whose ``run_job``
    does the work (and whose ``prepare()``, if any, runs before "ready")."""
    # Ctrl-C in a terminal, `timeout`, systemd signal the whole process group: the parent
    # stops its workers itself (or they see the pipe close, or die with it).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _die_with_parent()
    replies = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)                                  # a stray print must not corrupt the channel
    requests = Connection(os.dup(0), writable=False)
    module = importlib.import_module(jobs)
    prepare = getattr(module, "prepare", None)
    if prepare is not None:
        prepare()                                  # imports now, so the first job does not pay
    send_lock = threading.Lock()
    current = _Job()
    # a job module whose run_job takes a channel hears and tells while it runs (Channel)
    talks = "channel" in inspect.signature(module.run_job).parameters

    def send(msg) -> None:
        with send_lock:
            try:
                replies.send(msg)
            except OSError:      # the parent is gone
                pass

    def run(kind, job, payload, options, cancel, channel) -> None:
        extra = {"channel": channel} if talks else {}
        reply = module.run_job(kind, job, payload, options, cancel, **extra)
        current.end()
        send(reply)

    send(("ready", os.getpid()))
    while True:
        try:
            msg = requests.recv()
        except (EOFError, OSError):  # the parent is gone, or closed the pipe
            return
        if msg[0] == "exit":
            return
        if msg[0] == "stop":
            current.stop(msg[1])
            continue
        if msg[0] == "threads":
            current.threads(msg[1], msg[2])
            continue
        kind, job, payload, options = msg
        channel = Channel(job, send) if talks else None
        cancel = current.begin(job, channel)
        threading.Thread(target=run, args=(kind, job, payload, options, cancel, channel),
                         name=f"search-{job}", daemon=True).start()


class SearchProcess:
    """One search process, seen from its parent.  ``conn`` is the end to read replies from
    (``recv``, ``poll``, ``fileno``: select on it or hand it to an event loop)."""

    #: the worker's program: its arguments are the caller's ``sys.path`` and the jobs module
    BOOT = ("import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
            "from atout.runner.process import worker_process; worker_process(sys.argv[2])")

    def __init__(self, jobs: str):
        self.jobs = jobs
        self.proc = subprocess.Popen([sys.executable, "-c", self.BOOT, json.dumps(sys.path), jobs],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     # not in the terminal's process group: Ctrl-C is for
                                     # the parent, which stops the workers itself
                                     start_new_session=True)
        self.conn = Connection(os.dup(self.proc.stdout.fileno()), writable=False)
        self._tx = Connection(os.dup(self.proc.stdin.fileno()), readable=False)
        self.proc.stdin.close()
        self.proc.stdout.close()

    def respawn(self) -> "SearchProcess":
        """A fresh process for the same jobs, once this one is dead or killed."""
        return SearchProcess(self.jobs)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def exitcode(self) -> int | None:
        """The exit code once the process has ended (negative: the signal), else None."""
        return self.proc.poll()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, msg) -> None:
        """A job or "exit"; raises OSError when the process is gone."""
        self._tx.send(msg)

    def stop(self, job) -> None:
        """Stop ``job``'s search now, if it is still running; the reply still comes."""
        try:
            self._tx.send(("stop", job))
        except OSError:
            pass

    def lend(self, job, threads: int) -> None:
        """Let ``job``'s search use ``threads`` threads from now on, if it is still running
        and listens (fewer are given back at once)."""
        try:
            self._tx.send(("threads", job, threads))
        except OSError:
            pass

    def wait(self, timeout: float | None = None) -> int | None:
        """The exit code, waiting at most ``timeout`` seconds (None: it is still running)."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """SIGKILL, at once; ``wait`` or ``close`` reaps it."""
        self.proc.kill()
        self._tx.close()

    def release(self) -> None:
        """Close the pipes of a process that has ended (``exitcode`` is set): nothing waits."""
        self.conn.close()
        self._tx.close()

    def close(self, kill: bool = False, timeout: float = 5.0) -> None:
        """End the process: ask it to exit (or kill it), wait, and close the pipes."""
        if kill:
            self.proc.kill()
        else:
            try:
                self._tx.send(("exit",))
            except OSError:
                pass
        if self.wait(None if kill else timeout) is None:
            self.proc.kill()
            self.proc.wait()
        self.conn.close()
        self._tx.close()
