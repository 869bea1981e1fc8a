"""Every HTTP request in one log line: the outermost layer of the server's ASGI app."""

from __future__ import annotations

import asyncio
import logging
import time

from .clients import CLIENT, CLIENT_COOKIE, client_from
from .http_io import LOG_NOTE
from .logs import outcome


class Logged:
    """The outermost ASGI layer: every request's outcome in one log line (:func:`.logs.outcome`:
    verb and path, peer, the position's id, seconds, status — a client gone is 499), and an
    error that escaped everything else (Starlette has answered it with :func:`internal_error`
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
        scope[CLIENT] = client, new = client_from(scope)
        answer = {"status": 499, "ended": False}    # nothing sent: the client went away first

        async def sending(message):
            if message["type"] == "http.response.body" and not message.get("more_body"):
                answer["ended"] = True
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                if new:
                    # (Secure over TLS: the browser then never sends it in the clear)
                    secure = "; Secure" if scope.get("scheme") == "https" else ""
                    message = {**message, "headers": [*message.get("headers", ()), (
                        b"set-cookie", f"{CLIENT_COOKIE}={client}; Path=/; HttpOnly; "
                        f"SameSite=Strict{secure}".encode())]}
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
