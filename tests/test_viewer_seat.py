"""The viewer "from this seat's view" mode, in a real browser (the fixtures of
tests/test_viewer.py: `atout view` on 127.0.0.1 and the system's Chromium; skipped as
they are when Chromium or playwright is missing).

From the seat chosen: the other hands face down, and when the seat is to play the advice
of /api/advise — the same advice as ``atout.solver.advise.advise`` with the page's seed
(the card's number) and draws.  The page then shows only what that seat could know: no
hidden card is named anywhere in the page or in the API's answers to it, and it asks for
no double-dummy search (those see every hand).  What the table shows a seat (the partner
not given away) is tested on /api/table in tests/test_advise_service.py.
"""

from __future__ import annotations

import json

import atout
from atout.cards import token
from atout.solver.advise import advise
from test_viewer import (GAMES, PLAYED, TT_MB, browser, open_deal, page, server,  # noqa: F401
                         wait_card, wait_solved)

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _fr5_position():
    """The fr5 deal of the examples, at a card of its last four tricks where a defender
    with a choice is to play, its partner still unknown to it."""
    index = next(i for i, d in enumerate(PLAYED) if d["game"] == "fr5")
    deal = PLAYED[index]
    seats = len(deal["hands"])
    for k in range(len(deal["played"]) - 4 * seats, len(deal["played"])):
        pos = atout.position.parse_position({**deal, "played": deal["played"][:k]})
        if pos.to_play != pos.contract.declarer and len(pos.legal_cards()) > 1:
            return index, deal, k, pos.to_play
    raise AssertionError("no such card in the fr5 deal")


