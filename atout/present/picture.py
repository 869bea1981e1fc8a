"""The table as a picture: an SVG image of a position for a forum post or a club bulletin.

:func:`svg` draws what the viewer draws (``atout/present/view.py``'s :func:`table`, with or
without one seat's view): the game and contract, the hands by seat in the game's seating
(seat 0 at the bottom, the next seats round the table the way the game turns), the trick
on the table, the cards outside the hands, and optionally the double-dummy value with each
legal card's value and cost.  ``atout show --svg`` writes it; the viewer's "Save image"
asks the server for it (and rasterises it to PNG in the browser).  Plain SVG 1.1 text and
shapes, system fonts: any browser or image program shows it.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from atout.cards import token as token_of

from .words import SYMBOLS, card_text, game_name, words_of
#: where each seat sits (column, row) when the play goes clockwise; anticlockwise mirrors it
PLACES = {3: [(1, 2), (0, 1), (2, 1)],
          4: [(1, 2), (0, 1), (1, 0), (2, 1)],
          5: [(1, 2), (0, 1), (0, 0), (2, 0), (2, 1)]}
WIDTH = 960
COLUMN = 300                 # a seat's box
GAP = 15
CARD_W, CARD_H, CARD_GAP = 26, 36, 3
PER_ROW = 10                 # cards a row in a box
BADGE_H = 24
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
COLOURS = {"optimal": "#1e8e4e", "small": "#c77c00", "big": "#c62828"}


def _text(x, y, text, size=13, weight="normal", fill="#1d232a", anchor="start") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}">{escape(str(text))}</text>')


def _card(x, y, token: str, trump_word: str, excuse: str, dim: bool = False) -> str:
    """One card: its rank and suit symbol (a trump its number, the Excuse a star)."""
    if token == "EX":
        fill, ink, stroke, rank, pip, pip_size = "#efe6ff", "#4b2a8a", "#a88bd8", "★", excuse, 6
    elif token.startswith("T"):
        fill, ink, stroke, rank, pip, pip_size = "#fff4d6", "#6b4a00", "#d9b45a", token[1:], trump_word, 6
    else:
        red = token[-1] in "HD"
        fill, ink, stroke = "#ffffff", "#c62828" if red else "#1d232a", "#9aa3ac"
        rank, pip, pip_size = token[:-1], SYMBOLS[token[-1]], 12
    opacity = ' opacity="0.45"' if dim else ""
    return (f'<g{opacity}><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="3" '
            f'fill="{fill}" stroke="{stroke}"/>'
            + _text(x + CARD_W / 2, y + 15, rank, 13, "bold", ink, "middle")
            + _text(x + CARD_W / 2, y + 29 if pip_size > 6 else y + 28, pip, pip_size, "normal",
                    ink, "middle") + "</g>")


def _back(x, y) -> str:
    return (f'<rect x="{x}" y="{y}" width="12" height="{CARD_H}" rx="2" fill="#2f4a75" '
            f'stroke="#24395c"/>')


def _groups(cards: list[str]) -> list[list[str]]:
    """The hand as the viewer sorts it, one group per suit (trumps and the Excuse together),
    each cut into rows of :data:`PER_ROW`."""
    groups: list[list[str]] = []
    last = None
    for t in cards:
        g = "T" if t == "EX" or t.startswith("T") else t[-1]
        if g != last:
            groups.append([])
            last = g
        groups[-1].append(t)
    return [group[i:i + PER_ROW] for group in groups for i in range(0, len(group), PER_ROW)]


def _costs(table: dict, values: dict | None) -> dict[str, tuple[int, int, str]]:
    """Each legal card's (value, cost, level) where ``values`` give them, as the page colours
    them (best, small loss, big loss)."""
    if not values or values.get("status") != "ok" or not values.get("cards"):
        return {}
    seat = table["to_play"]
    maximizing = table["camps"][seat] == table["maximizing_camp"]
    out = {}
    for token, v in values["cards"].items():
        cost = values["value"] - v if maximizing else v - values["value"]
        level = "optimal" if cost == 0 else "small" if cost <= table["small_loss"] else "big"
        out[token] = (v, cost, level)
    return out


def _value_text(table: dict, v) -> str:
    return f"+{v}" if table["scale"]["signed"] and v > 0 else str(v)


def _seat_box(table: dict, seat: int, costs: dict):
    """The height of ``seat``'s box and a function drawing it at (x, y)."""
    hand = table["hands"][seat]
    hidden = (table.get("hidden") or [0] * table["seats"])[seat]
    rows = _groups(hand)
    to_play = table["to_play"] == seat
    row_h = CARD_H + (BADGE_H if to_play and costs else 0) + 4
    body = len(rows) * row_h if rows else (CARD_H + 4 if hidden else 18)
    height = 28 + body + 6
    trump_word = words_of(table["game"]).trump

    def draw(x, y) -> str:
        parts = [f'<rect x="{x}" y="{y}" width="{COLUMN}" height="{height}" rx="8" '
                 f'fill="#ffffff" fill-opacity="0.95" stroke="{"#ffd54a" if to_play else "none"}" '
                 f'stroke-width="3"/>']
        role = table["roles"][seat]
        head = f"Seat {seat} · {role[:1].upper() + role[1:]}"
        if table.get("view_seat") == seat:
            head += " · this view"
        parts.append(_text(x + 10, y + 19, head, 13, "bold"))
        if to_play:
            parts.append(_text(x + COLUMN - 10, y + 19, "to play", 12, "bold", "#7a5b00", "end"))
        cy = y + 28
        for row in rows:
            for i, token in enumerate(row):
                cx = x + 10 + i * (CARD_W + CARD_GAP)
                legal = to_play and token in table["legal"]
                parts.append(_card(cx, cy, token, trump_word, table["excuse"],
                                   dim=to_play and not legal))
                if legal and token in costs:
                    v, cost, level = costs[token]
                    parts.append(f'<rect x="{cx - 1}" y="{cy + CARD_H + 2}" width="{CARD_W + 2}" '
                                 f'height="{BADGE_H - 2}" rx="3" fill="{COLOURS[level]}"/>')
                    parts.append(_text(cx + CARD_W / 2, cy + CARD_H + 12, _value_text(table, v),
                                       9, "bold", "#ffffff", "middle"))
                    parts.append(_text(cx + CARD_W / 2, cy + CARD_H + 22,
                                       "best" if cost == 0 else f"−{cost}", 9, "normal",
                                       "#ffffff", "middle"))
            cy += row_h
        if hidden:
            for i in range(hidden):
                parts.append(_back(x + 10 + i * 8, cy))
            parts.append(_text(x + 10 + hidden * 8 + 16, cy + 22,
                               f"{hidden} card{'' if hidden == 1 else 's'} unseen", 12, "normal",
                               "#5d6873"))
        elif not rows:
            parts.append(_text(x + 10, cy + 13, "no cards left", 12, "normal", "#5d6873"))
        return "".join(parts)

    return height, draw


