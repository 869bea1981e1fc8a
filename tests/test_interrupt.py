"""Ctrl-C and SIGTERM on the `atout` command (issue 48): from the command's first code a
Ctrl-C is one line and exit 130, never a traceback — also while the command is still being
imported — and SIGTERM stops a search as Ctrl-C does: its partial result printed, exit 143.
The real console script, in a subprocess."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ATOUT = Path(sys.executable).parent / "atout"
HARD = Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl"

pytestmark = pytest.mark.skipif(not ATOUT.exists(), reason="the atout script is not installed")


def _catches_sigterm(proc: subprocess.Popen, timeout: float = 60) -> None:
    """Waits until ``proc`` has a SIGTERM handler: the command's own first code runs (before
    it, the interpreter is starting, which no program can answer for)."""
    deadline = time.monotonic() + timeout
    status = Path(f"/proc/{proc.pid}/status")
    while time.monotonic() < deadline:
        try:
            caught = next(l for l in status.read_text().splitlines() if l.startswith("SigCgt:"))
        except (OSError, StopIteration):
            caught = "SigCgt: 0"
        if int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)):
            return
        if proc.poll() is not None:
            raise AssertionError("the command ended before it caught SIGTERM")
        time.sleep(0.002)
    raise AssertionError("the command never took SIGTERM for its own")


def _searching(proc: subprocess.Popen, timeout: float = 120) -> None:
    """Waits until ``proc`` runs its search: a second thread (interrupt.Searches runs each
    search in one), and then a little more."""
    deadline = time.monotonic() + timeout
    status = Path(f"/proc/{proc.pid}/status")
    while time.monotonic() < deadline:
        threads = next(l for l in status.read_text().splitlines() if l.startswith("Threads:"))
        if int(threads.split()[1]) > 1:
            time.sleep(0.2)
            return
        time.sleep(0.01)
    raise AssertionError("the search never started")


def _communicate(proc: subprocess.Popen, timeout: float = 60) -> tuple[str, str]:
    """``proc``'s output once it has ended; killed if it has not within ``timeout`` (a
    search that missed its signal would otherwise go on for the rest of the test run,
    taking a core from every test after it)."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_ctrl_c_at_any_moment_of_the_start_is_one_line(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(HARD.read_text().splitlines()[0] + "\n")
    for delay in (0.0, 0.01, 0.03, 0.06, 0.1, 0.2):
        proc = subprocess.Popen([str(ATOUT), "solve", str(src)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        _catches_sigterm(proc)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = _communicate(proc)
        assert "Traceback" not in err, (delay, err)
        assert proc.returncode == 130, (delay, proc.returncode, err)
        assert "atout: interrupted" in err


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_sigterm_stops_a_search_as_ctrl_c_does(tmp_path):
    """`atout solve` of a whole deal, SIGTERM while it searches: the proven bounds printed,
    the line on stderr, exit 143 (it was killed with nothing printed)."""
    src = tmp_path / "in.jsonl"
    src.write_text(HARD.read_text().splitlines()[0] + "\n")
    proc = subprocess.Popen([str(ATOUT), "solve", str(src), "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _catches_sigterm(proc)
    _searching(proc)
    proc.send_signal(signal.SIGTERM)
    out, err = _communicate(proc)
    assert proc.returncode == 143, (proc.returncode, err)
    result = json.loads(out.splitlines()[0])
    assert result["status"] == "limit" and result["stopped_by"] == "cancel", result
    assert "atout: interrupted:" in err and "Traceback" not in err


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_picture_with_values_stops_at_ctrl_c(tmp_path, sig, status):
    """`atout show --svg --values` of a whole deal with a long time limit: Ctrl-C or SIGTERM
    while it searches stops it at once, one line, no picture (its search ran in the main
    thread, where neither could reach it before the time limit)."""
    src = tmp_path / "in.jsonl"
    src.write_text(HARD.read_text().splitlines()[0] + "\n")
    proc = subprocess.Popen([str(ATOUT), "show", str(src), "--svg", "-", "--values",
                             "--time-limit", "300"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _catches_sigterm(proc)
    time.sleep(1.0)         # searching by now (earlier, the signal stops it the same way)
    proc.send_signal(sig)
    out, err = _communicate(proc, timeout=30)    # not the 300 s of its time limit
    assert proc.returncode == status, (proc.returncode, err)
    assert out == "" and err == "atout: interrupted\n", err
