"""One table for many deals: a garde's écarts searched one after the other on one engine
(``Engine.rebase``, solver/ecarts.py) are worth exactly what each is worth searched alone.

The deals are cut short (a few tricks left, every cell taking the same first cards as
played, as in tests/test_contract_table.py), so that each écart class of every seat's garde
is solved whole, both ways: on a fresh engine, and on one engine that searched the classes
before it.  A table whose entries did not cover the écart's points — what was won counted
from the search's root, which is sound for one deal — must be caught by the same check.
And the contract table's own search of a garde (solver/ecarts.py: classes stopped at their
node budget and taken up again later, on the table the classes between left) answers
each class, and the cell, as the classes searched alone do.

``python tests/test_shared_table.py [DEALS] [SEED]``: the same checks on more deals."""

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
from atout.solver.cancel import Cancel
from atout.solver.ecarts import EcartSearch

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


def _search_cells(rng: random.Random, deals: int, tricks_left: int,
                  first_budget: int) -> tuple[int, int, int]:
    """(classes answered, those stopped and taken up again, answers that differed): each
    cut-short garde searched as the table searches it (solver/ecarts.py, one engine for
    every class), on budgets so small (the engine looks at its limit every 1,024 nodes)
    that the dearer classes are stopped and taken up again, the table warm from the
    classes between; each class's answer and bounds, and the cell's answer, against every
    class searched alone."""
    answered = again = differed = 0
    for _ in range(deals):
        for game in ("fr4", "fr3", "fr5"):
            for cell in _cut_short(rng, game, tricks_left):
                search = EcartSearch(cell, first_budget=first_budget)
                engine = []

                def engine_of(pos):
                    if not engine:
                        engine.append(make_engine(pos, 1))
                        return engine[0], True
                    return engine[0], False

                while search.made is None:
                    assert search.turn(first_budget, engine_of, float("inf"), Cancel())
                alone = {}
                for c in search.classes:
                    try:
                        alone[c.rank] = make_engine(cell.with_ecart(c.ecart), 1).value()[1]
                    except PositionError:
                        alone[c.rank] = None        # (no choice: a petit sec left)
                t = search.threshold
                best = max(v for v in alone.values() if v is not None)
                differed += search.made != (best >= t)
                for c in search.classes:
                    if c.made is None:
                        continue                    # (not asked: another made it first)
                    answered += 1
                    again += c.tries > 1
                    v = alone[c.rank]
                    if v is None:
                        differed += not c.impossible
                        continue
                    differed += c.made != (v >= t)
                    differed += c.lo is not None and not c.lo <= v <= c.hi
                if search.making is not None:
                    differed += search.making.made is not True
    return answered, again, differed


def test_ecart_classes_stopped_and_taken_up_on_one_table_answer_as_alone():
    answered, again, differed = _search_cells(random.Random(6800), 4, 5, 1)
    assert answered >= 500 and again >= 20
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


if __name__ == "__main__":
    # the same checks on more deals (docs/search-log.md):
    #   python tests/test_shared_table.py [DEALS] [SEED]
    import sys
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    compared, differed = _compare(random.Random(seed), deals, DEFAULT_FEATURES)
    print(f"{deals} deals of each French game, 2 or 3 tricks left: {compared} écart classes "
          f"on one rebased engine, {differed} differ from a fresh engine")
    answered, again, differed = _search_cells(random.Random(seed), deals // 4, 5, 1)
    print(f"{deals // 4} deals of each, 5 tricks left, the table's search (budgets of 1,024 "
          f"nodes): {answered} classes answered, {again} of them taken up again, "
          f"{differed} answers differ from each class alone")
