"""A batch's progress on a terminal: a bar, or nothing where standard error is not one."""

from __future__ import annotations

__all__ = ["is_terminal", "Progress"]


def is_terminal(stream) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """A tqdm bar (count, rate, time left, results not ok) when the stream is a terminal;
    nothing otherwise (a log gets the first and the last line only)."""

    def __init__(self, stream, total: int, skipped: int, every: float = 0.2,
                 unit: str = "puzzle"):
        self.bar = None
        self.bad = 0
        if is_terminal(stream):
            from tqdm import tqdm
            self.bar = tqdm(total=total, initial=skipped, file=stream, desc="batch",
                            unit=unit, mininterval=every, dynamic_ncols=True, leave=True)

    def step(self, status: str) -> None:
        if self.bar is None:
            return
        if status != "ok":
            self.bad += 1
            self.bar.set_postfix_str(f"{self.bad} not ok", refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
