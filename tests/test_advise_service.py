"""Advice through the service: gRPC ``Advise`` and ``AdviseBatch`` on a real ``atout serve``,
and ``POST /api/advise`` through Starlette's test client — the same advice as
``atout.solver.advise.advise`` with the same seed, bad input refused naming the field."""

from __future__ import annotations

import random
import warnings

import grpc
import pytest

from atout.client import Client, InvalidPositionError, ServiceError
from atout.client.remote import _error
from atout.errors import PositionError
from atout.proto import convert
from atout.proto.v1 import solver_pb2 as pb
from atout.position import parse_position
from atout.solver.advise import advise
from deals import GAMES, random_endgame
from serving import TT_MB, ServerProcess

pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from atout.server.http import HttpApi  # noqa: E402



def _same(one: dict, two: dict) -> bool:
    strip = ("nodes", "seconds")
    return ({k: v for k, v in one.items() if k not in strip}
            == {k: v for k, v in two.items() if k not in strip})


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("serve"))
    with Client(s.address) as client:
        yield client
    assert s.stop() == 0


def _positions(n: int, tricks=(2, 3, 4)):
    rng = random.Random("advise-service")
    return [dict(random_endgame(rng, GAMES[i % len(GAMES)], rng.choice(tricks),
                                partial=rng.random() < 0.5), id=f"p{i}") for i in range(n)]


def test_grpc_advise_equals_local(server):
    for obj in _positions(5):
        local = advise(obj, samples=12, seed=9, tt_mb=TT_MB).to_json()
        remote = server.advise(obj, samples=12, seed=9, timeout=120)
        assert _same(local, remote), (local, remote)
        assert remote["id"] == obj["id"]


def _same_budgeted(local: dict, remote: dict) -> bool:
    """The same advice, the server's time limit (its own default: a deadline, no budget
    of the caller's) aside."""
    remote = dict(remote, budget=dict(remote["budget"], time_limit=None))
    return _same(local, remote)


def test_grpc_budgeted_advice_equals_local(server):
    """A node budget: each draw a capped job of the pool, on one thread — the same advice
    as atout advise's, bounds and all."""
    for obj in _positions(4, tricks=(4, 5)):
        local = advise(obj, samples=12, seed=9, tt_mb=TT_MB, node_limit=200_000).to_json()
        remote = server.advise(obj, samples=12, seed=9, node_limit=200_000, timeout=120)
        assert local["budget"]["draw_nodes"] == 25_000
        assert _same_budgeted(local, remote), (local, remote)


def test_grpc_advise_takes_the_confidence_asked(server):
    """The confidence travels (absent, the 0.95 of atout advise): the same advice as the
    local one asked the same, in one call and in a batch."""
    objs = _positions(3)
    for confidence in (0.5, 1.0):
        for obj in objs:
            local = advise(obj, samples=12, seed=9, confidence=confidence, tt_mb=TT_MB).to_json()
            remote = server.advise(obj, samples=12, seed=9, confidence=confidence, timeout=120)
            assert remote["confidence"] == confidence and _same(local, remote), (local, remote)
        got = dict(server.advise_batch(objs, samples=12, seed=9, confidence=confidence,
                                       timeout=300))
        assert all(got[i]["confidence"] == confidence for i in range(len(objs)))
    assert server.advise(objs[0], samples=12, seed=9, timeout=120)["confidence"] == 0.95


def test_grpc_advise_batch_streams_every_position(server):
    objs = _positions(6)
    got = dict(server.advise_batch(objs, samples=6, seed=4, timeout=300))
    assert sorted(got) == list(range(len(objs)))
    for i, obj in enumerate(objs):
        assert _same(got[i], advise(obj, samples=6, seed=4, tt_mb=TT_MB).to_json())


