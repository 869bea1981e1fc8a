"""The five games as rule parameters (docs/rules.md): each game's one record.

One trick-taking engine serves every game; what differs is data.  A game's facts,
whatever its contract — the pack, the seats and hands, the cards outside the hands, which
way play goes round the table, its bids and announcements in their order, the contract
table's contracts and columns, the roles — are its :class:`Game`, registered in
:data:`GAME` and found by :func:`game_of` (as python-chess registers its variants); the code
elsewhere asks the record and never the game's name.  :class:`Rules` holds what changes
trick play and counting under one contract (card points, what the Excuse is, a handful of
flags); :func:`rules_for` builds them, and ``rules.facts`` is the game's record.  The Cython
search is driven by the same parameters (see ``solver/``).  The words a player reads for
each game are the presentation's, in one table too (:mod:`atout.present.words`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import (AT4_DECK, EXCUSE, FULL_DECK, HEARTS, DIAMONDS, KING, QUEEN, CAVALIER,
                    JACK, PETIT, T21, Card, is_trump, rank, suit, TAROCK)

# What the card EX is in each game.
EXCUSE_FRENCH = "excuse"   # fr*: may always be played, never wins (but the slam case)
EXCUSE_NARR = "narr"       # priest5: a tarock that never wins, stays with its holder
EXCUSE_SKUS = "skus"       # at4: simply the highest tarock

#: the rulebooks (docs/rules.md): French Tarot for 3, 4 and 5, Tessiner Priestertarock,
#: Austrian Tarock; a game's record says which it follows (``Game.family``), and a module
#: whose code differs by rulebook looks its part up by it (one table, not a branch)
FRENCH, PRIESTERTAROCK, AUSTRIAN = "french", "priestertarock", "austrian"

#: French Tarot's bids, the lowest first
FR_BIDS = ("prise", "garde", "garde_sans", "garde_contre")

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
#: every at4 contract, grouped so (the order `atout deal` draws one from: kept, so that a
#: seed deals what it dealt; :data:`AT4` lists them as docs/format.md does)
AT4_BIDS = ("trischaken",) + AT4_RUFER + AT4_ALONE + tuple(AT4_NEGATIVE_TRICKS)
#: at4 games whose declarer takes talon cards and discards (seed 003): their outcome hangs
#: on that choice, so the contract table has them only where the position gives the discard
AT4_TALON_GAMES = ("vorhandrufer", "farbenrufer", "pagatrufer", "uhurufer", "kakadurufer",
                   "maraburufer", "dreier", "sechserdreier", "farbendreier", "farbensechser")
#: at4 games the contract table asks of every seat: the solo games, then the negative ones
AT4_SOLO = ("solorufer", "solodreier", "farbensolo")
#: the seed's games from the lowest bid to the highest (003, "normale Spiele"); the
#: forehand's games (trischaken, vorhandrufer, farbensechser, sechserdreier) come only
#: when every other seat passes, so they rank below them all
AT4_ORDER = ("vorhandrufer", "farbensechser", "sechserdreier",
             "solorufer", "farbenrufer", "piccolo", "zwiccolo", "triccolo", "pagatrufer",
             "uhurufer", "bettler", "farbendreier", "kakadurufer", "dreier", "piccolo_ouvert",
             "zwiccolo_ouvert", "triccolo_ouvert", "bettler_ouvert", "maraburufer",
             "farbensolo", "solodreier")
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

    @property
    def facts(self) -> "Game":
        """The game's record: its facts whatever the contract (:class:`Game`)."""
        return GAME[self.game]

    def is_tarock(self, c: Card) -> bool:
        """A card that counts as tarock/trump for following (the Narr and the Sküs do)."""
        return is_trump(c) or (c == EXCUSE and self.excuse != EXCUSE_FRENCH)


# -- the games ---------------------------------------------------------------------------

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


