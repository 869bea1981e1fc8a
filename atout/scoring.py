"""Where every card goes, and the outcome and score of a finished deal (docs/rules.md).

:func:`outcome` takes the contract and the deal's tricks and returns the outcome
object of docs/format.md, including ``value`` (the solver value) and ``scores``.
:func:`made_threshold` is the value from which the contract is made: the one
question "made?" that the solver can ask of a position long before its exact value.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import EXCUSE, PETIT, T21, Card, trump
from .contract import DECLARER_CAMP, OTHER_CAMP, POIGNEE_BONUS, Contract
from .games import (AT4_BIRD, AT4_NEGATIVE_TRICKS, AT4_ULTIMO, AUSTRIAN, FRENCH, PRIESTERTAROCK,
                    bird_trick)


class PlayedTrick(NamedTuple):
    """A finished trick: ``cards`` as ((seat, card), ...) in playing order, and its winner."""

    cards: tuple
    winner: int

    def winning_card(self) -> Card:
        return next(c for s, c in self.cards if s == self.winner)


#: taker's points needed with 0, 1, 2, 3 bouts
FR_NEEDED = (56, 51, 41, 36)
BOUTS = (PETIT, T21, EXCUSE)


def outcome(contract: Contract, tricks: list[PlayedTrick]) -> dict:
    return _OUTCOME[contract.rules.facts.family](contract, tricks)


def _poignee(contract: Contract) -> int:
    """The poignées' bonus: they add up, but in fr5, where only the largest counts."""
    bonuses = [POIGNEE_BONUS[level] for _, level in contract.poignees]
    return max(bonuses, default=0) if contract.rules.facts.largest_poignee_only else sum(bonuses)


def _number(half_points: int):
    """Half points as a JSON number: 46 or 40.5."""
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


# -- French Tarot ------------------------------------------------------------------------

def french_outcome(contract: Contract, tricks: list[PlayedTrick]) -> dict:
    rules, camp = contract.rules, contract.camp
    half = [0, 0]          # half points per camp
    bouts = [0, 0]
    won = [0, 0]           # tricks per camp
    for c_camp, cards in enumerate(contract.outside):
        half[c_camp] += sum(rules.points[c] for c in cards)
        bouts[c_camp] += sum(1 for c in cards if c in BOUTS)
    last = len(tricks) - 1
    for i, t in enumerate(tricks):
        w = camp[t.winner]
        won[w] += 1
        for seat, c in t.cards:
            if c != EXCUSE:
                half[w] += rules.points[c]
                bouts[w] += c in BOUTS
                continue
            owner = camp[seat]
            if i == last:
                # In the last trick the Excuse changes camp, unless it won (the slam case).
                to = owner if t.winner == seat else 1 - owner
                half[to] += rules.points[c]
                bouts[to] += 1
            elif owner == w:
                half[w] += rules.points[c]
                bouts[w] += 1
            else:
                # The owner keeps it and gives a low card in exchange: 8 + 1 half points.
                half[owner] += rules.points[c] - 1
                half[w] += 1
                bouts[owner] += 1

    needed = FR_NEEDED[bouts[DECLARER_CAMP]]
    m_half = half[DECLARER_CAMP] - 2 * needed
    made = m_half >= 0
    sign = 1 if made else -1
    margin = (abs(m_half) + 1) // 2  # a half point goes to the winning camp: round up

    petit = None
    last_t = tricks[last]
    last_cards = [c for _, c in last_t.cards]
    if PETIT in last_cards:
        petit = camp[last_t.winner]
    elif last >= 1 and last_t.winning_card() == EXCUSE:
        # Slam case: the Excuse won the last trick; a petit in the trick before counts.
        prev = tricks[last - 1]
        if PETIT in (c for _, c in prev.cards) and camp[prev.winner] == camp[last_t.winner]:
            petit = camp[prev.winner]
    pab = 0 if petit is None else (10 if petit == DECLARER_CAMP else -10)

    poignee = _poignee(contract)

    slam = None
    if won[DECLARER_CAMP] == len(tricks):
        slam = DECLARER_CAMP
    elif won[OTHER_CAMP] == len(tricks):
        slam = OTHER_CAMP
    if slam == DECLARER_CAMP:
        chelem = 400 if contract.chelem else 200
    elif slam == OTHER_CAMP or contract.chelem:
        chelem = -200
    else:
        chelem = 0

    score = (sign * (25 + margin) + pab) * contract.multiplier + sign * poignee + chelem
    n = rules.seats
    scores = [-score] * n
    if contract.partner is not None:              # fr5: the called partner's share
        scores[contract.declarer] = 2 * score
        scores[contract.partner] = score
    else:
        scores[contract.declarer] = (n - 1) * score
    names = {None: None, DECLARER_CAMP: "taker", OTHER_CAMP: "defence"}
    return {
        "taker_points": _number(half[DECLARER_CAMP]),
        "defence_points": _number(half[OTHER_CAMP]),
        "bouts": bouts[DECLARER_CAMP],
        "needed": needed,
        "made": made,
        "margin": sign * margin,
        "petit_au_bout": names[petit],
        "chelem": names[slam],
        "poignee": poignee,
        "multiplier": contract.multiplier,
        "partner": contract.partner,
        "value": score,
        "scores": scores,
    }


