"""atout.batch.solve_all / `atout batch`: same results as sequential solving, resumable
after kills, bad lines are result lines."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atout.batch import BatchError, solve_all
from atout.solver import solve

from deals import GAMES, random_endgame

TT = 8
VOLATILE = ("seconds", "input_line")


def _strip(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in VOLATILE}


def _puzzles(seed: str, n: int, tricks=(3, 4, 5)) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        obj = random_endgame(rng, GAMES[i % len(GAMES)], rng.choice(tricks), partial=rng.random() < 0.3)
        obj["id"] = f"{seed}-{i:03d}"
        out.append(obj)
    return out


def _write(path: Path, lines) -> None:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))


def _results(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def _atout_cmd(*args):
    main = "import sys; from atout.client.cli import main; sys.exit(main())"
    return [sys.executable, "-c", main, *args]


BAD = ["not json", '{"id": "bad-game", "game": "zz"}', "[1, 2]",
       '{"id": "bad-card", "game": "fr4", "hands": [["XX"]], "first": 0, "played": [], "contract": {}}']


def test_same_results_as_sequential_solve(tmp_path):
    puzzles = _puzzles("same", 12)
    lines = puzzles[:5] + BAD[:2] + [""] + puzzles[5:] + BAD[2:]
    src = tmp_path / "in.jsonl"
    out = tmp_path / "out.jsonl"
    _write(src, lines)
    report = solve_all(src, out, workers=2, all_cards=True, tt_mb=TT)
    assert (report.total, report.solved, report.skipped) == (16, 16, 0)
    assert (report.ok, report.errors) == (12, 4)
    got = _results(out)
    assert len(got) == 16
    by_line = {r["input_line"]: r for r in got}
    # the sequential command, line by line, in input order
    seq = subprocess.run(_atout_cmd("solve", "--all", "--tt-mb", str(TT), str(src)),
                         capture_output=True, text=True, timeout=120)
    assert seq.returncode == 1
    expected = [json.loads(x) for x in seq.stdout.splitlines()]
    numbers = [i + 1 for i, x in enumerate(lines) if x != ""]
    assert len(expected) == len(numbers)
    for n, e in zip(numbers, expected):
        assert _strip(by_line[n]) == _strip(e)
    for r in got:
        if r["status"] == "error":
            assert r["reason"] and r["field"]
    # and the API without an output file
    mem = solve_all(puzzles[:4], workers=2, tt_mb=TT)
    assert sorted((_strip(r) for r in mem.results), key=lambda r: r["id"]) == \
        [_strip(solve(p, tt_mb=TT).to_json()) for p in puzzles[:4]]


def test_resume_skips_done_and_repairs_a_torn_line(tmp_path):
    puzzles = _puzzles("resume", 8)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, puzzles)
    first = solve_all(puzzles[:5], workers=1, tt_mb=TT).results
    # a previous run wrote 5 results, the last one torn
    text = "".join(json.dumps(r) + "\n" for r in first[:4]) + json.dumps(first[4])[:40]
    out.write_text(text)
    report = solve_all(src, out, workers=2, tt_mb=TT)
    assert report.repaired and report.skipped == 4 and report.solved == 4
    ids = [r["id"] for r in _results(out)]
    assert sorted(ids) == sorted(p["id"] for p in puzzles)
    again = solve_all(src, out, workers=2, tt_mb=TT)
    assert (again.solved, again.skipped, again.ok) == (0, 8, 8)


def test_missing_and_duplicate_ids(tmp_path):
    p = _puzzles("dups", 4)
    anon = [dict(p[0]), dict(p[1])]
    for a in anon:
        del a["id"]
    twin = dict(p[3], id=p[2]["id"])
    lines = [p[2], anon[0], twin, anon[1], p[2], "oops", "oops"]
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, lines)
    report = solve_all(src, out, workers=2, tt_mb=TT)
    assert report.solved == 7 and report.errors == 2
    got = _results(out)
    assert sorted(r["input_line"] for r in got) == list(range(1, 8))
    assert solve_all(src, out, workers=2, tt_mb=TT).solved == 0
    assert len(_results(out)) == 7


def test_progress_lines_when_not_a_terminal(tmp_path):
    stream = io.StringIO()
    solve_all(_puzzles("progress", 3), workers=1, tt_mb=TT, progress=stream, progress_every=0)
    text = stream.getvalue()
    assert "3 puzzles, 0 already done, 3 to solve" in text
    assert "batch: 3/3 done" in text and "\r" not in text


def test_bad_options(tmp_path):
    with pytest.raises(BatchError):
        solve_all(tmp_path / "missing.jsonl", tmp_path / "out.jsonl")
    with pytest.raises(BatchError):
        solve_all([], workers=0)
    with pytest.raises(BatchError):
        solve_all([], backend="spark")
    src = tmp_path / "in.jsonl"
    _write(src, _puzzles("same-file", 1))
    with pytest.raises(BatchError):
        solve_all(src, src)


def test_limits_are_result_lines(tmp_path):
    bench = Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl"
    lines = bench.read_text().splitlines()[:2]
    report = solve_all(lines, workers=2, node_limit=1000, tt_mb=TT)
    assert report.limits == 2 and all(r["status"] == "limit" and r["bounds"] for r in report.results)


def _lines_in(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_at_random_moments_then_resumed(tmp_path, sig):
    """Kill `atout batch` at random moments (the first time at once, then each time
    soon after it has written something new); the reruns go on; each id exactly once."""
    puzzles = _puzzles(f"kill-{int(sig)}", 40, tricks=(6, 7))
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, puzzles + ["junk"])
    cmd = _atout_cmd("batch", str(src), "-o", str(out), "--workers", "2", "--tt-mb", str(TT))
    rng = random.Random(f"kill-{int(sig)}")
    written = []
    for round_no in range(6):
        before = _lines_in(out)
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if round_no == 0 and sig == signal.SIGKILL:
            time.sleep(rng.uniform(0.0, 0.4))
        elif round_no == 0:
            # Python dies with a fatal error on a SIGINT while its interpreter is still
            # starting: wait for the first progress line
            proc.stderr.readline()
            time.sleep(rng.uniform(0.0, 0.2))
        else:
            deadline = time.monotonic() + 60
            while _lines_in(out) == before and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.1))
        if proc.poll() is not None:
            proc.communicate()
            break
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert "Traceback" not in err, err
        if sig == signal.SIGINT and proc.returncode != -signal.SIGINT:
            # (-SIGINT: the signal came while the interpreter was already exiting)
            assert proc.returncode == 130 and "interrupted" in err, (proc.returncode, err)
        written.append(_lines_in(out))
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr  # the junk line is an error result
    got = _results(out)  # every line whole
    ids = [r["id"] for r in got]
    assert sorted(map(str, ids)) == sorted([p["id"] for p in puzzles] + ["None"])
    assert len(ids) == len(set(ids))
    assert any(0 < n < 41 for n in written), written  # killed mid-run at least once
    for r in got:
        if r["id"] is not None:
            assert _strip(r) == _strip(solve(puzzles[int(r["id"][-3:])], tt_mb=TT).to_json())


def test_ray_backend(tmp_path):
    pytest.importorskip("ray")
    puzzles = _puzzles("ray", 6)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, puzzles + ["junk"])
    report = solve_all(src, out, backend="ray", workers=2, tt_mb=TT)
    assert (report.solved, report.ok, report.errors) == (7, 6, 1)
    got = {r["input_line"]: r for r in _results(out)}
    for i, p in enumerate(puzzles):
        assert _strip(got[i + 1]) == _strip(solve(p, tt_mb=TT).to_json())
    assert solve_all(src, out, backend="ray", workers=2, tt_mb=TT).solved == 0


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_that_dies_is_replaced(tmp_path):
    """SIGKILL a worker in the middle of a puzzle: the puzzle is solved again on a new
    worker, every result is there once."""
    import threading
    bench = Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-end8.jsonl"
    lines = bench.read_text().splitlines()[:3]
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, lines)
    before = set(_children(os.getpid()))
    reports = []
    runner = threading.Thread(target=lambda: reports.append(solve_all(src, out, workers=2)))
    runner.start()
    victim = None
    deadline = time.monotonic() + 30
    while victim is None and time.monotonic() < deadline:
        fresh = [p for p in _children(os.getpid()) if p not in before]
        workers = [p for p in fresh if b"spawn_main" in open(f"/proc/{p}/cmdline", "rb").read()]
        if workers and _lines_in(out) == 0:
            time.sleep(0.2)
            victim = workers[0]
        time.sleep(0.02)
    assert victim is not None
    os.kill(victim, signal.SIGKILL)
    runner.join(timeout=120)
    got = _results(out)
    assert sorted(r["id"] for r in got) == sorted(json.loads(x)["id"] for x in lines)
    assert all(r["status"] == "ok" for r in got)
    assert reports[0].workers_lost == 1 and reports[0].solved == 3
