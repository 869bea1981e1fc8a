"""The viewer's contract table panel in a real browser (the fixtures of
tests/test_viewer.py: `atout view` on 127.0.0.1 and the system's Chromium; skipped as
they are when Chromium or playwright is missing): the grid fills in as the server proves
its cells, each proven cell as `atout table` proves it, "Stop" keeps what is proven, and
from one seat's view the table (which sees every hand) is not shown."""

from __future__ import annotations

from atout.solver.contract_table import contract_table
from test_viewer import (GAMES, PLAYED, browser, new_page, open_deal, page, phone,  # noqa: F401
                         server, wait_card, wait_solved)


def _key(cell: dict) -> str:
    return "|".join("" if cell.get(k) is None else str(cell[k])
                    for k in ("seat", "contract", "called", "partner", "objective", "ecart"))


def test_the_table_fills_in_and_agrees_with_atout_table(page):
    index = GAMES["at4"]
    deal = PLAYED[index]
    open_deal(page, index, 0)
    page.select_option("#ctable-limit", "10")
    page.click("#ctable-run")
    page.wait_for_function("document.getElementById('ctable-status').dataset.status === 'running'")
    # cells appear while it runs
    page.wait_for_function("Number(document.getElementById('ctable-grid').dataset.proven || 0) > 0",
                           timeout=30000)
    page.wait_for_function("['ok', 'time'].includes(document.getElementById('ctable-status').dataset.status)",
                           timeout=60000)
    shown = {td.get_attribute("data-key"): td.get_attribute("data-made")
             for td in page.locator("#ctable-grid td[data-key]").all()}
    local = contract_table(deal, time_limit=20, threads=2)
    assert len(shown) == len({_key(c) for c in local["cells"]})
    both = [c for c in local["cells"] if c["made"] is not None
            and shown[_key(c)] in ("true", "false")]
    assert both, "no cell proven on both sides"
    for c in both:
        assert shown[_key(c)] == str(c["made"]).lower(), c
    assert page.inner_text("#ctable-par").startswith("Par: ")
    assert "The contract played: " in page.inner_text("#ctable-played")
    assert not page.is_disabled("#ctable-run")


def test_stop_keeps_what_is_proven_and_one_seats_view_hides_it(page):
    index = GAMES["fr4"]
    open_deal(page, index, 4)
    page.click("#ctable-run")
    page.wait_for_function("Number(document.getElementById('ctable-grid').dataset.proven || 0) > 0",
                           timeout=60000)
    page.click("#ctable-stop")
    page.wait_for_function("document.getElementById('ctable-status').dataset.status === 'cancel'")
    assert page.locator("#ctable-grid td.made, #ctable-grid td.down").count() > 0
    assert page.is_hidden("#ctable-stop") and not page.is_disabled("#ctable-run")
    page.select_option("#view-seat", "1")
    page.wait_for_selector("#ctable-seat-note", state="visible")
    assert page.locator("#ctable-grid td").count() == 0
    assert page.is_disabled("#ctable-run")


def _rows(page) -> list[str]:
    return page.locator("#ctable-grid tr > th:first-child").all_inner_texts()[1:]


def test_stop_keeps_par_and_the_order_from_the_first_cell(page):
    """1400×900: the grid's rows and columns are the table's from the first cells drawn
    (they came in the order they were proven), the status says the server's own time limit
    (a server's most, not the one asked), a legend says what the numbers count; Stop
    keeps what is proven and the par and the contract played (both were dropped)."""
    open_deal(page, GAMES["fr4"], 4)
    page.evaluate("""() => { const s = document.getElementById('ctable-limit');
        s.append(new Option('600 s', '600')); s.value = '600'; }""")
    page.click("#ctable-run")
    page.wait_for_function("Number(document.getElementById('ctable-grid').dataset.cells || 0) > 0",
                           timeout=30000)
    first = _rows(page)
    heads = page.locator("#ctable-grid tr:first-child th").all_inner_texts()
    assert heads == ["", "Prise/garde", "Garde sans", "Garde contre"]
    assert first == [f"seat {s}" for s in range(4)]
    page.wait_for_function("/of at most 120 s/.test(document.getElementById('ctable-status').textContent)")
    assert page.inner_text("#ctable-legend").startswith("Numbers: the deal's score per defender")
    assert page.is_visible("#ctable-ecart-note")
    page.wait_for_function("Number(document.getElementById('ctable-grid').dataset.proven || 0) > 0",
                           timeout=60000)
    page.click("#ctable-stop")
    page.wait_for_function("document.getElementById('ctable-status').dataset.status === 'cancel'",
                           timeout=30000)
    assert _rows(page) == first
    par = page.inner_text("#ctable-par")
    assert par.startswith("Par: ") and ("not known yet" in par or "(proven)" in par
                                        or "not proven" in par)
    assert page.inner_text("#ctable-played").startswith("The contract played: Garde contre by seat")
    assert page.is_hidden("#ctable-stop") and not page.is_disabled("#ctable-run")


