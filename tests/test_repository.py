"""The repository stands alone: a clone with nothing beside it has every file its tests,
benchmarks and documentation need."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _git(*args, cwd=ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True, timeout=60).stdout


needs_git = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                               reason="not a git checkout")


@needs_git
def test_a_clone_alone_runs_the_tests_that_read_data(tmp_path):
    """Clone into an empty directory (nothing beside the clone) and run, from the clone, the tests
    and a benchmark that read position files: they pass, none is skipped."""
    clone = tmp_path / "atout"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=120)
    assert not (tmp_path / "shared").exists()
    assert len(list((clone / "bench" / "data").glob("*.jsonl"))) == 13
    pytest_exe = Path(sys.executable).parent / "pytest"
    if not pytest_exe.exists():
        pytest.skip("no pytest script beside the interpreter")
    # the pytest script (not `python -m`, which would put the clone's bare sources on sys.path)
    r = subprocess.run([str(pytest_exe), "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                        "tests/test_batch.py::test_limits_are_result_lines",
                        "tests/test_analyze.py::test_cli_bad_input_is_a_line_not_a_traceback",
                        "bench/test_bench.py", "--benchmark-disable", "-k",
                        "limits or bad_input or bettler"],
                       cwd=clone, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "3 passed" in r.stdout and "skipped" not in r.stdout, r.stdout


@needs_git
def test_no_tracked_file_reads_outside_the_repository():
    hits = []
    for name in _git("ls-files").splitlines():
        if not name.endswith((".py", ".md", ".toml", ".cfg", ".sh", ".pyx")) and \
                not name.startswith(".ci/"):
            continue
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        if re.search(r"\.\./shared|[\"']shared[\"']\s*/", text):
            hits.append(name)
    assert hits == []


def test_the_docs_are_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/format.md", "docs/rules.md"):
        assert (ROOT / doc).exists()
        assert f"]({doc})" in readme, doc
