"""What every gRPC call passes, before its method runs and after it ends.

:class:`Gate` stands in for the server while the services register, and wraps each
handler so that, in this order and before anything costs the server:

1. while the server drains, a Solver call is refused UNAVAILABLE (retryable elsewhere);
2. with a token (``--token-file``), a call whose ``authorization`` metadata is not
   ``Bearer <token>`` (the scheme in any case, the token compared in constant time) is
   refused UNAUTHENTICATED — except the health service, which load balancers and
   orchestrators call without credentials;
3. a peer with its ``--max-calls-per-peer`` calls running is refused RESOURCE_EXHAUSTED;
4. only then is the request read and decoded — by a function that never raises: bytes
   that do not decode (a broken message, one nested past protobuf's recursion limit, a
   string that is not UTF-8) are refused INVALID_ARGUMENT, naming the request type, with
   a ``google.rpc.BadRequest`` on the field ``request``.

Steps 1-3 run before the request is even read: a handler taking a single request is
registered as one taking a stream of raw bytes, which gRPC hands over unread, so an
unauthenticated 8 MiB message costs the server one HTTP/2 window, not 8 MiB and a decode.

A method ends a call with a status by raising :class:`Refusal`; every call's outcome —
a Refusal, a cancellation, the deadline, a bug — is written as one log line
(:func:`.logs.outcome`: method, peer, quoted id, seconds, status, reason), never a
traceback.  :meth:`Gate.drain` refuses new Solver calls and waits for those running.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from .limits import Busy, PeerCalls
from .logs import label, outcome
from .security import bearer_ok

log = logging.getLogger("atout.server")

#: called without a token, not counted against a peer, not logged when they succeed
OPEN_SERVICES = ("grpc.health.v1.Health",)
#: the calls a drain refuses and waits for (health Watch streams never end by themselves)
DRAINED_SERVICES = ("atout.v1.Solver",)
#: a call cancelled this close to its deadline (or past it) is logged DEADLINE_EXCEEDED: the
#: client's own deadline cancels it before the server's copy runs out — by as long as a
#: loaded server took to read the call (the copy starts then)
DEADLINE_SLACK = 0.5


class Refusal(Exception):
    """A call ends with this status: ``code``, ``message``, field ``violations``."""

    def __init__(self, code: grpc.StatusCode, message: str, violations=()):
        super().__init__(message)
        self.code = code
        self.message = message
        self.violations = list(violations)

    def trailing_metadata(self):
        if not self.violations:
            return ()
        detail = any_pb2.Any()
        detail.Pack(error_details_pb2.BadRequest(field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field=f, description=d)
            for f, d in self.violations]))
        status = status_pb2.Status(code=self.code.value[0], message=self.message, details=[detail])
        return rpc_status.to_status(status).trailing_metadata


class BadMessage(Exception):
    """A request that did not decode as ``type_name``."""

    def __init__(self, type_name: str, error: BaseException):
        self.type_name = type_name
        self.reason = (str(error) or type(error).__name__)[:200]
        super().__init__(self.reason)

    def refusal(self) -> Refusal:
        message = f"not a valid {self.type_name} message: {self.reason}"
        return Refusal(grpc.StatusCode.INVALID_ARGUMENT, message, [("request", message)])


def _decoder(deserializer):
    """``deserializer`` made to raise only :class:`BadMessage` (None: the bytes as they are)."""
    if deserializer is None:
        return lambda data: data
    owner = getattr(deserializer, "__self__", None)
    type_name = getattr(getattr(owner, "DESCRIPTOR", None), "full_name", "request")

    def decode(data: bytes):
        try:
            return deserializer(data)
        except Exception as e:   # DecodeError, RecursionError, …: the caller's bytes
            raise BadMessage(type_name, e) from None
    return decode


def peer_host(context) -> str:
    """The caller's address without its port: ``ipv4:127.0.0.1:5000`` -> ``127.0.0.1``."""
    peer = context.peer() or "-"
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer


def request_ident(request) -> tuple[str, str | None]:
    """(id as the log shows it, more): a position's id (a table's deal as dealt's), or a
    batch's size."""
    position = getattr(request, "position", None)
    if getattr(request, "deal", None) is not None and request.HasField("deal"):
        position = request.deal
    if position is not None and hasattr(position, "WhichOneof"):
        which = position.WhichOneof("id")
        return label(None if which is None else getattr(position, which)), None
    positions = getattr(request, "positions", None)
    if positions is not None:
        return "-", f"positions={len(positions)}"
    return "-", None


class _Call:
    """One call as the log line sees it."""

    def __init__(self, service: str, name: str, context):
        self.name = name
        self.context = context
        self.open = service in OPEN_SERVICES
        self.counted = service in DRAINED_SERVICES
        self.started = time.perf_counter()
        remaining = context.time_remaining()
        self.deadline = None if remaining is None else time.monotonic() + remaining
        self.peer = peer_host(context)
        self.ident, self.more = "-", None
        self.status, self.reason = "OK", None

    def named(self, request) -> None:
        self.ident, self.more = request_ident(request)

    def log(self) -> None:
        if self.open and self.status == "OK":
            return          # health checks, every few seconds from each load balancer
        what = self.name if self.more is None else f"{self.name} {self.more}"
        outcome("gRPC", what, self.peer, self.ident, self.started, self.status, self.reason)


