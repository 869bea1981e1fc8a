"""What the hand viewer shows of a position: the table as a player reads it.

:func:`table` turns a validated :class:`~atout.position.Position` into a plain object:
every seat's cards still held (sorted as a player sorts them), the seats' roles, the
contract in words, the cards outside the hands, the trick on the table, the finished
tricks, the legal cards of the seat to play, and what each camp has won so far (the
cards outside the hands included where they count, so that at the end of the deal the
numbers are those of the outcome).  Everything comes from the rules engine; the page
only draws it.
"""

from __future__ import annotations

from atout.cards import EXCUSE, PETIT, T21, is_trump, rank, suit, token
from atout.contract import DECLARER_CAMP, OTHER_CAMP
from atout.games import AT4_BIRD, AT4_NEGATIVE_TRICKS
from atout.position import Position

#: suits as a player lays them out: colours alternate (♠ ♥ ♣ ♦)
SUIT_ORDER = (0, 1, 3, 2)
BOUTS = (PETIT, T21, EXCUSE)
EXCUSE_NAME = {"fr4": "Excuse", "fr3": "Excuse", "fr5": "Excuse", "priest5": "Narr",
               "at4": "Sküs"}
BID_NAMES = {"prise": "Prise", "garde": "Garde", "garde_sans": "Garde sans",
             "garde_contre": "Garde contre"}


def sort_key(position: Position):
    """A player's order: the Excuse and the trumps high to low, then ♠ ♥ ♣ ♦ high to low."""
    power = position.rules.power

    def key(c: int):
        if c == EXCUSE:
            return (0, 0)
        if is_trump(c):
            return (1, -rank(c))
        return (2 + SUIT_ORDER.index(suit(c)), -power[c])
    return key


def _number(half_or_whole: int, halves: bool):
    if not halves:
        return half_or_whole
    return half_or_whole // 2 if half_or_whole % 2 == 0 else half_or_whole / 2


def roles(position: Position) -> list[str]:
    """Each seat's role: taker/caller/declarer, partner, defender/opponent."""
    c = position.contract
    if c.game == "at4" and c.bid == "trischaken":
        return ["analysed seat" if s == c.declarer else "player" for s in range(position.seats)]
    head = {"priest5": "caller", "at4": "declarer"}.get(c.game, "taker")
    other = "defender" if c.game.startswith("fr") else "opponent"
    out = []
    for s in range(position.seats):
        if s == c.declarer:
            out.append(head)
        elif s == c.partner:
            by_open_card = c.game == "priest5" and c.called not in position.hands[s]
            out.append("partner (dealer)" if by_open_card else "called partner")
        else:
            out.append(other)
    return out


def contract_text(position: Position) -> str:
    c = position.contract
    raw = c.raw
    if c.game.startswith("fr"):
        text = f"{BID_NAMES[c.bid]} by seat {c.declarer}"
        if c.game == "fr5":
            called = token(c.called)
            text += f", calling {called}" + (" (the taker plays alone)" if c.partner is None
                                             else f" (held by seat {c.partner})")
        if c.poignees:
            text += "; poignée " + ", ".join(f"{level} (seat {s})" for s, level in c.poignees)
        if c.chelem:
            text += "; chelem announced"
        return text
    if c.game == "priest5":
        if raw.get("alone"):
            text = f"Seat {c.declarer} calls and plays alone"
        else:
            text = f"Seat {c.declarer} calls {token(c.called)}"
            text += " (alone: holds it)" if c.partner is None else f" (partner: seat {c.partner})"
        return text + f"; dealer seat {c.dealer}"
    if c.bid == "trischaken":
        return (f"Trischaken, analysed for seat {c.declarer}"
                + (" (von oben)" if c.von_oben else ""))
    text = f"{c.bid.replace('_', ' ').capitalize()} by seat {c.declarer}"
    if c.called is not None:
        text += f", calling {token(c.called)}" + (" (in the talon: alone)" if c.partner is None
                                                  else f" (held by seat {c.partner})")
    if c.objective != "contract":
        text += f"; playing for {c.objective.replace('_', ' ')}"
    if c.counting == "standard":
        text += "; standard counting"
    return text


def value_meaning(position: Position) -> str:
    """What the double-dummy value means in this game and contract, in words."""
    c = position.contract
    if c.game.startswith("fr"):
        return ("the deal's score per defender, from the taker's side "
                "(positive: the taker's camp wins)")
    if c.game == "priest5":
        return "the caller's party points minus the other party's"
    if c.bid == "trischaken":
        return (f"the fewest points seat {c.declarer} can hold itself to"
                + (" (3 × points − 2 × cards)" if c.counting == "standard" else ""))
    if c.objective != "contract" or c.bid in AT4_NEGATIVE_TRICKS or c.bid in AT4_BIRD:
        return "1 if the declarer's camp makes its goal, 0 if not"
    if c.counting == "standard":
        return "the declarer's camp count, 3 × points − 2 × cards (made with 107)"
    return "the declarer's camp points (made with 54 of 106)"


def small_loss(position: Position) -> int:
    """The largest cost the page colours as a small loss (a few card points' worth)."""
    c = position.contract
    if c.game.startswith("fr"):
        return 5 * c.multiplier          # five card points, no change of who wins
    if c.game == "priest5":
        return 4                          # two points moved between the parties
    if c.objective != "contract" or c.bid in AT4_NEGATIVE_TRICKS or c.bid in AT4_BIRD:
        return 0                          # made or not: every loss is big
    return 9 if c.counting == "standard" else 3


