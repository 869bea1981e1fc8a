"""The verdicts of an analysis drawn on a terminal as they are found (``atout analyze``).

While a deal is analysed, standard error shows one row per trick and one cell per card —
the card and its verdict so far — redrawn in place each time a search changes a verdict:

    analysing deal 7 — 12 s of 60: 58 of 72 cards judged
     trick  1   T21 …    KS ≥34   3S ·     NS ·
     trick  2   ...

``·`` one of the best cards, a number its exact cost, ``≥N`` a proven mistake of at least
N, ``?`` not judged yet, ``!`` marks a decisive card.  The block is erased when the
analysis ends and the full table is printed on standard output.  Only on a terminal, and
only where the block fits its height (else the last tricks that fit).
"""

from __future__ import annotations

import shutil
import threading
import time
from typing import TextIO

#: the least time between two redraws (a burst of verdicts draws once)
REDRAW_EVERY = 0.1


class LiveVerdicts:
    """A block of rows on ``stream`` (a terminal) showing each card's verdict as found."""

    def __init__(self, stream: TextIO, label: str, plays: list[tuple[int, str]], seats: int,
                 time_limit: float | None, ascii: bool = False):
        self.stream, self.label, self.seats = stream, label, seats
        self.time_limit, self.ascii = time_limit, ascii
        self.cards = dict(plays)                     # index -> the card's name
        self.verdicts: dict[int, str] = {}
        self.started = time.monotonic()
        self.drawn = 0                               # lines on screen now
        self.last = 0.0
        self.lock = threading.Lock()

    def update(self, plays: list[dict]) -> None:
        """New verdicts (the plays ``analyze``'s ``on_update`` gives); any thread."""
        from atout.verdict import Verdict
        with self.lock:
            for p in plays:
                verdict = Verdict.of_play(p)        # the analysis' verdict, read
                self.verdicts[p["index"]] = (verdict.mark(self.ascii)
                                             + ("!" if verdict.decisive else ""))
            if time.monotonic() - self.last >= REDRAW_EVERY:
                self._draw()

    def refresh(self) -> None:
        """Redraw (the elapsed time goes on during a long search)."""
        with self.lock:
            self._draw()

    def close(self) -> None:
        """Erase the block."""
        with self.lock:
            self._erase()
            self.stream.flush()

    def _lines(self) -> list[str]:
        judged = sum(v != "?" for v in self.verdicts.values())
        elapsed = time.monotonic() - self.started
        limit = f" of {self.time_limit:g}" if self.time_limit else ""
        dash = "-" if self.ascii else "—"
        head = (f"analysing {self.label} {dash} {elapsed:.0f} s{limit}: {judged} of "
                f"{len(self.cards)} cards judged")
        rows = []
        for index in sorted(self.cards):
            trick = index // self.seats
            if not rows or rows[-1][0] != trick:
                rows.append((trick, []))
            verdict = self.verdicts.get(index, "..." if self.ascii else "…")
            rows[-1][1].append(f"{self.cards[index]:>4} {verdict:<6}")
        width, height = shutil.get_terminal_size((100, 40))
        body = [f" trick {trick + 1:>2}  " + " ".join(cells) for trick, cells in rows]
        body = body[-max(height - 3, 1):]            # what fits: the last tricks
        return [line[:width - 1] for line in [head, *body]]

    def _draw(self) -> None:
        self.last = time.monotonic()
        lines = self._lines()
        self._erase()
        self.stream.write("\n".join(lines) + "\n")
        self.stream.flush()
        self.drawn = len(lines)

    def _erase(self) -> None:
        if self.drawn:
            # up to the block's first line, and clear from there to the end of the screen
            self.stream.write(f"\x1b[{self.drawn}F\x1b[J")
            self.drawn = 0
