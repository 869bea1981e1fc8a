"""TarotClub's deal files, read as positions and written from them (``atout import``,
``atout export``).

TarotClub, the open-source French Tarot program, saves two kinds of deal file (JSON):

* a **played deal** (``deal_result_*.json``, versions ``"2.0"`` and ``"3"``): the bid
  (``deal_info``: taker, contract, an announced slam, the first leader, the dog as turned
  up or the écart, the poignées shown) and the 18 tricks (24 for three players, 15 for
  five), each written **in the order its cards were played, from its leader**; the next
  leader is the trick's winner by the rules.  The seats follow from that, so the hands are
  the cards each seat played, and the écart the cards no trick holds.
* a **custom deal** (its deal editor's file): each place's cards as dealt, the dog and the
  first player, no bid.  It reads as a *deal as dealt* (docs/format.md): a position's
  fields without a contract, and the dog beside the hands.

Places are ``South, East, North, West, Fifth``, in TarotClub's order of play, so a place's
number is the seat's.  Cards are ``NN-S``: ``01``–``10`` the pips, ``11`` the jack,
``12`` the cavalier, ``13`` the queen, ``14`` the king of ``S H D C``; ``01-T``–``21-T``
the trumps and ``00-T`` the Excuse.  A file's ``score`` is never read (in TarotClub's own
samples it belongs to another deal): ``atout score`` works the score out.

Every refusal is a :class:`~atout.errors.PositionError` naming the file's own field
(``deal_info.taker``, ``tricks[3][2]``): the rules are those of :mod:`atout.position`,
applied to the position the file gives.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .cards import (EXCUSE, SUIT_LETTERS, Card, is_trump, rank, suit, suit_card, token, tokens,
                    trump)
from .contract import POIGNEE_LEVELS, poignee_needed
from .dealt import dealt, parse_deal
from .errors import PositionError
from .games import HAND_SIZE, game_of, rules_for
from .position import Position, parse_position
from .printable import shown
from .tricks import winning_index

__all__ = ["PLACES", "CONTRACTS", "read", "read_text", "loads", "played_deal", "custom_deal", "export",
           "dumps"]

#: TarotClub's places, in its order of play: a place's index is the seat's number
PLACES = ("South", "East", "North", "West", "Fifth")
#: TarotClub's contracts and atout's bids
CONTRACTS = {"Take": "prise", "Guard": "garde", "Guard without": "garde_sans",
             "Guard against": "garde_contre"}
#: the French game of each number of players
GAME_OF_PLAYERS = {3: "fr3", 4: "fr4", 5: "fr5"}
#: the versions of a played-deal file this reads; a custom deal's is "3"
PLAYED_VERSIONS = ("2.0", "3")
#: what atout writes
VERSION = "3"


# -- cards -----------------------------------------------------------------------------

def card_of(text: Any, fld: str) -> Card:
    """``"14-H"`` → KH, ``"00-T"`` → the Excuse."""
    m = re.fullmatch(r"(\d\d)-([SHDCT])", text) if isinstance(text, str) else None
    if not m:
        raise PositionError(fld, f"{_quoted(text)} is not a TarotClub card (NN-S: 01-14 of "
                                 f"S H D C, 00-21 of T)")
    number, letter = int(m.group(1)), m.group(2)
    if letter == "T":
        if number == 0:
            return EXCUSE
        if number <= 21:
            return trump(number)
    elif 1 <= number <= 14:
        return suit_card(SUIT_LETTERS.index(letter), number)
    raise PositionError(fld, f"{_quoted(text)} is not a TarotClub card (NN-S: 01-14 of "
                             f"S H D C, 00-21 of T)")


def card_text(c: Card) -> str:
    """The TarotClub name of a card: KH → ``"14-H"``."""
    if c == EXCUSE:
        return "00-T"
    if is_trump(c):
        return f"{rank(c):02d}-T"
    return f"{rank(c):02d}-{SUIT_LETTERS[suit(c)]}"


def cards_of(text: Any, fld: str) -> list[Card]:
    """A ``;``-separated list (empty: no card); each card once."""
    if not isinstance(text, str):
        raise PositionError(fld, "must be a string of cards separated by ';'")
    if not text.strip():
        return []
    out: list[Card] = []
    for i, part in enumerate(text.split(";")):
        c = card_of(part.strip(), f"{fld}[{i}]")
        if c in out:
            raise PositionError(f"{fld}[{i}]", f"{token(c)} is listed twice")
        out.append(c)
    return out


def cards_text(cards) -> str:
    return ";".join(card_text(c) for c in cards)


def _quoted(value: Any) -> str:
    return repr(shown(value, 20)) if isinstance(value, str) else type(value).__name__


# -- reading ---------------------------------------------------------------------------

def loads(text: str) -> Any:
    """A TarotClub file's JSON, read as TarotClub's own reader reads it: a comma before a
    closing ``}`` or ``]`` is allowed (one of its sample files has one)."""
    try:
        return json.loads(_without_trailing_commas(text))
    except json.JSONDecodeError as e:
        raise PositionError("file", f"not valid JSON at line {e.lineno} column {e.colno} "
                                    f"({e.msg})") from None
    except RecursionError:
        raise PositionError("file", "nested too deeply") from None


def _without_trailing_commas(text: str) -> str:
    """``text`` less each comma followed (past white space) by ``}`` or ``]`` outside a string."""
    out = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif ch == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j >= n or text[j] not in "}]":
                out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def read_text(text: str, stem: str, called: str | None = None) -> list[tuple[int | None, Any]]:
    """Every deal of a file's text: ``(line number or None, position or PositionError)``.
    The text is one deal (pretty-printed, as TarotClub writes them), a JSON array of deals,
    or one deal a line (as ``atout export`` prints them); each deal's ``id`` is ``stem``
    (``stem-N`` for the Nth of several)."""
    out: list[tuple[int | None, Any]] = []
    for number, document in _documents(text):
        if isinstance(document, PositionError):
            out.append((number, document))
            continue
        try:
            out.append((number, read(document, stem if number is None else f"{stem}-{number}",
                                     called=called)))
        except PositionError as e:
            out.append((number, e))
        except RecursionError:
            out.append((number, PositionError("file", "nested too deeply")))
    return out


def _documents(text: str):
    """``(line number or None, JSON value or PositionError)`` of a file's text."""
    try:
        whole = loads(text)
    except PositionError as e:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            yield None, e
            return
        for n, line in lines:
            try:
                yield n, loads(line)
            except PositionError as err:
                yield n, err
        return
    if isinstance(whole, list):
        yield from enumerate(whole, 1)
    else:
        yield None, whole


