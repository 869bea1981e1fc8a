"""Load, faults and hostile clients on a real ``atout serve`` on localhost, in one bounded command
(not a test: it loads the machine for its duration):

    python bench/load.py [--clients 50] [--seconds 60] [--workers 2] [--nofile 1024]
                         [--hostile 1000] [--server-args "..."]

The server runs with TLS, a token and ``--workers`` search processes, under an open-file
limit of ``--nofile`` (as ``prlimit --nofile=N`` would).  ``--clients`` good clients, with
the token, call it in a loop for ``--seconds``, split in three phases of equal length:

1. quiet — the good clients alone: their p50 is the reference;
2. hostile — as well, what clients without the token do: ``--hostile`` TLS connections to
   the HTTP port each sending half a request, 20 clients sending a request a byte a second,
   raw TCP connections to the gRPC port that never say hello, 4 senders of unauthenticated
   7.9 MiB calls;
3. faults — as well: the busiest search process killed (SIGKILL), three times; then every
   search process and each replacement within milliseconds of its start, twice; and a
   client with the token asking the most: advices of the most samples, cancelled while
   they draw, and over HTTP with a time limit of 1 s;

and then SIGTERM while the good clients still call (the drain).  The good clients mix cheap
solves, streaming batches, analyses (gRPC), solves over HTTP, each answer compared with the
local solver's, and whole deals with short deadlines or cancelled.  It prints, per phase:
calls done, errors by status, p50/p95/p99 of the good calls, wrong and lost answers (lost:
no answer within its deadline plus 10 s, or a batch short of positions without an error),
the largest RSS of the server and its workers, the CPU seconds of the server's own process
(not its workers), the log's lines; the workers alive after each
fault and how long the pool took to be whole; what the hostile clients met; the statuses of
the drain.  Exit status 1 if a check fails: no wrong or lost answer, every kill survived,
the authenticated p50 with hostile clients within 2x of the quiet one, the log in one
format with no traceback, the server drained and exited 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))     # certs.py: a CA and a server certificate

from atout.client import Client, ServiceError  # noqa: E402
from atout.deal import random_endgame  # noqa: E402
from atout.games import GAMES  # noqa: E402
from atout.proto import convert  # noqa: E402
from atout.proto.v1 import solver_pb2 as pb  # noqa: E402
from atout.solver import solve  # noqa: E402

HARD = ROOT / "bench" / "data" / "fr4-full.jsonl"
TT_MB = 16
TOKEN = "load-t0ken"
#: how long past its deadline a call may take to be answered before it counts as lost
LOST_MARGIN = 10.0
PHASES = ("quiet", "hostile", "faults")
GOOD_KINDS = ("solve", "batch", "analyze", "http")
LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (atout\.server|uvicorn\.error) \S")


def _raise_own_open_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        pass


class Server:
    """``atout serve`` with TLS and a token on free ports, under an open-file limit."""

    def __init__(self, folder: Path, workers: int, nofile: int, extra: list[str]):
        import certs

        ca = certs.Authority(folder, "ca")
        cert, key = ca.issue("server", server=True)
        self.ca = str(ca.cert_path)
        token = folder / "token"
        token.write_text(TOKEN + "\n")
        self.log_path = folder / "serve.log"
        self.log = open(self.log_path, "w")

        def limited():
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "atout.client.cli", "serve", "--port", "0", "--http", "0",
             "--workers", str(workers), "--tt-mb", str(TT_MB), "--tls-cert", str(cert),
             "--tls-key", str(key), "--token-file", str(token), *extra],
            stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=limited if nofile else None)
        deadline = time.monotonic() + 120
        while "HTTP API" not in self.text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                sys.exit("server did not start:\n" + self.text())
            time.sleep(0.1)
        text = self.text()
        self.address = text.split("listening on ")[1].split()[0]
        self.url = text.split("HTTP API and viewer on ")[1].split()[0].rstrip("/")
        self.grpc_port = int(self.address.rsplit(":", 1)[1])
        self.http_port = int(self.url.rsplit(":", 1)[1])

    def text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def workers(self) -> list[int]:
        kids = []
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                kids.append(int(d.name))
        return sorted(kids)

    def rss_mb(self) -> float:
        total = 0
        for pid in [self.proc.pid, *self.workers()]:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        return total / 1024

    def serving(self) -> bool:
        from grpc_health.v1 import health_pb2, health_pb2_grpc
        credentials = grpc.ssl_channel_credentials(open(self.ca, "rb").read())
        with grpc.secure_channel(self.address, credentials) as channel:
            try:
                reply = health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(), timeout=5)
            except grpc.RpcError:
                return False
            return reply.status == health_pb2.HealthCheckResponse.SERVING


def _cpu(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return -1


def _positions(rng: random.Random, count: int, tricks=(2, 3, 4)) -> list[dict]:
    out = []
    for i in range(count):
        p = random_endgame(rng, GAMES[i % len(GAMES)], rng.choice(tricks),
                           partial=rng.random() < 0.5)
        p["id"] = f"load-{i}"
        out.append(p)
    return out


class Record:
    """Every call of the good clients: (phase, kind, status, seconds), and the problems."""

    def __init__(self):
        self.lock = threading.Lock()
        self.calls: list[tuple[str, str, str, float]] = []
        self.problems: list[str] = []
        self.phase = PHASES[0]

    def add(self, kind: str, status: str, seconds: float, deadline: float) -> None:
        with self.lock:
            self.calls.append((self.phase, kind, status, seconds))
            if seconds > deadline + LOST_MARGIN:
                self.problems.append(f"{kind}: answered {status} after {seconds:.1f} s "
                                     f"(deadline {deadline:g} s): lost")
            if status == "WRONG" or status == "LOST" or status.startswith("ERROR"):
                self.problems.append(f"{self.phase} {kind}: {status}")


def good_client(n: int, server: Server, stop: threading.Event, record: Record, good: list,
                expected: dict, deals: list, analyses: dict, hard: dict) -> None:
    import httpx

    r = random.Random(f"good-{n}")
    verify = ssl.create_default_context(cafile=server.ca)
    hard_message = convert.position_message(hard)
    with Client(server.address, tls_ca=server.ca, token=TOKEN) as c, \
            httpx.Client(verify=verify, timeout=120,
                         headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        while not stop.is_set():
            kind = r.choice(("solve", "solve", "solve", "batch", "analyze", "http",
                             "deadline", "cancel"))
            began = time.monotonic()
            deadline = 120.0
            status = "OK"
            try:
                if kind == "solve":
                    p = r.choice(good)
                    if c.solve(p, timeout=deadline).value != expected[p["id"]]:
                        status = "WRONG"
                elif kind == "batch":
                    ps = r.sample(good, r.randint(2, 6))
                    got = {i: res.value for i, res in c.solve_batch(ps, timeout=deadline)}
                    if sorted(got) != list(range(len(ps))):
                        status = "LOST"
                    elif any(got[i] != expected[ps[i]["id"]] for i in got):
                        status = "WRONG"
                elif kind == "analyze":
                    d = r.choice(deals)
                    if c.analyze(d, start=analyses[d["id"]][0], timeout=deadline) \
                            != analyses[d["id"]][1]:
                        status = "WRONG"
                elif kind == "http":
                    p = r.choice(good)
                    reply = http.post(server.url + "/api/solve", json={"position": p})
                    if reply.status_code != 200:
                        status = f"HTTP {reply.status_code}"
                    elif reply.json()["value"] != expected[p["id"]]:
                        status = "WRONG"
                elif kind == "deadline":
                    deadline = r.uniform(0.05, 0.5)
                    c.stub.Solve(pb.SolveRequest(position=hard_message), timeout=deadline,
                                 metadata=c.metadata)
                    status = "NOT_STOPPED"
                else:
                    future = c.stub.Solve.future(pb.SolveRequest(position=hard_message,
                                                                 time_limit=60),
                                                 timeout=deadline, metadata=c.metadata)
                    time.sleep(r.uniform(0.05, 0.5))
                    future.cancel()
                    try:
                        future.result()
                        status = "NOT_STOPPED"
                    except grpc.FutureCancelledError:
                        status = "CANCELLED"
            except ServiceError as e:
                status = e.code.name
            except grpc.RpcError as e:
                status = e.code().name
            except httpx.HTTPError as e:
                status = f"HTTP {type(e).__name__}"
            except Exception as e:  # noqa: BLE001 - every failure is reported
                status = f"ERROR {type(e).__name__}: {e}"
            record.add(kind, status, time.monotonic() - began, deadline)


# -- hostile clients -----------------------------------------------------------------------------

class Hostile:
    """The hostile clients of phase 2, each a thread of a process of their own (so that they
    take no turn at the good clients' interpreter lock: they compete for the machine only, as
    other programs would); ``seen`` counts what they met."""

    def __init__(self, server, count: int, stop):
        self.server = server
        self.count = count
        self.stop = stop
        self.seen: Counter = Counter()
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def note(self, what: str, n: int = 1) -> None:
        with self.lock:
            self.seen[what] += n

    #: phase 2: what a client without the token can do
    TOKENLESS = ("half_sent", "slow", "raw_grpc", "unauthenticated", "unauthenticated",
                 "unauthenticated", "unauthenticated")
    #: phase 3: a client with the token asking the most (its work is real work: it takes
    #: the search processes from the others, so it is not in the p50 comparison)
    GREEDY = ("advice_abuse",)

    def start(self, attacks) -> None:
        for name in attacks:
            t = threading.Thread(target=getattr(self, name), daemon=True)
            t.start()
            self.threads.append(t)

    def finish(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(30)

    @classmethod
    def run(cls, address: str, url: str, ca: str, count: int, attacks, stop, out) -> None:
        """The body of the hostile clients' process: until ``stop`` is set; what they met
        put on the queue ``out``."""
        server = argparse.Namespace(address=address, url=url, ca=ca,
                                    grpc_port=int(address.rsplit(":", 1)[1]),
                                    http_port=int(url.rsplit(":", 1)[1]))
        _raise_own_open_files()
        hostile = cls(server, count, stop)
        hostile.start(attacks)
        stop.wait()
        hostile.finish()
        out.put(dict(hostile.seen))

    def _tls(self, port: int, timeout: float = 5.0):
        context = ssl.create_default_context(cafile=self.server.ca)
        raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        return context.wrap_socket(raw, server_hostname="localhost")

    @staticmethod
    def _gone(sock) -> bool:
        """Whether the server closed ``sock`` (a look, not a wait)."""
        try:
            sock.setblocking(False)
            data = sock.recv(4096)
            return data == b""
        except (BlockingIOError, ssl.SSLWantReadError):
            return False
        except OSError:
            return True

    def _hold(self, open_one, how_many: int, name: str) -> None:
        """Keeps ``how_many`` connections open (at most 200 new ones a second), each made by
        ``open_one``; counts those the server refused or closed."""
        held: list = []
        while not self.stop.is_set():
            kept = []
            for sock in held:
                if self._gone(sock):
                    self.note(f"{name}: closed by the server")
                    sock.close()
                else:
                    kept.append(sock)
            held = kept
            opened = 0
            while len(held) < how_many and opened < 20 and not self.stop.is_set():
                try:
                    held.append(open_one())
                    self.note(f"{name}: opened")
                except OSError:
                    self.note(f"{name}: refused (connect or handshake)")
                opened += 1
            time.sleep(0.1)
        for sock in held:
            sock.close()

    def half_sent(self) -> None:
        def one():
            sock = self._tls(self.server.http_port)
            sock.sendall(b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\nContent-Le")
            return sock
        self._hold(one, self.count, "half-sent TLS requests")

    def raw_grpc(self) -> None:
        def one():
            return socket.create_connection(("127.0.0.1", self.server.grpc_port), timeout=5)
        self._hold(one, self.count // 4, "raw TCP to gRPC")

    def slow(self) -> None:
        request = b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        socks: list = []
        sent = 0
        while not self.stop.is_set():
            while len(socks) < 20:
                try:
                    socks.append([self._tls(self.server.http_port), 0])
                except OSError:
                    self.note("slow clients: refused")
                    break
            for entry in list(socks):
                sock, at = entry
                try:
                    sock.setblocking(True)
                    sock.sendall(request[at:at + 1])
                    entry[1] = (at + 1) % len(request)
                    sent += 1
                except OSError:
                    self.note("slow clients: closed by the server")
                    socks.remove(entry)
                    sock.close()
            self.stop.wait(1.0)
        for sock, _ in socks:
            sock.close()
        self.note("slow clients: bytes sent", sent)

    def unauthenticated(self) -> None:
        credentials = grpc.ssl_channel_credentials(open(self.server.ca, "rb").read())
        big = pb.SolveRequest(position=pb.Position(text_id="x" * ((8 << 20) - (100 << 10)),
                                                   game="fr4")).SerializeToString()
        with grpc.secure_channel(self.server.address, credentials, options=[
                ("grpc.max_send_message_length", 16 << 20)]) as channel:
            call = channel.unary_unary("/atout.v1.Solver/Solve",
                                       request_serializer=lambda b: b,
                                       response_deserializer=lambda b: b)
            while not self.stop.is_set():
                try:
                    call(big, timeout=10)
                    self.note("unauthenticated 7.9 MiB calls: ANSWERED")
                except grpc.RpcError as e:
                    self.note(f"unauthenticated 7.9 MiB calls: {e.code().name}")

    def advice_abuse(self) -> None:
        import httpx

        position = random_endgame(random.Random("abuse"), "fr4", 8)
        request = pb.AdviseRequest(position=convert.position_message(position), samples=1000)
        verify = ssl.create_default_context(cafile=self.server.ca)
        with Client(self.server.address, tls_ca=self.server.ca, token=TOKEN) as c:
            while not self.stop.is_set():
                future = c.stub.Advise.future(request, timeout=60, metadata=c.metadata)
                time.sleep(0.3)
                future.cancel()
                self.note("advices of 1000 samples cancelled")
                try:
                    r = httpx.post(self.server.url + "/api/advise", verify=verify, timeout=60,
                                   headers={"Authorization": f"Bearer {TOKEN}"},
                                   json={"position": position, "samples": 1000,
                                         "time_limit": 1})
                    self.note(f"HTTP advices of 1000 samples, 1 s: {r.status_code}")
                except httpx.HTTPError as e:
                    self.note(f"HTTP advices: {type(e).__name__}")


# -- faults ---------------------------------------------------------------------------------------

def _whole(server: Server, size: int, before: list[int], timeout: float = 60) -> tuple[int, float]:
    """(workers alive once the pool is whole and serving again, seconds it took)."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        now = server.workers()
        if len(now) == size and not set(now) & set(before) and server.serving():
            return len(now), time.monotonic() - began
        time.sleep(0.05)
    return len(server.workers()), time.monotonic() - began