def outside(position: Position) -> list[dict]:
    """The cards outside the hands, with whom they count for."""
    c = position.contract
    key = sort_key(position)
    if c.game.startswith("fr"):
        if c.bid in ("prise", "garde"):
            label = "Écart (counts for the taker)"
        elif c.bid == "garde_sans":
            label = "Dog (counts for the taker)"
        else:
            label = "Dog (counts for the defence)"
        cards = c.outside[DECLARER_CAMP] + c.outside[OTHER_CAMP]
        return [{"label": label, "cards": [token(x) for x in sorted(cards, key=key)]}]
    if c.game == "priest5":
        label = "Open cards (count for the dealer's party)"
        cards = c.outside[DECLARER_CAMP] + c.outside[OTHER_CAMP]
        return [{"label": label, "cards": [token(x) for x in sorted(cards, key=key)]}]
    if c.bid == "trischaken":
        return [{"label": "Talon (one card joins each of tricks 1–6, in this order)",
                 "cards": [token(x) for x in c.talon]}]
    out = []
    for camp, label in ((DECLARER_CAMP, "Talon: counts for the declarer's camp"),
                        (OTHER_CAMP, "Talon: counts for the opponents")):
        if c.outside[camp]:
            out.append({"label": label,
                        "cards": [token(x) for x in sorted(c.outside[camp], key=key)]})
    return out


def won_so_far(position: Position) -> dict:
    """Points (and bouts, tricks) each camp has won so far, counted as the outcome counts.

    At the end of the deal these are the outcome's own numbers."""
    c = position.contract
    rules = c.rules
    camp = c.camp
    if c.game == "at4" and c.bid == "trischaken":
        pts, tricks = [0] * position.seats, [0] * position.seats
        for i, t in enumerate(position.tricks):
            tricks[t.winner] += 1
            got = [x for _, x in t.cards] + ([c.talon[i]] if i < len(c.talon) else [])
            pts[t.winner] += sum(rules.points[x] for x in got)
        return {"by": "seat", "rows": [{"label": f"Seat {s}", "points": pts[s],
                                        "tricks": tricks[s]} for s in range(position.seats)]}
    french = c.game.startswith("fr")
    pts, bouts, tricks = [0, 0], [0, 0], [0, 0]
    for k, cards in enumerate(c.outside):
        pts[k] += sum(rules.points[x] for x in cards)
        bouts[k] += sum(1 for x in cards if x in BOUTS)
    if french and position.is_finished():
        out = position.outcome()
        half = [round(2 * out["taker_points"]), round(2 * out["defence_points"])]
        bouts = [out["bouts"], 3 - out["bouts"]]
        pts = half
    for i, t in enumerate(position.tricks):
        w = camp[t.winner]
        tricks[w] += 1
        if french and position.is_finished():
            continue
        for seat, x in t.cards:
            if x == EXCUSE and french:
                # Before the last trick the Excuse stays with its owner, who gives a low card.
                owner = camp[seat]
                if owner == w:
                    pts[w] += rules.points[x]
                else:
                    pts[owner] += rules.points[x] - 1
                    pts[w] += 1
                bouts[owner] += 1
            elif x == EXCUSE and c.game == "priest5":
                pts[camp[seat]] += rules.points[x] if i < rules.narr_last_trick else 0
            else:
                pts[w] += rules.points[x]
                bouts[w] += x in BOUTS
    names = {"priest5": ("Caller's party", "Other party"),
             "at4": ("Declarer's camp", "Opponents")}.get(c.game, ("Taker's camp", "Defence"))
    rows = []
    for k in (DECLARER_CAMP, OTHER_CAMP):
        row = {"label": names[k], "points": _number(pts[k], french), "tricks": tricks[k]}
        if french:
            row["bouts"] = bouts[k]
        rows.append(row)
    if french:
        from atout.scoring import FR_NEEDED
        rows[0]["needed"] = FR_NEEDED[bouts[DECLARER_CAMP]]
    return {"by": "camp", "rows": rows}


def table(position: Position) -> dict:
    """The whole view of ``position`` for the page (see the module docstring)."""
    key = sort_key(position)
    legal = position.legal_cards()
    return {
        "id": position.id,
        "game": position.game,
        "seats": position.seats,
        "tricks_in_deal": position.rules.hand_size,
        "played": len(position.played),
        "roles": roles(position),
        "camps": list(position.contract.camp),
        "maximizing_camp": position.contract.maximizer,
        "contract": contract_text(position),
        "excuse": EXCUSE_NAME[position.game],
        "value_meaning": value_meaning(position),
        "small_loss": small_loss(position),
        "hands": [[token(x) for x in sorted(h, key=key)] for h in position.held],
        "outside": outside(position),
        "trick": [[s, token(x)] for s, x in position.trick],
        "tricks": [{"cards": [[s, token(x)] for s, x in t.cards], "winner": t.winner}
                   for t in position.tricks],
        "leader": position.leader if not position.is_finished() else None,
        "to_play": position.to_play,
        "legal": [token(x) for x in sorted(legal, key=key)],
        "won": won_so_far(position),
        "outcome": position.outcome() if position.is_finished() else None,
    }

