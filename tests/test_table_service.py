"""The contract table over gRPC (``Table``, streamed cells) and HTTP
(``/api/contract-table[/stream]``) against a real ``atout serve``: the same verdicts as
the local table, of a position's deal or of a deal as dealt, the cells told in order end
as the final table's, bad input refused naming the field; the messages carry a table whole, key order included; Ctrl-C's switch
stops a table at once."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import grpc
import httpx
import pytest

from atout.client import Client
from atout.client.remote import _error
from atout.dealt import dealt, deal_json
from atout.errors import PositionError
from atout.proto.table import table_message, table_object
from atout.proto.v1 import solver_pb2 as pb
from atout.proto.v1 import solver_pb2_grpc as pb_grpc
from atout.position import parse_position
from atout.proto import convert
from atout.solver import Cancel
from atout.solver.contract_table import contract_table
from deals import random_position
from serving import ServerProcess

ASKED = ["bettler", "piccolo"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("table"), http=True)
    yield s
    assert s.stop() == 0


def _deal(seed: int) -> dict:
    obj = random_position(random.Random(seed), "at4", "piccolo", declarer=seed % 4,
                          first=seed % 4)
    obj["id"] = f"deal {seed}"
    return obj


def _verdicts(table: dict) -> list:
    return [(c["seat"], c["contract"], c["made"]) for c in table["cells"]]


def test_grpc_table_streams_the_cells_then_the_table(server):
    obj = _deal(1)
    local = contract_table(obj, contracts=ASKED)
    with Client(server.address) as client:
        messages = list(client.table(obj, contracts=ASKED, time_limit=60))
    assert "table" in messages[-1] and all("cells" in m for m in messages[:-1])
    table = messages[-1]["table"]
    assert table["status"] == "ok" and table["id"] == "deal 1"
    assert _verdicts(table) == _verdicts(local)
    # (two contracts asked: the others could beat any par, so it is not proven)
    assert table["par"] == local["par"] and not table["par"]["proven"]
    assert table["played"]["seat"] == 1
    # the cells told, applied in order, are the final table's
    told = {}
    for m in messages[:-1]:
        for cell in m["cells"]:
            told[(cell["seat"], cell["contract"])] = cell
    assert [told[(c["seat"], c["contract"])] for c in table["cells"]] == table["cells"]


def test_grpc_table_refuses_by_field(server):
    fr4 = random_position(random.Random(2), "fr4", "prise", chelem=False, poignees=False)
    del fr4["contract"]["shown_dog"]
    with Client(server.address) as client:
        with pytest.raises(PositionError) as e:        # checked before any call
            list(client.table(_deal(2), contracts=["garde_sans"]))
        assert e.value.field == "contracts"
    channel = grpc.insecure_channel(server.address)
    stub = pb_grpc.SolverStub(channel)
    for obj, contracts, field in ((_deal(2), ["garde_sans"], "contracts"),
                                  (fr4, ["garde_contre"], "contract.shown_dog")):
        request = pb.TableRequest(position=convert.position_message(obj), contracts=contracts)
        with pytest.raises(grpc.RpcError) as e:
            list(stub.Table(request, timeout=30))
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert e.value.details().startswith(field + ":")
    channel.close()


def _dealt(obj: dict, ident=None) -> dict:
    """The deal as dealt of a position object, written by itself (docs/format.md)."""
    return deal_json(dealt(parse_position(obj)), ident or obj.get("id"))


#: cheap deals as dealt and the contracts asked of them (a whole deal's table in well under
#: a second): an fr4 garde contre and an at4 bettler and piccolo
DEALS = (lambda: _dealt(random_position(random.Random(0), "fr4", "garde_sans", chelem=False,
                                         poignees=False), "fr4 deal"), ["garde_contre"]), \
        (lambda: _dealt(_deal(1)), ASKED)


def test_grpc_table_of_a_deal_as_dealt(server):
    """A deal as dealt (no contract: TableRequest.deal) gets over gRPC the table that the
    HTTP API and the local table give it; the client sends one as it is given."""
    for make, contracts in DEALS:
        deal = make()
        local = contract_table(deal, contracts=contracts)
        with Client(server.address) as client:
            messages = list(client.table(deal, contracts=contracts, time_limit=60))
        table = messages[-1]["table"]
        assert table["status"] == "ok" and table["id"] == deal["id"]
        assert table["played"] is None                  # no contract was played
        assert _verdicts(table) == _verdicts(local) and table["par"] == local["par"]
        r = httpx.post(f"{server.url}/api/contract-table", timeout=120,
                       json={"position": deal, "contracts": contracts, "time_limit": 60})
        assert _verdicts(r.json()) == _verdicts(table) and r.json()["par"] == table["par"]
    # the message built by hand, field by field (an at4 deal's talon)
    deal = _dealt(_deal(1))
    request = pb.TableRequest(contracts=["bettler"], deal=pb.Deal(
        number_id=7, game="at4", hands=[pb.Hand(cards=h) for h in deal["hands"]],
        first=deal["first"], talon=deal["talon"]))
    with Client(server.address) as client:
        final = list(client.stub.Table(request, timeout=60))[-1]
    assert final.final and final.table.number_id == 7
    assert _verdicts(table_object(final.table)) == _verdicts(contract_table(deal, contracts=["bettler"]))
    assert 'gRPC Table peer=127.0.0.1 id=7 ' in server.log_text()


def test_grpc_table_refuses_a_bad_deal_naming_its_field(server):
    """A deal as dealt the rules refuse, both a position and a deal, or neither: refused
    INVALID_ARGUMENT, the field violation naming the request's field (the deal's under
    ``deal.``); the client refuses a bad deal itself, naming the format's field."""
    deal = DEALS[0][0]()
    long_hand = {**deal, "hands": [deal["hands"][0] + deal["dog"][:5]] + deal["hands"][1:],
                 "dog": deal["dog"][5:]}
    position = convert.position_message(_deal(2))
    priest5 = _dealt(random_position(random.Random(5), "priest5"))
    del priest5["dealer"]
    cases = ((pb.TableRequest(deal=convert.deal_message(long_hand)), "deal.hands[0]"),
             (pb.TableRequest(deal=convert.deal_message({**deal, "game": "fr6"})), "deal.game"),
             (pb.TableRequest(deal=convert.deal_message(priest5)), "deal.dealer"),
             (pb.TableRequest(deal=convert.deal_message({**deal, "dog": []})), "deal.dog"),
             (pb.TableRequest(deal=convert.deal_message(deal), position=position), "deal"),
             (pb.TableRequest(), "position"),
             (pb.TableRequest(deal=convert.deal_message(deal), contracts=["bettler"]),
              "contracts"))
    with Client(server.address) as client:
        for request, field in cases:
            with pytest.raises(grpc.RpcError) as raw:
                list(client.stub.Table(request, timeout=30))
            e = _error(raw.value)
            assert e.code == grpc.StatusCode.INVALID_ARGUMENT, field
            assert e.violations[0][0] == field, (field, e.violations)
            assert e.details.startswith(field + ":")
        with pytest.raises(PositionError) as here:           # checked before any call
            list(client.table({**deal, "dog": deal["dog"][:5]}))
        assert (here.value.field, here.value.reason) == ("dog", "must hold 6 cards, not 5")


