"""The HTTP JSON API and the hand viewer, next to the gRPC service, on the same search pool.

Starlette (routing, requests, responses) served by uvicorn inside the server's own
event loop (``grpc.aio`` runs there too), so both front ends share one
:class:`~atout.server.pool.SearchPool`::

    POST /api/solve     {"position": {...}, "all": true, "time_limit": 5, "slot": "tab1"}
                        -> docs/format.md result + status ("ok" | "limit"), bounds, stopped_by
    POST /api/analyze   {"position": {...}, "start": 40, "time_limit": 20}
                        -> the `atout analyze --json` object + status ("limit": some values
                        only bounded, and a `message`)
    POST /api/advise    {"position": {...}, "seat": 2, "samples": 100, "seed": 7, "time_limit": 10,
                         "confidence": 0.95}
                        -> the `atout advise` line (docs/single-dummy.md), its draws on the pool
    POST /api/validate  {"position": {...}}             -> {"ok": true, "id", "game", "played",
                        "finished"}, or {"ok": false, "field", "reason"} for a refused position
    POST /api/table     {"position": {...}, "seat": 2}  -> what the viewer draws (view.table);
                        with "seat", as that seat sees the table
    POST /api/picture   {"position": {...}, "seat": 2, "values": {...}, "real_played": [...]}
                        -> {"svg", "name"}: the table as an SVG picture (atout/present/picture.py);
                        real_played (the deal's cards as really played) marks a what-if
    POST /api/contract-table[/stream]   the deal's contract table (server/table_http.py)
    GET  /api/deals     the deals `atout view FILE` was given and its refused lines
    GET  /api/health    {"status": "serving"} (503 while draining or while no search
                        process runs); open without a token
    GET  /              the viewer; GET /static/<name>: its files (package data only)

Every search has a time limit (``time_limit``, default 10 s, at most ``max_time_limit``).
It is stopped when the client goes away (the connection closes) or when a newer request
of the same client with the same ``slot`` arrives (the older one is answered 409): the
pool tells the worker to stop, as for a cancelled gRPC call.  Slots and review sessions
belong to the client that made them, named by the server in a cookie (:func:`client_of`).  Bad input is 400 (not JSON, not an object) or
422 (``{"error": "invalid", "field", "reason"}``, the field named as gRPC names it),
a body over :data:`MAX_BODY_BYTES` is 413, one not sent as application/json 415, one
that does not arrive within the operator's ``--body-timeout`` 408; an unknown /api path
is 404 and a wrong method 405, in the same JSON; a search lost with its search process
(twice) is 503 with ``Retry-After``; nothing ever answers a traceback.  With a token
(``atout serve --token-file``) every API request but ``/api/health`` needs
``Authorization: Bearer <token>`` (401 otherwise); the operator's limits (:mod:`.limits`)
apply as over gRPC, a request past a limit on room answered 429 at once.  Every request
is one log line (:class:`_Logged`).  The connections themselves are bounded by
:mod:`.http_server`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import json
import logging
import mimetypes
import re
import secrets
import time
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from atout import options

from atout.present import picture
from atout.errors import PositionError
from atout.jsonl import decode_json
from atout.position import parse_position
from atout.printable import shown
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from atout.solver.advise import DEFAULT_CONFIDENCE, DEFAULT_SAMPLES, check as check_advice

from .advice import AdviceFailed, advise_on_pool
from .limits import Busy, Limits, PeerCalls
from .logs import label, outcome
from .pool import SearchPool, WorkerDied
from .security import bearer_ok
from .table_http import contract_table, contract_table_stream
from atout.present.view import table
from .worker import SESSION, Done, Failed, done, failed

log = logging.getLogger("atout.server")

#: a position is a few kB; anything near this is not one
MAX_BODY_BYTES = 256 << 10
#: a body over MAX_BODY_BYTES is still read (and dropped) up to this, so that its client
#: reads the 413 instead of a connection reset; past it the connection is closed
DISCARD_BYTES = 4 << 20
DEFAULT_TIME_LIMIT = 10.0
MAX_SLOT_LENGTH = 100
STATIC_PACKAGE = "atout.server"
STATIC_FOLDER = "static"


class Json(JSONResponse):
    """A JSON answer in plain ASCII (every other character escaped): whatever text a request
    carried — a lone surrogate included — can be sent back in it."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False,
                          separators=(",", ":")).encode("ascii")


