"""`atout report`: a session's analyses as one page — every number on it is the analysis
file's (or a sum of them, computed here from the file), duplicate tables side by side, it
opens in Chromium with no console error and reads on a phone; bad input is one line."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from atout.cards import token
from atout.position import parse_position
from atout.runner.batch import analyze_line

from deals import play_out, random_endgame, random_finished

CHROMIUM = next((p for p in (os.environ.get("ATOUT_CHROMIUM"), "/usr/bin/chromium",
                             shutil.which("chromium"), shutil.which("chromium-browser"))
                 if p and os.path.exists(p)), None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TT = 8
PHONE = {"width": 390, "height": 844}
BENCH = Path(__file__).resolve().parents[1] / "bench" / "data"


def _replayed(obj: dict, seed: str) -> dict:
    """The same deal (hands, contract) played again, at random: another table's play."""
    rng = random.Random(seed)
    pos = parse_position({**obj, "played": []})
    while not pos.is_finished:
        pos.play(rng.choice(pos.legal_cards()))
    return {**obj, "played": [token(c) for c in pos.played]}


def _session() -> list[bytes]:
    """A small session: board 7 of fr4 at two tables (named players), an fr3 deal at two
    tables with no board (the same hands), a priest5 deal with one player named, an at4
    deal, a whole fr4 deal the time limit stops (seats proven "at least"), a deal refused
    and a line that is not JSON."""
    # an fr4 deal whose last six tricks hold decisive cards (tests/test_viewer.py's)
    rng = random.Random("decisive-27")
    fr4 = random_endgame(rng, "fr4", 6)
    pos = parse_position(fr4)
    play_out(rng, pos, 6 * 4)
    fr4["played"] = [token(c) for c in pos.played]
    rng = random.Random("report")
    fr3 = random_finished(rng, "fr3")
    lines = [
        {**fr4, "id": "b7-t1", "board": 7, "table": 1, "players": ["Anne", "Bruno", "Chloé", "Didier"]},
        {**_replayed(fr4, "t2"), "id": "b7-t2", "board": 7, "table": 2,
         "players": ["Emma", "Farid", "Gaël", "Hugo"]},
        {**fr3, "id": "fr3-a", "table": "A"},
        {**_replayed(fr3, "b"), "id": "fr3-b", "table": "B"},
        {**random_finished(rng, "priest5"), "id": "p5", "players": ["Anne", None, None, None, None]},
        {**random_finished(rng, "at4"), "id": "a4"},
    ]
    opts = {"last_tricks": 6, "tt_mb": TT}
    out = [json.dumps(analyze_line(json.dumps(obj).encode(), n, opts)).encode()
           for n, obj in enumerate(lines, 1)]
    whole = json.loads((BENCH / "fr4-full.jsonl").read_text().splitlines()[1])
    whole = {**_replayed(whole, "whole"), "id": "whole", "board": 8,
             "players": ["Anne", "Bruno", "Chloé", "Didier"]}
    out.append(json.dumps(analyze_line(json.dumps(whole).encode(), 7,
                                       {"time_limit": 0.3, "tt_mb": 64})).encode())
    out.append(json.dumps(analyze_line(b'{"id": "bad", "game": "fr4"}', 8, opts)).encode())
    return out


SESSION = _session()


def _atout(*args, **kw):
    main = "import sys; from atout.client.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", main, *args], capture_output=True, text=True,
                          timeout=120, **kw)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    src = tmp / "out.jsonl"
    src.write_bytes(b"\n".join(SESSION) + b"\n")
    page = tmp / "report.html"
    r = _atout("report", str(src), "-o", str(page), "--title", "Club <night>")
    assert r.returncode == 0, r.stderr
    results = [json.loads(x) for x in SESSION]
    return page, [x for x in results if x["status"] != "error"], results


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no Chromium found (/usr/bin/chromium): `apt-get install chromium`")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _open(browser, path: Path, viewport):
    context = browser.new_context(viewport=viewport)
    pg = context.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: pg.errors.append(f"console {m.type}: {m.text}"))
    # self-contained: nothing is fetched but the page itself
    pg.on("request", lambda r: pg.errors.append("request " + r.url)
          if r.url != path.as_uri() else None)
    pg.goto(path.as_uri())
    return pg