def test_deal_messages_carry_a_deal_as_dealt_whole():
    """Every game's deal as dealt through its message and back: the same object."""
    rng = random.Random(6)
    for game in ("fr4", "fr3", "fr5", "priest5", "at4"):
        deal = _dealt(random_position(rng, game), game)
        msg = pb.Deal.FromString(convert.deal_message(deal).SerializeToString())
        assert json.dumps(convert.deal_object(msg)) == json.dumps(deal)
    with pytest.raises(PositionError) as e:
        convert.deal_message({**deal, "contract": {}})
    assert e.value.field == "contract"


def test_http_contract_table_and_its_stream(server):
    obj = _deal(3)
    local = contract_table(obj, contracts=ASKED)
    body = {"position": obj, "contracts": ASKED, "time_limit": 60}
    r = httpx.post(f"{server.url}/api/contract-table", json=body, timeout=120)
    assert r.status_code == 200
    assert _verdicts(r.json()) == _verdicts(local)
    with httpx.stream("POST", f"{server.url}/api/contract-table/stream", json=body,
                      timeout=120) as r:
        lines = [json.loads(line) for line in r.iter_lines() if line.strip()]
    assert r.headers["content-type"].startswith("application/x-ndjson")
    assert lines[0] == {"type": "start", "time_limit": 60}
    assert [x["type"] for x in lines[1:-1]] == ["cells"] * (len(lines) - 2)
    assert lines[-1]["type"] == "table" and _verdicts(lines[-1]["table"]) == _verdicts(local)
    for bad, field in (({"contracts": ["bettler", "garde"]}, "contracts"),
                       ({"contracts": "bettler"}, "contracts"),
                       ({"values": 1}, "values"), ({"depth": 3}, "depth")):
        r = httpx.post(f"{server.url}/api/contract-table/stream", json={**body, **bad}, timeout=30)
        assert r.status_code == 422 and r.json()["field"] == field, r.text