class HttpError(Exception):
    """An answer other than 200: ``status`` and the JSON ``body``."""

    def __init__(self, status: int, error: str, field: str | None = None, reason: str = ""):
        super().__init__(reason)
        self.status = status
        self.body = {"error": error}
        if field is not None:
            self.body["field"] = field
        self.body["reason"] = reason
        self.headers: dict[str, str] = {}

    def closing(self) -> "HttpError":
        """This answer closes the connection (the rest of the request was not read)."""
        self.headers["Connection"] = "close"
        return self


def _invalid(field: str, reason: str) -> HttpError:
    return HttpError(422, "invalid", field, reason)


def _gone() -> HttpError:
    """The client closed its connection: logged as 499 (nginx's "client closed request")."""
    return HttpError(499, "gone", None, "the client went away")


def _unauthenticated() -> HttpError:
    return HttpError(401, "unauthenticated", "Authorization",
                     "a bearer token is required (Authorization: Bearer <token>)")


_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="atout"'}


# -- the package's own files ----------------------------------------------------------------

def _static_files() -> dict[str, tuple[bytes, str]]:
    """Every file shipped in ``static/``, read once: the only files the server ever sends."""
    files = {}
    folder = resources.files(STATIC_PACKAGE) / STATIC_FOLDER
    for entry in folder.iterdir():
        if entry.is_file() and not entry.name.startswith("."):
            kind = mimetypes.guess_type(entry.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind in ("application/javascript",
                                                    "application/json"):
                kind += "; charset=utf-8"
            files[entry.name] = (entry.read_bytes(), kind)
    return files


#: no script, style or font from anywhere but this server
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; connect-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


# -- reading requests -------------------------------------------------------------------------

async def _read_json(request: Request, seconds: float) -> dict:
    """The request's JSON object, its body read within ``seconds`` (408 past them)."""
    # JSON only: another site's page cannot send that without a CORS preflight, which is
    # never granted, so it cannot make this computer search
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HttpError(415, "unsupported_media_type", "Content-Type",
                        "must be application/json")
    too_large = HttpError(413, "too_large", "body",
                          f"a request body may hold at most {MAX_BODY_BYTES} bytes")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > DISCARD_BYTES):
        raise too_large.closing()
    body = bytearray()
    dropped = 0

    async def read() -> None:
        nonlocal dropped
        async for chunk in request.stream():
            if dropped or len(body) + len(chunk) > MAX_BODY_BYTES:
                dropped += len(chunk)
                if dropped > DISCARD_BYTES:
                    return
            else:
                body.extend(chunk)
    try:
        await asyncio.wait_for(read(), seconds)
    except ClientDisconnect:    # closed before the whole body: as a client gone mid-search
        raise _gone() from None
    except asyncio.TimeoutError:
        raise HttpError(408, "timeout", "body", f"the body did not arrive within {seconds:g} s "
                                                 f"(--body-timeout)").closing() from None
    if dropped:
        raise too_large if dropped <= DISCARD_BYTES else too_large.closing()
    try:
        obj = decode_json(body)
    except PositionError as e:  # the command line's decoder: the same reasons
        raise HttpError(400, "bad_json", "body", e.reason) from None
    if not isinstance(obj, dict):
        raise HttpError(400, "bad_request", "body", "must be a JSON object")
    return obj


def _check_keys(obj: dict, allowed: tuple[str, ...]) -> None:
    for key in obj:
        if key not in allowed:
            raise _invalid(shown(key), f"unknown field (expected: {', '.join(allowed)})")


def _position(obj: dict):
    """The request's ``position``, validated by the rules: (object, Position)."""
    if "position" not in obj:
        raise _invalid("position", "is missing")
    raw = obj["position"]
    try:
        return raw, parse_position(raw)
    except PositionError as e:
        raise _invalid(e.field, e.reason) from None
    except RecursionError:
        raise _invalid("contract", "nested too deeply") from None


def _option(obj: dict, key: str, default, check, *args):
    """A request option through its atout.options check; absent or null: the default
    (null means "not given" for every field, as in a position)."""
    if obj.get(key) is None:
        return default
    try:
        return check(obj[key], *args, key)
    except PositionError as e:
        raise _invalid(e.field, e.reason) from None


def _slot(obj: dict, request: Request) -> tuple[str, str] | None:
    """The request's ``slot``, as the client's own: (its client id, the name) — another
    client naming the same slot has another one (see :func:`client_of`)."""
    v = obj.get("slot")
    if v is None:
        return None
    if not isinstance(v, str) or not 0 < len(v) <= MAX_SLOT_LENGTH:
        raise _invalid("slot", f"must be a string of 1 to {MAX_SLOT_LENGTH} characters")
    return client_of(request), v