# -- Tessiner Priestertarock -------------------------------------------------------------

def priest_outcome(contract: Contract, tricks: list[PlayedTrick]) -> dict:
    rules, camp = contract.rules, contract.camp
    pts = [0, 0]
    for c_camp, cards in enumerate(contract.outside):
        pts[c_camp] += sum(rules.points[c] for c in cards)
    narr_camp = None
    for i, t in enumerate(tricks):
        w = camp[t.winner]
        for seat, c in t.cards:
            if c == EXCUSE:
                # The Narr stays with its holder's party; late it is worth nothing.
                narr_camp = camp[seat]
                pts[narr_camp] += rules.points[c] if i < rules.narr_last_trick else 0
            else:
                pts[w] += rules.points[c]
    if narr_camp is None:  # the Narr among the open cards
        narr_camp = next(k for k in (0, 1) if EXCUSE in contract.outside[k])
    total = pts[0] + pts[1]
    need = 36 if total == 71 else 34
    caller_wins = pts[DECLARER_CAMP] >= need or (
        pts[DECLARER_CAMP] == pts[OTHER_CAMP] and narr_camp != DECLARER_CAMP)
    sign = 1 if caller_wins else -1
    scores = [-sign] * 5
    if contract.partner is None:
        scores[contract.declarer] = 4 * sign
    else:
        scores[contract.declarer] = 2 * sign
        scores[contract.partner] = sign
    return {
        "caller_points": pts[DECLARER_CAMP],
        "other_points": pts[OTHER_CAMP],
        "total": total,
        "needed": need,
        "made": caller_wins,
        "partner": contract.partner,
        "value": pts[DECLARER_CAMP] - pts[OTHER_CAMP],
        "scores": scores,
    }


# -- Austrian Tarock -----------------------------------------------------------------------

def _standard(points: int, cards: int) -> int:
    """The count in threes as one number: 3·points − 2·cards (total 210 = 3 × 70)."""
    return 3 * points - 2 * cards


def at4_outcome(contract: Contract, tricks: list[PlayedTrick]) -> dict:
    rules, camp = contract.rules, contract.camp
    pts, cards, won = [0, 0], [0, 0], [0, 0]
    for c_camp, cs in enumerate(contract.outside):
        pts[c_camp] += sum(rules.points[c] for c in cs)
        cards[c_camp] += len(cs)
    seat_tricks = [0] * 4
    for t in tricks:
        w = camp[t.winner]
        won[w] += 1
        seat_tricks[t.winner] += 1
        pts[w] += sum(rules.points[c] for _, c in t.cards)
        cards[w] += len(t.cards)

    decl = DECLARER_CAMP
    if contract.counting == "standard":
        count = _standard(pts[decl], cards[decl])
        game_made = count >= 107
    else:
        count = pts[decl]
        game_made = count >= 54

    def bird_wins(number: int) -> bool:
        t = tricks[bird_trick(number) - 1]
        return t.winning_card() == trump(number) and camp[t.winner] == decl

    bid, objective = contract.bid, contract.objective
    if objective == "volat":
        made = won[decl] == len(tricks)
    elif objective in AT4_ULTIMO:
        made = bird_wins(AT4_ULTIMO[objective])
    elif objective == "koenig_ultimo":
        last = tricks[-1]
        made = contract.called in (c for _, c in last.cards) and camp[last.winner] == decl
    elif bid in AT4_NEGATIVE_TRICKS:
        made = won[decl] == AT4_NEGATIVE_TRICKS[bid]
    elif bid in AT4_BIRD:
        made = game_made and bird_wins(AT4_BIRD[bid])
    else:
        made = game_made
    binary = objective != "contract" or bid in AT4_NEGATIVE_TRICKS or bid in AT4_BIRD
    value = int(made) if binary else count

    sign = 1 if made else -1
    scores = [-sign] * 4
    if contract.partner is None:
        scores[contract.declarer] = 3 * sign
    else:
        scores[contract.declarer] = sign
        scores[contract.partner] = sign
    return {
        "declarer_points": pts[decl],
        "other_points": pts[OTHER_CAMP],
        "declarer_cards": cards[decl],
        "count": count,
        "counting": contract.counting,
        "objective": objective,
        "made": made,
        "tricks": seat_tricks,
        "partner": contract.partner,
        "value": value,
        "scores": scores,
    }


