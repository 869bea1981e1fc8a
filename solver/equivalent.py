"""Legal cards that no deal tells apart: provably worth the same from the seat's view.

Single-dummy advice (:mod:`atout.solver.race`) compares the legal cards of the seat to
play over deals it draws.  Two cards that are worth the same in *every* deal the seat
considers possible need no comparison: they are one choice, valued once, and a tie
between them in the draws is certain rather than a sign of anything.  Two cards merely
tied in the draws so far are not: a later draw may tell them apart (docs/single-dummy.md,
"Cards worth the same").  This module tells the first kind from what the seat sees.

Two legal cards ``a`` < ``b`` of the seat to play are **equivalent** when

1. they are of one suit for the search (the trumps and the Excuse are one suit);
2. the value counts the same card points for both (``value_points`` of
   :mod:`atout.solver.params`: a game that counts only tricks or birds counts none);
3. neither has a rule of its own: the search's ``special`` cards (``T1``/Pagat, ``T21``/Mond,
   the Excuse/Sküs/Narr, the fr5 called card, the at4 bird of a bird game or an ultimo,
   the king of a König ultimo) and the contract's called card in every game;
4. every card ranking between them is out of play in every deal the seat considers
   possible — in a finished trick, or in a pile outside the hands (dog, écart, talon, open
   or side cards) where the seat knows it lies or where alone it may lie — or is in the
   seat's own hand and itself meets 2 and 3 with them.  A card on the table in the
   current trick, or one that may be in another hand, breaks the run.

Why they are worth the same in every such deal: the seat's cards from ``a`` to ``b`` form a
run that no card still in play splits, of equal points and none special.  Playing ``a``
or playing ``b`` leaves the same position up to renaming the run's cards left in the
seat's hand in their order; every rule of docs/rules.md compares a card with the cards of its
trick (following, trumping, over-trumping, beating, winning) or with the other cards of
its own hand (Trischaken *von oben*'s highest tarock, the Pagat as the last tarock), and
each such comparison comes out the same for every card of the run, because nothing in
play lies between them and the run's own cards keep their order; the points counted are
the same, and no bonus (petit au bout, Trull, the birds, the Narr's last tricks, the fr5
partner, the König) names one of them.  So the double-dummy value after ``a`` equals the
value after ``b`` in every consistent deal.  (The search merges cards the same way inside
a deal, where it sees every hand: ``moves`` in solver/moves.pxi; here only what the seat
sees counts, so a card the seat cannot place between them keeps them apart.)

>>> import random
>>> from atout.deal import random_endgame
>>> from atout.position import parse_position
>>> pos = parse_position(random_endgame(random.Random(3), "fr4", 4))
>>> sum(len(g) for g in equivalent_cards(pos)) == len(pos.legal_cards())
True
"""

from __future__ import annotations

from atout.cards import Card
from atout.knowledge import Knowledge, seat_knowledge
from atout.position import Position

from .params import code_of, engine_params

__all__ = ["equivalent_cards"]


def equivalent_cards(position: Position, knowledge: Knowledge | None = None) -> list[tuple[Card, ...]]:
    """The legal cards of the seat to play of ``position`` in groups of equivalent cards
    (see the module): each group in card order, the groups in the order of their first
    card; a card equivalent to no other is a group of its own.  ``knowledge``: the seat's
    :func:`~atout.knowledge.seat_knowledge` when already at hand.  Reads only what the
    seat to play sees (its hand, the cards played, its knowledge of the piles, the rules
    and the public contract)."""
    rules, seat = position.rules, position.to_play
    # the rules' and the contract's part of the search's parameters: which cards are
    # special and which points the value counts (no hand enters them)
    params = engine_params(position)
    special, points = params["special"], params["value_points"]
    called = position.contract.called
    if knowledge is None:
        knowledge = seat_knowledge(position, seat)
    held = position.held[seat]
    out = {c for trick in position.tricks for _, c in trick.cards}
    for place, cards in knowledge.known.items():
        if not isinstance(place, int):
            out.update(cards)
    out.update(c for c, places in knowledge.allowed.items()
               if not any(isinstance(p, int) for p in places))
    at = {code_of(rules, c): c for c in rules.deck}

    def plain(code: int) -> bool:
        return not (special[code >> 5] >> (code & 31)) & 1 and at[code] != called

    def same(a: int, b: int) -> bool:
        """Legal cards a < b (codes) of one suit: equivalent (see the module)."""
        pts = points[a >> 5][a & 31]
        if not (plain(a) and plain(b) and points[b >> 5][b & 31] == pts):
            return False
        for code in range(a + 1, b):
            c = at.get(code)
            if c is None or c in out:
                continue
            if c not in held or not plain(code) or points[code >> 5][code & 31] != pts:
                return False
        return True

    groups: list[list[int]] = []
    for code in sorted(code_of(rules, c) for c in position.legal_cards()):
        last = groups[-1][-1] if groups else None
        if last is not None and last >> 5 == code >> 5 and same(last, code):
            groups[-1].append(code)
        else:
            groups.append([code])
    return sorted((tuple(sorted(at[code] for code in g)) for g in groups), key=lambda g: g[0])
