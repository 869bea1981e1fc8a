"""The hand viewer in a real browser: Playwright driving the operating system's Chromium
(nothing downloaded), against `atout view` on 127.0.0.1.

Loads a played deal of every game, steps card by card and trick by trick (keys, buttons,
slider), reads the values drawn on the cards against `atout solve --all` and the analysis
against `atout analyze`, plays a what-if card and goes back, pastes bad input and reads the
message, keeps stepping while a slow search runs; then what a player finds: links that
survive a reload, the table turning each game's way, the result at the end of the deal, the
tricks played, the chart's scale, cards named with their suit symbols, and the page on a
phone (390 × 844).  A screenshot of each game's table, on a desktop and on a phone, is saved
in the test's temporary directory (and in $ATOUT_SCREENSHOTS when set).

Skipped, saying why, when Chromium or the playwright package is missing:
`apt-get install chromium` (Debian/Ubuntu) and `pip install -e '.[test]'`.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import random

import atout
from atout.cards import token
from atout.solver import solve

from deals import play_out, random_endgame

CHROMIUM = next((p for p in (os.environ.get("ATOUT_CHROMIUM"), "/usr/bin/chromium",
                             shutil.which("chromium"), shutil.which("chromium-browser"))
                 if p and os.path.exists(p)), None)
if CHROMIUM is None:
    pytest.skip("no Chromium found (/usr/bin/chromium): install it with "
                "`apt-get install chromium` to run the browser tests", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the playwright package is missing: pip install -e '.[test]'")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DATA = Path(__file__).resolve().parent / "data"
PLAYED = [json.loads(line) for line in (DATA / "played.jsonl").read_text().splitlines()]
GAMES = {d["game"]: i for i, d in reversed(list(enumerate(PLAYED)))}   # first deal of each game
TT_MB = 16
# the tricks the tests have the page analyse exactly (its default is the whole deal, within
# the time limit: the French and Priestertarock ones bounded, not exact)
LAST_TRICKS = {"fr4": 8, "fr3": 10, "fr5": 8, "priest5": 8, "at4": 12}
# after the played deals, the file `atout view` is given holds a deal with no card played
# and a puzzle: a deal played until five tricks are left, as `atout deal --tricks-left 5`
FRESH = {**PLAYED[0], "id": "fr4-no-card-played", "played": []}
PUZZLE = {**PLAYED[0], "id": "fr4-five-tricks-left", "played": PLAYED[0]["played"][:52]}
FRESH_INDEX, PUZZLE_INDEX = len(PLAYED), len(PLAYED) + 1


def _decisive_deal() -> tuple[dict, int]:
    """A deal whose last six tricks hold decisive cards (a random endgame played out at
    random: the contract changes hands three times): (deal, where the six tricks start)."""
    rng = random.Random("decisive-27")
    obj = random_endgame(rng, "fr4", 6)
    pos = atout.position.parse_position(obj)
    start = len(pos.played)
    play_out(rng, pos, 6 * 4)
    return {**obj, "id": "fr4-decisive", "played": [token(c) for c in pos.played]}, start


DECISIVE, DECISIVE_START = _decisive_deal()
DECISIVE_INDEX = len(PLAYED) + 2
# the sizes the page is tried at (and its screenshots kept at): two desktops, a phone
DESKTOP, LAPTOP, PHONE = ({"width": 1400, "height": 900}, {"width": 1280, "height": 720},
                          {"width": 390, "height": 844})
# a line of the file `atout view` is given that the rules refuse: said on the page too
REFUSED_LINE = '{"game": "fr4", "first": 0}\n'
# the file's card codes, which a sentence on the page never shows (it writes J♥, 21 atout)
RAW_CARD = r"\b(?:T\d{1,2}|EX|(?:10|[1-9JNQK])[SHDC])\b"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("view")
    deals = tmp / "deals.jsonl"
    deals.write_text("".join(json.dumps(d) + "\n" for d in PLAYED + [FRESH, PUZZLE, DECISIVE])
                     + REFUSED_LINE)
    log_path = tmp / "view.log"
    log = open(log_path, "w")
    proc = subprocess.Popen([sys.executable, "-m", "atout.client.cli", "view",
                             str(deals), "--port", "0", "--no-open",
                             "--workers", "2", "--tt-mb", str(TT_MB)],
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while "http://" not in log_path.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("atout view did not start:\n" + log_path.read_text())
        time.sleep(0.05)
    url = "http://" + log_path.read_text().split("http://", 1)[1].split()[0].split("#")[0]
    yield url
    proc.send_signal(signal.SIGINT)
    assert proc.wait(30) == 0
    log.close()
    assert "Traceback" not in log_path.read_text()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


# the page analyses the whole deal within its time limit: 5 s keeps each page's search short
# (a test that chooses another limit keeps it, as the page does)
SHORT_REVIEW = ("try { if (!localStorage.getItem('atout-analysis-limit')) "
                "localStorage.setItem('atout-analysis-limit', '5'); } catch (e) {}")


def new_page(browser, server, viewport):
    # bypass_csp: Playwright evaluates its waits as strings, which the page's CSP forbids
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    pg = context.new_page()
    pg.errors = []
    # the message and where in the page's code it was raised: a rare race is then findable
    pg.on("pageerror", lambda e: pg.errors.append(f"{e}\n{e.stack or ''}"))
    pg.on("request", lambda r: pg.errors.append("outside request " + r.url)
          if not r.url.startswith(server) and not r.url.startswith("data:") else None)
    # nothing in the console either: not even the "Failed to load resource" of a 4xx answer
    pg.on("console", lambda m: pg.errors.append(f"console {m.type}: {m.text}")
          if m.type in ("error", "warning") else None)
    pg.base = server
    context.add_init_script(SHORT_REVIEW)
    return context, pg


@pytest.fixture
def page(browser, server):
    context, pg = new_page(browser, server, DESKTOP)
    yield pg
    context.close()
    assert not pg.errors


@pytest.fixture
def phone(browser, server):
    context, pg = new_page(browser, server, PHONE)
    yield pg
    context.close()
    assert not pg.errors


def position(deal: dict, cards: int) -> dict:
    return {**deal, "played": deal["played"][:cards]}


def open_deal(page, index: int, card: int) -> None:
    page.goto(f"{page.base}#deal={index}&card={card}")
    wait_card(page, card)


def analyse_from(page, start: int) -> dict:
    """Choose where the page's analysis starts, start it and wait for it: its answer."""
    page.select_option("#analysis-start", str(start))
    page.click("#analyse")
    page.wait_for_function("n => state.analysis && state.analysis.start === n && !state.analysing",
                           arg=start, timeout=60000)
    page.wait_for_selector("#seat-costs tr[data-seat]")
    return page.evaluate("state.analysis")


def wait_card(page, card: int) -> None:
    page.wait_for_function("n => document.getElementById('slider').value == String(n) && "
                           "document.getElementById('table').dataset.shown === String(n)",
                           arg=card)


