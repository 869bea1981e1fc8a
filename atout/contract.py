"""The contract of a deal: who plays with whom, what counts, what is played for.

:func:`parse_contract` reads the ``contract`` object of a position (docs/format.md) for
its game, checks it against the hands (docs/rules.md "Input that is refused" and the
same care for priest5 and at4) and returns a :class:`Contract`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import (CAVALIER, EXCUSE, JACK, KING, PETIT, QUEEN, T21, Card, card, is_trump,
                    rank, suit_card)
from .errors import PositionError
from .printable import shown
from .games import (AT4, AT4_NEGATIVE_TRICKS, AT4_OBJECTIVES, AT4_RUFER, AUSTRIAN, FR_BIDS,
                    FRENCH, PRIESTERTAROCK, Rules, game_of, rules_for)
from .talon import TALON_RUFER, check_side_cards

#: what each French bid multiplies the score by
FR_MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
POIGNEE_LEVELS = ("simple", "double", "triple")
POIGNEE_BONUS = {"simple": 20, "double": 30, "triple": 40}


def poignee_needed(game: str, level: str) -> int:
    """The trumps a poignée of ``level`` shows in ``game`` (its record's poignee_trumps)."""
    return game_of(game).poignee_trumps[POIGNEE_LEVELS.index(level)]

DECLARER_CAMP, OTHER_CAMP = 0, 1


@dataclass(frozen=True)
class Contract:
    """A parsed contract.  ``declarer`` is the taker (fr), the caller (priest5) or the
    declarer (at4); for Trischaken it is the seat analysed (``for_seat``).

    ``camp[seat]`` is 0 for the declarer's camp and 1 for the others; the declarer's
    camp maximises the solver value, except in Trischaken where it minimises.
    ``outside[camp]`` lists the cards outside the hands that count for that camp.
    """

    game: str
    bid: str
    declarer: int
    camp: tuple[int, ...]
    partner: int | None
    outside: tuple[tuple[Card, ...], tuple[Card, ...]]
    rules: Rules
    multiplier: int = 1            # fr
    poignees: tuple = ()           # fr: ((seat, level), ...)
    poignee_shown: tuple = ()      # fr: ((seat, trumps shown), ...) where the position says
    shown_dog: tuple = ()          # fr prise/garde: the dog as it was turned up, when given
    chelem: bool = False           # fr: announced by the taker
    called: Card | None = None     # fr5, priest5, at4 Rufer
    dealer: int | None = None      # priest5
    alone: bool = False            # playing without partner (any game)
    counting: str = "seed"         # at4
    objective: str = "contract"    # at4
    talon: tuple[Card, ...] = ()   # at4 Trischaken: the cards joining tricks 1..6
    von_oben: bool = False         # at4 Trischaken
    maximizer: int = DECLARER_CAMP
    raw: dict = field(default_factory=dict, compare=False, repr=False)


def _seat(value: Any, fld: str, seats: int) -> int:
    if type(value) is not int:
        raise PositionError(fld, f"must be a seat number 0..{seats - 1}")
    if not 0 <= value < seats:
        raise PositionError(fld, f"seat {value} does not exist (0..{seats - 1})")
    return value


def _card(value: Any, fld: str, rules: Rules) -> Card:
    try:
        c = card(value)
    except ValueError as e:
        raise PositionError(fld, str(e)) from None
    if c not in rules.deck_set:
        raise PositionError(fld, f"{value} is not in the {rules.game} pack")
    return c


def _cards(value: Any, fld: str, rules: Rules) -> list[Card]:
    if not isinstance(value, list):
        raise PositionError(fld, "must be a list of cards")
    return [_card(v, f"{fld}[{i}]", rules) for i, v in enumerate(value)]


def _bool(value: Any, fld: str) -> bool:
    if type(value) is not bool:
        raise PositionError(fld, "must be true or false")
    return value


def _check_keys(obj: dict, allowed: set, prefix: str) -> None:
    # in sorted order: over gRPC the contract is a protobuf map, which keeps no order, and
    # the first unknown key named must be the same on every interface
    for key in sorted(obj, key=str):
        if key not in allowed:
            raise PositionError(f"{prefix}.{shown(key)}", f"unknown field (expected one of: {', '.join(sorted(allowed))})")


def _need(obj: dict, key: str, prefix: str) -> Any:
    if key not in obj:
        raise PositionError(f"{prefix}.{key}", "is missing")
    return obj[key]


def _check_pack(rules: Rules, hands: list[list[Card]], outside: list[Card], fld: str) -> None:
    """Hands plus the cards outside them must be exactly the game's pack."""
    seen = set()
    for c in outside:
        if c in seen:
            raise PositionError(fld, f"card {_tok(c)} appears twice")
        seen.add(c)
    for h in hands:
        for c in h:
            if c in seen:
                raise PositionError(fld, f"card {_tok(c)} is also in a hand")
    held = {c for h in hands for c in h} | seen
    missing = [c for c in rules.deck if c not in held]
    if missing:
        raise PositionError(fld, f"hands and these cards miss {', '.join(map(_tok, missing[:6]))}"
                                 f"{'…' if len(missing) > 6 else ''} of the pack")


def _tok(c: Card) -> str:
    from .cards import token
    return token(c)


def parse_contract(game: str, obj: Any, hands: list[list[Card]], first: int) -> Contract:
    """Validate and parse ``contract`` for ``game`` given the hands and the first leader."""
    if not isinstance(obj, dict):
        raise PositionError("contract", "must be an object")
    obj = {k: v for k, v in obj.items() if v is not None}  # null means "not given"
    return _PARSE[game_of(game).family](game, obj, hands, first)


# -- French Tarot ------------------------------------------------------------------------

def _french(game: str, obj: dict, hands: list[list[Card]], first: int) -> Contract:
    base = rules_for(game)
    facts = base.facts
    allowed = ({"taker", "bid", "dog", "shown_dog", "poignees", "chelem"}
               | ({"called"} if facts.taker_calls else set()))
    _check_keys(obj, allowed, "contract")
    seats = base.seats
    taker = _seat(_need(obj, "taker", "contract"), "contract.taker", seats)
    bid = _need(obj, "bid", "contract")
    if not isinstance(bid, str) or bid not in FR_BIDS:
        raise PositionError("contract.bid", f"unknown bid (expected one of: {', '.join(FR_BIDS)})")
    dog = _cards(_need(obj, "dog", "contract"), "contract.dog", base)
    if len(dog) != facts.outside:
        raise PositionError("contract.dog", f"must hold {facts.outside} cards, not {len(dog)}")
    _check_pack(base, hands, dog, "contract.dog")
    taker_hand = hands[taker]

    if bid in ("prise", "garde"):
        # The dog field is the taker's écart: no king, no bout, a trump only if forced.
        for c in dog:
            if c in (PETIT, T21, EXCUSE) or (not is_trump(c) and rank(c) == KING):
                raise PositionError("contract.dog", f"the écart may not hold {_tok(c)} (a king or a bout)")
        if any(is_trump(c) for c in dog) and any(
                not is_trump(c) and c != EXCUSE and rank(c) != KING for c in taker_hand):
            raise PositionError("contract.dog", "a trump was discarded although the taker "
                                                "could have discarded a suit card")

    shown_dog: list[Card] = []
    if "shown_dog" in obj:
        shown_dog = _shown_dog(game, bid, obj["shown_dog"], base, taker_hand, dog)

    for seat, h in enumerate(hands):
        tr = [c for c in h if is_trump(c) or c == EXCUSE]
        if tr == [PETIT]:
            raise PositionError(f"hands[{seat}]", "petit sec: the only trump is T1 (the deal is void)")

    called = None
    partner = None
    if facts.taker_calls:
        called = _card(_need(obj, "called", "contract"), "contract.called", base)
        _check_called_fr5(called, taker_hand)
        holder = next((s for s, h in enumerate(hands) if called in h), None)
        partner = holder if holder is not None and holder != taker else None

    poignees = []
    poignee_shown = []
    declared = set()
    if "poignees" in obj:
        pl = obj["poignees"]
        if not isinstance(pl, list):
            raise PositionError("contract.poignees", "must be a list of {seat, level}")
        for i, p in enumerate(pl):
            fld = f"contract.poignees[{i}]"
            if not isinstance(p, dict):
                raise PositionError(fld, "must be an object {seat, level}")
            _check_keys(p, {"seat", "level", "shown"}, fld)
            seat = _seat(_need(p, "seat", fld), f"{fld}.seat", seats)
            level = _need(p, "level", fld)
            if not isinstance(level, str) or level not in POIGNEE_LEVELS:
                raise PositionError(f"{fld}.level", "must be simple, double or triple")
            if seat in declared:
                raise PositionError(f"{fld}.seat", f"seat {seat} declared a poignée twice")
            declared.add(seat)
            needed = poignee_needed(game, level)
            trumps = sum(1 for c in hands[seat] if is_trump(c))
            if level not in poignee_levels(game, hands[seat]):
                raise PositionError(f"{fld}.level", f"a {level} poignée needs {needed} trumps; "
                                                    f"seat {seat} has {trumps}"
                                                    f"{' and the Excuse' if EXCUSE in hands[seat] else ''}")
            poignees.append((seat, level))
            if "shown" in p:
                poignee_shown.append((seat, _poignee_shown(p["shown"], f"{fld}.shown", base,
                                                           hands[seat], needed)))

    chelem = False
    if "chelem" in obj:
        chelem = _bool(obj["chelem"], "contract.chelem")
        if chelem and first != taker:
            raise PositionError("contract.chelem", "the announcer of a chelem leads the first trick "
                                                   f"(first is {first}, taker is {taker})")

    camp = tuple(DECLARER_CAMP if s in (taker, partner) else OTHER_CAMP for s in range(seats))
    dog_camp = OTHER_CAMP if bid == "garde_contre" else DECLARER_CAMP
    outside = (tuple(dog), ()) if dog_camp == DECLARER_CAMP else ((), tuple(dog))
    return Contract(game=game, bid=bid, declarer=taker, camp=camp, partner=partner,
                    outside=outside, rules=rules_for(game, bid, called=called),
                    multiplier=FR_MULTIPLIER[bid], poignees=tuple(poignees),
                    poignee_shown=tuple(poignee_shown), shown_dog=tuple(shown_dog), chelem=chelem,
                    called=called, alone=partner is None, raw=obj)


def poignee_levels(game: str, hand: list[Card]) -> list[str]:
    """The poignées a French hand (at the start of play) may declare: as many trumps as the
    level needs, the Excuse standing in for one missing trump."""
    counted = sum(1 for c in hand if is_trump(c)) + (1 if EXCUSE in hand else 0)
    return [level for level, needed in zip(POIGNEE_LEVELS, game_of(game).poignee_trumps)
            if counted >= needed]


def _shown_dog(game: str, bid: str, value: Any, rules: Rules, taker_hand: list[Card],
               ecart: list[Card]) -> list[Card]:
    """The dog as it was turned up for everyone to see (prise and garde only): its cards
    are now in the taker's hand or in the écart."""
    fld = "contract.shown_dog"
    if bid not in ("prise", "garde"):
        raise PositionError(fld, f"the dog is not shown in a {bid}")
    shown = _cards(value, fld, rules)
    if len(shown) != rules.facts.outside:
        raise PositionError(fld, f"must hold {rules.facts.outside} cards, not {len(shown)}")
    if len(set(shown)) != len(shown):
        raise PositionError(fld, "a card appears twice")
    after = set(taker_hand) | set(ecart)
    for i, c in enumerate(shown):
        if c not in after:
            raise PositionError(f"{fld}[{i}]", f"{_tok(c)} is neither in the taker's hand nor "
                                               "in the écart (dog)")
    return shown


def _poignee_shown(value: Any, fld: str, rules: Rules, hand: list[Card], needed: int) -> tuple:
    """The trumps shown for a poignée: exactly as many as its level needs, all held by the
    seat; the Excuse only standing in for a missing trump, shown with all the seat's trumps."""
    shown = _cards(value, fld, rules)
    if len(shown) != needed:
        raise PositionError(fld, f"this poignée shows {needed} trumps, not {len(shown)}")
    if len(set(shown)) != len(shown):
        raise PositionError(fld, "a card appears twice")
    held = set(hand)
    for i, c in enumerate(shown):
        if not (is_trump(c) or c == EXCUSE):
            raise PositionError(f"{fld}[{i}]", f"{_tok(c)} is not a trump")
        if c not in held:
            raise PositionError(f"{fld}[{i}]", f"the seat does not hold {_tok(c)}")
    if EXCUSE in shown and any(is_trump(c) and c not in shown for c in hand):
        raise PositionError(fld, "the Excuse stands in for a trump only when every trump is shown")
    return tuple(shown)


def _check_called_fr5(called: Card, taker_hand: list[Card]) -> None:
    if is_trump(called) or called == EXCUSE or rank(called) < JACK:
        raise PositionError("contract.called", "the called card must be a king")
    held = set(taker_hand)
    order = (KING, QUEEN, CAVALIER, JACK)
    names = ("king", "queen", "cavalier", "jack")
    level = order.index(rank(called))
    for lower in range(level):  # a queen needs all four kings held, and so on
        if not all(suit_card(s, order[lower]) in held for s in range(4)):
            raise PositionError("contract.called", f"a {names[level]} may be called only when the "
                                                   f"taker holds all four {names[lower]}s")


# -- Tessiner Priestertarock ---------------------------------------------------------------

def _priest(game: str, obj: dict, hands: list[list[Card]], first: int) -> Contract:
    _check_keys(obj, {"caller", "called", "alone", "dealer", "open"}, "contract")
    rules = rules_for(game)
    caller = _seat(_need(obj, "caller", "contract"), "contract.caller", 5)
    dealer = _seat(_need(obj, "dealer", "contract"), "contract.dealer", 5)
    if first != (dealer + 1) % 5:
        raise PositionError("first", f"the player after the dealer leads (seat {(dealer + 1) % 5})")
    opened = _cards(_need(obj, "open", "contract"), "contract.open", rules)
    if len(opened) != 3:
        raise PositionError("contract.open", f"must hold 3 cards, not {len(opened)}")
    _check_pack(rules, hands, opened, "contract.open")
    alone = _bool(obj["alone"], "contract.alone") if "alone" in obj else False
    called = None
    if alone:
        if "called" in obj:
            raise PositionError("contract.called", "a caller playing alone calls no card")
        partner = None
    else:
        if "called" not in obj:
            raise PositionError("contract.called", "is missing (or say \"alone\": true)")
        called = _card(obj["called"], "contract.called", rules)
        if called in opened:
            partner = dealer
        else:
            partner = next(s for s, h in enumerate(hands) if called in h)
        if partner == caller:
            partner = None
    camp = tuple(DECLARER_CAMP if s in (caller, partner) else OTHER_CAMP for s in range(5))
    outside = [(), ()]
    outside[camp[dealer]] = tuple(opened)
    return Contract(game=game, bid="chiamo", declarer=caller, camp=camp, partner=partner,
                    outside=(outside[0], outside[1]), rules=rules, called=called,
                    dealer=dealer, alone=partner is None, raw=obj)


# -- Austrian Tarock -----------------------------------------------------------------------

def _at4(game: str, obj: dict, hands: list[list[Card]], first: int) -> Contract:
    bid = _need(obj, "bid", "contract")
    if not isinstance(bid, str) or bid not in AT4.bids:
        raise PositionError("contract.bid", "unknown at4 contract (expected one of: "
                                            f"{', '.join(AT4.bids)})")
    counting = obj.get("counting", "seed")
    if counting not in ("seed", "standard"):
        raise PositionError("contract.counting", "must be seed or standard")
    if bid == "trischaken":
        return _trischaken(obj, hands, counting)

    _check_keys(obj, {"bid", "declarer", "side_cards", "called", "counting", "objective"}, "contract")
    rules = rules_for("at4", bid)
    declarer = _seat(_need(obj, "declarer", "contract"), "contract.declarer", 4)
    side = _need(obj, "side_cards", "contract")
    if not isinstance(side, dict):
        raise PositionError("contract.side_cards", "must be an object {\"<seat>\": [cards]}")
    side_by_seat: dict[int, list[Card]] = {}
    for key, cards in sorted(side.items(), key=lambda kv: str(kv[0])):  # as _check_keys
        fld = f"contract.side_cards.{shown(key, 10)}"
        if key not in ("0", "1", "2", "3"):
            raise PositionError(fld, "keys are seats \"0\"..\"3\"")
        side_by_seat[int(key)] = _cards(cards, fld, rules)
    all_side = [c for cs in side_by_seat.values() for c in cs]
    if len(all_side) != AT4.outside:
        raise PositionError("contract.side_cards", f"must hold 6 cards in all, not {len(all_side)}")
    _check_pack(rules, hands, all_side, "contract.side_cards")

    negative = bid in AT4_NEGATIVE_TRICKS
    if negative and first != declarer:
        raise PositionError("first", f"the declarer (seat {declarer}) leads a negative game")

    called = None
    partner = None
    if bid in AT4_RUFER:
        called = _card(_need(obj, "called", "contract"), "contract.called", rules)
        if is_trump(called) or called == EXCUSE or rank(called) != KING:
            raise PositionError("contract.called", "a Rufer calls a king")
        kings = [suit_card(s, KING) for s in range(4)]
        # (a Rufer with talon: the declarer may have taken the king it called from the talon)
        if called in hands[declarer] and not all(k in hands[declarer] for k in kings) \
                and bid not in TALON_RUFER:
            raise PositionError("contract.called", "the declarer holds the called king while "
                                                   "another king could be called")
        partner = next((s for s, h in enumerate(hands) if called in h), None)
        if partner == declarer:
            partner = None
    elif "called" in obj:
        raise PositionError("contract.called", f"{bid} calls no king")

    objective = obj.get("objective", "contract")
    if objective not in AT4_OBJECTIVES:
        raise PositionError("contract.objective", f"unknown objective (expected one of: "
                                                  f"{', '.join(AT4_OBJECTIVES)})")
    if objective != "contract" and negative:
        raise PositionError("contract.objective", "a negative game has no announcements")
    if objective == "koenig_ultimo" and called is None:
        raise PositionError("contract.objective", "koenig_ultimo needs a called king (a Rufer game)")

    # who took which talon cards and what was laid away, by the seed (atout.talon)
    check_side_cards(bid, declarer, partner, called, side_by_seat, hands)
    camp = tuple(DECLARER_CAMP if s in (declarer, partner) else OTHER_CAMP for s in range(4))
    outside = [[], []]
    for seat, cs in side_by_seat.items():
        outside[camp[seat]].extend(cs)
    return Contract(game="at4", bid=bid, declarer=declarer, camp=camp, partner=partner,
                    outside=(tuple(outside[0]), tuple(outside[1])), rules=rules, called=called,
                    alone=partner is None, counting=counting, objective=objective, raw=obj)


def _trischaken(obj: dict, hands: list[list[Card]], counting: str) -> Contract:
    _check_keys(obj, {"bid", "for_seat", "talon", "von_oben", "counting"}, "contract")
    von_oben = _bool(obj["von_oben"], "contract.von_oben") if "von_oben" in obj else False
    rules = rules_for("at4", "trischaken", von_oben=von_oben)
    seat = _seat(_need(obj, "for_seat", "contract"), "contract.for_seat", 4)
    talon = _cards(_need(obj, "talon", "contract"), "contract.talon", rules)
    if len(talon) != 6:
        raise PositionError("contract.talon", f"must hold 6 cards, not {len(talon)}")
    _check_pack(rules, hands, talon, "contract.talon")
    camp = tuple(DECLARER_CAMP if s == seat else OTHER_CAMP for s in range(4))
    return Contract(game="at4", bid="trischaken", declarer=seat, camp=camp, partner=None,
                    outside=((), ()), rules=rules, alone=True, counting=counting,
                    talon=tuple(talon), von_oben=von_oben, maximizer=OTHER_CAMP, raw=obj)


#: each rulebook's contract
_PARSE = {FRENCH: _french, PRIESTERTAROCK: _priest, AUSTRIAN: _at4}
