"""What the hand viewer shows of a position: the table as a player reads it.

:func:`shown` turns a validated :class:`~atout.position.Position` into a plain object:
every seat's cards still held (sorted as a player sorts them), the seats' roles, the
contract in words, the cards outside the hands, the trick on the table, the finished
tricks, the legal cards of the seat to play, and what each camp has won so far (the
cards outside the hands included where they count, so that at the end of the deal the
numbers are those of the outcome); which way the game turns round the table, how to chart
its value, and at the end of the deal the result in words.  Everything comes from the
rules engine; the page only draws it.

What differs by rulebook — the contract, the value and its chart, the result, the cards
outside the hands in words — is each rulebook's reading (:class:`_French`,
:class:`_Priestertarock`, :class:`_Austrian`), looked up by the game's record; the game's
own words are :mod:`.words`'.
"""

from __future__ import annotations

from atout.cards import EXCUSE, PETIT, T21, card, is_trump, rank, suit, token, tokens
from atout.contract import DECLARER_CAMP, OTHER_CAMP
from atout.games import (AT4_BIRD, AT4_NEGATIVE_TRICKS, AT4_ULTIMO, AUSTRIAN, EXCUSE_FRENCH,
                         EXCUSE_NARR, FRENCH, GAME, PRIESTERTAROCK, bird_trick, rules_for)
from atout.position import Position

from .words import card_text, contract_column, contract_words, standard_points, words_of

#: suits as a player lays them out: colours alternate (♠ ♥ ♣ ♦)
SUIT_ORDER = (0, 1, 3, 2)
BOUTS = (PETIT, T21, EXCUSE)
#: which way the play goes round the table, by game (each record's ``turn``)
TURN = {name: g.turn for name, g in GAME.items()}
AT4_BIRD_NAMES = {1: "Pagat", 2: "Uhu", 3: "Kakadu", 4: "Marabu"}


def sort_key(position: Position):
    """A player's order: the Excuse and the trumps high to low, then ♠ ♥ ♣ ♦ high to low."""
    return _player_key(position.rules.power)


def _player_key(power):
    def key(c: int):
        if c == EXCUSE:
            return (0, 0)
        if is_trump(c):
            return (1, -rank(c))
        return (2 + SUIT_ORDER.index(suit(c)), -power[c])
    return key


def player_order(game: str) -> list[str]:
    """The game's pack in a player's order (:func:`sort_key`), as card tokens: how the
    deal editor lays out a hand."""
    rules = rules_for(game)
    return [token(c) for c in sorted(rules.deck, key=_player_key(rules.power))]


def _number(points: int, halves: bool):
    """Card points as a JSON number: counted in halves (French Tarot), 46 or 40.5."""
    if not halves:
        return points
    return points // 2 if points % 2 == 0 else points / 2


def roles(position: Position, partner_known: bool = True) -> list[str]:
    """Each seat's role: taker/caller/declarer, partner, defender/opponent.
    ``partner_known=False``: as a seat that does not know who the partner is sees them."""
    c = position.contract
    if c.bid == "trischaken":
        return ["analysed seat" if s == c.declarer else "player" for s in range(position.seats)]
    head, other = position.rules.facts.roles
    out = []
    for s in range(position.seats):
        if s == c.declarer:
            out.append(head)
        elif not partner_known:
            out.append(f"{other} or partner")
        elif s == c.partner:
            # (priest5: a card lying open makes the dealer the partner)
            by_open_card = c.called not in position.hands[s]
            out.append("partner (dealer)" if by_open_card else "called partner")
        else:
            out.append(other)
    return out


def contract_text(position: Position, partner_known: bool = True, ascii: bool = False) -> str:
    """The contract in words (the game's name aside); ``partner_known=False``: as a seat
    that cannot yet tell who holds the called card sees it."""
    return _reading(position).contract_text(position, partner_known, ascii)


def value_meaning(position: Position) -> str:
    """What the double-dummy value means in this game and contract, in words."""
    return _reading(position).value_meaning(position)


def small_loss(position: Position) -> int:
    """The largest cost the page colours as a small loss (a few card points' worth)."""
    return _reading(position).small_loss(position)


def binary_value(position: Position) -> bool:
    """Whether the value is 1 (the goal reached) or 0, as in at4's bird, negative and
    announced games."""
    c = position.contract
    return c.bid != "trischaken" and (
        c.objective != "contract" or c.bid in AT4_NEGATIVE_TRICKS or c.bid in AT4_BIRD)


