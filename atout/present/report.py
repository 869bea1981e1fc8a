"""A session's analyses as one page a club can read (``atout report``).

>>> from atout.present.report import read_analyses, page
>>> with open("analyses.jsonl", "rb") as f:                         # doctest: +SKIP
...     session = read_analyses(f)
>>> html = page(session, title="Club night")                        # doctest: +SKIP

The input is what ``atout batch --analyze`` writes (docs/format.md, "A session's
analyses"): one line per played deal, its analysis with the deal itself.  The page is one
self-contained HTML file (its style inline, no script, nothing fetched: it opens offline,
from a mail or a USB stick) that reads on a phone.  It shows:

- per player — by name where the deals name the players, else by seat — the points each
  is proven to have given away over the session (what the analysis proves: a sum of exact
  costs and proven lower bounds, with the cards not judged counted beside it), the proven
  mistakes and the decisive cards; one table per game and kind of value, since the values
  of two games (or of a point game and a made-or-not goal) do not add up;
- per board — the deals with the same ``board`` label, else with the same hands (a
  duplicate session's tables) — the hands in the game's seating, with ``--tables`` the
  board's contract table and par (:mod:`atout.present.report_tables`), then each table's play side
  by side (with ``--tables`` what the table says of its contract): players, contract and
  result, the double-dummy verdict from the first card
  (made / down / open), the decisive cards and the dearest proven mistakes with who made
  them, each seat's total, and the play trick by trick with every card's verdict;
- the lines that could not be analysed, with why.

Every number on the page is one of the file's, or a sum of them (tests/test_report.py
checks it).  Links open a deal in the viewer (``atout view``) at the card in question,
the deal carried in the link itself (:func:`viewer_link`).  The words for contracts, roles
and results are the viewer's (:mod:`atout.present.view`).

This module writes the page; the session is read and checked by :mod:`.session`, and what
it proves is summed by :mod:`.totals` (their names are this module's too).
"""

from __future__ import annotations

import html
import os
from typing import Any

from atout.cards import EXCUSE, is_trump, suit, token
from atout.errors import PositionError
from atout.position import PEOPLE_FIELDS, Position

from .link import make_link
from .report_tables import board_table, deal_played
# the session read and what it proves (their names are this module's too, as they were)
from .session import DeadLine, Played, ReportError, Session, read_analyses
from .totals import (PlayerTotal, boards, given_away, is_mistake, player_totals,  # noqa: F401
                     proven_cost, value_kind, verdict)
from .view import SUIT_ORDER, contract_text, outside, result, roles, sort_key, value_meaning
from .words import SYMBOLS, card_text, game_name, standard_points

__all__ = ["ReportError", "Session", "DeadLine", "Played", "read_analyses", "page",
           "viewer_link", "DEFAULT_VIEWER"]

#: where ``atout view`` serves its page by default
DEFAULT_VIEWER = "http://127.0.0.1:8765/"
#: the proven mistakes listed for each deal, dearest first
DEAREST = 5
#: where each seat sits round the table, seat 0 at the bottom, when the play goes clockwise
#: (the viewer's placing; an anticlockwise game mirrors it)
PLACES = {3: ("bottom", "left", "right"), 4: ("bottom", "left", "top", "right"),
          5: ("bottom", "left", "topleft", "topright", "right")}
MIRROR = {"left": "right", "right": "left", "topleft": "topright", "topright": "topleft"}


# -- links to the viewer ------------------------------------------------------------------------

def viewer_link(base: str, position: dict, card_index: int | None = None) -> str | None:
    """The viewer's link to ``position`` (a position object) at card ``card_index`` (the
    table before that card is played), the deal carried in the link (the share links of
    :mod:`atout.present.link`); None for a deal the links cannot carry."""
    # who played where is the page's, not the link's
    obj = {k: v for k, v in position.items() if k not in PEOPLE_FIELDS}
    try:
        return make_link(base, obj, card_index)
    except PositionError:        # a deal the links cannot carry: the page goes without
        return None


# -- the page ---------------------------------------------------------------------------------