def read(obj: Any, ident: Any = None, *, called: str | None = None) -> dict:
    """A TarotClub file's object as a position (a played deal) or a deal as dealt (a custom
    deal); ``ident`` becomes its ``id``; ``called`` (a token, ``"KH"``) is the called card of
    a five-player deal whose file does not name it."""
    if not isinstance(obj, dict):
        raise PositionError("file", "must be a JSON object (a TarotClub deal file)")
    if "deal_info" in obj or "tricks" in obj:
        return played_deal(obj, ident, called=called)
    if any(key in obj for key in ("FirstPlayer", "Dog") + PLACES):
        return custom_deal(obj, ident)
    raise PositionError("file", "is neither a TarotClub played deal (deal_info, tricks) nor "
                                "a custom deal (FirstPlayer, Dog, South, …)")


def _string(obj: dict, key: str, prefix: str) -> str:
    fld = f"{prefix}{key}"
    if key not in obj:
        raise PositionError(fld, "is missing")
    if not isinstance(obj[key], str):
        raise PositionError(fld, "must be a string")
    return obj[key]


def _place(obj: dict, key: str, prefix: str, players: int) -> int:
    text = _string(obj, key, prefix)
    if text not in PLACES[:players]:
        raise PositionError(f"{prefix}{key}", f"{_quoted(text)} is not a place of a "
                                              f"{players}-player deal ({', '.join(PLACES[:players])})")
    return PLACES.index(text)


