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
    # one thread, as each batch worker searches: the node counts are the same too
    seq = subprocess.run(_atout_cmd("solve", "--all", "--threads", "1", "--tt-mb", str(TT),
                                    str(src)), capture_output=True, text=True, timeout=120)
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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE as on Linux")
def test_a_full_disk_stops_the_run_in_one_line_and_it_resumes(tmp_path):
    """Writes that fail (a file size limit: as a full disk, EFBIG for ENOSPC) stop the run
    with one line naming the output; the next run cuts off the torn line and finishes."""
    import resource
    puzzles = _puzzles("full-disk", 6, tricks=(3,))
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, puzzles)
    limit = 1000        # bytes: a few results, the last one torn

    def small_disk():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    r = subprocess.run(_atout_cmd("batch", str(src), "-o", str(out), "--workers", "2",
                                  "--tt-mb", str(TT), "--quiet"), preexec_fn=small_disk,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr == f"atout: cannot write {out}: File too large\n"
    assert out.stat().st_size == limit
    report = solve_all(src, out, workers=2, tt_mb=TT)
    assert report.repaired and report.skipped + report.solved == 6
    assert sorted(r["id"] for r in _results(out)) == [p["id"] for p in puzzles]


def test_an_output_that_is_not_a_results_file_is_refused_and_left_as_it_was(tmp_path):
    """-o a file of positions (not results), a text whose one line lacks its newline, a
    device, a pipe, a folder: refused naming -o and why, before anything is read to the end
    or changed (the torn last line of a genuine results file is still cut off: above)."""
    puzzles = _puzzles("not-results", 2, tricks=(3,))
    src = tmp_path / "in.jsonl"
    _write(src, puzzles)
    one_result = json.dumps(solve_all(puzzles[:1], workers=1, tt_mb=TT).results[0])
    files = {"positions.jsonl": src.read_text(),
             "no-newline.jsonl": json.dumps(puzzles[0]),           # a whole line, not torn
             "text.txt": "hello",
             "a-result-then-junk.jsonl": one_result + "\n\nnot json\n",
             "a-position-torn.jsonl": one_result + "\n" + json.dumps(puzzles[1])[:-1]}
    for name, text in files.items():
        out = tmp_path / name
        out.write_text(text)
        with pytest.raises(BatchError, match=f"^-o {out}: line [123] is not a result line"):
            solve_all(src, out, workers=1, tt_mb=TT)
        assert out.read_text() == text, name

    # were /dev/zero read to its end, a MemoryError, not the machine's: the limit is set by
    # the command itself, not by a preexec_fn — forking this test process (its gRPC threads
    # running after other tests) once wrote a gRPC poller's error into the command's stderr
    small_memory = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30)); "
                    "import sys; from atout.client.cli import main; sys.exit(main())")
    for out in ("/dev/full", "/dev/zero", "/dev/stdout", str(tmp_path)):
        r = subprocess.run([sys.executable, "-c", small_memory, "batch", str(src), "-o", out,
                            "--quiet"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and r.stdout == "", (out, r.stderr)
        assert r.stderr.startswith(f"atout: -o {out}: not a regular file;"), (out, r.stderr)


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


def test_a_refused_id_is_done_once(tmp_path):
    """A line whose id the rules refuse (an integer past 64 bits, a lone surrogate): its
    result's id is null, and a rerun finds it by its line (it was solved again and its
    result appended on every rerun)."""
    p = _puzzles("odd-ids", 3, tricks=(2,))
    lines = [json.dumps(dict(p[0], id=2 ** 70)), json.dumps(dict(p[1], id="\ud800")),
             json.dumps(p[2])]
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, lines)
    report = solve_all(src, out, workers=1, tt_mb=TT)
    assert report.solved == 3 and report.errors == 2
    assert [r["id"] for r in sorted(_results(out), key=lambda r: r["input_line"])] == \
        [None, None, p[2]["id"]]
    again = solve_all(src, out, workers=1, tt_mb=TT)
    assert again.solved == 0 and again.skipped == 3 and len(_results(out)) == 3


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_is_a_bar_on_a_terminal_and_quiet_otherwise(tmp_path):
    stream = io.StringIO()
    solve_all(_puzzles("progress", 3), workers=1, tt_mb=TT, progress=stream)
    assert stream.getvalue() == "batch: 3 puzzles, 0 already done, 3 to solve on 1 worker\n"
    tty = _Terminal()
    solve_all(_puzzles("progress", 3) + ["junk"], workers=1, tt_mb=TT, progress=tty,
              progress_every=0)
    text = tty.getvalue()
    assert "4 puzzles, 0 already done, 4 to solve" in text
    assert "\r" in text and "4/4" in text and "1 not ok" in text   # tqdm's bar


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
    puzzles = _puzzles(f"kill-{int(sig)}", 40, tricks=(7, 8))  # long enough to interrupt
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
        if sig == signal.SIGINT and proc.returncode not in (-signal.SIGINT, 1):
            # (-SIGINT: the signal came while the interpreter was already exiting; 1: the
            # batch had already finished — the junk line is an error result)
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


def test_a_local_ray_start_that_times_out_is_tried_again(tmp_path, monkeypatch):
    """Ray waits a fixed 30 s for its raylet, which a busy machine can take longer than
    (CI: "The current node timed out during startup"): the batch tries the start again,
    and names Ray's reason where every try fails."""
    ray = pytest.importorskip("ray")
    real_init, calls = ray.init, []

    def init(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise Exception("The current node timed out during startup. This could happen "
                            "because some of the raylet failed to startup or the GCS has "
                            "become overloaded.")
        return real_init(**kwargs)
    monkeypatch.setattr(ray, "init", init)
    puzzles = _puzzles("ray-again", 2)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, puzzles)
    report = solve_all(src, out, backend="ray", workers=1, tt_mb=TT)
    assert (report.solved, report.ok, len(calls)) == (2, 2, 2)
    assert not ray.is_initialized()

    def never(**kwargs):
        calls.append(kwargs)
        raise Exception("timed out, again")
    monkeypatch.setattr(ray, "init", never)
    calls.clear()
    with pytest.raises(BatchError, match=r"^cannot start or reach Ray \(local\): timed out, again$"):
        solve_all(src, tmp_path / "out2.jsonl", backend="ray", workers=1, tt_mb=TT)
    assert len(calls) == 3
    calls.clear()           # a cluster's start is not ours: asked once
    with pytest.raises(BatchError, match=r"^cannot start or reach Ray \(ray://x:1\)"):
        solve_all(src, tmp_path / "out3.jsonl", backend="ray", address="ray://x:1", tt_mb=TT)
    assert len(calls) == 1


def _cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _workers_of(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
                cmdline = open(f"/proc/{entry}/cmdline", "rb").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"worker_process" in cmdline:
                out.append(int(entry))
    return out


#: searches that last about a second each today; a node limit keeps them that long however
#: fast the search gets per position, and makes the result the same on any worker
SLOW = {"node_limit": 4_000_000, "tt_mb": TT}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_that_dies_is_replaced(tmp_path):
    """SIGKILL a worker in the middle of a puzzle: the puzzle is solved again on a new
    worker, every result is there once and is what a plain solve gives."""
    import threading
    bench = Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl"
    lines = bench.read_text().splitlines()[:3]
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, lines)
    reports = []
    runner = threading.Thread(target=lambda: reports.append(solve_all(src, out, workers=2, **SLOW)))
    runner.start()
    victim = None
    deadline = time.monotonic() + 60
    while victim is None and time.monotonic() < deadline:
        for pid in _workers_of(os.getpid()):
            # past its start-up (imports take well under 0.3 s of CPU): it is searching
            try:
                if _cpu_seconds(pid) > 0.3 and _lines_in(out) == 0:
                    victim = pid
                    break
            except OSError:
                pass
        time.sleep(0.01)
    assert victim is not None
    os.kill(victim, signal.SIGKILL)
    runner.join(timeout=300)
    got = _results(out)
    assert sorted(r["id"] for r in got) == sorted(json.loads(x)["id"] for x in lines)
    expected = {json.loads(x)["id"]: _strip(solve(json.loads(x), **SLOW).to_json()) for x in lines}
    for r in got:
        assert _strip(r) == expected[r["id"]]
    assert reports[0].workers_lost == 1 and reports[0].solved == 3 and reports[0].crashed == 0


def test_a_puzzle_whose_worker_dies_twice_is_retried_on_the_next_run(tmp_path, monkeypatch):
    """A worker that dies on a puzzle twice: the puzzle is not written to the output (so it
    is not 'done'); the next run, with healthy workers, solves it.  Result lines of older
    versions that say the worker died are removed and solved again."""
    from atout.runner.process import SearchProcess as _Worker
    puzzles = _puzzles("crash", 4)
    puzzles[1]["id"] = "crash-me"
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, puzzles)
    dying = ("import os, sys, json; sys.path[:] = json.loads(sys.argv[1]); import atout.runner.batch as b; "
             "real = b.solve_line; "
             "b.solve_line = lambda raw, *a: os._exit(3) if b'crash-me' in (raw or b'') else real(raw, *a); "
             "b.worker_process()")
    monkeypatch.setattr(_Worker, "BOOT", dying)
    report = solve_all(src, out, workers=2, tt_mb=TT)
    assert (report.solved, report.crashed, report.workers_lost) == (3, 1, 2)
    assert "crash-me" not in [r["id"] for r in _results(out)]
    monkeypatch.undo()
    again = solve_all(src, out, workers=2, tt_mb=TT)
    assert (again.skipped, again.solved, again.crashed) == (3, 1, 0)
    assert sorted(r["id"] for r in _results(out)) == sorted(p["id"] for p in puzzles)
    # an older version's record of a dead worker
    results = _results(out)
    for r in results:
        if r["id"] == puzzles[2]["id"]:
            r.update(status="error", field="solver", reason="the worker process died twice on "
                     "this puzzle (exit code 1)")
    _write(out, results)
    third = solve_all(src, out, workers=1, tt_mb=TT)
    assert (third.dropped, third.solved, third.skipped) == (1, 1, 3)
    got = _results(out)
    assert sorted(r["id"] for r in got) == sorted(p["id"] for p in puzzles)
    assert all(r["status"] == "ok" for r in got)


def _readme_block(heading: str) -> str:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme.split(heading, 1)[1].split("\n## ", 1)[0]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_snippet_runs_as_a_plain_script(tmp_path):
    """The README's batch example pasted into a file and run with `python file.py` (no
    ``__main__`` guard): every puzzle solved, nothing on stderr."""
    code = _readme_block("## Solving a puzzle set")
    assert "solve_all(" in code and "__main__" not in code
    _write(tmp_path / "puzzles.jsonl", _puzzles("snippet", 3))
    script = tmp_path / "solve_them.py"
    script.write_text(code)
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    got = _results(tmp_path / "results.jsonl")
    assert len(got) == 3 and all(x["status"] == "ok" for x in got)
