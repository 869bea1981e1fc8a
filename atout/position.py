"""A position: a deal, its contract and the cards played so far (docs/format.md).

:class:`Position` is parsed and validated once, then asked for whose turn it is,
the legal cards, played forward and back, and — when finished — its outcome:

>>> import json
>>> from atout.position import Position
>>> p = Position.from_json(json.loads(open(EXAMPLE).read()))   # doctest: +SKIP
>>> p.to_play, p.legal_cards()                                  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from .cards import EXCUSE, Card, card, token, tokens
from .contract import Contract, parse_contract
from .errors import IllegalCardError, PositionError
from .games import GAMES, SEATS, HAND_SIZE, EXCUSE_FRENCH, deck_of
from .printable import lone_surrogate, shown
from .scoring import PlayedTrick, outcome
from .strict_json import decode_json
from .tricks import legal_cards, winning_index

#: no real position comes near this; it keeps absurd input from costing time
MAX_ID_LENGTH = 200
#: an integer id fits in 64 bits (signed): what gRPC carries, and so every interface takes
ID_INT_RANGE = (-(1 << 63), (1 << 63) - 1)
#: the optional fields that say who played the deal where (docs/format.md, "Players and
#: tables"): kept with the position and shown by ``atout report``; the play does not depend
#: on them
PEOPLE_FIELDS = ("players", "table", "board")
#: a player's name, a table's or a board's label: at most this many characters
MAX_NAME_LENGTH = 100


class Flag(int):
    """A truth value that can also be called: ``pos.is_finished`` and the older
    ``pos.is_finished()`` give the same answer."""

    def __new__(cls, value: bool) -> "Flag":
        return super().__new__(cls, bool(value))

    def __call__(self) -> bool:
        return bool(self)

    def __bool__(self) -> bool:
        return int(self) != 0

    def __repr__(self) -> str:
        return repr(bool(self))

    __str__ = __repr__


class Position:
    """A validated position.  Build it with :meth:`from_json` (or :func:`parse_position`)."""

    def __init__(self, game: str, hands: list[list[Card]], first: int, contract: Contract,
                 ident: Any = None):
        self.game = game
        self.rules = contract.rules
        self.contract = contract
        self.hands = [list(h) for h in hands]          # at the start of play
        self.first = first
        self.id = ident
        self.held = [set(h) for h in hands]            # what each seat still holds
        self.tricks: list[PlayedTrick] = []            # finished tricks
        self.trick: list[tuple[int, Card]] = []        # the trick on the table
        self.played: list[Card] = []
        self.players: list[str | None] | None = None   # a name per seat, where given
        self.table: str | int | None = None            # where the deal was played
        self.board: str | int | None = None            # which deal of the session it is

    # -- reading ------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Any) -> "Position":
        """Parse, validate and replay a position object; raises :class:`PositionError`."""
        return parse_position(obj)

    @property
    def seats(self) -> int:
        return self.rules.seats

    @property
    def trick_no(self) -> int:
        """0-based number of the trick being played (== tricks in the deal when finished)."""
        return len(self.tricks)

    @property
    def leader(self) -> int:
        return self.trick[0][0] if self.trick else self.next_leader()

    def next_leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else self.first

    @property
    def to_play(self) -> int | None:
        if self.is_finished:
            return None
        return (self.leader + len(self.trick)) % self.seats

    @property
    def is_finished(self) -> "Flag":
        """True when every card is played.  A property like ``to_play`` and ``trick_no``;
        ``is_finished()`` (the older call) still works."""
        return Flag(len(self.tricks) == self.rules.hand_size)

    def legal_cards(self) -> list[Card]:
        if self.is_finished:
            return []
        return legal_cards(self.rules, self.held[self.to_play], self.trick, self.trick_no)

    # -- playing --------------------------------------------------------------------------

    def play(self, c: Card) -> None:
        """Play card ``c`` for the seat to play; raises IllegalCardError if it may not."""
        seat = self.to_play
        if seat is None:
            raise IllegalCardError("played", "the deal is finished")
        if c not in self.held[seat]:
            raise IllegalCardError("played", f"seat {seat} does not hold {token(c)}")
        if c not in self.legal_cards():
            raise IllegalCardError("played", f"{token(c)} is not legal for seat {seat} now "
                                             f"(legal: {' '.join(tokens(self.legal_cards()))})")
        self.held[seat].discard(c)
        self.trick.append((seat, c))
        self.played.append(c)
        if len(self.trick) == self.seats:
            self.tricks.append(PlayedTrick(tuple(self.trick), self._trick_winner()))
            self.trick = []

    def undo(self) -> Card:
        """Take back the last card played and return it."""
        if not self.played:
            raise IndexError("nothing to undo")
        if not self.trick:
            self.trick = list(self.tricks.pop().cards)
        seat, c = self.trick.pop()
        self.played.pop()
        self.held[seat].add(c)
        return c

    def _trick_winner(self) -> int:
        trick = self.trick
        if self.rules.excuse == EXCUSE_FRENCH and self.trick_no == self.rules.hand_size - 1:
            # Slam case: the Excuse wins the last trick if its camp won every earlier trick.
            ex = next((s for s, c in trick if c == EXCUSE), None)
            if ex is not None:
                camp = self.contract.camp
                if all(camp[t.winner] == camp[ex] for t in self.tricks):
                    return ex
        return trick[winning_index(self.rules, trick)][0]

    # -- the result -------------------------------------------------------------------------

    def outcome(self) -> dict:
        """The outcome of a finished deal (docs/format.md), with ``value`` and ``scores``."""
        if not self.is_finished:
            raise ValueError("the deal is not finished")
        return outcome(self.contract, self.tricks)

    def copy(self) -> "Position":
        p = Position(self.game, self.hands, self.first, self.contract, self.id)
        p.players, p.table, p.board = self.players, self.table, self.board
        for c in self.played:
            p.held[p.to_play].discard(c)
            p.trick.append((p.to_play, c))
            p.played.append(c)
            if len(p.trick) == p.seats:
                p.tricks.append(PlayedTrick(tuple(p.trick), p._trick_winner()))
                p.trick = []
        return p

    def to_json(self) -> dict:
        obj = {}
        if self.id is not None:
            obj["id"] = self.id
        obj.update({"game": self.game, "hands": [tokens(h) for h in self.hands],
                    "first": self.first, "played": tokens(self.played),
                    "contract": self.contract.raw})
        for key in PEOPLE_FIELDS:
            if getattr(self, key) is not None:
                obj[key] = getattr(self, key)
        return obj

    def __repr__(self) -> str:
        return f"<Position {self.game} {len(self.played)} played, to play: {self.to_play}>"

    def __str__(self) -> str:
        """The position as ``atout show`` prints it (ASCII suits when stdout lacks ♠♥♦♣)."""
        from .present.text import describe_position, want_ascii
        return describe_position(self, ascii=want_ascii())


def check_id(ident: Any) -> None:
    """An id is a string of Unicode text of at most MAX_ID_LENGTH characters, or a 64-bit
    integer (docs/format.md, "Text"); raises PositionError("id", ...) otherwise."""
    low, high = ID_INT_RANGE
    if type(ident) is int:
        if not low <= ident <= high:
            raise PositionError("id", "an integer id must fit in 64 bits (-2^63 to 2^63-1)")
    elif type(ident) is not str or len(ident) > MAX_ID_LENGTH:
        raise PositionError("id", f"must be a string of at most {MAX_ID_LENGTH} characters "
                                  f"or an integer")
    elif lone_surrogate(ident):
        raise PositionError("id", "must be Unicode text (it holds a lone surrogate)")


def _check_label(value: Any, fld: str) -> None:
    """A table's or a board's label: text of 1 to MAX_NAME_LENGTH characters, or a 64-bit
    integer (as an id)."""
    low, high = ID_INT_RANGE
    if type(value) is int:
        if not low <= value <= high:
            raise PositionError(fld, "an integer must fit in 64 bits (-2^63 to 2^63-1)")
        return
    _check_name(value, fld, "or an integer")


def _check_name(value: Any, fld: str, alternative: str = "") -> None:
    if type(value) is not str or not 1 <= len(value) <= MAX_NAME_LENGTH:
        raise PositionError(fld, f"must be a string of 1 to {MAX_NAME_LENGTH} characters"
                                 + (f" {alternative}" if alternative else ""))
    if lone_surrogate(value):
        raise PositionError(fld, "must be Unicode text (it holds a lone surrogate)")


def _check_players(players: Any, seats: int) -> None:
    """A name per seat, in seat order; null for a seat whose player is not named."""
    if not isinstance(players, list) or len(players) != seats:
        raise PositionError("players", f"must be a list of {seats} names (null for a seat "
                                       f"not named), one per seat")
    for s, name in enumerate(players):
        if name is not None:
            _check_name(name, f"players[{s}]", "or null")


def parse_game(obj: Any) -> str:
    """The object's ``game`` (the first thing read of a position or a deal as dealt)."""
    if not isinstance(obj, dict):
        raise PositionError("position", "must be a JSON object")
    game = obj.get("game")
    if game not in GAMES:
        raise PositionError("game", f"unknown game (expected one of: {', '.join(GAMES)})"
                            if "game" in obj else "is missing")
    return game


