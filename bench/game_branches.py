"""Per-game branches outside the games' records: how many lines of the code decide by a
game's name (issue 67).

    python bench/game_branches.py            # the count, and by file
    python bench/game_branches.py --list     # every line counted

A game's facts live in its records — the rules' (atout/games.py) and the words'
(atout/present/words.py); elsewhere the code asks the record.  A line counts here when,
outside those two files, it decides by a game's name written out: it compares a value
with one (``game == "at4"``, ``game in ("fr3", "fr4")``, ``=== "priest5"``), tests a
name's prefix (``startswith("fr")``) or keys a table by games (``{"priest5": 6, ...}``,
a copy of a record's fact) — or compares a game's rulebook (``facts.family == FRENCH``:
the same branch by another name; a table of each rulebook's function, looked up by it,
is the lookup that replaces such branches and does not count).  A game named as data — a default (``game="fr4"``), a list
of the games to deal in turn — is not a branch and does not count.  Read: the Python and
JavaScript of every folder that installs (atout/, solver/, server/ with its page,
client/, runner/, proto/), comments and docstrings left out; not tests/ nor bench/
(whose scripts name the games they measure).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("atout", "solver", "server", "client", "runner", "proto")
#: the records: where a game's facts and words are written, by name
RECORDS = ("atout/games.py", "atout/present/words.py")
GAME_NAMES = ("fr3", "fr4", "fr5", "priest5", "at4")

_NAME = "|".join(GAME_NAMES)
_LIT = rf"""["'](?:{_NAME})["']"""
#: a comparison with a name, a membership test in a literal list of names, a prefix test,
#: a table keyed by a name
_BRANCH = re.compile(
    rf"""(?:==|!=)=?\s*{_LIT}|{_LIT}\s*(?:==|!=)"""
    rf"""|\bin\s*[(\[{{][^)\]}}]*{_LIT}|[(\[]\s*{_LIT}[^)\]]*[)\]]\s*\.includes\("""
    r"""|\.starts[wW]ith\(\s*["'](?:fr|at|priest)"""
    r"""|\bfamily\s*(?:[!=]==?|\bin\b|\bnot in\b)|(?:[!=]==?)\s*\w*\.?family\b"""
    rf"""|{_LIT}\s*:(?!\S*\s*\w+\s*=)""")
#: JavaScript's tables may key by a bare name (``{ priest5: 6 }``)
_JS_KEY = re.compile(rf"""[{{,]\s*(?:{_NAME})\s*:""")


def _python_code(text: str) -> list[tuple[int, str]]:
    """Each line's code with its comments and docstrings blanked (strings kept)."""
    lines = text.splitlines()
    keep = [list(line) for line in lines]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return list(enumerate(lines, 1))
    previous = tokenize.NEWLINE
    for tok in tokens:
        blank = tok.type == tokenize.COMMENT or (
            tok.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.NL,
                                                          tokenize.INDENT, tokenize.DEDENT))
        if blank:
            (r0, c0), (r1, c1) = tok.start, tok.end
            for r in range(r0, r1 + 1):
                lo = c0 if r == r0 else 0
                hi = c1 if r == r1 else len(keep[r - 1])
                keep[r - 1][lo:hi] = " " * (hi - lo)
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    return [(i, "".join(chars)) for i, chars in enumerate(keep, 1)]


_JS_COMMENT = re.compile(r"""/\*.*?\*/|//[^\n]*|("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'"""
                         r"""|`(?:\\.|[^`\\])*`)""", re.S)


def _js_code(text: str) -> list[tuple[int, str]]:
    """Each line's code with its comments blanked (strings kept; lines keep their number)."""
    def blank(m: re.Match) -> str:
        if m.group(1):
            return m.group(1)
        return re.sub(r"[^\n]", " ", m.group(0))
    return list(enumerate(_JS_COMMENT.sub(blank, text).splitlines(), 1))


def branches(root: Path = ROOT) -> list[tuple[str, int, str]]:
    """Every line counted: (file, line number, the line)."""
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if rel in RECORDS or path.suffix not in (".py", ".js") or "_pb2" in path.name:
                continue
            text = path.read_text(encoding="utf-8")
            code = _python_code(text) if path.suffix == ".py" else _js_code(text)
            for number, line in code:
                if _BRANCH.search(line) or (path.suffix == ".js" and _JS_KEY.search(line)):
                    found.append((rel, number, line.strip()))
    return found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print every line counted")
    args = ap.parse_args(argv)
    found = branches()
    if args.list:
        for rel, number, line in found:
            print(f"{rel}:{number}: {line}")
    by_file = Counter(rel for rel, _, _ in found)
    print(f"{len(found)} per-game branches outside the records, in {len(by_file)} files")
    for rel, n in by_file.most_common():
        print(f"{n:5}  {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