def played_deal(obj: dict, ident: Any = None, *, called: str | None = None) -> dict:
    """A played-deal file (versions 2.0 and 3) as a finished position."""
    version = obj.get("version")
    if version not in PLAYED_VERSIONS:
        raise PositionError("version", f"{_quoted(version) if 'version' in obj else 'missing'}:"
                                       f" atout reads played deals of versions "
                                       f"{' and '.join(PLAYED_VERSIONS)}")
    info = obj.get("deal_info")
    if not isinstance(info, dict):
        raise PositionError("deal_info", "must be an object" if "deal_info" in obj else "is missing")
    raw_tricks = obj.get("tricks")
    if not isinstance(raw_tricks, list) or not raw_tricks:
        raise PositionError("tricks", "must be a list of tricks" if "tricks" in obj else "is missing")

    players = _players(info, raw_tricks)
    game = GAME_OF_PLAYERS[players]
    size = HAND_SIZE[game]
    if len(raw_tricks) != size:
        raise PositionError("tricks", f"a {players}-player deal has {size} tricks, not "
                                      f"{len(raw_tricks)} (atout reads finished deals)")
    contract_text = _string(info, "contract", "deal_info.")
    if contract_text not in CONTRACTS:
        raise PositionError("deal_info.contract", f"{_quoted(contract_text)} is not a contract "
                                                  f"({', '.join(CONTRACTS)})")
    bid = CONTRACTS[contract_text]
    taker = _place(info, "taker", "deal_info.", players)
    first = _place(info, "first_trick_lead", "deal_info.", players)

    # the seats from the tricks: each written from its leader, the next led by its winner
    rules = rules_for(game)
    hands: list[list[Card]] = [[] for _ in range(players)]
    played: list[Card] = []
    seen: dict[Card, str] = {}
    leader = first
    for t, text in enumerate(raw_tricks):
        fld = f"tricks[{t}]"
        cards = cards_of(text, fld)
        if len(cards) != players:
            raise PositionError(fld, f"holds {len(cards)} cards; a trick of {players} players "
                                     f"holds {players}")
        trick = []
        for k, c in enumerate(cards):
            if c in seen:
                raise PositionError(f"{fld}[{k}]", f"{token(c)} was played already, at {seen[c]}")
            seen[c] = f"{fld}[{k}]"
            seat = (leader + k) % players
            hands[seat].append(c)
            trick.append((seat, c))
        played.extend(cards)
        best = winning_index(rules, trick)
        leader = trick[best][0] if best is not None else leader
    rest = [c for c in rules.deck if c not in seen]       # the écart, or the dog

    contract: dict[str, Any] = {"taker": taker, "bid": bid, "dog": tokens(rest)}
    outside_field = _check_outside(info, version, bid, rest, hands[taker], contract)
    if rules.facts.taker_calls:
        contract["called"] = _called(info, called)
    slam = info.get("slam", False)
    if type(slam) is not bool:
        raise PositionError("deal_info.slam", "must be true or false")
    if slam:
        contract["chelem"] = True
    poignees = _handles(info, game, hands, taker)
    if poignees:
        contract["poignees"] = poignees

    position: dict[str, Any] = {}
    if ident is not None:
        position["id"] = ident
    position.update({"game": game, "hands": [tokens(h) for h in hands], "first": first,
                     "played": tokens(played), "contract": contract})
    names = info.get("players")
    if names is not None:
        position["players"] = names
    return _checked(position, players, outside_field)


def _players(info: dict, raw_tricks: list) -> int:
    """The number of players: version 3 says it; version 2 only by its tricks."""
    if "number_of_players" in info:
        n = info["number_of_players"]
        if type(n) is not int or n not in GAME_OF_PLAYERS:
            raise PositionError("deal_info.number_of_players", "must be 3, 4 or 5")
        return n
    by_tricks = {HAND_SIZE[g]: p for p, g in GAME_OF_PLAYERS.items()}
    if len(raw_tricks) not in by_tricks:
        raise PositionError("tricks", f"{len(raw_tricks)} tricks: a deal of 3, 4 or 5 players has "
                                      "24, 18 or 15 (and no number_of_players says which)")
    return by_tricks[len(raw_tricks)]


def _check_outside(info: dict, version: str, bid: str, rest: list[Card], taker_hand: list[Card],
                   contract: dict) -> str:
    """The cards no trick holds are the écart (prise, garde) or the dog (garde sans, garde
    contre); what the file says of them must agree.  Version 3's ``dog`` of a prise or garde
    is the dog as turned up (``shown_dog``).  Returns the file's field for them."""
    if version == "2.0":
        fld = "deal_info.discard"
        given = cards_of(_string(info, "discard", "deal_info."), fld)
    else:
        fld = "deal_info.dog"
        given = cards_of(_string(info, "dog", "deal_info."), fld)
        if bid in ("prise", "garde"):
            if given:
                contract["shown_dog"] = tokens(given)
            return fld
    if given and set(given) != set(rest):
        raise PositionError(fld, f"{' '.join(tokens(given))} are not the cards no trick holds "
                                 f"({' '.join(tokens(rest))})")
    return fld