def _mark(play: dict) -> str:
    if play["cost"] is not None:
        return "·" if play["cost"] == 0 else str(play["cost"])
    low = play["cost_bounds"][0]
    return f"≥{low}" if low else "?"


def _low(play: dict) -> int:
    return play["cost"] if play["cost"] is not None else play["cost_bounds"][0]


def test_the_numbers_are_the_files(browser, report):
    """Per player, per deal, per seat and per card: what the page says is what the file
    says (sums computed here from the file)."""
    path, results, _ = report
    assert any(r["status"] == "limit" for r in results)
    assert any(p["decisive"] for r in results for p in r["plays"])
    pg = _open(browser, path, {"width": 1280, "height": 900})
    assert pg.title() == "Club <night>"

    # the players: by name where the deal names them, else by seat; one table per game
    expected: dict = {}
    for r in results:
        names = r["position"].get("players") or [None] * len(r["seats"])
        for row in r["seats"]:
            s = row["seat"]
            name = names[s] or f"Seat {s}"
            t = expected.setdefault((r["position"]["game"], name),
                                    {"deals": 0, "cards": 0, "given": 0, "exact": True,
                                     "mistakes": 0, "decisive": 0, "not_judged": 0})
            t["deals"] += 1
            t["cards"] += row["cards"]
            t["given"] += row["cost"] if row["cost"] is not None else row["at_least"]
            t["exact"] &= row["cost"] is not None
            t["mistakes"] += row["mistakes"]
            t["not_judged"] += row.get("not_judged", 0)
            t["decisive"] += sum(p["decisive"] for p in r["plays"] if p["seat"] == s)
    shown = pg.eval_on_selector_all("table.players tbody tr", """rows => rows.map(r => ({
        game: r.closest("table").dataset.game, name: r.dataset.player,
        cells: Object.fromEntries([...r.querySelectorAll("td.num")].map(
            td => [td.className.replace("num ", ""), td.textContent]))}))""")
    assert len(shown) == len(expected)
    for row in shown:
        t = expected[(row["game"], row["name"])]
        given = str(t["given"]) if t["exact"] else f"≥{t['given']}"
        assert row["cells"] == {"deals": str(t["deals"]), "cards": str(t["cards"]),
                                "given": given,        # (a bound's ≥ kept per deal too)
                                "per-deal": ("" if t["exact"] else "≥")
                                + f"{t['given'] / t['deals']:.1f}",
                                "mistakes": str(t["mistakes"]),
                                "decisive-cards": str(t["decisive"]),
                                "not-judged": str(t["not_judged"])}, row
    assert ("fr4", "Anne") in expected and ("priest5", "Anne") in expected   # one table each
    assert ("priest5", "Seat 1") in expected

    # each deal: the verdict from the first card, its decisive cards, its dearest proven
    # mistakes, each seat's total, and every card's verdict in the play
    for n, r in enumerate(results, 1):
        deal = pg.locator(f'article.deal[data-line="{r["input_line"]}"]')
        assert deal.count() == 1
        start = (str(r["start_value"]) if r["start_value"] is not None
                 else "{} … {}".format(*r["start_bounds"]))
        assert deal.locator(".start-value").inner_text() == start
        if r["position"]["contract"].get("bid") != "trischaken":
            verdict = {True: "made", False: "down", None: "open"}[r["made"]]
            assert deal.locator(".verdict").get_attribute("class") == f"verdict {verdict}"
        decisive = [p["index"] for p in r["plays"] if p["decisive"]]
        assert [int(x) for x in deal.locator("ul.decisive li").evaluate_all(
            "li => li.map(l => l.dataset.index)")] == decisive
        dearest = sorted((p for p in r["plays"] if _low(p) > 0 and not p["decisive"]),
                         key=lambda p: (-_low(p), p["index"]))[:5]
        items = deal.locator("ul.mistakes li")
        assert items.evaluate_all("li => li.map(l => [+l.dataset.index, +l.dataset.cost, "
                                  "l.querySelector('.cost').textContent])") == \
            [[p["index"], _low(p), f"cost {_mark(p)}"] for p in dearest]
        seats = deal.locator("table.seat-totals tbody tr").evaluate_all(
            "rs => rs.map(r => [...r.querySelectorAll('td.num')].map(t => t.textContent))")
        assert seats == [[str(s["cost"]) if s["cost"] is not None else f"≥{s['at_least']}",
                          str(s["mistakes"]), str(s.get("not_judged", 0))] for s in r["seats"]]
        marks = dict(deal.locator("table.play td[data-index]").evaluate_all(
            "tds => tds.map(t => [+t.dataset.index, t.querySelector('sup').textContent])"))
        assert len(marks) == len(r["position"]["played"])
        for p in r["plays"]:
            assert marks[p["index"]] == _mark(p)
        assert all(marks[i] == "" for i in range(r["plays"][0]["index"] if r["plays"] else 0))
    assert pg.locator("#failed li").inner_text().startswith("bad: hands: ")
    assert pg.errors == []