# -- who a request comes from ------------------------------------------------------------------

#: the cookie that names a client: the server's own random id, handed out with the first
#: answer to a request without one (HttpOnly: the page's scripts never read it)
CLIENT_COOKIE = "atout_client"
_CLIENT_ID = re.compile(r"[0-9a-f]{32}")
#: where a request's client id lies in its ASGI scope (set by :class:`_Logged`)
CLIENT = "atout.client"


def client_of(request: Request) -> str:
    """The id of the client a request comes from: a slot or a review's session belongs to
    it.  A bearer token is the operator's, shared by every client, and an address is
    shared by every program on a machine, so the server names its clients itself, in a
    cookie; a request without it is a client of its own (its slot replaces nothing, and no
    other request can take it)."""
    return request.scope[CLIENT][0]


def named_client(request: Request) -> str | None:
    """The client id the request sent (its cookie), or None: a request without the cookie
    cannot be told from another, so what it makes belongs to no one — a review's session it
    is given is then a bearer name, good for whoever it hands it on to."""
    client, new = request.scope[CLIENT]
    return None if new else client


def _client_from(scope) -> tuple[str, bool]:
    """(the client id of the request in ``scope``, whether it is new: no valid cookie)."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, v = part.strip().partition("=")
                if key == CLIENT_COOKIE and _CLIENT_ID.fullmatch(v):
                    return v, False
    return secrets.token_hex(16), True


async def _disconnected(request: Request) -> None:
    """Returns when the client has gone away (the body has been read already)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def _internal(request: Request, error: Exception) -> Response:
    """Starlette's answer to an error no route caught: JSON, as every other answer."""
    return Json({"error": "internal", "reason": type(error).__name__}, 500)


async def _not_routed(request: Request, error: HTTPException) -> Response:
    """A path no route has (404) or a method its route does not take (405): under /api,
    JSON naming what was wrong, as every other API answer; elsewhere Starlette's text."""
    if not (request.url.path + "/").startswith("/api/"):
        return PlainTextResponse(error.detail, error.status_code, headers=error.headers)
    if error.status_code == 405:
        allowed = sorted((error.headers or {}).get("Allow", "").split(", "))  # from a set
        body = HttpError(405, "method_not_allowed", "method",
                         f"must be {' or '.join(allowed)}").body
    else:
        body = HttpError(404, "not_found", "path", "no such API endpoint").body
    return Json(body, error.status_code, headers=error.headers)


#: where a route notes what the request's log line names (the position's id)
LOG_NOTE = "atout.log"