def _names(tok: str, trump: str) -> list[str]:
    """The ways the page may name a card: its code (attributes, answers) and as a player
    writes it (K♥, 21 atout, the Excuse's name stands for no one card)."""
    if tok == "EX":
        return [tok]
    if tok.startswith("T"):
        return [tok, f"{tok[1:]} {trump}"]
    return [tok, tok[:-1] + SUITS[tok[-1]]]


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def test_from_one_seats_view_only_what_it_could_know(page):
    index, deal, k, seat = _fr5_position()
    answers, searches, stopped = [], [], []
    # the advice's draws are solved within the page's search time limit: room for a loaded machine
    page.context.add_init_script("localStorage.setItem('atout-solve-limit', '15')")
    # and a review of the whole deal that is still running when the view changes
    page.context.add_init_script("localStorage.setItem('atout-analysis-limit', '120')")
    open_deal(page, index, k)
    wait_solved(page, k)
    page.click("#review-start")
    page.wait_for_function("state.analysing !== null")           # the review is under way
    page.on("requestfailed", lambda r: stopped.append(r.url) if "/api/analyze" in r.url else None)
    page.on("request", lambda r: searches.append(r.url)
            if "/api/solve" in r.url or "/api/analyze" in r.url else None)
    page.on("response", lambda r: answers.append(r) if "/api/" in r.url else None)
    page.select_option("#view-seat", str(seat))
    # what the open view had under way stops at once
    page.wait_for_function("state.analysing === null && state.solving === null")
    page.wait_for_selector(".suit-group.backs")
    pos = atout.position.parse_position({**deal, "played": deal["played"][:k]})

    # the other hands face down, its own face up
    for s in range(pos.seats):
        hand = page.locator(f".seat[data-seat='{s}']")
        backs = hand.locator(".card.back").count()
        faces = hand.locator(".card:not(.back)").count()
        if s == seat:
            assert backs == 0 and faces == len(pos.held[s])
        else:
            assert faces == 0 and backs == len(pos.held[s])
    # a defender that does not know its partner yet: every other role says so, in words
    partner_known = deal["contract"]["called"] in deal["played"][:k]
    if not partner_known:
        roles = page.locator(".seat .role").all_text_contents()
        assert roles.count("defender or partner") == 3
        assert page.evaluate("getComputedStyle(document.querySelector('.role')).textTransform") == "none"

    # the advice, and no double-dummy value beside it
    page.wait_for_function("n => document.getElementById('advice-cards').dataset.played === String(n)",
                           arg=k, timeout=60000)
    rows = page.locator("#advice-cards tr[data-card]").all()
    shown = {r.get_attribute("data-card"): float(r.get_attribute("data-mean")) for r in rows}
    # (not budgeted: the page's time limit is a deadline, as /api/advise takes it)
    local = advise({**deal, "played": deal["played"][:k]}, samples=50, seed=k, time_limit=15,
                   tt_mb=TT_MB, budget=False)
    assert local.status == "ok" and page.get_attribute("#advice-status", "data-status") == "ok"
    assert shown == {row["card"]: row["mean"] for row in local.cards}
    recommended = {r.get_attribute("data-card") for r in page.locator("#advice-cards tr.recommended").all()}
    assert recommended == (set(local.best) if len(local.best) < len(local.cards) else set())
    assert page.locator(f".seat[data-seat='{seat}'] .advice-badge").count() == len(local.cards)
    assert page.locator(".card[data-value], .badge").count() == 0
    assert page.locator("#dd-panel").is_hidden()
    assert "not shown from seat" in page.inner_text("#analysis")
    assert page.locator("#chart svg, li.mistake").count() == 0

    # no hidden card named: not in the page (its text, its attributes), not in any answer
    hidden = [token(c) for s, h in enumerate(pos.held) if s != seat for c in h]
    hidden += [token(c) for c in pos.contract.outside[0] + pos.contract.outside[1]]
    hidden = [t for t in hidden if t != deal["contract"]["called"]]     # called aloud: public
    html = page.evaluate("document.body.innerText + ' ' + [...document.querySelectorAll('*')]"
                         ".flatMap(e => [...e.attributes].map(a => a.value)).join(' ')")
    bodies = [json.dumps(r.json(), ensure_ascii=False) for r in answers if r.ok]
    assert bodies
    import re
    for tok in hidden:
        for name in _names(tok, "atout"):
            pattern = re.compile(r"(?<![\w♠♥♦♣])" + re.escape(name) + r"(?![\w])")
            assert not pattern.search(html), (tok, name)
            for body in bodies:
                assert not pattern.search(body), (tok, name, body[:200])
    assert not searches                     # nothing asked that sees every hand

    # the next card is another seat's: no advice, its hand still face down
    page.keyboard.press("ArrowRight")
    wait_card(page, k + 1)
    page.wait_for_function("() => document.getElementById('advice-status').textContent.includes('is to play')")
    assert not searches
    # back to every hand open: the value and the review again
    page.select_option("#view-seat", "")
    page.wait_for_function("() => !document.querySelector('.card.back')")
    assert page.locator("#advice-panel").is_hidden() and page.locator("#dd-panel").is_visible()
    wait_solved(page, k + 1)


def test_austrian_advice_is_in_points(page):
    """at4 values are points (49 of 106): the advice writes no plus sign either."""
    index = GAMES["at4"]
    deal = PLAYED[index]
    k = len(deal["played"]) - 2 * 4 + 1
    pos = atout.position.parse_position({**deal, "played": deal["played"][:k]})
    open_deal(page, index, k)
    page.select_option("#view-seat", str(pos.to_play))
    page.wait_for_function("n => document.getElementById('advice-cards').dataset.played === String(n)",
                           arg=k, timeout=60000)
    means = page.locator("#advice-cards tr[data-card] td:nth-child(2)").all_inner_texts()
    badges = page.locator(".advice-badge .v").all_inner_texts()
    assert means and badges
    assert not any(m.startswith("+") for m in means) and not any("+" in b for b in badges)


def _one_choice(deal: dict, group: bool) -> int:
    """The first card of ``deal`` where the seat to play has one choice: one legal card, or
    (``group``) several legal cards all worth the same from its view."""
    from atout.solver.equivalent import equivalent_cards
    for k in range(len(deal["played"])):
        pos = atout.position.parse_position({**deal, "played": deal["played"][:k]})
        legal = pos.legal_cards()
        if (len(legal) > 1 and len(equivalent_cards(pos)) == 1) if group else len(legal) == 1:
            return k
    raise AssertionError("no such card in the deal")