def test_tables_of_one_board_side_by_side(browser, report):
    """The two tables of board 7, and the two fr3 tables (the same hands, no board), each
    in one section with the hands once; the other deals alone."""
    path, results, _ = report
    pg = _open(browser, path, {"width": 1280, "height": 900})
    sections = pg.locator("section.board").evaluate_all(
        "ss => ss.map(s => [...s.querySelectorAll('article.deal')].map(a => +a.dataset.line))")
    assert sections == [[1, 2], [3, 4], [5], [6], [7]]
    first = pg.locator("section.board").first
    assert first.locator(".hands").count() == 1            # the deal's hands, once
    boxes = first.locator("article.deal").evaluate_all(
        "as => as.map(a => a.getBoundingClientRect().top)")
    assert boxes[0] == boxes[1]                            # side by side
    assert "Board 7" in first.locator("h3").inner_text()
    # the hands round the table: seat 0 at the bottom, anticlockwise (the next seat right)
    box = {s: first.locator(f".hands .seat:nth-child({s + 1})").bounding_box() for s in range(4)}
    assert box[2]["y"] < box[1]["y"] < box[0]["y"] and box[3]["x"] < box[0]["x"] < box[1]["x"]
    assert pg.errors == []


def test_it_reads_on_a_phone(browser, report):
    """390 px wide: nothing wider than the screen (the play's table scrolls in its box), the
    tables one under the other, text of a readable size."""
    path, _, _ = report
    pg = _open(browser, path, PHONE)
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    tops = pg.locator("section.board").first.locator("article.deal").evaluate_all(
        "as => as.map(a => a.getBoundingClientRect().top)")
    assert tops[0] < tops[1]
    size = pg.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 13
    pg.locator("details summary").first.click()
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert pg.errors == []


def test_links_open_the_deal_at_the_card(report):
    """Each mistake's link carries the deal and the card (the viewer's share links, where
    this atout has them: atout.present.link)."""
    path, results, _ = report
    text = path.read_text()
    try:
        from atout.present.link import read_link
    except ImportError:
        assert 'class="view"' not in text            # no link that could not open
        return
    links = re.findall(r'<li data-index="(\d+)"[^>]*>.*?<a class="view" href="([^"]+)"', text)
    assert links
    for index, url in links:
        shown = read_link(url.replace("&amp;", "&"))
        assert shown["card"] == int(index)
        assert shown["position"]["played"] in [r["position"]["played"] for r in results]


