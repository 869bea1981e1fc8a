"""A played deal's review on the server (issue 46): its verdicts streamed as they are found
(HTTP JSON Lines, gRPC AnalyzeStream), "keep going" on the same analysis, a finished review
answered again at once, and the idle workers' cores lent to a lone review and taken back
when a call comes.  The verdicts themselves are the local analysis's (tests/test_verdicts.py
checks those against the exact analysis)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from pathlib import Path

import pytest

from atout.server import pool as pools
from atout.server import worker
from atout.solver import Cancel
from atout.solver.analyze import analyze
from deals import random_endgame
from test_whole_deal import _played

TT = 16  # MB


def _deal(seed: str, tricks: int = 9):
    obj, start = _played(random.Random(seed), "fr4", {}, tricks)
    return obj, start


#: what a review's update says besides its plays
TOTALS = ("seats", "start_value", "start_bounds", "made")


def _applied(updates: list, before: dict | None = None) -> tuple[list, dict | None]:
    """What a client that applies every update in order has in the end: each card's last
    verdict told, and the last totals (``before``: the report an earlier review ended with,
    for a review that goes on)."""
    plays = {p["index"]: p for p in before["plays"]} if before else {}
    totals = {k: before.get(k) for k in TOTALS} if before else None
    for update in updates:
        plays.update((p["index"], p) for p in update["plays"])
        totals = {k: update.get(k) for k in TOTALS}
    return [plays[i] for i in sorted(plays)], totals


def _told(report: dict) -> tuple[list, dict]:
    """A report's plays and totals, as :func:`_applied` gives them."""
    return report["plays"], {k: report.get(k) for k in TOTALS}


# -- the search process: what a review tells -------------------------------------------------

class _Channel:
    """A search process's channel to its parent, kept in a list."""

    def __init__(self):
        self.told, self.on_threads = [], None

    def progress(self, data):
        self.told.append(data)


def test_a_review_tells_every_verdict_before_its_answer(monkeypatch):
    """The updates are throttled (at most one every TELL_EVERY seconds), yet none is lost:
    a client applying them in order ends with exactly the report's plays and totals — here
    with a throttle that lets only the first message through on its own, in a review
    stopped by its time limit and in the review that goes on with it."""
    monkeypatch.setattr(worker, "TELL_EVERY", 3600.0)
    obj, start = _deal("review-told")
    reviews = []
    session = None
    try:
        for time_limit in (0.05, None):
            channel = _Channel()
            answer = worker.run_job("review", len(reviews), obj,
                                    {"start": start, "time_limit": time_limit, "tt_mb": TT,
                                     "session": session}, Cancel(), channel)
            assert isinstance(answer, worker.Done), answer
            report, session = answer.result["report"], answer.result["session"]
            assert channel.told[0]["session"] == session
            reviews.append((channel.told[0]["resumed"], channel.told[1:], report))
    finally:
        kept = worker._kept.pop(session, None)
        if kept is not None:
            kept[1].close()
    (resumed, updates, first), (resumed_again, more, last) = reviews
    assert not resumed and resumed_again
    assert first.get("stopped_by") == "time" and "stopped_by" not in last
    assert len(updates[0]["plays"]) == len(first["plays"])          # every card first
    assert _applied(updates) == _told(first)
    assert _applied(more, first) == _told(last)
    assert last == analyze(obj, start=start, tt_mb=TT)


# -- the pool: progress, the same worker again, cores lent -----------------------------------

