"""The ``atout.v1.Solver`` service: validates requests, runs searches on the pool, maps outcomes
to gRPC status codes (a method ends a call with a status by raising :class:`.gate.Refusal`;
the gate logs every call's outcome):

- a refused position: INVALID_ARGUMENT with a ``google.rpc.BadRequest`` naming the field;
- a search stopped by the caller's own ``time_limit``/``node_limit``: OK, status LIMIT;
- by the call's deadline: DEADLINE_EXCEEDED (the remaining deadline is handed to the
  search as its time limit, so the worker stops by itself; a cancelled call also tells
  the worker to stop at once);
- a search lost with its search process (run twice: see :mod:`.pool`), or no search
  process running: UNAVAILABLE, which clients retry; in a batch, the other positions are
  still answered and the status names those that were not;
- the server's room (queue, calls per peer): RESOURCE_EXHAUSTED.
"""

from __future__ import annotations

import asyncio
import logging

import grpc

from atout import options
from atout.errors import PositionError
from atout.position import parse_position
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from atout.proto.v1 import solver_pb2_grpc as pb_grpc
from atout.solver.advise import DEFAULT_CONFIDENCE, DEFAULT_SAMPLES

from .advice import AdviceFailed, advise_on_pool
from .gate import Refusal
from .limits import Busy, Limits
from ..runner.process import JobKind
from .pool import SearchPool, WorkerDied
from .worker import SESSION, Done, Failed

log = logging.getLogger("atout.server")

#: seconds kept back from a deadline so that a search stopped by it still answers before it
#: (a review's last message holds what was found).  Measured on the two-core machine
#: (AnalyzeStream on whole played deals of four games, time limits 3 and 6 s, load average
#: 3-5): the last message reached the client 0.014-0.134 s after the limit, median 0.016 s,
#: the worst a server's first call; 0.02 s lost it in 3 calls of 4 under a fuzzer's load.
DEADLINE_MARGIN = 0.25
#: of a short deadline, at most this share is kept back (a 0.2 s call still searches)
DEADLINE_MARGIN_SHARE = 0.25


def _invalid(violations) -> Refusal:
    field, reason = violations[0]
    more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
    return Refusal(grpc.StatusCode.INVALID_ARGUMENT, f"{field}: {reason}{more}", violations)


def _unavailable(error: WorkerDied) -> Refusal:
    return Refusal(grpc.StatusCode.UNAVAILABLE, str(error))