def test_bad_input_is_one_line_and_changes_nothing(tmp_path, report):
    path, _, _ = report
    page = tmp_path / "page.html"
    solves = tmp_path / "solves.jsonl"
    solves.write_text(json.dumps({"id": 1, "status": "ok", "value": 3, "input_line": 1}) + "\n")
    for args, says in (([str(solves)], "not an analysis of atout batch --analyze"),
                       ([str(tmp_path / "missing.jsonl")], "cannot read"),
                       ([str(path), "--viewer", "javascript:alert(1)"], "--viewer must be")):
        r = _atout("report", *args, "-o", str(page))
        assert r.returncode == 2 and says in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
        assert not page.exists()
    # a line that is not an analysis (or does not fit its deal) is said and left out
    lines = [SESSION[0], b"[1, 2]", SESSION[1].replace(b'"card": "', b'"card": "X', 1)]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(b"\n".join(lines) + b"\n")
    r = _atout("report", str(mixed), "-o", str(page))
    assert r.returncode == 1, r.stderr
    assert r.stderr.splitlines()[:2] == [
        f"{mixed}: line 2: json: not an object",
        f"{mixed}: line 3: plays[0].card: is not the card the deal played there "
        f"({json.loads(SESSION[1])['plays'][0]['card']})"]
    assert page.read_text().count('<article class="deal"') == 1
    r = _atout("report", str(mixed), "-o", str(tmp_path / "no-such-dir" / "page.html"))
    assert r.returncode == 2 and r.stderr.splitlines()[-1].startswith(
        f"atout: cannot write {tmp_path / 'no-such-dir' / 'page.html'}: ")


@pytest.mark.parametrize("change, says", [
    (lambda r: r.pop("made"), "made: is missing"),
    (lambda r: r["plays"][0].update(cost=5, best=["KZ"]), "plays[0].best: must be a list of "
                                                          "cards of fr4's deck"),
    (lambda r: r["plays"][0].update(decisive=True, best=[""]), "plays[0].best: must be"),
    (lambda r: r["plays"][0].update(seat=(r["plays"][0]["seat"] + 1) % 4),
     "plays[0].seat: must be "),
    (lambda r: r["plays"].extend([r["plays"][0]] * len(r["position"]["played"])),
     "plays: has "),
    # a limit's line with valid bounds but no start_value: a KeyError traceback before
    (lambda r: (r.update(status="limit", start_bounds=[r["start_value"]] * 2),
                r.pop("start_value")), "start_value: is missing"),
    # a verdict's kind that is no text: a TypeError traceback before (issue 65)
    (lambda r: r["plays"][0].update(verdict={"kind": {}, "low": 0, "high": 0}),
     "plays[0].verdict: must be {kind, low, high}"),
    (lambda r: r["plays"][0].update(verdict={"kind": [], "low": 0, "high": 0}),
     "plays[0].verdict: must be {kind, low, high}"),
], ids=["made-missing", "best-not-a-card", "best-empty", "seat-not-the-player", "too-many-plays",
        "start-value-missing", "verdict-kind-object", "verdict-kind-list"])
def test_an_analysis_that_does_not_fit_its_deal_is_said(tmp_path, change, says):
    """Each field the page reads is checked against the deal first: a line the batch never
    writes (a field missing, a best card not of the deck, a play said of another seat, more
    plays than cards played) is one line on stderr, not a traceback nor a page of it."""
    result = json.loads(SESSION[0])
    change(result)
    src = tmp_path / "one.jsonl"
    src.write_text(json.dumps(result) + "\n")
    r = _atout("report", str(src), "-o", str(tmp_path / "page.html"))
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert f"(line 1: {says}" in r.stderr, r.stderr
    assert not (tmp_path / "page.html").exists()


def test_the_header_names_the_file_not_its_folders(tmp_path, report):
    """The page is mailed: its header names the analyses' file by its name alone (the path
    as typed showed a local folder's name)."""
    folder = tmp_path / "private-folder"
    folder.mkdir()
    src = folder / "club.jsonl"
    src.write_bytes(SESSION[0] + b"\n")
    r = _atout("report", str(src), "-o", str(tmp_path / "page.html"))
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "page.html").read_text()
    assert "from club.jsonl" in text and "private-folder" not in text
    r = _atout("report", "private-folder/club.jsonl", "-o", "-", cwd=tmp_path)
    assert "from club.jsonl" in r.stdout and "private-folder" not in r.stdout