def test_a_lone_review_borrows_the_idle_cores_and_gives_them_back():
    """On a pool of three, a review alone searches on three threads; a call that takes a
    worker meanwhile gets it at once and the review goes on with fewer; its verdicts come
    as found and its report is the local analysis."""
    obj, start = _deal("review-lend", 12)
    small = random_endgame(random.Random("review-lend-small"), "fr3", 3)
    local = analyze(obj, start=start, tt_mb=TT, time_limit=4)

    async def main():
        pool = pools.SearchPool(3)
        await pool.start()
        told = []
        try:
            review = asyncio.ensure_future(pool.run(
                "review", obj, {"start": start, "time_limit": 4, "tt_mb": TT},
                on_progress=told.append))
            while not any("plays" in t for t in told):
                await asyncio.sleep(0.01)
            lent_alone = told[0]["threads"]
            solved = await pool.run("solve", small, {"tt_mb": TT})
            while review.done() is False and not any(
                    "plays" in t and t["threads"] < lent_alone for t in told):
                await asyncio.sleep(0.01)
            answer = await review
        finally:
            await pool.close()
        return lent_alone, solved, told, answer

    lent_alone, solved, told, answer = asyncio.run(main())
    assert lent_alone == 3
    assert isinstance(solved, worker.Done) and solved.status == "ok"
    assert isinstance(answer, worker.Done)
    report = answer.result["report"]
    assert [p["index"] for p in report["plays"]] == [p["index"] for p in local["plays"]]
    assert told[0]["session"] == answer.result["session"] and told[0]["resumed"] is False
    updates = [t for t in told if "plays" in t]
    assert updates and len(updates[0]["plays"]) == len(report["plays"])   # every card first


def test_keep_going_runs_on_the_worker_that_keeps_the_analysis():
    obj, start = _deal("review-keep-going")

    async def main():
        pool = pools.SearchPool(2)
        await pool.start()
        try:
            first = await pool.run("review", obj, {"start": start, "time_limit": 0.05, "tt_mb": TT})
            session = first.result["session"]
            told = []
            again = await pool.run("review", obj, {"start": start, "time_limit": None,
                                                   "tt_mb": TT, "session": session},
                                   on_progress=told.append,
                                   prefer=int(session.split("-")[0]))
        finally:
            await pool.close()
        return first, again, told

    first, again, told = asyncio.run(main())
    assert told[0] == {"session": first.result["session"], "resumed": True, "threads": 2}
    assert again.result["session"] == first.result["session"]
    assert again.result["report"] == analyze(obj, start=start, tt_mb=TT)


# -- HTTP and gRPC ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def http():
    from starlette.testclient import TestClient

    from atout.server.http import HttpApi
    api = HttpApi(None, workers=2, tt_mb=TT)
    with TestClient(api.app) as client:
        client.api = api
        yield client


def _stream(client, body):
    with client.stream("POST", "/api/analyze/stream", json=body) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("application/x-ndjson")
        return [json.loads(line) for line in r.iter_lines() if line.strip()]


def test_http_streams_the_verdicts_then_the_report_and_keeps_it(http):
    obj, start = _deal("review-http")
    lines = _stream(http, {"position": obj, "start": start, "time_limit": 60})
    assert lines[0]["type"] == "start" and not lines[0]["cached"]
    assert [x["type"] for x in lines[1:-1]] == ["update"] * (len(lines) - 2)
    last = lines[-1]
    assert last["type"] == "report" and last["session"] == lines[0]["session"]
    report = last["report"]
    assert report.pop("status") == "ok" and report.pop("start") == start
    assert report == analyze(obj, start=start, tt_mb=TT)
    # every card in the first update; the updates applied in order end as the report
    assert len(lines[1]["plays"]) == len(report["plays"])
    assert _applied(lines[1:-1]) == _told(report)
    # the same deal, start and limit again: answered at once from what the server kept
    again = _stream(http, {"position": obj, "start": start, "time_limit": 60})
    assert [x["type"] for x in again] == ["start", "report"] and again[0]["cached"]
    assert again[1]["report"]["cached"] is True


def test_http_keep_going_and_refusals(http):
    obj, start = _deal("review-http-keep")
    first = _stream(http, {"position": obj, "start": start, "time_limit": 0.01})
    session = first[-1]["session"]
    more = _stream(http, {"position": obj, "start": start, "time_limit": 60, "session": session})
    assert more[0]["resumed"] is True and more[-1]["session"] == session
    report = more[-1]["report"]
    assert report["status"] == "ok"
    for bad, field in (({"session": "../etc"}, "session"), ({"session": 7}, "session"),
                       ({"start": 999}, "start"), ({"time_limit": -1}, "time_limit"),
                       ({"sesion": "x"}, "sesion")):
        r = http.post("/api/analyze/stream", json={"position": obj, **bad})
        assert r.status_code == 422 and r.json()["field"] == field, (bad, r.text)