def chart_scale(position: Position) -> dict:
    """How the page charts the value through the play, so that a step's height means what it
    costs: the line where the deal is decided is always on the chart (made above, lost below)
    and the chart spans at least ``min_span`` (a quarter of the value's whole range in
    Priestertarock and Austrian Tarock; in French Tarot the line alone does it, the value
    jumping by 2 × 25 × multiplier across it), so a two-point mistake stays a small step.
    ``up``/``down``: whom a higher or lower value favours; ``signed``: whether the value is
    a gain or loss (+60) rather than a count of points (49)."""
    c = position.contract
    names = camp_names(position)
    reading = _reading(position)
    scale = {"line": None, "line_label": None, "min_span": 0, "fixed": None,
             "up": names[c.maximizer], "down": names[1 - c.maximizer],
             "signed": reading.signed}
    scale.update(reading.chart(position))
    return scale


def camp_names(position: Position) -> tuple[str, str]:
    """The two camps in words: the declarer's, the others'."""
    c = position.contract
    if c.bid == "trischaken":
        return (f"seat {c.declarer}", "the other seats")
    return words_of(c.game).camps


def _plural(n, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _seats(c, position: Position) -> str:
    """The declarer's camp by seat: "seat 2", "seats 2 and 4"."""
    seats = [s for s in range(position.seats) if c.camp[s] == DECLARER_CAMP]
    return ("seat " if len(seats) == 1 else "seats ") + " and ".join(map(str, seats))


def _bid_name(bid: str) -> str:
    return bid.replace("_", " ").capitalize()


def result(position: Position) -> dict | None:
    """The end of the deal for the page's banner: ``made`` (None where no one contract is
    played), a ``headline`` ("Garde failed by 9"), ``details`` in words, and one row per seat
    with its role and score (Trischaken: its points)."""
    if not position.is_finished():
        return None
    out = position.outcome()
    role = roles(position)
    details = []
    made = out.get("made")
    headline = _reading(position).result(position, out, details)
    rows = []
    for s in range(position.seats):
        row = {"seat": s, "role": role[s]}
        if out.get("scores") is not None:
            row["score"] = out["scores"][s]
        else:
            row["points"] = out["points"][s]
            row["tricks"] = out["tricks"][s]
        rows.append(row)
    return {"made": made, "headline": headline, "details": details, "seats": rows}


def outside(position: Position, partner_known: bool = True) -> list[dict]:
    """The cards outside the hands, with whom they count for (``partner_known=False``: as
    a seat that cannot tell yet which party the dealer is in sees them)."""
    return _reading(position).outside(position, partner_known, sort_key(position))


def won_so_far(position: Position, seen: set | None = None) -> dict:
    """Points (and bouts, tricks) each camp has won so far, counted as the outcome counts.

    With ``seen`` (the outside cards a seat has seen), as that seat can count them: the
    cards laid face down that it has not seen are left out until the end of the deal,
    when the outcome shows them. At the end these are the outcome's own numbers."""
    c = position.contract
    unseen = 0
    rules = c.rules
    facts = rules.facts
    camp = c.camp
    if c.bid == "trischaken":
        pts, tricks = [0] * position.seats, [0] * position.seats
        for i, t in enumerate(position.tricks):
            tricks[t.winner] += 1
            got = [x for _, x in t.cards] + ([c.talon[i]] if i < len(c.talon) else [])
            pts[t.winner] += sum(rules.points[x] for x in got)
        return {"by": "seat", "rows": [{"label": f"Seat {s}", "points": pts[s],
                                        "tricks": tricks[s]} for s in range(position.seats)]}
    halves, by_bouts = facts.point_unit == 2, facts.counts_bouts
    pts, bouts, tricks = [0, 0], [0, 0], [0, 0]
    for k, cards in enumerate(c.outside):
        if seen is not None and not position.is_finished():
            unseen += sum(1 for x in cards if x not in seen)
            cards = [x for x in cards if x in seen]
        pts[k] += sum(rules.points[x] for x in cards)
        bouts[k] += sum(1 for x in cards if x in BOUTS)
    if by_bouts and position.is_finished():
        out = position.outcome()
        half = [round(2 * out["taker_points"]), round(2 * out["defence_points"])]
        bouts = [out["bouts"], 3 - out["bouts"]]
        pts = half
    for i, t in enumerate(position.tricks):
        w = camp[t.winner]
        tricks[w] += 1
        if by_bouts and position.is_finished():
            continue
        for seat, x in t.cards:
            if x == EXCUSE and rules.excuse == EXCUSE_FRENCH:
                # Before the last trick the Excuse stays with its owner, who gives a low card.
                owner = camp[seat]
                if owner == w:
                    pts[w] += rules.points[x]
                else:
                    pts[owner] += rules.points[x] - 1
                    pts[w] += 1
                bouts[owner] += 1
            elif x == EXCUSE and rules.excuse == EXCUSE_NARR:
                pts[camp[seat]] += rules.points[x] if i < rules.narr_last_trick else 0
            else:
                pts[w] += rules.points[x]
                bouts[w] += x in BOUTS
    names = words_of(c.game).camp_labels
    rows = []
    for k in (DECLARER_CAMP, OTHER_CAMP):
        row = {"label": names[k], "points": _number(pts[k], halves), "tricks": tricks[k]}
        if by_bouts:
            row["bouts"] = bouts[k]
        rows.append(row)
    notes = []
    if by_bouts:
        from atout.scoring import FR_NEEDED
        rows[0]["needed"] = FR_NEEDED[bouts[DECLARER_CAMP]]
        if position.is_finished():
            notes.append(f"The taker's camp needed {rows[0]['needed']} with "
                         f"{_plural(bouts[DECLARER_CAMP], 'bout')}.")
        else:
            # what it needs depends on the bouts it has at the end, not on those won so far
            notes.append("The taker's camp needs " + ", ".join(
                f"{FR_NEEDED[b]} with {b} bout{'' if b == 1 else 's'}" for b in range(4)) + ".")
    if unseen:
        notes.append(f"{_plural(unseen, 'card')} laid face down outside the hands "
                     f"{'is' if unseen == 1 else 'are'} not counted: this seat has not "
                     "seen them.")
    if c.outside != ((), ()):
        notes.append(f"Points include {outside_counted(position)}"
                     + (" that this seat has seen." if unseen else "."))
    return {"by": "camp", "rows": rows, "notes": notes}


def outside_counted(position: Position) -> str:
    """The cards outside the hands as the points won count them: "the cards outside the
    hands", "the talon cards of each camp"."""
    return _reading(position).outside_counted


def seat_view(position: Position, seat: int, shown: dict) -> dict:
    """``shown`` (a :func:`table`) as ``seat`` sees the table: the other hands face down
    (``hidden``: how many cards each holds), the outside cards it has not seen face down,
    and while it cannot know who the partner is, no seat's camp nor the camps' points
    (docs/single-dummy.md: what a seat knows)."""
    from atout.knowledge import seat_knowledge, seen_outside

    c = position.contract
    knowledge = seat_knowledge(position, seat)
    partner_known = c.called is None or c.called not in knowledge.hidden
    seen = {x for cards in seen_outside(position, seat).values() for x in cards}
    view = dict(shown, view_seat=seat)
    view["hidden"] = [0 if s == seat else len(h) for s, h in enumerate(position.held)]
    view["hands"] = [cards if s == seat else [] for s, cards in enumerate(shown["hands"])]
    if position.to_play != seat:
        view["legal"] = []          # another seat's legal cards would show its hand
    parts = shown["outside"] if partner_known else outside(position, partner_known=False)
    view["outside"] = [part if part.get("public") else
                       dict(part, cards=[x for x in part["cards"] if card(x) in seen],
                            hidden=sum(1 for x in part["cards"] if card(x) not in seen))
                       for part in parts]
    if not partner_known:
        view["roles"] = roles(position, partner_known=False)
        view["roles"][seat] = shown["roles"][seat]        # a seat knows its own role
        view["contract"] = contract_text(position, partner_known=False)
        view["camps"] = [c.camp[s] if s in (seat, c.declarer) else None
                         for s in range(position.seats)]
        view["won"] = None
    else:
        # the face-down écart, dog or talon must not show through the camps' points
        view["won"] = won_so_far(position, seen)
    return view


def games() -> list[dict]:
    """Every game's facts and words, as the viewer's page reads them (``GET /api/games``):
    the rules' record (:class:`atout.games.Game`), whether its values are signed gains and
    losses, and its words (:class:`.words.GameWords`) with each contract, announcement and
    column named as players write them — so that the page copies none of them."""
    out = []
    for name, g in GAME.items():
        w = words_of(name)
        named = dict.fromkeys(g.bids + g.objectives + g.table_contracts + g.columns)
        out.append({
            "name": name, "family": g.family, "seats": g.seats, "hand_size": g.hand_size,
            "outside": g.outside, "outside_field": g.outside_field, "turn": g.turn,
            "bids": list(g.bids), "objectives": list(g.objectives),
            "countings": list(g.countings), "table_contracts": list(g.table_contracts),
            "ranks": list(g.ranks), "columns": list(g.columns), "roles": list(g.roles),
            "taker_calls": g.taker_calls, "has_dealer": g.has_dealer, "ecart": g.ecart,
            "link_places": g.link_places, "pack": tokens(g.deck),
            "signed": _READINGS[g.family].signed,
            "words": {"name": w.name, "excuse": w.excuse, "trump": w.trump,
                      "camps": list(w.camps), "outside": w.outside,
                      "countings": dict(w.countings), "table_value": dict(w.table_value),
                      "contracts": {n: contract_words(n) for n in named},
                      "columns": {n: contract_column(n) for n in g.columns}},
        })
    return out


def shown(position: Position, seat: int | None = None) -> dict:
    """The whole view of ``position`` for the page (see the module docstring), what
    ``POST /api/view`` answers; with ``seat``, as that seat sees it (:func:`seat_view`)."""
    key = sort_key(position)
    legal = position.legal_cards()
    view = {
        "id": position.id,
        "game": position.game,
        "seats": position.seats,
        "tricks_in_deal": position.rules.hand_size,
        "played": len(position.played),
        "roles": roles(position),
        "camps": list(position.contract.camp),
        "maximizing_camp": position.contract.maximizer,
        "contract": contract_text(position),
        "excuse": words_of(position.game).excuse,
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
        "result": result(position),
        "turn": position.rules.facts.turn,
        "scale": chart_scale(position),
    }
    return view if seat is None else seat_view(position, seat, view)


#: the older name of :func:`shown` (the page's /api/table, now /api/view), kept for its callers
table = shown



# -- what differs by rulebook -------------------------------------------------------------------

def _cards_of(cards, key) -> list[str]:
    return [token(x) for x in sorted(cards, key=key)]


class _French:
    """French Tarot (3, 4 and 5 players): a bid by the taker, a dog or écart, bouts."""

    #: a score is a gain or a loss (+60)
    signed = True
    outside_counted = "the cards outside the hands"

    def contract_text(self, position: Position, partner_known: bool, ascii: bool) -> str:
        c = position.contract
        text = f"{contract_words(c.bid)} by seat {c.declarer}"
        if c.called is not None:                # fr5: the card called
            called = card_text(c.called, ascii, c.game)
            text += f", calling {called}" + ("" if not partner_known else
                                             " (the taker plays alone)" if c.partner is None
                                             else f" (held by seat {c.partner})")
        if c.poignees:
            text += "; poignée " + ", ".join(f"{level} (seat {s})" for s, level in c.poignees)
        if c.chelem:
            text += "; chelem announced"
        return text

    def value_meaning(self, position: Position) -> str:
        return ("the deal's score per defender, from the taker's side "
                "(positive: the taker's camp wins)")

    def small_loss(self, position: Position) -> int:
        return 5 * position.contract.multiplier   # five card points, no change of who wins

    def chart(self, position: Position) -> dict:
        return {"line": 0, "line_label": "made above, lost below",
                "min_span": 25 * position.contract.multiplier}

    def result(self, position: Position, out: dict, details: list) -> str:
        c = position.contract
        made = out.get("made")
        bid = contract_words(c.bid)
        headline = (f"{bid} by seat {c.declarer} "
                    f"{'made' if made else 'failed'} by {abs(out['margin'])}")
        details.append(f"The taker's camp took {out['taker_points']:g} "
                       f"points, {out['needed']} needed with {_plural(out['bouts'], 'bout')}.")
        names = {"taker": "the taker's camp", "defence": "the defence"}
        if out["petit_au_bout"]:
            details.append(f"Petit au bout for {names[out['petit_au_bout']]}.")
        if out["poignee"]:
            details.append(f"Poignée: {out['poignee']} for the camp that wins.")
        if out["chelem"]:
            details.append(f"Chelem for {names[out['chelem']]}.")
        details.append(f"Each defender pays {out['value']} to the taker's camp"
                       if out["value"] >= 0 else
                       f"The taker's camp pays each defender {-out['value']}")
        details[-1] += f" (a {bid.lower()} counts × {out['multiplier']})."
        return headline

    def outside(self, position: Position, partner_known: bool, key) -> list[dict]:
        c = position.contract
        if c.bid in ("prise", "garde"):
            label = "Écart (counts for the taker)"
        elif c.bid == "garde_sans":
            label = "Dog (counts for the taker)"
        else:
            label = "Dog (counts for the defence)"
        cards = c.outside[DECLARER_CAMP] + c.outside[OTHER_CAMP]
        out = [{"label": label, "cards": _cards_of(cards, key)}]
        if c.bid in ("prise", "garde") and c.shown_dog:
            # turned up for every seat to see before the taker took it: shown to each
            # seat's view too (``public``), though most of it is now in the taker's hand
            out.append({"label": "Dog turned up (before the taker took it)",
                        "cards": _cards_of(c.shown_dog, key), "public": True})
        return out


class _Priestertarock:
    """Tessiner Priestertarock: a caller and the partner its card gives, the dealer's open
    cards."""

    signed = True
    outside_counted = "the cards outside the hands"

    def contract_text(self, position: Position, partner_known: bool, ascii: bool) -> str:
        c = position.contract
        if c.raw.get("alone"):
            text = f"Seat {c.declarer} calls and plays alone"
        else:
            text = f"Seat {c.declarer} calls {card_text(c.called, ascii, c.game)}"
            if partner_known:
                text += (" (alone: holds it)" if c.partner is None
                         else f" (partner: seat {c.partner})")
        return text + f"; dealer seat {c.dealer}"

    def value_meaning(self, position: Position) -> str:
        return "the caller's party points minus the other party's"

    def small_loss(self, position: Position) -> int:
        return 4                          # two points moved between the parties

    def chart(self, position: Position) -> dict:
        return {"line": 0, "line_label": "even", "min_span": 36}

    def result(self, position: Position, out: dict, details: list) -> str:
        c = position.contract
        made = out.get("made")
        # the margin as French Tarot gives it: points above (or short of) those needed
        points, needed = out["caller_points"], out["needed"]
        headline = (f"Seat {c.declarer}'s party {'wins' if made else 'loses'} "
                    f"by {points - needed if made else needed - points}")
        details.append(f"The caller's party ({_seats(c, position)}) took {points} points, the "
                       f"other party {out['other_points']}: {needed} of {out['total']} needed.")
        if out["caller_points"] == out["other_points"]:
            details.append("At equal points the party that did not hold the Narr wins.")
        return headline

    def outside(self, position: Position, partner_known: bool, key) -> list[dict]:
        c = position.contract
        party = ("the caller's party" if c.camp[c.dealer] == DECLARER_CAMP
                 else "the other party")
        label = (f"Open cards (count for the dealer's party: seat {c.dealer} is the dealer, "
                 + (f"in {party})" if partner_known or c.dealer == c.declarer
                    else "whose party is not known yet)"))
        cards = c.outside[DECLARER_CAMP] + c.outside[OTHER_CAMP]
        return [{"label": label, "cards": _cards_of(cards, key)}]


class _Austrian:
    """Austrian Tarock: a game by the declarer (alone or with the called king), its
    announcements, its talon, its two countings; Trischaken, where every seat plays for
    the fewest points."""

    #: points or counts (49 of 106), where a plus sign would read as a win
    signed = False
    outside_counted = "the talon cards of each camp"

    def contract_text(self, position: Position, partner_known: bool, ascii: bool) -> str:
        c = position.contract
        if c.bid == "trischaken":
            return (f"Trischaken, analysed for seat {c.declarer}"
                    + (" (von oben)" if c.von_oben else ""))
        text = f"{contract_words(c.bid)} by seat {c.declarer}"
        if c.called is not None:
            text += (f", calling {card_text(c.called, ascii, c.game)}"
                     + ("" if not partner_known else " (in the talon: alone)"
                        if c.partner is None else f" (held by seat {c.partner})"))
        if c.objective != "contract":
            text += f"; playing for {contract_words(c.objective)}"
        if c.counting == "standard":
            text += "; standard counting"
        return text

    def value_meaning(self, position: Position) -> str:
        c = position.contract
        if c.bid == "trischaken":
            return (f"the fewest points seat {c.declarer} can hold itself to"
                    + (" (3 × points − 2 × cards)" if c.counting == "standard" else ""))
        if binary_value(position):
            return "1 if the declarer's camp makes its goal, 0 if not"
        if c.counting == "standard":
            return "the declarer's camp count, 3 × points − 2 × cards (made with 107)"
        return "the declarer's camp points (made with 54 of 106)"

    def small_loss(self, position: Position) -> int:
        if binary_value(position):
            return 0                          # made or not: every loss is big
        return 9 if position.contract.counting == "standard" else 3

    def chart(self, position: Position) -> dict:
        c = position.contract
        if binary_value(position):
            return {"fixed": [0, 1], "line_label": "1 made, 0 not made"}
        standard = c.counting == "standard"
        scale = {"min_span": 80 if standard else 27}
        if c.bid != "trischaken":
            scale.update(line=107 if standard else 54, line_label="made from here up")
        return scale

    def result(self, position: Position, out: dict, details: list) -> str:
        c = position.contract
        made = out.get("made")
        if c.bid == "trischaken":
            me = c.declarer
            details.append(f"Every seat plays for the fewest points; the value is seat {me}'s.")
            return f"Trischaken: seat {me} took {_plural(out['points'][me], 'point')}"
        name = _bid_name(c.bid if c.objective == "contract" else c.objective)
        headline = f"{name} by seat {c.declarer} {'made' if made else 'lost'}"
        camp_tricks = sum(n for s, n in enumerate(out["tricks"]) if c.camp[s] == 0)
        if c.counting == "standard":
            # counted in threes, as players count: the value is in thirds of a point
            game = (f"{standard_points(out['count'])} of 70 points counted in threes "
                    f"(3 × {out['declarer_points']} − 2 × {out['declarer_cards']} = "
                    f"{out['count']} thirds), 35⅔ needed")
            got, need = out["count"], 107
        else:
            game = f"{out['declarer_points']} of 106 points, 54 needed"
            got, need = out["declarer_points"], 54
        if c.objective == "volat":
            details.append(f"The declarer's camp took {camp_tricks} of 12 tricks: all needed.")
        elif c.objective in AT4_ULTIMO or c.bid in AT4_BIRD:
            bird = AT4_ULTIMO.get(c.objective) or AT4_BIRD[c.bid]
            goal = (f"the {AT4_BIRD_NAMES[bird]} winning trick {bird_trick(bird)} by itself "
                    f"for the declarer's camp")
            if c.objective == "contract":
                goal = f"the game ({game}) and {goal}"
            details.append(f"Needed: {goal}.")
        elif c.objective == "koenig_ultimo":
            details.append(f"Needed: the called king {card_text(c.called, game=c.game)} in "
                           f"the last trick, won by the declarer's camp.")
        elif c.bid in AT4_NEGATIVE_TRICKS:
            need = AT4_NEGATIVE_TRICKS[c.bid]
            details.append(f"The declarer took {_plural(out['tricks'][c.declarer], 'trick')}: "
                           + ("none allowed." if need == 0 else f"exactly {need} needed."))
        else:
            margin = got - need if made else need - got
            headline += (f" by {standard_points(margin)}" if c.counting == "standard"
                         else f" by {margin}")
            details.append(f"The declarer's camp ({_seats(c, position)}): {game}.")
        return headline

    def outside(self, position: Position, partner_known: bool, key) -> list[dict]:
        c = position.contract
        if c.bid == "trischaken":
            return [{"label": "Talon (one card joins each of tricks 1–6, in this order)",
                     "cards": [token(x) for x in c.talon]}]
        out = []
        for camp, label in ((DECLARER_CAMP, "Talon: counts for the declarer's camp"),
                            (OTHER_CAMP, "Talon: counts for the opponents")):
            if c.outside[camp]:
                out.append({"label": label, "cards": _cards_of(c.outside[camp], key)})
        return out


#: each rulebook's reading of a position
_READINGS = {FRENCH: _French(), PRIESTERTAROCK: _Priestertarock(), AUSTRIAN: _Austrian()}


def _reading(position: Position):
    return _READINGS[position.rules.facts.family]
