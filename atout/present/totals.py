"""What a session's analyses prove, summed as they may be: each card's verdict as the
analysis named it, what each player is proven to have given away (a sum of exact costs and
proven lower bounds, per game and kind of value: two games' values, or a point game's and
a made-or-not goal's, do not add up), and the boards — the deals dealt the same cards at
different tables."""

from __future__ import annotations

from dataclasses import dataclass

from atout.position import Position
from atout.verdict import Verdict

from .session import Played
from .view import binary_value

__all__ = ["verdict", "proven_cost", "is_mistake", "given_away", "value_kind", "PlayerTotal",
           "player_totals", "boards"]


def verdict(play: dict) -> Verdict:
    """The verdict the analysis gave the card (atout.verdict): read, not worked out."""
    return Verdict.of_play(play)


def proven_cost(play: dict) -> int:
    """What a card is proven to have cost: its cost, else the low of its bounds."""
    return verdict(play).low


def is_mistake(play: dict) -> bool:
    return verdict(play).is_mistake


def given_away(seat: dict) -> int:
    """What a seat is proven to have given away in one deal (the analysis' own total)."""
    return seat["cost"] if seat["cost"] is not None else seat["at_least"]


def value_kind(pos: Position) -> str:
    """What a deal's values count, for adding them up: points, thirds of a point (Austrian
    Tarock's standard counting, 3 × points − 2 × cards), or a goal made (1) or not.  Two
    kinds are never added together."""
    if binary_value(pos):
        return "goals"
    return "thirds" if pos.contract.counting == "standard" else "points"


@dataclass
class PlayerTotal:
    name: str
    deals: int = 0
    cards: int = 0
    given: int = 0          # proven: the sum of the seats' given_away
    exact: bool = True      # every cost of theirs exact
    not_judged: int = 0
    mistakes: int = 0
    decisive: int = 0


def player_totals(deals: list[Played]) -> dict[tuple[str, str], list[PlayerTotal]]:
    """Per (game, value kind): each player's totals over the session, the one who gave away
    the least per deal first."""
    groups: dict[tuple[str, str], dict[str, PlayerTotal]] = {}
    for d in deals:
        key = (d.position.game, value_kind(d.position))
        players = groups.setdefault(key, {})
        for row in d.result["seats"]:
            name = d.player(row["seat"])
            t = players.setdefault(name, PlayerTotal(name))
            t.deals += 1
            t.cards += row["cards"]
            t.given += given_away(row)
            t.exact = t.exact and row["cost"] is not None
            t.not_judged += row.get("not_judged", 0) if row["cost"] is None else 0
            t.mistakes += row["mistakes"]
            t.decisive += sum(1 for p in d.result["plays"]
                              if p["seat"] == row["seat"]
                              and verdict(p).decisive)
    return {key: sorted(players.values(), key=lambda t: (t.given / t.deals, t.name))
            for key, players in sorted(groups.items())}


def boards(deals: list[Played]) -> list[list[Played]]:
    """The deals grouped by board: the same ``board`` label (and game), else the same hands
    (each seat's cards, and the game) — a duplicate session's tables; in the order the
    first of each appears."""
    groups: dict[tuple, list[Played]] = {}
    for d in deals:
        pos = d.position
        if pos.board is not None:
            key = ("board", pos.game, str(pos.board))
        else:
            key = ("hands", pos.game, tuple(tuple(sorted(h)) for h in pos.hands))
        groups.setdefault(key, []).append(d)
    out = list(groups.values())
    # boards by their labels in order (1 2 3 4, not as the file met them: 1 2 4 3), numbers
    # as numbers; a group with no label keeps its place
    labelled = [i for i, g in enumerate(out) if g[0].position.board is not None]
    ordered = sorted((out[i] for i in labelled), key=lambda g: _label_key(g[0].position.board))
    for i, g in zip(labelled, ordered):
        out[i] = g
    return out


def _label_key(label) -> tuple:
    text = str(label)
    return (0, int(text), "") if text.isdigit() else (1, 0, text)
