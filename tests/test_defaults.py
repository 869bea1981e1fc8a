"""What a search gets when it is not told is atout/options.py's, read by every front end
(issue 67): the command line, the HTTP API and the services set no default of their own."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from atout import options
from atout.client.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent


def _default(command: str, option: str, *args: str):
    return getattr(build_parser().parse_args([command, *args]), option)


def test_the_command_line_reads_the_defaults():
    assert _default("analyze", "time_limit") == options.ANALYSIS_TIME_LIMIT
    assert _default("table", "time_limit") == options.TABLE_TIME_LIMIT
    assert _default("show", "time_limit") == options.SEARCH_TIME_LIMIT
    assert _default("serve", "max_time_limit") == options.MAX_TIME_LIMIT
    assert _default("solve", "time_limit") is None          # a solve runs until proven


def test_the_services_read_the_defaults():
    from atout.server.http import HttpApi
    from atout.server.limits import Limits
    from atout.solver.advise import DEFAULT_SAMPLES
    from atout.solver.race import DEFAULT_CONFIDENCE

    api = HttpApi(SimpleNamespace(ready=1))
    assert api.time_limit_of({}) == options.SEARCH_TIME_LIMIT
    assert api.time_limit_of({"time_limit": 10 ** 6}) == options.MAX_TIME_LIMIT
    assert Limits().max_time_limit == options.MAX_TIME_LIMIT
    assert (DEFAULT_SAMPLES, DEFAULT_CONFIDENCE) == (options.ADVICE_SAMPLES,
                                                     options.ADVICE_CONFIDENCE)


#: a time limit's default written out as a number: ``TIME_LIMIT = 120.0``, a request's
#: ``request_option(obj, "time_limit", 10.0, ...)``, ``default=10.0`` beside --time-limit
_WRITTEN = re.compile(r"TIME_LIMIT\s*=\s*\d|[\"']time_limit[\"'],\s*\d"
                      r"|--time-limit[^\n]*\n?[^\n]*default=\d")


def test_no_front_end_writes_a_default_of_its_own():
    found = []
    for folder in ("client", "server", "runner", "proto"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(ROOT)}: {m.group(0)!r}" for m in _WRITTEN.finditer(text)]
    assert not found, found