def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _card(tok: str, game: str, compact: bool = False) -> str:
    """A card as the viewer writes it (atout.present.words.card_text): K♥ with its suit coloured,
    14 atout, Excuse; ``compact`` (hands and the play's table, as the viewer's lists of
    tricks): a trump as its number, the Excuse as ★, the full name in its title."""
    name = card_text(tok, game=game)
    if tok == "EX" or tok.startswith("T"):
        shown = ("★" if tok == "EX" else tok[1:]) if compact else name
        return f'<span class="c trump" title="{_e(name)}">{_e(shown)}</span>'
    sym = SYMBOLS[tok[-1]]
    red = " red" if tok[-1] in "HD" else ""
    return f'<span class="c{red}">{_e(tok[:-1])}{sym}</span>'


def _cards(toks, game: str, compact: bool = False) -> str:
    return (" " if compact else ", ").join(_card(t, game, compact) for t in toks)


def _hand_rows(pos: Position, cards) -> str:
    """A hand as a player holds it: the trumps (and the Excuse), then each suit."""
    rows: dict[int, list[str]] = {}
    for c in sorted(cards, key=sort_key(pos)):
        group = -1 if (is_trump(c) or c == EXCUSE) else SUIT_ORDER.index(suit(c))
        rows.setdefault(group, []).append(token(c))
    if not rows:
        return '<div class="row">—</div>'
    return "".join(f'<div class="row">{_cards(r, pos.game, compact=True)}</div>'
                   for _, r in sorted(rows.items()))


def _place(pos: Position, seat: int) -> str:
    place = PLACES[pos.seats][seat]
    return MIRROR.get(place, place) if pos.rules.facts.turn == "anticlockwise" else place


def _hands(d: Played, names: bool) -> str:
    """The hands at the start of play, round the table as the game seats them; the cards
    outside the hands in the middle."""
    pos = d.position
    role = roles(pos)
    out = [f'<div class="hands seats-{pos.seats}">']
    for s in range(pos.seats):
        who = _e(d.player(s)) if names else f"Seat {s}"
        lead = ' <span class="lead-mark">leads</span>' if s == pos.first else ""
        out.append(f'<div class="seat at-{_place(pos, s)} camp-{pos.contract.camp[s]}">'
                   f'<div class="who">{who} <span class="role">{_e(role[s])}</span>{lead}</div>'
                   f'{_hand_rows(pos, pos.hands[s])}</div>')
    middle = "".join(f'<div class="outside"><span class="label">{_e(part["label"])}</span> '
                     # (in words: a compact trump's "10" beside "J♠" read as a ten of spades)
                     f'{_cards(part["cards"], pos.game)}</div>' for part in outside(pos))
    turn = "anticlockwise ↺" if pos.rules.facts.turn == "anticlockwise" else "clockwise ↻"
    out.append(f'<div class="middle">{middle}<div class="turn">play goes {turn}</div></div>')
    out.append("</div>")
    return "".join(out)


def _value(v, bounds) -> str:
    return str(v) if v is not None else f"{bounds[0]} … {bounds[1]}"


def _cost(play: dict) -> str:
    """A card's verdict in a few characters: "·" one of the best, "12" a mistake costing
    12, "≥12" a mistake of at least 12, "?" not judged."""
    return verdict(play).mark()


def _verdict_title(play: dict) -> str:
    return verdict(play).words()


def _link(url: str | None, text: str = "view") -> str:
    return f' <a class="view" href="{_e(url)}">{_e(text)}</a>' if url else ""


def _made_words(d: Played) -> str:
    """The double-dummy verdict from the first card analysed, in words."""
    r, pos = d.result, d.position
    from atout.scoring import made_threshold
    value = _value(r["start_value"], r.get("start_bounds"))
    first = r["plays"][0]["index"] if r["plays"] else len(pos.played)
    where = "from the first card" if first == 0 else f"from card {first}"
    if made_threshold(pos.contract, pos.hands) is None:
        return (f'<span class="dd">Double dummy {where}: value <b class="start-value">'
                f'{_e(value)}</b></span>')
    made = {True: ("made", "made"), False: ("down", "down"), None: ("open", "open: not proven")}
    cls, text = made[r["made"]]
    return (f'<span class="dd">Double dummy {where}: <b class="verdict {cls}">{text}</b> '
            f'(value <span class="start-value">{_e(value)}</span>)</span>')


def _trick_of(pos: Position, index: int) -> int:
    return index // pos.seats + 1


