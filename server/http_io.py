"""Reading an HTTP request and writing its JSON answer: the parts every route shares.

A request is a JSON object read within the operator's ``--body-timeout`` and at most
:data:`MAX_BODY_BYTES` long; its fields are checked by :mod:`atout.options`, the position
by the rules.  Every refusal is an :class:`HttpError` that names the field, answered in
JSON (never a traceback)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from atout.errors import PositionError
from atout.jsonl import decode_json
from atout.position import parse_position
from atout.printable import shown

#: a position is a few kB; anything near this is not one
MAX_BODY_BYTES = 256 << 10
#: a body over MAX_BODY_BYTES is still read (and dropped) up to this, so that its client
#: reads the 413 instead of a connection reset; past it the connection is closed
DISCARD_BYTES = 4 << 20
#: a stream's answer (a review, a contract table): JSON Lines
NDJSON = "application/x-ndjson"


#: where a route notes what the request's log line names (the position's id)
LOG_NOTE = "atout.log"


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


def invalid(field: str, reason: str) -> HttpError:
    return HttpError(422, "invalid", field, reason)


def gone() -> HttpError:
    """The client closed its connection: logged as 499 (nginx's "client closed request")."""
    return HttpError(499, "gone", None, "the client went away")


def unauthenticated() -> HttpError:
    return HttpError(401, "unauthenticated", "Authorization",
                     "a bearer token is required (Authorization: Bearer <token>)")


CHALLENGE = {"WWW-Authenticate": 'Bearer realm="atout"'}


# -- reading requests -------------------------------------------------------------------------

async def read_json(request: Request, seconds: float) -> dict:
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
        raise gone() from None
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


def check_keys(obj: dict, allowed: tuple[str, ...]) -> None:
    for key in obj:
        if key not in allowed:
            raise invalid(shown(key), f"unknown field (expected: {', '.join(allowed)})")


def position_of(obj: dict):
    """The request's ``position``, validated by the rules: (object, Position)."""
    if "position" not in obj:
        raise invalid("position", "is missing")
    raw = obj["position"]
    try:
        return raw, parse_position(raw)
    except PositionError as e:
        raise invalid(e.field, e.reason) from None
    except RecursionError:
        raise invalid("contract", "nested too deeply") from None


def request_option(obj: dict, key: str, default, check, *args):
    """A request option through its atout.options check; absent or null: the default
    (null means "not given" for every field, as in a position)."""
    if obj.get(key) is None:
        return default
    try:
        return check(obj[key], *args, key)
    except PositionError as e:
        raise invalid(e.field, e.reason) from None


async def disconnected(request: Request) -> None:
    """Returns when the client has gone away (the body has been read already)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def internal_error(request: Request, error: Exception) -> Response:
    """Starlette's answer to an error no route caught: JSON, as every other answer."""
    return Json({"error": "internal", "reason": type(error).__name__}, 500)


async def not_routed(request: Request, error: HTTPException) -> Response:
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


def line(obj: dict) -> str:
    """One line of a JSON Lines stream."""
    return json.dumps(obj) + "\n"