def wait_solved(page, cards: int) -> dict:
    """The value and per-card numbers the page shows, once the search has answered."""
    page.wait_for_function("n => { const d = document.getElementById('dd-value').dataset; "
                           "return d.played === String(n) && (d.value || d.low); }",
                           arg=cards, timeout=30000)
    value_el = page.locator("#dd-value")
    shown = {"value": value_el.get_attribute("data-value"),
             "text": value_el.inner_text().strip(), "cards": {}}
    if shown["value"]:
        page.wait_for_selector(".card.legal[data-value]")
    for card in page.locator(".card.legal[data-value]").all():
        badge = card.locator("xpath=following-sibling::span[contains(@class,'badge')]")
        shown["cards"][card.get_attribute("data-card")] = {
            "value": int(card.get_attribute("data-value")),
            "cost": int(card.get_attribute("data-cost")),
            "badge": badge.inner_text().split("\n"),
            "level": badge.get_attribute("class").split()[1],
        }
    return shown


def check_against_solve(page, deal: dict, cards: int) -> dict:
    shown = wait_solved(page, cards)
    obj = position(deal, cards)
    r = solve(obj, all_cards=True, tt_mb=TT_MB)
    pos = atout.position.parse_position(obj)
    maximizing = pos.contract.camp[pos.to_play] == pos.contract.maximizer
    assert int(shown["value"]) == r.value
    assert shown["text"] == value_text(deal["game"], r.value)
    assert {c: s["value"] for c, s in shown["cards"].items()} == r.cards
    for card, s in shown["cards"].items():
        cost = (r.value - r.cards[card]) if maximizing else (r.cards[card] - r.value)
        assert s["cost"] == cost
        assert s["badge"] == [value_text(deal["game"], r.cards[card]),
                              "✓ best" if cost == 0 else f"−{cost}"]
        assert (s["level"] == "optimal") == (card in r.best)
    return shown


def value_text(game: str, v: int) -> str:
    """A gain or loss is signed (+60); Austrian Tarock's points are not (49 of 106)."""
    return f"+{v}" if v > 0 and game != "at4" else str(v)


# what must be on the screen without scrolling on a desktop: every hand of the table, the
# step buttons and slider, the lists and buttons above the table and the review's controls
ON_ONE_SCREEN = ("#table .seat, #table .card, header button, header select, .controls button, "
                 "#slider, #solve-limit, #analysis-start, #analysis-limit, #analyse")


def assert_on_one_screen(page) -> None:
    """Every control and every hand of the table inside the window, the page not scrolled."""
    out = page.evaluate("""sel => {
        const w = innerWidth, h = innerHeight;
        return [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length)
          .map(e => { const r = e.getBoundingClientRect();
                      return {what: e.id || e.className || e.tagName, top: r.top, bottom: r.bottom,
                              left: r.left, right: r.right, w, h, y: scrollY}; })
          .filter(r => r.top < 0 || r.left < 0 || r.bottom > r.h || r.right > r.w || r.y); }""",
                        ON_ONE_SCREEN)
    assert out == [], out[:5]