def test_a_seat_with_one_choice_is_told_so_at_once(page):
    """A seat with one legal card, then one whose legal cards are worth the same in every
    deal it cannot tell apart: the page says so, names the cards, recommends none over the
    other, and shows the advice's rows (nothing drawn, nothing solved)."""
    index = GAMES["fr4"]
    deal = PLAYED[index]
    for group, words in ((False, "One legal card: "),
                         (True, "Its legal cards are worth the same in every deal it cannot tell apart: ")):
        k = _one_choice(deal, group)
        pos = atout.position.parse_position({**deal, "played": deal["played"][:k]})
        local = advise({**deal, "played": deal["played"][:k]}, samples=50, seed=k, tt_mb=TT_MB)
        assert local.decided == "one card" and local.solved == 0
        open_deal(page, index, k)
        page.select_option("#view-seat", str(pos.to_play))
        page.wait_for_function("n => document.getElementById('advice-cards').dataset.played === String(n)",
                               arg=k, timeout=30000)
        status = page.inner_text("#advice-status")
        assert status.startswith(words), status
        named = [e.get_attribute("data-card") for e in page.locator("#advice-status .token").all()]
        assert named == local.best == sorted(token(c) for c in pos.legal_cards())
        rows = [r.get_attribute("data-card") for r in page.locator("#advice-cards tr[data-card]").all()]
        assert sorted(rows) == sorted(row["card"] for row in local.cards) == named
        assert page.locator("#advice-cards tr.recommended").count() == 0
        assert page.get_attribute("#advice-status", "data-status") == "ok"
        page.select_option("#view-seat", "")


def test_a_seats_advice_stopped_by_its_time_limit_offers_the_limit(page):
    """Issue 56, problem 2: early in a deal the advice may solve no deal within the search
    time limit; the advice says so and the control it speaks of is there, in its own panel
    (the double-dummy panel, which holds the other, is hidden from a seat's view)."""
    index = next(i for i, d in enumerate(PLAYED) if d["game"] == "fr4")
    deal = PLAYED[index]
    k = 8
    seat = atout.position.parse_position({**deal, "played": deal["played"][:k]}).to_play
    asked = []

    def none_solved(route):
        asked.append(json.loads(route.request.post_data)["time_limit"])
        answer = route.fetch().json()
        answer.update(status="time_limit", solved=0)
        route.fulfill(json=answer)

    page.route("**/api/advise", none_solved)
    page.context.add_init_script("localStorage.setItem('atout-solve-limit', '2')")
    page.goto(f"{page.base}#deal={index}&card={k}")
    wait_card(page, k)
    page.select_option("#view-seat", str(seat))
    page.wait_for_function("() => document.getElementById('advice-status').textContent.includes('No deal')",
                           timeout=60000)
    status = page.inner_text("#advice-status")
    assert "search time limit below" in status
    assert page.locator("#dd-panel").is_hidden() and page.locator("#advice-limit").is_visible()
    assert page.input_value("#advice-limit") == "2" and asked == [2]
    page.select_option("#advice-limit", "15")
    page.wait_for_function("() => document.getElementById('advice-status').textContent.includes('No deal')"
                           " && document.getElementById('advice-status').textContent.includes('15 s')",
                           timeout=60000)
    assert asked == [2, 15]
    assert page.input_value("#solve-limit") == "15"       # the one limit, kept for a reload
    assert page.evaluate("localStorage.getItem('atout-solve-limit')") == "15"


def test_a_seats_view_shows_the_dog_that_was_turned_up():
    """A prise or garde's dog is turned up for every seat to see before the taker takes
    it: the table shows it (its cards now in the taker's hand or écart) from every seat's
    view too, while the écart stays face down for the defence (issue 65)."""
    import random

    from atout.deal import random_position
    from atout.position import parse_position
    from atout.present.view import table

    obj = random_position(random.Random(5), "fr4", "prise", taker=1, chelem=False,
                          poignees=False)
    pos = parse_position(obj)
    for seat in (None, 0, 1, 2):
        parts = {p["label"]: p for p in table(pos, seat)["outside"]}
        dog = parts["Dog turned up (before the taker took it)"]
        assert sorted(dog["cards"]) == sorted(obj["contract"]["shown_dog"]), seat
        ecart = parts["Écart (counts for the taker)"]
        if seat not in (None, 1):
            assert ecart["hidden"] == 6 - len(ecart["cards"])
