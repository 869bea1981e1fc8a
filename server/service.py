"""The ``atout.v1.Solver`` service: validates requests, runs searches on the pool, maps outcomes
to gRPC status codes.

- a refused position: INVALID_ARGUMENT with a ``google.rpc.BadRequest`` naming the field;
- a search stopped by the caller's own ``time_limit``/``node_limit``: OK, status LIMIT;
- by the call's deadline: DEADLINE_EXCEEDED (the remaining deadline is handed to the
  search as its time limit, so the worker stops by itself; a cancelled call also tells
  the worker to stop at once).
"""

from __future__ import annotations

import asyncio
import logging
import time

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from atout import options
from atout.errors import PositionError
from atout.position import parse_position
from atout.printable import printable
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from atout.proto.v1 import solver_pb2_grpc as pb_grpc
from atout.solver.advise import DEFAULT_SAMPLES

from .advice import AdviceFailed, advise_on_pool
from .gate import peer_host
from .limits import Busy, Limits, PeerCalls
from .pool import SearchPool, WorkerDied

log = logging.getLogger("atout.server")

#: time kept back from a deadline so a stopped search can still answer before it
DEADLINE_MARGIN = 0.02


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


def _invalid(violations) -> Refusal:
    field, reason = violations[0]
    more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
    return Refusal(grpc.StatusCode.INVALID_ARGUMENT, f"{field}: {reason}{more}", violations)


class _Call:
    """Times a call and logs one line for it: method, id, seconds, status."""

    def __init__(self, method: str, label):
        self.method, self.label = method, label
        self.started = time.perf_counter()
        self.status = "OK"
        self.slot = None        # its place among its peer's running calls

    def done(self) -> None:
        log.info("%s id=%s %.3fs %s", self.method, self.label,
                 time.perf_counter() - self.started, self.status)


