"""The HTTP JSON API and the hand viewer, next to the gRPC service, on the same search pool.

Starlette (routing, requests, responses) served by uvicorn inside the server's own
event loop (``grpc.aio`` runs there too), so both front ends share one
:class:`~atout.server.pool.SearchPool`::

    POST /api/solve     {"position": {...}, "all": true, "time_limit": 5, "slot": "tab1"}
                        -> FORMAT.md result + status ("ok" | "limit"), bounds, stopped_by
    POST /api/analyze   {"position": {...}, "start": 40, "time_limit": 20}
                        -> the `atout analyze --json` object + status ("limit": some values
                        only bounded, and a `message`)
    POST /api/advise    {"position": {...}, "seat": 2, "samples": 100, "seed": 7, "time_limit": 10}
                        -> the `atout advise` line (docs/single-dummy.md), its draws on the pool
    POST /api/validate  {"position": {...}}             -> {"ok": true, "id", "game", "played",
                        "finished"}, or {"ok": false, "field", "reason"} for a refused position
    POST /api/table     {"position": {...}, "seat": 2}  -> what the viewer draws (view.table);
                        with "seat", as that seat sees the table
    POST /api/picture   {"position": {...}, "seat": 2, "values": {...}} -> {"svg", "name"}:
                        the table as an SVG picture (atout/picture.py)
    GET  /api/deals     the deals `atout view FILE` was given and its refused lines
    GET  /api/health    {"status": "serving"} (503 while draining); open without a token
    GET  /              the viewer; GET /static/<name>: its files (package data only)

Every search has a time limit (``time_limit``, default 10 s, at most ``max_time_limit``).
It is stopped when the client goes away (the connection closes) or when a newer request
with the same ``slot`` arrives (the older one is answered 409): the pool tells the worker
to stop, as for a cancelled gRPC call.  Bad input is 400 (not JSON, not an object) or
422 (``{"error": "invalid", "field", "reason"}``, the field named as gRPC names it),
a body over :data:`MAX_BODY_BYTES` is 413, one not sent as application/json 415;
nothing ever answers a traceback.  With a token (``atout serve --token-file``) every API
request but ``/api/health`` needs ``Authorization: Bearer <token>`` (401 otherwise); the
operator's limits (:mod:`.limits`) apply as over gRPC, a request past a limit on room
answered 429 at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import socket
import time
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from atout import options, picture
from atout.errors import PositionError
from atout.jsonl import decode_json
from atout.position import parse_position
from atout.printable import printable, shown
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from atout.solver.advise import DEFAULT_SAMPLES

from .advice import AdviceFailed, advise_on_pool
from .limits import HTTP_MAX_TIME_LIMIT, Busy, Limits, PeerCalls
from .pool import SearchPool, WorkerDied
from .security import bearer_ok
from .view import table

log = logging.getLogger("atout.server")

#: a position is a few kB; anything near this is not one
MAX_BODY_BYTES = 256 << 10
DEFAULT_TIME_LIMIT = 10.0
MAX_TIME_LIMIT = HTTP_MAX_TIME_LIMIT
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

async def _read_json(request: Request) -> dict:
    # JSON only: another site's page cannot send that without a CORS preflight, which is
    # never granted, so it cannot make this computer search
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HttpError(415, "unsupported_media_type", "Content-Type",
                        "must be application/json")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        raise HttpError(413, "too_large", "body",
                        f"a request body may hold at most {MAX_BODY_BYTES} bytes")
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise HttpError(413, "too_large", "body",
                                f"a request body may hold at most {MAX_BODY_BYTES} bytes")
    except ClientDisconnect:    # closed before the whole body: as a client gone mid-search
        raise _gone() from None
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


def _slot(obj: dict) -> str | None:
    v = obj.get("slot")
    if v is None:
        return None
    if not isinstance(v, str) or not 0 < len(v) <= MAX_SLOT_LENGTH:
        raise _invalid("slot", f"must be a string of 1 to {MAX_SLOT_LENGTH} characters")
    return v


async def _disconnected(request: Request) -> None:
    """Returns when the client has gone away (the body has been read already)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def _internal(request: Request, error: Exception) -> Response:
    """Starlette's answer to an error no route caught: JSON, as every other answer."""
    return Json({"error": "internal", "reason": type(error).__name__}, 500)