def _called(info: dict, called: str | None) -> str:
    """The called card of a five-player deal: TarotClub's files do not keep it; atout's
    export writes it as ``deal_info.called`` (TarotClub's reader passes over it)."""
    if "called" in info:
        return token(card_of(info["called"], "deal_info.called"))
    if called is None:
        raise PositionError("deal_info.called", "is missing: a five-player file does not say "
                                                "which king was called (give it: atout import "
                                                "--called KH, or in the viewer)")
    return called


def _handles(info: dict, game: str, hands: list[list[Card]], taker: int) -> list[dict]:
    """The poignées shown: TarotClub keeps the trumps each camp showed; the level is their
    number, the seat the one holding them."""
    out = []
    for key, attack in (("attack_handle", True), ("defense_handle", False)):
        fld = f"deal_info.{key}"
        if key not in info:
            continue
        shown_cards = cards_of(info[key], fld)
        if not shown_cards:
            continue
        counts = game_of(game).poignee_trumps
        if len(shown_cards) not in counts:
            raise PositionError(fld, f"shows {len(shown_cards)} trumps; a poignée of {game} "
                                     f"shows {', '.join(map(str, counts))}")
        level = POIGNEE_LEVELS[counts.index(len(shown_cards))]
        holders = [s for s, h in enumerate(hands) if set(shown_cards) <= set(h)]
        if not holders:
            raise PositionError(fld, "no seat held all of these cards")
        seat = holders[0]
        if attack and seat != taker and not game_of(game).taker_calls:
            raise PositionError(fld, f"the attack's poignée is held by {PLACES[seat]}, not the taker")
        if not attack and seat == taker:
            raise PositionError(fld, "the defence's poignée is held by the taker")
        out.append({"seat": seat, "level": level, "shown": tokens(shown_cards)})
    return out


def _checked(position: dict, players: int, outside_field: str) -> dict:
    """The position built from a file, checked by the rules; a refusal names the file's
    field where the position's has one there."""
    try:
        parse_position(position)
    except PositionError as e:
        raise PositionError(*_file_field(e, players, outside_field)) from None
    return position


def _file_field(error: PositionError, players: int, outside_field: str) -> tuple[str, str]:
    fld, reason = error.field, error.reason
    m = re.fullmatch(r"played\[(\d+)\]", fld)
    if m:
        k = int(m.group(1))
        return f"tricks[{k // players}][{k % players}]", reason
    m = re.fullmatch(r"hands\[(\d+)\].*", fld)
    if m:
        return "tricks", f"{PLACES[int(m.group(1))]}'s cards: {reason}"
    named = {"contract.dog": outside_field, "contract.shown_dog": "deal_info.dog",
             "contract.taker": "deal_info.taker", "contract.chelem": "deal_info.slam",
             "contract.called": "deal_info.called", "first": "deal_info.first_trick_lead",
             "players": "deal_info.players"}
    if fld in named:
        return named[fld], reason
    if fld.startswith("contract.poignees"):
        return "deal_info.attack_handle / defense_handle", reason
    if fld.startswith("players["):
        return "deal_info." + fld, reason
    return fld, reason


