"""The HTTP API (atout.server.http): Starlette's test client over a real search pool, then a
real `atout serve --http` and `atout view` on 127.0.0.1.

Answers equal the local solver's and analyser's; every search has a time limit and gives
proven bounds when it stops; a newer request on the same slot, or a client that goes
away, stops the older search in the worker (the one worker is free at once); bad input
is 400/422 naming the field, a body over the limit 413; only the package's own files
are served.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("httpx")
with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import atout  # noqa: E402
from atout.client import Client  # noqa: E402
from atout.position import parse_position  # noqa: E402
from atout.server.http import HttpApi  # noqa: E402
from atout.server.http_io import MAX_BODY_BYTES  # noqa: E402
from atout.solver import solve  # noqa: E402
from serving import wait_for_log  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
PLAYED = [json.loads(line) for line in (DATA / "played.jsonl").read_text().splitlines()]
TT_MB = 16


def at(deal: dict, cards: int) -> dict:
    """``deal`` with its first ``cards`` played cards only."""
    return {**deal, "played": deal["played"][:cards]}


def endgame(deal: dict, tricks_left: int) -> dict:
    seats = len(deal["hands"])
    return at(deal, len(deal["played"]) - tricks_left * seats)


def without_timing(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("nodes", "seconds")}


@pytest.fixture(scope="module")
def client():
    api = HttpApi(None, workers=1, tt_mb=TT_MB)
    with TestClient(api.app) as c:
        yield c


# -- answers equal the local API's -----------------------------------------------------------

@pytest.mark.parametrize("deal", PLAYED, ids=lambda d: d["id"])
def test_solve_equals_the_local_solver(client, deal):
    for tricks_left in (3, 2):
        for extra in range(len(deal["hands"])):   # every seat of a trick to play
            obj = at(deal, len(deal["played"]) - tricks_left * len(deal["hands"]) + extra)
            r = client.post("/api/solve", json={"position": obj, "time_limit": 30})
            assert r.status_code == 200, r.text
            local = solve(obj, all_cards=True, tt_mb=TT_MB).to_json()
            assert without_timing(r.json()) == without_timing(local)
            assert r.json()["cards"], "the --all values are included by default"


def test_solve_without_all_values(client):
    obj = endgame(PLAYED[0], 3)
    r = client.post("/api/solve", json={"position": obj, "all": False})
    assert r.status_code == 200
    assert "cards" not in r.json()
    assert without_timing(r.json()) == without_timing(solve(obj, tt_mb=TT_MB).to_json())


def test_a_slow_position_stops_at_its_time_limit_with_proven_bounds(client):
    obj = at(PLAYED[0], 0)              # a whole fr4 deal: far too big today
    started = time.monotonic()
    r = client.post("/api/solve", json={"position": obj, "time_limit": 0.5})
    assert time.monotonic() - started < 5
    body = r.json()
    assert r.status_code == 200 and body["status"] == "limit"
    low, high = body["bounds"]
    assert low <= high and body["value"] is None
    assert body["stopped_by"] == "time" and body["time_limit"] == 0.5


@pytest.mark.parametrize("deal", PLAYED, ids=lambda d: d["id"])
def test_analyze_equals_the_local_analysis(client, deal):
    start = len(endgame(deal, 4)["played"])
    r = client.post("/api/analyze", json={"position": deal, "start": start, "time_limit": 30})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body.pop("status") == "ok" and body.pop("start") == start
    assert body == atout.analyze(deal, start=start, tt_mb=TT_MB)


def test_analyze_stopped_by_its_time_limit_judges_every_card(client):
    r = client.post("/api/analyze", json={"position": PLAYED[0], "time_limit": 0.3})
    body = r.json()
    assert r.status_code == 200 and body["status"] == "limit"
    assert "time limit of 0.3 s reached" in body["message"] and body["stopped_by"] == "time"
    assert body["outcome"] == parse_position(PLAYED[0]).outcome()
    assert [p["index"] for p in body["plays"]] == list(range(len(PLAYED[0]["played"])))
    assert body["start"] == 0 and body["start_value"] is None
    exact = sum(p["cost"] is not None for p in body["plays"])
    assert f"{exact} of {len(body['plays'])} cards with an exact cost" in body["message"]
    for p in body["plays"]:   # the exact ones, and the bounds of the others
        if p["value_before"] is None:
            low, high = p["bounds_before"]
            assert low < high and p["best"] is None
        assert (p["cost"] is None) == ("cost_bounds" in p)


def test_every_field_of_a_json_result_reaches_an_http_client(client):
    """Issue 67: the worker answers the result as the command line writes it, and the HTTP
    API answers that, not a round trip through the gRPC message — which has no field for
    a stopped search's best guess or each card's proven bounds (they were lost)."""
    obj = endgame(PLAYED[0], 6)
    local = solve(obj, all_cards=True, node_limit=400, tt_mb=TT_MB).to_json()
    assert local["status"] == "limit" and {"stopped_by", "best_guess", "card_bounds"} <= set(local)
    r = client.post("/api/solve", json={"position": obj, "node_limit": 400})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body.pop("time_limit") > 0                  # (the HTTP answer's own, on a limit)
    assert list(body) == list(local) and without_timing(body) == without_timing(local)
    deal = PLAYED[1]
    report = atout.analyze(deal, start=len(deal["played"]) - 9, tt_mb=TT_MB)
    r = client.post("/api/analyze", json={"position": deal, "start": len(deal["played"]) - 9,
                                          "time_limit": 30})
    body = r.json()
    assert set(report) <= set(body)
    for mine, theirs in zip(report["plays"] + report["seats"], body["plays"] + body["seats"]):
        assert list(theirs) == list(mine)


def test_validate_and_table(client):
    deal = PLAYED[2]
    r = client.post("/api/validate", json={"position": deal})
    assert r.json() == {"ok": True, "id": deal["id"], "game": "fr5",
                        "played": len(deal["played"]), "finished": True}
    # a refused position is the check's answer (200), with the field and the reason
    r = client.post("/api/validate", json={"position": {**GOOD, "played": ["KS", "KS"]}})
    assert r.status_code == 200
    assert r.json()["ok"] is False and r.json()["field"] == "played[0]" and r.json()["reason"]
    for cards in (0, 7, len(deal["played"]) - 1, len(deal["played"])):
        obj = at(deal, cards)
        table = client.post("/api/view", json={"position": obj}).json()
        # /api/table: the older name of /api/view, kept for the clients that use it
        assert client.post("/api/table", json={"position": obj}).json() == table
        pos = parse_position(obj)
        assert sorted(table["legal"]) == sorted(atout.cards.tokens(pos.legal_cards()))
        assert [sorted(h) for h in table["hands"]] == [sorted(atout.cards.tokens(h))
                                                       for h in pos.held]
        assert table["to_play"] == pos.to_play and len(table["tricks"]) == pos.trick_no
    # at the end, the points won are the outcome's
    for deal in PLAYED:
        table = client.post("/api/table", json={"position": deal}).json()
        out = parse_position(deal).outcome()
        rows = table["won"]["rows"]
        if deal["game"].startswith("fr"):
            assert (rows[0]["points"], rows[1]["points"]) == (out["taker_points"],
                                                              out["defence_points"])
            assert rows[0]["bouts"] == out["bouts"]
        elif deal["game"] == "priest5":
            assert (rows[0]["points"], rows[1]["points"]) == (out["caller_points"],
                                                              out["other_points"])
        else:
            assert (rows[0]["points"], rows[1]["points"]) == (out["declarer_points"],
                                                              out["other_points"])
        assert table["outcome"] == out


# -- bad input -------------------------------------------------------------------------------

GOOD = endgame(PLAYED[0], 2)


def bad_card():
    obj = json.loads(json.dumps(GOOD))
    obj["hands"][1][3] = "ZZ"
    return obj


@pytest.mark.parametrize("path,body,status,field", [
    ("/api/solve", b"{not json", 400, "body"),
    ("/api/solve", b"[1, 2]", 400, "body"),
    ("/api/solve", {}, 422, "position"),
    ("/api/solve", {"position": bad_card()}, 422, "hands[1][3]"),
    ("/api/solve", {"position": {**GOOD, "game": "fr9"}}, 422, "game"),
    ("/api/solve", {"position": GOOD, "time_limit": -1}, 422, "time_limit"),
    ("/api/solve", {"position": GOOD, "time_limit": 0}, 422, "time_limit"),
    ("/api/solve", {"position": GOOD, "time_limit": True}, 422, "time_limit"),
    ("/api/solve", {"position": GOOD, "node_limit": 1 << 63}, 422, "node_limit"),
    ("/api/solve", b'{"position": {}, "time_limit": NaN}', 400, "body"),
    ("/api/solve", {"position": GOOD, "time_limit": "5"}, 422, "time_limit"),
    ("/api/solve", {"position": GOOD, "all": "yes"}, 422, "all"),
    ("/api/solve", {"position": GOOD, "node_limit": 1.5}, 422, "node_limit"),
    ("/api/solve", {"position": GOOD, "slot": ""}, 422, "slot"),
    ("/api/solve", {"position": GOOD, "colour": 1}, 422, "colour"),
    ("/api/analyze", {"position": GOOD, "start": 10 ** 6}, 422, "start"),
    ("/api/analyze", {"position": GOOD, "start": -1}, 422, "start"),
    ("/api/validate", {}, 422, "position"),
    ("/api/table", {"position": "fr4"}, 422, "position"),
])
def test_bad_input_names_the_field(client, path, body, status, field):
    if isinstance(body, bytes):
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
    else:
        r = client.post(path, json=body)
    assert r.status_code == status, r.text
    answer = r.json()
    assert answer["field"] == field and answer["reason"]
    assert "Traceback" not in r.text


def test_a_body_over_the_limit_is_refused(client):
    big = json.dumps({"position": GOOD, "pad": "x" * MAX_BODY_BYTES}).encode()
    r = client.post("/api/solve", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["field"] == "body"

    def chunks():           # no Content-Length: counted as it arrives
        for _ in range(MAX_BODY_BYTES // 4096 + 2):
            yield b" " * 4096
    r = client.post("/api/solve", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_only_json_bodies_are_taken(client):
    r = client.post("/api/solve", content=json.dumps({"position": GOOD}),
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["field"] == "Content-Type"


def test_a_client_gone_before_its_whole_body_is_a_499_in_one_line(caplog):
    """`Content-Length: 1000`, a part of the body, then the connection closed: logged as a
    client gone mid-search (499), one line, no traceback."""
    import asyncio
    api = HttpApi(None, workers=1)      # no search runs: no pool needed
    messages = [{"type": "http.request", "body": b'{"position": ', "more_body": True},
                {"type": "http.disconnect"}]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/solve",
             "raw_path": b"/api/solve", "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json"), (b"content-length", b"1000")],
             "client": ("127.0.0.1", 5), "server": ("127.0.0.1", 80)}
    with caplog.at_level("INFO", logger="atout.server"):
        asyncio.run(api.app(scope, receive, send))
    assert sent[0]["status"] == 499
    assert [(r.levelname, r.getMessage().split(" ")[:5:]) for r in caplog.records] == \
        [("INFO", ["HTTP", "POST", "/api/solve", "peer=127.0.0.1", "id=-"])]
    assert caplog.records[0].getMessage().endswith("s 499")
    assert not any(r.exc_info for r in caplog.records)


def test_a_bad_slot_is_refused_before_any_search_is_made(client):
    """An advice's job is a coroutine: made before its slot was refused, it was never run
    (a RuntimeWarning in the log)."""
    import gc
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for slot in ("", 7, "x" * 101):
            r = client.post("/api/advise", json={"position": GOOD, "slot": slot})
            assert r.status_code == 422 and r.json()["field"] == "slot"
        gc.collect()
    assert not [w for w in caught if "never awaited" in str(w.message)]


def test_only_the_package_files_are_served(client):
    r = client.get("/")
    assert r.status_code == 200 and "<title>atout" in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for name in ("viewer.js", "viewer.css", "examples.jsonl"):
        assert client.get("/static/" + name).status_code == 200
    for path in ("/static/http.py", "/static/%2e%2e/http.py", "/static/..%2fhttp.py",
                 "/static/%2e%2e%2f%2e%2e%2fsetup.py", "/static//etc/passwd", "/static/"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "import" not in r.text
    assert client.post("/").status_code == 405


def test_a_wrong_method_or_path_under_api_is_answered_in_json(client):
    for method, path, allow in (("GET", "/api/solve", "POST"), ("PUT", "/api/validate", "POST"),
                                ("POST", "/api/health", "GET or HEAD")):
        r = client.request(method, path)
        assert r.status_code == 405, path
        assert sorted(r.headers["allow"].split(", ")) == allow.split(" or ")
        assert r.json() == {"error": "method_not_allowed", "field": "method",
                            "reason": f"must be {allow}"}
    for path in ("/api/x", "/api/", "/api", "/api/solve/x"):
        r = client.post(path, json={})
        assert r.status_code == 404, path
        assert r.json() == {"error": "not_found", "field": "path",
                            "reason": "no such API endpoint"}
    # the viewer's pages keep Starlette's plain answers
    assert client.post("/").text == "Method Not Allowed"
    assert client.get("/nope").text == "Not Found"


def test_the_bearer_scheme_is_taken_in_any_case():
    # no lifespan (no `with`): neither route below needs the pool
    c = TestClient(HttpApi(None, token=b"t0k").app)
    body = {"position": PLAYED[0]}
    for scheme in ("Bearer", "bearer", "BEARER"):
        headers = {"Authorization": f"{scheme} t0k"}
        assert c.get("/api/deals", headers=headers).status_code == 200, scheme
        r = c.post("/api/validate", json=body, headers=headers)
        assert r.status_code == 200 and r.json()["ok"], r.text
    for sent in ("bearer T0K", "Basic t0k", "bearer", "t0k", "Bearer  t0k", "bearer t0k "):
        r = c.post("/api/validate", json=body, headers={"Authorization": sent})
        assert r.status_code == 401 and r.json()["field"] == "Authorization", sent


# -- stopping searches ------------------------------------------------------------------------

def test_a_newer_request_on_the_same_slot_stops_the_older_search(client):
    slow = {"position": at(PLAYED[0], 0), "time_limit": 60, "slot": "tab-1"}
    answers = {}

    def first():
        answers["slow"] = client.post("/api/solve", json=slow)
    t = threading.Thread(target=first)
    started = time.monotonic()
    t.start()
    time.sleep(1.0)                       # the slow search is running on the one worker
    fast = client.post("/api/solve", json={"position": GOOD, "slot": "tab-1"})
    t.join(10)
    assert not t.is_alive()
    assert fast.status_code == 200 and fast.json()["status"] == "ok"
    assert answers["slow"].status_code == 409 and answers["slow"].json()["error"] == "replaced"
    assert time.monotonic() - started < 10   # not the 60 s of the older request


def test_a_refused_request_on_the_same_slot_stops_nothing(client):
    """An advice the rules refuse (a finished deal, a seat not to play) is refused before
    it takes its slot: the search there runs on (it was stopped, answered 'replaced')."""
    deal = at(PLAYED[0], 0)
    slow = {"position": deal, "time_limit": 3, "slot": "tab-2"}
    answers = {}

    def first():
        answers["slow"] = client.post("/api/solve", json=slow)
    t = threading.Thread(target=first)
    t.start()
    time.sleep(1.0)                       # the slow search is running on the one worker
    not_to_play = (deal["first"] + 1) % len(deal["hands"])
    for refused, fld in (({"position": PLAYED[0]}, "played"),
                         ({"position": deal, "seat": not_to_play}, "seat")):
        r = client.post("/api/advise", json={**refused, "slot": "tab-2"})
        assert r.status_code == 422 and r.json()["field"] == fld, r.text
    t.join(30)
    assert answers["slow"].status_code == 200, answers["slow"].text
    assert answers["slow"].json()["status"] == "limit"      # it ran its 3 s


# -- a real server ---------------------------------------------------------------------------

class Served:
    def __init__(self, tmp: Path, *args: str):
        self.log_path = tmp / "serve.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "atout.client.cli", *args],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        text = wait_for_log(self.proc, self.log_path, lambda text: "http://" in text)
        self.url = "http://" + text.split("http://", 1)[1].split()[0].rstrip("/")
        host_port = self.url.split("//")[1].split("/")[0]
        self.host, self.port = host_port.rsplit(":", 1)[0], int(host_port.rsplit(":", 1)[1])
        self.grpc = None
        for line in text.splitlines():
            if "listening on" in line:
                self.grpc = line.split("listening on ")[1].split()[0]

    def raw(self, request: bytes, close_after: float | None = None) -> bytes:
        with socket.create_connection((self.host, self.port), timeout=30) as s:
            s.sendall(request)
            if close_after is not None:
                time.sleep(close_after)
                return b""
            out = b""
            while chunk := s.recv(65536):
                out += chunk
            return out

    def post(self, path: str, body: dict, timeout: float = 60) -> tuple[int, dict]:
        import httpx
        r = httpx.post(self.url + path, json=body, timeout=timeout)
        return r.status_code, r.json()

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(30)
        finally:
            self.log.close()


def _request(path: str, body: bytes, method: str = "POST") -> bytes:
    return (f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


def test_serve_http_next_to_grpc_on_one_pool(tmp_path):
    server = Served(tmp_path, "serve", "--port", "0", "--http", "0", "--workers", "1",
                    "--tt-mb", str(TT_MB))
    try:
        assert server.host == "127.0.0.1" and server.grpc.startswith("127.0.0.1:")
        obj = endgame(PLAYED[3], 3)
        status, body = server.post("/api/solve", {"position": obj})
        assert status == 200
        with Client(server.grpc) as grpc_client:
            r = grpc_client.solve(obj, all_cards=True, timeout=30)
        assert without_timing(body) == without_timing(r.to_json())

        # a client that goes away: its search stops and the one worker is free at once
        slow = json.dumps({"position": at(PLAYED[0], 0), "time_limit": 60}).encode()
        server.raw(_request("/api/solve", slow), close_after=1.0)
        started = time.monotonic()
        status, body = server.post("/api/solve", {"position": obj}, timeout=20)
        assert status == 200 and body["status"] == "ok"
        assert time.monotonic() - started < 5

        # no path outside the package's files, whatever the request line says
        for path in ("/static/../app.py", "/static/../../setup.py", "/../server/app.py",
                     "/static/%2e%2e/app.py"):
            answer = server.raw(_request(path, b"", "GET"))
            assert answer.startswith(b"HTTP/1.1 404"), (path, answer[:80])
            assert b"import" not in answer

        # a body over the limit, chunked or not: its client reads the 413 (it read a reset)
        import httpx

        def chunks():
            for _ in range(256):
                yield b" " * 4096
        for content in (chunks(), b" " * (1 << 20)):
            r = httpx.post(server.url + "/api/solve", content=content, timeout=30,
                           headers={"Content-Type": "application/json"})
            assert r.status_code == 413 and r.json()["field"] == "body"
    finally:
        assert server.stop() == 0
    log = server.log_path.read_text()
    assert "Traceback" not in log


def test_atout_view_serves_the_file_given(tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(PLAYED[4]) + "\n" + '{"game": "fr4"}\n')
    server = Served(tmp_path, "view", str(path), "--port", "0", "--workers", "1", "--no-open")
    try:
        assert server.host == "127.0.0.1"
        assert server.url.endswith("#deal=0")
        import httpx
        deals = httpx.get(server.url.split("#")[0].rstrip("/") + "/api/deals").json()["deals"]
        assert deals == [PLAYED[4]]
        log = server.log_path.read_text()
        assert "line 2: hands: is missing" in log          # the refused line, named
    finally:
        assert server.stop() == 0
