"""The service stays up when clients misbehave (issue 48): connections that never finish their
request, raw TCP with no TLS hello, clients sending one byte at a time, unauthenticated
megabyte messages — each costs the server nothing it cannot take back, within the caps and
timeouts of ``atout serve``; and every event is one line of the server's one log format.
Against a real ``atout serve`` with TLS and a token, caps made small so that a test needs
only a few connections."""

from __future__ import annotations

import json
import random
import re
import socket
import ssl
import threading
import time

import grpc
import pytest

from atout.client import Client
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from deals import random_endgame
from interfaces import Service

httpx = pytest.importorskip("httpx")
certs = pytest.importorskip("certs")   # needs the cryptography package

SMALL = random_endgame(random.Random("hostile"), "fr4", 2)
TOKEN = "h0stile-t0ken"
CAP = 6                 # --max-connections
#: how long a test waits for the server to close a connection it should close after 1 s (a
#: bound for a loaded machine, not a timing: before the caps, it never closed them)
PATIENCE = 15.0
#: one line of the log: its time, its source, its text (anything else — a traceback, gRPC's
#: own "I1127 12:00:00.0 123 ssl_transport_security.cc] …" — breaks the format)
LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (atout\.server|uvicorn\.error) \S")


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    ca = certs.Authority(folder, "ca")
    cert, key = ca.issue("server", server=True)
    token = folder / "token"
    token.write_text(TOKEN + "\n")
    s = Service(folder, "--tls-cert", str(cert), "--tls-key", str(key), "--token-file",
                str(token), "--max-connections", str(CAP), "--header-timeout", "1",
                "--body-timeout", "1", "--idle-timeout", "3")
    s.ca = str(ca.cert_path)
    s.http_port = int(s.url.rsplit(":", 1)[1])
    s.grpc_port = int(s.address.rsplit(":", 1)[1])
    yield s
    assert s.stop() == 0


def _tls(s) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=s.ca)