def parse_hands(obj: dict, game: str) -> list[list[Card]]:
    """``hands``: one list per seat, each of the game's hand size, every card of the
    game's pack and held once."""
    seats, size = SEATS[game], HAND_SIZE[game]
    deck = set(deck_of(game))
    if "hands" not in obj:
        raise PositionError("hands", "is missing")
    raw_hands = obj["hands"]
    if not isinstance(raw_hands, list) or len(raw_hands) != seats:
        raise PositionError("hands", f"must be a list of {seats} hands")
    hands: list[list[Card]] = []
    seen: dict[Card, str] = {}
    for s, h in enumerate(raw_hands):
        if not isinstance(h, list):
            raise PositionError(f"hands[{s}]", "must be a list of cards")
        if len(h) != size:
            raise PositionError(f"hands[{s}]", f"must hold {size} cards, not {len(h)}")
        hand = []
        for i, t in enumerate(h):
            fld = f"hands[{s}][{i}]"
            try:
                c = card(t)
            except ValueError as e:
                raise PositionError(fld, str(e)) from None
            if c not in deck:
                raise PositionError(fld, f"{t} is not in the {game} pack")
            if c in seen:
                raise PositionError(fld, f"{t} is also at {seen[c]}")
            seen[c] = fld
            hand.append(c)
        hands.append(hand)
    return hands


