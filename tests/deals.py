"""Random VALID positions for every game and contract, for tests and the solver
cross-check: the generator is :mod:`atout.deal` (``atout deal``); the policies for rare
situations are here.

    random_position(rng, game, bid=None, **options) -> position dict, "played": []
    random_endgame(rng, game, tricks_left, bid=None, partial=False, policy=None,
                   accept=None, **options) -> position dict with "played" filled in

``rng`` is a :class:`random.Random`.  Every position returned parses with
:func:`atout.position.parse_position` (this module checks that itself).

Options of ``random_position`` (all optional):

* every game: ``first`` (the leading seat, where the rules leave it free);
* fr3/fr4/fr5: ``taker``; ``chelem`` (True/False, default: rarely True);
  ``poignee_seat`` (that seat is dealt enough trumps for a poignée, which it declares);
  ``poignees=False`` (declare none);
  fr5 ``called_where`` = ``"partner"`` | ``"taker"`` | ``"dog"`` (where the called card lies);
* priest5: ``caller``, ``dealer``, ``alone`` (True/False);
* at4: ``declarer``, ``for_seat``, ``counting``, ``objective``, ``von_oben``,
  ``called_where`` = ``"partner"`` | ``"side"`` (Rufer games).

``random_endgame`` plays legal cards chosen by ``policy(rng, pos, legal) -> card``
(default: uniform) and retries (new deal) until ``accept(pos)`` is true.  Policies
for rare situations: :func:`keep_policy` (hold some cards to the end, e.g. the Excuse
or T1), :func:`slam_policy` (one camp tries to win every trick), and
:func:`mixed_policy`.
"""

from __future__ import annotations

from atout.cards import card
from atout.deal import (BOUTS, GAMES, KINGS, Policy, play_out, random_endgame,
                        random_finished, random_position, uniform_policy)

__all__ = ["BOUTS", "GAMES", "KINGS", "Policy", "play_out", "random_endgame", "random_finished",
           "random_position", "uniform_policy", "keep_policy", "slam_policy", "mixed_policy"]
from atout.position import Position


def keep_policy(keep) -> Policy:
    """Play the cards in ``keep`` (tokens) only when nothing else is legal."""
    kept = {card(t) for t in keep}

    def policy(rng, pos, legal):
        others = [c for c in legal if c not in kept]
        return rng.choice(others or legal)
    return policy


def _strength(pos: Position, c: int) -> int:
    r = pos.rules
    return (100 if r.is_tarock(c) and r.trumps_win else 0) + r.power[c]


def slam_policy(camp: int = 0, greed: float = 1.0) -> Policy:
    """Seats of ``camp`` play their strongest legal card, the others their weakest
    (with probability ``greed``; else a random card): one camp tends to win every trick."""
    def policy(rng, pos, legal):
        if rng.random() >= greed:
            return rng.choice(legal)
        ranked = sorted(legal, key=lambda c: _strength(pos, c))
        return ranked[-1] if pos.contract.camp[pos.to_play] == camp else ranked[0]
    return policy


def mixed_policy(*policies: Policy) -> Policy:
    """Each card from a randomly chosen one of ``policies``."""
    def policy(rng, pos, legal):
        return rng.choice(policies)(rng, pos, legal)
    return policy
