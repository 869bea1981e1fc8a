"""One way of writing what every interface shows: a card, a count of points, a verdict.

The terminal (``atout show``, ``solve --text``, ``analyze``), the report, the picture and
the viewer's table (:mod:`.view`) all write these through this module, so that a card
reads the same everywhere: ``K♠`` (``KS`` in ASCII), ``21 atout``, ``Excuse`` in a
sentence, ``T21`` and ``EX`` in a compact column; an Austrian Tarock count in thirds as
``12⅔``; a card's verdict as ``·``, ``12``, ``≥12``, ``?`` or in words.  (The viewer's
page writes the same in server/static/review.js.)
"""

from __future__ import annotations

from atout.cards import Card, token
from atout.verdict import Verdict, VerdictKind

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: the Excuse's name in each game, as players call it
EXCUSE_NAME = {"fr3": "Excuse", "fr4": "Excuse", "fr5": "Excuse", "priest5": "Narr", "at4": "Sküs"}


def card_text(c: Card | str, ascii: bool = False, game: str | None = None) -> str:
    """A card as a player writes it in a sentence, as the viewer writes it: ``K♠`` (``KS``
    in ASCII), ``21 atout`` (``21 tarock`` outside French Tarot), ``Excuse`` (``Narr``,
    ``Sküs``).  Without ``game`` (the compact columns of a table): ``T21``, ``EX``."""
    tok = c if isinstance(c, str) else token(c)
    if game is not None and tok == "EX":
        name = EXCUSE_NAME[game]
        return name.replace("ü", "u") if ascii else name
    if game is not None and tok.startswith("T"):
        return f"{tok[1:]} {'atout' if game.startswith('fr') else 'tarock'}"
    if ascii or tok == "EX" or tok.startswith("T"):
        return tok
    return tok[:-1] + SYMBOLS[tok[-1]]


#: contracts and announcements as players write them, where that is not their name with
#: its first letter capitalised and spaces for "_" ("piccolo_ouvert": "Piccolo ouvert")
_CONTRACT_WORDS = {"garde_sans": "Garde sans", "garde_contre": "Garde contre",
                   "koenig_ultimo": "König ultimo", "contract": "Game", "call": "Call",
                   "alone": "Alone"}


def contract_words(name: str, ascii: bool = False) -> str:
    """A contract (a French bid, an Austrian game) or an Austrian announcement as players
    write it, the same in the viewer's header and in the contract table: ``Garde sans``,
    ``Piccolo ouvert``, ``Solorufer``, ``König ultimo`` (``ascii``: ``Konig ultimo``)."""
    text = _CONTRACT_WORDS.get(name) or name.replace("_", " ").capitalize()
    return plain(text, ascii)


def cards_text(cards, ascii: bool = False, game: str | None = None) -> str:
    return (", " if game is not None else " ").join(card_text(c, ascii, game) for c in cards)


#: what the viewer's words hold beyond ASCII, for a terminal that cannot print it
_ASCII = str.maketrans({"×": "x", "−": "-", "é": "e", "ü": "u", "ö": "o", "·": ".", "≥": ">=",
                        "…": "...", "⅓": " 1/3", "⅔": " 2/3", "–": "-"})


def plain(text: str, ascii: bool) -> str:
    """``text`` as an ASCII terminal can print it (``ascii``), else as it is."""
    return text.translate(_ASCII) if ascii else text


def standard_points(count: int, ascii: bool = False) -> str:
    """An Austrian Tarock count in thirds of a point (standard counting: 3 × points − 2 ×
    cards) as a player says it, counting the cards in threes: 38 → "12⅔", 107 → "35⅔"
    (``ascii``: "12 2/3")."""
    whole, third = divmod(count, 3)
    if ascii:
        return " ".join(([str(whole)] if whole or not third else [])
                        + ([f"{third}/3"] if third else []))
    return (str(whole) if whole or not third else "") + ("", "⅓", "⅔")[third]


def verdict_mark(verdict: Verdict, ascii: bool = False) -> str:
    """In a few characters: ``·`` one of the best cards, ``12`` a mistake costing 12,
    ``≥12`` a mistake of at least 12 (proven), ``?`` not judged."""
    if verdict.kind is VerdictKind.BEST:
        return "." if ascii else "·"
    if not verdict.exact and verdict.low == 0:      # not judged (nor proven a mistake)
        return "?"
    return str(verdict.low) if verdict.exact else f"{'>=' if ascii else '≥'}{verdict.low}"


def verdict_words(verdict: Verdict) -> str:
    """In words: "one of the best cards", "a mistake costing 12", "a mistake of at
    least 12 (proven)", "not judged: its cost lies between 0 and 30"; "; decisive"."""
    if verdict.kind is VerdictKind.BEST:
        return "one of the best cards"
    if not verdict.exact and verdict.low == 0:
        return (f"not judged: its cost lies between 0 and {verdict.high}"
                + ("; decisive" if verdict.kind is VerdictKind.DECISIVE else ""))
    text = (f"a mistake costing {verdict.low}" if verdict.exact
            else f"a mistake of at least {verdict.low} (proven)")
    return text + ("; decisive" if verdict.kind is VerdictKind.DECISIVE else "")
