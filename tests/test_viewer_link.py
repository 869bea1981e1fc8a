"""Share links and pictures in the viewer, in a real browser (the fixtures of
tests/test_viewer.py; skipped as they are when Chromium or playwright is missing).

The page's reader and writer of a deal in a link (server/static/link.js) against
atout/present/link.py on random deals of every game and contract; "Share" gives a link that shows
the same table — deal, card, what-if line, view — in another browser, a deal that is in no
list included; a bad link is said, and the first deal shown; "Save image" saves the table
as SVG and PNG.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import link_corpus
from atout.present import link
from atout.deal import BIDS, random_endgame
from atout.games import HAND_SIZE
from test_viewer import (DESKTOP, GAMES, PLAYED, browser, new_page, open_deal, page,  # noqa: F401
                         server, wait_card, wait_solved)


def _deals() -> list[dict]:
    """Two random deals of every bid of every game, some with an id."""
    rng = random.Random("links")
    out = []
    for game in ("fr4", "fr3", "fr5", "priest5", "at4"):
        for bid in BIDS[game] or (None, None, None):
            for _ in range(2 if game != "at4" else 1):
                obj = random_endgame(rng, game, rng.randrange(HAND_SIZE[game] + 1), bid=bid)
                obj["id"] = rng.choice([None, "déjà ♠ vu", 12345, -7])
                if obj["id"] is None:
                    del obj["id"]
                out.append(obj)
    return out


def test_the_page_reads_and_writes_links_as_atout_does(page):
    page.goto(page.base)
    wait_card(page, 0)
    deals = _deals()
    payloads = [link.encode(d) for d in deals]
    bad = [payloads[0][:20], payloads[0] + "AA", "C" + payloads[0][1:], payloads[0][:5] + "!"]
    js = page.evaluate("""async ([deals, payloads, bad]) => {
        const m = await import('/static/link.js');
        const reason = (p) => { try { m.decode(p); return null; } catch (e) { return e.reason; } };
        return {encoded: deals.map(d => m.encode(d)), decoded: payloads.map(p => m.decode(p)),
                bad: bad.map(reason)}; }""", [deals, payloads, bad])
    assert js["encoded"] == payloads
    assert js["decoded"] == [link.normalized(d) for d in deals]
    for payload, reason in zip(bad, js["bad"]):
        try:
            link.decode(payload)
            raise AssertionError(payload)
        except link.LinkError as e:
            assert reason == e.reason


def test_the_page_reads_every_link_as_atout_does(page):
    """One reader's rules (docs/format.md, "Reading a link"): the page's readLink and
    atout/present/link.py's parse_link give the same link, or refuse it naming the same part for the
    same reason, on links good and bad (tests/link_corpus.py) — integer ids miswritten or
    past 64 bits, a part given twice, odd escapes, changed payloads."""
    page.goto(page.base)
    wait_card(page, 0)
    links = link_corpus.corpus("page", 800)
    js = page.evaluate("""async (links) => {
        const m = await import('/static/link.js');
        return links.map((text) => {
            try { return {link: m.readLink(text)}; } catch (e) {
                return e instanceof m.LinkError ? {field: e.field, reason: e.reason}
                                                : {error: String(e)};
            } }); }""", links)
    differ = [(text, link_corpus.verdict(text), said) for text, said in zip(links, js)
              if link_corpus.verdict(text) != said]
    assert not differ, differ[:3]
    refused = {said["field"] for said in js if "field" in said}
    assert refused >= {"d", "card", "from", "seat", "whatif", "deal"}     # every kind met
    assert sum("link" in said for said in js) > 100


def _a_what_if(page) -> tuple[int, dict, int, str]:
    """An fr3 deal opened three tricks before its end, another card than the real one
    played there: (its index, the deal, the card where the line leaves the play, the card
    played instead)."""
    index = GAMES["fr3"]
    deal = PLAYED[index]
    k = len(deal["played"]) - 4 * 3
    open_deal(page, index, k)
    shown = wait_solved(page, k)
    other = next(c for c in shown["cards"] if c != deal["played"][k])
    page.click(f".card.legal[data-card='{other}']")
    wait_card(page, k + 1)
    return index, deal, k, other


def test_a_shared_link_shows_the_same_table(page, browser, server):
    index, deal, k, other = _a_what_if(page)
    page.select_option("#view-seat", "2")
    page.wait_for_selector(".suit-group.backs")
    page.click("#share")
    url = page.input_value("#share-link")
    assert url.startswith(server + "#d=" + link.encode(deal))
    assert url.endswith(f"&card={k + 1}&from={k}&whatif={other}&seat=2")
    assert len(url) < len(server) + 200

    # another browser: the same table; a deal in no list comes in with the link
    context, pg = new_page(browser, server, DESKTOP)
    pg.goto(url)
    wait_card(pg, k + 1)
    assert pg.evaluate("[state.line, state.whatIfFrom, state.viewSeat]") == \
        [deal["played"][:k] + [other], k, 2]
    fresh = random_endgame(random.Random(11), "priest5", 6)
    fresh["id"] = "from a forum"
    pg.goto("about:blank")
    pg.goto(f"{server}#d={link.encode(fresh)}")
    wait_card(pg, len(fresh["played"]))
    assert pg.evaluate("state.deal") == link.normalized(fresh)
    assert "Shared link" in pg.eval_on_selector_all("#deal-select optgroup", "g => g.map(e => e.label)")
    assert "#d=" in pg.evaluate("location.hash")          # a reload shows it again
    pg.reload()
    wait_card(pg, len(fresh["played"]))
    assert pg.evaluate("state.deal.id") == "from a forum"
    # a link that holds no deal, and one whose deal breaks a rule: said, the first deal shown
    pg.goto("about:blank")
    pg.goto(f"{server}#d={link.encode(fresh)[:40]}&card=3")
    pg.wait_for_function("document.getElementById('notice').textContent.includes('This link')")
    assert "This link is refused: d: the link is cut short" in pg.inner_text("#notice")
    wait_card(pg, 0)
    pg.goto("about:blank")                   # a part given twice: refused as the command line does
    pg.goto(f"{server}#d={link.encode(fresh)}&card=1&card=2")
    pg.wait_for_function("document.getElementById('notice').textContent.includes('This link')")
    assert "This link is refused: card: is given twice in the link" in pg.inner_text("#notice")
    wait_card(pg, 0)
    broken = json.loads(json.dumps(fresh))
    broken["contract"]["dealer"] = (broken["contract"]["dealer"] + 1) % 5   # then `first` is wrong
    pg.goto("about:blank")
    pg.goto(f"{server}#d={_raw_payload(broken)}")
    pg.wait_for_function("document.getElementById('notice').textContent.includes('deal is refused')")
    assert "This link's deal is refused: first: the player after the dealer leads" in pg.inner_text("#notice")
    assert "Not in the list" in pg.inner_text("#notice")      # said still
    context.close()
    assert not pg.errors


def _raw_payload(obj: dict) -> str:
    """The payload of a deal the rules refuse (encode() validates first: here it does not)."""
    from unittest import mock
    with mock.patch("atout.position.parse_position", lambda o: None):
        return link.encode(obj)


def test_save_image_as_svg_and_png(page):
    index = GAMES["at4"]
    deal = PLAYED[index]
    k = len(deal["played"]) - 2 * 4
    open_deal(page, index, k)
    shown = wait_solved(page, k)
    page.click("#save-image")
    with page.expect_download() as svg_file:
        page.click("#save-svg")
    svg = open(svg_file.value.path(), encoding="utf-8").read()
    assert svg_file.value.suggested_filename == f"{deal['id']}-card-{k}.svg"
    root = ET.fromstring(svg)
    text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "Double-dummy value" in text and "Austrian Tarock" in text
    costs = [c["cost"] for c in shown["cards"].values()]
    assert all(("best" if c == 0 else f"−{c}") in text for c in costs)
    with page.expect_download() as png_file:
        page.click("#save-png")
    with open(png_file.value.path(), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    # from one seat's view: that view, no values
    page.select_option("#view-seat", "0")
    page.wait_for_selector(".suit-group.backs")
    with page.expect_download() as seat_file:
        page.click("#save-svg")
    svg = open(seat_file.value.path(), encoding="utf-8").read()
    assert "cards unseen" in svg and "Double-dummy" not in svg


def test_a_what_ifs_picture_says_it_is_one(page):
    """Issue 56, problem 3: a picture saved on a what-if line says so — from which card,
    the card played instead and the card really played — and its file name too."""
    index, deal, k, other = _a_what_if(page)
    page.click("#save-image")
    with page.expect_download() as svg_file:
        page.click("#save-svg")
    assert svg_file.value.suggested_filename == f"{deal['id']}-card-{k + 1}-what-if.svg"
    root = ET.fromstring(open(svg_file.value.path(), encoding="utf-8").read())
    text = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    line = next(t for t in text if t.startswith("What-if"))

    def name(tok):
        return "Excuse" if tok == "EX" else (f"{tok[1:]} atout" if tok.startswith("T")
                                             else tok[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[tok[-1]])
    assert line == (f"What-if, not the real play: from card {k + 1}, {name(other)} was played "
                    f"instead of {name(deal['played'][k])}")
    # back on the real play: no such line
    page.click("#back-to-real")
    wait_card(page, k)
    with page.expect_download() as real_file:
        page.click("#save-svg")
    assert "What-if" not in open(real_file.value.path(), encoding="utf-8").read()


def test_a_deal_opened_from_a_link_keeps_itself_in_the_address(page):
    """Issue 56, problem 6: a link's deal that is also in this page's list is shown there,
    but the address keeps the deal itself (#d=…), not its number here: another viewer's
    list differs, and #deal=N would open another deal there without a word."""
    index = GAMES["fr4"]
    deal = PLAYED[index]
    payload = link.encode(deal)
    page.goto(f"{page.base}#d={payload}&card=5")
    wait_card(page, 5)
    assert page.evaluate("state.dealIndex") == index          # shown as the list's own
    assert page.evaluate("location.hash") == f"#d={payload}&card=5"
    page.keyboard.press("ArrowRight")
    wait_card(page, 6)
    assert page.evaluate("location.hash") == f"#d={payload}&card=6"
    page.reload()
    wait_card(page, 6)
    assert page.evaluate("state.dealIndex") == index
    # a deal chosen in the list is still written by its number
    other = GAMES["fr3"]
    page.select_option("#deal-select", str(other))
    page.wait_for_function("n => location.hash.startsWith('#deal=' + n + '&')", arg=other)
