"""One way of writing what every interface shows: a game's words, a card, a count of
points, a verdict.

Each game's words — its name, what its Excuse is called, a trump's word, its camps, the
cards outside the hands — are its :class:`GameWords`, one table (:data:`WORDS`) beside
the rules' records (:data:`atout.games.GAME`); the viewer's page reads the same table from
the server (``GET /api/games``, :func:`atout.present.view.games`), so nothing here is
written twice.
The terminal (``atout show``, ``solve --text``, ``analyze``), the report, the picture and
the viewer's table (:mod:`.view`) all write through this module, so that a card reads the
same everywhere: ``K♠`` (``KS`` in ASCII), ``21 atout``, ``Excuse`` in a sentence, ``T21``
and ``EX`` in a compact column; an Austrian Tarock count in thirds as ``12⅔``; a card's
verdict as :class:`~atout.verdict.Verdict` writes itself (``·``, ``12``, ``≥12``, ``?`` or
in words).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from atout.cards import Card, token
from atout.games import GAME, game_of
from atout.verdict import Verdict

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True)
class GameWords:
    """How a player names what one game has."""

    #: the game's name, as every interface heads a deal with it
    name: str
    #: the card EX, as players call it in this game
    excuse: str
    #: a trump in a sentence: "21 atout", "21 tarock"
    trump: str
    #: the declarer's camp and the others', in a sentence
    camps: tuple[str, str]
    #: the cards outside the hands of a deal as dealt
    outside: str
    #: what a contract table's numbers count, by counting (the seed's: ``seed``)
    table_value: dict
    #: at4's countings as the editor offers them
    countings: dict = field(default_factory=dict)

    @property
    def camp_labels(self) -> tuple[str, str]:
        """The camps as a row of a table heads them: "Taker's camp", "Defence"."""
        return tuple(c.removeprefix("the ")[:1].upper() + c.removeprefix("the ")[1:]
                     for c in self.camps)


_FRENCH_CAMPS = ("the taker's camp", "the defence")
_FRENCH_TABLE = {"seed": "the deal's score per defender, from the taker's side (made: positive)"}
_GOALS = "an announcement or a negative game: made or down"
#: every game's words, by the game's name (the rules' records name the same games)
WORDS: dict[str, GameWords] = {
    "fr4": GameWords("French Tarot (4)", "Excuse", "atout", _FRENCH_CAMPS, "dog", _FRENCH_TABLE),
    "fr3": GameWords("French Tarot (3)", "Excuse", "atout", _FRENCH_CAMPS, "dog", _FRENCH_TABLE),
    "fr5": GameWords("French Tarot (5)", "Excuse", "atout", _FRENCH_CAMPS, "dog", _FRENCH_TABLE),
    "priest5": GameWords(
        "Tessiner Priestertarock", "Narr", "tarock", ("the caller's party", "the other party"),
        "open cards", {"seed": "the caller's party's card points minus the other party's"}),
    "at4": GameWords(
        "Austrian Tarock", "Sküs", "tarock", ("the declarer's camp", "the opponents"), "talon",
        {"seed": f"the declarer's camp's card points (made with 54 of 106); {_GOALS}",
         "standard": ("the declarer's camp's card points, counted in threes (made with 35⅔ "
                      f"of 70); {_GOALS}")},
        countings={"seed": "seed (54 of 106)", "standard": "standard (in threes)"}),
}
assert set(WORDS) == set(GAME), "every game has its words"


def words_of(game: str) -> GameWords:
    """The words of the game named ``game`` (ValueError for a name that is none)."""
    game_of(game)
    return WORDS[game]


def game_name(game: str) -> str:
    """The game's name as every interface writes it: "French Tarot (4)"."""
    return words_of(game).name


def card_text(c: Card | str, ascii: bool = False, game: str | None = None) -> str:
    """A card as a player writes it in a sentence, as the viewer writes it: ``K♠`` (``KS``
    in ASCII), ``21 atout`` (``21 tarock`` outside French Tarot), ``Excuse`` (``Narr``,
    ``Sküs``).  Without ``game`` (the compact columns of a table): ``T21``, ``EX``."""
    tok = c if isinstance(c, str) else token(c)
    if game is not None and tok == "EX":
        name = words_of(game).excuse
        return name.replace("ü", "u") if ascii else name
    if game is not None and tok.startswith("T"):
        return f"{tok[1:]} {words_of(game).trump}"
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


def contract_column(name: str | None, ascii: bool = False) -> str:
    """A contract as the contract table's column heads it: the French garde's column is
    ``Prise/garde`` (it stands for the prise too); ``pass`` where no contract is made."""
    if name is None:
        return "pass"
    return "Prise/garde" if name == "garde" else contract_words(name, ascii)


def verdict_mark(verdict: Verdict, ascii: bool = False) -> str:
    """A verdict as it writes itself in a few characters (:meth:`Verdict.mark`: ``·``,
    ``12``, ``≥12``, ``?``); kept for the callers of this module."""
    return verdict.mark(ascii)


def verdict_words(verdict: Verdict) -> str:
    """A verdict in words (:meth:`Verdict.words`); kept for the callers of this module."""
    return verdict.words()