def test_a_page_path_that_is_no_regular_file_is_left_as_it_was(tmp_path, report):
    """-o naming a pipe or a folder is refused and left alone (the page was renamed onto it:
    a pipe became a file, and as root -o /dev/null replaced the device); a link is
    followed; a failed write leaves no temporary file behind."""
    import stat
    path, _, _ = report
    pipe, folder = tmp_path / "pipe", tmp_path / "folder"
    os.mkfifo(pipe)
    (folder / "x").mkdir(parents=True)
    for target in (pipe, folder):
        r = _atout("report", str(path.parent / "out.jsonl"), "-o", str(target))
        assert r.returncode == 2 and r.stderr == (f"atout: cannot write {target}: not a regular "
                                                  f"file (-o - writes the page to standard "
                                                  f"output)\n"), r.stderr
    assert stat.S_ISFIFO(os.stat(pipe).st_mode) and folder.is_dir()
    page, link = tmp_path / "page.html", tmp_path / "link.html"
    link.symlink_to(page)
    r = _atout("report", str(path.parent / "out.jsonl"), "-o", str(link))
    assert r.returncode == 0 and link.is_symlink(), r.stderr
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert not list(tmp_path.glob("*.atout-tmp"))


def test_boards_in_order_and_long_names_on_a_phone(browser, report, tmp_path):
    """Issue 56, problem 9: boards met in the order 10, 2, 1, B are listed 1 2 10 B; a long
    unbroken name does not widen the page past a phone's screen; a decisive card is said
    once (not again among the dearest mistakes)."""
    _, results, _ = report
    boards = {1: 10, 2: 10, 3: 2, 4: 2, 5: 1, 6: "B"}
    lines = []
    for r in results:
        if r["input_line"] in boards:
            r = json.loads(json.dumps(r))
            r["position"]["board"] = boards[r["input_line"]]
            if r["input_line"] == 5:
                r["position"]["players"] = ["Wolfgang" * 12] + r["position"]["players"][1:]
            lines.append(json.dumps(r))
    src = tmp_path / "out.jsonl"
    src.write_text("\n".join(lines) + "\n")
    page = tmp_path / "report.html"
    r = _atout("report", str(src), "-o", str(page))
    assert r.returncode == 0, r.stderr
    pg = _open(browser, page, PHONE)
    assert pg.locator("#boards nav a").all_inner_texts() == ["1", "2", "10", "B"]
    assert [h.split(" ")[1] for h in pg.locator("section.board h3").all_inner_texts()] == \
        ["1", "2", "10", "B"]
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for deal in pg.locator("article.deal").all():
        decisive = deal.locator("ul.decisive li").evaluate_all("li => li.map(l => l.dataset.index)")
        dearest = deal.locator("ul.mistakes li").evaluate_all("li => li.map(l => l.dataset.index)")
        assert not set(decisive) & set(dearest)
    assert pg.errors == []


