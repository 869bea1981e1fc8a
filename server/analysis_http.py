"""``POST /api/analyze/stream``: a deal's analysis, told as it is found (the viewer's review).

One JSON object a line (``application/x-ndjson``) — ``{"type": "start", "session",
"resumed", "threads", "cached"}``, then ``{"type": "update", "plays": [the plays whose
verdict changed], "seats", "start_value", "start_bounds", "made", "threads"}``
(``threads``: the cores it searches on now, idle workers' lent) as the search finds them
(from the end of the deal back; applied in order, they end with exactly the report's
plays and totals), and last ``{"type": "report", "report": the /api/analyze answer,
"session"}`` — or ``{"type": "error", "error", "field", "reason"}`` when it failed after
it began.  A request naming the ``session`` of an earlier review of the same deal and
start goes on with that analysis, its table warm ("keep going"), where the search process
that keeps it is free; else it begins again.  A deal, start and time limit reviewed to the
end before are answered from :class:`Analyses` at once.  Refused before it begins: the
JSON errors of every other endpoint.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import json

from starlette.responses import StreamingResponse

from atout import options

from .clients import named_client, slot_of
from .http_io import NDJSON, check_keys, invalid, line, position_of, request_option
from .pool import WorkerDied
from .worker import SESSION, Failed

#: finished analyses the server keeps to answer the same deal again at once
ANALYSES_KEPT = 64
#: the sessions whose client the server remembers (an id and a client id each: small)
SESSIONS_KEPT = 4096
KEYS = ("position", "start", "time_limit", "slot", "session")


class Analyses:
    """What the server remembers of its analyses: the finished ones by (deal, start, time
    limit), the oldest forgotten past :data:`ANALYSES_KEPT`, and the client each session
    was given to (only it may go on with it)."""

    def __init__(self):
        self.finished: collections.OrderedDict[str, dict] = collections.OrderedDict()
        self.owner: collections.OrderedDict[str, str | None] = collections.OrderedDict()

    def kept(self, key: str) -> dict | None:
        found = self.finished.get(key)
        if found is not None:
            self.finished.move_to_end(key)
        return found

    def keep(self, key: str, report: dict, session: str) -> None:
        self.finished[key] = {"report": report, "session": session}
        while len(self.finished) > ANALYSES_KEPT:
            self.finished.popitem(last=False)

    def own(self, session: str, client: str | None) -> None:
        """``session`` was given to ``client`` (None: a client without the cookie, whoever
        knows the name may go on with it; the oldest forgotten past :data:`SESSIONS_KEPT`,
        a search process keeps far fewer)."""
        self.owner[session] = client
        self.owner.move_to_end(session)
        while len(self.owner) > SESSIONS_KEPT:
            self.owner.popitem(last=False)


async def analyze_stream(api, request):
    """The route (see the module's docstring); ``api``: the :class:`~.http.HttpApi`."""
    peer = contextlib.ExitStack()
    try:
        obj = await api.open_stream(request, peer)
        check_keys(obj, KEYS)
        raw, pos = position_of(obj)
        api.note_id(request, raw)
        time_limit = api.time_limit_of(obj)
        start = request_option(obj, "start", 0, options.start, len(pos.played))
        session = obj.get("session")
        if session is not None and (not isinstance(session, str) or
                                    not SESSION.fullmatch(session)):
            raise invalid("session", "is not the name of a review this server gave")
        client = named_client(request)
        owner = api.analyses.owner.get(session) if session is not None else None
        if owner is not None and owner != client:
            # another client's review: going on with it would change what that client
            # sees when it goes on itself
            raise invalid("session", "is not the name of a review this server gave "
                                     "this client")
        slot = slot_of(obj, request)
    except Exception as e:
        peer.close()
        return api.refuse(request, e)
    key = hashlib.sha256(json.dumps([raw, start, time_limit], sort_keys=True)
                         .encode()).hexdigest()
    kept = api.analyses.kept(key) if session is None else None
    if kept is not None:
        peer.close()
        api.stop_older(slot)      # a newer request in the slot, if answered at once
        # the report is the deal's, for anyone; its session only for the client that
        # made it (another would go on with that client's review)
        owner = api.analyses.owner.get(kept["session"])
        mine = {"session": kept["session"]} if owner is not None and owner == client else {}
        lines = [{"type": "start", **mine, "resumed": False, "cached": True},
                 {"type": "report", "report": {**kept["report"], "cached": True}, **mine}]
        return StreamingResponse((line(x) for x in lines), media_type=NDJSON,
                                 headers={"Cache-Control": "no-store"})
    return StreamingResponse(_stream(api, raw, start, time_limit, session, slot, key, peer,
                                     client),
                             media_type=NDJSON, headers={"Cache-Control": "no-store"})


async def _stream(api, raw: dict, start: int, time_limit: float, session: str | None,
                  slot: tuple[str, str] | None, key: str, peer: contextlib.ExitStack,
                  client: str | None):
    """The lines of one review; its search is stopped when the client goes away
    (Starlette then closes this generator) or a newer request takes its ``slot``."""
    search, messages = api.pool.analyze_stream(raw, {"start": start, "time_limit": time_limit,
                                                     "session": session,
                                                     "tt_mb": api.limits.tt_mb(api.tt_mb, raw)})
    try:
        async with api.held(search, slot):
            async for message in messages:
                if "session" in message:
                    api.analyses.own(message["session"], client)
                yield _line(message)
            yield _end(api.analyses, search, key, start, time_limit)
    finally:
        peer.close()


def _line(told: dict) -> str:
    """A worker's progress message as a line of the review's stream."""
    if "session" in told:
        return line({"type": "start", **told, "cached": False})
    return line({"type": "update", **told})


def _end(analyses: Analyses, search: asyncio.Future, key: str, start: int,
                time_limit: float) -> str:
    """The review's last line: its report (kept in ``analyses`` when it ran its whole
    time), or why it failed."""
    try:
        answer = search.result()
    except asyncio.CancelledError:
        return line({"type": "error", "error": "replaced", "field": "slot",
                     "reason": "a newer request took this slot"})
    except WorkerDied as e:
        return line({"type": "error", "error": "unavailable", "field": None,
                     "reason": str(e)})
    if isinstance(answer, Failed):
        return line({"type": "error", "error": answer.kind, "field": answer.field or None,
                     "reason": answer.reason})
    found = answer.result
    report = {**found["report"], "status": answer.status, "start": start}
    if answer.status == "limit":
        report["time_limit"] = time_limit
    if found["report"].get("stopped_by") != "cancel":
        analyses.keep(key, report, found["session"])
    return line({"type": "report", "report": report, "session": found["session"]})
