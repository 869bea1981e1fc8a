"""A real ``atout serve`` in a subprocess, for the tests that talk to one (test_grpc.py,
test_advise_service.py, and through tests/interfaces.py test_edge, test_fuzz, test_network)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

TT_MB = 16      # the server's and the local reference's table: equal tables, equal node counts
WORKERS = 2


def wait_for_log(proc: subprocess.Popen, log_path: Path, ready: Callable[[str], bool],
                 timeout: float = 60) -> str:
    """The text of ``proc``'s log once ``ready`` holds of it (a server started); an error
    with the log if the process ends or ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while not ready(text := log_path.read_text()):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("server did not start:\n" + log_path.read_text())
        time.sleep(0.05)
    return text


class ServerProcess:
    """A real ``atout serve`` on a free port: gRPC at ``address``, with ``http`` also the HTTP
    API at ``url``; started once its log shows ``ready``."""

    def __init__(self, tmp: Path, *extra: str, worker_count: int = WORKERS, http: bool = False,
                 ready: str = "listening on", host: str | None = "127.0.0.1"):
        self.log_path = tmp / "serve.log"
        self.log = open(self.log_path, "w")
        args = ["serve", "--port", "0", "--workers", str(worker_count), "--tt-mb", str(TT_MB)]
        if host is not None:
            args += ["--host", host]
        if http:
            args += ["--http", "0"]
        self.proc = subprocess.Popen([sys.executable, "-m", "atout.client.cli", *args, *extra],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        text = wait_for_log(self.proc, self.log_path,
                            lambda text: ready in text and (not http or "HTTP API" in text))
        lines = text.splitlines()
        line = next(l for l in lines if "listening on" in l)
        self.address = line.split("listening on ")[1].split()[0]
        self.url = None
        if http:
            line = next(l for l in lines if "HTTP API" in l)
            self.url = line.split(" on ")[-1].strip().rstrip("/")

    def workers(self) -> list[int]:
        """pids of the server's child processes (the search workers)."""
        kids = []
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                try:
                    stat = (d / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) != self.proc.pid:
                    continue
                try:
                    cmdline = (d / "cmdline").read_bytes()
                except OSError:
                    continue
                if b"resource_tracker" not in cmdline:   # multiprocessing's helper
                    kids.append(int(d.name))
        return sorted(kids)

    def rss_mb(self) -> float:
        """Resident memory of the server and its workers, MB."""
        total = 0
        for pid in [self.proc.pid, *self.workers()]:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        return total / 1024

    def log_text(self) -> str:
        return self.log_path.read_text()

    def log_lines(self) -> list[str]:
        return self.log_text().splitlines()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode
