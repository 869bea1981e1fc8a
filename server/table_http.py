"""The contract table over HTTP, beside the other endpoints of :mod:`.http`::

    POST /api/contract-table         {"position": {...}, "time_limit": 60, "contracts": ["garde_sans"],
                                      "values": false, "slot": "tab1"}
                                     -> the object of `atout table` (docs/format.md)
    POST /api/contract-table/stream  the same, told as it is proven: one JSON object a line
                                     (application/x-ndjson) — {"type": "cells", "cells": [the
                                     cells that changed]} as they change, last {"type": "table",
                                     "table": the whole table}, or {"type": "error", "error",
                                     "field", "reason"} when it failed after it began

(``/api/table`` is what the viewer draws of a position.)  The table gets ``time_limit``
seconds (default 120, at most the server's ``--max-time-limit``) on one search process,
lent the idle ones' cores.  Refused before it begins, as every endpoint: 422 naming the
field — a contract the game's table has not (``contracts``), a deal no cell can be asked
of (``contract.shown_dog``).  The viewer's panel reads the stream.
"""

from __future__ import annotations

import json

from atout import options
from atout.contract_table import table_spec
from atout.dealt import dealt
from atout.errors import PositionError

from .worker import Failed, failed

#: seconds a table gets unless the request says (cut to the server's --max-time-limit)
DEFAULT_TIME_LIMIT = 120.0
KEYS = ("position", "time_limit", "contracts", "values", "slot")


def _settings(api, obj: dict, request) -> tuple[dict, dict, tuple | None]:
    """(the position object, the search's settings, the client's slot) of a table request,
    every field checked (an HttpError naming the first that is wrong)."""
    from .http import _check_keys, _invalid, _option, _position, _slot
    _check_keys(obj, KEYS)
    raw, pos = _position(obj)
    time_limit = min(_option(obj, "time_limit", DEFAULT_TIME_LIMIT, options.time_limit),
                     api.max_time_limit)
    values = _option(obj, "values", False, options.flag)
    contracts = obj.get("contracts")
    if contracts is not None and (not isinstance(contracts, list)
                                  or not all(isinstance(c, str) for c in contracts)):
        raise _invalid("contracts", "must be a list of contract names")
    try:
        table_spec(dealt(pos), contracts)
    except PositionError as e:
        raise _invalid(e.field, e.reason) from None
    settings = {"time_limit": time_limit, "contracts": contracts, "values": values,
                "tt_mb": api.limits.tt_mb(api.tt_mb, raw)}
    return raw, settings, _slot(obj, request)


async def contract_table(api, request):
    """``POST /api/contract-table``: the whole table once it is done."""
    async def work(request, obj):
        raw, settings, slot = _settings(api, obj, request)
        return (await api._search(request, slot, "table", raw, settings)).result
    return await api._answer(request, work)


async def contract_table_stream(api, request):
    """``POST /api/contract-table/stream``: the table told as it is proven."""
    import contextlib

    from starlette.responses import StreamingResponse

    from .http import LOG_NOTE, NDJSON, HttpError, _read_json, _unauthenticated
    from .logs import label
    peer = contextlib.ExitStack()
    try:
        if api.draining:
            raise HttpError(503, "unavailable", None, "the server is shutting down")
        if not api._token_ok(request):
            raise _unauthenticated()
        # the peer's call counts until the stream ends (the ExitStack is closed there)
        peer.enter_context(api.peers.call(request.client.host if request.client else "-"))
        obj = await _read_json(request, api.limits.body_timeout)
        raw, settings, slot = _settings(api, obj, request)
        if isinstance(raw, dict) and "id" in raw:
            request.scope[LOG_NOTE]["id"] = label(raw["id"])
    except Exception as e:
        peer.close()
        return api._refused(request, e)
    return StreamingResponse(_lines(api, raw, settings, slot, peer), media_type=NDJSON,
                             headers={"Cache-Control": "no-store"})


async def _lines(api, raw: dict, settings: dict, slot, peer):
    """The stream's lines; its search stops when the client goes away (Starlette then
    closes this generator) or a newer request takes its ``slot``."""
    import asyncio

    from .pool import WorkerDied
    search, messages = api.pool.stream("table", raw, settings)
    try:
        async with api._held(search, slot):
            async for message in messages:
                yield json.dumps({"type": "cells", "cells": message["cells"]}) + "\n"
            try:
                answer = search.result()
            except asyncio.CancelledError:
                answer = failed(None, "replaced", "slot", "a newer request took this slot")
            except WorkerDied as e:
                answer = failed(None, "unavailable", None, str(e))
            if isinstance(answer, Failed):
                yield json.dumps({"type": "error", "error": answer.kind,
                                  "field": answer.field or None, "reason": answer.reason}) + "\n"
            else:
                yield json.dumps({"type": "table", "table": answer.result}) + "\n"
    finally:
        peer.close()
