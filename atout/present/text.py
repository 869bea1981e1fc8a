"""Positions and results as a player reads them (``atout show``, ``atout solve --text``).

Cards print with suit symbols (``K♠``, ``10♥``, ``T21``, ``EX``), or as their plain tokens
(``KS``) with ``ascii=True`` — for terminals whose encoding has no ♠♥♦♣ (see
:func:`want_ascii`).
"""

from __future__ import annotations

import sys

from atout.cards import EXCUSE, Card, is_trump, suit, token
from atout.games import AUSTRIAN, EXCUSE_FRENCH, FRENCH, PRIESTERTAROCK
from atout.printable import printable

from . import view
from .view import roles, won_so_far
from .words import SYMBOLS, card_text, cards_text, game_name, plain, standard_points, words_of

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def can_encode_symbols(stream=None) -> bool:
    """Whether ``stream`` (default stdout) can print ♠♥♦♣."""
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣–·".encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def want_ascii(args=None, stream=None) -> bool:
    """ASCII output: asked for (``--ascii``), or stdout cannot encode the suit symbols."""
    return bool(getattr(args, "ascii", False)) or not can_encode_symbols(stream)


def _sort_key(rules, c: Card):
    # suits in the order ♠ ♥ ♦ ♣, then tarock; highest first
    if c == EXCUSE:  # the French Excuse apart, after the trumps; the Narr and Sküs on top
        return (4, 1000 if rules.excuse == EXCUSE_FRENCH else -1000)
    return (suit(c), -rules.power[c])


def hand_text(rules, cards, ascii: bool = False) -> str:
    """A hand by suit, highest first: ``♠ K 10 7 · ♥ Q · T21 T15 EX``."""
    groups: dict[int, list[Card]] = {}
    for c in sorted(cards, key=lambda c: _sort_key(rules, c)):
        groups.setdefault(4 if (is_trump(c) or c == EXCUSE) else suit(c), []).append(c)
    parts = []
    for s, cs in groups.items():
        if s == 4:
            parts.append(" ".join(token(c) for c in cs))
        else:
            letter = "SHDC"[s]
            head = letter if ascii else SYMBOLS[letter]
            parts.append(head + " " + " ".join(token(c)[:-1] for c in cs))
    sep = " | " if ascii else " · "
    return sep.join(parts) if parts else "-"


def contract_text(pos, ascii: bool = False, partner_known: bool = True) -> str:
    """The game's name and the contract in the viewer's words (:func:`.view.contract_text`);
    ``partner_known=False``: as a seat that cannot yet tell who holds the called card
    sees it."""
    return plain(f"{game_name(pos.game)}, {view.contract_text(pos, partner_known, ascii)}",
                 ascii)


def _num(x) -> str:
    return f"{x:g}"


def _label(ident, ascii: bool) -> str:
    """A position's id as the heading of its text: escaped, as every user text printed
    (atout.printable)."""
    return "(no id)" if ident is None else printable(str(ident), ascii)