def _review_in_slot(http, body: dict) -> tuple[threading.Thread, dict, float]:
    """A review started in a thread, returned once it runs in its ``slot``: (the thread,
    where its lines will be, when it started)."""
    older: dict = {}

    def run():
        older["lines"] = _stream(http, body)
    t = threading.Thread(target=run)
    started = time.monotonic()
    t.start()
    while body["slot"] not in {name for _, name in http.api.slots}:
        assert t.is_alive() and time.monotonic() - started < 30
        time.sleep(0.01)
    return t, older, started


def test_http_a_newer_review_in_the_same_slot_stops_the_older(http):
    """A tab's newer review (the same ``slot``) stops its older one, whose stream ends with
    a "replaced" line at once instead of running its time limit — also when the newer one
    is answered at once from a review kept; the newer one runs on to its report."""
    slow, slow_start = _deal("review-http-slot", 12)
    quick, quick_start = _deal("review-http-slot-quick", 4)
    http.get("/api/health")         # the client's own id (a cookie): its slots are its own

    def replaced_by(body: dict) -> list:
        t, older, started = _review_in_slot(http, {"position": slow, "start": slow_start,
                                                   "time_limit": 60, "slot": "tab-1"})
        newer = _stream(http, body)
        t.join(30)
        assert not t.is_alive() and time.monotonic() - started < 30   # not its 60 s
        assert {x["type"] for x in older["lines"][:-1]} <= {"start", "update"}
        assert older["lines"][-1] == {"type": "error", "error": "replaced", "field": "slot",
                                      "reason": "a newer request took this slot"}
        return newer

    body = {"position": quick, "start": quick_start, "time_limit": 60, "slot": "tab-1"}
    fresh = replaced_by(body)
    assert fresh[-1]["type"] == "report" and fresh[-1]["report"]["status"] == "ok"
    kept = replaced_by(body)
    assert kept[0]["cached"] and kept[-1]["report"]["cached"] is True
    assert not http.api.slots and not http.api.running


def test_http_slots_and_sessions_belong_to_their_client(http):
    """Another client naming the same slot does not end a client's review; a review kept
    is answered to anyone, its session only to the client it was given to; another client
    cannot go on with it (the owner still can).  Clients are told apart by the server's
    own cookie (here the test client's jar for A, B's sent by hand)."""
    http.get("/api/health")                 # A: the test client, its cookie in its jar
    b = {"Cookie": "atout_client=" + "b" * 32}
    slow, slow_start = _deal("review-http-clients", 12)
    quick, quick_start = _deal("review-http-clients-quick", 4)
    t, older, _ = _review_in_slot(http, {"position": slow, "start": slow_start,
                                          "time_limit": 2, "slot": "tab1"})
    r = http.post("/api/solve", json={"position": quick, "time_limit": 30, "slot": "tab1"},
                  headers=b)
    assert r.status_code == 200 and r.json()["status"] == "ok"
    t.join(60)
    assert not t.is_alive() and older["lines"][-1]["type"] == "report", older["lines"][-1]
    # A's review of the quick deal, kept: B gets the report, not A's session
    body = {"position": quick, "start": quick_start, "time_limit": 30}
    mine = _stream(http, body)
    session = mine[-1]["session"]
    with http.stream("POST", "/api/analyze/stream", json=body, headers=b) as r:
        theirs = [json.loads(line) for line in r.iter_lines() if line.strip()]
    assert theirs[0]["cached"] and "session" not in theirs[0] and "session" not in theirs[1]
    assert theirs[1]["report"]["plays"] == mine[-1]["report"]["plays"]
    r = http.post("/api/analyze/stream", json={**body, "session": session}, headers=b)
    assert r.status_code == 422 and r.json()["field"] == "session"
    again = _stream(http, {**body, "session": session})         # A goes on with its own
    assert again[-1]["type"] == "report" and again[-1]["session"] == session
    cached = _stream(http, body)
    assert cached[0]["cached"] and cached[0]["session"] == session
    # a client that keeps no cookie (curl) still goes on with the session it was given: one
    # it cannot be told apart from belongs to no one, and is never handed out from the cache
    nobody = {"Cookie": "other=1"}
    with http.stream("POST", "/api/analyze/stream", headers=nobody,
                     json={"position": quick, "start": quick_start, "time_limit": 0.01}) as r:
        first = [json.loads(line) for line in r.iter_lines() if line.strip()]
    assert r.headers["set-cookie"].startswith("atout_client=")
    theirs = first[-1]["session"]
    r = http.post("/api/analyze/stream", headers=nobody,
                  json={"position": quick, "start": quick_start, "time_limit": 30,
                        "session": theirs})
    assert r.status_code == 200 and json.loads(r.text.splitlines()[-1])["session"] == theirs