def custom_deal(obj: dict, ident: Any = None) -> dict:
    """A custom-deal file as a deal as dealt (docs/format.md): the hands as dealt, the dog,
    the first player; no contract."""
    if obj.get("version") != VERSION:
        raise PositionError("version", f"{_quoted(obj.get('version')) if 'version' in obj else 'missing'}:"
                                       f" a custom deal of version {VERSION} is read")
    hands_by_place = []
    for p, place in enumerate(PLACES):
        hands_by_place.append(cards_of(_string(obj, place, ""), place))
    players = 0
    while players < len(PLACES) and hands_by_place[players]:
        players += 1
    if players not in GAME_OF_PLAYERS or any(hands_by_place[players:]):
        held = ", ".join(p for p, h in zip(PLACES, hands_by_place) if h) or "none"
        raise PositionError("South", f"the places holding cards ({held}) must be the first 3, 4 "
                                     "or 5 of South, East, North, West, Fifth")
    game = GAME_OF_PLAYERS[players]
    first = _place(obj, "FirstPlayer", "", players)
    dog = cards_of(_string(obj, "Dog", ""), "Dog")
    deal: dict[str, Any] = {}
    if ident is not None:
        deal["id"] = ident
    deal.update({"game": game, "hands": [tokens(h) for h in hands_by_place[:players]],
                 "first": first, "dog": tokens(dog)})
    try:
        parse_deal(deal)
    except PositionError as e:
        fld = e.field
        m = re.fullmatch(r"hands\[(\d+)\](?:\[(\d+)\])?", fld)
        if m:
            fld = PLACES[int(m.group(1))] + (f"[{m.group(2)}]" if m.group(2) else "")
        elif fld.startswith("dog"):
            fld = "Dog" + fld[3:]
        elif fld == "first":
            fld = "FirstPlayer"
        raise PositionError(fld, e.reason) from None
    return deal


# -- writing ---------------------------------------------------------------------------

def export(item: Position | dict) -> dict:
    """A finished French position as a played-deal file (version 3), a deal not yet played
    (or a deal as dealt) as a custom-deal file.  ``item``: a parsed position, or a deal as
    dealt's object."""
    if isinstance(item, dict):
        d = parse_deal(item)
        return _custom(d.game, d.hands, d.outside, d.first)
    pos = item
    if pos.game not in GAME_OF_PLAYERS.values():
        raise PositionError("game", "TarotClub plays French Tarot only (fr3, fr4, fr5)")
    if pos.is_finished:
        return _played(pos)
    if pos.played:
        raise PositionError("played", f"{len(pos.played)} cards played: TarotClub keeps a "
                                      "finished deal (a played-deal file) or one not yet played "
                                      "(a custom deal), nothing between")
    d = dealt(pos)
    if d.hands is None:
        raise d.missing
    return _custom(pos.game, d.hands, d.outside, pos.first)


def _custom(game: str, hands, dog, first: int) -> dict:
    out: dict[str, Any] = {"version": VERSION, "FirstPlayer": PLACES[first], "Dog": cards_text(dog)}
    for p, place in enumerate(PLACES):
        out[place] = cards_text(hands[p]) if p < len(hands) else ""
    return out


def _played(pos: Position) -> dict:
    con = pos.contract
    bid_text = {bid: text for text, bid in CONTRACTS.items()}[con.bid]
    if con.bid in ("prise", "garde"):
        dog = con.shown_dog                         # the dog as turned up, where known
    else:
        dog = con.outside[0] or con.outside[1]
    handles = {"attack_handle": [], "defense_handle": []}
    for i, (seat, level) in enumerate(con.poignees):
        key = "attack_handle" if con.camp[seat] == con.camp[con.declarer] else "defense_handle"
        if handles[key]:
            raise PositionError(f"contract.poignees[{i}]", "TarotClub keeps one poignée a camp")
        shown_cards = dict(con.poignee_shown).get(seat)
        if shown_cards is None:
            # TarotClub keeps the trumps shown: the seat's lowest, as many as the level needs
            # (the Excuse standing in only beside every trump), as `atout deal` shows them
            needed = poignee_needed(pos.game, level)
            trumps = sorted(c for c in pos.hands[seat] if is_trump(c))
            shown_cards = trumps[:needed] if len(trumps) >= needed else trumps + [EXCUSE]
        handles[key] = list(shown_cards)
    info: dict[str, Any] = {"number_of_players": pos.seats, "taker": PLACES[con.declarer],
                            "contract": bid_text, "slam": bool(con.chelem),
                            "first_trick_lead": PLACES[pos.first], "dog": cards_text(dog),
                            "attack_handle": cards_text(handles["attack_handle"]),
                            "defense_handle": cards_text(handles["defense_handle"])}
    if con.called is not None:
        info["called"] = card_text(con.called)     # atout's: TarotClub has no called card
    if pos.players is not None:
        info["players"] = list(pos.players)
    return {"version": VERSION, "deal_info": info,
            "tricks": [cards_text(c for _, c in trick.cards) for trick in pos.tricks]}


def dumps(obj: dict) -> str:
    """A TarotClub file's text (pretty, as TarotClub writes them)."""
    return json.dumps(obj, indent=4, ensure_ascii=False) + "\n"