def describe_position(pos, ascii: bool = False) -> str:
    """The position as a player reads it: contract, hands by seat with roles, what lies
    outside the hands, the tricks so far with their winners, and the points won."""
    role = roles(pos)
    lines = [f"{_label(pos.id, ascii)}: {contract_text(pos, ascii)}"]
    width = max(len(r) for r in role)
    lines.append("hands now:" if pos.played else "hands:")
    for s in range(pos.seats):
        mark = "  <- to play" if s == pos.to_play else ""
        lines.append(f"  seat {s} {role[s]:<{width}}  {hand_text(pos.rules, pos.held[s], ascii)}{mark}")
    lines += _OUTSIDE_LINES[pos.rules.facts.family](pos, ascii)
    if pos.tricks or pos.trick:
        lines.append("tricks:")
        for i, t in enumerate(pos.tricks):
            played = "  ".join(f"{s}:{card_text(c, ascii)}" for s, c in t.cards)
            lines.append(f"  {i + 1:>2}. {played}  -> seat {t.winner}")
        if pos.trick:
            played = "  ".join(f"{s}:{card_text(c, ascii)}" for s, c in pos.trick)
            lines.append(f"  {len(pos.tricks) + 1:>2}. {played}  (on the table)")
    # counted as the viewer counts them (one count: the cards outside the hands included)
    won = won_so_far(pos)
    rows = won["rows"]
    if won["by"] == "seat":
        lines.append("points so far: " + ", ".join(f"seat {s} {_num(r['points'])}"
                                                   for s, r in enumerate(rows)))
    elif pos.tricks:
        side = pos.rules.facts.declarer_role
        tricks = rows[0]["tricks"]
        text = (f"won so far: {side}'s camp {_num(rows[0]['points'])} points in "
                f"{tricks} trick{'' if tricks == 1 else 's'}, the others "
                f"{_num(rows[1]['points'])} in {rows[1]['tricks']}")
        if "bouts" in rows[0]:
            text += f"; bouts {rows[0]['bouts']} to {rows[1]['bouts']}"
        if any(n.startswith("Points include") for n in won["notes"]):
            text += f" (with {view.outside_counted(pos)})"
        lines.append(text)
    if pos.is_finished:
        lines.append("the deal is finished")
    else:
        lines.append(f"seat {pos.to_play} ({role[pos.to_play]}) to play, trick {pos.trick_no + 1}")
    return "\n".join(lines)


# -- results in words --------------------------------------------------------------------------

def describe_deal(d, ident=None, ascii: bool = False) -> str:
    """A deal as dealt (atout/dealt.py: no contract yet): the hands by seat and the cards
    outside them, who leads."""
    from atout.games import rules_for

    rules = rules_for(d.game)
    lines = [f"{_label(ident, ascii)}: {game_name(d.game)}, a deal as dealt (no contract yet); "
             f"seat {d.first} leads" + (f", seat {d.dealer} dealt" if d.dealer is not None else ""),
             "hands as dealt:"]
    for s, hand in enumerate(d.hands):
        lines.append(f"  seat {s}  {hand_text(rules, hand, ascii)}")
    lines.append(f"{words_of(d.game).outside}: {hand_text(rules, d.outside, ascii)}")
    return plain("\n".join(lines), ascii)


def _french_outside(pos, ascii: bool) -> list[str]:
    con = pos.contract
    name = "écart" if con.bid in ("prise", "garde") else "dog"
    if ascii:
        name = name.replace("é", "e")
    owner = "the taker's" if con.outside[0] else "the defence's"
    cards = con.outside[0] or con.outside[1]
    return [f"{name} ({owner}): {hand_text(pos.rules, cards, ascii)}"]


def _priest_outside(pos, ascii: bool) -> list[str]:
    con = pos.contract
    return [f"open cards (dealer seat {con.dealer}'s party): "
            f"{hand_text(pos.rules, con.outside[0] + con.outside[1], ascii)}"]


def _austrian_outside(pos, ascii: bool) -> list[str]:
    con = pos.contract
    if con.bid == "trischaken":
        return [f"talon (to the winners of tricks 1-6): {cards_text(con.talon, ascii)}"]
    raw = con.raw if isinstance(con.raw, dict) else {}
    return [f"talon cards counting for seat {seat}'s camp: {cards_text(cs, ascii)}"
            for seat, cs in (raw.get("side_cards") or {}).items()]


#: each rulebook's cards outside the hands, in a position's words
_OUTSIDE_LINES = {FRENCH: _french_outside, PRIESTERTAROCK: _priest_outside,
                  AUSTRIAN: _austrian_outside}


def value_meaning(pos, ascii: bool = False) -> str:
    """What the solver's value counts in this game, in the viewer's words."""
    return plain(view.value_meaning(pos), ascii)


def made_text(pos, made) -> str:
    """Whether the taker's/declarer's camp makes its contract with best play, as far as it
    is proven."""
    camp = words_of(pos.game).camps[0]
    if made is True:
        return f"proven: {camp} makes its contract with best play"
    if made is False:
        return f"proven: {camp} goes down with best play"
    return f"not proven whether {camp} makes its contract"


