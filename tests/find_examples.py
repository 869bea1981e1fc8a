"""Find real finished deals for the worked scoring examples (docs/rules.md, seeds/000 §14).

    python tests/find_examples.py > tests/data/examples.jsonl

Random deals are played out (one camp greedier than the other, in varying amounts)
until one matches each example's conditions; the matches are stored, so the test
(tests/test_examples.py) needs no search.  The conditions are in EXAMPLES below.
"""

from __future__ import annotations

import json
import random
import sys

from atout.position import parse_position
from deals import mixed_policy, play_out, random_position, slam_policy, uniform_policy

# id -> (game, random_position options, conditions on the outcome and the deal)
EXAMPLES = {
    # Spiel 1: garde, 46 points, 2 bouts -> (25 + 5) x 2 = 60
    "seed000-1": ("fr4", {}, dict(taker_points=46, bouts=2, petit_au_bout=None, poignee=0)),
    # Spiel 2: garde, 39 points, 3 bouts, the taker wins the last trick with the petit -> 76
    "seed000-2": ("fr4", {}, dict(taker_points=39, bouts=3, petit_au_bout="taker", poignee=0)),
    # Spiel 3: garde, 40 points, 2 bouts, the defence wins the petit in the last trick -> -72
    "seed000-3": ("fr4", {}, dict(taker_points=40, bouts=2, petit_au_bout="defence", poignee=0)),
    # Spiel 4: garde "with 3 bouts", 41 points, the petit is lost in the last trick -> 30
    "seed000-4": ("fr4", {}, dict(taker_points=41, bouts=2, petit_au_bout="defence", poignee=0,
                                  taker_held_petit=True)),
    # Spiel 5: garde, 40 points, 3 bouts, a defender declared a poignée of 10 -> 78
    "seed000-5": ("fr4", {"poignee_seat": "defender"},
                  dict(taker_points=40, bouts=3, petit_au_bout=None, poignee=20)),
    # five players: garde, 43 points, 2 bouts, a defender's poignée -> 74 (148 / 74 / -74)
    "seed000-fr5": ("fr5", {"poignee_seat": "defender", "called_where": "partner"},
                    dict(taker_points=43, bouts=2, petit_au_bout=None, poignee=20)),
}


def matches(pos, out, cond) -> bool:
    from atout.cards import PETIT
    for key, want in cond.items():
        if key == "taker_held_petit":
            if (PETIT in pos.hands[pos.contract.declarer]) != want:
                return False
        elif out[key] != want:
            return False
    return out["chelem"] is None and not pos.contract.chelem


def find(rng, game, options, cond):
    size = {"fr4": 18, "fr5": 15}[game]
    while True:
        opts = dict(options)
        taker = rng.randrange(5 if game == "fr5" else 4)
        if opts.get("poignee_seat") == "defender":
            opts["poignee_seat"] = (taker + 1 + rng.randrange(2)) % (5 if game == "fr5" else 4)
        obj = random_position(rng, game, "garde", taker=taker, chelem=False, poignees=False, **opts)
        if "poignee_seat" in opts:
            # declare exactly a simple poignée for that seat
            obj["contract"]["poignees"] = [{"seat": opts["poignee_seat"], "level": "simple"}]
        pos = parse_position(obj)
        greed = rng.random()
        policy = mixed_policy(uniform_policy, slam_policy(0, greed), slam_policy(1, rng.random()))
        play_out(rng, pos, size * pos.seats, policy)
        out = pos.outcome()
        if matches(pos, out, cond):
            obj["played"] = [t for t in pos.to_json()["played"]]
            return obj


def main():
    rng = random.Random(2024)
    for ident, (game, options, cond) in EXAMPLES.items():
        obj = find(rng, game, options, cond)
        obj = {"id": ident, **obj}
        print(json.dumps(obj))
        print(ident, "found", file=sys.stderr)


if __name__ == "__main__":
    main()
