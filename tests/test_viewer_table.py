"""The viewer's contract table panel in a real browser (the fixtures of
tests/test_viewer.py: `atout view` on 127.0.0.1 and the system's Chromium; skipped as
they are when Chromium or playwright is missing): the grid fills in as the server proves
its cells, each proven cell as `atout table` proves it, "Stop" keeps what is proven, and
from one seat's view the table (which sees every hand) is not shown."""

from __future__ import annotations

from atout.solver.contract_table import contract_table
from test_viewer import GAMES, PLAYED, browser, open_deal, page, server  # noqa: F401


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
