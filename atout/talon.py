"""The Austrian Tarock talon: who takes which of its six cards, what is laid away for them,
and for whom what stays outside the hands counts — by contract, as seed 003 says.

A position gives the hands when play starts and the six cards outside them as
``side_cards`` ``{"<seat>": [cards]}``, each counting for the camp of the seat it is listed
under (docs/format.md).  After a talon exchange those six are what was laid away, each
under the seat that laid it away; a talon no one took lies under the camp it counts for.
:func:`check_side_cards` refuses a position whose six cards no deal by the seed's rules
can leave so; :func:`exchange` deals them so (``atout deal``).  The rules, from the seed
("Ablegen", "Austeilen" and each game's paragraph):

- Solo games (``solorufer``, ``solodreier``, ``farbensolo``): "Talon wird nicht
  ausgeteilt, nicht angeschaut und zählt zu den Punkten der Gegner" — the talon counts for
  the opponents; a Solorufer's called king lying in it goes to the declarer at the end
  ("so erhält man diesen am Ende des Spiels").
- Negative games ("kein Talon"): no one takes it; where it counts does not matter (no
  point counts for their goal, and they have no announcement), so any split is taken.
- Rufer with talon (``vorhandrufer``, ``farbenrufer``, the bird Rufer): the declarer takes
  four talon cards, each of the two seats after it one ("die beiden nachfolgenden Spieler
  erhalten je 1 Karte"), and each lays away as many as it took ("Soviel Karten aufgenommen
  werden, müssen auch wieder abgelegt werden"): four cards under the declarer, one under
  each of the next two seats.
- ``sechserdreier``, ``farbensechser``: the declarer takes all six and lays six away.
- ``dreier``, ``farbendreier``: the declarer takes the upper or the lower three and lays
  three away; the three it did not take count for the opponents.
- What is laid away: never a Fünferstück (Pagat, Mond, Sküs, a king); in a colour game only
  tarocks, suit cards only when too few tarocks may go; in every other game only suit
  cards, tarocks only when too few suit cards may go.
"""

from __future__ import annotations

import random
from typing import Iterable

from .cards import EXCUSE, KING, PETIT, T21, Card, is_trump, rank, token
from .errors import PositionError
from .games import AT4_COLOUR, AT4_NEGATIVE_TRICKS, AT4_RUFER

__all__ = ["SOLO", "TALON_RUFER", "SECHSER", "DREIER", "takes", "may_lay_away",
           "check_side_cards", "exchange"]

SOLO = ("solorufer", "solodreier", "farbensolo")
TALON_RUFER = tuple(b for b in AT4_RUFER if b != "solorufer")
SECHSER = ("sechserdreier", "farbensechser")
DREIER = ("dreier", "farbendreier")


def takes(bid: str, declarer: int) -> dict[int, int]:
    """How many talon cards each seat takes (and lays away) in ``bid``: none in a solo or
    negative game."""
    if bid in TALON_RUFER:
        return {declarer: 4, (declarer + 1) % 4: 1, (declarer + 2) % 4: 1}
    if bid in SECHSER:
        return {declarer: 6}
    if bid in DREIER:
        return {declarer: 3}
    return {}


def _fuenfer(c: Card) -> bool:
    """A Fünferstück: the Pagat, the Mond, the Sküs or a king (five points each)."""
    return c in (PETIT, T21, EXCUSE) or (not is_trump(c) and rank(c) == KING)


def may_lay_away(c: Card) -> bool:
    """Whether a card may ever be laid away: every card but the Fünferstücke."""
    return not _fuenfer(c)


def _first_choice(bid: str, c: Card) -> bool:
    """A card of the kind laid away first: a tarock in a colour game, else a suit card."""
    return (is_trump(c) if bid in AT4_COLOUR else not is_trump(c)) and may_lay_away(c)


def _kind(bid: str) -> tuple[str, str]:
    return ("tarocks", "suit cards") if bid in AT4_COLOUR else ("suit cards", "tarocks")


def _laid_away_problem(bid: str, laid: list[Card], kept: Iterable[Card]) -> str | None:
    """Why ``laid`` cannot be what a seat holding ``kept`` now laid away, or None."""
    for c in laid:
        if _fuenfer(c):
            return (f"{token(c)} is never laid away (seed 003: no Pagat, Mond, Sküs or king "
                    "goes in the talon)")
    first, then = _kind(bid)
    other = [c for c in laid if not _first_choice(bid, c)]
    could = [c for c in kept if _first_choice(bid, c)]
    if other and could:
        game = "a colour game" if bid in AT4_COLOUR else f"a {bid}"
        return (f"in {game} only {first} are laid away while one may go ({token(other[0])} "
                f"was, {token(could[0])} kept): {then} only when too few {first} may")
    return None


