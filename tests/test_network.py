"""The service facing a network (issue 35): TLS and mutual TLS with certificates made here,
the bearer token on gRPC and HTTP (right, wrong, missing; health open), every form of bad
message answered INVALID_ARGUMENT with one log line, and each limit per request at its edge
— against real ``atout serve`` processes on 127.0.0.1."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from atout.client import Client, ServiceError
from atout.client.remote import _error
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from atout.proto.v1 import solver_pb2_grpc as pb_grpc
from atout.server.limits import Limits
from atout.server.security import exposure_warnings
from deals import random_endgame
from interfaces import Service, cli
from serving import ServerProcess

httpx = pytest.importorskip("httpx")
certs = pytest.importorskip("certs")   # needs the cryptography package

SMALL = random_endgame(random.Random("net"), "fr4", 2)
HARD = json.loads((Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl")
                  .read_text().splitlines()[0])
TOKEN = "s3cret-t0ken"


def _trust(ca: str, cert=None):
    """An SSL context for httpx: trusting ``ca``, presenting ``cert`` (a (cert, key) pair)."""
    import ssl
    context = ssl.create_default_context(cafile=ca)
    if cert is not None:
        context.load_cert_chain(*cert)
    return context


def raw_call(address: str, method: str, data: bytes, *, streaming=False, credentials=None,
             metadata=None):
    """``data`` sent as the request of ``method`` (/package.Service/Method), unparsed."""
    channel = (grpc.secure_channel(address, credentials) if credentials
               else grpc.insecure_channel(address))
    with channel:
        make = channel.unary_stream if streaming else channel.unary_unary
        call = make(method, request_serializer=lambda b: b, response_deserializer=lambda b: b)
        reply = call(data, timeout=30, metadata=metadata)
        return list(reply) if streaming else reply


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pki")
    ca = certs.Authority(folder, "ca")
    server = ca.issue("server", server=True)
    client = ca.issue("client", server=False)
    stranger = certs.Authority(folder, "other-ca").issue("stranger", server=False)
    token = folder / "token"
    token.write_text(TOKEN + "\n")
    return {"ca": ca.cert_path, "server": server, "client": client, "stranger": stranger,
            "token": token, "folder": folder}


# -- TLS and the token -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tls_service(pki, tmp_path_factory):
    cert, key = pki["server"]
    s = Service(tmp_path_factory.mktemp("tls"), "--tls-cert", str(cert), "--tls-key", str(key),
                "--token-file", str(pki["token"]))
    yield s
    assert s.stop() == 0
    assert "Traceback" not in s.log_text()


def test_tls_and_the_token_over_grpc(pki, tls_service):
    assert "TLS" in tls_service.log_text() and "token required" in tls_service.log_text()
    with Client(tls_service.address, tls_ca=str(pki["ca"]), token=TOKEN) as c:
        assert c.solve(SMALL, timeout=30).status == "ok"
        assert [i for i, _ in c.solve_batch([SMALL, SMALL], timeout=30)] in ([0, 1], [1, 0])
        assert c.advise(SMALL, samples=2, seed=1, timeout=30)["status"] == "ok"
    for token in (None, "wrong", TOKEN + "x", TOKEN[:-1]):
        with Client(tls_service.address, tls_ca=str(pki["ca"]), token=token) as c:
            with pytest.raises(ServiceError) as e:
                c.solve(SMALL, timeout=30)
            assert e.value.code == grpc.StatusCode.UNAUTHENTICATED
            with pytest.raises(ServiceError) as e:
                list(c.advise_batch([SMALL], samples=2, timeout=30))
            assert e.value.code == grpc.StatusCode.UNAUTHENTICATED
    # plain text to a TLS port: no answer but an error
    with Client(tls_service.address) as c:
        with pytest.raises(ServiceError) as e:
            c.solve(SMALL, timeout=10)
        assert e.value.code == grpc.StatusCode.UNAVAILABLE
    # health stays open without a token; reflection does not
    credentials = grpc.ssl_channel_credentials(pki["ca"].read_bytes())
    with grpc.secure_channel(tls_service.address, credentials) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        assert health.Check(health_pb2.HealthCheckRequest(), timeout=10).status == \
            health_pb2.HealthCheckResponse.SERVING
    from grpc_reflection.v1alpha import reflection_pb2
    request = reflection_pb2.ServerReflectionRequest(list_services="").SerializeToString()
    with pytest.raises(grpc.RpcError) as e:
        raw_call(tls_service.address, "/grpc.reflection.v1alpha.ServerReflection/"
                 "ServerReflectionInfo", request, streaming=True, credentials=credentials)
    assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
    lines = [l for l in tls_service.log_text().splitlines() if "UNAUTHENTICATED" in l]
    assert len(lines) >= 5


def test_the_bearer_scheme_is_taken_in_any_case(pki, tls_service):
    """RFC 7235 section 2.1: the scheme is case-insensitive; the token itself is not."""
    credentials = grpc.ssl_channel_credentials(pki["ca"].read_bytes())
    method = "/atout.v1.Solver/Solve"
    request = pb.SolveRequest(position=convert.position_message(SMALL)).SerializeToString()
    for scheme in ("bearer", "BEARER", "bEaReR"):
        reply = raw_call(tls_service.address, method, request, credentials=credentials,
                         metadata=(("authorization", f"{scheme} {TOKEN}"),))
        assert pb.SolveResult.FromString(reply).status == pb.STATUS_OK
        r = httpx.post(tls_service.url + "/api/validate", json={"position": SMALL},
                       verify=_trust(str(pki["ca"])), timeout=30,
                       headers={"Authorization": f"{scheme} {TOKEN}"})
        assert r.status_code == 200 and r.json()["ok"], r.text
    with pytest.raises(grpc.RpcError) as e:
        raw_call(tls_service.address, method, request, credentials=credentials,
                 metadata=(("authorization", f"bearer {TOKEN.upper()}"),))
    assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_tls_and_the_token_over_http(pki, tls_service):
    assert tls_service.url.startswith("https://127.0.0.1:")
    url, ca = tls_service.url, str(pki["ca"])
    body = {"position": SMALL}
    r = httpx.post(url + "/api/solve", json=body, verify=_trust(ca), timeout=30,
                   headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200 and r.json()["status"] == "ok"
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                    {"Authorization": f"Bearer  {TOKEN}"}, {"Authorization": f"Basic {TOKEN}"}):
        for path in ("/api/solve", "/api/validate", "/api/advise"):
            r = httpx.post(url + path, json=body, verify=_trust(ca), timeout=30, headers=headers)
            assert r.status_code == 401 and r.json()["field"] == "Authorization", r.text
            assert r.headers["www-authenticate"].startswith("Bearer")
        assert httpx.get(url + "/api/deals", verify=_trust(ca), headers=headers).status_code == 401
    assert httpx.get(url + "/", verify=_trust(ca)).status_code == 200     # the page itself is open
    health = httpx.get(url + "/api/health", verify=_trust(ca))            # and health
    assert health.status_code == 200 and health.json() == {"status": "serving"}
    with pytest.raises(httpx.HTTPError):
        httpx.post(url.replace("https", "http") + "/api/solve", json=body, timeout=10)


def test_cli_solve_over_tls_with_a_token(pki, tls_service, tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(SMALL) + "\n")

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "atout.client.cli", "solve", str(src),
                               "--server", tls_service.address, *extra],
                              capture_output=True, text=True, timeout=120)
    ok = run("--tls-ca", str(pki["ca"]), "--token-file", str(pki["token"]))
    assert ok.returncode == 0 and json.loads(ok.stdout)["status"] == "ok", ok.stderr
    wrong = tmp_path / "wrong"
    wrong.write_text("nope\n")
    refused = run("--tls-ca", str(pki["ca"]), "--token-file", str(wrong))
    assert refused.returncode == 2 and "UNAUTHENTICATED" in refused.stderr
    assert "Traceback" not in refused.stderr
    missing = run("--tls-ca", str(pki["folder"] / "nothing.pem"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_mutual_tls_refuses_a_client_without_a_certificate(pki, tmp_path):
    cert, key = pki["server"]
    s = Service(tmp_path, "--tls-cert", str(cert), "--tls-key", str(key),
                "--tls-client-ca", str(pki["ca"]))
    try:
        assert "with client certificates" in s.log_text()
        client_cert, client_key = pki["client"]
        with Client(s.address, tls_ca=str(pki["ca"]), client_cert=str(client_cert),
                    client_key=str(client_key)) as c:
            assert c.solve(SMALL, timeout=30).status == "ok"
        stranger_cert, stranger_key = pki["stranger"]
        for extra in ({}, {"client_cert": str(stranger_cert), "client_key": str(stranger_key)}):
            with Client(s.address, tls_ca=str(pki["ca"]), **extra) as c:
                with pytest.raises(ServiceError) as e:
                    c.solve(SMALL, timeout=10)
                assert e.value.code == grpc.StatusCode.UNAVAILABLE
        ca = str(pki["ca"])
        r = httpx.post(s.url + "/api/validate", json={"position": SMALL},
                       verify=_trust(ca, (str(client_cert), str(client_key))), timeout=30)
        assert r.status_code == 200
        for cert_pair in (None, (str(stranger_cert), str(stranger_key))):
            with pytest.raises(httpx.HTTPError):
                httpx.post(s.url + "/api/validate", json={"position": SMALL},
                           verify=_trust(ca, cert_pair), timeout=10)
    finally:
        assert s.stop() == 0


def test_bad_tls_or_token_files_are_usage_errors(pki, tmp_path):
    cert, key = pki["server"]
    empty = tmp_path / "empty"
    empty.write_text("\n")
    spaced = tmp_path / "spaced"
    spaced.write_text("two words\n")
    for extra in (["--tls-cert", str(cert)], ["--tls-key", str(key)],
                  ["--tls-cert", str(key), "--tls-key", str(cert)],
                  ["--tls-cert", str(cert), "--tls-key", str(pki["client"][1])],
                  ["--tls-client-ca", str(pki["ca"])],
                  ["--tls-cert", str(cert), "--tls-key", str(key), "--tls-client-ca", str(key)],
                  ["--token-file", str(tmp_path / "none")], ["--token-file", str(empty)],
                  ["--token-file", str(spaced)], ["--tt-mb", "64", "--max-tt-mb", "32"]):
        r = subprocess.run([sys.executable, "-m", "atout.client.cli", "serve", "--port", "0",
                            *extra], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and r.stderr.startswith("atout: "), (extra, r.stderr)
        assert "Traceback" not in r.stderr


def test_a_warning_when_serving_beyond_loopback_without_tls_or_a_token(pki):
    tls = object()
    assert exposure_warnings(["127.0.0.1"], None, None) == []
    assert exposure_warnings(["::1"], None, None) == []
    assert exposure_warnings(["localhost"], None, None) == []
    both = exposure_warnings(["0.0.0.0"], None, None)
    assert len(both) == 2 and "without TLS" in both[0] and "without a token" in both[1]
    assert ["without a token" in w for w in exposure_warnings(["::"], tls, None)] == [True]
    assert ["without TLS" in w for w in exposure_warnings(["10.0.0.1"], None, b"t")] == [True]
    assert exposure_warnings(["example.org"], tls, b"t") == []


def test_serving_on_every_address_warns_at_start(tmp_path):
    s = Service(tmp_path, "--host", "0.0.0.0", http=False)
    try:
        log = s.log_text()
        assert "warning: serving on 0.0.0.0 without TLS" in log
        assert "warning: serving on 0.0.0.0 without a token" in log
    finally:
        assert s.stop() == 0


def test_serving_on_the_ipv6_loopback(tmp_path):
    """`atout serve --host ::1`: both ports on [::1] (gRPC refused the address unbracketed)."""
    import socket
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
    except OSError:
        pytest.skip("no IPv6 loopback here")
    s = ServerProcess(tmp_path, worker_count=1, http=True, host="::1")
    try:
        assert s.address.startswith("[::1]:") and s.url.startswith("http://[::1]:")
        with Client(s.address) as c:
            assert c.solve(SMALL, timeout=30).status == "ok"
        assert httpx.get(s.url + "/api/health", timeout=10).json() == {"status": "serving"}
    finally:
        assert s.stop() == 0


# -- bad messages ------------------------------------------------------------------------------

def _varint(n: int) -> bytes:
    out = b""
    while True:
        byte, n = n & 0x7F, n >> 7
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _deep_contract(depth: int) -> bytes:
    """A SolveRequest whose position's contract nests ``depth`` Structs (written by hand:
    protobuf will not write what it would not read)."""
    value = b""
    for _ in range(depth):
        struct = _field(1, _field(1, b"x") + _field(2, value))     # fields {"x": value}
        value = _field(5, struct)                                  # Value.struct_value
    contract = _field(1, _field(1, b"x") + _field(2, value))
    position = _field(2, b"fr4") + _field(6, contract)
    return _field(1, position)


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    s = Service(tmp_path_factory.mktemp("plain"))
    yield s
    assert s.stop() == 0


def test_bad_messages_are_invalid_argument_with_one_log_line(plain):
    good = pb.SolveRequest(position=convert.position_message(SMALL)).SerializeToString()
    not_utf8 = pb.SolveRequest(position=pb.Position(game="fr4")).SerializeToString().replace(
        b"fr4", b"f\xff4")
    forms = {"garbage": b"\xff\xff\xff\xff", "truncated": good[:-7],
             "wrong wire type": b"\x0d\x00\x00\x00",
             "not UTF-8": not_utf8, "nested too deep": _deep_contract(120)}
    methods = [("/atout.v1.Solver/Solve", False, "atout.v1.SolveRequest"),
               ("/atout.v1.Solver/Analyze", False, "atout.v1.AnalyzeRequest"),
               ("/atout.v1.Solver/SolveBatch", True, "atout.v1.SolveBatchRequest"),
               ("/atout.v1.Solver/Advise", False, "atout.v1.AdviseRequest"),
               ("/atout.v1.Solver/AdviseBatch", True, "atout.v1.AdviseBatchRequest"),
               ("/grpc.health.v1.Health/Check", False, "grpc.health.v1.HealthCheckRequest")]
    before = len(plain.log_text().splitlines())
    calls = 0
    for label, data in forms.items():
        for method, streaming, type_name in methods:
            if label in ("nested too deep", "not UTF-8") and "Health" in method:
                continue   # those shapes are the Solver's messages
            with pytest.raises(grpc.RpcError) as e:
                raw_call(plain.address, method, data, streaming=streaming)
            assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (label, method,
                                                                        e.value.details())
            assert type_name in e.value.details(), e.value.details()
            assert _error(e.value).field == "request"
            calls += 1
    time.sleep(0.3)
    lines = plain.log_text().splitlines()[before:]
    assert len([l for l in lines if "INVALID_ARGUMENT (not a valid" in l]) == calls, lines
    assert "Traceback" not in plain.log_text() and "Unexpected" not in plain.log_text()
    # a contract that decodes but is not docs/format.md's object: refused by the rules, naming it
    with Client(plain.address) as c:
        message = convert.position_message(SMALL)
        message.contract.Clear()
        message.contract.fields["bid"].list_value.values.add().number_value = 1
        with pytest.raises(grpc.RpcError) as e:
            c.stub.Solve(pb.SolveRequest(position=message), timeout=30)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert _error(e.value).field.startswith("contract")
        assert c.solve(SMALL, timeout=30).status == "ok"        # and serving on


def test_an_empty_object_or_a_value_with_no_kind_is_not_read_as_not_given(plain):
    """`"counting": {}` in an at4 contract: the command line refuses it, and so does the
    server, whether the message carries an empty object or a Value with no kind (the
    client's conversion sent the latter, which the server read as null: "not given")."""
    at4 = random_endgame(random.Random("counting"), "at4", 2)
    obj = {**at4, "contract": {**at4["contract"], "counting": {}}}
    code, out, err = cli(["solve"], (json.dumps(obj) + "\n").encode())
    assert code == 1 and "contract.counting" in err
    assert convert.position_message(obj).contract.fields["counting"].HasField("struct_value")
    no_kind = convert.position_message(at4)
    no_kind.contract.fields["counting"].Clear()
    for message in (convert.position_message(obj), no_kind):
        with Client(plain.address) as c, pytest.raises(grpc.RpcError) as e:
            c.stub.Solve(pb.SolveRequest(position=message), timeout=30)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert _error(e.value).field == "contract.counting", e.value.details()


# -- limits per request at their edge ------------------------------------------------------------

def test_limits_unit():
    small = Limits(max_time_limit=5.0, max_tt_mb=32)
    assert small.time_limit(None) == 5.0 and small.time_limit(9.0) == 5.0
    assert small.time_limit(5.0) == 5.0 and small.time_limit(0.5) == 0.5
    # every bound on by default (a request with no limit, no deadline, gets 120 s)
    assert Limits().time_limit(None) == 120.0 and Limits().time_limit(7.0) == 7.0
    assert (Limits().max_positions, Limits().max_samples) == (1000, 1000)
    endgame, whole = SMALL, HARD
    assert small.tt_mb(None, endgame) == 16        # the default, already below
    assert small.tt_mb(None, whole) == 32           # 4096 by default, lowered
    assert small.tt_mb(8, whole) == 8               # the server's own --tt-mb
    assert Limits().tt_mb(None, whole) is None      # no bound: the default, growing
    assert Limits(max_tt_mb=4096).tt_mb(None, whole) is None


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    s = Service(tmp_path_factory.mktemp("limits"), "--max-time-limit", "1.5",
                "--max-positions", "3", "--max-tt-mb", "32", "--max-samples", "5")
    yield s
    assert s.stop() == 0
    assert "Traceback" not in s.log_text()


def test_max_time_limit_and_max_positions(limited):
    with Client(limited.address) as c:
        r = c.solve(HARD, timeout=60)                 # no limit asked: gets 1.5 s
        assert r.status == "limit" and r.bounds
        r = c.solve(HARD, time_limit=1000, timeout=60)  # more asked: 1.5 s too
        assert r.status == "limit"
        assert len(list(c.solve_batch([SMALL] * 3, timeout=60))) == 3
        with pytest.raises(ServiceError) as e:
            list(c.solve_batch([SMALL] * 4, timeout=60))
        assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert e.value.violations[0][0] == "positions" and "--max-positions" in e.value.details
        # an advice: the same bounds (its draws stopped at 1.5 s count with their bounds)
        a = c.advise(HARD, samples=2, seed=1, time_limit=1000, timeout=60)
        assert a["status"] == "limit" and a["limited"] + a["solved"] < 2 + 1
        with pytest.raises(ServiceError) as e:
            list(c.advise_batch([SMALL] * 4, samples=2, timeout=60))
        assert e.value.violations[0][0] == "positions" and "--max-positions" in e.value.details
        with pytest.raises(ServiceError) as e:
            c.advise(SMALL, samples=6, timeout=60)
        assert e.value.violations[0][0] == "samples" and "--max-samples" in e.value.details
    r = httpx.post(limited.url + "/api/advise", json={"position": SMALL, "samples": 6},
                   timeout=60)
    assert r.status_code == 422 and r.json()["field"] == "samples"
    r = httpx.post(limited.url + "/api/solve", json={"position": HARD, "time_limit": 100},
                   timeout=60)
    assert r.status_code == 200 and r.json()["status"] == "limit"
    assert r.json()["time_limit"] == 1.5
    r = httpx.post(limited.url + "/api/advise", json={"position": HARD, "samples": 2,
                                                      "time_limit": 100}, timeout=60)
    assert r.status_code == 200 and r.json()["status"] == "limit"
    assert r.json()["time_limit"] == 1.5


def _slow_calls(address: str, n: int):
    """``n`` calls on a deal that takes minutes (time limit 60 s), started one after the
    other, each once the server logs nothing new for it: (channel, futures) — cancel them."""
    channel = grpc.insecure_channel(address)
    stub = pb_grpc.SolverStub(channel)
    request = pb.SolveRequest(position=convert.position_message(HARD), time_limit=60)
    futures = []
    for _ in range(n):
        futures.append(stub.Solve.future(request, timeout=120))
        time.sleep(1.0)          # it reaches the server (a wait, not a timing asserted)
    return channel, futures


def test_calls_per_peer_refuse_at_once(tmp_path):
    """One worker, two calls per peer: a slow call runs, a second waits, and a third from the
    same address is refused at once — over gRPC RESOURCE_EXHAUSTED, over HTTP 429 — instead
    of waiting a minute."""
    limited = Service(tmp_path, "--max-calls-per-peer", "2")
    channel, futures = _slow_calls(limited.address, 2)
    try:
        with Client(limited.address) as c:
            with pytest.raises(ServiceError) as e:
                c.solve(SMALL, timeout=30)
            assert e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "--max-calls-per-peer" in e.value.details
        r = httpx.post(limited.url + "/api/solve", json={"position": SMALL}, timeout=30)
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert "--max-calls-per-peer" in r.json()["reason"]
        assert not any(f.done() for f in futures)
    finally:
        for f in futures:
            f.cancel()
        channel.close()
    try:
        with Client(limited.address) as c:          # and all is free again
            assert c.solve(SMALL, timeout=30).status == "ok"
    finally:
        assert limited.stop() == 0


def test_the_queue_limit_alone(tmp_path):
    s = Service(tmp_path, "--max-queue", "0")
    try:
        channel, futures = _slow_calls(s.address, 1)
        try:
            with Client(s.address) as c:
                with pytest.raises(ServiceError) as e:
                    c.solve(SMALL, timeout=30)
                assert e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "--max-queue" in e.value.details
            r = httpx.post(s.url + "/api/solve", json={"position": SMALL}, timeout=30)
            assert r.status_code == 429 and "--max-queue" in r.json()["reason"]
            assert not futures[0].done()
        finally:
            futures[0].cancel()
            channel.close()
        # the stopped search's worker comes back at once, but not before the next call may
        # arrive: until then that call, with no queue, is refused too
        with Client(s.address) as c:
            for _ in range(100):
                try:
                    assert c.solve(SMALL, timeout=30).status == "ok"
                    break
                except ServiceError as e:
                    assert e.code == grpc.StatusCode.RESOURCE_EXHAUSTED
                    time.sleep(0.1)
            else:
                raise AssertionError("the worker never came back")
    finally:
        assert s.stop() == 0
