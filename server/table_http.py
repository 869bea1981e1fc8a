"""The contract table over HTTP, beside the other endpoints of :mod:`.http`::

    POST /api/contract-table         {"position": {...}, "time_limit": 60, "contracts": ["garde_sans"],
                                      "values": false, "slot": "tab1"}
                                     -> the object of `atout table` (docs/format.md)
    POST /api/contract-table/stream  the same, told as it is proven: one JSON object a line
                                     (application/x-ndjson) — first {"type": "start",
                                     "time_limit": the seconds it gets}, then {"type": "cells",
                                     "cells": [...]}, every cell in the table's order, then
                                     the cells that changed as they change, last {"type":
                                     "table", "table": the whole table}, or {"type": "error",
                                     "error", "field", "reason"} when it failed after it began
    POST /api/contract-table/stop    {"slot": "tab1"}: the table streamed in that slot (the
                                     same client's) stops where it is and its stream ends with
                                     the table as proven, as Ctrl-C ends `atout table` ->
                                     {"stopped": true}, or false when none runs there

(``/api/view`` is what the viewer draws of a position: its card table.)  The table gets ``time_limit``
seconds (default :data:`atout.options.TABLE_TIME_LIMIT`, 120; at most the server's
``--max-time-limit``) on one search process,
lent the idle ones' cores; the stream's first line is every cell in the table's order.
Refused before it begins, as every endpoint: 422 naming the field — a contract the game's
table has not (``contracts``), a deal no cell can be asked of (``contract.shown_dog``).
That check counts no écart (the search process does, within the time limit) and runs
off the event loop: no request holds up the others.  The viewer's panel reads the stream.
"""

from __future__ import annotations

from atout import options
from atout.contract_table import table_spec
from atout.dealt import dealt, is_deal, parse_deal
from atout.errors import PositionError
from atout.runner.process import JobKind

from .clients import slot_of
from .http_io import NDJSON, check_keys, invalid, line, position_of, request_option
from .worker import Failed, failed

KEYS = ("position", "time_limit", "contracts", "values", "slot")


async def contract_table_stop(api, request):
    """``POST /api/contract-table/stop``: the table in the client's ``slot`` stops and says
    what it proved (its stream's last line), instead of being dropped with its request."""
    async def work(request, obj):
        check_keys(obj, ("slot",))
        slot = slot_of(obj, request)
        if slot is None:
            raise invalid("slot", "is missing")
        stopper = api.table_stops.get(slot)
        if stopper is None:
            return {"stopped": False}
        stopper["asked"] = True
        if "stop" in stopper:
            stopper["stop"]()
        return {"stopped": True}
    return await api.answer_json(request, work)


async def _settings(api, obj: dict, request) -> tuple[dict, dict, tuple | None]:
    """(the position object, the search's settings, the client's slot) of a table request,
    every field checked (an HttpError naming the first that is wrong)."""
    import asyncio
    check_keys(obj, KEYS)
    raw = obj.get("position")
    if is_deal(raw):                    # a deal as dealt (the editor's, before the bidding)
        try:
            d = parse_deal(raw)
        except PositionError as e:
            raise invalid(e.field, e.reason) from None
    else:
        raw, pos = position_of(obj)
        d = dealt(pos)
    time_limit = min(request_option(obj, "time_limit", options.TABLE_TIME_LIMIT, options.time_limit),
                     api.max_time_limit)
    values = request_option(obj, "values", False, options.flag)
    contracts = obj.get("contracts")
    if contracts is not None and (not isinstance(contracts, list)
                                  or not all(isinstance(c, str) for c in contracts)):
        raise invalid("contracts", "must be a list of contract names")
    try:        # (tens of milliseconds for an Austrian table: not on the loop)
        await asyncio.get_running_loop().run_in_executor(
            None, lambda: table_spec(d, contracts, count_ecarts=False))
    except PositionError as e:
        raise invalid(e.field, e.reason) from None
    settings = {"time_limit": time_limit, "contracts": contracts, "values": values,
                "tt_mb": api.limits.tt_mb(api.tt_mb, raw)}
    return raw, settings, slot_of(obj, request)


async def contract_table(api, request):
    """``POST /api/contract-table``: the whole table once it is done."""
    async def work(request, obj):
        raw, settings, slot = await _settings(api, obj, request)
        return (await api.search_on_pool(request, slot, "table", raw, settings)).result
    return await api.answer_json(request, work)


async def contract_table_stream(api, request):
    """``POST /api/contract-table/stream``: the table told as it is proven."""
    import contextlib

    from starlette.responses import StreamingResponse

    peer = contextlib.ExitStack()
    try:
        obj = await api.open_stream(request, peer)
        raw, settings, slot = await _settings(api, obj, request)
        api.note_id(request, raw)
    except Exception as e:
        peer.close()
        return api.refuse(request, e)
    return StreamingResponse(_lines(api, raw, settings, slot, peer), media_type=NDJSON,
                             headers={"Cache-Control": "no-store"})


async def _lines(api, raw: dict, settings: dict, slot, peer):
    """The stream's lines; its search stops when the client goes away (Starlette then
    closes this generator) or a newer request takes its ``slot``."""
    import asyncio

    from .pool import WorkerDied
    stopper: dict = {}
    search, messages = api.pool.stream(JobKind.TABLE, raw, settings, stopper=stopper)
    if slot is not None:
        api.table_stops[slot] = stopper
    try:
        async with api.held(search, slot):
            yield line({"type": "start", "time_limit": settings["time_limit"]})
            async for message in messages:
                yield line({"type": "cells", "cells": message["cells"]})
            try:
                answer = search.result()
            except asyncio.CancelledError:
                answer = failed(None, "replaced", "slot", "a newer request took this slot")
            except WorkerDied as e:
                answer = failed(None, "unavailable", None, str(e))
            if isinstance(answer, Failed):
                yield line({"type": "error", "error": answer.kind,
                            "field": answer.field or None, "reason": answer.reason})
            else:
                yield line({"type": "table", "table": answer.result})
    finally:
        if slot is not None and api.table_stops.get(slot) is stopper:
            del api.table_stops[slot]
        peer.close()
