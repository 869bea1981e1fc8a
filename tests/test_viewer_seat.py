"""The viewer "from this seat's view" mode, in a real browser (the fixtures of
tests/test_viewer.py: `atout view` on 127.0.0.1 and the system's Chromium; skipped as
they are when Chromium or playwright is missing).

From the seat chosen: the other hands face down, and when the seat is to play the advice
of /api/advise beside the double-dummy values — the same advice as
``atout.solver.advise.advise`` with the page's seed (the card's number) and draws.  What
the table shows a seat (the partner not given away) is tested on /api/table in
tests/test_advise_service.py.
"""

from __future__ import annotations

import atout
from atout.solver.advise import advise
from test_viewer import PLAYED, TT_MB, browser, open_deal, page, server, wait_card, wait_solved  # noqa: F401


def _fr5_position():
    """The fr5 deal of the examples, at a card of its last four tricks where a defender
    with a choice is to play."""
    index = next(i for i, d in enumerate(PLAYED) if d["game"] == "fr5")
    deal = PLAYED[index]
    seats = len(deal["hands"])
    for k in range(len(deal["played"]) - 4 * seats, len(deal["played"])):
        pos = atout.position.parse_position({**deal, "played": deal["played"][:k]})
        if pos.to_play != pos.contract.declarer and len(pos.legal_cards()) > 1:
            return index, deal, k, pos.to_play
    raise AssertionError("no such card in the fr5 deal")


def test_from_one_seats_view(page):
    index, deal, k, seat = _fr5_position()
    open_deal(page, index, k)
    wait_solved(page, k)
    page.select_option("#view-seat", str(seat))
    page.wait_for_selector(".suit-row.backs")
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
    # the partner, once its card is played, is known to all (tests/test_advise_service.py:
    # not before)
    if deal["contract"]["called"] in deal["played"][:k]:
        assert "called partner" in [r.lower() for r in page.locator(".seat .role").all_inner_texts()]

    # the advice, beside the double-dummy values
    page.wait_for_function("n => document.getElementById('advice-cards').dataset.played === String(n)",
                           arg=k, timeout=60000)
    rows = page.locator("#advice-cards tr[data-card]").all()
    shown = {r.get_attribute("data-card"): float(r.get_attribute("data-mean")) for r in rows}
    local = advise({**deal, "played": deal["played"][:k]}, samples=50, seed=k, time_limit=5,
                   tt_mb=TT_MB)
    assert local.status == "ok"
    assert set(shown) == {c["card"] for c in local.cards}
    assert shown == {row["card"]: row["mean"] for row in local.cards}
    recommended = page.locator("#advice-cards tr.recommended").all()
    assert {r.get_attribute("data-card") for r in recommended} == set(local.best)
    badges = page.locator(f".seat[data-seat='{seat}'] .advice-badge")
    assert badges.count() == len(local.cards)
    assert page.locator(".card.legal[data-value]").count() == len(local.cards)   # and the DD values

    # the next card is another seat's: no advice, its hand still face down
    page.keyboard.press("ArrowRight")
    wait_card(page, k + 1)
    page.wait_for_function("() => document.getElementById('advice-status').textContent.includes('is to play')")
    # back to every hand open
    page.select_option("#view-seat", "")
    page.wait_for_function("() => !document.querySelector('.card.back')")
    assert page.locator("#advice-panel").is_hidden()
