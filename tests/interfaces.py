"""The same input through every interface: the command line (in this process, on streams of a
chosen encoding), a real ``atout serve`` with gRPC and the HTTP API (a subprocess), and the
verdict each gives — for tests that compare them (test_edge.py, test_fuzz.py)."""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

import grpc
from google.protobuf.message import DecodeError

from atout.client import Client
from atout.client.cli import main
from atout.client.remote import _error
from atout.errors import PositionError
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from serving import ServerProcess

ACCEPTED = "accepted"


def cli(argv: list[str], stdin: bytes = b"", encoding: str = "utf-8") -> tuple[int, str, str]:
    """``atout ARGV`` in this process: (exit status, stdout, stderr). stdout and stderr are
    streams of ``encoding`` that refuse what they cannot encode, as a real terminal's
    would; any exception out of main() is a traceback the user would have seen."""
    out, err = io.BytesIO(), io.BytesIO()
    streams = [io.TextIOWrapper(b, encoding=encoding, errors="strict", newline="\n")
               for b in (out, err)]
    source = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    with mock.patch.object(sys, "stdin", source), redirect_stdout(streams[0]), \
            redirect_stderr(streams[1]):
        try:
            code = main(argv)
        except SystemExit as e:   # argparse: usage errors (2), --help (0)
            code = e.code if isinstance(e.code, int) else 2
        for s in streams:
            s.flush()
    return code, out.getvalue().decode(encoding), err.getvalue().decode(encoding)


def cli_verdict(line: bytes) -> tuple[str, str] | str:
    """(field, reason) of `atout solve` for one JSON line, or ACCEPTED."""
    code, out, err = cli(["solve", "--node-limit", "1"], line)
    assert code in (0, 1), (code, err)
    result = json.loads(out.splitlines()[0])
    return (result["field"], result["reason"]) if result["status"] == "error" else ACCEPTED


def http_verdict(response) -> tuple[str, str] | str:
    """(field, reason) of an HTTP API answer, or ACCEPTED: a refused position is 422, or
    for /api/validate 200 with ``"ok": false``."""
    assert response.status_code in (200, 422), (response.status_code, response.text)
    body = response.json()
    if response.status_code == 200 and body.get("ok") is not False:
        return ACCEPTED
    assert body["field"] and body["reason"], body
    return body["field"], body["reason"]


def client_verdict(client: Client, obj) -> tuple[str, str] | str:
    """(field, reason) of the Python gRPC client (its own check or the server's), or ACCEPTED."""
    try:
        client.solve(obj, node_limit=1, timeout=30)
    except PositionError as e:
        return e.field, e.reason
    return ACCEPTED


def server_verdict(client: Client, obj) -> tuple[str, str] | str | None:
    """(field, reason) of the gRPC server, sent the position's message as it is, or ACCEPTED;
    None when no message can carry the position exactly (the client's check answers then)."""
    try:
        message = convert.position_message(obj)
    except (PositionError, ValueError, TypeError, RecursionError):
        return None
    if not carried_exactly(obj, message):
        return None
    try:
        request = pb.SolveRequest(position=message, node_limit=1)
    except DecodeError:
        return None                 # (a contract nested past protobuf's depth limit)
    try:
        client.stub.Solve(request, timeout=30)
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, (e.code(), e.details())
        error = _error(e)
        assert error.violations, e.details()
        return error.field, error.reason
    return ACCEPTED


def carried_exactly(obj, message) -> bool:
    """Whether a message gives back ``obj`` exactly (a Struct turns 1.0 into 1, drops nulls)."""
    if not isinstance(obj, dict):
        return False
    back = convert.position_object(message)
    want = {k: v for k, v in obj.items() if v is not None}
    want.setdefault("played", [])
    try:
        return json.dumps(back, sort_keys=True) == json.dumps(want, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return False


class Service(ServerProcess):
    """A real ``atout serve`` on 127.0.0.1 (free ports, one worker): gRPC at ``address``, HTTP
    at ``url``."""

    def __init__(self, tmp: Path, *extra: str, http: bool = True, ready: str = "listening on"):
        super().__init__(tmp, *extra, worker_count=1, http=http, ready=ready, host=None)