def _play_line(d: Played, play: dict, viewer: str) -> str:
    pos = d.position
    cost_text = f"cost {_cost(play)}"
    best = (f' <span class="best">best: {_cards(play["best"], pos.game)}</span>'
            if play["best"] else "")
    url = viewer_link(viewer, d.result["position"], play["index"])
    return (f'<li data-index="{play["index"]}" data-cost="{proven_cost(play)}">'
            f'Trick {_trick_of(pos, play["index"])}: <b>{_e(d.player(play["seat"]))}</b> '
            f'<span class="role">({_e(roles(pos)[play["seat"]])})</span> played '
            f'{_card(play["card"], pos.game)} — <span class="cost">{_e(cost_text)}</span>{best}'
            f'{_link(url)}</li>')


def _seat_totals(d: Played) -> str:
    role = roles(d.position)
    rows = []
    for row in d.result["seats"]:
        s = row["seat"]
        given = str(row["cost"]) if row["cost"] is not None else f"≥{row['at_least']}"
        open_ = row.get("not_judged", 0) if row["cost"] is None else 0
        rows.append(f'<tr data-seat="{s}"><td>{_e(d.player(s))}</td><td>{_e(role[s])}</td>'
                    f'<td class="num given">{given}</td><td class="num mistakes">'
                    f'{row["mistakes"]}</td><td class="num not-judged">{open_}</td></tr>')
    return ('<div class="scroll"><table class="seat-totals"><thead><tr><th>player</th>'
            '<th>role</th><th>given away</th><th>mistakes</th><th>not judged</th></tr></thead>'
            '<tbody>' + "".join(rows) + "</tbody></table></div>")


