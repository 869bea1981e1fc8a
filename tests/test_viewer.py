"""The hand viewer in a real browser: Playwright driving the operating system's Chromium
(nothing downloaded), against `atout view` on 127.0.0.1.

Loads a played deal of every game, steps card by card and trick by trick (keys, buttons,
slider), reads the values drawn on the cards against `atout solve --all` and the analysis
against `atout analyze`, plays a what-if card and goes back, pastes bad input and reads the
message, keeps stepping while a slow search runs, and saves a screenshot of each game's
table in the test's temporary directory (and in $ATOUT_SCREENSHOTS when set).

Skipped, saying why, when Chromium or the playwright package is missing:
`apt-get install chromium` (Debian/Ubuntu) and `pip install -e '.[test]'`.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import atout
from atout.solver import solve

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
LAST_TRICKS = {"fr4": 8, "fr3": 10, "fr5": 8, "priest5": 8, "at4": 12}   # the page's default


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("view")
    log_path = tmp / "view.log"
    log = open(log_path, "w")
    proc = subprocess.Popen([sys.executable, "-m", "atout.client.cli", "view",
                             str(DATA / "played.jsonl"), "--port", "0", "--no-open",
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


@pytest.fixture
def page(browser, server):
    # bypass_csp: Playwright evaluates its waits as strings, which the page's CSP forbids
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("request", lambda r: errors.append("outside request " + r.url)
          if not r.url.startswith(server) and not r.url.startswith("data:") else None)
    pg.base = server
    yield pg
    context.close()
    assert not errors


def position(deal: dict, cards: int) -> dict:
    return {**deal, "played": deal["played"][:cards]}


def open_deal(page, index: int, card: int) -> None:
    page.goto(f"{page.base}#deal={index}&card={card}")
    wait_card(page, card)


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
    assert shown["text"] == (f"+{r.value}" if r.value > 0 else str(r.value))
    assert {c: s["value"] for c, s in shown["cards"].items()} == r.cards
    for card, s in shown["cards"].items():
        cost = (r.value - r.cards[card]) if maximizing else (r.cards[card] - r.value)
        assert s["cost"] == cost
        value_text = f"+{r.cards[card]}" if r.cards[card] > 0 else str(r.cards[card])
        assert s["badge"] == [value_text, "✓ best" if cost == 0 else f"−{cost}"]
        assert (s["level"] == "optimal") == (card in r.best)
    return shown


@pytest.mark.parametrize("game", ["fr4", "fr3", "fr5", "priest5", "at4"])
def test_step_through_a_deal_and_read_the_values(page, game, tmp_path):
    index = GAMES[game]
    deal = PLAYED[index]
    seats = len(deal["hands"])
    k = len(deal["played"]) - 3 * seats + 1      # three tricks from the end, second card
    open_deal(page, index, k)
    check_against_solve(page, deal, k)
    page.wait_for_selector("#seat-costs tr[data-seat]", timeout=60000)   # the analysis too
    shot = tmp_path / f"viewer-{game}.png"
    page.screenshot(path=str(shot), full_page=True)
    if os.environ.get("ATOUT_SCREENSHOTS"):
        Path(os.environ["ATOUT_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(os.environ["ATOUT_SCREENSHOTS"]) / shot.name)

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
    page.wait_for_selector("#seat-costs tr[data-seat]", timeout=60000)
    start = max(0, (len(deal["hands"][0]) - LAST_TRICKS[game]) * len(deal["hands"]))
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