def test_grpc_analyze_stream(tmp_path):
    import grpc

    from atout.client.remote import Client, InvalidPositionError, ServiceError

    from serving import ServerProcess
    obj, start = _deal("review-grpc")
    server = ServerProcess(tmp_path, worker_count=2)
    try:
        with Client(server.address) as client:
            told = list(client.analyze_stream(obj, start=start, time_limit=60))
            assert told[0]["resumed"] is False and told[-1]["session"] == told[0]["session"]
            assert all("plays" in t for t in told[1:-1]) and len(told) > 2
            assert told[-1]["report"] == client.analyze(obj, start=start, time_limit=60)
            assert _applied(told[1:-1]) == _told(told[-1]["report"])
            with pytest.raises(InvalidPositionError) as e:
                list(client.analyze_stream(obj, session="not-a-session"))
            assert "session" in str(e.value)
            # bounded only by its deadline, a whole deal's review: its last message, with
            # what was found, still arrives before the deadline ends the call (with a 0.02 s
            # margin it came too late in 3 calls of 4 under load)
            whole = json.loads((Path(__file__).parent / "data" / "played.jsonl")
                               .read_text().splitlines()[0])
            for _ in range(2):
                got = []
                with pytest.raises(ServiceError) as e:
                    for message in client.analyze_stream(whole, timeout=3):
                        got.append(message)
                assert e.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
                assert "report" in got[-1] and got[-1]["report"]["plays"], got[-1:]
    finally:
        server.stop()


def test_dropped_cancelled_and_deadline_ended_streams_log_one_line_each(tmp_path):
    """A review dropped by its HTTP client is logged as dropped (499, not the 200 it began
    with); a cancelled or deadline-ended gRPC review is one line too — and none leaves
    "Task was destroyed but it is pending!" (the pending read of the review's messages,
    left behind when the stream was closed while it waited)."""
    import httpx

    from atout.client.remote import Client, ServiceError

    from serving import ServerProcess
    whole = json.loads((Path(__file__).parent / "data" / "played.jsonl")
                       .read_text().splitlines()[0])
    server = ServerProcess(tmp_path, worker_count=2, http=True)
    try:
        for _ in range(2):
            with httpx.Client(timeout=30) as web:
                with web.stream("POST", server.url + "/api/analyze/stream",
                                json={"position": whole, "time_limit": 30}) as r:
                    next(r.iter_lines())                # the start line; then gone
        with Client(server.address) as client:
            with pytest.raises(ServiceError):
                list(client.analyze_stream(whole, timeout=1.5))
            stream = client.analyze_stream(whole, time_limit=30)
            next(stream)
            stream.close()                              # cancelled
        deadline = time.monotonic() + 30
        while sum(" 499 " in l for l in server.log_lines()) < 2 or \
                sum("CANCELLED" in l for l in server.log_lines()) < 1:
            assert time.monotonic() < deadline, server.log_text()
            time.sleep(0.1)
        time.sleep(0.5)
    finally:
        server.stop()
    log = server.log_text()
    assert "Task was destroyed" not in log, log
    dropped = [l for l in log.splitlines() if "/api/analyze/stream" in l]
    assert len(dropped) == 2 and all(l.endswith("499 (the client went away during the "
                                                 "answer (begun as 200))") for l in dropped), log
    assert sum("gRPC AnalyzeStream" in l for l in log.splitlines()) == 2, log