def outcome_text(pos, out: dict, ascii: bool = False) -> list[str]:
    """The end of a deal in words: who makes or loses by how much, bonuses, every score."""
    lines = []
    role = roles(pos)
    if "taker_points" in out:
        verdict = "makes" if out["made"] else "goes down in"
        lines.append(f"the taker {verdict} the contract by {abs(out['margin'])}: "
                     f"{_num(out['taker_points'])} card points with {out['bouts']} "
                     f"bout{'s' if out['bouts'] != 1 else ''}, {out['needed']} needed")
        bonuses = []
        if out.get("petit_au_bout"):
            bonuses.append(f"petit au bout for the {out['petit_au_bout']}")
        if out.get("chelem"):
            bonuses.append(f"chelem for the {out['chelem']}")
        if out.get("poignee"):
            bonuses.append(f"poignée {out['poignee']}")
        if bonuses:
            lines.append("bonuses: " + ", ".join(bonuses) + f"; multiplier {out['multiplier']}")
        else:
            lines.append(f"no bonus; multiplier {out['multiplier']}")
    elif "caller_points" in out:
        verdict = "wins" if out["made"] else "loses"
        lines.append(f"the caller's party {verdict}: {out['caller_points']} of {out['total']} "
                     f"points ({out['needed']} needed), the others {out['other_points']}")
    elif "declarer_points" in out:
        verdict = "makes" if out["made"] else "fails"
        goal = "its game" if out.get("objective") in (None, "contract") else out["objective"]
        if out.get("counting") == "standard":
            points = (f"{standard_points(out['count'], ascii)} points counted in threes "
                      f"({out['declarer_points']} card points in {out['declarer_cards']} "
                      f"cards)")
        else:
            points = f"{out['declarer_points']} card points"
        lines.append(f"the declarer's camp {verdict} {goal}: {points}, "
                     f"tricks per seat {out['tricks']}")
    elif "points" in out:
        lines.append("points per seat: " + ", ".join(f"seat {s} {p}" for s, p in
                                                      enumerate(out["points"]))
                     + "; tricks " + " ".join(str(t) for t in out["tricks"]))
    if out.get("scores"):
        lines.append("scores: " + ", ".join(f"seat {s} ({role[s]}) {v:+d}"
                                            for s, v in enumerate(out["scores"])))
    return lines


def describe_result(pos, result: dict, ascii: bool = False) -> str:
    """A solve result in words, for the position it answers."""
    lines = [f"{_label(result.get('id'), ascii)}: {contract_text(pos, ascii)}"]
    role = roles(pos)
    status = result.get("status")
    if status == "error":
        lines.append(f"refused: {result.get('field')}: {result.get('reason')}")
        return "\n".join(lines)
    seat = result.get("to_play")
    if status == "limit":
        lo, hi = result.get("bounds") or (None, None)
        why = {"time": "the time limit", "nodes": "the node limit",
               "cancel": "Ctrl-C"}.get(result.get("stopped_by"), "a limit")
        lines.append(f"stopped by {why}: the value is between {lo} and {hi} "
                     f"({value_meaning(pos, ascii)})")
        if pos.contract.bid != "trischaken":
            lines.append(made_text(pos, result.get("made")))
        guess = result.get("best_guess")
        if guess:
            guess = guess if isinstance(guess, list) else [guess]
            lines.append(f"best card found so far for seat {seat}: {cards_text(guess, ascii, pos.game)}")
        return "\n".join(lines)
    lines.append(f"value {result['value']}: {value_meaning(pos, ascii)}")
    if seat is not None:
        best = result.get("best") or []
        lines.append(f"seat {seat} ({role[seat]}) to play; best: {cards_text(best, ascii, pos.game)}")
        if result.get("cards"):
            others = {c: v for c, v in result["cards"].items() if c not in best}
            if others:
                lines.append("other cards: " + ", ".join(f"{card_text(c, ascii, pos.game)} {v}"
                                                         for c, v in others.items()))
    if result.get("line"):
        lines.append("perfect play on: " + cards_text(result["line"], ascii))
    if result.get("outcome"):
        lines += outcome_text(pos, result["outcome"], ascii)
    return "\n".join(lines)
