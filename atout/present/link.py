"""A deal in a link: the compact encoding of a position that the viewer's share links carry
(docs/format.md, "A deal in a link"; the page's ``server/static/link.js`` reads and writes
the same bits).

The position travels in the address's fragment, ``#d=<payload>&card=K&from=F&whatif=…&seat=S``:
``payload`` packs the game, the first leader, where every card of the pack lies, the
contract, the cards played and the id into bits, written with the 64 characters of
base64url.  A four-player deal played to its end is about 140 characters.

>>> obj = {"game": "fr3", "hands": [...], "first": 0, "played": [], "contract": {...}}  # doctest: +SKIP
>>> decode(encode(obj)) == normalized(obj)                                            # doctest: +SKIP
True

:func:`encode` takes a valid position (it is validated first); :func:`decode` refuses a bad
payload with :class:`LinkError` (``field`` "d" and a reason a person can act on) and returns
the position object, which the caller validates as any other (:func:`read_link` does both).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

from atout.cards import DECK_SIZE, card, token
from atout.contract import POIGNEE_LEVELS
from atout.errors import PositionError
from atout.games import AUSTRIAN, FRENCH, GAMES, PRIESTERTAROCK, Game, deck_of, game_of  # noqa: F401

VERSION = 1
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}
MAX_PAYLOAD = 4096          # characters: a deal is about 140; anything this long is not one
#: the parts of a link a reader knows, each named at most once (``deal``: a viewer's own list)
PARTS = ("d", "deal", "card", "from", "whatif", "seat")
#: ``card``, ``from`` and ``seat``: 1 to this many ASCII digits
VIEW_DIGITS = 3
#: an integer id, as it is written (and as atout writes it): no sign but a minus, no
#: leading zero, ASCII digits only — "+5", " 7 ", "5_0" or "١٢" are not one
INTEGER_ID = re.compile(r"0|-?[1-9][0-9]*")
ID_RANGE = (-2 ** 63, 2 ** 63 - 1)
#: what is trimmed around a whole link (ASCII whitespace: the page trims the same)
AROUND = " \t\n\r\f\v"



class LinkError(PositionError):
    """A link that does not hold a deal: ``field`` is ``d`` (or the view's ``card``,
    ``from``, ``whatif``, ``seat``), ``reason`` says what is wrong."""


def places(game: str) -> int:
    """How many places a card may lie in: the seats' hands, then the cards outside them
    (fr: the dog; priest5: the open cards; at4: the side cards listed under each seat, or
    Trischaken's talon)."""
    return game_of(game).link_places


def _width(n: int) -> int:
    """Bits that write 0 .. n-1."""
    return max(1, (n - 1).bit_length())


# -- bits ---------------------------------------------------------------------------------

class _Writer:
    def __init__(self):
        self.bits: list[int] = []

    def put(self, value: int, width: int) -> None:
        assert 0 <= value < 1 << width, (value, width)
        self.bits.extend((value >> (width - 1 - i)) & 1 for i in range(width))

    def cards(self, cards: list[str]) -> None:
        self.put(len(cards), 5)
        for t in cards:
            self.put(card(t), 7)

    def text(self) -> str:
        bits = self.bits + [0] * (-len(self.bits) % 6)
        return "".join(ALPHABET[int("".join(map(str, bits[i:i + 6])), 2)]
                       for i in range(0, len(bits), 6))


class _Reader:
    def __init__(self, text: str):
        self.bits: list[int] = []
        for i, ch in enumerate(text):
            if ch not in _VALUE:
                # the character by its code point: the page says it in the same words
                raise LinkError("d", f"not a deal link: character {i + 1} (U+{ord(ch):04X}) "
                                     "is not one of A-Z a-z 0-9 - _")
            v = _VALUE[ch]
            self.bits.extend((v >> (5 - k)) & 1 for k in range(6))
        self.at = 0

    def get(self, width: int) -> int:
        if self.at + width > len(self.bits):
            raise LinkError("d", "the link is cut short (copy it whole)")
        v = 0
        for b in self.bits[self.at:self.at + width]:
            v = v << 1 | b
        self.at += width
        return v

    def card(self, pack: set[int]) -> str:
        c = self.get(7)
        if c not in pack:
            raise LinkError("d", f"card number {c} is not in this game's pack")
        return token(c)

    def cards(self, pack: set[int]) -> list[str]:
        return [self.card(pack) for _ in range(self.get(5))]

    def choice(self, width: int, names: tuple, what: str):
        i = self.get(width)
        if i >= len(names):
            raise LinkError("d", f"{what} number {i} does not exist")
        return names[i]

    def end(self) -> None:
        left = self.bits[self.at:]
        if len(left) >= 6 or any(left):
            raise LinkError("d", "the link is longer than its deal (something was added to it)")


# -- the position ------------------------------------------------------------------------

def _absent(v) -> bool:
    return v is None


def normalized(obj: dict) -> dict:
    """The position as :func:`decode` gives it back: hands and unordered card lists in card
    order, ``null`` and default fields left out (``chelem`` false, ``alone`` false,
    ``counting`` "seed", ``objective`` "contract", ``von_oben`` false, no poignée), the
    side cards of each seat that has some.  ``obj`` must be a valid position."""
    order = lambda cards: sorted(cards, key=card)          # noqa: E731
    c = {k: v for k, v in obj["contract"].items() if not _absent(v)}
    out = {}
    if not _absent(obj.get("id")):
        out["id"] = obj["id"]
    out.update(game=obj["game"], hands=[order(h) for h in obj["hands"]], first=obj["first"],
               played=list(obj.get("played") or []))
    n = _CODEC[game_of(obj["game"]).family].normalized(c, game_of(obj["game"]), order)
    out["contract"] = n
    return out


def encode(obj: dict) -> str:
    """The payload of a valid position (refused with :class:`~atout.errors.PositionError`
    as ``atout validate`` refuses it)."""
    from atout.position import parse_position

    parse_position(obj)
    n = normalized(obj)
    game = n["game"]
    c = n["contract"]
    w = _Writer()
    w.put(VERSION, 6)
    w.put(GAMES.index(game), 3)
    w.put(n["first"], 3)
    where = {}
    for s, hand in enumerate(n["hands"]):
        for t in hand:
            where[card(t)] = s
    facts = game_of(game)
    codec = _CODEC[facts.family]
    for place, cards in codec.outside(c, facts).items():
        for t in cards:
            where[card(t)] = place
    width = _width(facts.link_places)
    for x in facts.deck:
        w.put(where[x], width)
    codec.write(w, c, facts)
    w.put(len(n["played"]), 7)
    for t in n["played"]:
        w.put(card(t), 7)
    ident = n.get("id")
    w.put(int(ident is not None), 1)
    if ident is not None:
        data = (str(ident) if isinstance(ident, int) else ident).encode("utf-8")
        w.put(int(isinstance(ident, int)), 1)
        w.put(len(data), 10)
        for b in data:
            w.put(b, 8)
    return w.text()


def decode(payload: str) -> dict:
    """The position object of a payload (to be validated by the caller: a payload that
    decodes may still break a rule).  Raises :class:`LinkError` for one that does not."""
    if not isinstance(payload, str) or not payload:
        raise LinkError("d", "the link holds no deal")
    if len(payload) > MAX_PAYLOAD:
        raise LinkError("d", f"too long for a deal link ({len(payload)} characters)")
    r = _Reader(payload)
    version = r.get(6)
    if version != VERSION:
        raise LinkError("d", f"a link of version {version}, made by another atout: this one reads version {VERSION}")
    game = r.choice(3, GAMES, "game")
    facts = game_of(game)
    seats = facts.seats
    first = r.get(3)
    pack = facts.deck
    pack_set = set(pack)
    n_places = facts.link_places
    width = _width(n_places)
    at: dict[int, list[str]] = {p: [] for p in range(n_places)}
    for x in pack:
        p = r.get(width)
        if p >= n_places:
            raise LinkError("d", f"{token(x)} lies in place {p}, which {game} does not have")
        at[p].append(token(x))
    obj: dict = {"game": game, "hands": [at[s] for s in range(seats)], "first": first}
    c = _CODEC[facts.family].read(r, facts, at, pack_set)
    played = r.get(7)
    if played > len(pack):
        raise LinkError("d", f"{played} cards played: the pack has {len(pack)}")
    obj["played"] = [r.card(pack_set) for _ in range(played)]
    if r.get(1):
        is_int = r.get(1)
        data = bytes(r.get(8) for _ in range(r.get(10)))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise LinkError("d", "the deal's id is not UTF-8 text") from None
        if is_int:
            if not INTEGER_ID.fullmatch(text):
                raise LinkError("d", "the deal's id is not an integer in decimal digits")
            obj["id"] = int(text)
            if not ID_RANGE[0] <= obj["id"] <= ID_RANGE[1]:
                raise LinkError("d", "the deal's id is out of range (-2^63 to 2^63-1)")
        else:
            obj["id"] = text
        obj = {"id": obj.pop("id"), **obj}
    obj["contract"] = c
    r.end()
    return obj


# -- the contract, by rulebook (docs/format.md, "A deal in a link") -------------------------------

class _French:
    """``taker``, ``bid``, ``chelem``, fr5's ``called``, ``shown_dog`` and the poignées; the
    dog lies in the place after the seats."""

    @staticmethod
    def normalized(c: dict, facts: Game, order) -> dict:
        n = {"taker": c["taker"], "bid": c["bid"], "dog": order(c["dog"])}
        if facts.taker_calls:
            n["called"] = c["called"]
        if "shown_dog" in c:
            n["shown_dog"] = list(c["shown_dog"])
        if c.get("poignees"):
            n["poignees"] = []
            for p in c["poignees"]:
                q = {"seat": p["seat"], "level": p["level"]}
                if p.get("shown") is not None:
                    q["shown"] = list(p["shown"])
                n["poignees"].append(q)
        if c.get("chelem"):
            n["chelem"] = True
        return n

    @staticmethod
    def outside(c: dict, facts: Game) -> dict:
        return {facts.seats: c["dog"]}

    @staticmethod
    def write(w: _Writer, c: dict, facts: Game) -> None:
        w.put(c["taker"], 3)
        w.put(facts.bids.index(c["bid"]), 2)
        w.put(int(c.get("chelem", False)), 1)
        if facts.taker_calls:
            w.put(card(c["called"]), 7)
        w.put(int("shown_dog" in c), 1)
        if "shown_dog" in c:
            w.cards(c["shown_dog"])
        poignees = c.get("poignees", [])
        w.put(len(poignees), 3)
        for p in poignees:
            w.put(p["seat"], 3)
            w.put(POIGNEE_LEVELS.index(p["level"]), 2)
            w.put(int("shown" in p), 1)
            if "shown" in p:
                w.cards(p["shown"])

    @staticmethod
    def read(r: _Reader, facts: Game, at: dict, pack_set: set) -> dict:
        c: dict = {"taker": r.get(3), "bid": r.choice(2, facts.bids, "bid"),
                   "dog": at[facts.seats]}
        chelem = r.get(1)
        if facts.taker_calls:
            c["called"] = r.card(pack_set)
        if r.get(1):
            c["shown_dog"] = r.cards(pack_set)
        count = r.get(3)
        if count:
            c["poignees"] = []
            for _ in range(count):
                p = {"seat": r.get(3), "level": r.choice(2, POIGNEE_LEVELS, "poignée level")}
                if r.get(1):
                    p["shown"] = r.cards(pack_set)
                c["poignees"].append(p)
        if chelem:
            c["chelem"] = True
        return c


class _Priestertarock:
    """``caller``, ``dealer``, ``alone`` or ``called``; the open cards lie in place 5."""

    @staticmethod
    def normalized(c: dict, facts: Game, order) -> dict:
        n = {"caller": c["caller"], "dealer": c["dealer"], "open": order(c["open"])}
        if c.get("alone"):
            n["alone"] = True
        else:
            n["called"] = c["called"]
        return n

    @staticmethod
    def outside(c: dict, facts: Game) -> dict:
        return {facts.seats: c["open"]}

    @staticmethod
    def write(w: _Writer, c: dict, facts: Game) -> None:
        w.put(c["caller"], 3)
        w.put(c["dealer"], 3)
        w.put(int(c.get("alone", False)), 1)
        if not c.get("alone"):
            w.put(card(c["called"]), 7)

    @staticmethod
    def read(r: _Reader, facts: Game, at: dict, pack_set: set) -> dict:
        c = {"caller": r.get(3), "dealer": r.get(3), "open": at[facts.seats]}
        if r.get(1):
            c["alone"] = True
        else:
            c["called"] = r.card(pack_set)
        return c


class _Austrian:
    """``bid`` and ``counting``; Trischaken's ``for_seat``, ``von_oben`` and talon (place
    4, in its order), every other game's ``declarer``, ``objective``, ``called``, its side
    cards in place 4 + the seat they are listed under."""

    @staticmethod
    def normalized(c: dict, facts: Game, order) -> dict:
        if c["bid"] == "trischaken":
            n = {"bid": "trischaken", "for_seat": c["for_seat"], "talon": list(c["talon"])}
            if c.get("von_oben"):
                n["von_oben"] = True
            if c.get("counting", "seed") != "seed":
                n["counting"] = c["counting"]
            return n
        n = {"bid": c["bid"], "declarer": c["declarer"],
             "side_cards": {k: order(v) for k, v in sorted(c["side_cards"].items()) if v}}
        if "called" in c:
            n["called"] = c["called"]
        if c.get("counting", "seed") != "seed":
            n["counting"] = c["counting"]
        if c.get("objective", "contract") != "contract":
            n["objective"] = c["objective"]
        return n

    @staticmethod
    def outside(c: dict, facts: Game) -> dict:
        if c["bid"] == "trischaken":
            return {facts.seats: c["talon"]}
        return {facts.seats + int(s): cards for s, cards in c["side_cards"].items()}

    @staticmethod
    def write(w: _Writer, c: dict, facts: Game) -> None:
        w.put(facts.bids.index(c["bid"]), 5)
        w.put(int(c.get("counting") == "standard"), 1)
        if c["bid"] == "trischaken":
            w.put(c["for_seat"], 2)
            w.put(int(c.get("von_oben", False)), 1)
            w.cards(c["talon"])
        else:
            w.put(c["declarer"], 2)
            w.put(facts.objectives.index(c.get("objective", "contract")), 3)
            w.put(int("called" in c), 1)
            if "called" in c:
                w.put(card(c["called"]), 7)

    @staticmethod
    def read(r: _Reader, facts: Game, at: dict, pack_set: set) -> dict:
        talon = facts.seats
        bid = r.choice(5, facts.bids, "contract")
        standard = r.get(1)
        if bid == "trischaken":
            c = {"bid": bid, "for_seat": r.get(2)}
            if r.get(1):
                c["von_oben"] = True
            cards = r.cards(pack_set)
            if sorted(cards, key=card) != at[talon] or any(at[p] for p in range(talon + 1,
                                                                                  facts.link_places)):
                raise LinkError("d", "the talon's order does not name the talon's cards")
            c["talon"] = cards
        else:
            c = {"bid": bid, "declarer": r.get(2),
                 "side_cards": {str(s): at[talon + s] for s in range(facts.seats)
                                if at[talon + s]}}
            objective = r.choice(3, facts.objectives, "objective")
            if r.get(1):
                c["called"] = r.card(pack_set)
            if objective != "contract":
                c["objective"] = objective
        if standard:
            c["counting"] = "standard"
        return c


#: each rulebook's contract in a link
_CODEC = {FRENCH: _French, PRIESTERTAROCK: _Priestertarock, AUSTRIAN: _Austrian}


# -- a whole link -----------------------------------------------------------------------

def fragment(url: str) -> str:
    """The part of ``url`` after its first ``#`` (the whole text when it has none), ASCII
    whitespace around the link left out.  Nothing else of the address is read: the viewer
    reads only ``location.hash`` (an address that is not a valid URL — ``http://[x]/`` — is
    no matter)."""
    url = url.strip(AROUND)
    return url.partition("#")[2] if "#" in url else url


def link_parts(url: str) -> dict[str, str]:
    """The parts of a link's fragment, decoded as a form is (``+`` a space, ``%XX`` UTF-8,
    a bad byte U+FFFD: ``URLSearchParams`` reads it the same); a part of :data:`PARTS`
    named twice is refused (which one counts would be a guess), others are ignored."""
    seen: dict[str, str] = {}
    twice = set()
    for name, value in parse_qsl(fragment(url), keep_blank_values=True):
        if name in PARTS and name in seen:
            twice.add(name)
        seen.setdefault(name, value)
    for name in PARTS:
        if name in twice:
            raise LinkError(name, "is given twice in the link (a link names each part once)")
    return seen


def view_number(parts: dict, name: str) -> int | None:
    """``card``, ``from`` or ``seat`` of a link: None when absent."""
    if name not in parts:
        return None
    text = parts[name]
    # ASCII digits only: "²" and "٣" are digits to str.isdigit(), "+5" and " 5" to int()
    if not (0 < len(text) <= VIEW_DIGITS and all("0" <= ch <= "9" for ch in text)):
        raise LinkError(name, f"must be a whole number of 1 to {VIEW_DIGITS} digits (0-9)")
    return int(text)


def parse_link(url: str) -> dict:
    """A link read as docs/format.md says, by this module and the page's ``link.js`` alike:
    ``{"position", "card", "from", "whatif", "seat"}`` — the position decoded but not yet
    checked by the rules, the numbers as given (None: absent), ``whatif`` its cards (None:
    none).  Raises :class:`LinkError` naming the part that is wrong."""
    parts = link_parts(url)
    if "d" not in parts:
        if "deal" in parts:
            raise LinkError("d", "this link names a deal of its server's list (deal="
                                 f"{parts['deal'][:10]}), not the deal itself: open it in "
                                 "the viewer and use Share")
        raise LinkError("d", "no deal in this link (its address has no #d=…)")
    obj = decode(parts["d"])
    numbers = {name: view_number(parts, name) for name in ("card", "from", "seat")}
    whatif = [t for t in parts.get("whatif", "").split(",") if t]
    return {"position": obj, **numbers, "whatif": whatif or None}


def read_link(url: str) -> dict:
    """What a viewer link shows: ``{"position", "card", "from", "whatif", "seat", "line"}``
    — the deal (validated), the cards on the table (``card``: how many; None: the page's
    choice), the what-if line leaving the real play at card ``from`` (or None), the seat
    whose view is shown (or None) and the cards of the line shown.  Raises
    :class:`LinkError` or :class:`~atout.errors.PositionError` (field ``d.<field>``) for a
    bad link."""
    from atout.position import parse_position

    read = parse_link(url)
    obj, shown, start, seat = read["position"], read["card"], read["from"], read["seat"]
    whatif = read["whatif"] or []
    try:
        pos = parse_position(obj)
    except PositionError as e:
        raise PositionError(f"d.{e.field}", e.reason) from None
    line = list(obj["played"])
    if whatif:
        if start is None:
            start = len(line) if shown is None else max(0, shown - len(whatif))
        if start > len(line):
            raise LinkError("from", f"must be a card of the real play, 0 to {len(line)}")
        line = line[:start] + whatif
        try:
            parse_position({**obj, "played": line})
        except PositionError as e:
            raise LinkError("whatif", f"cannot be played: {e.reason}") from None
    else:
        start = None
    if shown is not None and shown > len(line):
        raise LinkError("card", f"must be 0 to {len(line)}, the cards of the line shown")
    if seat is not None and seat >= pos.seats:
        raise LinkError("seat", f"seat {seat} does not exist (0..{pos.seats - 1})")
    return {"position": obj, "card": shown, "from": start, "whatif": whatif or None,
            "seat": seat, "line": line}


def make_link(base: str, obj: dict, card: int | None = None) -> str:
    """The viewer's link to ``obj`` at ``base`` (``http://127.0.0.1:8765/``)."""
    link = base.split("#")[0] + "#d=" + encode(obj)
    return link + (f"&card={card}" if card is not None else "")


__all__ = ["LinkError", "encode", "decode", "normalized", "parse_link", "read_link",
           "make_link", "DECK_SIZE"]