class _OneLine:
    """The outermost ASGI layer: an error that escaped everything else (Starlette has
    answered it with :func:`_internal` and re-raised it) is logged in one line instead of
    uvicorn's "Exception in ASGI application" traceback."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        try:
            await self.app(scope, receive, send)
        except Exception as e:
            log.error("HTTP %s failed: %s: %s", printable(str(scope.get("path", ""))),
                      type(e).__name__, printable(str(e)[:200]))


# -- the API --------------------------------------------------------------------------------

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
        self.max_time_limit = self.limits.max_time_limit or MAX_TIME_LIMIT
        self.peers = peers or PeerCalls(self.limits.max_calls_per_peer)
        self.token = token
        self.static = _static_files()
        self.slots: dict[str, asyncio.Task] = {}
        self.running: set[asyncio.Task] = set()
        self.draining = False
        self.app = _OneLine(Starlette(routes=[
            Route("/", self.index, methods=["GET"]),
            Route("/static/{name:path}", self.static_file, methods=["GET"]),
            Route("/api/deals", self.list_deals, methods=["GET"]),
            Route("/api/health", self.health, methods=["GET"]),
            Route("/api/solve", self.solve, methods=["POST"]),
            Route("/api/analyze", self.analyze, methods=["POST"]),
            Route("/api/advise", self.advise, methods=["POST"]),
            Route("/api/validate", self.validate, methods=["POST"]),
            Route("/api/table", self.table, methods=["POST"]),
            Route("/api/picture", self.picture, methods=["POST"]),
        ], lifespan=self._lifespan if self.own_pool else None,
            exception_handlers={Exception: _internal}))

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
        """Open, like gRPC's health service: serving, or 503 while draining."""
        if self.draining:
            return Json({"status": "not_serving"}, 503)
        return Json({"status": "serving"})

    async def list_deals(self, request: Request) -> Response:
        if not self._token_ok(request):
            return Json(_unauthenticated().body, 401, headers=_CHALLENGE)
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
        started = time.perf_counter()
        status = 200
        try:
            if self.draining:
                raise HttpError(503, "unavailable", None, "the server is shutting down")
            if not self._token_ok(request):
                raise _unauthenticated()
            obj = await _read_json(request)
            with self.peers.call(request.client.host if request.client else "-"):
                answer = await work(request, obj)
            return Json(answer, headers={"Cache-Control": "no-store"})
        except Busy as e:
            status = 429
            return Json({"error": "busy", "reason": e.reason}, 429, headers={"Retry-After": "1"})
        except HttpError as e:
            status = e.status
            headers = _CHALLENGE if e.status == 401 else None
            return Json(e.body, e.status, headers=headers)
        except asyncio.CancelledError:
            status = 499
            raise
        except Exception as e:  # a bug: said in one line, never a traceback to the client
            status = 500
            log.exception("%s failed", printable(request.url.path))
            return Json({"error": "internal", "reason": f"{type(e).__name__}: {e}"}, 500)
        finally:
            log.info("HTTP %s %.3fs %d", printable(request.url.path),
                     time.perf_counter() - started, status)

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

    async def picture(self, request: Request) -> Response:
        async def work(request, obj):
            _check_keys(obj, ("position", "seat", "values"))
            _, pos = _position(obj)
            seat = _option(obj, "seat", None, options.seat, pos.seats)
            shown = table(pos, seat)
            try:
                values = picture.check_values(obj.get("values"), shown)
            except ValueError as e:
                raise _invalid("values", str(e)) from None
            return {"svg": picture.svg(shown, values), "name": picture.file_name(shown)}
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
            answer = await self._search(request, _slot(obj), "solve", raw, settings)
            _, _, status, nodes, data = answer
            result = convert.solve_result(pb.SolveResult.FromString(data)).to_json()
            if status == "limit":
                result["stopped_by"] = ("nodes" if node_limit and nodes >= node_limit
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
            answer = await self._search(request, _slot(obj), "analyze", raw, settings)
            _, _, status, _, data = answer
            report = convert.analysis_object(pb.Analysis.FromString(data))
            report["status"] = status
            report["start"] = start
            if status == "limit":
                # every card judged: exact where solved in time, else proven bounds
                exact = sum(p["cost"] is not None for p in report["plays"])
                report["time_limit"] = time_limit
                report["message"] = (f"time limit of {time_limit:g} s reached: {exact} of "
                                     f"{len(report['plays'])} cards with an exact cost, the "
                                     f"others bounded")
            return report
        return await self._answer(request, work)

    async def advise(self, request: Request) -> Response:
        async def work(request, obj):
            _check_keys(obj, ("position", "seat", "samples", "seed", "time_limit", "slot"))
            raw, pos = _position(obj)
            time_limit = self._time_limit(obj)
            slot = _slot(obj)   # before the job: a coroutine made and then refused is never run
            job = self._advice(raw, seat=_option(obj, "seat", None, options.seat, pos.seats),
                               samples=_option(obj, "samples", DEFAULT_SAMPLES, options.samples),
                               seed=_option(obj, "seed", None, options.seed),
                               time_limit=time_limit)
            _, _, status, _, advice = await self._search(request, slot, "advise", raw, {},
                                                         job=job)
            result = advice.to_json()
            if status == "limit":
                result["time_limit"] = time_limit
            return result
        return await self._answer(request, work)

    async def _advice(self, raw: dict, **settings) -> tuple:
        """An advice on the pool, answered as a worker answers (``_search`` reads it)."""
        try:
            advice = await advise_on_pool(self.pool, raw, tt_mb=self.limits.tt_mb(self.tt_mb, raw),
                                          **settings)
        except PositionError as e:
            return ("failed", None, "invalid", e.field, e.reason)
        except AdviceFailed as e:
            return ("failed", None, "internal", None, e.reason)
        return ("done", None, advice.status, advice.nodes, advice)

    def _time_limit(self, obj: dict) -> float:
        """Every search has one: the request's (at most the server's maximum: more is
        lowered to it), or the default."""
        asked = _option(obj, "time_limit", DEFAULT_TIME_LIMIT, options.time_limit)
        return min(asked, self.max_time_limit)

    # -- one search on the pool -----------------------------------------------------------

    async def _search(self, request: Request, slot: str | None, kind: str, obj: dict,
                      options: dict, job=None) -> tuple:
        """The worker's answer; the search is stopped if the client goes away or a newer
        request takes its ``slot``.  ``job``: a coroutine answering as a worker does, run
        instead of one job on the pool (an advice: many jobs)."""
        options = {**options, "tt_mb": self.limits.tt_mb(options.get("tt_mb"), obj)}
        search = asyncio.ensure_future(job if job is not None else self.pool.run(kind, obj, options))
        self.running.add(search)
        if slot is not None:
            older = self.slots.get(slot)
            if older is not None and not older.done():
                older.cancel()
            self.slots[slot] = search
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            await asyncio.wait({search, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not search.done():
                search.cancel()  # client gone, or this handler cancelled: stop the worker
                await asyncio.gather(search, return_exceptions=True)
            self.running.discard(search)
            if slot is not None and self.slots.get(slot) is search:
                del self.slots[slot]
        if search.cancelled():
            if self.draining:
                raise HttpError(503, "unavailable", None, "the server is shutting down")
            if gone.done() and not gone.cancelled():
                raise _gone()
            raise HttpError(409, "replaced", "slot", "a newer request took this slot")
        try:
            answer = search.result()
        except WorkerDied as e:
            raise HttpError(500, "internal", None, str(e)) from None
        if answer[0] == "failed":
            _, _, what, field, reason = answer
            if what == "invalid":
                raise _invalid(field or "position", reason)
            raise HttpError(501 if what == "unimplemented" else 500, what, None, reason)
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


# -- serving in the running event loop --------------------------------------------------------

class HttpServer:
    """uvicorn serving an :class:`HttpApi` as a task of the running loop (no signal
    handlers of its own: the caller's loop handles SIGTERM/SIGINT)."""

    def __init__(self, api: HttpApi, host: str, port: int, tls=None):
        import uvicorn

        self.api = api
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host.strip("[]"), port), family=family)
        self.port = self.socket.getsockname()[1]
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        self.address = f"{shown}:{self.port}"
        self.url = f"{'https' if tls else 'http'}://{self.address}/"
        config = uvicorn.Config(api.app, lifespan="off", log_config=None, access_log=False,
                                timeout_graceful_shutdown=2,
                                **(tls.uvicorn_options() if tls else {}))
        self.server = uvicorn.Server(config)
        self.task: asyncio.Task | None = None

    async def start(self) -> None:
        config = self.server.config
        if not config.loaded:
            config.load()
        self.server.lifespan = config.lifespan_class(config)
        await self.server.startup(sockets=[self.socket])
        self.task = asyncio.ensure_future(self.server.main_loop())

    async def stop(self, grace: float) -> None:
        if not await self.api.drain(grace):
            log.warning("HTTP searches still running after %gs: stopped", grace)
        self.server.should_exit = True
        if self.task is not None:
            await self.task
        await self.server.shutdown(sockets=[self.socket])
        self.socket.close()


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
