"""The five games as rule parameters (docs/rules.md).

One trick-taking engine serves every game; what differs is data: the pack, how
many seats, card points, what the Excuse is, and a handful of flags that switch
trick rules on or off.  :class:`Rules` holds them; :func:`rules_for` builds the
rules of one game and contract.  The Cython search is driven by the same
parameters (see ``solver/``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import (AT4_DECK, EXCUSE, FULL_DECK, HEARTS, DIAMONDS, KING, QUEEN, CAVALIER,
                    JACK, PETIT, T21, Card, is_trump, rank, suit, TAROCK)

GAMES = ("fr4", "fr3", "fr5", "priest5", "at4")

# What the card EX is in each game.
EXCUSE_FRENCH = "excuse"   # fr*: may always be played, never wins (but the slam case)
EXCUSE_NARR = "narr"       # priest5: a tarock that never wins, stays with its holder
EXCUSE_SKUS = "skus"       # at4: simply the highest tarock

# at4 contracts (seed 003), grouped by what they change in play and counting.
AT4_RUFER = ("vorhandrufer", "solorufer", "farbenrufer", "pagatrufer", "uhurufer",
             "kakadurufer", "maraburufer")
AT4_BIRD = {"pagatrufer": 1, "uhurufer": 2, "kakadurufer": 3, "maraburufer": 4}
AT4_COLOUR = ("farbensechser", "farbenrufer", "farbendreier", "farbensolo")
AT4_NEGATIVE_TRICKS = {"piccolo": 1, "zwiccolo": 2, "triccolo": 3, "bettler": 0,
                       "piccolo_ouvert": 1, "zwiccolo_ouvert": 2, "triccolo_ouvert": 3,
                       "bettler_ouvert": 0}
AT4_ALONE = ("farbensechser", "sechserdreier", "farbendreier", "dreier", "farbensolo",
             "solodreier")
AT4_BIDS = ("trischaken",) + AT4_RUFER + AT4_ALONE + tuple(AT4_NEGATIVE_TRICKS)
AT4_OBJECTIVES = ("contract", "volat", "pagat_ultimo", "uhu_ultimo", "kakadu_ultimo",
                  "marabu_ultimo", "koenig_ultimo")
#: the bird of each ultimo and the trick (1-based) it must win by itself
AT4_ULTIMO = {"pagat_ultimo": 1, "uhu_ultimo": 2, "kakadu_ultimo": 3, "marabu_ultimo": 4}


def bird_trick(bird_number: int) -> int:
    """T1 must win trick 12, T2 trick 11, T3 trick 10, T4 trick 9."""
    return 13 - bird_number


@dataclass(frozen=True)
class Rules:
    """How tricks are played and counted in one game under one contract."""

    game: str
    seats: int
    hand_size: int
    deck: tuple[Card, ...]
    #: strength of each card within its own suit (index: card id)
    power: tuple[int, ...]
    #: card points in the game's counting unit (fr: half points)
    points: tuple[int, ...]
    excuse: str
    #: tarock beats suit cards (False in at4 colour games)
    trumps_win: bool = True
    #: fr: a trump must beat every trump already in the trick if it can
    overtrump: bool = False
    #: at4 negative games: beat the winning card if any legal card can (Stichzwang)
    must_beat: bool = False
    #: at4 negative games: the Pagat only as the player's last tarock
    pagat_last: bool = False
    #: at4 (not negative): Pagat, Mond and Sküs in one trick -> the Pagat wins
    trull: bool = False
    #: at4 colour games: no tarock lead while holding a suit card
    colour_lead: bool = False
    #: Trischaken "von oben": a leader holding tarock leads the highest one
    top_tarock_lead: bool = False
    #: fr5: the called card's suit may not be led to trick 1 (but the called card)
    called_card: Card | None = None
    #: priest5: the Narr counts only when played in tricks 1..narr_last_trick
    narr_last_trick: int = 0
    deck_set: frozenset = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "deck_set", frozenset(self.deck))

    def suit(self, c: Card) -> int:
        """The suit a card follows: 0..3, or TAROCK; the French Excuse is 5."""
        if c == EXCUSE and self.excuse != EXCUSE_FRENCH:
            return TAROCK
        return suit(c)

    def is_tarock(self, c: Card) -> bool:
        """A card that counts as tarock/trump for following (the Narr and the Sküs do)."""
        return is_trump(c) or (c == EXCUSE and self.excuse != EXCUSE_FRENCH)


# -- the games ---------------------------------------------------------------------------

SEATS = {"fr4": 4, "fr3": 3, "fr5": 5, "priest5": 5, "at4": 4}
HAND_SIZE = {"fr4": 18, "fr3": 24, "fr5": 15, "priest5": 15, "at4": 12}
OUTSIDE = {"fr4": 6, "fr3": 6, "fr5": 3, "priest5": 3, "at4": 6}


def _plain_power(c: Card) -> int:
    return rank(c)


def _at4_power(c: Card) -> int:
    # Red suits rank K Q N J 1 2 3 4: the pips run backwards below the jack.
    if suit(c) in (HEARTS, DIAMONDS) and rank(c) <= 4:
        return 5 - rank(c)
    return rank(c)


def _french_points(c: Card) -> int:
    """Half points: bout or king 9, queen 7, cavalier 5, jack 3, other 1 (total 182)."""
    if c in (PETIT, T21, EXCUSE):
        return 9
    if is_trump(c):
        return 1
    return {KING: 9, QUEEN: 7, CAVALIER: 5, JACK: 3}.get(rank(c), 1)


def _priest_points(c: Card) -> int:
    """K 5, Q 4, N 3, J 2, T21 5, T1 5, the Narr 5 (while it counts), others 0 (71)."""
    if c in (PETIT, T21, EXCUSE):
        return 5
    if is_trump(c):
        return 0
    return {KING: 5, QUEEN: 4, CAVALIER: 3, JACK: 2}.get(rank(c), 0)


def _at4_points(c: Card) -> int:
    """Sküs, Mond, Pagat, kings 5; queens 4; cavaliers 3; jacks 2; others 1 (106)."""
    if c in (PETIT, T21, EXCUSE):
        return 5
    if is_trump(c):
        return 1
    return {KING: 5, QUEEN: 4, CAVALIER: 3, JACK: 2}.get(rank(c), 1)


_FULL_POWER = tuple(_plain_power(c) for c in FULL_DECK)
_AT4_POWER = tuple(_at4_power(c) for c in FULL_DECK)
_FRENCH_POINTS = tuple(_french_points(c) for c in FULL_DECK)
_PRIEST_POINTS = tuple(_priest_points(c) for c in FULL_DECK)
_AT4_POINTS = tuple(_at4_points(c) for c in FULL_DECK)


def deck_of(game: str) -> tuple[Card, ...]:
    return AT4_DECK if game == "at4" else FULL_DECK


def rules_for(game: str, bid: str | None = None, *, called: Card | None = None,
              von_oben: bool = False) -> Rules:
    """The rules of ``game`` under contract ``bid`` (at4 contracts change trick play)."""
    common = dict(game=game, seats=SEATS[game], hand_size=HAND_SIZE[game], deck=deck_of(game))
    if game in ("fr4", "fr3", "fr5"):
        return Rules(**common, power=_FULL_POWER, points=_FRENCH_POINTS,
                     excuse=EXCUSE_FRENCH, overtrump=True,
                     called_card=called if game == "fr5" else None)
    if game == "priest5":
        return Rules(**common, power=_FULL_POWER, points=_PRIEST_POINTS,
                     excuse=EXCUSE_NARR, narr_last_trick=10)
    if game == "at4":
        negative = bid == "trischaken" or bid in AT4_NEGATIVE_TRICKS
        return Rules(**common, power=_AT4_POWER, points=_AT4_POINTS, excuse=EXCUSE_SKUS,
                     trumps_win=bid not in AT4_COLOUR, colour_lead=bid in AT4_COLOUR,
                     must_beat=negative, pagat_last=negative, trull=not negative,
                     top_tarock_lead=bid == "trischaken" and von_oben)
    raise ValueError(f"unknown game {game!r}")