class SolverService(pb_grpc.SolverServicer):
    def __init__(self, pool: SearchPool, tt_mb: int | None = None, limits: Limits | None = None):
        self.pool = pool
        self.tt_mb = tt_mb
        self.limits = limits or Limits()

    # -- the methods ----------------------------------------------------------------------------

    async def Solve(self, request: pb.SolveRequest, context) -> pb.SolveResult:
        obj = _position(request.position, "")
        _check_limits(request)
        answer = await self._search(context, JobKind.SOLVE, obj, request)
        return convert.solve_message(answer.result)

    async def Analyze(self, request: pb.AnalyzeRequest, context) -> pb.Analysis:
        obj = _analysis_position(request)
        answer = await self._search(context, JobKind.ANALYZE, obj, request)
        return convert.analysis_message(answer.result, answer.status)

    async def AnalyzeStream(self, request: pb.AnalyzeRequest, context):
        obj = _analysis_position(request)
        session = request.session or None
        if session is not None and not SESSION.fullmatch(session):
            raise _invalid([("session", "is not the name of a review this server gave")])
        time_limit, by_deadline = self._time_limit(context, request)
        search, messages = self.pool.analyze_stream(obj, {"start": request.start,
                                                  "time_limit": time_limit, "session": session,
                                                  "tt_mb": self.limits.tt_mb(self.tt_mb, obj)})
        try:
            async for message in messages:
                yield _update(message)
            status, found = _streamed(search)
            final = pb.AnalysisUpdate(final=True, session=found["session"])
            final.analysis.CopyFrom(convert.analysis_message(found["report"], status))
            yield final
            if status == "limit" and by_deadline and found["report"].get("stopped_by") == "time":
                raise Refusal(grpc.StatusCode.DEADLINE_EXCEEDED,
                              "the deadline ran out before the analysis was complete "
                              "(the last message holds what was found)")
        finally:
            await _stop_unless_done(search)

    async def Table(self, request: pb.TableRequest, context):
        from atout.proto.table import cell_message, table_message

        obj = _table_deal(request)
        _check_limits(request)
        contracts = list(request.contracts) or None
        # (not on the event loop: an Austrian table's cells take tens of milliseconds)
        await asyncio.get_running_loop().run_in_executor(None, _check_contracts, obj, contracts)
        time_limit, by_deadline = self._time_limit(context, request)
        search, messages = self.pool.stream(JobKind.TABLE, obj, {
            "time_limit": time_limit, "contracts": contracts, "values": request.values,
            "tt_mb": self.limits.tt_mb(self.tt_mb, obj)})
        try:
            async for message in messages:
                update = pb.TableUpdate()
                for cell in message["cells"]:
                    cell_message(cell, update.cells.add())
                yield update
            status, table = _streamed(search)
            final = pb.TableUpdate(final=True)
            final.table.CopyFrom(table_message(table))
            yield final
            if status == "limit" and by_deadline and table.get("stopped_by") == "time":
                raise Refusal(grpc.StatusCode.DEADLINE_EXCEEDED,
                              "the deadline ran out before the table was complete "
                              "(the last message holds what was proven)")
        finally:
            await _stop_unless_done(search)

    async def SolveBatch(self, request: pb.SolveBatchRequest, context):
        # at most one search per worker from one batch: other calls get their turn
        turns = asyncio.Semaphore(self.pool.size)

        async def one(index: int, obj: dict):
            async with turns:
                answer = await self._search(context, JobKind.SOLVE, obj, request)
            reply = pb.SolveBatchResult(index=index)
            convert.solve_message(answer.result, reply.result)
            return reply
        async for reply in self._stream(request, one):
            yield reply

    async def Advise(self, request: pb.AdviseRequest, context) -> pb.Advice:
        obj = _position(request.position, "")
        seat = request.seat if request.HasField("seat") else None
        advice = await self._advise(context, obj, request, seat, "")
        return convert.advice_message(advice.to_json())

    async def AdviseBatch(self, request: pb.AdviseBatchRequest, context):
        # at most one draw per worker from the whole batch: other calls get their turn
        turns = asyncio.Semaphore(self.pool.size)

        async def one(index: int, obj: dict):
            advice = await self._advise(context, obj, request, None, f"positions[{index}].", turns)
            reply = pb.AdviseBatchResult(index=index)
            reply.advice.CopyFrom(convert.advice_message(advice.to_json()))
            return reply
        async for reply in self._stream(request, one):
            yield reply

    async def _stream(self, request, one):
        """A streaming batch call: the positions checked, then ``one(index, position)``'s
        replies in the order they are ready.  A position lost with its search process does
        not stop the others: the call then ends UNAVAILABLE naming the positions not
        answered.  Any other failure ends it at once (the searches under way are stopped)."""
        _check_positions(self.limits, request)
        _check_limits(request)
        loop = asyncio.get_running_loop()
        objs, violations = await loop.run_in_executor(None, _positions, request.positions)
        if violations:
            raise _invalid(violations)
        async def answered(index: int, obj: dict):
            try:
                return await one(index, obj)
            except WorkerDied as e:
                return index, e                 # lost: the others go on

        tasks = [asyncio.ensure_future(answered(i, obj)) for i, obj in enumerate(objs)]
        lost: list[tuple[int, WorkerDied]] = []
        try:
            for finished in asyncio.as_completed(tasks):
                reply = await finished
                if isinstance(reply, tuple):
                    lost.append(reply)
                else:
                    yield reply
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if lost:
            indexes = ", ".join(str(i) for i, _ in sorted(lost, key=lambda x: x[0]))
            raise Refusal(grpc.StatusCode.UNAVAILABLE,
                          f"positions {indexes} not answered ({lost[0][1]}); the other "
                          f"{len(tasks) - len(lost)} of {len(tasks)} were")

    async def _advise(self, context, obj: dict, request, seat, prefix: str, turns=None):
        """The advice for ``obj`` within the call's deadline (its draws on the pool)."""
        _check_limits(request)
        if request.samples > self.limits.max_samples:
            raise _invalid([("samples", f"at most {self.limits.max_samples} deals in one "
                                        f"advice (this server's --max-samples)")])
        time_limit, by_deadline = self._time_limit(context, request)
        seed = request.seed if request.HasField("seed") else None
        confidence = DEFAULT_CONFIDENCE
        if request.HasField("confidence"):
            try:
                confidence = options.confidence(request.confidence)
            except PositionError as e:
                raise _invalid([(e.field, e.reason)]) from None
        node_limit = request.node_limit if request.HasField("node_limit") else None
        if node_limit is not None:
            try:
                options.node_limit(node_limit)
            except PositionError as e:
                raise _invalid([(e.field, e.reason)]) from None
        # a budget when asked for (budget, or a node limit): a time limit alone stays the
        # deadline it was before budgets, for the clients written then (as /api/advise)
        budget = request.budget if request.HasField("budget") else node_limit is not None
        try:
            advice = await advise_on_pool(self.pool, obj, seat=seat,
                                          samples=request.samples or DEFAULT_SAMPLES, seed=seed,
                                          confidence=confidence,
                                          time_limit=time_limit, node_limit=node_limit,
                                          budget=budget,
                                          tt_mb=self.limits.tt_mb(self.tt_mb, obj), turns=turns)
        except PositionError as e:
            raise _invalid([(prefix + e.field, e.reason)]) from None
        except WorkerDied as e:
            if prefix:
                raise                           # the batch goes on with its other positions
            raise _unavailable(e) from None
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
        budget = remaining - min(DEADLINE_MARGIN, remaining * DEADLINE_MARGIN_SHARE)
        if budget <= 0:
            raise Refusal(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline ran out")
        if asked is None or budget < asked:
            return budget, True
        return asked, False

    # -- one search on the pool ----------------------------------------------------------------

    async def _search(self, context, kind: JobKind, obj: dict, request) -> Done:
        """One search within the call's deadline: its worker's answer (its ``result`` the
        plain object, which the method turns into its message), or the call's refusal."""
        node_limit = getattr(request, "node_limit", 0) or None
        time_limit, by_deadline = self._time_limit(context, request)
        tt_mb = self.limits.tt_mb(self.tt_mb, obj)
        if kind is JobKind.SOLVE:
            settings = {"all_cards": request.all_cards, "time_limit": time_limit,
                        "node_limit": node_limit, "tt_mb": tt_mb}
        else:
            settings = {"start": request.start, "time_limit": time_limit, "tt_mb": tt_mb}
        try:
            answer = await self.pool.run(kind, obj, settings)
        except WorkerDied as e:
            if isinstance(request, pb.SolveBatchRequest):
                raise                           # the batch goes on with its other positions
            raise _unavailable(e) from None
        except Busy as e:
            raise Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, e.reason) from None
        _refuse_failed(answer)
        if answer.status == "limit" and by_deadline and \
                not (node_limit and answer.nodes >= node_limit):
            raise Refusal(grpc.StatusCode.DEADLINE_EXCEEDED,
                          "the deadline ran out before the search finished")
        return answer