class SolverService(pb_grpc.SolverServicer):
    def __init__(self, pool: SearchPool, tt_mb: int | None = None, limits: Limits | None = None,
                 peers: PeerCalls | None = None):
        self.pool = pool
        self.tt_mb = tt_mb
        self.limits = limits or Limits()
        self.peers = peers or PeerCalls(self.limits.max_calls_per_peer)
        self.draining = False
        self.calls = 0
        self.idle = asyncio.Event()
        self.idle.set()

    def _begin(self, method: str, label, context) -> _Call:
        self.calls += 1
        self.idle.clear()
        call = _Call(method, label)
        if self.draining:
            call.status = "UNAVAILABLE"
            self._end(call)
            raise Refusal(grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
        slot = self.peers.call(peer_host(context))
        try:
            slot.__enter__()
        except Busy as e:
            call.status = "RESOURCE_EXHAUSTED"
            self._end(call)
            raise Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, e.reason) from None
        call.slot = slot
        return call

    def _end(self, call: _Call) -> None:
        if call.slot is not None:
            call.slot.__exit__(None, None, None)
        call.done()
        self.calls -= 1
        if not self.calls:
            self.idle.set()

    async def drain(self, grace: float) -> bool:
        """Refuse new calls (UNAVAILABLE) and wait up to ``grace`` s for the running ones;
        True if they all finished."""
        self.draining = True
        try:
            await asyncio.wait_for(self.idle.wait(), grace)
        except asyncio.TimeoutError:
            return False
        return True

    # -- the methods ----------------------------------------------------------------------------

    async def _unary(self, method: str, request, context, answer):
        """One unary call: logged, and any failure turned into its gRPC status."""
        call = None
        try:
            call = self._begin(method, _label(request.position), context)
            return await answer(_position(request.position, ""))
        except BaseException as e:
            await _end(call, context, e)
        finally:
            if call is not None:
                self._end(call)

    async def Solve(self, request: pb.SolveRequest, context) -> pb.SolveResult:
        async def answer(obj):
            _check_limits(request)
            _, _, data = await self._search(context, "solve", obj, request)
            return pb.SolveResult.FromString(data)
        return await self._unary("Solve", request, context, answer)

    async def Analyze(self, request: pb.AnalyzeRequest, context) -> pb.Analysis:
        async def answer(obj):
            _check_limits(request)
            try:
                options.start(request.start, len(obj["played"]))
            except PositionError as e:
                raise _invalid([(e.field, e.reason)]) from None
            _, _, data = await self._search(context, "analyze", obj, request)
            return pb.Analysis.FromString(data)
        return await self._unary("Analyze", request, context, answer)

    async def SolveBatch(self, request: pb.SolveBatchRequest, context):
        # at most one search per worker from one batch: other calls get their turn
        turns = asyncio.Semaphore(self.pool.size)

        async def one(index: int, obj: dict):
            async with turns:
                _, _, data = await self._search(context, "solve", obj, request)
            reply = pb.SolveBatchResult(index=index)
            reply.result.ParseFromString(data)
            return reply
        async for reply in self._stream("SolveBatch", request, context, one):
            yield reply

    async def Advise(self, request: pb.AdviseRequest, context) -> pb.Advice:
        async def answer(obj):
            seat = request.seat if request.HasField("seat") else None
            advice = await self._advise(context, obj, request, seat, "")
            return convert.advice_message(advice.to_json())
        return await self._unary("Advise", request, context, answer)

    async def AdviseBatch(self, request: pb.AdviseBatchRequest, context):
        # at most one draw per worker from the whole batch: other calls get their turn
        turns = asyncio.Semaphore(self.pool.size)

        async def one(index: int, obj: dict):
            advice = await self._advise(context, obj, request, None, f"positions[{index}].", turns)
            reply = pb.AdviseBatchResult(index=index)
            reply.advice.CopyFrom(convert.advice_message(advice.to_json()))
            return reply
        async for reply in self._stream("AdviseBatch", request, context, one):
            yield reply

    async def _stream(self, method: str, request, context, one):
        """A streaming batch call: the positions checked, then ``one(index, position)``'s
        replies in the order they are ready; logged, and any failure turned into its gRPC
        status (the searches still under way are cancelled)."""
        call = None
        tasks: list[asyncio.Task] = []
        try:
            call = self._begin(method, f"{len(request.positions)}-positions", context)
            _check_positions(self.limits, request)
            _check_limits(request)
            loop = asyncio.get_running_loop()
            objs, violations = await loop.run_in_executor(None, _positions, request.positions)
            if violations:
                raise _invalid(violations)
            tasks = [asyncio.ensure_future(one(i, obj)) for i, obj in enumerate(objs)]
            for finished in asyncio.as_completed(tasks):
                yield await finished
        except BaseException as e:
            await _end(call, context, e)
        finally:
            for t in tasks:
                t.cancel()
            if tasks:
                await asyncio.gather(*tasks, return_exceptions=True)
            if call is not None:
                self._end(call)

    async def _advise(self, context, obj: dict, request, seat, prefix: str, turns=None):
        """The advice for ``obj`` within the call's deadline (its draws on the pool)."""
        _check_limits(request)
        time_limit, by_deadline = self._time_limit(context, request)
        seed = request.seed if request.HasField("seed") else None
        try:
            advice = await advise_on_pool(self.pool, obj, seat=seat,
                                          samples=request.samples or DEFAULT_SAMPLES, seed=seed,
                                          time_limit=time_limit,
                                          tt_mb=self.limits.tt_mb(self.tt_mb, obj), turns=turns)
        except PositionError as e:
            raise _invalid([(prefix + e.field, e.reason)]) from None
        except WorkerDied as e:
            raise Refusal(grpc.StatusCode.INTERNAL, str(e)) from None
        except Busy as e:
            raise Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, e.reason) from None
        except AdviceFailed as e:
            raise Refusal(grpc.StatusCode.INTERNAL, e.reason) from None
        if advice.status == "limit" and by_deadline:
            raise Refusal(grpc.StatusCode.DEADLINE_EXCEEDED,
                          "the deadline ran out before the advice was complete")
        return advice

    def _time_limit(self, context, request) -> tuple[float | None, bool]:
        """(seconds, whether the call's deadline set them): the time limit asked for, within
        the server's limits, cut to the deadline less a margin for the answer's way back."""
        asked = self.limits.time_limit(request.time_limit or None)
        remaining = context.time_remaining()
        if remaining is None:
            return asked, False
        budget = remaining - DEADLINE_MARGIN
        if budget <= 0:
            raise Refusal(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline ran out")
        if asked is None or budget < asked:
            return budget, True
        return asked, False

    # -- one search on the pool ----------------------------------------------------------------

    async def _search(self, context, kind: str, obj: dict, request) -> tuple:
        """(status, nodes, message bytes) of one search within the call's deadline."""
        node_limit = getattr(request, "node_limit", 0) or None
        time_limit, by_deadline = self._time_limit(context, request)
        tt_mb = self.limits.tt_mb(self.tt_mb, obj)
        if kind == "solve":
            settings = {"all_cards": request.all_cards, "time_limit": time_limit,
                        "node_limit": node_limit, "tt_mb": tt_mb}
        else:
            settings = {"start": request.start, "time_limit": time_limit, "tt_mb": tt_mb}
        try:
            answer = await self.pool.run(kind, obj, settings)
        except WorkerDied as e:
            raise Refusal(grpc.StatusCode.INTERNAL, str(e)) from None
        except Busy as e:
            raise Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, e.reason) from None
        if answer[0] == "failed":
            _, _, what, field, reason = answer
            if what == "invalid":
                raise _invalid([(field or "request", reason)])
            if what == "unimplemented":
                raise Refusal(grpc.StatusCode.UNIMPLEMENTED, reason)
            raise Refusal(grpc.StatusCode.INTERNAL, reason)
        _, _, status, nodes, data = answer
        if status == "limit" and by_deadline and not (node_limit and nodes >= node_limit):
            raise Refusal(grpc.StatusCode.DEADLINE_EXCEEDED,
                          "the deadline ran out before the search finished")
        return status, nodes, data