class Gate:
    """Stands in for ``server`` while services register, and wraps their handlers (see the
    module's text).  ``peers``: the calls each peer has running, shared with the HTTP API."""

    def __init__(self, server, token: bytes | None = None, peers: PeerCalls | None = None):
        self.server = server
        self.token = token
        self.peers = peers or PeerCalls(None)
        self.draining = False
        self.calls = 0
        self.idle = asyncio.Event()
        self.idle.set()

    # the two calls generated add_*_to_server functions make
    def add_generic_rpc_handlers(self, handlers) -> None:
        pass   # the same handlers come to add_registered_method_handlers, wrapped there

    def add_registered_method_handlers(self, service: str, handlers: dict) -> None:
        wrapped = {name: self._wrap(service, name, h) for name, h in handlers.items()}
        self.server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service,
                                                                                  wrapped),))
        self.server.add_registered_method_handlers(service, wrapped)

    async def drain(self, grace: float) -> bool:
        """Refuse new Solver calls (UNAVAILABLE) and wait up to ``grace`` s for the running
        ones; True if they all finished."""
        self.draining = True
        try:
            await asyncio.wait_for(self.idle.wait(), grace)
        except asyncio.TimeoutError:
            return False
        return True

    # -- one call -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _admitted(self, call: _Call):
        """Steps 1-3 of the module's text; the peer's place held while the call runs."""
        if call.counted:
            if self.draining:
                raise Refusal(grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
            self.calls += 1
            self.idle.clear()
        try:
            if not call.open and self.token is not None and not self._token_ok(call.context):
                raise Refusal(grpc.StatusCode.UNAUTHENTICATED,
                              "a bearer token is required (authorization metadata)")
            if call.open:
                yield
            else:
                try:
                    place = self.peers.call(call.peer)
                    place.__enter__()
                except Busy as e:
                    raise Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, e.reason) from None
                try:
                    yield
                finally:
                    place.__exit__(None, None, None)
        finally:
            if call.counted:
                self.calls -= 1
                if not self.calls:
                    self.idle.set()

    async def _ended(self, call: _Call, error: BaseException) -> None:
        """A call that raised ``error``: its status noted, and the call aborted with it (this
        re-raises)."""
        context = call.context
        if isinstance(error, BadMessage):
            error = error.refusal()
        if isinstance(error, Refusal):
            call.status, call.reason = error.code.name, error.message
            await context.abort(error.code, error.message, error.trailing_metadata())
        if isinstance(error, grpc.aio.AbortError):      # the method aborted by itself
            code = context.code()
            call.status = code.name if isinstance(code, grpc.StatusCode) else "ABORTED"
            call.reason = context.details() or None
            raise error
        if isinstance(error, (asyncio.CancelledError, GeneratorExit)):
            late = call.deadline is not None and \
                time.monotonic() >= call.deadline - DEADLINE_SLACK
            call.status = "DEADLINE_EXCEEDED" if late else "CANCELLED"
            raise error
        if not isinstance(error, Exception):
            call.status = type(error).__name__
            raise error
        call.status, call.reason = "INTERNAL", f"{type(error).__name__}: {error}"
        await context.abort(grpc.StatusCode.INTERNAL, call.reason)

    def _wrap(self, service: str, name: str, handler):
        call_of = lambda context: _Call(service, name, context)     # noqa: E731
        decode = _decoder(handler.request_deserializer)

        async def first(requests, call):
            """The single request of a unary-request call, read and decoded now."""
            async for data in requests:
                request = decode(data)
                call.named(request)
                return request
            raise Refusal(grpc.StatusCode.INVALID_ARGUMENT, "no request message",
                          [("request", "no request message")])

        async def decoded(requests, call):
            async for data in requests:
                yield decode(data)

        original = (handler.unary_unary or handler.unary_stream or handler.stream_unary
                    or handler.stream_stream)
        if not handler.request_streaming:
            def get_request(requests, call):
                return first(requests, call)
        else:
            async def get_request(requests, call):
                return decoded(requests, call)

        if inspect.isasyncgenfunction(original):
            async def behavior(requests, context):
                call = call_of(context)
                try:
                    with self._admitted(call):
                        request = await get_request(requests, call)
                        async for reply in original(request, context):
                            yield reply
                except GeneratorExit:
                    call.status = "CANCELLED"
                    raise
                except BaseException as e:
                    await self._ended(call, e)
                finally:
                    call.log()
        else:
            async def behavior(requests, context):
                call = call_of(context)
                try:
                    with self._admitted(call):
                        request = await get_request(requests, call)
                        reply = await original(request, context)
                    code = context.code()
                    if isinstance(code, grpc.StatusCode) and code != grpc.StatusCode.OK:
                        call.status, call.reason = code.name, context.details() or None
                    return reply
                except BaseException as e:
                    await self._ended(call, e)
                finally:
                    call.log()

        # every request arrives as a stream of unread bytes: see the module's text
        make = (grpc.stream_stream_rpc_method_handler if handler.response_streaming
                else grpc.stream_unary_rpc_method_handler)
        return make(behavior, request_deserializer=None,
                    response_serializer=handler.response_serializer)

    def _token_ok(self, context) -> bool:
        sent = b""
        for key, value in context.invocation_metadata() or ():
            if key == "authorization":
                sent = value.encode("utf-8", "replace") if isinstance(value, str) else value
                break
        return bearer_ok(sent, self.token)
