"""Input at the edge of every interface (issue 34): text that is not Unicode or not printable,
numbers past 64 bits, option values at their extremes, values a message would change — one
verdict, field and reason from the command line, the HTTP API, the gRPC server and the
Python client, and never a traceback, a 5xx, a forged log line or a broken output stream.

The fuzzing that found these defects is tests/test_fuzz.py; each test here pins one of them.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from atout.client import Client
from atout.errors import PositionError
from atout.position import parse_position
from atout.printable import printable
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from deals import random_endgame
from interfaces import (ACCEPTED, Service, cli, cli_verdict, client_verdict, http_verdict,
                        server_verdict)

httpx = pytest.importorskip("httpx")

RNG = random.Random("edge")
P = random_endgame(RNG, "fr4", 2)                 # a small valid position, solved at once
P["id"] = "edge"
GAMES_AT = {g: random_endgame(RNG, g, 2) for g in ("fr3", "fr4", "fr5", "priest5", "at4")}
TRISCHAKEN = random_endgame(random.Random(5), "at4", 2, bid="trischaken")


def line(obj) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def with_(obj, **changes):
    out = copy.deepcopy(obj)
    out.update(changes)
    return out


def in_contract(obj, **changes):
    out = copy.deepcopy(obj)
    out["contract"].update(changes)
    return out


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    s = Service(tmp_path_factory.mktemp("edge"))
    yield s
    assert s.stop() == 0
    log = s.log_text()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


@pytest.fixture(scope="module")
def client(service):
    with Client(service.address) as c:
        yield c


def post(service, path: str, body) -> httpx.Response:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.post(service.url + path, content=data, timeout=60,
                      headers={"Content-Type": "application/json"})


# -- 1, 2: text in ids, on any terminal ---------------------------------------------------------

def test_a_lone_surrogate_in_an_id_is_refused_everywhere(service, client):
    bad = with_(P, id="\ud800")
    assert cli_verdict(line(bad)) == ("id", "must be Unicode text (it holds a lone surrogate)")
    code, out, err = cli(["validate"], line(bad))
    assert code == 1 and "id: must be Unicode text" in err
    for command in (["show"], ["solve", "--text"], ["solve"]):
        code, out, err = cli(command, line(bad))
        assert code == 1 and err == "line 1: id: must be Unicode text (it holds a lone surrogate)\n"
        assert "ud800" not in out          # a refused id is not echoed back
    assert client_verdict(client, bad) == cli_verdict(line(bad))
    for path in ("/api/validate", "/api/table", "/api/solve"):
        r = post(service, path, {"position": bad})
        assert http_verdict(r) == cli_verdict(line(bad)), (path, r.text)


@pytest.mark.parametrize("encoding", ["ascii", "utf-8", "latin-1"])
def test_ids_of_any_text_print_on_any_terminal(encoding):
    for ident in ("déjà-vu", "a\nline 9: json: forged", "\x1b[2J\x1b[31mred", "\u202eevil", "𝄞"):
        obj = with_(P, id=ident)
        for command in (["show"], ["solve", "--text"], ["analyze", "--last-tricks", "2"]):
            code, out, err = cli(command, line(obj), encoding=encoding)
            assert code == 0, (command, err)
            heading = out.splitlines()[0]
            assert heading.startswith(printable(ident, ascii=encoding != "utf-8")), heading
            assert "\x1b" not in out and "\u202e" not in out
            assert not any(l.startswith("line 9") for l in out.splitlines())


# -- 3: no 500, whatever text the request holds --------------------------------------------------

def test_http_lone_surrogates_anywhere_are_refused_naming_the_field(service):
    cases = [   # json.dumps writes a lone surrogate as the escape \\ud800, as a client may
        ({"position": {"\ud800": 1, **P}}, "\\ud800"),
        ({"position": in_contract(P, **{"\udfff": 1})}, "contract.\\udfff"),
        ({"\ud800": 1, "position": P}, "\\ud800"),
        ({"position": with_(P, id="\ud800")}, "id"),
    ]
    for body, field in cases:
        for path in ("/api/validate", "/api/table", "/api/solve", "/api/analyze"):
            r = post(service, path, json.dumps(body).encode())
            assert http_verdict(r)[0] == field, (path, r.text)
    assert "HTTP POST /api/solve" in service.log_text()


def test_atout_view_refuses_an_id_that_is_not_unicode(tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(with_(P, id="\ud800")) + "\n" + json.dumps(P) + "\n")
    from atout.server.deal_file import load_deals
    deals, problems = load_deals(str(path))
    assert deals == [P]
    assert problems == ["line 1: id: must be Unicode text (it holds a lone surrogate)"]


def test_atout_view_refuses_json_nested_too_deeply_as_validate_does(tmp_path):
    """A line of 100,000 "[" (the whole file, or one line of it): refused as `atout validate`
    refuses it, not a RecursionError."""
    from atout.server.deal_file import load_deals
    deep = "[" * 100000
    for text, number in ((deep + "\n", 1), (json.dumps(P) + "\n" + deep + "\n", 2)):
        path = tmp_path / "deals.jsonl"
        path.write_text(text)
        deals, problems = load_deals(str(path))
        assert problems == [f"line {number}: json: not valid JSON: nested too deeply"]
        assert deals == ([P] if number == 2 else [])
    assert cli_verdict(deep.encode()) == ("json", "not valid JSON: nested too deeply")


# -- 4: one verdict per input, whichever endpoint ------------------------------------------------

def test_an_integer_id_past_64_bits_is_refused_by_every_interface(service, client):
    for ident, ok in ((2 ** 63 - 1, True), (-2 ** 63, True), (2 ** 63, False), (-2 ** 63 - 1, False)):
        obj = with_(P, id=ident)
        verdict = cli_verdict(line(obj))
        assert (verdict == ACCEPTED) == ok, verdict
        assert client_verdict(client, obj) == verdict
        for path in ("/api/validate", "/api/table", "/api/solve", "/api/analyze"):
            extra = {"start": len(P["played"]) - 4} if path == "/api/analyze" else {}
            r = post(service, path, {"position": obj, **extra})
            assert http_verdict(r) == verdict, (path, r.text)
        if ok:
            assert client.solve(obj, timeout=30).id == ident


def test_http_null_means_the_default_for_every_option(service):
    for key in ("all", "time_limit", "node_limit", "slot"):
        r = post(service, "/api/solve", {"position": P, key: None})
        assert r.status_code == 200, (key, r.text)
        assert ("cards" in r.json()) == True  # noqa: E712 - all defaults to true
    r = post(service, "/api/analyze", {"position": P, "start": len(P["played"]) - 4,
                                       "time_limit": None})
    assert r.status_code == 200 and r.json()["status"] == "ok", r.text
    r = post(service, "/api/analyze", {"position": P, "start": None, "time_limit": 0.2})
    assert r.status_code == 200 and r.json()["status"] in ("ok", "limit"), r.text


# -- 5: what a protobuf Struct would change is refused as the command line refuses it -----------

@pytest.mark.parametrize("game,key", [("fr5", "taker"), ("fr4", "taker"), ("at4", "declarer"),
                                      ("priest5", "caller"), ("priest5", "dealer"),
                                      ("trischaken", "for_seat")])
def test_a_float_seat_is_refused_over_grpc_as_on_the_command_line(client, game, key):
    base = TRISCHAKEN if game == "trischaken" else GAMES_AT[game]
    seat = base["contract"][key]
    bad = in_contract(base, **{key: float(seat)})
    verdict = cli_verdict(line(bad))
    assert verdict != ACCEPTED and verdict[0] == f"contract.{key}"
    assert client_verdict(client, bad) == verdict
    with pytest.raises(PositionError):
        list(client.solve_batch([base, bad], timeout=30))
    assert client_verdict(client, base) == ACCEPTED


# -- 6, 7: option values at their extremes are usage errors --------------------------------------

@pytest.mark.parametrize("argv", [
    ["analyze", "--json", "--tt-mb", "99999999", "--last-tricks", "1"],
    ["solve", "--tt-mb", "99999999999999999999"],
    ["solve", "--node-limit", "99999999999999999999999"],
    ["solve", "--node-limit", str(2 ** 63)],
    ["solve", "--time-limit", "inf"],
    ["solve", "--time-limit", "1e999"],
    ["analyze", "--time-limit", "nan"],
    ["batch", "-", "-o", "/dev/null", "--node-limit", "0"],
])
def test_option_values_at_their_extremes_are_usage_errors(argv):
    code, out, err = cli(argv, line(P))
    assert code == 2 and out == "", err
    assert "error: argument --" in err and "must be" in err


def test_option_values_at_the_edge_of_their_range_work():
    for argv in (["solve", "--node-limit", str(2 ** 63 - 1)], ["solve", "--time-limit", "1e300"],
                 ["solve", "--time-limit", "1e-300"]):
        code, out, err = cli(argv, line(P))
        assert code == 0, err
        assert json.loads(out)["status"] in ("ok", "limit")


# -- 8: the right reason for a number too long ----------------------------------------------------

def test_a_number_of_thousands_of_digits_is_named_as_such(service):
    text = b'{"game": "fr4", "first": ' + b"9" * 5000 + b"}"
    code, out, err = cli(["validate"], text)
    assert err.startswith("line 1: json: not valid JSON: a number of more than ")
    assert "nested" not in err
    r = post(service, "/api/validate", b'{"position": ' + text + b"}")
    assert r.status_code == 400 and "a number of more than" in r.json()["reason"]
    for constant in (b"NaN", b"Infinity", b"-Infinity"):
        code, out, err = cli(["validate"], b'{"game": "fr4", "first": ' + constant + b"}")
        assert "is not a JSON number" in err


# -- 9: no forged log line -------------------------------------------------------------------------

def test_an_id_cannot_forge_a_log_line(service, client):
    forged = "x\n2026-01-01 00:00:00,000 atout.server Solve id=admin 0.001s OK"
    message = convert.position_message(P)
    message.text_id = forged
    client.stub.Solve(pb.SolveRequest(position=message, node_limit=1), timeout=30)
    r = httpx.post(service.url + "/api/%0aforged%1b[31m", timeout=10)
    assert r.status_code == 404
    lines = service.log_text().splitlines()
    assert not any(l.startswith("2026-01-01") for l in lines)
    assert any('id="x\\x0a2026-01-01' in l for l in lines)
    assert not any("\x1b" in l for l in lines)


# -- 10: the client gives the command line's verdict ------------------------------------------------

def test_the_client_refuses_as_the_command_line_does(service, client):
    nested = {"bid": "garde"}
    for _ in range(150):
        nested = {"x": nested}
    cases = [with_(P, id="\ud800"), with_(P, contract=nested),
             with_(P, hands=[[P["hands"][0]]] + P["hands"][1:]),
             with_(P, hands=[P["hands"][0][:-1] + [[["KS"]]]] + P["hands"][1:]),
             with_(P, first=True), with_(P, played="KS"), with_(P, **{"\x00": 1})]
    for obj in cases:
        verdict = cli_verdict(line(obj))
        assert verdict != ACCEPTED
        assert client_verdict(client, obj) == verdict, obj
        r = post(service, "/api/validate", {"position": obj})
        assert http_verdict(r) == verdict


# -- one set of bad inputs, every interface, one verdict ---------------------------------------------

def _bad_inputs():
    """Refused positions of every kind and game, and what they are."""
    cases = []
    for game, base in [*GAMES_AT.items(), ("trischaken", TRISCHAKEN)]:
        hands = base["hands"]
        cases += [
            ("unknown card", with_(base, hands=[["ZZ"] + hands[0][1:]] + hands[1:])),
            ("card twice", with_(base, hands=[hands[0][:-1] + [hands[1][0]]] + hands[1:])),
            ("short hand", with_(base, hands=[hands[0][:-1]] + hands[1:])),
            ("seat count", with_(base, hands=hands[:-1])),
            ("game", with_(base, game="bridge")),
            ("first", with_(base, first=len(hands))),
            ("first float", with_(base, first=0.0)),
            ("contract key", in_contract(base, zzz=1)),
            ("contract key text", in_contract(base, **{"\x1b[2J\u202e": 1})),
            ("contract not object", with_(base, contract=["bid"])),
            ("played token", with_(base, played=base["played"] + ["QQ"])),
            ("played again", with_(base, played=base["played"] + base["played"][-1:])),
            ("played not a list", with_(base, played={"0": "KS"})),
            ("id list", with_(base, id=["x"])),
            ("id long", with_(base, id="x" * 201)),
            ("id 2^63", with_(base, id=2 ** 63)),
            ("id bool", with_(base, id=True)),
            ("unknown top key", with_(base, **{"hand": []})),
            ("seat float", in_contract(base, **{k: 1.0 for k in ("taker", "declarer", "caller",
                                                                   "for_seat")
                                                 if k in base["contract"]})),
        ]
    return cases


def test_one_set_of_bad_inputs_gets_one_verdict_everywhere(service, client):
    compared_with_server = 0
    for label, obj in _bad_inputs():
        verdict = cli_verdict(line(obj))
        assert verdict != ACCEPTED, label
        with pytest.raises(PositionError) as local:
            parse_position(obj)
        assert (local.value.field, local.value.reason) == verdict, label
        for path in ("/api/validate", "/api/solve"):
            r = post(service, path, {"position": obj})
            assert http_verdict(r) == verdict, (label, path, r.text)
        assert client_verdict(client, obj) == verdict, label
        on_server = server_verdict(client, obj)
        if on_server is not None:
            assert on_server == verdict, label
            compared_with_server += 1
    assert compared_with_server > len(_bad_inputs()) // 2


# -- found by tests/test_fuzz.py -------------------------------------------------------------------

def test_the_first_unknown_key_is_the_same_whatever_the_order(client):
    """Over gRPC the contract is a protobuf map, which keeps no order: with two unknown keys,
    every interface names the same one."""
    for keys in (("zz", "aa"), ("aa", "zz"), ("dog2", "\x00")):
        obj = in_contract(GAMES_AT["priest5"], **{k: 1 for k in keys})
        verdict = cli_verdict(line(obj))
        assert verdict[0] == f"contract.{printable(min(keys))}"
        assert server_verdict(client, obj) == verdict
    side = copy.deepcopy(GAMES_AT["at4"])
    side["contract"]["side_cards"] = {"9": [], "7": [], **side["contract"]["side_cards"]}
    assert cli_verdict(line(side))[0] == "contract.side_cards.7"


def test_a_usage_error_quoting_what_was_typed_is_escaped():
    code, out, err = cli(["deal", "--game", "fr4", "--bid", "\ud7fc\x1b[2J"])
    assert code == 2
    assert err == "atout: --bid \\ud7fc\\x1b[2J: not a fr4 bid (prise, garde, garde_sans, " \
                  "garde_contre)\n"
