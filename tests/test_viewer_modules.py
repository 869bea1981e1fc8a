"""The viewer's modules import one another one way only (issue 56): the controller
(server/static/viewer.js) wires the features, the features report events up to it and
read what they share from modules below them, and no module imports one that imports it
back, directly or through others.  Read from the modules' own `import` lines; no browser."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "server" / "static"

# `import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"`, `import("./x.js")`
_IMPORT = re.compile(r"""\bfrom\s*["']\./([^"']+)["']|\bimport\s*\(?\s*["']\./([^"']+)["']""")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"//[^\n]*")


def imports_of(source: str) -> set[str]:
    """The page's own modules a module's text imports (comments left out)."""
    code = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", source))
    return {a or b for a, b in _IMPORT.findall(code)}


def module_graph(folder: Path = STATIC) -> dict[str, set[str]]:
    return {p.name: imports_of(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.js"))}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph as the modules round it (the first again at the end), or None."""
    done: set[str] = set()
    path: list[str] = []            # the modules being followed, each importing the next
    on_path: set[str] = set()

    def follow(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt in on_path:
                return path[path.index(nxt):] + [nxt]
            if nxt not in done:
                found = follow(nxt)
                if found:
                    return found
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for node in sorted(graph):
        if node not in done:
            found = follow(node)
            if found:
                return found
    return None


def test_the_import_reader_finds_every_form():
    source = '''// import { x } from "./not-this.js";
        import { state, $ } from "./state.js";
        import {
          go,
          stepCard } from './stepping.js';
        export { cardText } from "./cards.js";
        import "./side.js";
        /* import { y } from "./nor-this.js"; */
        const m = await import("./review.js");
        const url = "http://www.w3.org/2000/svg";
        import { other } from "/elsewhere/lib.js";
    '''
    assert imports_of(source) == {"state.js", "stepping.js", "cards.js", "side.js", "review.js"}


def test_the_cycle_finder_finds_a_circle_and_only_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]
    # a circle reached only through a module outside it
    assert find_cycle({"x": {"y"}, "y": {"z"}, "z": {"y"}}) == ["y", "z", "y"]


def test_the_viewers_modules_import_one_way():
    graph = module_graph()
    assert {"viewer.js", "state.js", "review.js", "stepping.js"} <= set(graph)
    for module, imported in graph.items():
        missing = imported - set(graph)
        assert not missing, f"{module} imports {sorted(missing)}, not in server/static/"
    assert find_cycle(graph) is None, "a circle of imports: " + " → ".join(find_cycle(graph))
    # the controller on top: no feature reaches back up to it
    assert not [m for m, imported in graph.items() if "viewer.js" in imported]
    # and the page's one script is the controller
    assert '<script type="module" src="/static/viewer.js">' in (STATIC / "index.html").read_text(encoding="utf-8")


# the state changed in place: assigned (`state.x = …`, `state[slot] = …`, `state.deals[i].y = …`),
# or one of its collections changed (`state.tables.set(…)`, `Object.assign(state…`)
_STATE_WRITE = re.compile(
    r"\bstate(?:\.\w+|\[\w+\])(?:\[[^\]]*\])?(?:\.\w+)?\s*(?:=(?![=>])|\+\+|--|[-+*/]=)"
    r"|\bstate\.\w+\.(?:set|push|clear|delete|splice|pop|shift|unshift|sort)\("
    r"|Object\.assign\(\s*state\b")
_STATE_IMPORT = re.compile(r"import\s*\{([^}]*)\}\s*from\s*[\"']\./state\.js[\"']")


def state_writes(source: str) -> list[str]:
    code = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", source))
    return [m.group(0) for m in _STATE_WRITE.finditer(code)]


def state_actions() -> set[str]:
    """The actions state.js exports: its functions below the `-- the actions` line."""
    source = (STATIC / "state.js").read_text(encoding="utf-8")
    return set(re.findall(r"^export function (\w+)", source.split("-- the actions", 1)[1], re.M))


def test_the_state_reader_finds_every_write():
    source = '''state.line = x; state.deals[i].label = "a"; state[slot] = job; state.cursor++;
        state.tables.set(k, t); Object.assign(state.analysis, f);
        if (state.line === x || state.cursor >= 3) go(); const f = (s) => state.viewSeat;
        // state.cursor = 0;
    '''
    assert state_writes(source) == ["state.line =", 'state.deals[i].label =', "state[slot] =", "state.cursor++",
                                    "state.tables.set(", "Object.assign(state"]


def test_the_state_changes_only_in_state_js():
    """Every change of the page's state is one of state.js's actions (issue 67): no feature
    writes it itself, and a feature's view (x-view.js) reads it and calls no action."""
    for path in sorted(STATIC.glob("*.js")):
        if path.name != "state.js":
            assert not state_writes(path.read_text(encoding="utf-8")), f"{path.name} changes the state itself"
    actions = state_actions()
    assert {"openDeal", "setCursor", "setAnalysis"} <= actions
    views = sorted(STATIC.glob("*-view.js"))
    assert len(views) >= 5
    for path in views:
        source = path.read_text(encoding="utf-8")
        imported = {n.strip().split(" as ")[0] for m in _STATE_IMPORT.findall(source) for n in m.split(",")}
        assert not imported & actions, f"{path.name}, a view, imports the actions {sorted(imported & actions)}"
        controller = path.name.replace("-view.js", ".js")
        assert controller not in imports_of(source), f"{path.name} imports its controller"