def faults(server: Server, size: int, stop: threading.Event, out: list) -> None:
    """Three kills of the busiest worker, then two rounds of killing every worker and each
    replacement within milliseconds of its start; after each, the pool's recovery."""
    gap = 1.0
    for round_ in range(3):
        if stop.wait(gap):
            return
        pids = server.workers()
        before = {pid: _cpu(pid) for pid in pids}
        time.sleep(0.3)
        busiest = max(pids, key=lambda pid: _cpu(pid) - before[pid])
        os.kill(busiest, signal.SIGKILL)
        alive, took = _whole(server, size, [busiest])
        out.append((f"busiest worker killed ({round_ + 1} of 3)", alive, took))
    for round_ in range(2):
        if stop.wait(gap):
            return
        first = server.workers()
        killed = set()
        for pid in first:
            os.kill(pid, signal.SIGKILL)
            killed.add(pid)
        end = time.monotonic() + 1.0
        while time.monotonic() < end:            # each replacement, as soon as it appears
            for pid in server.workers():
                if pid not in killed:
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
            time.sleep(0.005)
        alive, took = _whole(server, size, list(killed))
        out.append((f"all workers and {len(killed) - len(first)} replacements killed "
                    f"({round_ + 1} of 2)", alive, took))


# -- the run --------------------------------------------------------------------------------------

