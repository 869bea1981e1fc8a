"""What a search may be asked, and what it gets when it is not told: checked, and set, once
for every interface.

The command line (``--time-limit`` …), the HTTP API (``"time_limit"`` …), the gRPC
service and the Python client take the same options; each is checked here, so that the
same value gets the same verdict and reason everywhere (the field is named as each
interface names it).  Every check returns the value to use or raises
:class:`~atout.errors.PositionError` ``(field, reason)``; values at their extremes (a
node limit past 64 bits, a table larger than this machine's memory, an infinite time)
are refused here rather than deep inside the search.  The defaults are here too (the
``*_TIME_LIMIT`` and ``ADVICE_*`` values below): every front end reads them, none sets its
own.
"""

from __future__ import annotations

import math
import os
from typing import Any

from .errors import PositionError

#: the search counts nodes in 64 bits (and gRPC carries a uint64)
MAX_NODE_LIMIT = (1 << 63) - 1
#: the engine takes the table's size in MB as a C int
ENGINE_MAX_TT_MB = (1 << 31) - 1
#: search processes of `atout batch`, `serve` and `view`: far more than any machine has cores
MAX_WORKERS = 256
#: deals drawn for one advice (`atout advise`): more would not change the answer, only the wait
MAX_SAMPLES = 100_000
#: a seed of the draws: what gRPC carries (uint64)
MAX_SEED = (1 << 64) - 1

# -- the defaults: what a search gets when it is not told ---------------------------------
# (a solve on the command line or in Python has no time limit unless asked: it runs until
# its value is proven; the services bound every search)

#: seconds for the analysis of one played deal: `atout analyze`, `atout batch --analyze`
ANALYSIS_TIME_LIMIT = 60.0
#: seconds for one deal's contract table: `atout table`, `atout batch --table`, the HTTP
#: API's /api/contract-table (gRPC: its deadline, within the server's most)
TABLE_TIME_LIMIT = 120.0
#: seconds for one search of the HTTP API (solve, analyze, advise) asked with no time limit,
#: and for each value `atout show --svg --values` draws
SEARCH_TIME_LIMIT = 10.0
#: the longest search the services run when their operator sets no other bound (`atout
#: serve --max-time-limit`): a longer time limit asked is lowered to it
MAX_TIME_LIMIT = 120.0
#: deals drawn for one advice (`atout advise --samples`, the HTTP API, gRPC)
ADVICE_SAMPLES = 100
#: how sure an advice must be of its card to stop drawing before its samples are drawn
ADVICE_CONFIDENCE = 0.95


def machine_memory_mb() -> int:
    """This machine's memory in MB (the engine's own bound where the system does not say)."""
    try:
        mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (ValueError, OSError, AttributeError):
        return ENGINE_MAX_TT_MB
    return max(1, min(mb, ENGINE_MAX_TT_MB))


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


def _whole(value: Any) -> bool:
    return _is_number(value) and (isinstance(value, int) or (math.isfinite(value)
                                                              and value.is_integer()))


def _whole_in(value: Any, lo: int, hi: int, field: str, reason: str) -> int:
    """``value`` as an int when it is a whole number from ``lo`` to ``hi``, else the error."""
    if not _whole(value) or not lo <= value <= hi:
        raise PositionError(field, reason)
    return int(value)


def time_limit(value: Any, field: str = "time_limit") -> float:
    """Seconds for one search: a finite number greater than 0."""
    if not _is_number(value) or not math.isfinite(value) or not value > 0:
        raise PositionError(field, "must be a number of seconds, greater than 0 and finite")
    return float(value)


def node_limit(value: Any, field: str = "node_limit") -> int:
    """Nodes for one search: a whole number from 1 to MAX_NODE_LIMIT."""
    return _whole_in(value, 1, MAX_NODE_LIMIT, field,
                     f"must be a whole number from 1 to {MAX_NODE_LIMIT}")


def tt_mb(value: Any, field: str = "tt_mb") -> int:
    """A transposition table's size in MB: from 1 to this machine's memory."""
    most = machine_memory_mb()
    return _whole_in(value, 1, most, field,
                     f"must be a whole number of MB from 1 to {most} (this machine's memory)")


def start(value: Any, played: int, field: str = "start") -> int:
    """Where an analysis starts: a card of the deal, from 0 to the cards played."""
    return _whole_in(value, 0, played, field,
                     f"must be a whole number from 0 to {played} (the cards played)")


def flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(field, "must be true or false")
    return value


def samples(value: Any, field: str = "samples") -> int:
    """Deals drawn for one advice: a whole number from 1 to MAX_SAMPLES."""
    return _whole_in(value, 1, MAX_SAMPLES, field,
                     f"must be a whole number from 1 to {MAX_SAMPLES}")


def seed(value: Any, field: str = "seed") -> int:
    """The seed of an advice's draws: a whole number from 0 to MAX_SEED."""
    return _whole_in(value, 0, MAX_SEED, field,
                     f"must be a whole number from 0 to {MAX_SEED} (2**64 - 1)")


def workers(value: Any, field: str = "workers") -> int:
    """Searches side by side: a whole number from 1 to MAX_WORKERS."""
    return _whole_in(value, 1, MAX_WORKERS, field,
                     f"must be a whole number from 1 to {MAX_WORKERS}")


def seat(value: Any, seats: int, field: str = "seat") -> int:
    """A seat of the position: a whole number from 0 to its seats less one."""
    return _whole_in(value, 0, seats - 1, field,
                     f"must be a seat number from 0 to {seats - 1}")


def confidence(value: Any, field: str = "confidence") -> float:
    """How sure an advice must be of its card to stop drawing: a number from 0.5 to 1
    (1: never before the samples are all drawn)."""
    if not _is_number(value) or not math.isfinite(value) or not 0.5 <= value <= 1:
        raise PositionError(field, "must be a number from 0.5 to 1 (1: draw every sample)")
    return float(value)
