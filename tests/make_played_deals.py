"""Writes the played deals the viewer ships as examples and its tests load (run by hand):

    python tests/make_played_deals.py /path/to/shared/bench

Each deal is a bench position played to the end from where it stands: a best card
(the solver's) three times in five, else another legal card, so that the analysis
has mistakes to show.  Seeded: the same files every time.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from atout.cards import token
from atout.position import parse_position
from atout.solver import solve

HERE = Path(__file__).resolve().parent
SOURCES = [("fr4-end8", 0, "fr4"), ("fr3-end10", 0, "fr3"), ("fr5-end8", 0, "fr5"),
           ("priest5-end8", 0, "priest5"), ("at4-farbendreier-full", 0, "at4"),
           ("at4-bettler-full", 1, "at4-small")]


def play_out(obj: dict, rng: random.Random) -> dict:
    pos = parse_position(obj)
    while not pos.is_finished():
        r = solve(pos, all_cards=True)
        legal = [token(c) for c in pos.legal_cards()]
        others = [c for c in legal if c not in r.best]
        pick = rng.choice(r.best) if not others or rng.random() < 0.6 else rng.choice(others)
        pos.play(next(c for c in pos.legal_cards() if token(c) == pick))
    out = pos.to_json()
    return out


def main(bench: Path) -> None:
    rng = random.Random(10)
    deals = {}
    for name, line, label in SOURCES:
        obj = json.loads((bench / f"{name}.jsonl").read_text().splitlines()[line])
        obj["id"] = f"{obj['id']}-played"
        deals[label] = play_out(obj, rng)
        print(label, len(deals[label]["played"]), file=sys.stderr)
    examples = [deals[k] for k in ("fr4", "fr3", "fr5", "priest5", "at4")]
    (HERE.parent / "server" / "static" / "examples.jsonl").write_text(
        "".join(json.dumps(d) + "\n" for d in examples))
    (HERE / "data" / "played.jsonl").write_text(
        "".join(json.dumps(d) + "\n" for d in deals.values()))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