def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60, help="the three phases together")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--nofile", type=int, default=1024,
                        help="the server's open-file limit (0: this process's)")
    parser.add_argument("--hostile", type=int, default=1000,
                        help="half-sent TLS requests held open in phase 2")
    parser.add_argument("--server-args", default="", help="more `atout serve` options")
    parser.add_argument("--seed", default="load")
    args = parser.parse_args()
    _raise_own_open_files()

    from atout.solver.analyze import analyze

    rng = random.Random(args.seed)
    good = _positions(rng, 120)
    expected = {p["id"]: solve(p, tt_mb=TT_MB).value for p in good}
    deals = []
    for i, p in enumerate(_positions(rng, 12, tricks=(2, 3))):
        p = dict(p, id=f"an-{i}")
        deals.append(p)
    analyses = {}
    for d in deals:
        start = max(0, len(d["played"]) - len(d["hands"]))
        analyses[d["id"]] = (start, analyze(d, start=start))
    hard = json.loads(HARD.read_text().splitlines()[0])

    folder = Path(tempfile.mkdtemp(prefix="atout-load-"))
    server = Server(folder, args.workers, args.nofile, args.server_args.split())
    phase_seconds = args.seconds / len(PHASES)
    print(f"server {server.address} (HTTP {server.url}), TLS and a token, {args.workers} "
          f"search processes, open files {args.nofile or 'unchanged'}; {args.clients} good "
          f"clients, 3 phases of {phase_seconds:g} s; log {server.log_path}", flush=True)

    record = Record()
    record.phase = "warm-up"
    stop = threading.Event()
    rss: dict[str, float] = defaultdict(float)
    log_lines: dict[str, int] = {}
    clients = [threading.Thread(target=good_client, args=(n, server, stop, record, good,
                                                          expected, deals, analyses, hard))
               for n in range(args.clients)]
    for t in clients:
        t.start()
    warm = time.monotonic() + 60      # every client connected and answered, or a minute
    while len(record.calls) < 2 * args.clients and time.monotonic() < warm:
        time.sleep(0.2)
    import multiprocessing
    spawn = multiprocessing.get_context("spawn")
    hostile_seen = spawn.Queue()
    hostile = {}
    for phase, attacks in (("hostile", Hostile.TOKENLESS), ("faults", Hostile.GREEDY)):
        stop_it = spawn.Event()
        hostile[phase] = (stop_it, spawn.Process(target=Hostile.run, args=(
            server.address, server.url, server.ca, args.hostile, attacks, stop_it, hostile_seen)))
    seen: Counter = Counter()
    fault_log: list = []
    fault_stop = threading.Event()
    fault_thread = threading.Thread(target=faults, args=(server, args.workers, fault_stop,
                                                         fault_log))
    lines_before = 0
    cpu: dict[str, float] = {}          # the server's own process (not its workers), seconds
    for phase in PHASES:
        cpu_before = _cpu(server.proc.pid)
        record.phase = phase
        if phase == "hostile":
            hostile["hostile"][1].start()
        elif phase == "faults":
            stop_it, process = hostile["hostile"]
            stop_it.set()
            seen.update(hostile_seen.get(timeout=60))
            process.join(30)
            hostile["faults"][1].start()
            fault_thread.start()
        end = time.monotonic() + phase_seconds
        while time.monotonic() < end:
            rss[phase] = max(rss[phase], server.rss_mb())
            time.sleep(0.5)
        lines = len(server.text().splitlines())
        log_lines[phase], lines_before = lines - lines_before, lines
        cpu[phase] = (_cpu(server.proc.pid) - cpu_before) / os.sysconf("SC_CLK_TCK")
    fault_thread.join()          # (its last recovery may run past the phase)
    stop_it, process = hostile["faults"]
    stop_it.set()
    seen.update(hostile_seen.get(timeout=60))
    process.join(30)

    # the drain: SIGTERM while the good clients still call
    record.phase = "drain"
    server.proc.send_signal(signal.SIGTERM)
    try:
        code = server.proc.wait(60)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        code = server.proc.wait()
    stop.set()
    for t in clients:
        t.join(60)
    log = server.text()

    # -- the table --
    print(f"\n{'phase':<8} {'calls':>6} {'good':>6} {'p50 s':>7} {'p95 s':>7} {'p99 s':>7} "
          f"{'wrong':>5} {'lost':>4} {'RSS MB':>7} {'CPU s':>6} {'log':>6}  statuses")
    p50 = {}
    for phase in ("warm-up", *PHASES, "drain"):
        mine = [c for c in record.calls if c[0] == phase]
        good_times = [s for _, kind, status, s in mine if kind in GOOD_KINDS and status == "OK"]
        p50[phase] = _pct(good_times, 0.5)
        statuses = Counter(status for _, _, status, _ in mine)
        wrong = statuses.get("WRONG", 0)
        lost = statuses.get("LOST", 0) + sum(1 for p in record.problems
                                            if p.startswith(phase) and "lost" in p)
        print(f"{phase:<8} {len(mine):>6} {len(good_times):>6} {p50[phase]:>7.3f} "
              f"{_pct(good_times, 0.95):>7.3f} {_pct(good_times, 0.99):>7.3f} {wrong:>5} "
              f"{lost:>4} {rss.get(phase, 0):>7.0f} {cpu.get(phase, 0):>6.1f} "
              f"{log_lines.get(phase, 0):>6}  "
              + ", ".join(f"{s} {n}" for s, n in statuses.most_common()))
    by_kind = defaultdict(Counter)
    for _, kind, status, _ in record.calls:
        by_kind[kind][status] += 1
    print("\nby kind: " + "; ".join(f"{k}: " + ", ".join(f"{s} {n}" for s, n in v.most_common())
                                   for k, v in sorted(by_kind.items())))
    drained = Counter(status for phase, kind, status, _ in record.calls
                      if phase == "drain" and kind != "cancel")
    print("drain, the calls their client did not cancel: "
          + ", ".join(f"{s} {n}" for s, n in drained.most_common()))
    print("\nfaults (workers alive once whole, seconds to be whole):")
    for what, alive, took in fault_log:
        print(f"  {what:<52} {alive} of {args.workers}  {took:5.1f} s")
    print("\nhostile clients met:")
    for what, n in sorted(seen.items()):
        print(f"  {what:<52} {n}")
    bad_lines = [l for l in log.splitlines() if not LINE.match(l)]
    print(f"\nlog: {len(log.splitlines())} lines, {len(log) / 1e6:.2f} MB, "
          f"{log.count('Traceback')} tracebacks, {len(bad_lines)} lines not in its format")

    authenticated = [c for c in record.calls if c[1] in GOOD_KINDS]
    checks = {
        "no wrong answer": not any(c[2] == "WRONG" for c in authenticated),
        "no lost answer": not record.problems,
        "every kill survived (the pool whole again, serving)":
            len(fault_log) == 5 and all(alive == args.workers for _, alive, _ in fault_log),
        "authenticated p50 with hostile clients within 2x of quiet":
            p50["hostile"] <= 2 * p50["quiet"],
        "the log in one format, no traceback": not bad_lines and "Traceback" not in log,
        "the server drained and exited 0": code == 0,
    }
    print()
    for name, ok in checks.items():
        print(f"  {'ok  ' if ok else 'FAIL'} {name}")
    for p in record.problems[:10]:
        print(f"  problem: {p}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
