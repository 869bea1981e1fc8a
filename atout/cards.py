"""Cards as small integers, and their tokens (docs/format.md).

Every game draws from one 78-card numbering, so the engine, the solver and the
tools all speak the same ids:

* suit cards: ``suit * 14 + rank - 1`` with suits ``S H D C`` = 0..3 and ranks
  1..10, ``J`` 11, ``N`` 12, ``Q`` 13, ``K`` 14;
* trumps / tarock ``T1`` .. ``T21``: 56 .. 76;
* the Excuse / Narr / Sküs ``EX``: 77.

>>> token(card("10H"))
'10H'
>>> card("T21") - card("T1")
20
"""

from __future__ import annotations

from typing import Iterable

Card = int  # 0..77

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUIT_LETTERS = "SHDC"
RANK_TOKENS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
JACK, CAVALIER, QUEEN, KING = 11, 12, 13, 14

#: the suit number of tarock/trumps (the Excuse has its own, see :func:`suit`)
TAROCK = 4
#: the Excuse (French), the Narr (priest5) or the Sküs (at4)
EXCUSE = 77
PETIT = 56  # T1, the Pagat
T21 = 76
DECK_SIZE = 78


def suit_card(suit: int, rank: int) -> Card:
    return suit * 14 + rank - 1


def trump(number: int) -> Card:
    return PETIT + number - 1


def is_trump(c: Card) -> bool:
    """T1..T21 (not the Excuse)."""
    return PETIT <= c <= T21


def suit(c: Card) -> int:
    """0..3 for suit cards, TAROCK for T1..T21, 5 for EX (each game decides what EX is)."""
    return c // 14 if c < PETIT else (TAROCK if c < EXCUSE else 5)


def rank(c: Card) -> int:
    """1..14 for suit cards, the trump's number, 22 for EX."""
    return c % 14 + 1 if c < PETIT else c - PETIT + 1


_TOKENS = [r + s for s in SUIT_LETTERS for r in RANK_TOKENS] + [f"T{n}" for n in range(1, 22)] + ["EX"]
_IDS = {t: i for i, t in enumerate(_TOKENS)}

FULL_DECK: tuple[Card, ...] = tuple(range(DECK_SIZE))

# at4's 54-card pack: red suits 1-4 and faces, black suits 7-10 and faces, all tarock.
_RED_RANKS = (1, 2, 3, 4, JACK, CAVALIER, QUEEN, KING)
_BLACK_RANKS = (7, 8, 9, 10, JACK, CAVALIER, QUEEN, KING)
AT4_DECK: tuple[Card, ...] = tuple(sorted(
    [suit_card(s, r) for s in (HEARTS, DIAMONDS) for r in _RED_RANKS]
    + [suit_card(s, r) for s in (SPADES, CLUBS) for r in _BLACK_RANKS]
    + list(range(PETIT, DECK_SIZE))))


def card(tok: str) -> Card:
    """The id of a token; raises ValueError for anything else."""
    if not isinstance(tok, str):
        raise ValueError(f"a card is a string token, not {type(tok).__name__}")
    try:
        return _IDS[tok]
    except KeyError:
        shown = tok if len(tok) <= 12 else tok[:12] + "…"
        raise ValueError(f"unknown card {shown!r}") from None


def token(c: Card) -> str:
    return _TOKENS[c]


def tokens(cards: Iterable[Card]) -> list[str]:
    return [_TOKENS[c] for c in cards]