def test_grpc_advise_refusals(server):
    obj = _positions(1)[0]
    to_play = parse_position(obj).to_play
    seats = len(obj["hands"])
    with pytest.raises(InvalidPositionError) as e:
        server.advise(obj, seat=(to_play + 1) % seats, timeout=30)
    assert e.value.field == "seat" and e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    finished = random_endgame(random.Random(1), "fr4", 0)
    with pytest.raises(InvalidPositionError) as e:
        server.advise(finished, timeout=30)
    assert e.value.field == "played"
    with pytest.raises(PositionError) as e:     # the client's own check
        server.advise(obj, samples=10 ** 6, timeout=30)
    assert e.value.field == "samples" and not isinstance(e.value, ServiceError)
    position = convert.position_message(obj)     # and the server's, sent raw
    for request, field in [(pb.AdviseRequest(position=position, samples=10 ** 6), "samples"),
                           (pb.AdviseRequest(position=position, seat=seats), "seat"),
                           (pb.AdviseRequest(position=position, time_limit=-1), "time_limit"),
                           (pb.AdviseRequest(position=position, confidence=0.3), "confidence"),
                           (pb.AdviseRequest(position=position, confidence=float("nan")),
                            "confidence")]:
        with pytest.raises(grpc.RpcError) as raw:
            server.stub.Advise(request, timeout=30)
        assert _error(raw.value).field == field
    bad = dict(obj, hands=obj["hands"][:-1])
    with pytest.raises(PositionError) as e:     # the client's own check, as for solve_batch
        list(server.advise_batch([obj, bad], timeout=30))
    assert e.value.field == "positions[1].hands" and not isinstance(e.value, ServiceError)
    request = pb.AdviseBatchRequest(positions=[position, convert.position_message(bad)])
    with pytest.raises(grpc.RpcError) as raw:   # and the server's, sent raw
        list(server.stub.AdviseBatch(request, timeout=30))
    assert _error(raw.value).field == "positions[1].hands"


def test_grpc_advise_time_limit_and_deadline(server):
    whole = random_endgame(random.Random(2), "fr4", 18)
    advice = server.advise(whole, samples=4, seed=1, time_limit=0.2, timeout=60)
    assert advice["status"] == "limit" and advice["stopped_by"] == "time"
    assert advice["solved"] + advice["limited"] <= 4
    with pytest.raises(ServiceError) as e:
        server.advise(whole, samples=4, seed=1, timeout=0.5)
    assert e.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    # the workers are free again at once
    small = _positions(1)[0]
    assert server.advise(small, samples=4, seed=1, timeout=60)["status"] == "ok"


@pytest.fixture(scope="module")
def http():
    api = HttpApi(None, workers=2, tt_mb=TT_MB)
    with TestClient(api.app) as c:
        yield c


def test_http_advise_equals_local(http):
    for obj in _positions(3):
        r = http.post("/api/advise", json={"position": obj, "samples": 10, "seed": 3})
        assert r.status_code == 200, r.text
        assert _same(r.json(), advise(obj, samples=10, seed=3, tt_mb=TT_MB).to_json())
    obj = _positions(1)[0]
    r = http.post("/api/advise", json={"position": obj, "samples": 10, "seed": 3,
                                       "confidence": 0.6})
    assert r.status_code == 200 and r.json()["confidence"] == 0.6, r.text
    assert _same(r.json(), advise(obj, samples=10, seed=3, confidence=0.6, tt_mb=TT_MB).to_json())


def test_http_budgeted_advice_equals_local(http):
    """A node limit gives atout advise's budgeted answer; ``budget: true`` makes a time
    limit a budget (``budget`` in the answer, ``recommended`` as ever: what a bot asks for
    a card); a time limit alone stays a deadline, as clients written before budgets read it
    (every card's mean)."""
    obj = _positions(1, tricks=(5,))[0]
    r = http.post("/api/advise", json={"position": obj, "samples": 10, "seed": 3,
                                       "node_limit": 150_000})
    assert r.status_code == 200, r.text
    local = advise(obj, samples=10, seed=3, node_limit=150_000, tt_mb=TT_MB).to_json()
    assert _same_budgeted(local, r.json())
    r = http.post("/api/advise", json={"position": obj, "seat": parse_position(obj).to_play,
                                       "time_limit": 2, "seed": 3, "budget": True})
    assert r.status_code == 200 and r.json()["budget"]["time_limit"] == 2, r.text
    assert r.json()["recommended"] in {row["card"] for row in r.json()["cards"]}
    r = http.post("/api/advise", json={"position": obj, "time_limit": 2, "seed": 3})
    assert r.status_code == 200 and "budget" not in r.json()
    r = http.post("/api/advise", json={"position": obj, "budget": "yes"})
    assert r.status_code == 422 and r.json()["field"] == "budget"