def keep_screenshot(page, tmp_path, name: str, full_page: bool = True) -> None:
    shot = tmp_path / name
    page.screenshot(path=str(shot), full_page=full_page)
    if os.environ.get("ATOUT_SCREENSHOTS"):
        Path(os.environ["ATOUT_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(os.environ["ATOUT_SCREENSHOTS"]) / shot.name)


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5", "at4"])
def test_step_through_a_deal_and_read_the_values(page, game, tmp_path):
    index = GAMES[game]
    deal = PLAYED[index]
    seats = len(deal["hands"])
    k = len(deal["played"]) - 3 * seats + 1      # three tricks from the end, second card
    open_deal(page, index, k)
    check_against_solve(page, deal, k)
    page.click("#review-start")                                         # the review, asked for
    page.wait_for_selector("#seat-costs tr[data-seat]", timeout=60000)
    assert_on_one_screen(page)
    keep_screenshot(page, tmp_path, f"viewer-{game}-1400x900.png", full_page=False)
    page.set_viewport_size(LAPTOP)
    page.wait_for_function("w => innerWidth === w", arg=LAPTOP["width"])
    assert_on_one_screen(page)
    keep_screenshot(page, tmp_path, f"viewer-{game}-1280x720.png", full_page=False)
    page.set_viewport_size(DESKTOP)

    page.keyboard.press("ArrowRight")               # one card forward
    wait_card(page, k + 1)
    check_against_solve(page, deal, k + 1)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")               # two back
    wait_card(page, k - 1)
    check_against_solve(page, deal, k - 1)
    page.click("#trick-next")                       # to the next trick's start
    wait_card(page, k - 1 + seats - (k - 1) % seats)
    page.keyboard.press("ArrowUp")                  # back to this trick's start
    wait_card(page, k - 1 - (k - 1) % seats)
    page.click("#to-end")
    wait_card(page, len(deal["played"]))
    assert "over" in page.inner_text(".centre")
    page.fill("#slider", str(k))                    # the slider
    page.dispatch_event("#slider", "input")
    wait_card(page, k)
    check_against_solve(page, deal, k)


@pytest.mark.parametrize("game", ["fr4", "at4"])
def test_the_analysis_shown_is_atout_analyze(page, game):
    index = GAMES[game]
    deal = PLAYED[index]
    open_deal(page, index, 0)
    start = max(0, (len(deal["hands"][0]) - LAST_TRICKS[game]) * len(deal["hands"]))
    analyse_from(page, start)
    report = atout.analyze(deal, start=start, tt_mb=TT_MB)
    rows = page.locator("#seat-costs tr[data-seat]").all()
    shown = [[int(x) for x in row.inner_text().split("\t")[2:5]] for row in rows]
    assert shown == [[s["cards"], s["mistakes"], s["cost"]] for s in report["seats"]]
    mistakes = [p for p in report["plays"] if p["cost"] > 0]
    items = page.locator("li.mistake").all()
    assert [int(i.get_attribute("data-index")) for i in items] == [p["index"] for p in mistakes]
    assert [int(i.locator(".cost").inner_text()) for i in items] == [p["cost"] for p in mistakes]
    assert page.locator("#chart circle.dot").count() == len(report["plays"]) + 1
    if mistakes:
        worst = max(mistakes, key=lambda p: p["cost"])
        assert f"(−{worst['cost']})" in page.inner_text("#chart")
        items[0].click()                           # to the position before the mistake
        wait_card(page, mistakes[0]["index"])
        check_against_solve(page, deal, mistakes[0]["index"])


def test_what_if_and_back_to_the_real_play(page):
    index = GAMES["fr3"]
    deal = PLAYED[index]
    k = len(deal["played"]) - 4 * 3
    open_deal(page, index, k)
    shown = check_against_solve(page, deal, k)
    real = deal["played"][k]
    other = next(c for c in shown["cards"] if c != real)
    page.click(f".card.legal[data-card='{other}']")
    wait_card(page, k + 1)
    assert page.is_visible("#whatif")
    line = deal["played"][:k] + [other]
    r = solve({**deal, "played": line}, all_cards=True, tt_mb=TT_MB)
    shown = wait_solved(page, k + 1)
    assert int(shown["value"]) == r.value
    assert {c: s["value"] for c, s in shown["cards"].items()} == r.cards
    # the analysis follows the what-if line
    page.wait_for_function("document.getElementById('analysis-status').textContent"
                           ".includes('what-if')", timeout=30000)
    # stepping on at the end of a what-if line plays a best card
    page.keyboard.press("ArrowRight")
    wait_card(page, k + 2)
    played = page.evaluate("state.line[state.line.length - 1]")
    assert played in r.best
    page.click("#back-to-real")
    wait_card(page, k)
    assert not page.is_visible("#whatif")
    check_against_solve(page, deal, k)
    assert page.get_attribute(".card.next-played", "data-card") == real


def test_bad_input_shows_the_field_and_the_reason(page):
    page.goto(page.base)
    wait_card(page, 0)
    page.click("#toggle-input")
    bad = json.loads(json.dumps(PLAYED[0]))
    bad["hands"][1][3] = "ZZ"
    page.fill("#paste", json.dumps(bad))
    page.click("#load-paste")
    page.wait_for_selector("#input-error:not([hidden])")
    assert "hands[1][3]" in page.inner_text("#input-error")
    assert "ZZ" in page.inner_text("#input-error")
    page.fill("#paste", '{"game": "fr4", ')
    page.click("#load-paste")
    page.wait_for_function("document.getElementById('input-error').textContent.includes('json')")
    # a good one is shown
    good = position(PLAYED[GAMES["priest5"]], len(PLAYED[GAMES["priest5"]]["played"]) - 10)
    page.fill("#paste", json.dumps(good))
    page.click("#load-paste")
    page.wait_for_selector("#input-error", state="hidden")
    page.wait_for_function("document.getElementById('contract').textContent.includes('Priester')")
    assert "pasted" in groups(page)
    # a file with a bad line: the good one is shown, the bad one named by its line
    page.set_input_files("#file-input", files=[{
        "name": "mine.jsonl", "mimeType": "application/json",
        "buffer": (json.dumps(PLAYED[GAMES["at4"]]) + "\n" + '{"game": "at4"}\n').encode()}])
    page.wait_for_function("document.getElementById('input-error').textContent.includes('line 2')")
    assert "hands: is missing" in page.inner_text("#input-error")
    assert "mine.jsonl" in groups(page)
    page.wait_for_function("document.getElementById('contract').textContent.includes('Austrian')")


def groups(page) -> list[str]:
    return page.eval_on_selector_all("#deal-select optgroup", "els => els.map(e => e.label)")


def test_a_slow_search_never_freezes_the_page(page):
    index = GAMES["fr4"]
    page.goto(f"{page.base}#deal={index}&card=0")
    wait_card(page, 0)
    page.select_option("#solve-limit", "2")
    page.wait_for_selector("#dd-value .searching")
    page.keyboard.press("ArrowRight")               # stepping on while it searches
    wait_card(page, 1)
    assert "card 1 of" in page.inner_text("#where")
    page.wait_for_selector("#dd-value .searching")
    wait_solved(page, 1)
    low = int(page.get_attribute("#dd-value", "data-low"))
    high = int(page.get_attribute("#dd-value", "data-high"))
    assert low <= high
    assert "Not solved" in page.inner_text("#dd-status")
    assert f"at least {low:+d}".replace("+0", "0") in page.inner_text("#dd-status")


# -- what a player finds (issue 36) ------------------------------------------------------------

def link(page) -> dict:
    return dict(x.split("=", 1) for x in page.evaluate("location.hash").lstrip("#").split("&"))


def test_a_what_if_link_survives_a_reload_and_a_share(page, browser, server):
    index = GAMES["fr3"]
    deal = PLAYED[index]
    k = len(deal["played"]) - 4 * 3
    open_deal(page, index, k)
    shown = check_against_solve(page, deal, k)
    other = next(c for c in shown["cards"] if c != deal["played"][k])
    page.click(f".card.legal[data-card='{other}']")
    wait_card(page, k + 1)
    assert link(page) == {"deal": str(index), "card": str(k + 1), "from": str(k),
                          "whatif": other}
    wait_solved(page, k + 1)
    page.keyboard.press("ArrowRight")               # a best card on: the link grows
    wait_card(page, k + 2)
    line = page.evaluate("state.line.slice()")
    page.keyboard.press("ArrowLeft")                # the card shown inside the what-if line
    wait_card(page, k + 1)
    page.reload()
    wait_card(page, k + 1)
    assert page.evaluate("state.line.slice()") == line
    assert page.is_visible("#whatif") and "link" not in page.inner_text("#notice")
    # shared: another browser opens the link; an older link without `from` still works
    context, other_page = new_page(browser, server, DESKTOP)
    other_page.goto(f"{server}#deal={index}&card={k + 1}&whatif={other}")
    wait_card(other_page, k + 1)
    assert other_page.evaluate("state.line.slice()") == deal["played"][:k] + [other]
    # on a deal with no card played
    first = sorted(atout.cards.tokens(atout.position.parse_position(FRESH).legal_cards()))[0]
    other_page.goto("about:blank")
    other_page.goto(f"{server}#deal={FRESH_INDEX}&card=1&whatif={first}")
    wait_card(other_page, 1)
    assert other_page.evaluate("state.line.slice()") == [first]
    assert other_page.is_visible("#whatif")
    # a line the rules refuse, pasted into the page's address bar: said, and the real play
    # shown where the line would leave it
    other_page.goto(f"{server}#deal={index}&card={k + 1}&from={k}&whatif=ZZ")
    other_page.wait_for_selector("#notice:not([hidden])")
    assert "could not be played" in other_page.inner_text("#notice")
    wait_card(other_page, k)
    assert not other_page.is_visible("#whatif") and other_page.locator("#table .seat").count() == 3
    context.close()
    assert not other_page.errors


def test_the_refused_lines_of_a_file_are_shown(page):
    page.goto(page.base)
    wait_card(page, 0)
    page.click("#toggle-input")
    duplicate = json.loads(json.dumps(PLAYED[GAMES["fr3"]]))
    duplicate["hands"][0][0] = duplicate["hands"][1][0]
    lines = [json.dumps(duplicate), json.dumps(PLAYED[GAMES["priest5"]]), '{"game": "fr4", ']
    page.set_input_files("#file-input", files=[{
        "name": "three.jsonl", "mimeType": "application/json",
        "buffer": ("\n".join(lines) + "\n").encode()}])
    page.wait_for_function("document.getElementById('contract').textContent.includes('Priester')")
    assert page.is_visible("#input-error")
    shown = page.inner_text("#input-error")
    assert "line 1: hands" in shown and "line 3: json" in shown and "line 2" not in shown
    assert "three.jsonl" in groups(page)


def test_a_deal_with_no_card_played_starts_no_analysis(page):
    analyses = []
    page.on("request", lambda r: analyses.append(r.url) if "/api/analyze" in r.url else None)
    open_deal(page, FRESH_INDEX, 0)
    page.wait_for_function("document.getElementById('analysis-status').textContent"
                           ".includes('nothing to analyse')")
    page.click("#analyse")                          # asked again: still nothing to search
    assert "nothing to analyse" in page.inner_text("#analysis-status")
    assert not analyses and page.locator("#chart svg").count() == 0


def test_a_puzzle_opens_at_the_puzzle(page):
    page.goto(f"{page.base}#deal={PUZZLE_INDEX}")
    wait_card(page, 52)
    assert all(len(hand) == 5 for hand in page.evaluate("state.table.hands"))
    check_against_solve(page, PUZZLE, 52)
    page.select_option("#deal-select", str(GAMES["fr3"]))   # a finished deal: its first card
    wait_card(page, 0)


def test_arrow_keys_step_the_play_after_the_deal_list(page):
    open_deal(page, GAMES["fr4"], 0)
    index = GAMES["fr3"]
    page.click("#deal-select")
    page.select_option("#deal-select", str(index))          # chosen with the mouse
    wait_card(page, 0)
    page.keyboard.press("ArrowRight")
    wait_card(page, 1)
    page.keyboard.press("ArrowDown")
    wait_card(page, 3)
    page.focus("#deal-select")                               # the list reached with the keys
    page.keyboard.press("ArrowRight")
    wait_card(page, 4)
    assert page.input_value("#deal-select") == str(index)
    assert page.evaluate("state.dealIndex") == index


def test_the_chart_shows_what_a_mistake_costs(page):
    index = GAMES["fr3"]
    deal = PLAYED[index]
    open_deal(page, index, 0)
    report = analyse_from(page, (24 - LAST_TRICKS["fr3"]) * 3)
    page.wait_for_selector("#chart svg")
    worst = max(report["plays"], key=lambda p: p["cost"])
    assert 0 < worst["cost"] <= 5                  # the example's costliest card: a small loss
    # a small loss is a small step: at most its share of a 25-point span (a prise's value
    # jumps by 50 across the line where the contract is decided), not the chart's height
    step, height = page.evaluate("""(() => {
        const dots = [...document.querySelectorAll('#chart circle.dot')];
        const i = %d;                         // the dot after the costliest card
        return [Math.abs(dots[i].cy.baseVal.value - dots[i - 1].cy.baseVal.value),
                document.querySelector('#chart rect.plot').height.baseVal.value]; })()"""
                                 % (report["plays"].index(worst) + 1))
    assert 0 < step / height <= worst["cost"] / 25
    chart = page.locator("#chart svg")
    lo, hi = float(chart.get_attribute("data-lo")), float(chart.get_attribute("data-hi"))
    # the line where the contract is decided is on the chart
    assert lo <= 0 <= hi and hi - lo >= 25
    assert page.locator("#chart line.decide[data-value='0']").count() == 1
    ticks = page.locator("#chart text.tick").evaluate_all("els => els.map(e => e.textContent)")
    assert len(ticks) >= 4 and "0" in ticks
    text = page.inner_text("#chart")
    assert "better for the taker's camp" in text and "better for the defence" in text
    note = page.locator("#chart .chart-note")
    assert "small" in note.get_attribute("class") and "lost here" not in text
    assert f"(−{worst['cost']})" in note.inner_text()


def test_a_whole_deal_gets_an_answer(page):
    """The page's default: the whole deal, every card judged within the time limit — the
    last cards exact, the others' values drawn as bands of what is proven; and a position
    the search does not solve says whether the contract is made, or that it is open."""
    index = GAMES["fr4"]
    page.context.add_init_script("try { localStorage.setItem('atout-solve-limit', '2'); } catch (e) {}")
    open_deal(page, index, 0)
    page.click("#review-start")
    page.wait_for_function("state.analysis && !state.analysing", timeout=60000)
    a = page.evaluate("state.analysis")
    assert a["start"] == 0 and a["status"] == "limit" and len(a["plays"]) == 72
    values = [a["start_value"]] + [p["value_after"] for p in a["plays"]]
    bounded = sum(v is None for v in values)
    assert bounded and a["plays"][-1]["value_after"] is not None
    assert page.locator("#chart rect.band").count() == bounded
    assert page.locator("#chart circle.dot").count() == len(values) - bounded
    assert "not judged" in page.inner_text("#analysis-status")
    # what each seat is proven to have given away, never a sum of upper bounds
    costs = page.locator("#seat-costs tr[data-seat] td.cost").all_inner_texts()
    assert costs == [f"at least {s['at_least']} ({s['not_judged']} not judged)" for s in a["seats"]]
    shown = wait_solved(page, 0)
    box = page.locator("#dd-value")
    if not shown["value"]:                       # not solved in 2 s: what is proven
        made = box.get_attribute("data-made")
        word = {"made": "made", "down": "down", "open": "open"}[made]
        assert word in page.inner_text("#dd-value")
        if made == "down":
            assert int(box.get_attribute("data-high")) < 1
        if made == "made":
            assert int(box.get_attribute("data-low")) >= 1


def test_the_review_draws_verdicts_as_found_stops_and_keeps_going(page):
    """A whole deal's review: verdicts drawn (chart, bar of the cards judged) while the
    server still searches, from the end of the deal back; Stop keeps what was found; "Keep
    going" goes on with the same analysis on the server (its session), every card's cost
    range the same or narrower."""
    page.context.add_init_script("localStorage.setItem('atout-analysis-limit', '10')")
    requests = []
    page.on("request", lambda r: requests.append(json.loads(r.post_data))
            if r.url.endswith("/api/analyze/stream") else None)
    open_deal(page, GAMES["fr4"], 0)
    page.click("#review-start")
    page.wait_for_function("state.analysing && state.analysis && state.analysis.plays.length === 72 "
                           "&& document.querySelectorAll('#chart circle.dot').length > 1",
                           timeout=60000)
    assert page.is_visible("#analysis-progress") and page.is_visible("#analysis-stop")
    judged = page.evaluate("state.analysis.plays.filter(p => p.cost !== null).map(p => p.index)")
    assert judged and max(judged) == 71               # the end of the deal first
    page.click("#analysis-stop")
    page.wait_for_function("state.analysing === null")
    kept = page.evaluate("state.analysis")
    assert len(kept["plays"]) == 72 and kept["stopped_by"] == "cancel"
    assert "before you stopped it" in page.inner_text("#analysis-status")
    assert page.is_visible("#keep-going") and not page.is_visible("#analysis-stop")
    session = page.evaluate("state.analysisSession")
    page.click("#keep-going")
    page.wait_for_function("state.analysing === null && state.analysis.status !== 'running'",
                           timeout=90000)
    assert requests[-1].get("session") == session and "session" not in requests[0]
    after = page.evaluate("state.analysis")

    def cost_range(p):
        return (p["cost"], p["cost"]) if p["cost"] is not None else tuple(p["cost_bounds"])
    for a, b in zip(kept["plays"], after["plays"]):
        (a0, a1), (b0, b1) = cost_range(a), cost_range(b)
        assert a0 <= b0 and b1 <= a1, (a, b)


def test_decisive_cards_are_marked(page):
    report = atout.analyze(DECISIVE, start=DECISIVE_START, tt_mb=TT_MB)
    decisive = [p["index"] for p in report["plays"] if p["decisive"]]
    assert decisive
    open_deal(page, DECISIVE_INDEX, DECISIVE_START)
    analyse_from(page, DECISIVE_START)
    marks = page.locator("#chart polygon.decisive").evaluate_all(
        "els => els.map(e => Number(e.dataset.index))")
    assert marks == decisive
    items = page.locator("li.mistake.decisive").all()
    assert [int(i.get_attribute("data-index")) for i in items] == decisive
    assert all("decisive" in i.inner_text() for i in items)


def test_cards_are_named_as_a_player_writes_them(page):
    index = GAMES["fr4"]
    deal = PLAYED[index]
    open_deal(page, index, 40)
    check_against_solve(page, deal, 40)
    page.click("#review-start")
    page.wait_for_selector("#chart svg")
    page.click(".card.legal:not(.next-played)")    # a what-if: its banner names the real card
    wait_card(page, 41)
    page.wait_for_selector("#whatif:not([hidden])")
    wait_solved(page, 41)
    sentences = page.evaluate("[...document.querySelectorAll('#dd-status, #whatif-text, #chart, "
                              "#mistakes, #tricks, .centre')].map(e => e.textContent).join(' | ')")
    titles = page.evaluate("[...document.querySelectorAll('#chart title')]"
                           ".map(e => e.textContent).join(' | ')")
    assert "Best for seat" in sentences and "One best line" in sentences
    assert re.findall(RAW_CARD, sentences + titles) == []
    assert "♥" in sentences or "♦" in sentences


def seat_centres(page) -> list[tuple[float, float]]:
    # one evaluate, where the page cannot redraw between finding the seats and measuring them
    boxes = page.evaluate(
        "[...document.querySelectorAll('#table .seat')].map(e => { "
        "const r = e.getBoundingClientRect(); "
        "return [Number(e.dataset.seat), r.x + r.width / 2, r.y + r.height / 2]; })")
    return [(x, y) for _, x, y in sorted(boxes)]


def turning(page) -> str:
    """Which way seat 0, 1, 2, … go round the table as drawn (screen y grows downwards)."""
    centres = seat_centres(page)
    cx = sum(x for x, _ in centres) / len(centres)
    cy = sum(y for _, y in centres) / len(centres)
    angles = [math.atan2(cy - y, x - cx) for x, y in centres]
    n = len(angles)
    turn = sum((angles[(i + 1) % n] - angles[i] + math.pi) % (2 * math.pi) - math.pi
               for i in range(n))
    assert abs(abs(turn) - 2 * math.pi) < 0.01, centres   # once round the table
    return "anticlockwise" if turn > 0 else "clockwise"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_table_turns_the_games_way(browser, server, size):
    # French Tarot "gegen den Uhrzeigersinn", Priestertarock "links herum", Austrian Tarock
    # anticlockwise: seat i+1 plays after seat i
    context, pg = new_page(browser, server, DESKTOP if size == "desktop" else PHONE)
    drawn = {}
    for game, index in GAMES.items():
        deal = PLAYED[index]
        k = len(deal["played"]) - 2 * len(deal["hands"])   # quick to solve
        pg.goto("about:blank")                              # each game a fresh load
        open_deal(pg, index, k)
        wait_solved(pg, k)                                  # the table drawn for the last time
        drawn[game] = turning(pg)
    context.close()
    assert not pg.errors
    assert drawn == {"fr4": "anticlockwise", "fr3": "anticlockwise", "fr5": "anticlockwise",
                     "priest5": "clockwise", "at4": "anticlockwise"}


def test_the_end_of_the_deal_says_who_won_and_by_how_much(page):
    deal = PLAYED[GAMES["fr4"]]
    open_deal(page, GAMES["fr4"], len(deal["played"]))
    result = page.inner_text(".outcome")
    assert "Garde contre by seat 3 failed by 9" in result
    assert "took 32 points, 41 needed with 2 bouts" in result
    rows = [r.split("\t") for r in page.locator(".outcome tr[data-seat]").all_inner_texts()]
    assert rows == [["Seat 0", "defender", "+204"], ["Seat 1", "defender", "+204"],
                    ["Seat 2", "defender", "+204"], ["Seat 3", "taker", "-612"]]
    at4 = next(i for i, d in enumerate(PLAYED) if d["contract"].get("bid") == "farbendreier")
    open_deal(page, at4, 48)
    result = page.inner_text(".outcome")
    # (its declarer's discard as the seed lays it away since issue 65: 45, not 49)
    assert "Farbendreier by seat" in result and "lost by 9" in result
    assert "45 of 106 points, 54 needed" in result
    assert "+45" not in result and page.inner_text("#dd-value").strip() == "45"
    assert "lost" in page.get_attribute(".outcome", "class")


def test_the_tricks_played_so_far_are_listed(page):
    index = GAMES["fr5"]
    deal = PLAYED[index]
    k = 17                                          # three tricks, and two cards of the fourth
    open_deal(page, index, k)
    pos = atout.position.parse_position(position(deal, k))
    rows = page.locator("#tricks tr.trick-row").all()
    assert len(rows) == 4 and "current" in rows[3].get_attribute("class")
    for row, trick in zip(rows, pos.tricks):
        cards = row.locator("td .token").evaluate_all("els => els.map(e => e.dataset.card)")
        by_seat = dict((seat, atout.cards.token(c)) for seat, c in trick.cards)
        assert cards == [by_seat[s] for s in range(5)]
        assert row.locator("td.won .token").get_attribute("data-card") == by_seat[trick.winner]
        assert row.locator("td.lead .token").get_attribute("data-card") == \
            atout.cards.token(trick.cards[0][1])
    rows[1].click()                                 # the table after trick 2
    wait_card(page, 10)
    assert page.locator("#tricks tr.trick-row").count() == 2


def test_no_console_error_and_the_time_limits_are_kept(page):
    page.goto(page.base)
    wait_card(page, 0)
    page.click("#toggle-input")
    bad = json.loads(json.dumps(PLAYED[0]))
    bad["hands"][1][3] = "ZZ"
    page.fill("#paste", json.dumps(bad))
    page.click("#load-paste")
    page.wait_for_selector("#input-error:not([hidden])")
    assert "hands[1][3]" in page.inner_text("#input-error")
    page.select_option("#solve-limit", "15")
    page.select_option("#analysis-limit", "120")
    page.reload()
    wait_card(page, 0)
    assert page.input_value("#solve-limit") == "15"
    assert page.input_value("#analysis-limit") == "120"
    assert not page.errors                          # the refused paste left nothing there


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5", "at4"])
def test_the_page_on_a_phone(phone, game, tmp_path):
    index = GAMES[game]
    deal = PLAYED[index]
    seats_n = len(deal["hands"])
    # three tricks from the end, as the desktop screenshots; fr3 at its first card, the
    # fullest hands of all (24 cards each)
    k = 0 if game == "fr3" else len(deal["played"]) - 3 * seats_n + 1
    if not k:                                       # bounds after 2 s rather than 5 will do
        phone.context.add_init_script("localStorage.setItem('atout-solve-limit', '2')")
    open_deal(phone, index, k)
    wait_solved(phone, k)
    phone.click("#review-start")
    phone.wait_for_selector("#chart svg", timeout=60000)
    phone.evaluate("window.scrollTo(0, 0)")
    keep_screenshot(phone, tmp_path, f"viewer-{game}-390x844.png", full_page=False)
    width = PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= width   # no sideways scroll
    # the header's lists show their whole choice (the view's "every hand open" was cut); the
    # text, its padding and the list's arrow (about 30 px) within the list's width
    for list_id in ("deal-select", "view-seat"):
        room, text = phone.evaluate("""id => { const s = document.getElementById(id);
            const c = document.createElement('canvas').getContext('2d');
            c.font = getComputedStyle(s).font;
            return [s.clientWidth, c.measureText(s.options[s.selectedIndex].text).width]; }""",
                                    list_id)
        assert text + 30 <= room, (list_id, text, room)
    # every control on the screen and the one under a tap: buttons, lists, the slider, the
    # lit cards, the file input once opened
    phone.click("#toggle-input")
    controls = phone.evaluate("""[...document.querySelectorAll(
        'button, select, input, .card.legal')].filter(e => e.getClientRects().length).map(e => {
          e.scrollIntoView({block: 'center'});
          const r = e.getBoundingClientRect();
          const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return {left: r.left, right: r.right, html: e.outerHTML.slice(0, 80),
                  tapped: e === hit || e.contains(hit) || [...(e.labels || [])].includes(hit)};
        })""")
    assert len(controls) >= 12
    for where in controls:
        assert where["left"] >= 0 and where["right"] <= width and where["tapped"], where
    # each seat's name and role whole inside it; side hands several cards a row (measured in
    # one evaluate, where the page cannot redraw in between)
    seats = phone.evaluate("""[...document.querySelectorAll('#table .seat')].map(seat => {
        const box = seat.getBoundingClientRect();
        return {
          heads: [...seat.querySelectorAll('.seat-name, .role')].map(e => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && box.left <= r.left && r.right <= box.right; }),
          rows: [...seat.querySelectorAll('.suit-row')].map(row =>
            [...row.querySelectorAll('.card')].map(c => c.getBoundingClientRect().top)),
        }; })""")
    assert len(seats) == seats_n
    for seat in seats:
        assert seat["heads"] and all(seat["heads"])
        for tops in seat["rows"]:
            assert len(set(tops)) <= math.ceil(len(tops) / 4)   # four cards or more a row
    # the value stays in view with the step buttons while the table is read
    phone.evaluate("window.scrollTo(0, 0)")
    assert phone.locator("#bar-value").is_visible()
    box = phone.locator("#card-next").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]
    assert phone.inner_text("#bar-value").startswith("value ")
    # the chart as wide as the screen allows, its labels a readable size
    # (measured in one evaluate, once drawn: a review still running redraws the chart, and
    # between two drawings there is none to measure)
    chart = phone.wait_for_function("""() => {
        const r = document.querySelector('#chart svg')?.getBoundingClientRect();
        return r && r.width > 0 && {width: r.width, height: r.height}; }""",
                                    timeout=60000).json_value()
    assert chart["height"] >= 150 and chart["width"] >= 300
    sizes = phone.evaluate("[...document.querySelectorAll('#chart text')].map(e => "
                           "parseFloat(getComputedStyle(e).fontSize) * e.ownerSVGElement.getScreenCTM().a)")
    assert len(sizes) >= 5 and min(sizes) >= 11


def test_a_server_with_a_token_asks_for_it_once(browser, tmp_path):
    """`atout serve --http --token-file`: the page asks for the token on the first 401, keeps
    it for the tab, and every API request carries it from then on."""
    from interfaces import Service

    token = tmp_path / "token"
    token.write_text("viewer-t0ken\n")
    served = Service(tmp_path, "--token-file", str(token))
    try:
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
        # one search process: a review of the page's default 30 s that took it first (a
        # loaded machine may take two requests in either order) would hold the value past
        # the wait below
        context.add_init_script(SHORT_REVIEW)
        page = context.new_page()
        asked = []
        page.on("dialog", lambda d: (asked.append(d.message), d.accept("viewer-t0ken")))
        refused = []
        page.on("response", lambda r: refused.append(r.url) if r.status == 401 else None)
        page.base = served.url + "/"
        deal = PLAYED[GAMES["fr4"]]
        cards = len(deal["played"]) - 8
        page.goto(f"{page.base}#deal=0&card={cards}")
        shown = wait_solved(page, cards)
        assert shown["value"] is not None or shown["text"]
        assert len(asked) == 1 and "token" in asked[0]
        assert refused == [served.url + "/api/deals"]       # only the first request, once
        context.close()
    finally:
        assert served.stop() == 0


@pytest.mark.parametrize("size", ["desktop", "laptop", "phone"])
def test_a_played_deal_opens_with_no_review_until_asked(browser, server, size, tmp_path):
    """Issue 56, problem 5: a review searches on all the server's cores, so opening a played
    deal starts none: the page offers it (a button where the review shows) and starts it
    when asked.  A search process runs one search at a time, so the value of the position
    shown is still asked for first, even when the table (which it waits for) comes late."""
    context, page = new_page(browser, server, {"desktop": DESKTOP, "laptop": LAPTOP, "phone": PHONE}[size])
    sent = []
    page.on("request", lambda r: sent.append(r.url.split("/api/", 1)[1])
            if "/api/" in r.url else None)
    page.route("**/api/view", lambda route: (time.sleep(0.5), route.continue_()))
    index = GAMES["fr4"]
    k = len(PLAYED[index]["played"]) - 8
    open_deal(page, index, k)
    wait_solved(page, k)
    page.wait_for_timeout(800)                             # the old page's review began by now
    assert not [u for u in sent if u.startswith("analyze")], sent
    assert page.evaluate("state.analysing") is None and page.locator("#chart svg").count() == 0
    offer = page.locator("#analysis-status #review-start")
    assert offer.is_visible() and "Not started yet" in page.inner_text("#analysis-status")
    offer.scroll_into_view_if_needed()
    keep_screenshot(page, tmp_path, f"viewer-review-offer-{size}.png", full_page=False)
    with page.expect_request("**/api/analyze/stream"):
        offer.click()
    assert sent.index("solve") < sent.index("analyze/stream"), sent
    # (within the tests' 5 s limit, or at once from the server's cache of reviews)
    page.wait_for_function("!state.analysing && state.analysis && state.analysis.status !== 'running'",
                           timeout=60000)
    context.close()
    assert not page.errors


# -- the second pass (issue 49) --------------------------------------------------------------

@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5", "at4"])
def test_everything_on_one_screen_at_the_first_card(page, game, tmp_path):
    """The fullest hands (card 0, the seat to play with room for its values): every hand and
    every control on a 1400 × 900 and a 1280 × 720 screen, without scrolling."""
    page.context.add_init_script("localStorage.setItem('atout-solve-limit', '2')")
    open_deal(page, GAMES[game], 0)
    assert page.locator("#table .card").count() == sum(map(len, PLAYED[GAMES[game]]["hands"]))
    assert_on_one_screen(page)
    page.set_viewport_size(LAPTOP)
    page.wait_for_function("w => innerWidth === w", arg=LAPTOP["width"])
    assert_on_one_screen(page)
    keep_screenshot(page, tmp_path, f"viewer-{game}-start-1280x720.png", full_page=False)


def test_the_page_says_which_lines_of_its_file_were_refused(page):
    page.goto(page.base)
    wait_card(page, 0)
    shown = page.inner_text("#notice")
    assert "deals.jsonl" in shown and f"line {FRESH_INDEX + 4}: hands: is missing" in shown


def test_card_numbers_count_from_one(page):
    """The first card is card 1 everywhere: the step bar, the what-if banner, the review."""
    index = GAMES["fr3"]
    deal = PLAYED[index]
    open_deal(page, index, 0)
    assert page.inner_text("#where").startswith("No card played yet · trick 1 of 24")
    page.keyboard.press("ArrowRight")
    wait_card(page, 1)
    assert page.inner_text("#where").startswith("After card 1 of 72 · trick 1 of 24")
    k = len(deal["played"]) - 2 * 3                # two tricks from the end: quick
    open_deal(page, index, k)
    shown = wait_solved(page, k)
    other = next(c for c in shown["cards"] if c != deal["played"][k])
    page.click(f".card.legal[data-card='{other}']")
    wait_card(page, k + 1)
    assert f"from card {k + 1} on" in page.inner_text("#whatif-text")
    assert page.inner_text("#where").startswith(f"After card {k + 1} ·")    # the end of its line
    page.click("#back-to-real")
    wait_card(page, k)
    report = analyse_from(page, k)
    assert f"Value before card {k + 1}:" in page.inner_text("#seat-costs")
    titles = page.locator("#chart circle.dot title").all_text_contents()
    assert titles[1].startswith(f"card {k + 1}: seat {report['plays'][0]['seat']} played")


def test_a_what_if_where_nothing_can_be_solved_starts_no_review(page):
    """A what-if on a deal with no card played: the value where the line ends is not solved
    within the time limit, so a review could judge no card — none is started."""
    analyses = []
    page.on("request", lambda r: analyses.append(r.url) if "/api/analyze" in r.url else None)
    page.context.add_init_script("localStorage.setItem('atout-solve-limit', '2')")
    open_deal(page, FRESH_INDEX, 0)
    page.click(".card.legal >> nth=0")
    wait_card(page, 1)
    wait_solved(page, 1)
    page.wait_for_function("document.getElementById('analysis-status').textContent.includes('Not reviewed')")
    assert not analyses and page.locator("#chart svg").count() == 0


def test_a_puzzle_plays_on_with_the_step_button(page):
    page.goto(f"{page.base}#deal={PUZZLE_INDEX}")
    wait_card(page, 52)
    shown = check_against_solve(page, PUZZLE, 52)
    assert page.is_enabled("#card-next")         # ▶ past the end: a best card, as → does
    page.click("#card-next")
    wait_card(page, 53)
    best = [c for c, s in shown["cards"].items() if s["level"] == "optimal"]
    assert page.evaluate("state.line[52]") in best


def test_words_a_player_reads(page):
    """Cards as a player writes them (the contract, a refusal), the taker's seat and the
    margin in every result, whose party the open cards count for, what a taker needs."""
    fr5 = PLAYED[GAMES["fr5"]]
    open_deal(page, GAMES["fr5"], 0)
    assert re.findall(RAW_CARD, page.inner_text("#contract")) == []
    assert "calling" in page.inner_text("#contract")
    won = page.inner_text("#won")
    assert "56 with 0 bouts, 51 with 1 bout, 41 with 2 bouts, 36 with 3 bouts" in won
    priest = PLAYED[GAMES["priest5"]]
    pos = atout.position.parse_position(priest)
    open_deal(page, GAMES["priest5"], len(priest["played"]))
    result = page.inner_text(".outcome")
    out = pos.outcome()
    margin = abs(out["caller_points"] - out["needed"])
    assert f"Seat {pos.contract.declarer}'s party {'wins' if out['made'] else 'loses'} by {margin}" in result
    party = "caller's party" if pos.contract.camp[pos.contract.dealer] == 0 else "other party"
    assert f"seat {pos.contract.dealer} is the dealer, in the {party}" in page.inner_text("#outside")
    # a refusal names a card as a player writes it, and the lines of a file in their order
    bad = json.loads(json.dumps(fr5))
    bad["played"] = [bad["hands"][2][0]] + bad["played"][1:]         # not the leader's card
    page.click("#toggle-input")
    page.set_input_files("#file-input", files=[{
        "name": "two.jsonl", "mimeType": "application/json",
        "buffer": ('{"game": "fr4", \n' + json.dumps(bad) + "\n" + json.dumps(priest) + "\n").encode()}])
    page.wait_for_function("document.getElementById('input-error').textContent.includes('line 2')")
    shown = page.inner_text("#input-error")
    assert "2 positions refused; the other one is in the list" in shown
    assert shown.index("line 1: json: not valid JSON at column") < shown.index("line 2: played")
    assert "line 1 column" not in shown and re.findall(RAW_CARD, shown) == []


def test_looks_and_touch(browser, server):
    """The header's buttons readable in every state; on a phone the cards a finger plays,
    the step buttons and the tricks of the list are 44 px targets, the step buttons stay
    on the screen by the review, a tapped mistake brings the table into view, and the
    chart's labels are not crossed by its lines."""
    context, pg = new_page(browser, server, PHONE)
    index = GAMES["fr3"]
    deal = PLAYED[index]
    k = (24 - LAST_TRICKS["fr3"]) * 3
    open_deal(pg, index, k)
    pg.click("#toggle-input")
    colours = pg.evaluate("""(() => { const s = getComputedStyle(document.getElementById('toggle-input'));
                              return [s.color, s.backgroundColor]; })()""")
    assert contrast(*colours) >= 4.5, colours
    pg.click("#toggle-input")
    report = analyse_from(pg, k)
    wait_solved(pg, k)
    sizes = pg.evaluate("""[...document.querySelectorAll('.legal-slot, .controls button, tr.trick-row')]
        .map(e => { const r = e.getBoundingClientRect(); return [e.className, r.width, r.height]; })""")
    assert sizes and all(w >= 44 and h >= 44 for cls, w, h in sizes if "trick-row" not in cls), sizes
    assert all(h >= 44 for cls, w, h in sizes if "trick-row" in cls), sizes
    # the chart's deciding line's name on a plate: no grid line through it
    plate = pg.locator("#chart rect.label-plate").bounding_box()
    label = pg.locator("#chart text.decide-label").bounding_box()
    assert plate["x"] <= label["x"] and plate["x"] + plate["width"] >= label["x"] + label["width"]
    # down by the review: the step buttons are still there
    pg.locator("#mistakes").scroll_into_view_if_needed()
    box = pg.locator("#card-next").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
    mistakes = [p for p in report["plays"] if p["cost"] > 0]
    assert mistakes
    pg.locator("li.mistake").first.click()
    wait_card(pg, mistakes[0]["index"])
    top = pg.evaluate("document.querySelector('.board').getBoundingClientRect().top")
    assert 0 <= top < PHONE["height"] / 2
    context.close()
    assert not pg.errors


def contrast(fg: str, bg: str) -> float:
    """WCAG's contrast ratio of two CSS rgb() colours."""
    def luminance(css):
        r, g, b = [int(x) / 255 for x in re.findall(r"\d+", css)[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("then", ["ends", "stopped"])
def test_a_review_ended_or_stopped_before_its_first_verdict_says_so(page, then):
    """A review whose stream ends (a dropped connection, a busy server) or is stopped after
    its start but before any verdict: the page says so, no value drawn from bounds it was
    never sent (a CI run once met "Cannot read properties of null" there)."""
    started = '{"type": "start", "session": "s"}\n'
    if then == "ends":
        page.route("**/api/analyze/stream", lambda route: route.fulfill(
            status=200, content_type="application/x-ndjson", body=started))
    else:           # the start sent, then nothing: the stream stays open until stopped
        page.route("**/api/analyze/stream", lambda route: None)
    index = GAMES["fr3"]
    open_deal(page, index, len(PLAYED[index]["played"]))
    page.click("#analyse")
    if then == "ends":
        page.wait_for_function("document.getElementById('analysis-status').textContent"
                               ".includes('ended before its report')", timeout=30000)
    else:
        page.wait_for_function("state.analysing !== null")
        # what the start line sets, its first verdict not come (a route cannot send half a
        # stream and hold the rest)
        page.evaluate("""() => { state.analysis = {start: 0,
            plays: [], seats: [], start_value: null, start_bounds: null, made: null,
            status: 'running'}; }""")
        page.click("#analysis-stop")
        page.wait_for_function("state.analysing === null")
    assert "not known yet" in page.inner_text("#seat-costs")


def test_a_review_outlives_a_reload_and_another_limit_does_not_restart_it(page):
    """Issue 56, problem 5: a review found (or stopped) in a tab is shown again after a
    reload, from the trick it started at, and no new one starts by itself; choosing another
    time limit keeps the review shown and says the limit is for the next one."""
    index = GAMES["fr3"]
    deal = PLAYED[index]
    k = len(deal["played"])
    start = (24 - 4) * 3                                   # the last four tricks: quick
    open_deal(page, index, k)
    report = analyse_from(page, start)
    requests = []
    page.on("request", lambda r: requests.append(r.url) if "/api/analyze" in r.url else None)
    page.reload()
    wait_card(page, k)
    page.wait_for_function("n => state.analysis && state.analysis.start === n", arg=start)
    assert page.evaluate("state.analysis.plays") == report["plays"]
    assert page.input_value("#analysis-start") == str(start)
    assert "found before in this tab" in page.inner_text("#analysis-status")
    page.select_option("#analysis-limit", "60")
    assert "for the next review" in page.inner_text("#analysis-limit-note")
    page.wait_for_timeout(800)                             # a restart would be under way by now
    assert page.evaluate("state.analysing") is None and not requests
    assert page.evaluate("state.analysis.plays") == report["plays"]
    page.click("#analyse")                                  # asked: a new review
    page.wait_for_function("state.analysis && !state.analysing && state.analysis.status !== 'running'",
                           timeout=60000)
    assert requests and page.inner_text("#analysis-limit-note") == ""


def test_the_review_reads_each_cards_verdict(page):
    """Issue 56: the page draws the verdict the analysis named (play.verdict), not one worked
    out again from the cost, and writes a proven mistake of at least N as "≥N", as the
    report and the terminal do (not "20 … 52")."""
    index = GAMES["fr3"]
    deal = PLAYED[index]
    k = len(deal["played"])
    open_deal(page, index, k)
    report = analyse_from(page, (24 - 4) * 3)
    plays = report["plays"]
    mistake = dict(plays[0], cost=None, cost_bounds=[20, 52], decisive=False,
                   verdict={"kind": "mistake", "low": 20, "high": 52})
    best = dict(plays[1], cost=7, decisive=False, verdict={"kind": "best", "low": 0, "high": 0})
    rest = [dict(p, cost=0, decisive=False, verdict={"kind": "best", "low": 0, "high": 0})
            for p in plays[2:]]
    page.evaluate("""async (plays) => {
        const review = await import('/static/review.js');
        state.analysis = Object.assign({}, state.analysis, {plays});
        review.drawAnalysis(); }""", [mistake, best] + rest)
    items = page.locator("#mistakes li.mistake").all()
    assert [int(i.get_attribute("data-index")) for i in items] == [mistake["index"]]
    assert items[0].locator(".cost").inner_text() == "≥20"


def test_a_value_that_comes_leaves_the_lit_cards_in_place(page):
    """The position's value puts its badges on the lit cards as they stand: the table was
    drawn anew when it came, and a card replaced between a finger's press and its release
    is no click (a card clicked into a recorded play was lost so on a busy machine).  The
    value is held back until the lit cards are marked; once it is shown, the marked cards
    are the ones that carry it."""
    held = []
    page.route("**/api/solve", lambda route: held.append(route))
    k = 64                                             # fr4, two tricks left: a quick value
    open_deal(page, GAMES["fr4"], k)
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page asked for no value"
    lit = page.evaluate("""() => { const cards = document.querySelectorAll('#table .card.legal');
                                   cards.forEach((c) => { c.dataset.mark = 'drawn'; });
                                   return cards.length; }""")
    assert lit > 0 and page.locator("#table .card.legal[data-value]").count() == 0
    for route in held:
        route.continue_()
    page.unroute("**/api/solve")
    wait_solved(page, k)
    assert page.locator("#table .card.legal[data-value]").count() == lit
    assert page.locator("#table .card.legal[data-mark='drawn'][data-value]").count() == lit
