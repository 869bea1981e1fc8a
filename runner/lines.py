"""One line's job, in a search process: a puzzle solved, a played deal analysed, a deal's
contract table worked out — each line's result line, never an exception (a bad line is
its error line, naming the field; a bug is the line's error too, so that it cannot stop a
run)."""

from __future__ import annotations

import time

from atout.jsonl import MAX_LINE_BYTES

from .files import ident_of

__all__ = ["solve_line", "analyze_line", "table_line", "first_analysed", "error_line"]


# -- solving one line ---------------------------------------------------------------------------

def error_line(ident, line: int, fld: str, reason: str) -> dict:
    return {"id": ident, "status": "error", "field": fld, "reason": reason, "input_line": line}


def solve_line(raw: bytes | None, line: int, opts: dict, oversize: int = 0) -> dict:
    """The result line of one input line (``atout solve``'s, with ``input_line``); never
    raises: failures as :func:`_deal_line` words them."""
    def work(rec) -> dict:
        from atout.solver import solve
        return solve(rec.position, **opts).to_json()

    return _deal_line(raw, line, oversize, work)

# -- analysing one played deal ------------------------------------------------------------------

def first_analysed(position, start: int | None, last_tricks: int | None) -> int:
    """Where the analysis of ``position`` begins: ``start`` (the cards before it taken as
    given), else the first card of the last ``last_tricks`` tricks, else 0 — as ``atout
    analyze --start`` / ``--last-tricks`` take it.  A start past the cards played raises
    PositionError("start", ...)."""
    from atout import options
    if start is None and last_tricks is not None:
        start = min(max(0, position.rules.hand_size - last_tricks) * position.seats,
                    len(position.played))
    return options.start(start or 0, len(position.played))


def _deal_line(raw: bytes | None, line: int, oversize: int, work) -> dict:
    """The result line of one deal's job in a worker (an analysis, a contract table):
    the line read, ``work(record)`` run on it, and ``input_line`` added; every failure is
    the deal's error line naming its field (a table this machine cannot give now:
    ``tt_mb``; a bug: ``solver``, so that it cannot stop the run).  Never raises."""
    if raw is None:
        return error_line(None, line, "json", f"line of {oversize} bytes is longer than {MAX_LINE_BYTES}")
    try:
        from atout.errors import PositionError
        from atout.jsonl import parse_line
        rec = parse_line(raw, line)
        if rec.error is not None:
            return error_line(rec.id, line, rec.error.field, rec.error.reason)
        try:
            result = work(rec)
        except PositionError as e:
            return error_line(rec.id, line, e.field, e.reason)
    except MemoryError as e:
        return error_line(ident_of(raw), line, "tt_mb", str(e) or "out of memory")
    except Exception as e:
        return error_line(ident_of(raw), line, "solver", f"{type(e).__name__}: {e}")
    result["input_line"] = line
    return result


def analyze_line(raw: bytes | None, line: int, opts: dict, oversize: int = 0) -> dict:
    """The result line of one played deal: its analysis (:func:`atout.solver.analyze.
    analyze` with ``opts``: time_limit, tt_mb, threads; start or last_tricks), with
    ``status``, ``position``, ``seconds``, ``cpu_seconds`` and ``input_line``; never
    raises."""
    def work(rec) -> dict:
        from atout.solver.analyze import analyze
        start = first_analysed(rec.position, opts.get("start"), opts.get("last_tricks"))
        # the worker runs one deal at a time: the process' CPU time is this analysis'
        wall, cpu = time.perf_counter(), time.process_time()
        report = analyze(rec.position, start=start, time_limit=opts.get("time_limit"),
                         tt_mb=opts.get("tt_mb"), threads=opts.get("threads") or 1)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        # the id first (RESULT_START), then what the analysis says, then the deal it says it of
        result = {"id": report.pop("id"), "status": "limit" if "stopped_by" in report else "ok"}
        result.update(report)
        result.update({"position": rec.position.to_json(), "seconds": round(wall, 3),
                       "cpu_seconds": round(cpu, 3)})
        return result
    return _deal_line(raw, line, oversize, work)

# -- a deal's contract table --------------------------------------------------------------------

def table_line(raw: bytes | None, line: int, opts: dict, oversize: int = 0) -> dict:
    """The result line of one deal's contract table (:func:`atout.solver.contract_table.
    contract_table` with ``opts``: time_limit, threads, tt_mb, contracts, values), with
    ``position``, ``seconds``, ``cpu_seconds`` and ``input_line``; never raises."""
    def work(rec) -> dict:
        from atout.solver.contract_table import contract_table
        cpu = time.process_time()
        table = contract_table(rec.position, **opts)
        table.update({"position": rec.position.to_json(),
                      "cpu_seconds": round(time.process_time() - cpu, 3)})
        return table
    return _deal_line(raw, line, oversize, work)