# -- helpers -----------------------------------------------------------------------------------

def _label(position: pb.Position):
    """The id as the log line shows it: escaped (atout.printable), so no id forges a line."""
    which = position.WhichOneof("id")
    return "-" if which is None else printable(str(getattr(position, which))[:60])


def _position(msg: pb.Position, prefix: str) -> dict:
    """The position object of ``msg``, checked by the rules (Refusal if refused)."""
    obj = convert.position_object(msg)
    try:
        parse_position(obj)
    except PositionError as e:
        raise _invalid([(prefix + e.field, e.reason)]) from None
    except RecursionError:
        raise _invalid([(prefix + "contract", "nested too deeply")]) from None
    return obj


def _positions(msgs) -> tuple[list[dict], list[tuple[str, str]]]:
    objs, violations = [], []
    for i, msg in enumerate(msgs):
        try:
            objs.append(_position(msg, f"positions[{i}]."))
        except Refusal as e:
            violations.extend(e.violations)
    return objs, violations


def _check_positions(limits: Limits, request) -> None:
    """A batch holds at most the operator's ``--max-positions``."""
    most = limits.max_positions
    if most is not None and len(request.positions) > most:
        raise _invalid([("positions", f"at most {most} positions in one call "
                                      f"(this server's --max-positions), not "
                                      f"{len(request.positions)}")])


def _check_limits(request) -> None:
    """The request's limits through atout.options' checks (0 is the message's "none")."""
    try:
        if request.time_limit != 0:
            options.time_limit(request.time_limit)
        if getattr(request, "node_limit", 0):
            options.node_limit(request.node_limit)
    except PositionError as e:
        raise _invalid([(e.field, e.reason)]) from None


async def _end(call: _Call | None, context, error: BaseException) -> None:
    """End a call that raised ``error``: abort with its status (re-raises)."""
    if call is None:  # refused before it began (draining)
        call = _Call("-", "-")
    if isinstance(error, asyncio.CancelledError):
        remaining = context.time_remaining()
        call.status = ("DEADLINE_EXCEEDED" if remaining is not None and remaining <= 0
                       else "CANCELLED")
        raise error
    if isinstance(error, Refusal):
        call.status = error.code.name
        await context.abort(error.code, error.message, error.trailing_metadata())
    if isinstance(error, grpc.aio.AbortError) or not isinstance(error, Exception):
        raise error
    call.status = "INTERNAL"
    log.exception("%s id=%s failed", call.method, call.label)
    await context.abort(grpc.StatusCode.INTERNAL, f"{type(error).__name__}: {error}")
