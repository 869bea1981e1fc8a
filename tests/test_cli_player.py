"""The command line as a player uses it: `atout deal`, `atout show`, `solve --text`, the
analysis table, Ctrl-C on a long search."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atout.deal import BIDS, GAMES
from atout.position import parse_position

BENCH = Path(__file__).resolve().parents[1] / "bench" / "data"
MAIN = "import sys; from atout.client.cli import main; sys.exit(main())"


def _atout(*args, stdin="", env=None, timeout=120):
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-c", MAIN, *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=full_env)


# -- atout deal -----------------------------------------------------------------------------

def test_deal_gives_valid_deals_for_every_game_and_bid():
    for game in GAMES:
        for bid in BIDS[game] or (None,):
            args = ["deal", "--game", game, "--count", "2", "--seed", f"t-{game}-{bid}"]
            if bid is not None:
                args += ["--bid", bid]
            r = _atout(*args)
            assert r.returncode == 0, r.stderr
            objs = [json.loads(x) for x in r.stdout.splitlines()]
            assert len(objs) == 2
            for obj in objs:
                pos = parse_position(obj)
                assert pos.game == game and pos.played == []
                if bid is not None:
                    assert pos.contract.bid == bid


def test_deal_endgames_seeds_and_bad_options():
    r = _atout("deal", "--count", "10", "--seed", "7", "--tricks-left", "3", "--partial")
    assert r.returncode == 0, r.stderr
    objs = [json.loads(x) for x in r.stdout.splitlines()]
    assert sorted({o["game"] for o in objs}) == sorted(GAMES)   # every game in turn
    for o in objs:
        pos = parse_position(o)
        assert pos.rules.hand_size - pos.trick_no == 3 and pos.trick
    assert _atout("deal", "--count", "10", "--seed", "7", "--tricks-left", "3",
                  "--partial").stdout == r.stdout                # the same seed, the same deals
    ok = _atout("deal", "--seed", "7", "--count", "3")
    assert ok.stdout.count("\n") == 3
    assert _atout("validate", stdin=ok.stdout).returncode == 0
    for bad in (["--game", "fr4", "--bid", "solorufer"], ["--game", "priest5", "--bid", "garde"],
                ["--game", "at4", "--tricks-left", "13"], ["--partial"], ["--count", "0"]):
        r = _atout("deal", *bad)
        assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr, (bad, r.stderr)


# -- atout show, solve --text ------------------------------------------------------------------

def _endgame(game, tricks, seed, bid=None):
    args = ["deal", "--game", game, "--seed", seed, "--tricks-left", str(tricks)]
    return _atout(*args, *(["--bid", bid] if bid else [])).stdout


def test_show_reads_like_a_table():
    text = _endgame("fr5", 3, "show")
    r = _atout("show", stdin=text, env={"PYTHONIOENCODING": "utf-8"})
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for word in ("taker", "defender", "seat 0", "tricks:", "-> seat", "won so far", "bouts",
                 "to play", "French Tarot (5)"):
        assert word in out, (word, out)
    assert any(sym in out for sym in "♠♥♦♣")
    assert out.count("\n  seat ") == 5
    pos = parse_position(json.loads(text))
    assert out.count("-> seat") == pos.trick_no
    ascii_out = _atout("show", "--ascii", stdin=text).stdout
    assert not any(sym in ascii_out for sym in "♠♥♦♣") and ascii_out.isascii()
    # a terminal that cannot print the symbols gets ASCII by itself, never a traceback
    auto = _atout("show", stdin=text, env={"PYTHONIOENCODING": "ascii"})
    assert auto.returncode == 0 and "Traceback" not in auto.stderr and auto.stdout == ascii_out
    for game, bid in (("priest5", None), ("at4", "trischaken"), ("at4", "solorufer"),
                      ("fr3", "garde_contre")):
        r = _atout("show", stdin=_endgame(game, 2, "show-" + game, bid))
        assert r.returncode == 0 and "Traceback" not in r.stderr and "to play" in r.stdout, r.stderr
    bad = _atout("show", stdin="{oops\n")
    assert bad.returncode == 1 and "line 1: json:" in bad.stderr and "Traceback" not in bad.stderr


def test_solve_text_says_the_result_in_words():
    text = "".join(_endgame(g, 2, "words-" + g, b) for g, b in
                   (("fr4", "garde"), ("priest5", None), ("at4", "solorufer"),
                    ("at4", "trischaken")))
    r = _atout("solve", "--text", "--all", "--tt-mb", "8", stdin=text,
               env={"PYTHONIOENCODING": "utf-8"})
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "the taker makes the contract" in out or "the taker goes down" in out
    assert "card points with" in out and "needed" in out and "multiplier" in out
    assert "the caller's party" in out and "points per seat" in out
    assert out.count("scores: seat 0") == 3        # Trischaken has no scores
    assert out.count("best: ") == 4 and "perfect play on:" in out
    assert _atout("solve", "--text", "--ascii", "--tt-mb", "8", stdin=text).stdout.isascii()


# -- Ctrl-C ------------------------------------------------------------------------------------

def _cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupt_mid_search(args, stdin: str):
    """Start `atout ARGS`, wait until it has searched for a while, send SIGINT: (process,
    seconds it took to exit, stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-c", MAIN, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(stdin)
    proc.stdin.close()
    deadline = time.monotonic() + 30
    if sys.platform.startswith("linux"):
        while _cpu_seconds(proc.pid) < 1.5 and time.monotonic() < deadline:
            time.sleep(0.05)
    else:  # pragma: no cover
        time.sleep(3)
    assert proc.poll() is None, "the search ended before it could be interrupted"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    took = time.monotonic() - sent
    return proc, took, proc.stdout.read(), proc.stderr.read()


def test_ctrl_c_stops_a_solve_at_once_and_prints_what_was_proven():
    whole_deal = (BENCH / "fr4-full.jsonl").read_text().splitlines()[0] + "\n"
    proc, took, out, err = _interrupt_mid_search(["solve", "--tt-mb", "16"], whole_deal)
    assert proc.returncode == 130, (proc.returncode, err)
    assert took < 1.0, took
    assert "Traceback" not in err and "interrupted" in err and "value proven between" in err
    result = json.loads(out)
    assert result["status"] == "limit" and result["stopped_by"] == "cancel"
    lo, hi = result["bounds"]
    assert lo <= hi


def test_ctrl_c_stops_an_analysis_and_prints_what_was_judged():
    obj = json.loads(_endgame("fr4", 0, "ctrl-c-analyze"))
    start = (18 - 13) * 4        # thirteen tricks to analyse: seconds at the least
    proc, took, out, err = _interrupt_mid_search(
        ["analyze", "--json", "--start", str(start), "--tt-mb", "16"], json.dumps(obj) + "\n")
    assert proc.returncode == 130, (proc.returncode, err)
    assert took < 1.0, took
    assert "Traceback" not in err and "interrupted" in err
    report = json.loads(out)     # every card, exact where solved before Ctrl-C, else bounded
    assert report["stopped_by"] == "cancel" and report["outcome"] is not None
    assert [p["index"] for p in report["plays"]] == list(range(start, 72))
    assert report["plays"][0]["value_before"] is None and report["plays"][0]["bounds_before"]


def test_ctrl_c_on_the_table_output_too():
    whole_deal = (BENCH / "fr4-full.jsonl").read_text().splitlines()[1] + "\n"
    proc, took, out, err = _interrupt_mid_search(["solve", "--text", "--ascii", "--tt-mb", "16"],
                                                 whole_deal)
    assert proc.returncode == 130 and took < 1.0
    assert "stopped by Ctrl-C: the value is between" in out and "Traceback" not in err


def test_the_table_of_a_deal_with_no_card_to_judge_says_its_value():
    """No card played from the start (a deal not begun, --start at its last card), stopped
    by the time limit or Ctrl-C: the table says the value proven there, not a traceback."""
    whole_deal = (BENCH / "fr4-full.jsonl").read_text().splitlines()[0] + "\n"
    mid_deal = (BENCH / "fr4-mid12.jsonl").read_text().splitlines()[0] + "\n"
    for args, deal in ((["--time-limit", "0.2"], whole_deal),
                       (["--last-tricks", "3", "--time-limit", "0.2"], whole_deal),
                       (["--start", "24", "--time-limit", "0.01"], mid_deal),
                       (["--start", "24"], mid_deal)):
        r = _atout("analyze", "--ascii", "--tt-mb", "16", *args, stdin=deal)
        assert r.returncode == 0 and "Traceback" not in r.stderr, (args, r.stderr)
        lines = r.stdout.splitlines()
        assert lines[3].startswith("no card played from card ") and "trick" not in lines[4:]
        start = lines[2].split(": ", 1)[1]         # the value before the start card
        assert lines[-1].startswith("deal not finished: double-dummy value now ")
        assert lines[-1].endswith(start.split(";")[0]), (args, r.stdout)
    proc, took, out, err = _interrupt_mid_search(["analyze", "--ascii", "--tt-mb", "16"],
                                                 whole_deal)
    assert proc.returncode == 130 and took < 1.0, (proc.returncode, err)
    assert "Traceback" not in err and "interrupted; no card to judge" in err
    assert "Ctrl-C left the value a proven range" in out and "value now between" in out


@pytest.mark.parametrize("cmd", [["solve"], ["analyze"], ["show"], ["validate"]])
def test_no_traceback_on_garbage(cmd):
    for junk in ("", "\x00\x01", "[1,2]\n", '{"game": "fr4"}\n', "{" * 5000 + "\n"):
        r = _atout(*cmd, stdin=junk)
        assert "Traceback" not in r.stderr, (cmd, junk[:20], r.stderr)


# -- the small ones ----------------------------------------------------------------------------

def test_version_and_validate_summary():
    from atout import __version__
    r = _atout("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"atout {__version__}"
    good = _atout("deal", "--seed", "v", "--count", "2").stdout
    r = _atout("validate", stdin=good)
    assert r.returncode == 0 and r.stdout == "2 positions checked, 0 bad\n" and r.stderr == ""
    r = _atout("validate", stdin=good + "oops\n")
    assert r.returncode == 1 and r.stdout == "3 positions checked, 1 bad\n"


def test_a_terminal_on_stdin_gets_a_hint():
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", MAIN, "validate"], stdin=slave,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(slave)
    try:
        time.sleep(1.0)
        os.write(master, b"\x04")          # Ctrl-D: the end of the input
        out, err = proc.communicate(timeout=30)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    assert "reading positions from the terminal" in err and "Ctrl-D" in err
    assert len(err.splitlines()) == 1 and out == "0 positions checked, 0 bad\n"
    # and no hint when the input is a pipe
    assert _atout("validate", stdin="").stderr == ""


def test_json_errors_are_whole_with_a_hint_for_pretty_printed_input():
    obj = json.loads(_atout("deal", "--seed", "pretty").stdout)
    r = _atout("validate", stdin=json.dumps(obj, indent=2) + "\n")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith("line 1: json: not valid JSON: ")
    assert "pretty-printed JSON" in lines[0] and "jq -c" in lines[0]
    r = _atout("validate", stdin='{"game": "fr4", "hands": [1, 2\n')
    assert r.stderr.strip().endswith("column 31"), r.stderr          # whole, not cut mid-word
    r = _atout("validate", stdin=json.dumps([obj, obj]) + "\n")
    assert "JSON array" in r.stderr and "jq -c '.[]'" in r.stderr


def test_is_finished_is_a_property_and_still_a_call():
    from atout.position import parse_position as parse
    obj = json.loads(_endgame("fr4", 0, "finished"))
    pos = parse(obj)
    assert pos.is_finished and pos.is_finished() is True
    obj["played"] = obj["played"][:-1]
    pos = parse(obj)
    assert not pos.is_finished and pos.is_finished() is False and pos.to_play is not None
    assert repr(pos.is_finished) == "False"


def test_a_position_prints_as_a_player_reads_it():
    from atout.present.text import describe_position
    pos = parse_position(json.loads(_endgame("fr4", 4, "str")))
    assert str(pos) in (describe_position(pos), describe_position(pos, ascii=True))
    assert "to play" in str(pos) and "taker" in str(pos)


def test_threads_option():
    """--threads N: the same answers on every thread count; out of range is a usage error."""
    text = _endgame("fr4", 7, "threads")
    answers = []
    for n in ("1", "2", "64"):
        r = _atout("solve", "--all", "--threads", n, "--tt-mb", "16", stdin=text)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        answers.append((out["value"], out["best"], out["cards"], out["line"]))
    assert answers[0][:3] == answers[1][:3] == answers[2][:3]
    for bad in ("0", "257", "two"):
        r = _atout("solve", "--threads", bad, stdin=text)
        assert r.returncode == 2 and "--threads" in r.stderr and "Traceback" not in r.stderr
