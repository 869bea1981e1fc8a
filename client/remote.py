"""The gRPC client: the local solver API, answered by an ``atout serve`` somewhere else.

>>> from atout.client import Client                                    # doctest: +SKIP
>>> with Client("localhost:50051") as solver:                          # doctest: +SKIP
...     r = solver.solve(position_obj, all_cards=True, timeout=10)     # a SolveResult
...     report = solver.analyze(played_deal, timeout=60)               # atout.analyze's dict
...     for index, r in solver.solve_batch(positions, timeout=600):    # as each finishes
...         ...
...     advice = solver.advise(position_obj, samples=100, seed=7)      # atout advise's line
...     for told in solver.table(deal_obj, time_limit=60):            # a position's, too
...         ...

``timeout`` is the call's gRPC deadline in seconds (None: no deadline).  A call answered
UNAVAILABLE is made again by gRPC itself (:data:`RETRY_POLICY`).  A call the
service refuses raises :class:`ServiceError` (``code``: the grpc.StatusCode,
``violations``: [(field, description)]); a position the server refuses raises its
subclass :class:`InvalidPositionError`, which is also an :class:`atout.PositionError`
naming the field — like the local API.  Each position is first checked here by the
same rules (a plain :class:`atout.PositionError`, no call made).
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from atout import options
from atout.errors import PositionError
from atout.position import Position, parse_position
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from atout.proto.v1 import solver_pb2_grpc as pb_grpc

#: the same bound as the server's (atout.server.app.MAX_MESSAGE_BYTES)
MAX_MESSAGE_BYTES = 8 << 20

#: gRPC's own retries (its service config): a call answered UNAVAILABLE — a server draining,
#: a search lost with its search process, none running for a moment — is made again, up to
#: 5 times in all, after 0.2, 0.4, 0.8, 1.6 s (with jitter).  Every method is a pure function
#: of its request, so a retry is safe; a stream is retried only before its first answer.
RETRY_POLICY = json.dumps({"methodConfig": [{
    "name": [{"service": "atout.v1.Solver"}],
    "retryPolicy": {"maxAttempts": 5, "initialBackoff": "0.2s", "maxBackoff": "2s",
                    "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]})


class ServiceError(Exception):
    """A call that did not succeed: ``code`` (grpc.StatusCode), ``details`` (the message),
    ``violations`` ([(field, description)] from a google.rpc.BadRequest)."""

    def __init__(self, code: grpc.StatusCode, details: str, violations=()):
        Exception.__init__(self, f"{code.name}: {details}")
        self.code = code
        self.details = details
        self.violations = list(violations)


class InvalidPositionError(ServiceError, PositionError):
    """INVALID_ARGUMENT: ``field``/``reason`` are the first violation's."""

    def __init__(self, code: grpc.StatusCode, details: str, violations=()):
        ServiceError.__init__(self, code, details, violations)
        self.field, self.reason = self.violations[0] if self.violations else ("request", details)


def _error(e: grpc.RpcError) -> ServiceError:
    code, details = e.code(), e.details() or ""
    violations = []
    status = rpc_status.from_call(e)
    if status is not None:
        for detail in status.details:
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                violations += [(v.field, v.description) for v in bad.field_violations]
    cls = InvalidPositionError if code == grpc.StatusCode.INVALID_ARGUMENT else ServiceError
    return cls(code, details, violations)


def _limits(request, time_limit, node_limit) -> None:
    """The limits through atout.options' checks (PositionError naming the option)."""
    if time_limit is not None:
        request.time_limit = options.time_limit(time_limit)
    if node_limit is not None:
        request.node_limit = options.node_limit(node_limit)


def _checked(position, prefix: str = ""):
    """(message, Position): the position checked here first, by the rules the server applies
    (atout.position.parse_position), so that a refused one gets the command line's verdict,
    field and reason — also for what a message would carry changed (a seat 1.0 becomes 1 in
    a google.protobuf.Struct) or not at all (a lone surrogate, a contract nested past
    protobuf's limit) — and costs no call."""
    try:
        pos = position if isinstance(position, Position) else parse_position(position)
    except PositionError as e:
        raise PositionError(prefix + e.field, e.reason) from None
    except RecursionError:
        raise PositionError(prefix + "position", "nested too deeply") from None
    return convert.position_message(pos.to_json()), pos


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ValueError(f"cannot read {what} {path}: {e.strerror}") from None


#: what every PEM certificate file holds; gRPC would only fail the connection (UNAVAILABLE)
PEM_CERTIFICATE = b"-----BEGIN CERTIFICATE-----"


