"""Writes the recorded draws that tests/test_calibration.py resamples (run by hand):

    python tests/make_advice_references.py [NAME ...]       # default: every reference

Each reference is one position, made from a deal of ``bench/data`` as ``bench/advise.py``
makes its positions (the bench's seed 2026: the same positions as its tables), and
``draws`` deals drawn uniformly from the view of the seat to play (seeded), each solved
double dummy for every card the advice values (one per group of cards worth the same:
``Race.cards``), with its width (``value_width``): what the advice's stopping code reads of
a draw.  Written to ``tests/data/advice/NAME.json.gz``; the same files every time.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
import time
from pathlib import Path

from atout.knowledge import seat_knowledge
from atout.position import parse_position
from atout.sampler import Sampler
from atout.solver.advise import solve_cards
from atout.solver.race import Race

HERE = Path(__file__).resolve().parent
OUT = HERE / "data" / "advice"
sys.path.insert(0, str(HERE.parent / "bench"))
from advise import SETS, load, random_prefix  # noqa: E402  (bench/advise.py's positions)

#: name: (game, tricks left, the bench's position index, draws, why it is there)
REFERENCES = {
    "fr5-6-13": ("fr5", 6, 13, 8000, "QS ahead of KS by 0.17, apart by 2 in 43 % of the deals"),
    "fr5-8-3": ("fr5", 8, 3, 2000, "8D ahead of NC by 1.6, spread 12: t stopped after 15 draws"),
    "fr5-8-6": ("fr5", 8, 6, 2000, "clear enough to decide in about 100 draws"),
    "fr4-8-0": ("fr4", 8, 0, 2000, "KD 1.6 behind, never ahead in 2,000 draws"),
    "fr4-5-1": ("fr4", 5, 1, 2000, "five tricks left: decided in about 70 draws"),
    "fr4-5-9": ("fr4", 5, 9, 2000, "close cards at five tricks"),
    "fr3-8-7": ("fr3", 8, 7, 2000, "4C better in 18 % of the deals, by up to 84: t stopped after 10"),
    "fr3-8-2": ("fr3", 8, 2, 2000, "a tie in every draw, and cards that part in 2 % of the deals"),
    "priest5-5-8": ("priest5", 5, 8, 2000, "Priestertarock, decided in about 140 draws"),
    "priest5-5-4": ("priest5", 5, 4, 2000, "Priestertarock, close cards"),
    "at4-6-1": ("at4", 6, 1, 2000, "Austrian Tarock (Solorufer), decided in about 80 draws"),
    "at4-6-6": ("at4", 6, 6, 2000, "Austrian Tarock, close cards"),
}
#: the bench's seed (bench/advise.py --seed), and the draws': this plus the position's index
BENCH_SEED = 2026
DRAW_SEED = 777_000


def position(game: str, tricks: int, index: int):
    """The bench's position ``index`` of ``game`` at ``tricks`` left (its seed 2026)."""
    deals = load(SETS[game])
    rng = random.Random(BENCH_SEED * 100 + tricks)
    for i in range(index + 1):
        pos = random_prefix(deals[i % len(deals)], tricks, rng)
    return pos


def record(name: str) -> dict:
    game, tricks, index, draws, why = REFERENCES[name]
    pos = position(game, tricks, index)
    race = Race(pos, draws, 0)
    sampler = Sampler(seat_knowledge(pos, pos.to_play))
    values, widths = [], []
    for obj in sampler.positions(random.Random(DRAW_SEED + index), draws):
        r = solve_cards(parse_position(obj), cards=race.cards, tt_mb=64)
        values.append([r.values[c] for c in race.cards])
        widths.append(r.width)
    return {"name": name, "why": why, "position": pos.to_json(), "seat": pos.to_play,
            "cards": race.cards, "sign": race.sign, "widths": widths, "values": values}


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names or list(REFERENCES):
        started = time.process_time()
        ref = record(name)
        data = json.dumps(ref, separators=(",", ":")).encode()
        (OUT / f"{name}.json.gz").write_bytes(gzip.compress(data, 9, mtime=0))
        print(f"{name}: {len(ref['values'])} draws, cards {ref['cards']}, "
              f"{time.process_time() - started:.0f} CPU s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
