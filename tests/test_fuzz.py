"""Property-based fuzzing of every interface (Hypothesis): mutated positions of every game and
option values at their extremes, through every command, the HTTP API and gRPC.

Whatever comes in: no traceback (the command line runs in this process, so any exception out
of ``main`` fails the test), no 5xx, no UNKNOWN or INTERNAL, a named field on every refusal,
one line per refusal on stderr, nothing unprintable in what is written for people — and one
verdict, field and reason from the command line, the HTTP API, the gRPC server and the
Python client for the same position.

Bounded: 25 to 50 examples per property, times ``ATOUT_FUZZ_SCALE`` (default 1: about half
a minute in all on an idle core; 20 for a long hunt).  Hypothesis draws new examples each
run, and prints any failing one with the seed that reproduces it.
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import grpc
import pytest
from google.protobuf.message import DecodeError

hypothesis = pytest.importorskip("hypothesis")
httpx = pytest.importorskip("httpx")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from atout.cards import tokens  # noqa: E402
from atout.client import Client  # noqa: E402
from atout.deal import random_endgame  # noqa: E402
from atout.games import GAMES, deck_of  # noqa: E402
from atout.errors import PositionError  # noqa: E402
from atout.proto import convert  # noqa: E402
from atout.proto.v1 import solver_pb2 as pb  # noqa: E402
from interfaces import (ACCEPTED, Service, cli, client_verdict, http_verdict,  # noqa: E402
                        server_verdict)

SCALE = float(os.environ.get("ATOUT_FUZZ_SCALE", "1"))


def examples(n: int):
    return settings(max_examples=max(1, int(n * SCALE)), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))

# positions to mutate: small endgames (every search stays short), a finished deal, a whole
# deal, of every game and contract family
_rng = random.Random("fuzz")
PLAYED = Path(__file__).resolve().parent / "data" / "played.jsonl"
BASES = ([random_endgame(_rng, g, _rng.choice((1, 2, 3)), partial=_rng.random() < 0.5)
          for g in GAMES for _ in range(3)]
         + [random_endgame(_rng, "at4", 2, bid=b) for b in ("trischaken", "bettler", "solorufer")]
         + [json.loads(PLAYED.read_text().splitlines()[0])])           # a finished deal
ALL_TOKENS = sorted({t for g in GAMES for t in tokens(deck_of(g))})

# -- what a user might send ----------------------------------------------------------------------

ODD_TEXT = ["", " ", "\ud800", "\udfff", "a\ud800b", "\x00", "\n", "a\nline 9: json: forged",
            "\x1b[2J\x1b[31m", "\u202e", "\u2028", "déjà-vu", "𝄞", "\ufeff", "KS", "T22", "EX ",
            "ks", "fr4", "garde", "x" * 201, "9" * 40]
text = st.one_of(st.sampled_from(ODD_TEXT),
                 st.text(st.characters(exclude_categories=()), max_size=12))
EXTREME_NUMBERS = [0, -1, 1, 2 ** 31, 2 ** 53 + 1, 2 ** 63 - 1, 2 ** 63, 2 ** 64, -2 ** 63 - 1,
                   10 ** 30, 0.0, -0.0, 1.0, 2.0, 0.5, 1e308, 5e-324, -1e308]
scalars = st.one_of(st.none(), st.booleans(), st.sampled_from(EXTREME_NUMBERS),
                    st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=False,
                                                              allow_infinity=False), text)
json_values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4)
                           | st.dictionaries(text, kids, max_size=3), max_leaves=8)
cards = st.one_of(st.sampled_from(ALL_TOKENS), scalars)


def _nest(value, depth: int, as_list: bool):
    for _ in range(depth):
        value = [value] if as_list else {"x": value}
    return value


@st.composite
def mutated_positions(draw):
    """A position of any game with 0 to 3 mutations: cards moved, duplicated, dropped,
    replaced; illegal plays; wrong types; unknown fields; huge numbers; odd text; deep
    nesting; fields missing."""
    obj = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from((
            "set top", "set contract", "drop key", "hand card", "move card", "dup card",
            "drop card", "play card", "unplay", "id", "nest", "game", "seat")))
        hands = obj.get("hands") if isinstance(obj.get("hands"), list) else None
        contract = obj.get("contract") if isinstance(obj.get("contract"), dict) else None
        hand = (draw(st.sampled_from(hands)) if hands else None)
        if kind == "set top":
            key = draw(st.one_of(st.sampled_from(["id", "game", "hands", "first", "played",
                                                  "contract"]), text))
            obj[key] = draw(json_values)
        elif kind == "set contract" and contract is not None:
            key = draw(st.one_of(st.sampled_from(sorted(contract) or ["bid"]), text))
            contract[key] = draw(json_values)
        elif kind == "drop key":
            target = draw(st.sampled_from([obj] + ([contract] if contract else [])))
            if target:
                target.pop(draw(st.sampled_from(sorted(target))))
        elif kind == "hand card" and isinstance(hand, list) and hand:
            hand[draw(st.integers(0, len(hand) - 1))] = draw(cards)
        elif kind in ("move card", "dup card") and hands and isinstance(hand, list) and hand:
            other = draw(st.sampled_from(hands))
            card = hand[draw(st.integers(0, len(hand) - 1))]
            if kind == "move card":
                hand.remove(card)
            if isinstance(other, list):
                other.append(card)
        elif kind == "drop card" and isinstance(hand, list) and hand:
            hand.pop(draw(st.integers(0, len(hand) - 1)))
        elif kind == "play card" and isinstance(obj.get("played"), list):
            obj["played"].append(draw(cards))
        elif kind == "unplay" and isinstance(obj.get("played"), list) and obj["played"]:
            obj["played"].pop(draw(st.integers(0, len(obj["played"]) - 1)))
        elif kind == "id":
            obj["id"] = draw(st.one_of(text, st.sampled_from(EXTREME_NUMBERS)))
        elif kind == "nest":
            key = draw(st.sampled_from(sorted(obj) or ["game"]))
            obj[key] = _nest(obj.get(key), draw(st.sampled_from((1, 2, 99, 101, 150, 400))),
                             draw(st.booleans()))
        elif kind == "game":
            obj["game"] = draw(st.sampled_from(GAMES))
        elif kind == "seat":
            where = draw(st.sampled_from([obj] + ([contract] if contract else [])))
            keys = [k for k in ("first", "taker", "declarer", "caller", "dealer", "for_seat")
                    if k in where]
            if keys:
                seat = where[draw(st.sampled_from(keys))]
                where[draw(st.sampled_from(keys))] = draw(st.sampled_from(
                    [float(seat) if isinstance(seat, int) else 1.0, True, str(seat), -1, 5,
                     2 ** 64, None, [seat]]))
    return obj


# -- the service, once for the module ------------------------------------------------------------

@pytest.fixture(scope="module")
def service(tmp_path_factory):
    s = Service(tmp_path_factory.mktemp("fuzz"))
    yield s
    assert s.stop() == 0
    log = s.log_text()
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]
    for line in log.splitlines():
        assert line.isprintable(), repr(line)


@pytest.fixture(scope="module")
def client(service):
    with Client(service.address) as c:
        yield c


def post(service, path: str, body: bytes) -> httpx.Response:
    return httpx.post(service.url + path, content=body, timeout=60,
                      headers={"Content-Type": "application/json"})


def _for_people(text: str) -> None:
    """What is written for people holds no character that could garble a terminal."""
    for line in text.split("\n"):
        assert line.isprintable(), repr(line)


COMMANDS = (["validate"], ["score"], ["show"], ["solve", "--node-limit", "2000"],
            ["solve", "--text", "--node-limit", "2000", "--all"],
            ["analyze", "--json", "--last-tricks", "1", "--time-limit", "0.1"],
            ["analyze", "--last-tricks", "1", "--time-limit", "0.1"])


def _run_commands(line: bytes, encoding: str):
    """Every reading command on one line; the verdict of `solve`."""
    verdict = None
    for argv in COMMANDS:
        code, out, err = cli(argv, line, encoding)
        assert code in (0, 1), (argv, code, err)
        _for_people(err)
        for message in err.splitlines():
            assert message.count(": ") >= 2, (argv, message)   # <label>: <field>: <reason>
        if "--json" not in argv and argv[0] in ("show", "validate") or "--text" in argv:
            _for_people(out)
        if argv[0] == "solve" and "--text" not in argv and out:
            result = json.loads(out.splitlines()[0])
            verdict = ((result["field"], result["reason"]) if result["status"] == "error"
                       else ACCEPTED)
            assert (code == 1) == (verdict != ACCEPTED)
    return verdict


@examples(50)
@given(obj=mutated_positions(), encoding=st.sampled_from(["utf-8", "ascii"]))
def test_mutated_positions_through_every_interface(service, client, obj, encoding):
    line = json.dumps(obj).encode()   # lone surrogates travel as \ud800, as JSON allows
    verdict = _run_commands(line, encoding)

    for path, extra in (("/api/validate", {}), ("/api/table", {}),
                        ("/api/solve", {"node_limit": 2000}),
                        ("/api/analyze", {"time_limit": 0.1})):
        if path == "/api/analyze" and verdict == ACCEPTED:
            extra["start"] = max(0, len(obj.get("played") or []) - len(obj["hands"]))
        r = post(service, path, json.dumps({"position": obj, **extra}).encode())
        assert http_verdict(r) == verdict, (path, r.text)

    assert client_verdict(client, obj) == verdict
    on_server = server_verdict(client, obj)
    assert on_server is None or on_server == verdict


ADVISE = (["advise", "--samples", "2", "--time-limit", "0.2"],
          ["advise", "--text", "--samples", "2", "--time-limit", "0.2"])


@examples(25)
@given(obj=mutated_positions(), seat=st.one_of(st.none(), st.sampled_from([0, 1, 2, 3, 4, -1]),
                                               scalars),
       encoding=st.sampled_from(["utf-8", "ascii"]))
def test_mutated_positions_advised_through_every_interface(service, client, obj, seat, encoding):
    """The advice (a newer surface: positions of one legal card, finished deals, seats not
    to play): `atout advise` (JSON and in words), POST /api/advise and gRPC Advise give the
    same verdict, a refusal names its field, nothing else fails."""
    line = json.dumps(obj).encode()
    verdicts = set()
    for argv in ADVISE:
        code, out, err = cli(argv, line, encoding)
        assert code in (0, 1), (argv, code, err)
        _for_people(err)
        _for_people(out)
        for message in err.splitlines():
            assert message.count(": ") >= 2, (argv, message)
        if "--text" not in argv and out:
            result = json.loads(out.splitlines()[0])
            verdicts.add((result["field"], result["reason"]) if result["status"] == "error"
                         else ACCEPTED)
    body = {"position": obj, "samples": 2, "time_limit": 0.2}
    if seat is not None:
        body["seat"] = seat
    r = post(service, "/api/advise", json.dumps(body).encode())
    assert r.status_code in (200, 422), r.text
    if seat is None:
        assert {http_verdict(r)} == verdicts or not verdicts, (verdicts, r.text)
    elif r.status_code == 422:
        assert r.json()["field"] and r.json()["reason"], r.text
    try:
        message = convert.position_message(obj)
        request = pb.AdviseRequest(position=message, samples=2, time_limit=0.2)
    except (PositionError, ValueError, TypeError, RecursionError, DecodeError):
        return                      # no message carries it (the client's own check answers)
    if type(seat) is int and -2 ** 31 <= seat < 2 ** 31:
        request.seat = seat
    try:
        client.stub.Advise(request, timeout=30)
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, (e.code(), e.details())
        from atout.client.remote import _error
        assert _error(e).field, e.details()


@examples(25)
@given(line=st.builds(lambda obj, cut, junk: (json.dumps(obj).encode()[:cut] + junk),
                      mutated_positions(), st.integers(0, 4000),
                      st.sampled_from([b"", b"\xff", b"\xed\xa0\x80", b"\x00", b"}", b"[",
                                       b"NaN", b"9" * 5000, b"\\ud800\"", b"\r"])),
       encoding=st.sampled_from(["utf-8", "ascii"]))
def test_broken_json_lines(service, line, encoding):
    """Bytes cut anywhere and junk added: a refused line names the json field, or the line
    is a position like any other; HTTP bodies the same, 400 or 422."""
    line = line.replace(b"\n", b" ")
    verdict = _run_commands(line + b"\n", encoding)
    if verdict is None:          # a blank line: skipped, as it should be
        return
    if verdict != ACCEPTED:
        assert verdict[0] and verdict[1]
    r = post(service, "/api/validate", b'{"position": ' + line + b"}")
    assert r.status_code in (200, 400, 422), r.text
    if r.status_code != 200:
        assert r.json()["field"] and r.json()["reason"]


# -- option values at their extremes -------------------------------------------------------------

EXTREME_TEXT = ["0", "-1", "1", "2", "0.5", "1e-320", "1e308", "1e999", "inf", "-inf", "nan",
                str(2 ** 31), str(2 ** 63 - 1), str(2 ** 63), str(2 ** 64), "9" * 30, "9" * 5000,
                "", " ", "x", "0x10", "1_000", "\ud800", "\x00", "--"]
option_text = st.one_of(st.sampled_from(EXTREME_TEXT), st.integers(-2 ** 70, 2 ** 70).map(str),
                        st.floats().map(repr), st.text(max_size=6))
POSITION = json.dumps(BASES[3]).encode() + b"\n"
COMMAND_OPTIONS = {
    "solve": ["--time-limit", "--node-limit", "--tt-mb", "--threads"],
    "analyze": ["--time-limit", "--tt-mb", "--threads", "--start", "--last-tricks"],
    "batch": ["--time-limit", "--node-limit", "--tt-mb", "--workers"],
    "deal": ["--tricks-left", "--seed", "--game", "--bid"],
    "serve": ["--port", "--http", "--workers", "--tt-mb", "--grace"],
    "view": ["--port", "--workers", "--tt-mb"],
}


@examples(40)
@given(command=st.sampled_from(sorted(COMMAND_OPTIONS)), data=st.data())
def test_option_values_at_their_extremes(tmp_path_factory, command, data):
    """Every command's numeric and text options: a usage error (exit 2, one line naming the
    option) or a run that ends normally; never a traceback.  batch, serve and view stop
    where their work would start (it is not theirs to test here)."""
    chosen = data.draw(st.lists(st.sampled_from(COMMAND_OPTIONS[command]), min_size=1,
                                max_size=2, unique=True))
    argv = [command]
    for option in chosen:
        argv += [option, data.draw(option_text)]
    if command == "analyze":     # the last value given counts: every analysis stays short
        argv += ["--time-limit", "0.1"]
    if command == "solve" and "--node-limit" not in chosen:
        argv += ["--node-limit", "5000"]
    if command == "batch":
        argv[1:1] = ["-", "-o", str(tmp_path_factory.mktemp("batch") / "out.jsonl")]
    started = []
    with mock.patch("atout.server.app.run", lambda *a, **k: started.append(a) or 0), \
            mock.patch("atout.runner.batch.solve_all", lambda *a, **k: started.append(a) or
                       SimpleNamespace(solved=0, seconds=0.0, skipped=0, ok=0, limits=0,
                                       errors=0, crashed=0)):
        code, out, err = cli(argv, POSITION)
    assert code in (0, 1, 2), (argv, code, err)
    _for_people(err)
    if code == 2:
        assert not started, argv
        assert "error: argument --" in err or err.startswith("atout"), err


@examples(25)
@given(time_limit=st.one_of(st.none(), scalars), node_limit=st.one_of(st.none(), scalars),
       start=st.one_of(st.none(), scalars), all_cards=st.one_of(st.none(), scalars),
       slot=st.one_of(st.none(), text))
def test_request_options_at_their_extremes(service, client, time_limit, node_limit, start,
                                           all_cards, slot):
    """The HTTP API's options: 200, or 422 naming the option; gRPC's raw request fields:
    OK, or INVALID_ARGUMENT naming the field."""
    position = BASES[3]
    if start is None or (type(start) in (int, float) and 0 <= start < len(position["played"])):
        # a whole deal's analysis takes minutes: start at the last card (or past the end)
        start = len(position["played"]) - 1
    body = {"position": position, "time_limit": time_limit, "node_limit": node_limit,
            "all": all_cards, "slot": slot}
    r = post(service, "/api/solve", json.dumps(body).encode())
    assert r.status_code in (200, 422), r.text
    if r.status_code == 422:
        assert r.json()["field"] in ("time_limit", "node_limit", "all", "slot"), r.text
    r = post(service, "/api/analyze", json.dumps({"position": position, "start": start,
                                                  "time_limit": time_limit}).encode())
    assert r.status_code in (200, 422), r.text
    if r.status_code == 422:
        assert r.json()["field"] in ("time_limit", "start"), r.text

    message = convert.position_message(position)
    requests = []
    if isinstance(time_limit, float) or type(time_limit) is int and abs(time_limit) < 2 ** 60:
        requests.append(("Solve", pb.SolveRequest(position=message, time_limit=time_limit,
                                                  node_limit=1000)))
        requests.append(("Analyze", pb.AnalyzeRequest(
            position=message, time_limit=time_limit,
            start=start if type(start) is int and 0 <= start < 2 ** 32
            else len(position["played"]) - 1)))
    if type(node_limit) is int and 0 <= node_limit < 2 ** 64:
        requests.append(("Solve", pb.SolveRequest(position=message, node_limit=node_limit,
                                                  time_limit=1)))
        requests.append(("SolveBatch", pb.SolveBatchRequest(positions=[message],
                                                             node_limit=node_limit,
                                                             time_limit=1)))
    for method, request in requests:
        call = getattr(client.stub, method)
        try:
            reply = call(request, timeout=30)
            if method == "SolveBatch":
                list(reply)
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, (method, e.code(), e.details())
            from atout.client.remote import _error
            assert _error(e).field in ("time_limit", "node_limit", "start"), e.details()


METHODS = [("/atout.v1.Solver/Solve", False), ("/atout.v1.Solver/Analyze", False),
           ("/atout.v1.Solver/SolveBatch", True), ("/atout.v1.Solver/Advise", False),
           ("/atout.v1.Solver/AdviseBatch", True), ("/grpc.health.v1.Health/Check", False)]


@st.composite
def request_bytes(draw):
    """A valid request's bytes, then flipped, cut, spliced or replaced."""
    position = convert.position_message(draw(st.sampled_from(BASES[:-1])))
    kind = draw(st.sampled_from(["solve", "analyze", "batch"]))
    if kind == "solve":
        data = pb.SolveRequest(position=position, node_limit=5000).SerializeToString()
    elif kind == "analyze":
        data = pb.AnalyzeRequest(position=position, time_limit=0.2,
                                 start=max(0, len(position.played) - 2)).SerializeToString()
    else:
        data = pb.SolveBatchRequest(positions=[position] * 2, node_limit=5000).SerializeToString()
    data = bytearray(data)
    for _ in range(draw(st.integers(0, 4))):
        what = draw(st.sampled_from(["flip", "cut", "insert", "replace"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if what == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif what == "cut":
            del data[at:at + draw(st.integers(1, 40))]
        elif what == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            data = bytearray(draw(st.binary(max_size=64)))
    return bytes(data)


@examples(30)
@given(data=request_bytes(), method=st.sampled_from(METHODS))
def test_any_bytes_on_every_method(service, data, method):
    """Whatever bytes arrive as a request: an answer (OK, INVALID_ARGUMENT naming a field,
    NOT_FOUND for a health check of no such service, DEADLINE_EXCEEDED for bytes that make a
    long search, e.g. a whole deal), never UNKNOWN or INTERNAL."""
    path, streaming = method
    with grpc.insecure_channel(service.address) as channel:
        make = channel.unary_stream if streaming else channel.unary_unary
        call = make(path, request_serializer=lambda b: b, response_deserializer=lambda b: b)
        try:
            reply = call(data, timeout=3)
            if streaming:
                list(reply)
        except grpc.RpcError as e:
            assert e.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND,
                                grpc.StatusCode.DEADLINE_EXCEEDED), (path, e.code(), e.details())
            if e.code() == grpc.StatusCode.INVALID_ARGUMENT:
                from atout.client.remote import _error
                assert _error(e).field, e.details()


# -- a link, read as the page reads it ----------------------------------------------------------

from atout.present import link  # noqa: E402
from atout.position import parse_position  # noqa: E402
import link_corpus  # noqa: E402

LINK_DEALS = link_corpus.deals(random.Random("fuzz-links"), 10)
LINK_PAYLOADS = [link.encode(o) for o in LINK_DEALS]
LINK_PARTS = ("d", "deal", "card", "from", "whatif", "seat")


@st.composite
def links(draw):
    """A link: a good payload with characters or bits changed, or odd text; its parts given
    once, twice or not at all, with values good and odd; any address before the "#"."""
    payload = draw(st.sampled_from(LINK_PAYLOADS))
    for _ in range(draw(st.integers(0, 2))):
        if not payload:             # cut to nothing, or an empty text drawn: nothing to change
            break
        at = draw(st.integers(0, len(payload) - 1))
        what = draw(st.sampled_from(["char", "bit", "cut", "text"]))
        if what == "bit" and not all(ch in link.ALPHABET for ch in payload):
            what = "cut"            # (a text drawn before has no bits to flip)
        if what == "char":
            payload = payload[:at] + draw(st.sampled_from(link.ALPHABET + "%+=&é ")) + payload[at + 1:]
        elif what == "bit":
            bits = link._Reader(payload).bits
            bits[draw(st.integers(0, len(bits) - 1))] ^= 1
            payload = link_corpus.payload_of(bits)
        elif what == "cut":
            payload = payload[:at]
        else:
            payload = draw(text)
    parts = [f"d={payload}"] if draw(st.integers(0, 9)) else []
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.one_of(st.sampled_from(LINK_PARTS), text))
        value = draw(st.one_of(st.sampled_from(link_corpus.VIEW_VALUES + ["6D,T3", "EX,,1S"]),
                               st.integers(0, 80).map(str), text))
        parts.insert(draw(st.integers(0, len(parts))), f"{name}={value}")
    address = draw(st.one_of(st.sampled_from(link_corpus.ADDRESSES), text))
    return address + "#" + "&".join(parts)


@examples(200)
@given(url=links())
def test_a_link_is_one_deal_or_a_refusal_naming_its_part(url):
    """atout/present/link.py's reader (the page's follows the same rules: tests/test_viewer_link.py
    compares them on a corpus): a LinkError naming a part of the link, a PositionError
    naming the deal's field under d., or the deal — whose payload is then the one atout
    writes for it (one deal, one link: an integer id miswritten is no second link)."""
    try:
        read = link.parse_link(url)
    except link.LinkError as e:
        assert e.field in LINK_PARTS and e.reason, (e.field, e.reason)
        return
    try:
        shown = link.read_link(url)
    except link.LinkError as e:
        assert e.field in ("card", "from", "whatif", "seat") and e.reason
    except PositionError as e:
        assert e.field.startswith("d.") and e.reason
    else:
        assert shown["position"] == read["position"]
    try:
        parse_position(read["position"])
    except PositionError:
        return
    assert link.encode(read["position"]) == link.link_parts(url)["d"]


@examples(10)
@given(url=links(), encoding=st.sampled_from(["utf-8", "ascii"]))
def test_atout_show_link_says_one_line(url, encoding):
    """`atout show --link`: the table, or one line on stderr naming the part, never a
    traceback (`http://[x]/#d=…` was one: urlsplit raised)."""
    code, out, err = cli(["show", "--link", url], encoding=encoding)
    assert code in (0, 1), (code, err)
    _for_people(err)
    if code:
        assert len(err.splitlines()) == 1 and err.startswith("link: "), err


# -- atout report, on analysis lines changed ----------------------------------------------------

def _analyses() -> list[dict]:
    """Analysis lines as `atout batch --analyze` writes them: finished, bounded by the time
    limit (some values and costs only bounded), one failed."""
    from atout.runner.batch import analyze_line
    rng = random.Random("fuzz-report")
    lines = []
    for game, limit in (("fr4", None), ("fr3", None), ("at4", 0.001)):
        obj = random_endgame(rng, game, 3)
        obj["id"] = game
        # the last 3 tricks only: a random endgame comes with its whole deal's cards played
        # before it, and a whole deal's analysis without a limit runs for hours
        line = analyze_line(json.dumps(obj).encode(), 1,
                            {"tt_mb": 8, "time_limit": limit, "last_tricks": 3})
        lines.append(line)
    lines.append(analyze_line(b'{"id": "bad", "game": "fr4"}', 2, {"tt_mb": 8}))
    return lines


ANALYSES = _analyses()
REPORT_KEYS = ("status", "plays", "seats", "start_value", "start_bounds", "made", "position",
               "stopped_by", "id")


@st.composite
def analysis_lines(draw):
    """An analysis line with 1 to 3 changes: a field dropped or set to anything (at the top,
    in a play, in a seat's row), the status changed, plays dropped or repeated."""
    obj = copy.deepcopy(draw(st.sampled_from(ANALYSES)))
    for _ in range(draw(st.integers(1, 3))):
        plays = obj.get("plays") if isinstance(obj.get("plays"), list) else []
        seats = obj.get("seats") if isinstance(obj.get("seats"), list) else []
        rows = [x for x in plays + seats if isinstance(x, dict)]
        target = draw(st.sampled_from([obj] + rows))
        kind = draw(st.sampled_from(["drop", "set", "status", "plays"]))
        if kind == "drop" and target:
            target.pop(draw(st.sampled_from(sorted(target))))
        elif kind == "set":
            keys = sorted(target) + list(REPORT_KEYS if target is obj else ())
            target[draw(st.one_of(st.sampled_from(keys or ["x"]), text))] = draw(json_values)
        elif kind == "status":
            obj["status"] = draw(st.sampled_from(["ok", "limit", "error", None, 1]))
        elif kind == "plays" and plays:
            if draw(st.booleans()):
                plays.pop(draw(st.integers(0, len(plays) - 1)))
            else:
                plays.append(copy.deepcopy(draw(st.sampled_from(plays))))
    return obj


@examples(40)
@given(objs=st.lists(analysis_lines(), min_size=1, max_size=3),
       encoding=st.sampled_from(["utf-8", "ascii"]))
def test_atout_report_on_changed_analysis_lines(tmp_path_factory, objs, encoding):
    """`atout report`: the page of the lines that are analyses, each other line one line on
    stderr (`-: line N: field: reason`), never a traceback (a limit's line without
    `start_value` was a KeyError)."""
    data = b"".join(json.dumps(o).encode() + b"\n" for o in objs)
    code, out, err = cli(["report", "-", "-o", "-"], data, encoding)
    assert code in (0, 1, 2), (code, err)
    _for_people(err)
    lines = err.splitlines()
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("atout: -: no analysis"), err
    else:
        assert out.startswith("<!DOCTYPE html>") and (code == 1) == bool(lines)
        for message in lines:
            assert message.startswith("-: line ") and message.count(": ") >= 3, message