class _Logged:
    """The outermost ASGI layer: every request's outcome in one log line (:func:`.logs.outcome`:
    verb and path, peer, the position's id, seconds, status — a client gone is 499), and an
    error that escaped everything else (Starlette has answered it with :func:`_internal`
    and re-raised it) in that line instead of uvicorn's "Exception in ASGI application"
    traceback.  The health checks that succeed are not logged (load balancers ask often)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        note: dict = {}
        scope[LOG_NOTE] = note
        scope[CLIENT] = client, new = _client_from(scope)
        answer = {"status": 499, "ended": False}    # nothing sent: the client went away first

        async def sending(message):
            if message["type"] == "http.response.body" and not message.get("more_body"):
                answer["ended"] = True
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                if new:
                    message = {**message, "headers": [*message.get("headers", ()), (
                        b"set-cookie", f"{CLIENT_COOKIE}={client}; Path=/; HttpOnly; "
                        "SameSite=Strict".encode())]}
            await send(message)
        reason = None
        try:
            await self.app(scope, receive, sending)
        except Exception as e:
            answer["status"] = 500
            reason = f"{type(e).__name__}: {e}"
        except asyncio.CancelledError:
            answer["status"] = 499
            raise
        finally:
            path = str(scope.get("path", ""))
            status = str(answer["status"])
            if answer["status"] not in (499, 500) and not answer["ended"]:
                # a stream the client dropped after it began: not the 200 it began with
                status = "499"
                reason = reason or (f"the client went away during the answer (begun as "
                                    f"{answer['status']})")
            if not (path == "/api/health" and answer["status"] == 200):
                client = scope.get("client")
                outcome("HTTP", f"{scope.get('method', '-')} {path}",
                        client[0] if client else "-", note.get("id", "-"), started,
                        status, note.get("reason", reason),
                        level=logging.ERROR if answer["status"] == 500 else logging.INFO)


# -- the API --------------------------------------------------------------------------------

#: a review's stream: JSON Lines
NDJSON = "application/x-ndjson"
#: finished reviews the server keeps to answer the same deal again at once
REVIEWS_KEPT = 64
#: the sessions whose client the server remembers (an id and a client id each: small)
SESSIONS_KEPT = 4096


def _line(obj: dict) -> str:
    return json.dumps(obj) + "\n"


def _review_line(told: dict) -> str:
    """A worker's progress message as a line of the review's stream."""
    if "session" in told:
        return _line({"type": "start", **told, "cached": False})
    return _line({"type": "update", **told})


class HttpApi:
    """The routes, over ``pool``.  ``deals``: positions `atout view` was given."""

    def __init__(self, pool: SearchPool | None, *, tt_mb: int | None = None,
                 deals: list[dict] | None = None, workers: int = 1,
                 limits: Limits | None = None, peers: PeerCalls | None = None,
                 token: bytes | None = None):
        self.pool = pool
        self.own_pool = pool is None
        self.workers = workers
        self.tt_mb = tt_mb
        self.deals = deals or []
        #: `atout view FILE`'s refused lines ("line 3: hands: ..."), said on the page too
        self.refused: list[str] = []
        self.deals_file: str | None = None
        self.limits = limits or Limits()
        self.max_time_limit = self.limits.max_time_limit
        self.peers = peers or PeerCalls(self.limits.max_calls_per_peer)
        self.token = token
        self.static = _static_files()
        #: the searches running in a slot, by (client id, slot name)
        self.slots: dict[tuple[str, str], asyncio.Future] = {}
        #: the client each review's session was given to: only it may go on with it
        self.session_owner: collections.OrderedDict[str, str] = collections.OrderedDict()
        self.running: set[asyncio.Task] = set()
        self.draining = False
        #: finished reviews by (deal, start, time limit): the same deal reopened is answered
        #: at once (see analyze_stream), the oldest forgotten past REVIEWS_KEPT
        self.reviews: collections.OrderedDict[str, dict] = collections.OrderedDict()
        self.app = _Logged(Starlette(routes=[
            Route("/", self.index, methods=["GET"]),
            Route("/static/{name:path}", self.static_file, methods=["GET"]),
            Route("/api/deals", self.list_deals, methods=["GET"]),
            Route("/api/health", self.health, methods=["GET"]),
            Route("/api/solve", self.solve, methods=["POST"]),
            Route("/api/analyze", self.analyze, methods=["POST"]),
            Route("/api/analyze/stream", self.analyze_stream, methods=["POST"]),
            Route("/api/advise", self.advise, methods=["POST"]),
            Route("/api/validate", self.validate, methods=["POST"]),
            Route("/api/table", self.table, methods=["POST"]),
            # the contract table (atout table): server/table_http.py
            Route("/api/contract-table", self.contract_table, methods=["POST"]),
            Route("/api/contract-table/stream", self.contract_table_stream, methods=["POST"]),
            Route("/api/picture", self.picture, methods=["POST"]),
        ], lifespan=self._lifespan if self.own_pool else None,
            exception_handlers={Exception: _internal, 404: _not_routed, 405: _not_routed}))

    @contextlib.asynccontextmanager
    async def _lifespan(self, app):
        """Only for an app that owns its pool (tests, a stand-alone app)."""
        self.pool = SearchPool(self.workers)
        await self.pool.start()
        try:
            yield
        finally:
            await self.drain(1.0)
            await self.pool.close()

    # -- pages ----------------------------------------------------------------------------

    def _file(self, name: str) -> Response:
        found = self.static.get(name)
        if found is None:
            return Json({"error": "not_found", "reason": "no such file"}, 404)
        data, kind = found
        return Response(data, headers={"Content-Type": kind, "Cache-Control": "no-cache",
                                       **SECURITY_HEADERS})

    async def index(self, request: Request) -> Response:
        return self._file("index.html")

    async def static_file(self, request: Request) -> Response:
        # only names of the package's own files: nothing else is ever looked up on disk
        return self._file(request.path_params["name"])

    async def health(self, request: Request) -> Response:
        """Open, like gRPC's health service: serving, or 503 while draining or while no
        search process is running (the pool is starting one again)."""
        if self.draining or (self.pool is not None and not self.pool.ready):
            return Json({"status": "not_serving"}, 503, headers={"Cache-Control": "no-store"})
        return Json({"status": "serving"}, headers={"Cache-Control": "no-store"})

    async def list_deals(self, request: Request) -> Response:
        if not self._token_ok(request):
            refused = _unauthenticated()
            request.scope[LOG_NOTE]["reason"] = refused.body["reason"]
            return Json(refused.body, 401, headers=_CHALLENGE)
        return Json({"deals": self.deals, "refused": self.refused, "file": self.deals_file})

    def _token_ok(self, request: Request) -> bool:
        """No token set, or the request's ``Authorization: Bearer <token>`` (see
        :func:`.security.bearer_ok`)."""
        if self.token is None:
            return True
        sent = request.headers.get("authorization", "").encode("latin-1", "replace")
        return bearer_ok(sent, self.token)

    # -- endpoints ------------------------------------------------------------------------

    async def _answer(self, request: Request, work) -> Response:
        """``work(request, obj)``'s answer as JSON, or the error's (the log line is
        :class:`_Logged`'s)."""
        try:
            if self.draining:
                raise HttpError(503, "unavailable", None, "the server is shutting down")
            if not self._token_ok(request):
                raise _unauthenticated()
            with self.peers.call(request.client.host if request.client else "-"):
                obj = await _read_json(request, self.limits.body_timeout)
                raw = obj.get("position")
                if isinstance(raw, dict) and "id" in raw:
                    request.scope[LOG_NOTE]["id"] = label(raw["id"])
                answer = await work(request, obj)
            return Json(answer, headers={"Cache-Control": "no-store"})
        except Exception as e:  # (a bug too: said in one line, never a traceback)
            return self._refused(request, e)

    async def validate(self, request: Request) -> Response:
        async def work(request, obj):
            _check_keys(obj, ("position",))
            if "position" not in obj:
                raise _invalid("position", "is missing")
            try:
                _, pos = _position(obj)
            except HttpError as e:
                # a refused position is this check's answer, not a failed request (and a
                # browser logs a 422 in its console for each one the viewer checks)
                return {"ok": False, "field": e.body["field"], "reason": e.body["reason"]}
            return {"ok": True, "id": pos.id, "game": pos.game, "played": len(pos.played),
                    "finished": pos.is_finished()}
        return await self._answer(request, work)

    async def table(self, request: Request) -> Response:
        async def work(request, obj):
            _check_keys(obj, ("position", "seat"))
            _, pos = _position(obj)
            seat = _option(obj, "seat", None, options.seat, pos.seats)
            return table(pos, seat)
        return await self._answer(request, work)

    async def contract_table(self, request: Request) -> Response:
        return await contract_table(self, request)

    async def contract_table_stream(self, request: Request) -> Response:
        return await contract_table_stream(self, request)

    async def picture(self, request: Request) -> Response:
        async def work(request, obj):
            _check_keys(obj, ("position", "seat", "values", "real_played"))
            _, pos = _position(obj)
            seat = _option(obj, "seat", None, options.seat, pos.seats)
            shown = table(pos, seat)
            try:
                values = picture.check_values(obj.get("values"), shown)
            except ValueError as e:
                raise _invalid("values", str(e)) from None
            what_if = None
            if obj.get("real_played") is not None:
                try:
                    what_if = picture.what_if(pos, obj["real_played"], seat)
                except ValueError as e:
                    raise _invalid("real_played", str(e)) from None
            return {"svg": picture.svg(shown, values, what_if=what_if),
                    "name": picture.file_name(shown) + ("-what-if" if what_if else "")}
        return await self._answer(request, work)

    async def solve(self, request: Request) -> Response:
        async def work(request, obj):
            _check_keys(obj, ("position", "all", "time_limit", "node_limit", "slot"))
            raw, _ = _position(obj)
            time_limit = self._time_limit(obj)
            all_cards = _option(obj, "all", True, options.flag)
            node_limit = _option(obj, "node_limit", None, options.node_limit)
            settings = {"all_cards": all_cards, "time_limit": time_limit,
                        "node_limit": node_limit, "tt_mb": self.tt_mb}
            answer = await self._search(request, _slot(obj, request), "solve", raw, settings)
            result = convert.solve_result(pb.SolveResult.FromString(answer.result)).to_json()
            if answer.status == "limit":
                result["stopped_by"] = ("nodes" if node_limit and answer.nodes >= node_limit
                                        else "time")
                result["time_limit"] = time_limit
            return result
        return await self._answer(request, work)

    async def analyze(self, request: Request) -> Response:
        async def work(request, obj):
            _check_keys(obj, ("position", "start", "time_limit", "slot"))
            raw, pos = _position(obj)
            time_limit = self._time_limit(obj)
            start = _option(obj, "start", 0, options.start, len(pos.played))
            settings = {"start": start, "time_limit": time_limit, "tt_mb": self.tt_mb}
            answer = await self._search(request, _slot(obj, request), "analyze", raw, settings)
            report = convert.analysis_object(pb.Analysis.FromString(answer.result))
            report["status"] = answer.status
            report["start"] = start
            if answer.status == "limit":
                # every card judged: exact where solved in time, else proven bounds
                exact = sum(p["cost"] is not None for p in report["plays"])
                report["time_limit"] = time_limit
                report["message"] = (f"time limit of {time_limit:g} s reached: {exact} of "
                                     f"{len(report['plays'])} cards with an exact cost, the "
                                     f"others bounded")
            return report
        return await self._answer(request, work)

    async def analyze_stream(self, request: Request) -> Response:
        """A played deal's review, told as it is found: one JSON object a line
        (``application/x-ndjson``) — ``{"type": "start", "session", "resumed", "threads",
        "cached"}``, then ``{"type": "update", "plays": [the plays whose verdict changed],
        "seats", "start_value", "start_bounds", "made", "threads"}`` (``threads``: the cores
        it searches on now, idle workers' lent) as the search finds them (from the end of
        the deal back; applied in order, they end with exactly the report's plays and
        totals), and last ``{"type": "report", "report": the /api/analyze answer,
        "session"}`` — or ``{"type": "error", "error", "field", "reason"}`` when it failed
        after it began.  A request naming the ``session`` of an earlier review of the same
        deal and start goes on with that analysis, its table warm ("keep going"), where the
        search process that keeps it is free; else it begins again.  A deal, start and
        time limit reviewed to the end before are answered from :attr:`reviews` at once.
        Refused before it begins: the JSON errors of every other endpoint."""
        peer = contextlib.ExitStack()
        try:
            if self.draining:
                raise HttpError(503, "unavailable", None, "the server is shutting down")
            if not self._token_ok(request):
                raise _unauthenticated()
            # the peer's call counts until the stream ends (the ExitStack is closed there)
            peer.enter_context(self.peers.call(request.client.host if request.client else "-"))
            obj = await _read_json(request, self.limits.body_timeout)
            _check_keys(obj, ("position", "start", "time_limit", "slot", "session"))
            raw, pos = _position(obj)
            if isinstance(raw, dict) and "id" in raw:
                request.scope[LOG_NOTE]["id"] = label(raw["id"])
            time_limit = self._time_limit(obj)
            start = _option(obj, "start", 0, options.start, len(pos.played))
            session = obj.get("session")
            if session is not None and (not isinstance(session, str) or
                                        not SESSION.fullmatch(session)):
                raise _invalid("session", "is not the name of a review this server gave")
            client = named_client(request)
            owner = self.session_owner.get(session) if session is not None else None
            if owner is not None and owner != client:
                # another client's review: going on with it would change what that client
                # sees when it goes on itself
                raise _invalid("session", "is not the name of a review this server gave "
                                          "this client")
            slot = _slot(obj, request)
        except Exception as e:
            peer.close()
            return self._refused(request, e)
        key = hashlib.sha256(json.dumps([raw, start, time_limit], sort_keys=True)
                             .encode()).hexdigest()
        kept = self.reviews.get(key) if session is None else None
        if kept is not None:
            self.reviews.move_to_end(key)
            peer.close()
            self._stop_older(slot)      # a newer request in the slot, if answered at once
            # the report is the deal's, for anyone; its session only for the client that
            # made it (another would go on with that client's review)
            owner = self.session_owner.get(kept["session"])
            mine = {"session": kept["session"]} if owner is not None and owner == client else {}
            lines = [{"type": "start", **mine, "resumed": False, "cached": True},
                     {"type": "report", "report": {**kept["report"], "cached": True}, **mine}]
            return StreamingResponse((json.dumps(x) + "\n" for x in lines),
                                     media_type=NDJSON, headers={"Cache-Control": "no-store"})
        return StreamingResponse(self._review(raw, start, time_limit, session, slot, key, peer,
                                              client),
                                 media_type=NDJSON, headers={"Cache-Control": "no-store"})

    async def _review(self, raw: dict, start: int, time_limit: float, session: str | None,
                      slot: tuple[str, str] | None, key: str, peer: contextlib.ExitStack,
                      client: str | None):
        """The lines of one review (see :meth:`analyze_stream`); its search is stopped when
        the client goes away (Starlette then closes this generator) or a newer request
        takes its ``slot``."""
        search, messages = self.pool.review(raw, {"start": start, "time_limit": time_limit,
                                                  "session": session,
                                                  "tt_mb": self.limits.tt_mb(self.tt_mb, raw)})
        try:
            async with self._held(search, slot):
                async for message in messages:
                    if "session" in message:
                        self._own(message["session"], client)
                    yield _review_line(message)
                yield self._review_end(search, key, start, time_limit)
        finally:
            peer.close()

    def _review_end(self, search: asyncio.Future, key: str, start: int,
                    time_limit: float) -> str:
        """The review's last line: its report (kept in :attr:`reviews` when it ran its
        whole time), or why it failed."""
        try:
            answer = search.result()
        except asyncio.CancelledError:
            return _line({"type": "error", "error": "replaced", "field": "slot",
                          "reason": "a newer request took this slot"})
        except WorkerDied as e:
            return _line({"type": "error", "error": "unavailable", "field": None,
                          "reason": str(e)})
        if isinstance(answer, Failed):
            return _line({"type": "error", "error": answer.kind, "field": answer.field or None,
                          "reason": answer.reason})
        found = answer.result
        report = {**found["report"], "status": answer.status, "start": start}
        if answer.status == "limit":
            report["time_limit"] = time_limit
        if found["report"].get("stopped_by") != "cancel":
            self.reviews[key] = {"report": report, "session": found["session"]}
            while len(self.reviews) > REVIEWS_KEPT:
                self.reviews.popitem(last=False)
        return _line({"type": "report", "report": report, "session": found["session"]})

    def _own(self, session: str, client: str | None) -> None:
        """``session`` was given to ``client``: only it may go on with it (None: a client
        without the cookie, whoever knows the name may; the oldest forgotten past
        :data:`SESSIONS_KEPT`; a search process keeps far fewer)."""
        self.session_owner[session] = client
        self.session_owner.move_to_end(session)
        while len(self.session_owner) > SESSIONS_KEPT:
            self.session_owner.popitem(last=False)

    def _refused(self, request: Request, error: Exception) -> Response:
        """A request refused, or failed before its answer began: the JSON error (a bug is
        said in one line, never a traceback)."""
        if isinstance(error, Busy):
            request.scope[LOG_NOTE]["reason"] = error.reason
            return Json({"error": "busy", "reason": error.reason}, 429, headers={"Retry-After": "1"})
        if isinstance(error, HttpError):
            if error.status >= 500 or error.status in (401, 408, 413):
                request.scope[LOG_NOTE]["reason"] = error.body["reason"]
            headers = {**(_CHALLENGE if error.status == 401 else {}), **error.headers}
            if error.status == 503:
                headers["Retry-After"] = "1"
            return Json(error.body, error.status, headers=headers)
        request.scope[LOG_NOTE]["reason"] = f"{type(error).__name__}: {error}"
        return Json({"error": "internal", "reason": f"{type(error).__name__}: {error}"}, 500)

    async def advise(self, request: Request) -> Response:
        async def work(request, obj):
            _check_keys(obj, ("position", "seat", "samples", "seed", "time_limit", "confidence",
                              "slot"))
            raw, pos = _position(obj)
            time_limit = self._time_limit(obj)
            slot = _slot(obj, request)   # before the job: a coroutine made and then refused is never run
            samples = _option(obj, "samples", DEFAULT_SAMPLES, options.samples)
            if samples > self.limits.max_samples:
                raise _invalid("samples", f"at most {self.limits.max_samples} deals in one "
                                          f"advice (this server's --max-samples)")
            seat = _option(obj, "seat", None, options.seat, pos.seats)
            try:    # refused before the job takes the slot: a refused request stops nothing
                check_advice(pos, seat=seat)
            except PositionError as e:
                raise _invalid(e.field, e.reason) from None
            job = self._advice(raw, seat=seat, samples=samples,
                               seed=_option(obj, "seed", None, options.seed),
                               confidence=_option(obj, "confidence", DEFAULT_CONFIDENCE,
                                                  options.confidence),
                               time_limit=time_limit)
            answer = await self._search(request, slot, "advise", raw, {}, job=job)
            result = answer.result.to_json()
            if answer.status == "limit":
                result["time_limit"] = time_limit
            return result
        return await self._answer(request, work)

    async def _advice(self, raw: dict, **settings) -> Done | Failed:
        """An advice on the pool, answered as a worker answers (``_search`` reads it)."""
        try:
            advice = await advise_on_pool(self.pool, raw, tt_mb=self.limits.tt_mb(self.tt_mb, raw),
                                          **settings)
        except PositionError as e:
            return failed(None, "invalid", e.field, e.reason)
        except AdviceFailed as e:
            return failed(None, "internal", None, e.reason)
        return done(None, advice.status, advice.nodes, advice)

    def _time_limit(self, obj: dict) -> float:
        """Every search has one: the request's (at most the server's maximum: more is
        lowered to it), or the default."""
        asked = _option(obj, "time_limit", DEFAULT_TIME_LIMIT, options.time_limit)
        return min(asked, self.max_time_limit)

    # -- one search on the pool -----------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _held(self, search: asyncio.Future, slot: tuple[str, str] | None):
        """A request's ``search`` while the request lasts: in :attr:`running` (``drain``
        waits for it) and holding its tab's ``slot`` (an older search there is stopped, its
        request answered "replaced").  On the way out a search still running is stopped —
        the client went away, a newer request took the slot, the handler was cancelled —
        and both are let go."""
        self.running.add(search)
        if slot is not None:
            self._stop_older(slot)
            self.slots[slot] = search
        try:
            yield
        finally:
            if not search.done():
                search.cancel()          # the pool stops it in its worker(s)
                await asyncio.gather(search, return_exceptions=True)
            self.running.discard(search)
            if slot is not None and self.slots.get(slot) is search:
                del self.slots[slot]

    def _stop_older(self, slot: tuple[str, str] | None) -> None:
        """A newer request took ``slot``: the search there, if one still runs, is stopped
        (its request answered "replaced")."""
        older = self.slots.pop(slot, None) if slot is not None else None
        if older is not None and not older.done():
            older.cancel()

    async def _search(self, request: Request, slot: tuple[str, str] | None, kind: str, obj: dict,
                      options: dict, job=None) -> Done:
        """The worker's answer; the search is stopped if the client goes away or a newer
        request takes its ``slot``.  ``job``: a coroutine answering as a worker does, run
        instead of one job on the pool (an advice: many jobs)."""
        options = {**options, "tt_mb": self.limits.tt_mb(options.get("tt_mb"), obj)}
        search = asyncio.ensure_future(job if job is not None else self.pool.run(kind, obj, options))
        gone = asyncio.ensure_future(_disconnected(request))
        async with self._held(search, slot):
            try:
                await asyncio.wait({search, gone}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                gone.cancel()
        if search.cancelled():
            if self.draining:
                raise HttpError(503, "unavailable", None, "the server is shutting down")
            if gone.done() and not gone.cancelled():
                raise _gone()
            raise HttpError(409, "replaced", "slot", "a newer request took this slot")
        try:
            answer = search.result()
        except WorkerDied as e:        # lost twice with its search process: try again later
            raise HttpError(503, "unavailable", None, str(e)) from None
        if isinstance(answer, Failed):
            if answer.kind == "invalid":
                raise _invalid(answer.field or "position", answer.reason)
            raise HttpError(501 if answer.kind == "unimplemented" else 500, answer.kind, None,
                            answer.reason)
        return answer

    async def drain(self, grace: float) -> bool:
        """Refuse new requests (503) and let running searches finish for up to ``grace``
        seconds; later ones are stopped.  True if they all finished."""
        self.draining = True
        if not self.running:
            return True
        _, late = await asyncio.wait(set(self.running), timeout=grace)
        for task in late:
            task.cancel()
        return not late


def load_deals(path: str) -> tuple[list[dict], list[str]]:
    """The positions of a JSON Lines (or one JSON) file for `atout view`: (deals, problems)."""
    deals, problems = [], []
    with open(path, "rb") as f:
        text = f.read()
    try:
        whole: Any = json.loads(text)
        lines = whole if isinstance(whole, list) else [whole]
        records = [(i + 1, x) for i, x in enumerate(lines)]
    except (ValueError, RecursionError):    # not one JSON value: JSON Lines
        records = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append((n, json.loads(line)))
            except ValueError as e:
                problems.append(f"line {n}: json: not valid JSON ({str(e)[:60]})")
            except RecursionError:          # as atout validate says it
                problems.append(f"line {n}: json: not valid JSON: nested too deeply")
    for n, obj in records:
        try:
            parse_position(obj)
        except PositionError as e:
            problems.append(f"line {n}: {e.field}: {e.reason}")
            continue
        deals.append(obj)
    return deals, problems