def svg(table: dict, values: dict | None = None, title: str | None = None,
        what_if: dict | None = None) -> str:
    """The SVG picture of a viewer table (:func:`atout.present.view.shown`); ``values``: the
    position's double-dummy result (``status``, ``value``, ``cards``, ``bounds``) to show
    its value and each legal card's value and cost (left out from one seat's view, which
    cannot know them); ``title``: a first line (default: the deal's id); ``what_if``: where
    this line leaves the deal as really played (:func:`what_if`), said under the title."""
    if table.get("view_seat") is not None:
        values = None
    costs = _costs(table, values)
    seats = table["seats"]
    places = PLACES[seats]
    if table["turn"] == "anticlockwise":
        places = [(2 - col, row) for col, row in places]
    boxes = [_seat_box(table, s, costs) for s in range(seats)]
    trump_word = words_of(table["game"]).trump

    lines = [title if title is not None else
             (f"{table['id']} · " if table.get("id") is not None else "") + game_name(table["game"]),
             table["contract"]]
    played = table["played"]
    total = table["tricks_in_deal"] * seats
    if table["outcome"]:
        where = f"All {played} cards played"
    elif played == 0:
        where = "No card played yet"
    else:
        where = f"After card {played} of {total}"
    if table["to_play"] is not None:
        where += f" · trick {len(table['tricks']) + 1} of {table['tricks_in_deal']}, seat {table['to_play']} to play"
    if table.get("view_seat") is not None:
        where += f" · seen from seat {table['view_seat']}"
    lines.append(where)
    if what_if:
        lines.append(what_if_text(table, what_if))
    if values and values.get("status") == "ok":
        lines.append(f"Double-dummy value: {_value_text(table, values['value'])} "
                     f"({table['value_meaning']})")
    elif values and values.get("bounds"):
        lo, hi = values["bounds"]
        lines.append(f"Double-dummy value: between {_value_text(table, lo)} and "
                     f"{_value_text(table, hi)} (not solved in its time limit)")
    if table["outcome"] and table.get("result"):
        lines.append(table["result"]["headline"])

    top = 20 + 20 * len(lines)
    heights = [0, 0, 0]
    for (col, row), (h, _) in zip(places, boxes):
        heights[row] = max(heights[row], h)
    trick_h = CARD_H + 36
    heights[1] = max(heights[1], trick_h)
    ys = [top + 12, 0, 0]
    ys[1] = ys[0] + (heights[0] + GAP if heights[0] else 0)
    ys[2] = ys[1] + heights[1] + GAP
    felt_bottom = ys[2] + heights[2] + 12
    x_of = [15 + col * (COLUMN + GAP) for col in range(3)]

    parts = [f'<rect x="0" y="0" width="{WIDTH}" height="HEIGHT" fill="#eef1f4"/>']
    for i, line in enumerate(lines):
        parts.append(_text(15, 26 + 20 * i, line, 15 if i == 0 else 13,
                           "bold" if i == 0 else "normal"))
    parts.append(f'<rect x="5" y="{top}" width="{WIDTH - 10}" height="{felt_bottom - top}" '
                 f'rx="14" fill="#1f6f4a"/>')
    for (col, row), (h, draw) in zip(places, boxes):
        parts.append(draw(x_of[col], ys[row]))

    # the trick on the table (or the last one, dimmed), in the middle
    shown = table["trick"] or (table["tricks"][-1]["cards"] if table["tricks"] else [])
    last = not table["trick"] and bool(table["tricks"])
    if shown and not table["outcome"]:
        cx = x_of[1] + (COLUMN - len(shown) * (CARD_W + 12)) / 2
        cy = ys[1] + (heights[1] - trick_h) / 2
        label = "last trick" if last else f"trick {len(table['tricks']) + 1}"
        parts.append(_text(x_of[1] + COLUMN / 2, cy + 10, label, 12, "bold", "#ffffff", "middle"))
        for i, (seat, token) in enumerate(shown):
            x = cx + i * (CARD_W + 12)
            parts.append(_card(x, cy + 16, token, trump_word, table["excuse"]))
            parts.append(_text(x + CARD_W / 2, cy + 16 + CARD_H + 13, f"seat {seat}", 10,
                               "normal", "#ffffff", "middle"))

    # the cards outside the hands, under the table
    y = felt_bottom + 14
    for part in table["outside"]:
        parts.append(_text(15, y + 12, part["label"], 12, "normal", "#5d6873"))
        y += 18
        x = 15
        for token in part["cards"]:
            parts.append(_card(x, y, token, trump_word, table["excuse"]))
            x += CARD_W + CARD_GAP
        for _ in range(part.get("hidden") or 0):
            parts.append(_back(x, y))
            x += 15
        y += CARD_H + 10
    height = y + 8
    parts[0] = parts[0].replace("HEIGHT", str(height))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family={quoteattr(FONT)}>'
            f'<title>{escape(lines[0])}</title>' + "".join(parts) + "</svg>\n")