def test_messages_carry_a_table_whole():
    """Every kind of table through the messages and back: the same object."""
    rng = random.Random(4)
    positions = [random_position(rng, "fr5", "garde", chelem=False, poignees=False),
                 random_position(rng, "priest5"),
                 random_position(rng, "at4", "dreier", objective="contract"),
                 random_position(rng, "at4", "trischaken")]
    prise = random_position(rng, "fr4", "prise", chelem=False, poignees=False)
    del prise["contract"]["shown_dog"]
    positions.append(prise)
    for obj in positions:
        table = contract_table(obj, time_limit=1)
        again = table_object(pb.ContractTable.FromString(table_message(table).SerializeToString()))
        assert json.dumps(again) == json.dumps(table)


def test_cancel_stops_a_table_at_once():
    obj = json.loads((Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl")
                     .read_text().splitlines()[0])
    obj["contract"] = {"taker": 1, "bid": "garde_sans", "dog": obj["contract"]["dog"]}
    cancel = Cancel()
    began = []

    def on_start(cells) -> None:
        # the cancel comes once the search runs: one that comes while the écarts are still
        # counted raises Stopped instead (test_contract_table), and how long the count
        # takes depends on the machine's load
        began.append(time.monotonic())
        threading.Timer(0.5, cancel.set).start()

    table = contract_table(obj, time_limit=60, threads=2, cancel=cancel, on_start=on_start)
    assert began and time.monotonic() - began[0] < 4
    assert table["status"] == "limit" and table["stopped_by"] == "cancel"


def test_a_french_table_streams_whole_first_cell_to_last(server):
    """A French garde's table over gRPC and HTTP (it ended INTERNAL: a garde contre
    refuted by its garde sans was streamed with a bound null): the first message holds
    every cell in the table's order, no cell has a bound missing, the last is the table."""
    obj = json.loads((Path(__file__).resolve().parent / "data" / "table_z0.json").read_text())
    with Client(server.address) as client:
        messages = list(client.table(obj, time_limit=1.5))
    table = messages[-1]["table"]
    key = lambda c: (c["seat"], c["contract"], c.get("ecart"))
    assert [key(c) for c in messages[0]["cells"]] == [key(c) for c in table["cells"]]
    with httpx.stream("POST", f"{server.url}/api/contract-table/stream",
                      json={"position": obj, "time_limit": 1.5}, timeout=60) as r:
        lines = [json.loads(line) for line in r.iter_lines() if line.strip()]
    assert lines[0]["type"] == "start"
    assert [key(c) for c in lines[1]["cells"]] == [key(c) for c in lines[-1]["table"]["cells"]]
    for line in lines[1:-1]:
        for c in line["cells"]:
            assert None not in c["bounds"], c
            if c.get("ecart") == "given":
                assert c["ecart_cards"] == obj["contract"]["dog"]


def test_http_stop_ends_the_stream_with_the_table_as_proven(server):
    """The viewer's Stop: ``/api/contract-table/stop`` with the stream's slot stops the
    search where it is, and the stream still ends with the table as proven — par and the
    contract played — as Ctrl-C ends ``atout table`` (it dropped the request, and both);
    the stream's first line says the time limit the server gives it."""
    obj = json.loads((Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl")
                     .read_text().splitlines()[0])
    obj["contract"] = {"taker": 1, "bid": "garde_sans", "dog": obj["contract"]["dog"]}
    with httpx.Client(base_url=server.url, timeout=120) as http:
        http.get("/api/health")                      # (the client's cookie: the slot is its)
        lines: list = []

        def read():
            with http.stream("POST", "/api/contract-table/stream",
                             json={"position": obj, "time_limit": 600, "slot": "s1"}) as r:
                for text in r.iter_lines():
                    if text.strip():
                        lines.append(json.loads(text))
        reader = threading.Thread(target=read)
        reader.start()
        for _ in range(600):
            if len(lines) >= 2:
                break
            time.sleep(0.05)
        assert lines[0]["type"] == "start" and 0 < lines[0]["time_limit"] <= 600
        assert http.post("/api/contract-table/stop", json={"slot": "s1"}).json() == {"stopped": True}
        reader.join(60)
        assert not reader.is_alive()
        assert http.post("/api/contract-table/stop", json={"slot": "s1"}).json() == {"stopped": False}
        r = http.post("/api/contract-table/stop", json={})
        assert r.status_code == 422 and r.json()["field"] == "slot"
    table = lines[-1]["table"]
    assert lines[-1]["type"] == "table" and table["stopped_by"] == "cancel"
    assert "par" in table and table["played"]["seat"] == 1