def _read_certificate(path: str, what: str) -> bytes:
    data = _read(path, what)
    if PEM_CERTIFICATE not in data:
        raise ValueError(f"{what} {path} is not a PEM certificate "
                         f"(no {PEM_CERTIFICATE.decode()} line)")
    return data


def _advice_options(request, samples, seed, time_limit, confidence=None, node_limit=None,
                    budget=None) -> None:
    """An advice's options through atout.options' checks (a PositionError names the field)."""
    if samples is not None:
        request.samples = options.samples(samples)
    if confidence is not None:
        request.confidence = options.confidence(confidence)
    if seed is not None:
        request.seed = options.seed(seed)
    if node_limit is not None:
        request.node_limit = options.node_limit(node_limit)
    if budget is not None:
        request.budget = options.flag(budget, "budget")
    _limits(request, time_limit, None)


class Client:
    """A connection to an ``atout serve`` at ``target`` ("host:port").

    ``tls_ca``: a PEM file of the CA that signed the server's certificate (``tls=True``: the
    system's CAs) — the channel is then TLS; ``client_cert``/``client_key``: this client's
    PEM certificate and key, for a server that requires them (mutual TLS); ``token``: sent
    as ``authorization: Bearer <token>`` with every call."""

    def __init__(self, target: str, *, tls_ca: str | None = None, tls: bool = False,
                 client_cert: str | None = None, client_key: str | None = None,
                 token: str | None = None):
        self.target = target
        channel_options = [
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            ("grpc.service_config", RETRY_POLICY),
        ]
        if (client_cert is None) != (client_key is None):
            raise ValueError("client_cert and client_key go together")
        if tls or tls_ca is not None or client_cert is not None:
            credentials = grpc.ssl_channel_credentials(
                root_certificates=_read_certificate(tls_ca, "CA file") if tls_ca else None,
                private_key=_read(client_key, "client key") if client_key else None,
                certificate_chain=(_read_certificate(client_cert, "client certificate")
                                   if client_cert else None))
            self.channel = grpc.secure_channel(target, credentials, options=channel_options)
        else:
            self.channel = grpc.insecure_channel(target, options=channel_options)
        self.metadata = (("authorization", f"Bearer {token}"),) if token else None
        self.stub = pb_grpc.SolverStub(self.channel)

    def solve(self, position, *, all_cards: bool = False, time_limit: float | None = None,
              node_limit: int | None = None, timeout: float | None = None):
        """As :func:`atout.solver.solve`: a :class:`~atout.solver.SolveResult`."""
        request = pb.SolveRequest(position=_checked(position)[0], all_cards=options.flag(
            all_cards, "all_cards"))
        _limits(request, time_limit, node_limit)
        reply = self._call(self.stub.Solve, request, timeout)
        return convert.solve_result(reply)

    def analyze(self, position, *, start: int = 0, time_limit: float | None = None,
                timeout: float | None = None) -> dict:
        """As ``atout.analyze``: the report dict, every card judged (a ``time_limit`` that
        runs out leaves some bounded, with ``stopped_by``), as locally."""
        message, pos = _checked(position)
        request = pb.AnalyzeRequest(position=message, start=options.start(start, len(pos.played)))
        _limits(request, time_limit, None)
        reply = self._call(self.stub.Analyze, request, timeout)
        return convert.analysis_object(reply)

    def analyze_stream(self, position, *, start: int = 0, time_limit: float | None = None,
                       session: str | None = None,
                       timeout: float | None = None) -> Iterator[dict]:
        """The analysis of ``analyze`` told as it is found: dicts ``{"session", "resumed"}``
        first, then ``{"plays": [the plays whose verdict changed], "seats", "start_value",
        "start_bounds", "made"}`` as verdicts change (applied in order, they end with exactly
        the report's plays and totals), and last ``{"report": the report, "session"}``.
        ``session``: the session a review of the same deal and start ended with — the
        server goes on with that analysis ("keep going")."""
        message, pos = _checked(position)
        request = pb.AnalyzeRequest(position=message, start=options.start(start, len(pos.played)),
                                    session=session or "")
        _limits(request, time_limit, None)
        for reply in self._stream(self.stub.AnalyzeStream, request, timeout):
            if reply.final:
                yield {"report": convert.analysis_object(reply.analysis), "session": reply.session}
            elif reply.session:
                yield {"session": reply.session, "resumed": reply.resumed}
            else:
                part = convert.analysis_object(reply.analysis)
                yield {k: part.get(k) for k in ("plays", "seats", "start_value", "start_bounds",
                                                 "made")}

    def solve_batch(self, positions: Iterable[Any], *, all_cards: bool = False,
                    time_limit: float | None = None, node_limit: int | None = None,
                    timeout: float | None = None) -> Iterator[tuple[int, Any]]:
        """(index, SolveResult) for every position, in the order they finish.

        The whole batch is one call (``timeout`` covers all of it) and is refused
        whole if any position is bad (fields named ``positions[i].…``)."""
        request = pb.SolveBatchRequest(all_cards=options.flag(all_cards, "all_cards"))
        for i, p in enumerate(positions):
            request.positions.append(_checked(p, f"positions[{i}].")[0])
        _limits(request, time_limit, node_limit)
        for reply in self._stream(self.stub.SolveBatch, request, timeout):
            yield reply.index, convert.solve_result(reply.result)

    def advise(self, position, *, seat: int | None = None, samples: int | None = None,
               seed: int | None = None, time_limit: float | None = None,
               confidence: float | None = None, timeout: float | None = None,
               node_limit: int | None = None, budget: bool | None = None) -> dict:
        """As ``atout advise``: the advice line as a dict (``Advice.to_json()``);
        ``confidence``: as ``--confidence`` (None: the server's default, 0.95);
        ``time_limit``/``node_limit``: a budget (``budget``: False for a plain deadline)."""
        request = pb.AdviseRequest(position=_checked(position)[0])
        if seat is not None:
            request.seat = seat
        _advice_options(request, samples, seed, time_limit, confidence, node_limit, budget)
        reply = self._call(self.stub.Advise, request, timeout)
        return convert.advice_object(reply)

    def advise_batch(self, positions: Iterable[Any], *, samples: int | None = None,
                     seed: int | None = None, time_limit: float | None = None,
                     confidence: float | None = None,
                     timeout: float | None = None, node_limit: int | None = None,
                     budget: bool | None = None) -> Iterator[tuple[int, dict]]:
        """(index, advice dict) for every position (each for its seat to play), in the
        order they finish; one call, refused whole if any position is bad."""
        request = pb.AdviseBatchRequest()
        for i, p in enumerate(positions):
            request.positions.append(_checked(p, f"positions[{i}].")[0])
        _advice_options(request, samples, seed, time_limit, confidence, node_limit, budget)
        for reply in self._stream(self.stub.AdviseBatch, request, timeout):
            yield reply.index, convert.advice_object(reply.advice)

    def table(self, position, *, time_limit: float | None = None, contracts=None,
              values: bool = False, timeout: float | None = None) -> Iterator[dict]:
        """The contract table of ``position``'s deal as dealt (``atout table``) — or of a
        deal as dealt given by itself (docs/format.md's object: no contract, its dog, open
        cards or talon beside the hands) — told as it is proven: ``{"cells": [...]}``
        first with every cell in the table's order, then with the cells that changed as
        they change, and last ``{"table": the whole table}`` (the object of ``atout
        table``)."""
        from atout.contract_table import table_spec
        from atout.dealt import dealt, deal_json, is_deal, parse_deal
        from atout.proto.table import cell_object, table_object
        if is_deal(position):
            d = parse_deal(position)            # refused here as locally, no call made
            request = pb.TableRequest(deal=convert.deal_message(deal_json(d, position.get("id"))))
        else:
            message, pos = _checked(position)
            d = dealt(pos)
            request = pb.TableRequest(position=message)
        # a contract the table has not: refused here (the écarts are the server's to count)
        table_spec(d, contracts, count_ecarts=False)
        request.contracts.extend(contracts or ())
        request.values = options.flag(values, "values")
        _limits(request, time_limit, None)
        for reply in self._stream(self.stub.Table, request, timeout):
            if reply.final:
                yield {"table": table_object(reply.table)}
            else:
                yield {"cells": [cell_object(c) for c in reply.cells]}

    def _call(self, method, request, timeout):
        """One unary call's reply (a refusal: its ServiceError)."""
        try:
            return method(request, timeout=timeout, metadata=self.metadata)
        except grpc.RpcError as e:
            raise _error(e) from None

    def _stream(self, method, request, timeout):
        """A streaming call's replies as they come (a refusal: its ServiceError)."""
        stream = method(request, timeout=timeout, metadata=self.metadata)
        try:
            yield from stream
        except grpc.RpcError as e:
            raise _error(e) from None
        finally:
            stream.cancel()  # a caller that stops reading early stops the searches too

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