@dataclass(frozen=True)
class Game:
    """One game's facts, whatever its contract: what the rest of the code asks of a game
    instead of testing its name.  A new game is one more record here (README, "Adding a
    game", lists what else it touches)."""

    #: the name positions give (``"fr4"``)
    name: str
    #: the rulebook it follows: :data:`FRENCH`, :data:`PRIESTERTAROCK` or :data:`AUSTRIAN`
    family: str
    seats: int
    hand_size: int
    #: the cards outside the hands: the dog, the open cards, the talon
    outside: int
    #: a deal as dealt's field holding them (docs/format.md): ``dog``, ``open``, ``talon``
    outside_field: str
    #: the contract's fields holding them (a position's): ``("dog",)``, ``("side_cards",
    #: "talon")``
    contract_outside: tuple[str, ...]
    #: the cards outside the hands lie face up for every seat to see (priest5's open cards)
    outside_seen: bool
    #: which way the play goes round the table (seat i+1 plays after seat i), from the
    #: seeds: French Tarot "wird gegen den Uhrzeigersinn gespielt" (000 §5, 004);
    #: Priestertarock "geht links herum", the player on the dealer's left leading (001:
    #: clockwise); Austrian Tarock deals and bids "gegen den Uhrzeigersinn" and the Vorhand,
    #: on the dealer's right, leads (003): anticlockwise, as Königrufen is played
    turn: str
    #: the bids as docs/format.md lists them (a share link numbers them so); priest5 has
    #: none: its contract is a call, or playing alone
    bids: tuple[str, ...]
    #: at4's announcements, ``contract`` (the game's own goal) first; none elsewhere
    objectives: tuple[str, ...]
    #: at4's two countings, the seed's first; none elsewhere
    countings: tuple[str, ...]
    #: the contracts a contract table may be asked for (``atout table --contract``)
    table_contracts: tuple[str, ...]
    #: the table's contracts from the lowest bid to the highest (par: a higher one outbids)
    ranks: tuple[str, ...]
    #: the contract table's columns in their order (at4: the game, then each announcement)
    columns: tuple[str, ...]
    #: par: the first seat that makes any contract takes it (priest5), rather than the
    #: highest contract made, the earliest seat between equals
    par_by_seat: bool
    #: the roles as the rules name them: the declarer's, and every other seat's
    roles: tuple[str, str]
    #: the French taker calls a card to find its partner (fr5)
    taker_calls: bool = False
    #: fr5: a queen may be called only by a taker holding the four kings, and so on
    called_ladder: bool = False
    #: the trumps a simple, double and triple poignée show; none where there is no poignée
    poignee_trumps: tuple[int, ...] = ()
    #: fr5: only the largest poignée counts (elsewhere they add up)
    largest_poignee_only: bool = False
    #: a hand whose only trump is the petit makes the deal void (French Tarot)
    petit_sec_void: bool = False
    #: the taker of a prise or garde takes the dog and puts an écart aside (French Tarot)
    ecart: bool = False
    #: the contract names a dealer, and the seat after it leads (priest5)
    has_dealer: bool = False
    #: card points are counted in halves (French Tarot: ``Rules.points`` in half points)
    point_unit: int = 1
    #: the points the taker needs depend on the bouts its camp wins (French Tarot)
    counts_bouts: bool = False
    #: places a card may lie in a share link (docs/format.md): the hands, then outside them
    link_places: int = 0
    deck: tuple[Card, ...] = ()

    @property
    def declarer_role(self) -> str:
        return self.roles[0]


def _french_game(name: str, seats: int, hand_size: int, dog: int, **facts) -> Game:
    return Game(name=name, family=FRENCH, seats=seats, hand_size=hand_size, outside=dog,
                outside_field="dog", contract_outside=("dog",), outside_seen=False,
                turn="anticlockwise", bids=FR_BIDS, objectives=(), countings=(),
                table_contracts=FR_BIDS, ranks=FR_BIDS[1:], columns=FR_BIDS[1:],
                par_by_seat=False, roles=("taker", "defender"), petit_sec_void=True,
                point_unit=2, counts_bouts=True, ecart=True,
                link_places=seats + 1, deck=FULL_DECK, **facts)


FR4 = _french_game("fr4", 4, 18, 6, poignee_trumps=(10, 13, 15))
FR3 = _french_game("fr3", 3, 24, 6, poignee_trumps=(13, 15, 18))
FR5 = _french_game("fr5", 5, 15, 3, poignee_trumps=(8, 10, 13), taker_calls=True,
                   called_ladder=True, largest_poignee_only=True)