def trischaken_outcome(contract: Contract, tricks: list[PlayedTrick]) -> dict:
    rules = contract.rules
    pts, cards, seat_tricks = [0] * 4, [0] * 4, [0] * 4
    for i, t in enumerate(tricks):
        seat_tricks[t.winner] += 1
        got = [c for _, c in t.cards] + ([contract.talon[i]] if i < len(contract.talon) else [])
        pts[t.winner] += sum(rules.points[c] for c in got)
        cards[t.winner] += len(got)
    seat = contract.declarer
    if contract.counting == "standard":
        value = _standard(pts[seat], cards[seat])
    else:
        value = pts[seat]
    return {
        "points": pts,
        "tricks": seat_tricks,
        "for_seat": seat,
        "counting": contract.counting,
        "value": value,
        "scores": None,
    }


# -- the contract question ------------------------------------------------------------------

def _austrian_outcome(contract: Contract, tricks: list[PlayedTrick]) -> dict:
    if contract.bid == "trischaken":
        return trischaken_outcome(contract, tricks)
    return at4_outcome(contract, tricks)


#: each rulebook's outcome
_OUTCOME = {FRENCH: french_outcome, PRIESTERTAROCK: priest_outcome, AUSTRIAN: _austrian_outcome}


def made_threshold(contract: Contract, hands) -> int | None:
    """The solver value from which the contract is made: for every way the deal can end,
    ``outcome["made"] == (outcome["value"] >= made_threshold(contract, hands))``.  None
    in Trischaken, which has no contract to make.  ``hands``: the hands at the start of
    play (priest5 needs to know who holds the Narr).

    - French Tarot: a made contract scores at least (25 − 10) × multiplier + poignée,
      a lost one at most −(25 + 1 − 10) × multiplier − poignée (a lost contract misses
      by a point at least; the petit au bout is worth 10 × multiplier): 1 lies between.
      An announced chelem adds −200 to both unless it is made (+400, made): then the
      lowest made score, (15 × multiplier + poignée − 200).
    - Priestertarock (value: the caller's party's points minus the others'): with 71
      points the difference is odd and the caller needs 36, a difference of 1; with 66
      (the Narr played late) 34 make a difference of 2 and a 33:33 tie goes to the party
      that did not hold the Narr — and the Narr never changes party.  So 0 when the
      Narr is the other party's, else 1.
    - Austrian Tarock: the point games 54 (107 counting in threes); bird, negative and
      announced objectives are worth 1 made and 0 not: 1.
    """
    return _THRESHOLD[contract.rules.facts.family](contract, hands)


def _french_threshold(contract: Contract, hands) -> int:
    if not contract.chelem:
        return 1
    return 15 * contract.multiplier + _poignee(contract) - 200


def _priest_threshold(contract: Contract, hands) -> int:
    holder = next((s for s, h in enumerate(hands) if EXCUSE in h), None)
    narr_camp = (contract.camp[holder] if holder is not None
                 else next(k for k in (0, 1) if EXCUSE in contract.outside[k]))
    return 0 if narr_camp != DECLARER_CAMP else 1


def _austrian_threshold(contract: Contract, hands) -> int | None:
    if contract.bid == "trischaken":
        return None
    binary = (contract.objective != "contract" or contract.bid in AT4_NEGATIVE_TRICKS
              or contract.bid in AT4_BIRD)
    if binary:
        return 1
    return 107 if contract.counting == "standard" else 54


_THRESHOLD = {FRENCH: _french_threshold, PRIESTERTAROCK: _priest_threshold,
              AUSTRIAN: _austrian_threshold}