# -- helpers -----------------------------------------------------------------------------------

def _refuse_failed(answer: Done | Failed) -> None:
    """A worker's answer that says its job failed (see :mod:`.worker`), as the call's
    refusal: INVALID_ARGUMENT naming the field, UNIMPLEMENTED, else INTERNAL."""
    if not isinstance(answer, Failed):
        return
    if answer.kind == "invalid":
        raise _invalid([(answer.field or "request", answer.reason)])
    if answer.kind == "unimplemented":
        raise Refusal(grpc.StatusCode.UNIMPLEMENTED, answer.reason)
    raise Refusal(grpc.StatusCode.INTERNAL, answer.reason)


def _streamed(search: asyncio.Future) -> tuple:
    """(status, what was found) of a streamed job that has ended (a review, a table), or
    the call's refusal: its search process lost twice, no room, or the job failed."""
    try:
        answer = search.result()
    except WorkerDied as e:
        raise _unavailable(e) from None
    except Busy as e:
        raise Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, e.reason) from None
    _refuse_failed(answer)
    return answer.status, answer.result


async def _stop_unless_done(search: asyncio.Future) -> None:
    """A streamed call that ended before its job (cancelled, out of time, a refusal): the
    job is stopped, so that its search process is free for the next call."""
    if not search.done():
        search.cancel()
        await asyncio.gather(search, return_exceptions=True)