def check_side_cards(bid: str, declarer: int, partner: int | None, called: Card | None,
                     side: dict[int, list[Card]], hands: list[list[Card]]) -> None:
    """Refuses (PositionError) six side cards that no talon exchange of ``bid`` by the seed
    leaves so (the module docstring): ``side`` by seat, ``hands`` as play starts."""
    ours = {declarer} | ({partner} if partner is not None else set())
    side = {s: cs for s, cs in side.items() if cs}
    if bid in AT4_NEGATIVE_TRICKS:
        return
    if bid in SOLO:
        for s, cs in sorted(side.items()):
            for c in cs:
                if c == called and s not in ours:
                    raise PositionError(f"contract.side_cards.{s}", f"{token(c)}, the called king "
                                        "lying in the talon, counts for the declarer (seed 003: "
                                        "it goes to the declarer at the end)")
                if s in ours and c != called:
                    raise PositionError(f"contract.side_cards.{s}", f"in a {bid} the talon counts "
                                        "for the opponents (seed 003: \"zählt zu den Punkten der "
                                        "Gegner\"): list it under an opponent's seat")
        return
    want = takes(bid, declarer)
    if bid in DREIER:
        rest = [s for s in side if s != declarer]
        if len(side.get(declarer, [])) != 3:
            raise PositionError("contract.side_cards", f"a {bid}'s declarer (seat {declarer}) "
                                "takes three talon cards and lays three away: three cards "
                                f"under seat {declarer}, not {len(side.get(declarer, []))}")
        for s in rest:
            if s in ours:
                raise PositionError(f"contract.side_cards.{s}", "the three talon cards the "
                                    "declarer did not take count for the opponents")
    elif {s: len(cs) for s, cs in side.items()} != want:
        laid = ", ".join(f"{n} under seat {s}" for s, n in want.items())
        raise PositionError("contract.side_cards", f"in a {bid} each seat lays away as many "
                            f"cards as it took from the talon (seed 003): {laid}")
    for s in sorted(want):
        problem = _laid_away_problem(bid, side.get(s, []), hands[s])
        if problem:
            raise PositionError(f"contract.side_cards.{s}", problem)


def _lay_away(rng: random.Random, bid: str, hand: list[Card], n: int) -> list[Card]:
    first = [c for c in hand if _first_choice(bid, c)]
    if len(first) >= n:
        return rng.sample(first, n)
    rest = [c for c in hand if may_lay_away(c) and c not in first]
    return first + rng.sample(rest, n - len(first))


def exchange(rng: random.Random, bid: str, declarer: int, hands: list[list[Card]],
             talon: list[Card], called: Card | None) -> dict[str, list[str]]:
    """The talon of ``bid`` dealt by the seed's rules: ``hands`` (as dealt) become the hands
    as play starts, and the six side cards are returned by seat (``side_cards``)."""
    talon = list(talon)
    holder = next((s for s, h in enumerate(hands) if called in h), None) if called else None
    partner = holder if holder != declarer else None
    opponents = [s for s in range(4) if s not in (declarer, partner)]
    side: dict[int, list[Card]] = {}
    given: list[tuple[int, list[Card]]] = []
    if bid in TALON_RUFER:
        rng.shuffle(talon)                   # (taken blind: as the cards lie)
        given = [(declarer, talon[:4]), ((declarer + 1) % 4, talon[4:5]),
                 ((declarer + 2) % 4, talon[5:])]
    elif bid in SECHSER:
        given = [(declarer, talon)]
    elif bid in DREIER:
        upper = rng.random() < 0.5           # the upper or the lower three, laid open
        taken, left = (talon[:3], talon[3:]) if upper else (talon[3:], talon[:3])
        given = [(declarer, taken)]
        for c in left:
            side.setdefault(rng.choice([s for s in range(4) if s != declarer]), []).append(c)
    else:                                     # solo and negative games: no one takes it
        for c in talon:
            seat = declarer if c == called else rng.choice(opponents)
            side.setdefault(seat, []).append(c)
    for seat, got in given:
        hand = hands[seat] + got
        laid = _lay_away(rng, bid, hand, len(got))
        hands[seat] = [c for c in hand if c not in laid]
        side.setdefault(seat, []).extend(laid)
    return {str(s): [token(c) for c in cs] for s, cs in sorted(side.items())}