PRIEST5 = Game(name="priest5", family=PRIESTERTAROCK, seats=5, hand_size=15, outside=3,
               outside_field="open", contract_outside=("open",), outside_seen=True,
               turn="clockwise", bids=(), objectives=(), countings=(),
               table_contracts=("call", "alone"), ranks=("call", "alone"),
               columns=("call", "alone"), par_by_seat=True, roles=("caller", "opponent"),
               has_dealer=True, link_places=6, deck=FULL_DECK)
AT4 = Game(name="at4", family=AUSTRIAN, seats=4, hand_size=12, outside=6,
           outside_field="talon", contract_outside=("side_cards", "talon"), outside_seen=False,
           turn="anticlockwise",
           bids=("vorhandrufer", "solorufer", "farbenrufer", "pagatrufer", "uhurufer",
                 "kakadurufer", "maraburufer", "dreier", "solodreier", "sechserdreier",
                 "farbendreier", "farbensechser", "farbensolo", "piccolo", "zwiccolo",
                 "triccolo", "bettler", "piccolo_ouvert", "zwiccolo_ouvert",
                 "triccolo_ouvert", "bettler_ouvert", "trischaken"),
           objectives=AT4_OBJECTIVES, countings=("seed", "standard"),
           table_contracts=AT4_SOLO + tuple(AT4_NEGATIVE_TRICKS) + AT4_TALON_GAMES,
           ranks=AT4_ORDER, columns=AT4_OBJECTIVES, par_by_seat=False,
           roles=("declarer", "opponent"), link_places=8, deck=AT4_DECK)

#: every game by name, in the order a share link numbers them (docs/format.md)
GAME: dict[str, Game] = {g.name: g for g in (FR4, FR3, FR5, PRIEST5, AT4)}
GAMES = tuple(GAME)
#: the facts above by game, as the older code reads them
SEATS = {g.name: g.seats for g in GAME.values()}
HAND_SIZE = {g.name: g.hand_size for g in GAME.values()}
OUTSIDE = {g.name: g.outside for g in GAME.values()}

assert set(AT4.bids) == set(AT4_BIDS)


def game_of(name: str) -> Game:
    """The record of the game named ``name`` (ValueError for a name that is none)."""
    try:
        return GAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}") from None


def deck_of(game: str) -> tuple[Card, ...]:
    return game_of(game).deck


_POWER = {FRENCH: _FULL_POWER, PRIESTERTAROCK: _FULL_POWER, AUSTRIAN: _AT4_POWER}
_POINTS = {FRENCH: _FRENCH_POINTS, PRIESTERTAROCK: _PRIEST_POINTS, AUSTRIAN: _AT4_POINTS}


def _french_rules(game: Game, bid, called, von_oben) -> dict:
    return dict(excuse=EXCUSE_FRENCH, overtrump=True,
                called_card=called if game.taker_calls else None)


def _priest_rules(game: Game, bid, called, von_oben) -> dict:
    return dict(excuse=EXCUSE_NARR, narr_last_trick=10)


def _austrian_rules(game: Game, bid, called, von_oben) -> dict:
    negative = bid == "trischaken" or bid in AT4_NEGATIVE_TRICKS
    return dict(excuse=EXCUSE_SKUS, trumps_win=bid not in AT4_COLOUR,
                colour_lead=bid in AT4_COLOUR, must_beat=negative, pagat_last=negative,
                trull=not negative, top_tarock_lead=bid == "trischaken" and von_oben)


#: what each rulebook sets of a contract's :class:`Rules`
_CONTRACT_RULES = {FRENCH: _french_rules, PRIESTERTAROCK: _priest_rules,
                   AUSTRIAN: _austrian_rules}


def rules_for(game: str, bid: str | None = None, *, called: Card | None = None,
              von_oben: bool = False) -> Rules:
    """The rules of ``game`` under contract ``bid`` (at4 contracts change trick play)."""
    g = game_of(game)
    return Rules(game=game, seats=g.seats, hand_size=g.hand_size, deck=g.deck,
                 power=_POWER[g.family], points=_POINTS[g.family],
                 **_CONTRACT_RULES[g.family](g, bid, called, von_oben))