def test_a_malformed_table_line_is_said_never_a_traceback(tmp_path):
    """`report --tables` reads every field of a table line it uses, of the type it uses it
    as: a line without ``game``, ``par: "x"``, a cell's ``made``, ``contract`` or ``seat``
    of another type (666 of 1,500 mutants tracebacked) is one problem, ``line N: field:
    reason``, and the page is still made."""
    import copy
    import io

    from atout.present.report import page, read_analyses
    from atout.present.report_tables import read_tables
    from atout.solver.contract_table import contract_table

    a4 = next(x for x in SESSION if json.loads(x).get("id") == "a4")
    position = json.loads(a4)["position"]
    table = contract_table(position, contracts=["piccolo", "bettler"], threads=1)
    table.update(position=position, input_line=1, cpu_seconds=0.0)
    session = read_analyses(io.BytesIO(a4))         # (its deal alone: a page in milliseconds)

    def paths(obj, where=()):
        if isinstance(obj, dict):
            items = obj.items()
        elif isinstance(obj, list):
            items = enumerate(obj)
        else:
            return
        for k, v in items:
            if where == () and k == "position":
                continue
            yield where + (k,)
            yield from paths(v, where + (k,))
    every = list(paths(table))
    rng = random.Random(65)
    values = [None, "x", 1, -1, 2.5, True, [], {}, [None], {"a": 1}, [1, 2]]
    mutants = [("game",), ("par",), ("cells", 0, "made"), ("cells", 1, "contract"),
               ("cells", 2, "seat")] + [rng.choice(every) for _ in range(150)]
    said = 0
    for n, path in enumerate(mutants):
        t = copy.deepcopy(table)
        holder = t
        for k in path[:-1]:
            holder = holder[k]
        if n % 5 == 4 and isinstance(holder, dict):
            del holder[path[-1]]
        else:
            holder[path[-1]] = "x" if n < 5 else rng.choice(values)
        tables = read_tables(io.BytesIO(json.dumps(t).encode() + b"\n"))
        html = page(session, tables=tables)          # never raises
        assert html.startswith("<!DOCTYPE html>")
        assert all(p.startswith("line 1: ") for p in tables.problems), tables.problems
        said += bool(tables.problems)
    assert said >= 5
    src = tmp_path / "out.jsonl"
    src.write_bytes(b"\n".join(SESSION) + b"\n")
    bad = tmp_path / "tables.jsonl"
    bad.write_text(json.dumps({**table, "par": "x"}) + "\n"
                   + json.dumps({k: v for k, v in table.items() if k != "game"}) + "\n")
    r = _atout("report", str(src), "-o", str(tmp_path / "page.html"), "--tables", str(bad))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"{bad}: line 1: par: must be an object" in r.stderr
    assert f"{bad}: line 2: game: must be the game of its deal (at4)" in r.stderr


def test_a_boards_table_names_the_players_and_reads_on_a_phone(browser, tmp_path):
    """``--tables``: the board's table and its bidding line name the players where the deal
    does (they named seats), a legend says what the numbers count, the talon's tarocks
    are in words (a "10" beside "J♠" read as a ten of spades); on a phone the table's
    first column stays in view while it scrolls, and no name in the players' tables
    breaks in the middle of a word (issue 65)."""
    from atout.solver.contract_table import contract_table

    p5 = next(json.loads(x) for x in SESSION if json.loads(x).get("id") == "p5")
    table = contract_table(p5["position"], time_limit=1, threads=1)
    table.update(position=p5["position"], input_line=1)
    src, tables, page = tmp_path / "out.jsonl", tmp_path / "tables.jsonl", tmp_path / "p.html"
    src.write_bytes(b"\n".join(SESSION) + b"\n")
    tables.write_text(json.dumps(table) + "\n")
    r = _atout("report", str(src), "-o", str(page), "--tables", str(tables))
    assert r.returncode == 0, r.stderr
    html = page.read_text()
    caller = p5["position"]["contract"]["caller"]
    names = [n or f"seat {s}" for s, n in enumerate(p5["position"]["players"])]
    assert "<th>Anne</th>" in html and "<th>with Anne</th>" in html
    assert f"Bidding: Chiamo by {names[caller]}: " in html
    assert "Numbers: the caller&#x27;s party&#x27;s card points" in html
    for trump in re.findall(r'<div class="outside">.*?</div>', html):
        assert not re.search(r'title="[^"]*">\d+</span>', trump), trump
    pg = _open(browser, page, PHONE)
    box = pg.locator("table.ctable").first.locator("xpath=..")
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    first = pg.locator("table.ctable tbody th").first.bounding_box()
    assert first["x"] >= box.bounding_box()["x"] - 1 and first["width"] > 40
    lines = pg.eval_on_selector_all("table.players td:first-child", """tds => tds.map(td => {
        const r = document.createRange(); r.selectNodeContents(td);
        return [td.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size]; })""")
    assert lines and all(n == 1 for name, n in lines if " " not in name), lines
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert pg.errors == []
