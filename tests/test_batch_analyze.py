"""`atout batch --analyze`: the same analysis as `atout analyze`, resumable after kills,
on a local Ray instance too; players, tables and boards checked and kept."""

from __future__ import annotations

import io
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atout.errors import PositionError
from atout.position import parse_position
from atout.runner.batch import BatchError, analyze_all, solve_all
from atout.solver.analyze import analyze

from deals import GAMES, random_finished

TT = 8
#: what a batch line adds to the analysis
ADDED = ("status", "position", "seconds", "cpu_seconds", "input_line")
PLAYERS = {"fr4": ["Anne", None, "Chloé", "Didier"]}


def _strip(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ADDED}


def _deals(seed: str, n: int) -> list[dict]:
    """Whole random deals played to the end, of every game in turn."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        game = GAMES[i % len(GAMES)]
        obj = random_finished(rng, game)
        obj["id"] = f"{seed}-{i:03d}"
        if game in PLAYERS:
            obj.update(players=PLAYERS[game], table=i % 3 + 1, board=f"board {i}")
        out.append(obj)
    return out


def _write(path: Path, lines) -> None:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))


def _results(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def _atout_cmd(*args):
    main = "import sys; from atout.client.cli import main; sys.exit(main())"
    return [sys.executable, "-c", main, *args]


def test_the_same_analysis_as_atout_analyze(tmp_path):
    """Each deal's line is `atout analyze --json`'s object (one thread, the same table) with
    the status and the deal added (a deal begun: nothing to judge, as there); a bad line and
    a start past the cards played are error lines naming the field."""
    short = dict(_deals("same", 1)[0], id="short")
    short["played"] = short["played"][:-2 * len(short["hands"]) - 1]   # not at --last-tricks 2
    deals = _deals("same", 5) + [short]
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, deals[:5] + ["not json", short])
    r = subprocess.run(_atout_cmd("batch", "--analyze", str(src), "-o", str(out), "--workers",
                                  "2", "--last-tricks", "2", "--tt-mb", str(TT), "--quiet"),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and r.stderr == "", r.stderr
    seq = subprocess.run(_atout_cmd("analyze", "--json", "--last-tricks", "2", "--threads", "1",
                                    "--tt-mb", str(TT), str(src)),
                         capture_output=True, text=True, timeout=120)
    expected = [json.loads(x) for x in seq.stdout.splitlines()]
    got = {r["input_line"]: r for r in _results(out)}
    assert sorted(got) == list(range(1, 8))
    assert len(expected) == 6
    for n, obj, e in zip((1, 2, 3, 4, 5, 7), deals, expected):
        assert got[n]["status"] == "ok" and "stopped_by" not in got[n]
        assert _strip(got[n]) == e
        assert list(got[n])[:2] == ["id", "status"]
        assert got[n]["position"] == parse_position(obj).to_json() == obj
    assert got[1]["plays"][0]["index"] == len(deals[0]["played"]) - 2 * len(deals[0]["hands"])
    assert got[1]["position"]["players"] == PLAYERS["fr4"]
    assert got[7]["plays"] == [] and got[7]["start_value"] is not None
    assert got[6]["status"] == "error" and got[6]["field"] == "json"
    # the API, with a start that the short deal has not reached
    start = len(deals[0]["played"]) - 2
    mem = {r["id"]: r for r in analyze_all([deals[0], short], workers=1, start=start,
                                           tt_mb=TT).results}
    assert _strip(mem[deals[0]["id"]]) == analyze(deals[0], start=start, tt_mb=TT)
    assert (mem["short"]["status"], mem["short"]["field"]) == ("error", "start")


def test_a_deal_stopped_by_the_time_limit_keeps_its_verdicts(tmp_path):
    """A whole deal in 1 s: status limit, stopped_by time, and every card a verdict (a
    cost, or proven bounds of it)."""
    bench = Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl"
    rng = random.Random("limit")
    obj = json.loads(bench.read_text().splitlines()[0])
    pos = parse_position(obj)
    while not pos.is_finished:
        pos.play(rng.choice(pos.legal_cards()))
    report = analyze_all([pos.to_json()], workers=1, time_limit=1, tt_mb=64)
    (result,) = report.results
    assert (report.limits, result["status"], result["stopped_by"]) == (1, "limit", "time")
    assert len(result["plays"]) == 72
    for p in result["plays"]:
        assert p["cost"] is not None or 0 <= p["cost_bounds"][0] <= p["cost_bounds"][1]
    assert result["cpu_seconds"] <= result["seconds"] * 1.5 + 0.5


def _lines_in(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_killed_at_random_moments_then_resumed(tmp_path):
    """SIGKILL `atout batch --analyze` at random moments (at once, then each time soon after
    it has written something new); the reruns go on; each deal once, as analysed alone."""
    deals = _deals("kill", 12)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, deals)
    cmd = _atout_cmd("batch", "--analyze", str(src), "-o", str(out), "--workers", "2",
                     "--last-tricks", "10", "--tt-mb", str(TT))
    rng = random.Random("kill")
    written = []
    for round_no in range(4):
        before = _lines_in(out)
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if round_no == 0:
            time.sleep(rng.uniform(0.0, 0.4))
        else:
            deadline = time.monotonic() + 60
            while _lines_in(out) == before and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.05))
        if proc.poll() is not None:
            proc.communicate()
            break
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        written.append(_lines_in(out))
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = _results(out)
    assert sorted(r["id"] for r in got) == [d["id"] for d in deals]
    assert any(0 < n < 12 for n in written), written      # killed mid-run at least once
    by_id = {d["id"]: d for d in deals}
    for r in got:
        d = by_id[r["id"]]
        start = len(d["played"]) - 10 * len(d["hands"])
        assert _strip(r) == analyze(d, start=start, tt_mb=TT)


def test_ray_backend(tmp_path):
    pytest.importorskip("ray")
    deals = _deals("ray", 3)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, deals + ["junk"])
    report = analyze_all(src, out, backend="ray", workers=2, last_tricks=2, tt_mb=TT)
    assert (report.solved, report.ok, report.errors) == (4, 3, 1)
    got = {r["input_line"]: r for r in _results(out)}
    for i, d in enumerate(deals):
        start = len(d["played"]) - 2 * len(d["hands"])
        assert _strip(got[i + 1]) == analyze(d, start=start, tt_mb=TT)
    assert analyze_all(src, out, backend="ray", workers=2, last_tricks=2, tt_mb=TT).solved == 0


def test_analyses_and_solves_do_not_mix_in_one_output(tmp_path):
    """Going on with the other kind's results file would skip the work asked for as done:
    refused naming -o and why, the file left as it was.  (And the progress line says deals.)"""
    deals = _deals("mix", 2)
    src = tmp_path / "in.jsonl"
    _write(src, deals)
    analyses, solves = tmp_path / "analyses.jsonl", tmp_path / "solves.jsonl"
    progress = io.StringIO()
    analyze_all(src, analyses, workers=1, last_tricks=1, tt_mb=TT, progress=progress)
    assert progress.getvalue() == "batch: 2 deals, 0 already done, 2 to analyse on 1 worker\n"
    endgames = [dict(d, played=d["played"][:-len(d["hands"])]) for d in deals]
    solve_all(endgames, solves, workers=1, tt_mb=TT)
    for path, call, what in ((analyses, solve_all, "an analysis"),
                             (solves, analyze_all, "a solve's result")):
        text = path.read_text()
        with pytest.raises(BatchError, match=f"^-o {path}: line 1 is {what}"):
            call(src, path, workers=1, tt_mb=TT)
        assert path.read_text() == text


def test_bad_options_are_one_line(tmp_path):
    src = tmp_path / "in.jsonl"
    _write(src, _deals("opts", 1))
    out = tmp_path / "out.jsonl"
    for args, says in ((["--analyze", "--all"], "atout: --all is for solving, not --analyze\n"),
                       (["--analyze", "--node-limit", "5"], "atout: --node-limit is for solving"),
                       (["--threads", "2"], "atout: --threads is for --analyze or --table\n"),
                       (["--last-tricks", "2"], "atout: --last-tricks is for --analyze\n"),
                       (["--analyze", "--start", "2", "--last-tricks", "1"], "not allowed with"),
                       (["--analyze", "--time-limit", "0"], "--time-limit")):
        r = subprocess.run(_atout_cmd("batch", str(src), "-o", str(out), *args),
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
        assert not out.exists()
    with pytest.raises(BatchError, match="start and last_tricks"):
        analyze_all([], start=1, last_tricks=1)
    with pytest.raises(BatchError, match="threads"):
        analyze_all([], threads=0)


def test_players_tables_and_boards_are_checked_and_kept():
    obj = _deals("people", 2)[1]
    assert obj["game"] == "fr3"
    obj.update(players=["Anne", None, "Bruno"], table="T1", board=7)
    pos = parse_position(obj)
    assert (pos.players, pos.table, pos.board) == (["Anne", None, "Bruno"], "T1", 7)
    assert pos.to_json() == obj and pos.copy().to_json() == obj
    plain = {k: v for k, v in obj.items() if k not in ("players", "table", "board")}
    assert parse_position(plain).to_json() == plain
    # the gRPC message does not carry them (the answers do not depend on them): the Python
    # client sends such a position as the command line takes it
    from atout.proto.convert import position_message, position_object
    assert position_object(position_message(pos)) == plain
    refused = [({"players": ["Anne"]}, "players", "must be a list of 3 names"),
               ({"players": "Anne"}, "players", "must be a list of 3 names"),
               ({"players": ["Anne", "", None]}, "players[1]", "must be a string of 1 to 100"),
               ({"players": [None, None, 3]}, "players[2]", "or null"),
               ({"players": [None, "\ud800", None]}, "players[1]", "lone surrogate"),
               ({"table": "x" * 101}, "table", "or an integer"),
               ({"table": 1.5}, "table", "or an integer"),
               ({"board": True}, "board", "or an integer"),
               ({"board": 1 << 63}, "board", "64 bits")]
    for change, fld, reason in refused:
        with pytest.raises(PositionError) as e:
            parse_position({**obj, **change})
        assert e.value.field == fld and reason in e.value.reason, (change, e.value)