def test_on_a_phone_the_row_names_stay_in_view(phone):
    """390×844: the page is no wider than the screen, the grid scrolls in its box and its
    first column stays in view; Austrian games and announcements as players write them,
    and no French écart note on an Austrian table."""
    open_deal(phone, GAMES["at4"], 0)
    phone.select_option("#ctable-limit", "10")
    phone.click("#ctable-run")
    phone.wait_for_function("Number(document.getElementById('ctable-grid').dataset.cells || 0) > 0",
                            timeout=30000)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator(".ctable-box")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    label = phone.locator("#ctable-grid tr:nth-child(2) > th").bounding_box()
    assert label["x"] >= box.bounding_box()["x"] - 1 and label["width"] > 40
    text = phone.inner_text("#ctable-grid")
    assert "Farbensolo" in text and "Volat" in text and "_" not in text
    assert phone.is_hidden("#ctable-ecart-note")
    phone.click("#ctable-stop")
    phone.wait_for_function("['cancel', 'ok', 'time'].includes("
                            "document.getElementById('ctable-status').dataset.status)",
                            timeout=30000)


def test_priestertarock_partners_in_seat_order_at_1280(browser, server):
    """1280×720: Priestertarock's columns are the partners in seat order, then alone, each
    cell with a card to call for that partner."""
    context, pg = new_page(browser, server, {"width": 1280, "height": 720})
    try:
        open_deal(pg, GAMES["priest5"], 0)
        pg.click("#ctable-run")
        pg.wait_for_function("Number(document.getElementById('ctable-grid').dataset.cells || 0) > 0",
                             timeout=30000)
        heads = pg.locator("#ctable-grid tr:first-child th").all_inner_texts()
        assert heads == [""] + [f"with seat {s}" for s in range(5)] + ["Alone"]
        assert ", call " in pg.inner_text("#ctable-grid")
        assert pg.evaluate("document.documentElement.scrollWidth") <= 1280
        pg.click("#ctable-stop")
        pg.wait_for_function("['cancel', 'ok', 'time'].includes("
                             "document.getElementById('ctable-status').dataset.status)",
                             timeout=30000)
        assert pg.inner_text("#ctable-par").startswith("Par: ")
    finally:
        context.close()
    assert not pg.errors


def test_the_pictures_value_box_follows_the_position(page):
    """"Save image": the box to add the double-dummy value is unticked while no value is
    known and ticked once it is, again at each card shown (it stayed ticked and disabled);
    where the search stopped before the value it offers the value's proven bounds."""
    deal_index = GAMES["fr4"]
    open_deal(page, deal_index, 0)
    page.select_option("#solve-limit", "2")
    page.click("#save-image")
    box = page.locator("#image-values")
    wait_solved(page, 0)
    assert box.is_enabled() and box.is_checked()
    assert "proven bounds" in page.inner_text("#image-values-label")   # a whole deal in 2 s
    page.click("#card-next")
    wait_card(page, 1)
    if not page.locator("#dd-value").get_attribute("data-value"):
        assert box.is_disabled() and not box.is_checked()
    wait_solved(page, 1)
    assert box.is_enabled() and box.is_checked()
