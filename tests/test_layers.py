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


def _contracts() -> dict[str, dict]:
    return {c["id"]: c for c in tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]}


def _named(layers: list[str]) -> set[str]:
    """The modules a layers contract names (``a | b`` and ``a : b`` alike)."""
    return {m.strip() for layer in layers for m in layer.replace("|", ":").split(":")}


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
    assert f"{len(_contracts())} kept, 0 broken" in r.stdout


def _append(where: Path, module: str, line: str) -> None:
    """``line`` added to ``module`` of the copy laid out under ``where`` (its link replaced
    by a file: the repository is not changed)."""
    path = where.joinpath(*module.split(".")).with_suffix(".py")
    text = path.read_text()
    path.unlink()
    path.write_text(text + f"\n{line}  # noqa\n")


def test_an_upward_import_breaks_the_layers(tmp_path):
    """The check can fail: the search importing the presentation, one renderer importing
    another, `import atout` importing the search, a rule low in the rules' order importing
    one above it, Ctrl-C's module importing the command line (the circle issue 67 broke),
    and a part of the HTTP API importing the API are each reported (a changed copy, not the
    repository)."""
    where = _installed(tmp_path)
    (where / "atout" / "solver" / "_upward.py").write_text("from atout.present import words\n")
    _append(where, "atout.present.picture", "from atout.present import link")
    _append(where, "atout.__init__", "from atout.solver import cancel")
    _append(where, "atout.cards", "from atout import position")
    _append(where, "atout.client.interrupt", "from atout.client import cli")
    _append(where, "atout.server.table_http", "from atout.server import http")
    r = _lint(where)
    assert r.returncode != 0
    kept = len(_contracts()) - 5
    assert f"{kept} kept, 5 broken" in r.stdout, r.stdout + r.stderr
    assert "atout.solver._upward -> atout.present.words" in r.stdout
    assert "atout.present.picture is not allowed to import atout.present.link" in r.stdout
    assert "atout is not allowed to import atout.solver.cancel" in r.stdout
    assert "atout.cards -> atout.position" in r.stdout
    assert "atout.client.interrupt -> atout.client.cli" in r.stdout
    assert "atout.server.table_http -> atout.server.http" in r.stdout


def test_every_rules_module_is_in_a_layer():
    """A new module of the rules is checked only once the layers name it; so is a new one
    of the services, and of the command line (a command, in the commands' contract)."""
    contracts = _contracts()
    named = _named(contracts["layers"]["layers"])
    modules = {f"atout.{p.stem}" for p in (ROOT / "atout").glob("*.py")
               if p.stem not in NOT_RULES}
    assert modules - named == set()
    folders = {p for p in _parts() if p != "atout"} | {"atout.present", "atout.batch"}
    assert folders - named == set()
    server = {p.stem for p in (ROOT / "server").glob("*.py") if p.stem != "__init__"}
    assert server == _named(contracts["server"]["layers"])
    from atout.client.cli import COMMANDS
    assert contracts["commands"]["modules"] == [f"atout.client.{c}" for c in COMMANDS]
    client = {p.stem for p in (ROOT / "client").glob("*.py") if p.stem != "__init__"}
    assert client - set(COMMANDS) == _named(contracts["client"]["layers"])