def _play_table(d: Played) -> str:
    """The play trick by trick, one column per seat, each card with its verdict."""
    pos = d.position
    plays = {p["index"]: p for p in d.result["plays"]}
    head = "".join(f"<th>{_e(d.player(s))}</th>" for s in range(pos.seats))
    rows = []
    tricks = [(t.cards, t.winner) for t in pos.tricks]
    if pos.trick:
        tricks.append((tuple(pos.trick), None))
    index = 0
    for n, (cards, winner) in enumerate(tricks, 1):
        cells = [""] * pos.seats
        for k, (seat, c) in enumerate(cards):
            p = plays.get(index)
            mark, cls, title = "", "", "taken as given (before the analysis)"
            if p is not None:
                mark = _cost(p)
                cls = verdict(p).style
                title = _verdict_title(p)
            cls += " lead" if k == 0 else ""
            cls += " won" if seat == winner else ""
            cells[seat] = (f'<td class="{cls.strip()}" title="{_e(title)}" data-index="{index}">'
                           f'{_card(token(c), pos.game, compact=True)}<sup>{_e(mark)}</sup></td>')
            index += 1
        rows.append(f'<tr><th>{n}</th>{"".join(c or "<td></td>" for c in cells)}</tr>')
    return (f'<div class="scroll"><table class="play"><thead><tr><th>trick</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def _deal(d: Played, viewer: str, contract_tables=None) -> str:
    pos, r = d.position, d.result
    where = []
    if pos.table is not None:
        where.append(f"Table {_e(pos.table)}")
    where.append(f'<span class="deal-id">{_e(d.label)}</span>')
    res = result(pos)
    if res is not None:
        value = pos.outcome()["value"]
        said = (f" thirds: {standard_points(value)} points" if value_kind(pos) == "thirds"
                else "")
        outcome = (f'<span class="result">{_e(res["headline"])} '
                   f'(value <span class="result-value">{value}</span>{_e(said)})</span>')
    else:
        outcome = (f'<span class="result">not finished: {len(pos.played)} cards '
                   f'played</span>')
    out = [f'<article class="deal" id="deal-{d.line}" data-line="{d.line}">',
           f'<h4>{" · ".join(where)}</h4>',
           f'<p class="contract">{_e(contract_text(pos))}</p>',
           f'<p>{outcome}<br>{_made_words(d)}</p>',
           deal_played(pos, contract_tables, pos.players)]
    if r.get("stopped_by"):
        open_ = sum(1 for p in r["plays"] if not verdict(p).judged)
        why = "Ctrl-C" if r["stopped_by"] == "cancel" else "the time limit"
        out.append(f'<p class="note">{_e(why)} left {open_} of {len(r["plays"])} cards not '
                   f'judged (?); every verdict shown is proven.</p>')
    decisive = [p for p in r["plays"] if verdict(p).decisive]
    if decisive:
        out.append('<h5>Decisive cards</h5><ul class="decisive">'
                   + "".join(_play_line(d, p, viewer) for p in decisive) + "</ul>")
    # a decisive card is said once, above: the dearest mistakes are the others
    mistakes = sorted((p for p in r["plays"]
                       if verdict(p).is_mistake and not verdict(p).decisive),
                      key=lambda p: (-proven_cost(p), p["index"]))[:DEAREST]
    if mistakes:
        heading = "Other proven mistakes, dearest first" if decisive else "Dearest proven mistakes"
        out.append(f'<h5>{heading}</h5><ul class="mistakes">'
                   + "".join(_play_line(d, p, viewer) for p in mistakes) + "</ul>")
    elif r["plays"] and not decisive:
        out.append('<p class="none">No proven mistake.</p>')
    out.append(_seat_totals(d))
    first = r["plays"][0]["index"] if r["plays"] else len(pos.played)
    out.append(f'<details><summary>The play, card by card</summary>{_play_table(d)}</details>')
    out.append(f'<p class="open-deal">{_link(viewer_link(viewer, r["position"], first), "Open this deal in the viewer")}</p>')
    out.append("</article>")
    return "".join(out)


def _board(number: int, deals: list[Played], viewer: str, contract_tables=None) -> str:
    first = deals[0].position
    label = (f"Board {_e(first.board)}" if first.board is not None else f"Deal {number}")
    same = all(tuple(map(sorted, d.position.hands)) == tuple(map(sorted, first.hands))
               and d.position.contract.raw == first.contract.raw for d in deals)
    tables = f"{len(deals)} tables" if len(deals) > 1 else "1 table"
    out = [f'<section class="board" id="board-{number}"><h3>{label} '
           f'<span class="sub">{_e(game_name(first.game))} · {tables}</span></h3>']
    if same:
        # one deal, the same contract at every table: its hands once (a seat's name differs
        # from table to table, so the seats are named by number)
        out.append(_hands(deals[0], names=len(deals) == 1))
    # (--tables: who could have made what; its seats by name where one table played it)
    names = first.players if len(deals) == 1 else None
    out.append(board_table(first, contract_tables, names))
    out.append('<div class="tables">')
    for d in deals:
        if not same:
            out.append('<div class="table-col">' + _hands(d, names=True) + _deal(d, viewer, contract_tables)
                       + "</div>")
        else:
            out.append('<div class="table-col">' + _deal(d, viewer, contract_tables) + "</div>")
    out.append("</div></section>")
    return "".join(out)


def _players(deals: list[Played]) -> str:
    out = ['<section id="players"><h2>Players</h2>',
           '<p class="legend">Given away: the points each player is proven to have cost their '
           'camp against double-dummy play (all hands open), summed over the session: exact '
           'costs and proven lower bounds (≥: some cards were not judged in the time, counted '
           'beside it). Fewest per deal first.</p>']
    # each group's values in words, as each of its deals counts them (not the first's alone)
    meanings: dict[tuple[str, str], list[str]] = {}
    for d in deals:
        said = meanings.setdefault((d.position.game, value_kind(d.position)), [])
        if value_meaning(d.position) not in said:
            said.append(value_meaning(d.position))
    for (game, kind), totals in player_totals(deals).items():
        unit = ("goals (1: a goal made or not)" if kind == "goals"
                else "; ".join(meanings[(game, kind)]))
        out.append(f'<h3>{_e(game_name(game))} <span class="sub">values: {_e(unit)}</span></h3>')
        out.append('<div class="scroll"><table class="players" data-game="' + _e(game)
                   + '" data-kind="' + kind + '"><thead><tr><th>player</th><th>deals</th>'
                   '<th>cards</th><th>given away</th><th>per deal</th><th>proven mistakes</th>'
                   '<th>decisive</th><th>not judged</th></tr></thead><tbody>')
        for t in totals:
            given = str(t.given) if t.exact else f"≥{t.given}"
            out.append(f'<tr data-player="{_e(t.name)}"><td>{_e(t.name)}</td>'
                       f'<td class="num deals">{t.deals}</td><td class="num cards">{t.cards}</td>'
                       f'<td class="num given">{given}</td>'
                       f'<td class="num per-deal">{"" if t.exact else "≥"}'
                       f'{t.given / t.deals:.1f}</td>'
                       f'<td class="num mistakes">{t.mistakes}</td>'
                       f'<td class="num decisive-cards">{t.decisive}</td>'
                       f'<td class="num not-judged">{t.not_judged}</td></tr>')
        out.append("</tbody></table></div>")
    out.append("</section>")
    return "".join(out)


def _failed(session: Session) -> str:
    if not session.failed:
        return ""
    items = "".join(f'<li><b>{_e(f.ident if f.ident is not None else f"line {f.line}")}</b>: '
                    f'{_e(f.field)}: {_e(f.reason)}</li>' for f in session.failed)
    return f'<section id="failed"><h2>Not analysed</h2><ul>{items}</ul></section>'


STYLE = """
:root { color-scheme: light; --taker: #1d5fa8; --defence: #8a4b08; --bad: #b3261e; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       padding: 0 12px 40px; color: #1c1c1c; background: #fafaf7; }
header, main { max-width: 1200px; margin: 0 auto; }
h1 { font-size: 1.5em; margin: 16px 0 4px; } h2 { margin-top: 28px; }
h3 { margin: 20px 0 8px; } h4 { margin: 0 0 4px; } h5 { margin: 10px 0 2px; font-size: 1em; }
.sub, .meta, .legend, .note, .role, .turn, .label { color: #555; font-weight: normal; }
.sub { font-size: .8em; }
/* a box wider than the screen scrolls sideways, a shadow on the side with more to see */
.scroll { overflow-x: auto;
  background: linear-gradient(to right, #fafaf7 30%, rgba(250,250,247,0)) left / 24px 100% no-repeat local,
              linear-gradient(to left, #fafaf7 30%, rgba(250,250,247,0)) right / 24px 100% no-repeat local,
              radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.18), transparent) left / 10px 100% no-repeat scroll,
              radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.18), transparent) right / 10px 100% no-repeat scroll; }
/* the first column (a player, a seat's row) stays in view while the rest scrolls */
table.ctable tbody th, table.ctable thead th:first-child, table.players td:first-child,
table.players th:first-child { position: sticky; left: 0; background: #fafaf7; z-index: 1; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { padding: 3px 7px; border-bottom: 1px solid #ddd; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.c { white-space: nowrap; } .red { color: #c0141c; } .trump { color: #333; }
.board { border-top: 2px solid #ccc; margin-top: 18px; }
.tables { display: grid; grid-template-columns: repeat(auto-fit, minmax(330px, 1fr)); gap: 14px; }
.deal { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 10px 12px; }
.verdict.made { color: #1b7a34; } .verdict.down { color: var(--bad); } .verdict.open { color: #777; }
ul { padding-left: 18px; margin: 4px 0; } li { margin: 2px 0; }
.decisive li, td.decisive { color: var(--bad); }
.cost { font-weight: 600; } .best { color: #555; }
a.view { font-size: .9em; }
.hands { display: grid; gap: 6px; margin: 8px 0; grid-template-columns: 1fr 1fr 1fr;
         grid-template-areas: "topleft top topright" "left middle right" ". bottom ."; }
.hands.seats-4 { grid-template-areas: ". top ." "left middle right" ". bottom ."; }
.hands.seats-3 { grid-template-areas: "left middle right" ". bottom ."; }
.seat { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 4px 6px; }
.seat.camp-0 { border-left: 4px solid var(--taker); } .seat.camp-1 { border-left: 4px solid var(--defence); }
.at-bottom { grid-area: bottom; } .at-top { grid-area: top; } .at-left { grid-area: left; }
.at-right { grid-area: right; } .at-topleft { grid-area: topleft; } .at-topright { grid-area: topright; }
.middle { grid-area: middle; align-self: center; text-align: center; font-size: .9em; }
.who { font-weight: 600; } .lead-mark { font-size: .8em; color: #1b7a34; }
.row { white-space: normal; }
table.play td { white-space: nowrap; } table.play td.lead { background: #f3f3ee; }
table.play td.won { font-weight: 700; } table.play sup { color: #666; padding-left: 1px; }
table.play td.mistake sup { color: var(--bad); font-weight: 700; }
table.play td.decisive { outline: 2px solid var(--bad); outline-offset: -2px; }
details { margin-top: 8px; } summary { cursor: pointer; color: #1d5fa8; }
table.ctable { font-size: .9em; } table.ctable td, table.ctable thead th { white-space: nowrap; }
table.ctable tbody th { font-weight: 600; min-width: 7em; }
.par, .bidding { font-weight: 600; }
nav a { margin-right: 8px; white-space: nowrap; }
/* a long unbroken name breaks inside its cell rather than widen the page past the screen */
.tables > div, .deal { min-width: 0; }
h4, li, .who { overflow-wrap: anywhere; }
/* in a table a name breaks only where it must, never to one letter a line: the table
   scrolls in its box instead */
th, td { overflow-wrap: break-word; }
@media (max-width: 640px) {
  body { font-size: 14px; padding: 0 8px 30px; }
  .tables { grid-template-columns: 1fr; }
  .hands, .hands.seats-3, .hands.seats-4 { grid-template-columns: 1fr;
         grid-template-areas: none; }
  .hands > div { grid-area: auto; }
  .middle { text-align: left; }
  table.ctable tbody th { white-space: normal; max-width: 9.5em; }
}
"""


def page(session: Session, title: str = "Session analysis", viewer: str = DEFAULT_VIEWER,
         source: str | None = None, tables=None) -> str:
    """The whole page (see the module's doc): ``viewer`` is the address of the viewer the
    links open (``atout view`` or a server's ``--http``); ``source``: the analyses' file,
    named in the header by its name alone (a page is mailed: the folders it was made in
    are nobody's business); ``tables``: the contract tables of the deals
    (:func:`atout.present.report_tables.read_tables`), each board's shown under its hands and each
    table's word on the contract played beside its play."""
    deals = session.deals
    groups = boards(deals)
    games = sorted({d.position.game for d in deals})
    limit = sum(1 for d in deals if d.result.get("stopped_by"))
    cards = sum(len(d.result["plays"]) for d in deals)
    judged = sum(1 for d in deals for p in d.result["plays"]
                 if verdict(p).judged)
    meta = (f'{len(deals)} deals analysed ({", ".join(game_name(g) for g in games)}), '
            f'{len(groups)} boards; {cards} cards, {judged} with a verdict (the rest not '
            f'judged in the time: {limit} deals stopped by the limit)'
            + (f'; {len(session.failed)} not analysed' if session.failed else "")
            + (f" — from {_e(os.path.basename(source))}" if source else ""))
    links = viewer_link(viewer, deals[0].result["position"], 0) if deals else None
    how = ("Each card is judged against double-dummy play (every hand open): · one of the best "
           "cards, N a mistake costing N, ≥N a mistake of at least N (proven), ? not judged "
           "in the time; a decisive card changed the contract's fate (made into down, or "
           "down into made).")
    if links:
        how += (f" The links open the deal in the viewer at {_e(viewer)} (start it with "
                f"<code>atout view</code>), at the card in question.")
    nav = " ".join(f'<a href="#board-{i}">{_e(g[0].position.board) if g[0].position.board is not None else i}</a>'
                   for i, g in enumerate(groups, 1))
    body = [f'<header><h1>{_e(title)}</h1><p class="meta">{meta}</p>'
            f'<p class="legend">{how}</p></header><main>']
    if deals:
        body.append(_players(deals))
        body.append(f'<section id="boards"><h2>Boards</h2><nav>{nav}</nav>')
        body += [_board(i, g, viewer, tables) for i, g in enumerate(groups, 1)]
        body.append("</section>")
    body.append(_failed(session))
    body.append("</main>")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{_e(title)}</title><style>{STYLE}</style></head><body>'
            + "".join(body) + "</body></html>\n")


def write_page(path: str, text: str) -> None:
    """The page to ``path``, whole or not at all (a temporary file renamed into place; a
    link is followed, and the temporary file is removed if it cannot be).  A path that is
    there and is not a regular file — a device such as /dev/null, a pipe, a folder — is
    an OSError: the rename would have replaced it (as root, /dev/null itself)."""
    import errno
    import os
    import stat

    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file (-o - writes the page to standard "
                                    "output)")
    tmp = f"{target}.atout-tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
