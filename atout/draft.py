"""A deal being entered by hand (the viewer's deal editor), checked by the rules at every step.

A player enters a deal as it happened at the table: the hands **as dealt** and the cards
outside them (the dog, Priestertarock's open cards, the Austrian talon), who leads, then
the bidding, then the cards as they were played.  A **draft** holds what is known so far
(JSON, every field optional until it is needed)::

    {"game": "fr4",
     "hands": [["KS", "T21", …], …],    # each seat's cards as dealt, in the order placed
     "outside": ["4S", …],              # the dog / the open cards / the talon as dealt
     "first": 0,                        # who leads the first trick (priest5: "dealer")
     "contract": {…},                   # the bidding, by game (below); null: not yet bid
     "played": ["7S", …]}               # the cards played, in order

The contract of a draft, by game:

* French: ``taker``, ``bid``; for a ``prise`` or ``garde`` the ``ecart`` (the cards the
  taker put aside, from its hand and the dog; ``dog_unknown: true`` where the dog as
  dealt is not known and ``outside`` holds the écart itself); ``fr5`` ``called``;
  ``chelem``; ``poignees`` ``[{"seat", "level"}]``.
* Priestertarock: ``caller``, ``called`` or ``alone: true`` (the ``dealer`` is beside
  ``first`` at the top: the seat after the dealer leads).
* Austrian Tarock: ``bid``, ``declarer``, ``called`` (a Rufer's king), ``objective``,
  ``counting``, ``side`` — the seat each of the six cards outside the hands lies under,
  ``{"<card>": seat}``: the seat that laid it away, or one of the camp it counts for
  (atout/talon.py; the hands are those at the start of play: a talon game's exchange is
  done; ``options.side_default`` offers a split the rules accept); Trischaken
  ``for_seat`` and ``von_oben`` (the talon joins tricks 1–6 in the order entered).

:func:`check` says where the draft stands: what is wrong (``problems``, each a field and a
reason, as ``atout validate`` says them), what is still to enter (``todo``), the choices
the rules leave for the next step (``options``), and once complete the deal as dealt
(``deal``, docs/format.md) and the position (``position``).  Every rule is the rules
engine's own (:mod:`atout.position`, :mod:`atout.contract`, :mod:`atout.dealt`): a draft is
turned into the position it stands for and that position is checked; the options are the
values the same checks accept.  :func:`fill` deals the cards not yet placed at random,
:func:`typed` places a hand typed as card tokens, :func:`from_position` opens a position
(or a deal as dealt) for editing.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

from .cards import EXCUSE, KING, PETIT, Card, card, is_trump, suit_card, token, tokens
from .contract import _check_called_fr5, parse_contract, poignee_levels
from .dealt import dealt, is_deal, parse_deal
from .ecart import ecart_choices
from .errors import PositionError
from .games import (AT4, AT4_NEGATIVE_TRICKS, AT4_OBJECTIVES, AT4_RUFER, AUSTRIAN, FR_BIDS, FRENCH,
                    GAMES, PRIESTERTAROCK, game_of)
from .position import parse_position
from .talon import takes
from .tarotclub import card_of as tarotclub_card

__all__ = ["check", "fill", "typed", "from_position", "TARGETS"]

#: where a card can be placed: a seat's hand or the cards outside the hands
TARGETS = "hands[n] or outside"
#: suit symbols a player may type for the letters
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


class _Check:
    """The answer being built: problems (wrong now) and todo (not yet entered)."""

    def __init__(self):
        self.problems: list[dict] = []
        self.todo: list[dict] = []

    def wrong(self, fld: str, reason: str) -> None:
        if not any(p["field"] == fld for p in self.problems):
            self.problems.append({"field": fld, "reason": reason})

    def missing(self, fld: str, reason: str) -> None:
        self.todo.append({"field": fld, "reason": reason})


# -- the cards -------------------------------------------------------------------------

def _game(obj: Any) -> str:
    if not isinstance(obj, dict):
        raise PositionError("draft", "must be a JSON object")
    game = obj.get("game")
    if game not in GAMES:
        raise PositionError("game", f"unknown game (expected one of: {', '.join(GAMES)})"
                            if "game" in obj else "is missing")
    return game


def _card_lists(obj: dict, game: str, out: _Check) -> tuple[list[list[Card]], list[Card]]:
    """The hands and the outside cards placed so far, each card once and of the game's pack;
    what breaks that is a problem, and the card is left out."""
    facts = game_of(game)
    seats, pack = facts.seats, set(facts.deck)
    raw_hands = obj.get("hands") or []
    if not isinstance(raw_hands, list) or len(raw_hands) > seats:
        out.wrong("hands", f"must be a list of {seats} hands")
        raw_hands = []
    raw_hands = list(raw_hands) + [[] for _ in range(seats - len(raw_hands))]   # not yet entered
    seen: dict[Card, str] = {}

    def read(values: Any, fld: str, limit: int) -> list[Card]:
        if not isinstance(values, list):
            out.wrong(fld, "must be a list of cards")
            return []
        cards = []
        for i, t in enumerate(values):
            try:
                c = card(t)
            except ValueError as e:
                out.wrong(f"{fld}[{i}]", str(e))
                continue
            if c not in pack:
                out.wrong(f"{fld}[{i}]", f"{t} is not in the {game} pack")
            elif c in seen:
                out.wrong(f"{fld}[{i}]", f"{t} is also at {seen[c]}")
            else:
                seen[c] = fld
                cards.append(c)
        if len(cards) > limit:
            out.wrong(fld, f"holds {len(cards)} cards; it holds {limit}")
        return cards

    hands = [read(h, f"hands[{s}]", facts.hand_size) for s, h in enumerate(raw_hands)]
    outside = read(obj.get("outside") or [], "outside", facts.outside)
    return hands, outside


def _seat_field(obj: dict, key: str, seats: int, out: _Check, fld: str | None = None) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < seats:
        out.wrong(fld or key, f"must be a seat number 0..{seats - 1}")
        return None
    return value


def check(obj: Any) -> dict:
    """Where the draft stands (see the module's docstring); raises PositionError only when
    it is not a draft of a game at all."""
    game = _game(obj)
    facts = game_of(game)
    seats, size, out_size = facts.seats, facts.hand_size, facts.outside
    out = _Check()
    answer: dict[str, Any] = {"game": game, "seats": seats, "hand_size": size,
                              "outside_size": out_size, "outside_field": facts.outside_field,
                              "pack": tokens(facts.deck)}
    hands, outside = _card_lists(obj, game, out)
    placed = {c for h in hands for c in h} | set(outside)
    answer["unplaced"] = [t for t in answer["pack"] if card(t) not in placed]
    for s, h in enumerate(hands):
        if len(h) < size:
            out.missing(f"hands[{s}]", f"{size - len(h)} of its {size} cards to place")
    if len(outside) < out_size:
        out.missing("outside", f"{out_size - len(outside)} of its {out_size} cards to place")
    dealer = None
    if facts.has_dealer:
        dealer = _seat_field(obj, "dealer", seats, out)
        first = None if dealer is None else (dealer + 1) % seats
        if dealer is None and "dealer" not in [p["field"] for p in out.problems]:
            out.missing("dealer", "who dealt (the seat after the dealer leads)")
    else:
        first = _seat_field(obj, "first", seats, out)
        if first is None and "first" not in [p["field"] for p in out.problems]:
            out.missing("first", "who leads the first trick")
    answer["first"] = first

    def finish(stage: str) -> dict:
        answer.update(stage=stage, problems=out.problems, todo=out.todo)
        return answer

    if out.problems or out.todo:
        return finish("cards")
    deal = {"game": game, "hands": [tokens(h) for h in hands], "first": first,
            facts.outside_field: tokens(outside)}
    if facts.has_dealer:
        deal["dealer"] = dealer
    try:
        parse_deal(deal)
    except PositionError as e:
        out.wrong(_draft_field(e.field, game), e.reason)
        return finish("cards")
    answer["deal"] = deal

    contract = obj.get("contract")
    if contract is not None and not isinstance(contract, dict):
        out.wrong("contract", "must be an object, or null before the bidding")
        contract = None
    contract = contract or {}
    build = _BIDDING[facts.family]
    position = build(game, hands, outside, first, dealer, contract, out, answer)
    if out.problems or out.todo or position is None:
        return finish("contract")
    played = obj.get("played") or []
    position["played"] = played
    try:
        pos = parse_position(position)
    except PositionError as e:
        out.wrong(_draft_field(e.field, game, contract), e.reason)
        position["played"] = []
        return finish("contract" if not e.field.startswith("played") else "play")
    answer["position"] = position
    answer["finished"] = bool(pos.is_finished)
    return finish("play")


def _draft_field(fld: str, game: str, contract: dict | None = None) -> str:
    """The draft's field for a field of the deal or position built from it."""
    if fld.startswith(("dog", "open", "talon", "contract.open", "contract.talon",
                       "contract.side_cards", "contract.shown_dog")):
        return "outside" if not fld.startswith("contract.side_cards") else "contract.side"
    if fld == "contract.dog":
        bid = (contract or {}).get("bid")
        return "contract.ecart" if bid in ("prise", "garde") else "outside"
    if fld.startswith("contract.poignees["):
        return fld.split(".level")[0].split(".shown")[0].split(".seat")[0]
    if fld.startswith("contract.declarer") and (contract or {}).get("bid") == "trischaken":
        return "contract.for_seat"
    m = re.match(r"(hands\[\d+\])", fld)
    return m.group(1) if m else fld


# -- the bidding, by game --------------------------------------------------------------------

def _french(game, hands, outside, first, dealer, con, out: _Check, answer: dict) -> dict | None:
    facts = game_of(game)
    seats = facts.seats
    options: dict[str, Any] = {"taker": list(range(seats)), "bid": list(FR_BIDS),
                               "first": list(range(seats))}
    answer["options"] = options
    taker = _seat_field(con, "taker", seats, out, "contract.taker")
    bid = con.get("bid")
    if bid is not None and bid not in FR_BIDS:
        out.wrong("contract.bid", f"unknown bid (expected one of: {', '.join(FR_BIDS)})")
        bid = None
    if taker is None:
        out.missing("contract.taker", "who took")
    if bid is None:
        out.missing("contract.bid", "the bid")
    if taker is None or bid is None:
        return None
    start_hands = [list(h) for h in hands]
    contract: dict[str, Any] = {"taker": taker, "bid": bid}
    dog_unknown = con.get("dog_unknown") is True
    if bid in ("prise", "garde"):
        pool = hands[taker] + ([] if dog_unknown else outside)
        options["ecart"] = tokens(ecart_choices(pool, facts.outside))
        options["ecart_size"] = facts.outside
        ecart = _token_list(con.get("ecart"), "contract.ecart", out)
        if ecart is None:
            return None
        if dog_unknown:
            # the cards outside are the écart itself; no dog was turned up that is known
            if ecart and set(ecart) != set(outside):
                out.wrong("contract.ecart", "with the dog unknown the écart is the cards outside")
                return None
            ecart = list(outside)
        stray = [c for c in ecart if c not in pool]
        if stray:
            out.wrong("contract.ecart", f"{token(stray[0])} is neither in the taker's hand nor "
                                        "in the dog")
            return None
        if len(ecart) < facts.outside:
            out.missing("contract.ecart", f"{facts.outside - len(ecart)} of the "
                                          f"{facts.outside} cards the taker puts aside")
            return None
        start_hands[taker] = [c for c in pool if c not in ecart]
        contract["dog"] = tokens(ecart)
        if not dog_unknown:
            contract["shown_dog"] = tokens(outside)
    else:
        contract["dog"] = tokens(outside)
    if facts.taker_calls:
        options["called"] = [token(c) for c in _face_cards()
                             if _passes(lambda c=c: _check_called_fr5(c, start_hands[taker]))]
        if con.get("called") is None:
            out.missing("contract.called", "the card the taker called")
            return None
        contract["called"] = con["called"]
    if con.get("chelem") is True:
        contract["chelem"] = True
        options["first"] = [taker]
    options["poignee"] = {str(s): poignee_levels(game, h) for s, h in enumerate(start_hands)}
    if con.get("poignees"):
        contract["poignees"] = con["poignees"]
    return _checked(game, start_hands, first, contract, out, con)


def _face_cards() -> list[Card]:
    return [suit_card(s, r) for r in (KING, KING - 1, KING - 2, KING - 3) for s in range(4)]


def _priest(game, hands, outside, first, dealer, con, out: _Check, answer: dict) -> dict | None:
    options = {"caller": list(range(5)), "called": tokens(_called_order(game))}
    answer["options"] = options
    caller = _seat_field(con, "caller", 5, out, "contract.caller")
    if caller is None:
        out.missing("contract.caller", "who called (\"Chiamo\")")
        return None
    contract: dict[str, Any] = {"caller": caller, "dealer": dealer, "open": tokens(outside)}
    if con.get("alone") is True:
        contract["alone"] = True
    elif con.get("called") is None:
        out.missing("contract.called", "the card called, or playing alone")
        return None
    else:
        contract["called"] = con["called"]
    return _checked(game, hands, first, contract, out, con)


def _called_order(game: str) -> list[Card]:
    """Every card, the kings first: what a caller calls."""
    kings = [suit_card(s, KING) for s in range(4)]
    return kings + [c for c in game_of(game).deck if c not in kings]


def _at4(game, hands, outside, first, dealer, con, out: _Check, answer: dict) -> dict | None:
    options: dict[str, Any] = {"bid": list(AT4.bids), "declarer": list(range(4)),
                               "first": list(range(4)), "counting": list(AT4.countings)}
    answer["options"] = options
    bid = con.get("bid")
    if bid is not None and bid not in AT4.bids:
        out.wrong("contract.bid", "unknown at4 contract")
        bid = None
    if bid is None:
        out.missing("contract.bid", "the game played")
        return None
    counting = con.get("counting", "seed")
    if bid == "trischaken":
        seat = _seat_field(con, "for_seat", 4, out, "contract.for_seat")
        if seat is None:
            out.missing("contract.for_seat", "the seat whose points are analysed")
            return None
        contract = {"bid": bid, "for_seat": seat, "talon": tokens(outside), "counting": counting}
        if con.get("von_oben") is True:
            contract["von_oben"] = True
        return _checked(game, hands, first, contract, out, con)
    declarer = _seat_field(con, "declarer", 4, out, "contract.declarer")
    if declarer is None:
        out.missing("contract.declarer", "who declared the game")
        return None
    if bid in AT4_NEGATIVE_TRICKS:
        options["first"] = [declarer]
    contract = {"bid": bid, "declarer": declarer, "counting": counting}
    partner = None
    if bid in AT4_RUFER:
        kings = [suit_card(s, KING) for s in range(4)]
        # (a king the rules refuse is refused at contract.called, whatever the talon's split)
        options["called"] = [token(k) for k in kings if _passes(lambda k=k: parse_contract(
            game, {**contract, "called": token(k), "side_cards": {str(declarer): tokens(outside)}},
            hands, first if first is not None else declarer), only="contract.called")]
        if con.get("called") is None:
            out.missing("contract.called", "the king called")
            return None
        contract["called"] = con["called"]
        try:
            partner = next((s for s, h in enumerate(hands) if card(con["called"]) in h), None)
        except (ValueError, TypeError):
            partner = None
    # each of the six cards outside the hands lies under a seat: the one that laid it away,
    # or one of the camp a card no one took counts for (atout.talon: by the seed's rules)
    options["roles"] = {str(s): ("declarer" if s == declarer else "partner" if s == partner
                                 else "opponent") for s in range(4)}
    default = _at4_split(game, contract, hands, outside, first if first is not None else declarer,
                         declarer, partner)
    options["side_default"] = default
    side = con.get("side") or {}
    if not isinstance(side, dict):
        out.wrong("contract.side", "must give each talon card's seat")
        return None
    by_seat: dict[str, list[str]] = {}
    for c in outside:
        seat = side.get(token(c))
        if type(seat) is not int or not 0 <= seat < 4:
            out.missing("contract.side", "under which seat each talon card lies")
            return None
        by_seat.setdefault(str(seat), []).append(token(c))
    contract["side_cards"] = by_seat
    objectives = []
    for objective in AT4_OBJECTIVES:
        trial = {**contract, "objective": objective}
        if _passes(lambda t=trial: parse_contract(game, t, hands, first if first is not None
                                                  else declarer)):
            objectives.append(objective)
    options["objective"] = objectives
    if con.get("objective") not in (None, "contract"):
        contract["objective"] = con["objective"]
    return _checked(game, hands, first, contract, out, con)


def _at4_split(game, contract, hands, outside, first, declarer, partner) -> dict | None:
    """A split of the six cards outside the hands that the rules accept for this game —
    ``{card: seat}``, offered to the player — or None where none is: the cards each seat
    took from the talon laid away under it (:func:`atout.talon.takes`), the rest under the
    first opponent (a called king lying there under the declarer)."""
    counts = list(takes(contract["bid"], declarer).items())
    opponent = next(s for s in ((declarer + k) % 4 for k in range(1, 4)) if s != partner)
    called = card(contract["called"]) if isinstance(contract.get("called"), str) else None

    def splits(cards, i):
        if i == len(counts):
            yield {c: (declarer if c == called else opponent) for c in cards}
            return
        seat, n = counts[i]
        for chosen in itertools.combinations(cards, n):
            for rest in splits([c for c in cards if c not in chosen], i + 1):
                yield {**{c: seat for c in chosen}, **rest}

    for split in itertools.islice(splits(list(outside), 0), 200):
        side: dict[str, list[str]] = {}
        for c, seat in split.items():
            side.setdefault(str(seat), []).append(token(c))
        if _passes(lambda side=side: parse_contract(game, {**contract, "side_cards": side},
                                                    hands, first)):
            return {token(c): seat for c, seat in split.items()}
    return None


def _token_list(value: Any, fld: str, out: _Check) -> list[Card] | None:
    if value is None:
        return []
    if not isinstance(value, list):
        out.wrong(fld, "must be a list of cards")
        return None
    cards = []
    for i, t in enumerate(value):
        try:
            c = card(t)
        except ValueError as e:
            out.wrong(f"{fld}[{i}]", str(e))
            return None
        if c in cards:
            out.wrong(fld, f"{t} is listed twice")
            return None
        cards.append(c)
    return cards


def _passes(check, only: str | None = None) -> bool:
    """Whether ``check()`` is accepted by the rules (``only``: refused at that field)."""
    try:
        check()
    except PositionError as e:
        return only is not None and e.field != only
    return True


def _checked(game, hands, first, contract: dict, out: _Check, con: dict) -> dict | None:
    """The position the draft stands for, with no card played, or None with the rules'
    reason as a problem of the draft's field."""
    position = {"game": game, "hands": [tokens(h) for h in hands],
                "first": first, "played": [], "contract": contract}
    try:
        parse_position(position)
    except PositionError as e:
        out.wrong(_draft_field(e.field, game, con), e.reason)
        return None
    return position


# -- placing cards ---------------------------------------------------------------------------

def _target(draft: dict, target: str) -> tuple[str, int | None]:
    game = _game(draft)
    m = re.fullmatch(r"hands\[(\d+)\]", target or "")
    seats = game_of(game).seats
    if m and int(m.group(1)) < seats:
        return "hands", int(m.group(1))
    if target == "outside":
        return "outside", None
    raise PositionError("typed.to", f"must be hands[0..{seats - 1}] or outside")


def typed(draft: dict, target: str, text: str) -> dict:
    """The draft with ``target`` (``hands[2]``, ``outside``) holding the cards typed in
    ``text`` — atout's tokens (``KS QH T21 EX``; suit symbols ``K♠`` and TarotClub's
    ``14-S`` too), any case, separated by spaces or commas — taken from wherever they were;
    raises PositionError naming ``target`` for a card not of the game's pack."""
    game = _game(draft)
    kind, seat = _target(draft, target)
    if not isinstance(text, str):
        raise PositionError(target, "must be text")
    pack = set(game_of(game).deck)
    cards: list[str] = []
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        try:
            c = _read_typed(word)
        except ValueError:
            raise PositionError(target, f"{word[:12]!r} is not a card (KS, 10H, T21, EX, K♠, …)") from None
        if c not in pack:
            raise PositionError(target, f"{word} is not in the {game} pack")
        if token(c) in cards:
            raise PositionError(target, f"{word} is typed twice")
        cards.append(token(c))
    new = _copy(draft)
    for h in new["hands"]:
        h[:] = [t for t in h if t not in cards]
    new["outside"] = [t for t in new["outside"] if t not in cards]
    if kind == "hands":
        new["hands"][seat] = cards
    else:
        new["outside"] = cards
    return new


def _read_typed(word: str) -> Card:
    if re.fullmatch(r"\d\d-[SHDCT]", word.upper()):
        return tarotclub_card(word.upper(), "typed")
    w = word.upper()
    for symbol, letter in SYMBOLS.items():
        w = w.replace(symbol, letter)
    if w in ("EXCUSE", "SKUS", "SKÜS", "NARR"):
        w = "EX"
    return card(w)


def _copy(draft: dict) -> dict:
    game = _game(draft)
    seats = game_of(game).seats
    hands = draft.get("hands")
    if not isinstance(hands, list) or len(hands) > seats or not all(isinstance(h, list) for h in hands):
        hands = []
    hands = list(hands) + [[] for _ in range(seats - len(hands))]
    outside = draft.get("outside") if isinstance(draft.get("outside"), list) else []
    return {**draft, "hands": [list(h) for h in hands], "outside": list(outside)}


def fill(draft: dict, rng: random.Random) -> dict:
    """The draft with every card not yet placed dealt at random into the hands and the
    cards outside that are not full (a French deal void for a petit sec dealt again, where
    the cards already placed allow another deal)."""
    game = _game(draft)
    facts = game_of(game)
    out = _Check()
    hands, outside = _card_lists(draft, game, out)
    if out.problems:
        first = out.problems[0]
        raise PositionError(first["field"], first["reason"] + " (fix it before dealing the rest)")
    placed = {c for h in hands for c in h} | set(outside)
    rest = [c for c in facts.deck if c not in placed]
    new = None
    for _ in range(200):
        rng.shuffle(rest)
        deck = list(rest)
        new_hands = []
        for h in hands:
            need = facts.hand_size - len(h)
            new_hands.append(h + deck[:need])
            deck = deck[need:]
        new_outside = outside + deck
        new = {**_copy(draft), "hands": [tokens(h) for h in new_hands],
               "outside": tokens(new_outside)}
        if not facts.petit_sec_void or not any(_petit_sec(h) for h in new_hands):
            break
    return new


def _petit_sec(hand) -> bool:
    return [c for c in hand if is_trump(c) or c == EXCUSE] == [PETIT]


# -- a position opened for editing -------------------------------------------------------

def from_position(obj: Any) -> dict:
    """The draft of a position (or of a deal as dealt): what the editor shows to change it."""
    if is_deal(obj):
        d = parse_deal(obj)
        draft = {"game": d.game, "hands": [tokens(h) for h in d.hands],
                 "outside": tokens(d.outside), "contract": None, "played": []}
        if game_of(d.game).has_dealer:
            draft["dealer"] = d.dealer
        else:
            draft["first"] = d.first
        return draft
    pos = parse_position(obj)
    draft: dict[str, Any] = {"game": pos.game, "first": pos.first, "played": tokens(pos.played)}
    return _DRAFT[pos.rules.facts.family](pos, draft)


def _french_draft(pos, draft: dict) -> dict:
    c = pos.contract
    con: dict[str, Any] = {"taker": c.declarer, "bid": c.bid}
    d = dealt(pos)
    if c.bid in ("prise", "garde"):
        con["ecart"] = list(c.raw["dog"])
        if d.hands is None:            # no shown dog: the cards outside are the écart
            con["dog_unknown"] = True
            draft["hands"] = [tokens(h) for h in pos.hands]
            draft["outside"] = list(c.raw["dog"])
        else:
            draft["hands"] = [tokens(h) for h in d.hands]
            draft["outside"] = tokens(d.outside)
    else:
        draft["hands"] = [tokens(h) for h in pos.hands]
        draft["outside"] = list(c.raw["dog"])
    if pos.rules.facts.taker_calls:
        con["called"] = token(c.called)
    if c.chelem:
        con["chelem"] = True
    if c.poignees:
        shown = dict(c.poignee_shown)
        con["poignees"] = [{"seat": s, "level": level}
                           | ({"shown": tokens(shown[s])} if s in shown else {})
                           for s, level in c.poignees]
    draft["contract"] = con
    return draft


def _priest_draft(pos, draft: dict) -> dict:
    c = pos.contract
    draft["hands"] = [tokens(h) for h in pos.hands]
    draft.pop("first")
    draft["dealer"] = c.dealer
    draft["outside"] = list(c.raw["open"])
    con = {"caller": c.declarer}
    con.update({"alone": True} if c.raw.get("alone") else {"called": token(c.called)})
    draft["contract"] = con
    return draft


def _austrian_draft(pos, draft: dict) -> dict:
    c = pos.contract
    draft["hands"] = [tokens(h) for h in pos.hands]
    if c.bid == "trischaken":
        draft["outside"] = tokens(c.talon)
        con = {"bid": c.bid, "for_seat": c.declarer, "counting": c.counting}
        if c.von_oben:
            con["von_oben"] = True
        draft["contract"] = con
        return draft
    side = {t: int(seat) for seat, cards in c.raw["side_cards"].items() for t in cards}
    draft["outside"] = [t for cards in c.raw["side_cards"].values() for t in cards]
    con = {"bid": c.bid, "declarer": c.declarer, "counting": c.counting, "side": side}
    if c.called is not None:
        con["called"] = token(c.called)
    if c.objective != "contract":
        con["objective"] = c.objective
    draft["contract"] = con
    return draft


#: each rulebook's draft of a position
_DRAFT = {FRENCH: _french_draft, PRIESTERTAROCK: _priest_draft, AUSTRIAN: _austrian_draft}
#: each rulebook's bidding
_BIDDING = {FRENCH: _french, PRIESTERTAROCK: _priest, AUSTRIAN: _at4}