def test_http_fair_bot_reads_nothing_its_seat_cannot_know(http):
    """The viewer's fair bot sends the whole deal (every advice request does) with its seat
    and ``budget: true``: the server draws from what that seat can know, so two deals it
    cannot tell apart (the hidden cards dealt again) get the same answer.  A node limit
    beside the bot's time limit, so that both are searched alike; fr5, where the called
    king's holder is hidden too."""
    from atout.knowledge import seat_knowledge, view
    from atout.sampler import Sampler
    rng = random.Random("fair-bot")
    obj = random_endgame(rng, "fr5", 6, partial=True, called_where="partner")
    pos = parse_position(obj)
    while len(pos.legal_cards()) < 2:
        obj = random_endgame(rng, "fr5", 6, partial=True, called_where="partner")
        pos = parse_position(obj)
    seat = pos.to_play
    other = next(o for o in Sampler(seat_knowledge(pos, seat)).positions(rng, 30)
                 if parse_position(o).hands != pos.hands)
    assert view(parse_position(other), seat) == view(pos, seat)
    answers = []
    for deal in (obj, other):
        r = http.post("/api/advise", json={"position": dict(deal, id="bot"), "seat": seat,
                                           "samples": 12, "seed": 4, "time_limit": 30,
                                           "budget": True, "node_limit": 150_000})
        assert r.status_code == 200, r.text
        answers.append(r.json())
    assert _same(*answers) and answers[0]["budget"]


@pytest.mark.parametrize("change,field", [
    ({"seat": 9}, "seat"), ({"samples": 0}, "samples"), ({"samples": 2.5}, "samples"),
    ({"seed": -1}, "seed"), ({"time_limit": 0}, "time_limit"), ({"colour": 1}, "colour"),
    ({"confidence": 2}, "confidence"), ({"confidence": "high"}, "confidence"),
    ({"node_limit": 0}, "node_limit"),
])
def test_http_advise_bad_input(http, change, field):
    obj = _positions(1)[0]
    r = http.post("/api/advise", json={"position": obj, **change})
    assert r.status_code == 422 and r.json()["field"] == field, r.text


def test_http_advise_refuses_a_seat_not_to_play_and_a_finished_deal(http):
    obj = _positions(1)[0]
    seats = len(obj["hands"])
    other = (parse_position(obj).to_play + 1) % seats
    r = http.post("/api/advise", json={"position": obj, "seat": other})
    assert r.status_code == 422 and r.json()["field"] == "seat" and "not to play" in r.text
    finished = random_endgame(random.Random(1), "fr4", 0)
    r = http.post("/api/advise", json={"position": finished})
    assert r.status_code == 422 and r.json()["field"] == "played"
    # null is "not given", as for every field: the defaults
    r = http.post("/api/advise", json={"position": obj, "seat": None, "samples": 3,
                                       "seed": None, "time_limit": None})
    assert r.status_code == 200 and r.json()["samples"] == 3


def test_http_advise_limit(http):
    whole = random_endgame(random.Random(2), "fr4", 18)
    r = http.post("/api/advise", json={"position": whole, "samples": 2, "seed": 1, "time_limit": 0.2})
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "limit" and body["time_limit"] == 0.2


def test_http_table_from_a_seat(http):
    """/api/table with a seat: the other hands face down (counts only), the outside cards it
    has not seen face down, and no camp, role or points that would give the partner away
    while its card is unplayed."""
    from atout.knowledge import seat_knowledge
    rng = random.Random("table-seat")
    obj = random_endgame(rng, "fr5", 12, bid="garde_sans", called_where="partner")
    pos = parse_position(obj)
    seat = next(s for s in range(5) if s not in (pos.contract.declarer, pos.contract.partner))
    r = http.post("/api/table", json={"position": obj, "seat": seat})
    assert r.status_code == 200, r.text
    t = r.json()
    assert t["view_seat"] == seat
    assert [len(h) for h in t["hands"]] == [len(pos.held[s]) if s == seat else 0 for s in range(5)]
    assert t["hidden"] == [0 if s == seat else len(pos.held[s]) for s in range(5)]
    assert t["outside"][0]["cards"] == [] and t["outside"][0]["hidden"] == 3    # garde sans: unseen
    assert t["legal"] == ([] if pos.to_play != seat else t["legal"])
    if pos.contract.called in seat_knowledge(pos, seat).hidden:
        assert t["won"] is None and t["camps"][pos.contract.partner] is None
        assert t["roles"][pos.contract.partner] == "defender or partner"
        assert "held by seat" not in t["contract"]
    every = http.post("/api/table", json={"position": obj}).json()
    assert "view_seat" not in every and all(every["hands"])
    bad = http.post("/api/table", json={"position": obj, "seat": 5})
    assert bad.status_code == 422 and bad.json()["field"] == "seat"
