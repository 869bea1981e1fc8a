"""One search process of the server's pool: one search at a time, stoppable at any moment.

The process is spawned by :mod:`atout.server.pool` and talks over its pipe in tuples:

    parent → worker   ("solve" | "analyze", job, position object, options)
                      ("stop", job)          stop that search now (cancelled / deadline)
                      ("exit",)
    worker → parent   ("ready", pid)
                      ("done", job, status, nodes, serialized atout.v1 message)
                      ("failed", job, kind, field, reason)   kind: invalid | unimplemented | internal

The search runs in a thread (it releases the GIL) so the main thread keeps reading the
pipe: a "stop" calls ``Engine.stop()`` on the engine the job is using.  Engines are
seen by wrapping ``atout.solver.make_engine`` — the one way both ``solve`` and
``analyze`` build them — before anything else imports it.
"""

from __future__ import annotations

import os
import signal
import threading

STOP_REPEAT = 0.05  # seconds: a stopped job's engine is stopped again until the job ends


class _Job:
    """The job running in this worker and the engine it searches with."""

    def __init__(self):
        self.lock = threading.Lock()
        self.job = None
        self.engine = None
        self.stopped = False

    def begin(self, job) -> None:
        with self.lock:
            self.job, self.engine, self.stopped = job, None, False

    def end(self) -> None:
        with self.lock:
            self.job, self.engine, self.stopped = None, None, False

    def engine_made(self, engine) -> None:
        with self.lock:
            self.engine = engine
            if self.stopped:
                engine.stop()

    def stop(self, job=None) -> None:
        """Stop the running search (if ``job`` is given, only when it is that job)."""
        with self.lock:
            if self.job is None or (job is not None and job != self.job):
                return
            self.stopped = True
            if self.engine is not None:
                # again and again: set_limits() clears the flag, and analyze makes new engines
                self.engine.stop()

    def stopping(self) -> bool:
        with self.lock:
            return self.stopped and self.job is not None


def _watch_engines(current: _Job) -> None:
    import atout.solver as solver

    make = solver.make_engine

    def make_engine(position, tt_mb=None):
        engine = make(position, tt_mb)
        current.engine_made(engine)
        return engine

    make_engine.__doc__ = make.__doc__
    solver.make_engine = make_engine


def _analyze_function():
    try:
        from atout.solver.analyze import AnalysisLimit, analyze
    except ImportError:
        return None, None
    return analyze, AnalysisLimit


def _run(conn, send_lock, current: _Job, kind: str, job, obj: dict, options: dict) -> None:
    from atout.errors import PositionError
    from atout.proto import convert
    from atout.solver import solve

    try:
        if kind == "solve":
            r = solve(obj, **options)
            reply = ("done", job, r.status, r.nodes, convert.result_message(r).SerializeToString())
        elif kind == "analyze":
            analyze, limit_error = _analyze_function()
            if analyze is None:
                reply = ("failed", job, "unimplemented", "", "this server has no atout.analyze")
            else:
                try:
                    report, status = analyze(obj, **options), "ok"
                except limit_error as e:
                    report, status = e.partial, "limit"
                data = convert.analysis_message(report, status).SerializeToString()
                reply = ("done", job, status, 0, data)
        else:
            reply = ("failed", job, "internal", "", f"unknown job kind {kind!r}")
    except PositionError as e:
        reply = ("failed", job, "invalid", e.field, e.reason)
    except ValueError as e:
        reply = ("failed", job, "invalid", "", str(e))
    except Exception as e:  # a bug: reported to the caller as INTERNAL, the worker goes on
        reply = ("failed", job, "internal", "", f"{type(e).__name__}: {e}")
    current.end()
    with send_lock:
        conn.send(reply)


def main(conn) -> None:
    """The worker's loop (the target of the spawned process)."""
    # Ctrl-C in a terminal, `timeout`, systemd signal the whole process group: the
    # server drains, then tells its workers to exit (or they see the pipe close).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    current = _Job()
    _watch_engines(current)
    _analyze_function()  # import now, so the first call does not pay for it
    send_lock = threading.Lock()
    conn.send(("ready", os.getpid()))
    while True:
        if current.stopping():
            current.stop()
            if not conn.poll(STOP_REPEAT):
                continue
        try:
            msg = conn.recv()
        except (EOFError, OSError):  # the server is gone
            return
        if msg[0] == "exit":
            return
        if msg[0] == "stop":
            current.stop(msg[1])
            continue
        kind, job, obj, options = msg
        current.begin(job)
        threading.Thread(target=_run, args=(conn, send_lock, current, kind, job, obj, options),
                         name=f"search-{job}", daemon=True).start()