def _closed(sock) -> bool:
    """Whether the server closes ``sock`` (reading until it does, or PATIENCE runs out)."""
    sock.settimeout(PATIENCE)
    try:
        while sock.recv(4096):
            pass
        return True
    except (ConnectionResetError, ssl.SSLError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def _serves(s) -> None:
    """A whole request on each port, with the token, is answered."""
    with Client(s.address, tls_ca=s.ca, token=TOKEN) as c:
        assert c.solve(SMALL, timeout=60).status == "ok"
    r = httpx.post(s.url + "/api/solve", json={"position": SMALL}, timeout=60,
                   verify=_tls(s), headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200 and r.json()["status"] == "ok"


def _in_parallel(fn, n: int) -> list:
    out = [None] * n

    def run(i):
        try:
            out[i] = fn(i)
        except Exception as e:      # noqa: BLE001 - the test looks at each outcome
            out[i] = e
    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_half_sent_requests_are_capped_and_closed(guarded):
    """Twice the cap of TLS connections, each sending half a request's head: those past the
    cap are closed at once, the others when the head is late — none is held (they were held
    for as long as the client liked, with nothing to bound their number)."""
    def half(i):
        sock = _tls(guarded).wrap_socket(
            socket.create_connection(("127.0.0.1", guarded.http_port), timeout=PATIENCE),
            server_hostname="localhost")
        sock.sendall(b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\n")
        return _closed(sock)
    outcomes = _in_parallel(half, 2 * CAP)
    # past the cap a connection may already be closed during its handshake: an error then (a
    # timeout is one too, but a connection held: not allowed)
    assert all(o is True or isinstance(o, OSError) and not isinstance(o, TimeoutError)
               for o in outcomes), outcomes
    # within the cap, a handshake over the 1 s --header-timeout is cut too (twelve at once on
    # a loaded machine: CI saw 4 of 6 through), so how many get in is not fixed; some must,
    # and every one cut is told in the log, as past the cap or as a late handshake
    assert outcomes.count(True) >= 1, outcomes
    if outcomes.count(True) < CAP:
        said = "\n".join(guarded.log_lines())
        assert "took over" in said or "none idle to close" in said, said
    _serves(guarded)


def test_raw_connections_to_the_grpc_port_are_closed(guarded):
    """TCP connections to the gRPC port that never send a TLS hello: closed by the handshake
    timeout (they stayed open)."""
    socks = [socket.create_connection(("127.0.0.1", guarded.grpc_port), timeout=PATIENCE)
             for _ in range(CAP + 2)]
    assert all(_closed(sock) for sock in socks)
    _serves(guarded)


def test_slow_clients_are_cut_off(guarded):
    """A head sent a byte at a time is closed when it is late; a body sent a byte at a time
    is answered 408 (both were kept open as long as the bytes came)."""
    def slow_head(_):
        sock = _tls(guarded).wrap_socket(
            socket.create_connection(("127.0.0.1", guarded.http_port), timeout=PATIENCE),
            server_hostname="localhost")
        for byte in b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\n":
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                return True           # closed by the server while sending
            time.sleep(0.2)
        return _closed(sock)

    def slow_body(_):
        sock = _tls(guarded).wrap_socket(
            socket.create_connection(("127.0.0.1", guarded.http_port), timeout=PATIENCE),
            server_hostname="localhost")
        body = json.dumps({"position": SMALL}).encode()
        sock.sendall(b"POST /api/validate HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Type: application/json\r\n"
                     b"Authorization: Bearer " + TOKEN.encode() + b"\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body))
        answer = b""
        sock.settimeout(0.2)
        for byte in body:
            try:
                sock.sendall(bytes([byte]))
                answer += sock.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                break
            if answer:
                break
        return answer.split(b"\r\n")[0]
    head, body = _in_parallel(lambda i: (slow_head, slow_body)[i](i), 2)
    assert head is True
    assert body == b"HTTP/1.1 408 Request Timeout", body
    _serves(guarded)


def test_unauthenticated_calls_are_refused_before_their_message_is_read(guarded):
    """Without the token a call is refused before its message is read: one whose message
    never comes is refused at once (it waited for its message, then its deadline), and
    8 MiB messages cost the server no more than a window each (they were read and decoded
    first: 8 senders took a server from 55 MB to 2.9 GB); four senders here (the cap)."""
    credentials = grpc.ssl_channel_credentials(open(guarded.ca, "rb").read())
    method = "/atout.v1.Solver/Solve"
    with grpc.secure_channel(guarded.address, credentials) as channel:
        call = channel.stream_unary(method, request_serializer=lambda b: b,
                                    response_deserializer=lambda b: b)
        gate = threading.Event()

        def never():           # a request whose message the client never sends
            gate.wait(PATIENCE)
            return
            yield
        with pytest.raises(grpc.RpcError) as e:
            call(never(), timeout=PATIENCE - 1)
        gate.set()
        assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED, e.value.code()
    big = pb.SolveRequest(position=convert.position_message(
        {**SMALL, "id": "x" * ((8 << 20) - 4096)})).SerializeToString()
    before = guarded.rss_mb()

    def send(_):
        with grpc.secure_channel(guarded.address, credentials, options=[
                ("grpc.max_send_message_length", 16 << 20)]) as channel:
            call = channel.unary_unary(method, request_serializer=lambda b: b,
                                       response_deserializer=lambda b: b)
            codes = []
            for _ in range(4):
                try:
                    call(big, timeout=PATIENCE)
                except grpc.RpcError as e:
                    codes.append(e.code())
            return codes
    codes = _in_parallel(send, 4)
    grown = guarded.rss_mb() - before
    assert all(c == [grpc.StatusCode.UNAUTHENTICATED] * 4 for c in codes), \
        [c for c in codes if c != [grpc.StatusCode.UNAUTHENTICATED] * 4]
    assert grown < 64, f"the server grew by {grown:.0f} MB"
    _serves(guarded)


def test_every_event_is_one_line_of_one_format(guarded):
    """Plain text to the TLS port (gRPC's C core wrote a line of its own for each), a wrong
    method and path under /api, a 401 on /api/deals (none was logged), an id with spaces
    (unquoted), a deadline (logged CANCELLED when the client's deadline came first): each is
    one line of the log's format."""
    with grpc.insecure_channel(guarded.address) as channel:
        for _ in range(3):
            with pytest.raises(grpc.RpcError):
                channel.unary_unary("/atout.v1.Solver/Solve")(b"", timeout=10)
    verify = _tls(guarded)
    assert httpx.get(guarded.url + "/api/deals", verify=verify).status_code == 401
    r = httpx.get(guarded.url + "/api/solve", verify=verify)
    assert r.status_code == 405 and r.json()["field"] == "method"
    r = httpx.post(guarded.url + "/api/nothing", verify=verify)
    assert r.status_code == 404 and r.json() == {"error": "not_found", "field": "path",
                                                 "reason": "no such API endpoint"}
    with Client(guarded.address, tls_ca=guarded.ca, token=TOKEN) as c:
        assert c.solve({**SMALL, "id": 'deal "7" of 9'}, timeout=60).status == "ok"
    time.sleep(0.3)
    lines = guarded.log_lines()
    assert all(LINE.match(line) for line in lines), [l for l in lines if not LINE.match(l)]
    assert any(' id="deal \\x227\\x22 of 9" ' in l and l.endswith(" OK") for l in lines)
    for what in ("GET /api/deals", "GET /api/solve", "POST /api/nothing"):
        assert any(f"HTTP {what} peer=127.0.0.1 " in l for l in lines), what
    assert any(l.endswith(" 401 (a bearer token is required (Authorization: Bearer <token>))")
               for l in lines)


def test_an_advice_keeps_to_its_time_limit_and_stops_when_cancelled(tmp_path):
    """The drawing of an advice is bounded like its solving: `samples: 100000, time_limit: 1`
    is answered with what was drawn in time (it drew for 57 s first), and six Advise calls
    cancelled while they draw leave the server free — a batch right after is answered (the
    draws ran on for 40 s on the threads a batch's validation needs, and it timed out).
    And at the cap of HTTP connections, all held by half-sent requests, a whole request
    takes the place of the one idle longest instead of being refused."""
    from atout.proto.v1 import solver_pb2_grpc as pb_grpc

    s = Service(tmp_path, "--max-samples", "100000", "--max-connections", "4")
    try:
        port = int(s.url.rsplit(":", 1)[1])
        held = [socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
                for _ in range(4)]
        for sock in held:
            sock.sendall(b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\n")
            time.sleep(0.3)                 # the first is the one idle longest
        time.sleep(1.2)                     # idle long enough to be taken over
        r = httpx.post(s.url + "/api/validate", json={"position": SMALL}, timeout=30)
        assert r.status_code == 200 and r.json()["ok"]
        assert _closed(held[0])             # the one idle longest
        for sock in held:
            sock.close()
        many = random_endgame(random.Random("draws"), "fr4", 8)      # many deals to draw
        r = httpx.post(s.url + "/api/advise", timeout=45,
                       json={"position": many, "samples": 100000, "time_limit": 1, "seed": 1})
        assert r.status_code == 200, r.text
        advice = r.json()
        assert advice["status"] == "limit" and advice["solved"] + advice["limited"] < 100000
        with grpc.insecure_channel(s.address) as channel:
            stub = pb_grpc.SolverStub(channel)
            request = pb.AdviseRequest(position=convert.position_message(many), samples=100000,
                                       seed=2)
            calls = [stub.Advise.future(request, timeout=120) for _ in range(6)]
            time.sleep(1.0)
            for call in calls:
                call.cancel()
        with Client(s.address) as c:
            batch = list(c.solve_batch([SMALL, SMALL], timeout=20))
            assert sorted(i for i, _ in batch) == [0, 1]
    finally:
        assert s.stop() == 0


def _raw(s, data: bytes) -> bytes:
    """What the server sends back to ``data`` on one TLS connection, until it closes it."""
    raw = socket.create_connection(("127.0.0.1", s.http_port), timeout=PATIENCE)
    with _tls(s).wrap_socket(raw, server_hostname="localhost") as sock:
        sock.sendall(data)
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except (ConnectionResetError, ssl.SSLError, socket.timeout):
            pass
    return got


def test_a_head_over_16_kib_and_a_smuggled_request_are_refused(guarded):
    """A request head of 64 KiB sent at once is refused as one sent in parts is (h11 bounds
    only a head still arriving); a request with both Content-Length and chunked encoding is
    refused and its connection closed — the request smuggled behind it is not served; the
    client's cookie is Secure over TLS."""
    filler = "a" * (64 << 10)
    got = _raw(guarded, f"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Fill: {filler}\r\n\r\n"
                        .encode())
    assert got.startswith(b"HTTP/1.1 400"), got[:200]
    body = b"0\r\n\r\n"
    smuggled = b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"
    got = _raw(guarded, b"POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Type: "
                        b"application/json\r\nContent-Length: %d\r\nTransfer-Encoding: chunked"
                        b"\r\n\r\n" % len(body) + body + smuggled)
    assert got.startswith(b"HTTP/1.1 400") and got.count(b"HTTP/1.1 ") == 1, got[:300]
    r = httpx.get(guarded.url + "/api/health", verify=_tls(guarded), timeout=30)
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert "atout_client=" in cookie and "; Secure" in cookie and "HttpOnly" in cookie
