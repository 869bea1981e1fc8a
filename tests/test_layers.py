"""The layers of the code, checked by import-linter: the contracts in pyproject.toml
([tool.importlinter]) hold for the package as it installs, and a broken one is caught.

Every folder of the repository installs under the one import package ``atout`` (setup.py's
``PARTS``: solver/ as ``atout.solver``, ...), which import-linter cannot follow from the
folders as they lie; each check lays the package out as it installs, in links to the
repository's files, and runs ``lint-imports`` on it.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:                 # Python 3.10: import-linter brings tomli
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"
#: modules of the `atout` folder that are no layer of the rules (see pyproject.toml)
NOT_RULES = {"__init__", "batch"}


def _parts() -> dict[str, str]:
    """setup.py's PARTS: import package -> folder."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "PARTS":
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no PARTS")


def _installed(where: Path) -> Path:
    """The package laid out under ``where`` as it installs, each file a link to the repo's."""
    for package, folder in _parts().items():
        for source in (ROOT / folder).rglob("*.py"):
            target = where.joinpath(*package.split("."), source.relative_to(ROOT / folder))
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                target.symlink_to(source)
    return where


def _lint(where: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(where)}      # this layout, not the installed one
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
         " sys.exit(lint_imports_command())", "--config", str(CONFIG), "--no-cache"],
        cwd=where, env=env, capture_output=True, text=True, timeout=300)


def test_the_layers_hold(tmp_path):
    r = _lint(_installed(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 kept, 0 broken" in r.stdout


def test_an_upward_import_breaks_the_layers(tmp_path):
    """The check can fail: the search importing the presentation, and one renderer
    importing another, are both reported (a changed copy, not the repository)."""
    where = _installed(tmp_path)
    (where / "atout" / "solver" / "_upward.py").write_text("from atout.present import words\n")
    picture = where / "atout" / "present" / "picture.py"
    text = picture.read_text()
    picture.unlink()
    picture.write_text(text + "\nfrom atout.present import link  # noqa\n")
    r = _lint(where)
    assert r.returncode != 0
    assert "0 kept, 2 broken" in r.stdout, r.stdout + r.stderr
    assert "atout.solver._upward -> atout.present.words" in r.stdout
    assert "atout.present.picture is not allowed to import atout.present.link" in r.stdout


def test_every_rules_module_is_in_a_layer():
    """A new module of the rules is checked only once the layers name it."""
    contracts = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    named = {m.strip() for layer in layers for m in layer.replace("|", ":").split(":")}
    modules = {f"atout.{p.stem}" for p in (ROOT / "atout").glob("*.py")
               if p.stem not in NOT_RULES}
    assert modules - named == set()
    folders = {p for p in _parts() if p != "atout"} | {"atout.present"}
    assert folders - named == set()
