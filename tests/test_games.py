"""A game has one home (issue 67): each game's facts are one record of atout/games.py, its
words one row of atout/present/words.py's table, and the viewer's page reads both from the
server (``GET /api/games``) instead of copies; elsewhere the code asks the records, which
bench/game_branches.py counts — the per-game branches left outside them."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest

from atout.cards import DECK_SIZE
from atout.games import GAME, GAMES, game_of, rules_for
from atout.present.view import games
from atout.present.words import WORDS, words_of

ROOT = Path(__file__).resolve().parent.parent


def _counter():
    spec = importlib.util.spec_from_file_location("game_branches", ROOT / "bench" / "game_branches.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", GAMES)
def test_each_record_holds_together(name):
    g = game_of(name)
    assert g.name == name and rules_for(name).facts is g
    assert g.seats * g.hand_size + g.outside == len(g.deck) <= DECK_SIZE
    for names in (g.bids, g.objectives, g.table_contracts, g.ranks, g.columns):
        assert len(set(names)) == len(names)
    assert set(g.ranks) <= set(g.table_contracts) | {"garde", "call", "alone"}
    assert len(g.bids) <= 2 ** 5 and g.link_places >= g.seats + 1   # what a link's bits hold
    assert g.turn in ("clockwise", "anticlockwise") and len(g.roles) == 2
    assert g.poignee_trumps == tuple(sorted(g.poignee_trumps))
    w = words_of(name)
    assert w.name and w.excuse and w.trump and len(w.camps) == 2
    assert set(w.table_value) == set(g.countings or ("seed",))


def test_one_name_per_game():
    names = [WORDS[g].name for g in GAMES]
    assert len(set(names)) == len(names) == len(GAME) == len(WORDS)
    with pytest.raises(ValueError, match="unknown game 'fr6'"):
        game_of("fr6")
    with pytest.raises(ValueError):
        words_of("fr6")


def test_the_page_reads_the_games_from_the_server():
    """One endpoint, the records and the words as they are: the page's link, cards,
    contract table and editor read these, in the order a link numbers the games."""
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from atout.server.http import HttpApi

    api = HttpApi(SimpleNamespace(ready=1))          # (no search: no pool started)
    with TestClient(api.app) as client:
        r = client.get("/api/games")
    assert r.status_code == 200
    answer = r.json()["games"]
    assert answer == games() and [g["name"] for g in answer] == list(GAMES)
    at4 = answer[GAMES.index("at4")]
    assert at4["bids"][21] == "trischaken" and at4["objectives"][0] == "contract"
    assert at4["words"]["contracts"]["koenig_ultimo"] == "König ultimo"
    assert answer[GAMES.index("fr4")]["words"]["columns"]["garde"] == "Prise/garde"
    assert len(at4["pack"]) == 54 and at4["signed"] is False


def test_no_javascript_module_copies_a_game():
    """The page's modules name no game: what they know of one comes from games.js."""
    counter = _counter()
    static = [(f, n, line) for f, n, line in counter.branches()
              if f.startswith("server/static/")]
    assert static == []
    for path in (ROOT / "server" / "static").glob("*.js"):
        code = "\n".join(line for _, line in counter._js_code(path.read_text(encoding="utf-8")))
        for name in GAMES:
            assert f'"{name}"' not in code and f"'{name}'" not in code, (path.name, name)


def test_the_branches_left_outside_the_records():
    """The figure of issue 67: 174 per-game branches in 23 files before; those left are the
    search's parameters and the advice's (solver/params.py, solver/advise.py), whose
    files other work was changing."""
    found = _counter().branches()
    files = {f for f, _, _ in found}
    assert len(found) <= 6 and files <= {"solver/params.py", "solver/advise.py"}, found


def test_the_counter_finds_each_form_of_branch(tmp_path):
    counter = _counter()
    (tmp_path / "atout").mkdir()
    (tmp_path / "atout" / "m.py").write_text(
        '"""A docstring naming game == "fr4" is no branch."""\n'
        'x = game == "at4"            # counted\n'
        'y = game in ("fr3", "fr4")   # counted\n'
        'z = g.startswith("fr")       # counted\n'
        'T = {"priest5": 6}           # counted\n'
        'w = facts.family == FRENCH   # counted\n'
        '# game == "fr5" in a comment is none\n'
        'def deal(game="fr4"): pass\n'
        'GAMES = ("fr4", "fr3")\n')
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "m.js").write_text(
        'const a = game === "priest5";  // counted\n'
        'const S = { fr4: 4 };          // counted\n'
        '/* game === "at4" */\n'
        'const CODEC = { french: F };\n')
    found = counter.branches(tmp_path)
    assert [(f, n) for f, n, _ in found] == [("atout/m.py", n) for n in (2, 3, 4, 5, 6)] + \
        [("server/m.js", 1), ("server/m.js", 2)]
