"""One table for many deals: a garde's écarts searched one after the other on one engine
(``Engine.rebase``, solver/ecarts.py) are worth exactly what each is worth searched alone.

The deals are cut short (a few tricks left, every cell taking the same first cards as
played, as in tests/test_contract_table.py), so that each écart class of every seat's garde
is solved whole, both ways: on a fresh engine, and on one engine that searched the classes
before it.  A table whose entries did not cover the écart's points — what was won counted
from the search's root, which is sound for one deal — must be caught by the same check."""

from __future__ import annotations

import random

import pytest

from atout.contract_table import table_spec
from atout.dealt import dealt
from atout.errors import PositionError
from atout.position import parse_position
from atout.scoring import made_threshold
from atout.solver import DEFAULT_FEATURES, make_engine, rebase_to
from atout.solver._search import PAST_FROM_ROOT_FOR_TESTS

from deals import random_position


def _cut_short(rng: random.Random, game: str, tricks_left: int):
    """A random French deal as dealt, its first cards played until ``tricks_left`` tricks
    remain, and the searched gardes of its table (their écart classes)."""
    obj = random_position(rng, game, "garde_sans", chelem=False, poignees=False)
    pos = parse_position(obj)
    while pos.rules.hand_size - pos.trick_no > tricks_left:
        pos.play(rng.choice(pos.legal_cards()))
    try:
        spec = table_spec(dealt(parse_position(obj)), ["garde"], pos.played)
    except PositionError:
        return []           # (no seat has an écart that keeps the cards it played)
    return [c for c in spec.cells if c.ecart == "searched"]


def _positions(cell):
    """The position of each écart class the rules allow, in the table's order."""
    out = []
    for k in cell.classes:
        try:
            out.append(cell.with_ecart(k.ecart))
        except PositionError:
            pass            # (a petit sec left in hand: no choice)
    return out


def _compare(rng: random.Random, deals: int, features: int) -> tuple[int, int]:
    """(classes compared, classes whose value or contract answer differed) over the
    gardes of ``deals`` cut-short deals of each French game."""
    compared = differed = 0
    for _ in range(deals):
        for game in ("fr4", "fr3", "fr5"):
            for cell in _cut_short(rng, game, rng.choice((2, 3))):
                positions = _positions(cell)
                shared = make_engine(positions[0], 1, features) if positions else None
                for pos in positions:
                    alone = make_engine(pos, 1, features).value()
                    rebase_to(shared, pos)
                    # the contract question first, as the table asks it, then the value
                    t = made_threshold(pos.contract, pos.hands)
                    done, answer = shared.at_least(t)
                    kept = shared.value()
                    assert alone[0] and kept[0] and done
                    compared += 1
                    differed += kept[1] != alone[1] or answer != (alone[1] >= t)
    return compared, differed


def test_ecarts_on_one_table_are_worth_what_each_is_alone():
    compared, differed = _compare(random.Random(68), 40, DEFAULT_FEATURES)
    assert compared >= 2000
    assert differed == 0


def test_a_table_blind_to_the_ecarts_points_is_caught():
    """The check above fails on a table that counts what was won from the search's root:
    the écart's points then go uncounted when an entry moves from one écart to another."""
    compared, differed = _compare(random.Random(68), 20,
                                  DEFAULT_FEATURES | PAST_FROM_ROOT_FOR_TESTS)
    assert differed > 0, compared       # (7 of 1,397 classes when written)


def test_rebase_needs_the_same_game():
    """A garde's table cannot serve its garde sans (another multiplier: other values)."""
    rng = random.Random(3)
    obj = random_position(rng, "fr4", "garde_sans", chelem=False, poignees=False)
    garde_sans = parse_position(obj)
    cell = next(c for c in table_spec(dealt(garde_sans), ["garde"]).cells
                if c.ecart == "searched")
    engine = make_engine(_positions(cell)[0], 1)
    with pytest.raises(ValueError, match="same game"):
        rebase_to(engine, garde_sans)