def file_name(table: dict) -> str:
    """A file name for the picture: the deal's id (or game) and the cards played."""
    base = str(table["id"]) if table.get("id") is not None else table["game"]
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in base)[:60] or "deal"
    return f"{safe}-card-{table['played']}"


def check_values(values, table: dict) -> dict | None:
    """``values`` as a request gives them (the viewer sends the result of its search), or a
    ValueError naming what is wrong: ``{"status": "ok"|"limit", "value", "cards", "bounds"}``
    with whole numbers, ``cards`` naming legal cards of the seat to play."""
    if values is None:
        return None
    if not isinstance(values, dict):
        raise ValueError("must be an object {status, value, cards, bounds}")
    status = values.get("status")
    if status not in ("ok", "limit"):
        raise ValueError("status must be ok or limit")
    whole = lambda v: type(v) is int and abs(v) < 1 << 31      # noqa: E731
    if status == "ok":
        if not whole(values.get("value")):
            raise ValueError("value must be a whole number")
        cards = values.get("cards") or {}
        if not isinstance(cards, dict) or not all(
                t in table["legal"] and whole(v) for t, v in cards.items()):
            raise ValueError("cards must map legal cards of the seat to play to whole numbers")
        return {"status": "ok", "value": values["value"], "cards": cards}
    bounds = values.get("bounds")
    if not (isinstance(bounds, list) and len(bounds) == 2 and all(map(whole, bounds))
            and bounds[0] <= bounds[1]):
        raise ValueError("bounds must be [low, high], whole numbers")
    return {"status": "limit", "bounds": bounds}


def what_if(position, real, view_seat: int | None = None) -> dict | None:
    """Where the cards played in ``position`` leave ``real`` (the deal's cards as really
    played, tokens), or None when they follow it: ``{"card": k, "played": token, "really":
    token or None}``, card k counted from 1.  From a seat's view the card really played is
    named only when that seat held it; a ValueError when ``real`` is not a list of cards."""
    if not (isinstance(real, list) and len(real) <= len(position.rules.deck)
            and all(isinstance(t, str) and t.isprintable() and len(t) <= 4 for t in real)):
        raise ValueError("must be the list of the deal's cards as played, as tokens")
    played = [token_of(c) for c in position.played]
    hands = [[token_of(c) for c in h] for h in position.hands]
    for k, token in enumerate(played):
        if k >= len(real) or real[k] != token:
            really = real[k] if k < len(real) else None
            if view_seat is not None and really not in hands[view_seat]:
                really = None               # the seat cannot have seen it there
            return {"card": k + 1, "played": token, "really": really}
    return None


def what_if_text(table: dict, what_if: dict) -> str:
    """The picture's line for a what-if: the card played instead, and of which card."""

    def name(token: str) -> str:            # as every tool writes a card: K♥, 14 atout, Excuse
        return card_text(token, game=table["game"])

    text = f"What-if, not the real play: from card {what_if['card']}, {name(what_if['played'])}"
    if what_if.get("really"):
        text += f" was played instead of {name(what_if['really'])}"
    else:
        text += " was played instead of the real card"
    return text