def parse_first(obj: dict, seats: int) -> int:
    first = obj.get("first")
    if type(first) is not int or not 0 <= first < seats:
        raise PositionError("first", f"must be a seat number 0..{seats - 1}"
                            if "first" in obj else "is missing")
    return first


def parse_people(obj: dict, seats: int) -> tuple:
    """``players``, ``table`` and ``board`` (each None where not given), checked."""
    players = None
    if obj.get("players") is not None:
        _check_players(obj["players"], seats)
        players = list(obj["players"])
    labels = []
    for key in ("table", "board"):
        if obj.get(key) is not None:
            _check_label(obj[key], key)
        labels.append(obj.get(key))
    return (players, *labels)


#: the fields of a deal as dealt that a position has not (atout/dealt.py)
DEALT_FIELDS = ("dog", "open", "dealer", "talon")


def _dealt_only(obj: dict) -> bool:
    """A deal as dealt, sent where a position is wanted (to say so in the refusal)."""
    return any(key in obj for key in DEALT_FIELDS)


def parse_position(obj: Any) -> Position:
    """Validate a position object (already decoded from JSON) and replay its cards."""
    if not isinstance(obj, dict):
        raise PositionError("position", "must be a JSON object")
    if "contract" not in obj and _dealt_only(obj):
        # a deal as dealt: said as such below, once its own fields are checked
        fields = ("id", "game", "hands", "first", "played") + DEALT_FIELDS + PEOPLE_FIELDS
    else:
        fields = ("id", "game", "hands", "first", "played", "contract") + PEOPLE_FIELDS
    for key in sorted(obj, key=str):    # the same first one whatever the order (contract.py)
        if key not in fields:
            raise PositionError(shown(key), "unknown field")
    ident = obj.get("id")
    if ident is not None:
        check_id(ident)
    game = parse_game(obj)
    seats, size = SEATS[game], HAND_SIZE[game]
    hands = parse_hands(obj, game)
    first = parse_first(obj, seats)
    if "contract" not in obj:
        raise PositionError("contract", "is missing" if not _dealt_only(obj) else
                            "is missing: this is a deal as dealt, not yet bid (atout table, "
                            "show and export take it; give the contract to play it)")
    contract = parse_contract(game, obj["contract"], hands, first)

    pos = Position(game, hands, first, contract, ident)
    pos.players, pos.table, pos.board = parse_people(obj, seats)
    played = obj.get("played", [])
    if not isinstance(played, list):
        raise PositionError("played", "must be a list of cards")
    if len(played) > seats * size:
        raise PositionError("played", f"holds {len(played)} cards; a deal has {seats * size}")
    for i, t in enumerate(played):
        fld = f"played[{i}]"
        try:
            c = card(t)
        except ValueError as e:
            raise PositionError(fld, str(e)) from None
        try:
            pos.play(c)
        except IllegalCardError as e:
            raise IllegalCardError(fld, e.reason) from None
    return pos


def loads(line: str | bytes) -> Position:
    """Parse one JSON text into a Position; bad JSON is a PositionError too."""
    return parse_position(decode_json(line))
