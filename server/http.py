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
                        "finished"} ("deal": true for a deal as dealt), or {"ok": false,
                        "field", "reason"} for a refused position
    POST /api/view      {"position": {...}, "seat": 2}  -> what the viewer draws (view.shown);
                        with "seat", as that seat sees the table (/api/table: its older
                        name, kept)
    POST /api/picture   {"position": {...}, "seat": 2, "values": {...}, "real_played": [...]}
                        -> {"svg", "name"}: the table as an SVG picture (atout/present/picture.py);
                        real_played (the deal's cards as really played) marks a what-if
    POST /api/contract-table[/stream|/stop]   the deal's contract table (server/table_http.py)
    POST /api/draft     a deal being entered, checked by the rules (server/draft_http.py)
    POST /api/import    a TarotClub deal file's deals as positions (server/draft_http.py)
    GET  /api/games     every game's facts and words (atout/present/view.py games()): what
                        the viewer's page reads of the games instead of copies; open
    GET  /api/deals     the deals `atout view FILE` was given and its refused lines
    GET  /api/health    {"status": "serving"} (503 while draining or while no search
                        process runs); open without a token
    GET  /              the viewer; GET /static/<name>: its files (package data only)

Every search has a time limit (``time_limit``, default :data:`atout.options.SEARCH_TIME_LIMIT`,
10 s; at most ``max_time_limit``).
It is stopped when the client goes away (the connection closes) or when a newer request
of the same client with the same ``slot`` arrives (the older one is answered 409): the
pool tells the worker to stop, as for a cancelled gRPC call.  Slots and review sessions
belong to the client that made them, named by the server in a cookie
(:func:`.clients.client_of`).  Bad input is 400 (not JSON, not an object) or
422 (``{"error": "invalid", "field", "reason"}``, the field named as gRPC names it),
a body over :data:`MAX_BODY_BYTES` is 413, one not sent as application/json 415, one
that does not arrive within the operator's ``--body-timeout`` 408; an unknown /api path
is 404 and a wrong method 405, in the same JSON; a search lost with its search process
(twice) is 503 with ``Retry-After``; nothing ever answers a traceback.  With a token
(``atout serve --token-file``) every API request but ``/api/health`` needs
``Authorization: Bearer <token>`` (401 otherwise); the operator's limits (:mod:`.limits`)
apply as over gRPC, a request past a limit on room answered 429 at once.  Every request
is one log line (:class:`~.http_log.Logged`).  The connections themselves are bounded
by :mod:`.http_server`.

This module holds the routes and the searches they run on the pool (slots, the stop of a
search whose client went away, draining); beside it, one job each: :mod:`.http_io`
(reading a request, the JSON answer and its errors), :mod:`.clients` (who a request comes
from, its slot), :mod:`.http_log` (the log line), :mod:`.static_files` (the viewer's
files), :mod:`.analysis_http` (the analysis told as it goes), :mod:`.table_http` (the contract
table) and :mod:`.deal_file` (the deals `atout view` opens).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from atout import options
from atout.dealt import is_deal, parse_deal
from atout.errors import PositionError
from atout.present import picture
from atout.present.view import games as all_games, shown
from atout.runner.process import JobKind
from atout.solver.advise import DEFAULT_CONFIDENCE, DEFAULT_SAMPLES, check as check_advice

from .advice import AdviceFailed, advise_on_pool
from .clients import slot_of
from .draft_http import draft_answer, import_answer
from .http_io import (CHALLENGE, LOG_NOTE, HttpError, Json, check_keys, disconnected, gone,
                      internal_error, invalid, not_routed, position_of, read_json,
                      request_option, unauthenticated)
from .http_log import Logged
from .limits import Busy, Limits, PeerCalls
from .logs import label
from .pool import SearchPool, WorkerDied
from .analysis_http import Analyses, analyze_stream
from .security import bearer_ok
from .static_files import file_answer, static_files
from .table_http import contract_table, contract_table_stop, contract_table_stream
from .worker import Done, Failed, done, failed

log = logging.getLogger("atout.server")


async def _now(answer):
    """An answer worked out at once (no search), as the awaitable answer_json wants."""
    return answer


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
        self.static = static_files()
        #: the searches running in a slot, by (client id, slot name)
        self.slots: dict[tuple[str, str], asyncio.Future] = {}
        self.running: set[asyncio.Task] = set()
        self.draining = False
        #: the finished analyses and who each session belongs to (analysis_http.py)
        self.analyses = Analyses()
        #: how to stop the contract table streamed in a slot, keeping what it proved
        self.table_stops: dict[tuple[str, str], dict] = {}
        self.app = Logged(Starlette(routes=[
            Route("/", self.index, methods=["GET"]),
            Route("/static/{name:path}", self.static_file, methods=["GET"]),
            Route("/api/games", self.games, methods=["GET"]),
            Route("/api/deals", self.list_deals, methods=["GET"]),
            Route("/api/health", self.health, methods=["GET"]),
            Route("/api/solve", self.solve, methods=["POST"]),
            Route("/api/analyze", self.analyze, methods=["POST"]),
            Route("/api/analyze/stream", self.analyze_stream, methods=["POST"]),
            Route("/api/advise", self.advise, methods=["POST"]),
            Route("/api/validate", self.validate, methods=["POST"]),
            Route("/api/view", self.view, methods=["POST"]),
            # the older name of /api/view, kept for the clients that use it ("table" is the
            # contract table's word: /api/contract-table)
            Route("/api/table", self.view, methods=["POST"]),
            # the contract table (atout table): server/table_http.py
            Route("/api/contract-table", self.contract_table, methods=["POST"]),
            Route("/api/contract-table/stream", self.contract_table_stream, methods=["POST"]),
            Route("/api/contract-table/stop", self.contract_table_stop, methods=["POST"]),
            Route("/api/picture", self.picture, methods=["POST"]),
            # bringing a deal in: the editor's checks, TarotClub's files (server/draft_http.py)
            Route("/api/draft", self.draft, methods=["POST"]),
            Route("/api/import", self.import_file, methods=["POST"]),
        ], lifespan=self._lifespan if self.own_pool else None,
            exception_handlers={Exception: internal_error, 404: not_routed, 405: not_routed}))

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

    async def index(self, request: Request) -> Response:
        return file_answer(self.static, "index.html")

    async def static_file(self, request: Request) -> Response:
        return file_answer(self.static, request.path_params["name"])

    async def health(self, request: Request) -> Response:
        """Open, like gRPC's health service: serving, or 503 while draining or while no
        search process is running (the pool is starting one again)."""
        if self.draining or (self.pool is not None and not self.pool.ready):
            return Json({"status": "not_serving"}, 503, headers={"Cache-Control": "no-store"})
        return Json({"status": "serving"}, headers={"Cache-Control": "no-store"})

    async def games(self, request: Request) -> Response:
        """The games' facts and words, the same for every client: open without a token,
        as the page's own files are."""
        return Json({"games": all_games()}, headers={"Cache-Control": "no-cache"})

    async def list_deals(self, request: Request) -> Response:
        if not self.token_ok(request):
            refused = unauthenticated()
            request.scope[LOG_NOTE]["reason"] = refused.body["reason"]
            return Json(refused.body, 401, headers=CHALLENGE)
        return Json({"deals": self.deals, "refused": self.refused, "file": self.deals_file})

    def token_ok(self, request: Request) -> bool:
        """No token set, or the request's ``Authorization: Bearer <token>`` (see
        :func:`.security.bearer_ok`)."""
        if self.token is None:
            return True
        sent = request.headers.get("authorization", "").encode("latin-1", "replace")
        return bearer_ok(sent, self.token)

    # -- endpoints ------------------------------------------------------------------------

    async def answer_json(self, request: Request, work) -> Response:
        """``work(request, obj)``'s answer as JSON, or the error's (the log line is
        :class:`Logged`'s)."""
        try:
            if self.draining:
                raise HttpError(503, "unavailable", None, "the server is shutting down")
            if not self.token_ok(request):
                raise unauthenticated()
            with self.peers.call(request.client.host if request.client else "-"):
                obj = await read_json(request, self.limits.body_timeout)
                self.note_id(request, obj.get("position"))
                answer = await work(request, obj)
            return Json(answer, headers={"Cache-Control": "no-store"})
        except Exception as e:  # (a bug too: said in one line, never a traceback)
            return self.refuse(request, e)

    async def open_stream(self, request: Request, peer: contextlib.ExitStack) -> dict:
        """A streamed answer's request (a review, a contract table): refused while draining
        or without the token; the peer's call counts until ``peer`` is closed (when the
        stream ends); its JSON object."""
        if self.draining:
            raise HttpError(503, "unavailable", None, "the server is shutting down")
        if not self.token_ok(request):
            raise unauthenticated()
        peer.enter_context(self.peers.call(request.client.host if request.client else "-"))
        return await read_json(request, self.limits.body_timeout)

    @staticmethod
    def note_id(request: Request, raw) -> None:
        """The position's id, for the request's log line."""
        if isinstance(raw, dict) and "id" in raw:
            request.scope[LOG_NOTE]["id"] = label(raw["id"])

    async def validate(self, request: Request) -> Response:
        async def work(request, obj):
            check_keys(obj, ("position",))
            if "position" not in obj:
                raise invalid("position", "is missing")
            if is_deal(obj["position"]):        # a deal as dealt: no contract, no card played
                try:
                    d = parse_deal(obj["position"])
                except PositionError as e:
                    return {"ok": False, "field": e.field, "reason": e.reason}
                return {"ok": True, "id": obj["position"].get("id"), "game": d.game, "played": 0,
                        "finished": False, "deal": True}
            try:
                _, pos = position_of(obj)
            except HttpError as e:
                # a refused position is this check's answer, not a failed request (and a
                # browser logs a 422 in its console for each one the viewer checks)
                return {"ok": False, "field": e.body["field"], "reason": e.body["reason"]}
            return {"ok": True, "id": pos.id, "game": pos.game, "played": len(pos.played),
                    "finished": pos.is_finished()}
        return await self.answer_json(request, work)

    async def view(self, request: Request) -> Response:
        async def work(request, obj):
            check_keys(obj, ("position", "seat"))
            _, pos = position_of(obj)
            seat = request_option(obj, "seat", None, options.seat, pos.seats)
            return shown(pos, seat)
        return await self.answer_json(request, work)

    async def draft(self, request: Request) -> Response:
        return await self.answer_json(request, lambda request, obj: _now(draft_answer(obj)))

    async def import_file(self, request: Request) -> Response:
        return await self.answer_json(request, lambda request, obj: _now(import_answer(obj)))

    async def contract_table(self, request: Request) -> Response:
        return await contract_table(self, request)

    async def contract_table_stream(self, request: Request) -> Response:
        return await contract_table_stream(self, request)

    async def contract_table_stop(self, request: Request) -> Response:
        return await contract_table_stop(self, request)

    async def picture(self, request: Request) -> Response:
        async def work(request, obj):
            check_keys(obj, ("position", "seat", "values", "real_played"))
            _, pos = position_of(obj)
            seat = request_option(obj, "seat", None, options.seat, pos.seats)
            view = shown(pos, seat)
            try:
                values = picture.check_values(obj.get("values"), view)
            except ValueError as e:
                raise invalid("values", str(e)) from None
            what_if = None
            if obj.get("real_played") is not None:
                try:
                    what_if = picture.what_if(pos, obj["real_played"], seat)
                except ValueError as e:
                    raise invalid("real_played", str(e)) from None
            return {"svg": picture.svg(view, values, what_if=what_if),
                    "name": picture.file_name(view) + ("-what-if" if what_if else "")}
        return await self.answer_json(request, work)

    async def solve(self, request: Request) -> Response:
        async def work(request, obj):
            check_keys(obj, ("position", "all", "time_limit", "node_limit", "slot"))
            raw, _ = position_of(obj)
            time_limit = self.time_limit_of(obj)
            all_cards = request_option(obj, "all", True, options.flag)
            node_limit = request_option(obj, "node_limit", None, options.node_limit)
            settings = {"all_cards": all_cards, "time_limit": time_limit,
                        "node_limit": node_limit, "tt_mb": self.tt_mb}
            answer = await self.search_on_pool(request, slot_of(obj, request), JobKind.SOLVE,
                                               raw, settings)
            result = dict(answer.result)        # the result line as `atout solve` writes it
            if answer.status == "limit":
                result["time_limit"] = time_limit
            return result
        return await self.answer_json(request, work)

    async def analyze(self, request: Request) -> Response:
        async def work(request, obj):
            check_keys(obj, ("position", "start", "time_limit", "slot"))
            raw, pos = position_of(obj)
            time_limit = self.time_limit_of(obj)
            start = request_option(obj, "start", 0, options.start, len(pos.played))
            settings = {"start": start, "time_limit": time_limit, "tt_mb": self.tt_mb}
            answer = await self.search_on_pool(request, slot_of(obj, request), JobKind.ANALYZE,
                                               raw, settings)
            report = dict(answer.result)        # the report as `atout analyze --json` writes it
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
        return await self.answer_json(request, work)

    async def analyze_stream(self, request: Request) -> Response:
        return await analyze_stream(self, request)

    def refuse(self, request: Request, error: Exception) -> Response:
        """A request refused, or failed before its answer began: the JSON error (a bug is
        said in one line, never a traceback)."""
        if isinstance(error, Busy):
            request.scope[LOG_NOTE]["reason"] = error.reason
            return Json({"error": "busy", "reason": error.reason}, 429, headers={"Retry-After": "1"})
        if isinstance(error, HttpError):
            if error.status >= 500 or error.status in (401, 408, 413):
                request.scope[LOG_NOTE]["reason"] = error.body["reason"]
            headers = {**(CHALLENGE if error.status == 401 else {}), **error.headers}
            if error.status == 503:
                headers["Retry-After"] = "1"
            return Json(error.body, error.status, headers=headers)
        request.scope[LOG_NOTE]["reason"] = f"{type(error).__name__}: {error}"
        return Json({"error": "internal", "reason": f"{type(error).__name__}: {error}"}, 500)

    async def advise(self, request: Request) -> Response:
        async def work(request, obj):
            check_keys(obj, ("position", "seat", "samples", "seed", "time_limit", "confidence",
                              "node_limit", "budget", "slot"))
            raw, pos = position_of(obj)
            time_limit = self.time_limit_of(obj)
            node_limit = request_option(obj, "node_limit", None, options.node_limit)
            # a budget when asked for ("budget": true, or a node limit): a time limit alone
            # stays the deadline it was before budgets, so that clients written then (the
            # viewer's seat panel: every card's mean) get the answer they read
            budget = request_option(obj, "budget", node_limit is not None, options.flag)
            slot = slot_of(obj, request)   # before the job: a coroutine made and then refused is never run
            samples = request_option(obj, "samples", DEFAULT_SAMPLES, options.samples)
            if samples > self.limits.max_samples:
                raise invalid("samples", f"at most {self.limits.max_samples} deals in one "
                                          f"advice (this server's --max-samples)")
            seat = request_option(obj, "seat", None, options.seat, pos.seats)
            try:    # refused before the job takes the slot: a refused request stops nothing
                check_advice(pos, seat=seat)
            except PositionError as e:
                raise invalid(e.field, e.reason) from None
            job = self._advice(raw, seat=seat, samples=samples,
                               seed=request_option(obj, "seed", None, options.seed),
                               confidence=request_option(obj, "confidence", DEFAULT_CONFIDENCE,
                                                  options.confidence),
                               time_limit=time_limit, node_limit=node_limit, budget=budget)
            answer = await self.search_on_pool(request, slot, "advise", raw, {}, job=job)
            result = answer.result.to_json()
            if answer.status == "limit":
                result["time_limit"] = time_limit
            return result
        return await self.answer_json(request, work)

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

    def time_limit_of(self, obj: dict) -> float:
        """Every search has one: the request's (at most the server's maximum: more is
        lowered to it), or the default."""
        asked = request_option(obj, "time_limit", options.SEARCH_TIME_LIMIT, options.time_limit)
        return min(asked, self.max_time_limit)

    # -- one search on the pool -----------------------------------------------------------

    @contextlib.asynccontextmanager
    async def held(self, search: asyncio.Future, slot: tuple[str, str] | None):
        """A request's ``search`` while the request lasts: in :attr:`running` (``drain``
        waits for it) and holding its tab's ``slot`` (an older search there is stopped, its
        request answered "replaced").  On the way out a search still running is stopped —
        the client went away, a newer request took the slot, the handler was cancelled —
        and both are let go."""
        self.running.add(search)
        if slot is not None:
            self.stop_older(slot)
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

    def stop_older(self, slot: tuple[str, str] | None) -> None:
        """A newer request took ``slot``: the search there, if one still runs, is stopped
        (its request answered "replaced")."""
        older = self.slots.pop(slot, None) if slot is not None else None
        if older is not None and not older.done():
            older.cancel()

    async def search_on_pool(self, request: Request, slot: tuple[str, str] | None, kind: str,
                             obj: dict, options: dict, job=None) -> Done:
        """The worker's answer; the search is stopped if the client goes away or a newer
        request takes its ``slot``.  ``job``: a coroutine answering as a worker does, run
        instead of one job on the pool (an advice: many jobs)."""
        options = {**options, "tt_mb": self.limits.tt_mb(options.get("tt_mb"), obj)}
        search = asyncio.ensure_future(job if job is not None else self.pool.run(kind, obj, options))
        left = asyncio.ensure_future(disconnected(request))
        async with self.held(search, slot):
            try:
                await asyncio.wait({search, left}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                left.cancel()
        if search.cancelled():
            if self.draining:
                raise HttpError(503, "unavailable", None, "the server is shutting down")
            if left.done() and not left.cancelled():
                raise gone()
            raise HttpError(409, "replaced", "slot", "a newer request took this slot")
        try:
            answer = search.result()
        except WorkerDied as e:        # lost twice with its search process: try again later
            raise HttpError(503, "unavailable", None, str(e)) from None
        if isinstance(answer, Failed):
            if answer.kind == "invalid":
                raise invalid(answer.field or "position", answer.reason)
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