def _update(told: dict) -> pb.AnalysisUpdate:
    """A review's progress message (see :mod:`.worker`) as a message of AnalyzeStream."""
    if "session" in told:
        return pb.AnalysisUpdate(session=told["session"], resumed=told["resumed"])
    update = pb.AnalysisUpdate()
    update.analysis.CopyFrom(convert.analysis_message(told, "limit"))
    return update


def _position(msg: pb.Position, prefix: str) -> dict:
    """The position object of ``msg``, checked by the rules (Refusal if refused)."""
    try:
        obj = convert.position_object(msg)
        parse_position(obj)
    except PositionError as e:
        raise _invalid([(prefix + e.field, e.reason)]) from None
    except RecursionError:
        raise _invalid([(prefix + "contract", "nested too deeply")]) from None
    return obj


def _table_deal(request: pb.TableRequest) -> dict:
    """What a table request tables: its position's object, or its deal as dealt's, checked
    by the rules as the HTTP API checks them (Refusal naming the field: a deal's under
    ``deal.``); exactly one of the two must be given."""
    from atout.dealt import parse_deal
    if request.HasField("deal"):
        if request.HasField("position"):
            raise _invalid([("deal", "give a position or a deal as dealt, not both")])
        obj = convert.deal_object(request.deal)
        try:
            parse_deal(obj)
        except PositionError as e:
            raise _invalid([("deal." + e.field, e.reason)]) from None
        return obj
    if not request.HasField("position"):
        raise _invalid([("position", "is missing: give a position, or a deal as dealt (deal)")])
    return _position(request.position, "")


def _analysis_position(request: pb.AnalyzeRequest) -> dict:
    """An analysis request's position, its limits and its start checked (INVALID_ARGUMENT
    naming the field)."""
    obj = _position(request.position, "")
    _check_limits(request)
    try:
        options.start(request.start, len(obj["played"]))
    except PositionError as e:
        raise _invalid([(e.field, e.reason)]) from None
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


def _check_contracts(obj: dict, contracts) -> None:
    """The contracts a table request asks of ``obj`` (a position or a deal as dealt, told
    apart as ``contract_table`` does), checked before a search process is taken
    (INVALID_ARGUMENT naming ``contracts`` or the field that would give the cells); the
    écarts are counted by the search process, within the time limit, not here."""
    from atout.contract_table import table_spec
    from atout.dealt import dealt, is_deal, parse_deal
    try:
        d = parse_deal(obj) if is_deal(obj) else dealt(parse_position(obj))
        table_spec(d, contracts, count_ecarts=False)
    except PositionError as e:
        raise _invalid([(e.field, e.reason)]) from None


def _check_limits(request) -> None:
    """The request's limits through atout.options' checks (0 is the message's "none")."""
    try:
        if request.time_limit != 0:
            options.time_limit(request.time_limit)
        if getattr(request, "node_limit", 0):
            options.node_limit(request.node_limit)
    except PositionError as e:
        raise _invalid([(e.field, e.reason)]) from None
