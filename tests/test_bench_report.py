"""``python bench/report.py`` prints the README's "Speed today" table: its shape, not its timings."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "bench" / "report.py"


def _report(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPORT), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_the_quick_report_prints_the_readme_table():
    r = _report("--quick", "--rows", "tricks,sets,at4", "--tricks", "6", "--count", "1",
                "--time-limit", "0.2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    # the machine, the commit and the date, then the command that made the table
    assert re.match(r"Measured on .+, \d+ cores, (commit [0-9a-f]{7,}|an unknown commit).*, "
                    r"\d{4}-\d\d-\d\d: `python bench/report.py --quick ", lines[0]), lines[0]
    table = [l for l in lines if l.startswith("|")]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert table[:2] == ["| what | measured | median | worst | stopped by the limit |",
                         "|---|---|---|---|---|"]
    assert table[0] in readme          # the README's own header: the table pastes over it
    rows = table[2:]
    whats = [row.split(" | ")[0].lstrip("| ") for row in rows]
    assert whats == ["fr4, 6 tricks left (random play from `fr4-full`)",
                     "fr4-end8 (1 positions)", "fr3-end10 (1 positions)", "fr5-end8 (1 positions)",
                     "priest5-end8 (1 positions)", "fr4-mid12 (1 positions)",
                     "at4-bettler-full / at4-farbendreier-full",
                     "at4-solorufer-full / at4-trischaken-full"]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 5, row
        median, worst, stopped = cells[2], cells[3], cells[4]
        for t in re.split(r" / ", re.sub(r" \(.*before\)", "", median)) + worst.split(" / "):
            assert t == "—" or re.fullmatch(r"[\d.]+ (ms|s)", t), row
        assert re.fullmatch(r"0|(\d+ of \d+( each)?( / \d+ of \d+)*) \(0.2 s\)", stopped), row


def test_an_unknown_row_is_refused():
    r = _report("--rows", "tricks,bogus")
    assert r.returncode == 2
    assert "--rows: unknown row 'bogus'" in r.stderr
    assert r.stdout == ""
