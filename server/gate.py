"""What every gRPC call passes before its method runs: the token, and a request that decodes.

grpc decodes a request before the method sees it, and bytes that do not decode (a broken
message, one nested past protobuf's recursion limit, a string that is not UTF-8) would be
answered UNKNOWN with a traceback in the log.  :func:`register` adds a service's handlers
to the server through :class:`Gate`, which wraps each of them:

- the request is decoded by a function that never raises: what does not decode becomes a
  :class:`BadMessage`, answered INVALID_ARGUMENT (naming the request type, with a
  ``google.rpc.BadRequest`` on the field ``request``) and one log line;
- with a token (``--token-file``), a call whose ``authorization`` metadata is not
  ``Bearer <token>`` (the scheme in any case, the token compared in constant time) is
  answered UNAUTHENTICATED and one log line, before its request is looked at — except
  the health service, which load balancers and orchestrators call without credentials.
"""

from __future__ import annotations

import inspect
import logging

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from atout.printable import printable

from .security import bearer_ok

log = logging.getLogger("atout.server")

OPEN_SERVICES = ("grpc.health.v1.Health",)


class BadMessage:
    """A request that did not decode as ``type_name``."""

    def __init__(self, type_name: str, error: BaseException):
        self.type_name = type_name
        self.reason = printable(str(error) or type(error).__name__)[:200]


def _safe(deserializer):
    if deserializer is None:
        return None
    owner = getattr(deserializer, "__self__", None)
    type_name = getattr(getattr(owner, "DESCRIPTOR", None), "full_name", "request")

    def decode(data: bytes):
        try:
            return deserializer(data)
        except Exception as e:   # DecodeError, RecursionError, …: the caller's bytes
            return BadMessage(type_name, e)
    return decode


def refusal_metadata(code: grpc.StatusCode, message: str, field: str):
    """Trailing metadata carrying a google.rpc.BadRequest naming ``field``."""
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(field_violations=[
        error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]))
    status = status_pb2.Status(code=code.value[0], message=message, details=[detail])
    return rpc_status.to_status(status).trailing_metadata


def peer_host(context) -> str:
    """The caller's address without its port: ``ipv4:127.0.0.1:5000`` -> ``127.0.0.1``."""
    peer = context.peer() or "-"
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer


class Gate:
    """Stands in for the server while services register, and wraps their handlers."""

    def __init__(self, server, token: bytes | None = None):
        self.server = server
        self.token = token

    # the two calls generated add_*_to_server functions make
    def add_generic_rpc_handlers(self, handlers) -> None:
        pass   # the same handlers come to add_registered_method_handlers, wrapped there

    def add_registered_method_handlers(self, service: str, handlers: dict) -> None:
        wrapped = {name: self._wrap(service, name, h) for name, h in handlers.items()}
        self.server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service,
                                                                                  wrapped),))
        self.server.add_registered_method_handlers(service, wrapped)

    # -- one handler ----------------------------------------------------------------------------

    def _wrap(self, service: str, name: str, handler):
        check_token = self.token is not None and service not in OPEN_SERVICES

        async def admit(request, context) -> None:
            """Aborts the call unless its token is right and its request decoded."""
            if check_token and not self._token_ok(context):
                log.info("%s peer=%s UNAUTHENTICATED", name, printable(peer_host(context)))
                await context.abort(grpc.StatusCode.UNAUTHENTICATED,
                                    "a bearer token is required (authorization metadata)")
            if isinstance(request, BadMessage):
                message = f"not a valid {request.type_name} message: {request.reason}"
                log.info("%s peer=%s INVALID_ARGUMENT (%s)", name,
                         printable(peer_host(context)), message)
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, message,
                                    refusal_metadata(grpc.StatusCode.INVALID_ARGUMENT, message,
                                                     "request"))

        if handler.request_streaming:
            behavior = handler.stream_stream or handler.stream_unary

            async def requests(iterator, context):
                async for request in iterator:
                    await admit(request, context)
                    yield request
            original = behavior
            if inspect.isasyncgenfunction(original):
                async def behavior(iterator, context):
                    if check_token and not self._token_ok(context):
                        await admit(None, context)
                    async for reply in original(requests(iterator, context), context):
                        yield reply
            else:
                async def behavior(iterator, context):
                    if check_token and not self._token_ok(context):
                        await admit(None, context)
                    return await original(requests(iterator, context), context)
        else:
            original = handler.unary_unary or handler.unary_stream
            if inspect.isasyncgenfunction(original):
                async def behavior(request, context):
                    await admit(request, context)
                    async for reply in original(request, context):
                        yield reply
            else:
                async def behavior(request, context):
                    await admit(request, context)
                    return await original(request, context)

        kinds = {(False, False): grpc.unary_unary_rpc_method_handler,
                 (False, True): grpc.unary_stream_rpc_method_handler,
                 (True, False): grpc.stream_unary_rpc_method_handler,
                 (True, True): grpc.stream_stream_rpc_method_handler}
        make = kinds[(handler.request_streaming, handler.response_streaming)]
        return make(behavior, request_deserializer=_safe(handler.request_deserializer),
                    response_serializer=handler.response_serializer)

    def _token_ok(self, context) -> bool:
        sent = b""
        for key, value in context.invocation_metadata() or ():
            if key == "authorization":
                sent = value.encode("utf-8", "replace") if isinstance(value, str) else value
                break
        return bearer_ok(sent, self.token)
