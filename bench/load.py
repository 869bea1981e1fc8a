"""Load and faults on a real ``atout serve`` (not a test: it loads the machine for its duration).

    python bench/load.py --clients 50 --seconds 60 [--workers 2] [--server-args "..."]

Starts ``atout serve`` on 127.0.0.1 (a free port), then N client threads for T seconds, each
calling in a loop, mixing:

- good positions (small endgames of every game, ``Solve`` and ``SolveBatch``), whose values
  are checked against the local solver's;
- bad ones (refused by the rules, sent as they are: INVALID_ARGUMENT expected) and bytes
  that are no message at all;
- calls cancelled by the client while their search runs (a whole fr4 deal), and calls whose
  deadline runs out before their search ends (DEADLINE_EXCEEDED expected);

while a thread asks the health service every 0.2 s, and halfway through a busy search
process is killed (SIGKILL): the call it was running must be answered with an error
(INTERNAL) and the server must serve on.  It prints the calls made, answered and by
status, latency percentiles by kind, the health checks, and the verdict of each check:
no good call got a wrong answer, no call was lost (every call answered, within its
deadline plus a margin), health always answered, the killed worker's call answered with
an error, the server still serving at the end.  Exit status 1 if a check fails.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from atout.client import Client, ServiceError
from atout.deal import random_endgame
from atout.games import GAMES
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from atout.proto.v1 import solver_pb2_grpc as pb_grpc
from atout.solver import solve

HARD = Path(__file__).resolve().parent / "data" / "fr4-full.jsonl"
TT_MB = 16
#: how long past its deadline a call may take to be answered before it counts as lost
LOST_MARGIN = 10.0


class Server:
    def __init__(self, workers: int, extra: list[str]):
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "atout.client.cli", "serve", "--port", "0", "--workers",
             str(workers), "--tt-mb", str(TT_MB), *extra],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while "listening on" not in self.text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                sys.exit("server did not start:\n" + self.text())
            time.sleep(0.1)
        line = next(l for l in self.text().splitlines() if "listening on" in l)
        self.address = line.split("listening on ")[1].split()[0]

    def text(self) -> str:
        return Path(self.log.name).read_text()

    def workers(self) -> list[int]:
        kids = []
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                stat = (d / "stat").read_text()
                cmdline = (d / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid \
                    and b"resource_tracker" not in cmdline:
                kids.append(int(d.name))
        return kids

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def _cpu(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return -1


def _positions(rng: random.Random, count: int) -> list[dict]:
    out = []
    for i in range(count):
        p = random_endgame(rng, GAMES[i % len(GAMES)], rng.choice((2, 3, 4)),
                           partial=rng.random() < 0.5)
        p["id"] = f"load-{i}"
        out.append(p)
    return out


def _bad(good: list[dict]) -> list[pb.Position]:
    """Positions the rules refuse, as messages (sent as they are, past the client's check)."""
    out = []
    for p in good[:10]:
        for change in ("card", "first", "bid", "played"):
            q = copy.deepcopy(p)
            if change == "card":
                q["hands"][0][0] = "ZZ"
            elif change == "first":
                q["first"] = 9
            elif change == "bid":
                q["contract"]["bid"] = "grand"
            else:
                q["played"] = q["played"] + q["played"][-1:]
            out.append(convert.position_message(q))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server-args", default="", help="more `atout serve` options")
    parser.add_argument("--seed", default="load")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    good = _positions(rng, 120)
    expected = {p["id"]: solve(p, tt_mb=TT_MB).value for p in good}
    bad = _bad(good)
    hard = json.loads(HARD.read_text().splitlines()[0])
    hard_message = convert.position_message(hard)

    server = Server(args.workers, args.server_args.split())
    print(f"server {server.address}, {args.workers} search processes, {args.clients} clients "
          f"for {args.seconds:g} s", flush=True)
    lock = threading.Lock()
    calls: list[tuple[str, str, float]] = []          # (kind, status, seconds)
    problems: list[str] = []
    health = {"asked": 0, "answered": 0, "worst": 0.0}
    started = time.monotonic()
    stop_at = started + args.seconds

    def record(kind: str, status: str, seconds: float, deadline: float | None) -> None:
        with lock:
            calls.append((kind, status, seconds))
            if deadline is not None and seconds > deadline + LOST_MARGIN:
                problems.append(f"{kind}: answered {status} after {seconds:.1f} s "
                                f"(deadline {deadline:g} s): lost")

    def one_client(n: int) -> None:
        r = random.Random(f"{args.seed}-{n}")
        with Client(server.address) as c:
            while time.monotonic() < stop_at:
                kind = r.choice(("solve", "solve", "solve", "batch", "bad", "garbage",
                                 "deadline", "cancel"))
                began = time.monotonic()
                deadline = 120.0
                status = "OK"
                try:
                    if kind == "solve":
                        p = r.choice(good)
                        result = c.solve(p, timeout=deadline)
                        if result.value != expected[p["id"]]:
                            status = "WRONG"
                    elif kind == "batch":
                        ps = r.sample(good, r.randint(2, 6))
                        got = {i: res for i, res in c.solve_batch(ps, timeout=deadline)}
                        if sorted(got) != list(range(len(ps))) or any(
                                got[i].value != expected[ps[i]["id"]] for i in got):
                            status = "WRONG"
                    elif kind == "bad":
                        c.stub.Solve(pb.SolveRequest(position=r.choice(bad)), timeout=deadline)
                        status = "ACCEPTED_BAD"
                    elif kind == "garbage":
                        call = c.channel.unary_unary("/atout.v1.Solver/Solve",
                                                     request_serializer=lambda b: b,
                                                     response_deserializer=lambda b: b)
                        call(bytes(r.randrange(256) for _ in range(r.randint(1, 40))),
                             timeout=deadline)
                        status = "ACCEPTED_BAD"
                    elif kind == "deadline":
                        deadline = r.uniform(0.05, 0.5)
                        c.stub.Solve(pb.SolveRequest(position=hard_message), timeout=deadline)
                        status = "NOT_STOPPED"
                    else:
                        future = c.stub.Solve.future(pb.SolveRequest(position=hard_message,
                                                                     time_limit=60),
                                                     timeout=deadline)
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
                except Exception as e:  # noqa: BLE001 - every failure is reported
                    status = f"ERROR:{type(e).__name__}"
                    with lock:
                        problems.append(f"{kind}: {type(e).__name__}: {e}")
                record(kind, status, time.monotonic() - began, deadline)

    def health_checks() -> None:
        with grpc.insecure_channel(server.address) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < stop_at:
                began = time.monotonic()
                health["asked"] += 1
                try:
                    reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=2)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        health["answered"] += 1
                except grpc.RpcError as e:
                    with lock:
                        problems.append(f"health check: {e.code().name}")
                health["worst"] = max(health["worst"], time.monotonic() - began)
                time.sleep(0.2)

    killed = {}

    def killer() -> None:
        """Halfway, the search process that worked most in a 0.5 s look (in a search) is
        killed; a long search of its own is asked first, so that one is running."""
        time.sleep(args.seconds / 2)
        with grpc.insecure_channel(server.address) as channel:
            long_call = pb_grpc.SolverStub(channel).Solve.future(
                pb.SolveRequest(position=hard_message, time_limit=20), timeout=60)
            while time.monotonic() < stop_at:
                pids = server.workers()
                before = {pid: _cpu(pid) for pid in pids}
                time.sleep(0.5)
                work = {pid: _cpu(pid) - before[pid] for pid in pids}
                busiest = max(work, key=work.get)
                if work[busiest] > 0:
                    killed["pid"], killed["at"] = busiest, time.monotonic() - started
                    os.kill(busiest, signal.SIGKILL)
                    break
            try:
                long_call.result()
                killed["own call"] = "OK"
            except grpc.RpcError as e:
                killed["own call"] = e.code().name

    threads = [threading.Thread(target=one_client, args=(n,)) for n in range(args.clients)]
    threads += [threading.Thread(target=health_checks), threading.Thread(target=killer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started

    # after the run: still serving?
    with Client(server.address) as c:
        p = good[0]
        serving_after = c.solve(p, timeout=30).value == expected[p["id"]]
    log = server.text()
    code = server.stop()

    by_status = Counter(status for _, status, _ in calls)
    by_kind = defaultdict(list)
    for kind, status, seconds in calls:
        by_kind[kind].append(seconds)
    internal_lines = [l for l in log.splitlines() if l.endswith(" INTERNAL")]
    print(f"\n{len(calls)} calls in {elapsed:.1f} s ({len(calls) / elapsed:.0f}/s), "
          f"{len(calls)} answered")
    print("by status: " + ", ".join(f"{s} {n}" for s, n in by_status.most_common()))
    print("by kind and status:")
    for kind in sorted(by_kind):
        statuses = Counter(s for k, s, _ in calls if k == kind)
        print(f"  {kind:<9} {len(by_kind[kind]):>6}  " +
              ", ".join(f"{s} {n}" for s, n in statuses.most_common()))
    print("latency (s)      p50      p90      p99      max")
    for kind in sorted(by_kind) + ["all"]:
        xs = sorted(by_kind[kind] if kind != "all" else [s for _, _, s in calls])
        pct = [xs[min(len(xs) - 1, int(q * len(xs)))] for q in (0.5, 0.9, 0.99)] + [xs[-1]]
        print(f"  {kind:<9} " + " ".join(f"{v:8.3f}" for v in pct))
    print(f"health checks: {health['asked']} asked, {health['answered']} answered SERVING, "
          f"slowest {health['worst'] * 1000:.0f} ms")
    print(f"killed search process {killed.get('pid')} at {killed.get('at', 0):.1f} s; "
          f"(the killer's own long call: {killed.get('own call')}); "
          f"calls answered INTERNAL: {by_status.get('INTERNAL', 0)} "
          f"(server log: {'; '.join(l.split(' atout.server ')[-1] for l in internal_lines)})")

    good_kinds = ("solve", "batch")
    good_status = Counter(s for k, s, _ in calls if k in good_kinds)
    checks = {
        "no good call got a wrong answer": good_status.get("WRONG", 0) == 0,
        "every good call answered OK, or INTERNAL for the killed worker's (or RESOURCE_EXHAUSTED)":
            set(good_status) <= {"OK", "INTERNAL", "RESOURCE_EXHAUSTED"},
        "no call lost (each answered within its deadline + 10 s)": not problems,
        "bad input refused with INVALID_ARGUMENT":
            {s for k, s, _ in calls if k in ("bad", "garbage")} <= {"INVALID_ARGUMENT"},
        "deadlines: DEADLINE_EXCEEDED": {s for k, s, _ in calls if k == "deadline"}
            <= {"DEADLINE_EXCEEDED", "INTERNAL", "RESOURCE_EXHAUSTED"},
        "cancelled calls: CANCELLED": {s for k, s, _ in calls if k == "cancel"}
            <= {"CANCELLED", "INTERNAL", "RESOURCE_EXHAUSTED"},
        "health answered throughout": health["asked"] > 0 and health["answered"] == health["asked"],
        "the killed worker's call answered with an error":
            len(internal_lines) >= 1 and (by_status.get("INTERNAL", 0) >= 1
                                          or killed.get("own call") == "INTERNAL"),
        "the server served on after the kill": serving_after,
        "no traceback in the server's log": "Traceback" not in log,
        "the server drained and exited 0": code == 0,
    }
    for name, ok in checks.items():
        print(f"  {'ok  ' if ok else 'FAIL'} {name}")
    for p in problems[:10]:
        print(f"  problem: {p}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
