"""docs/format.md's JSON objects to and from the ``atout.v1`` messages, for the server and
the client.

Each pair round-trips: ``position_object(position_message(obj)) == obj`` for a position
object of docs/format.md (and ``deal_object(deal_message(obj)) == obj`` for a deal as
dealt's), and the result converters give back exactly the local API's
objects (:class:`~atout.solver.SolveResult`, the dict of ``atout.analyze``), key order
included.  JSON numbers inside the contract and the outcome travel as doubles
(google.protobuf.Value); whole ones come back as ints.
"""

from __future__ import annotations

import math
from typing import Any

from google.protobuf import struct_pb2

from atout.errors import PositionError
from atout.position import DEALT_FIELDS, PEOPLE_FIELDS
from atout.printable import shown
from atout.verdict import VerdictKind

from .v1 import solver_pb2 as pb

POSITION_FIELDS = ("id", "game", "hands", "first", "played", "contract")
#: a deal as dealt's fields (docs/format.md): a position's, with the cards outside the
#: hands instead of the contract (``played`` may be given, empty, as the format allows)
DEAL_FIELDS = ("id", "game", "hands", "first", "played") + DEALT_FIELDS
INT64 = 1 << 63
STATUS_OF = {"ok": pb.STATUS_OK, "limit": pb.STATUS_LIMIT}
STATUS_NAME = {v: k for k, v in STATUS_OF.items()}


# -- JSON values -----------------------------------------------------------------------------

def _value(x: Any, field: str) -> struct_pb2.Value:
    v = struct_pb2.Value()
    if x is None:
        v.null_value = struct_pb2.NULL_VALUE
    elif isinstance(x, bool):
        v.bool_value = x
    elif isinstance(x, (int, float)) and math.isfinite(x) and abs(x) < 2 ** 53:
        v.number_value = x
    elif isinstance(x, str):
        v.string_value = x
    elif isinstance(x, (list, tuple)):
        v.list_value.SetInParent()
        v.list_value.values.extend(_value(y, f"{field}[{i}]") for i, y in enumerate(x))
    elif isinstance(x, dict):
        v.struct_value.SetInParent()        # an empty object stays an object, not "no kind"
        for k, y in x.items():
            if not isinstance(k, str):
                raise PositionError(field, "object keys must be strings")
            v.struct_value.fields[k].CopyFrom(_value(y, f"{field}.{k}"))
    else:
        raise PositionError(field, f"cannot be sent: {type(x).__name__} is not a JSON value")
    return v


def _plain(v: struct_pb2.Value, field: str = "value") -> Any:
    kind = v.WhichOneof("kind")
    if kind == "number_value":
        x = v.number_value
        return int(x) if x.is_integer() else x
    if kind == "string_value":
        return v.string_value
    if kind == "bool_value":
        return v.bool_value
    if kind == "list_value":
        return [_plain(y, f"{field}[{i}]") for i, y in enumerate(v.list_value.values)]
    if kind == "struct_value":
        return _plain_struct(v.struct_value, field)
    if kind == "null_value":
        return None
    # a Value with no kind is no JSON value (protobuf's JSON mapping refuses it): taken as
    # null it would read as "not given" where the command line refuses what was sent
    raise PositionError(field, "is not a JSON value (a google.protobuf.Value with no kind)")


def _plain_struct(s: struct_pb2.Struct, field: str = "value") -> dict:
    return {k: _plain(y, f"{field}.{k}") for k, y in s.fields.items()}


def _set_id(msg, ident: Any) -> None:
    if ident is None:
        return
    if isinstance(ident, str):
        msg.text_id = ident
    elif type(ident) is int and -INT64 <= ident < INT64:
        msg.number_id = ident
    else:
        raise PositionError("id", "must be a string or an integer (64 bits over gRPC)")


def _get_id(msg) -> Any:
    which = msg.WhichOneof("id")
    return None if which is None else getattr(msg, which)


# -- positions -------------------------------------------------------------------------------

def _tokens(x: Any, field: str) -> list[str]:
    if not isinstance(x, (list, tuple)):
        raise PositionError(field, "must be a list of cards")
    for i, t in enumerate(x):
        if not isinstance(t, str):
            raise PositionError(f"{field}[{i}]", f"{t!r} is not a card token")
    return list(x)


def _seat_field(x: Any, field: str) -> int:
    if type(x) is not int or not -(1 << 31) <= x < (1 << 31):
        raise PositionError(field, "must be a seat number")
    return x


def _dealt_message(msg, obj: Any, what: str, fields: tuple):
    """``msg`` (a Position or a Deal) with what a position and a deal as dealt share: the
    id, the game, the hands, the first seat; ``obj``'s keys checked against ``fields``."""
    if not isinstance(obj, dict):
        raise PositionError(what, "must be a JSON object")
    for key in obj:
        # who played it where (players, table, board): the answers do not depend on them and
        # the message does not carry them (parse_position checks them before)
        if key not in fields + PEOPLE_FIELDS:
            raise PositionError(shown(key), "unknown field")
    _set_id(msg, obj.get("id"))
    if "game" in obj:
        if not isinstance(obj["game"], str):
            raise PositionError("game", "must be a string")
        msg.game = obj["game"]
    if "hands" in obj:
        hands = obj["hands"]
        if not isinstance(hands, (list, tuple)):
            raise PositionError("hands", "must be a list of hands")
        for s, h in enumerate(hands):
            msg.hands.add().cards.extend(_tokens(h, f"hands[{s}]"))
    if "first" in obj:
        msg.first = _seat_field(obj["first"], "first")
    return msg


def position_message(obj: Any) -> pb.Position:
    """A position JSON object (or a :class:`~atout.position.Position`) as a message.

    Raises :class:`~atout.errors.PositionError` for what no message can carry (a card
    that is not a string, a key docs/format.md does not have); the rules are checked by
    the server."""
    if hasattr(obj, "to_json") and not isinstance(obj, dict):
        obj = obj.to_json()
    msg = _dealt_message(pb.Position(), obj, "position", POSITION_FIELDS)
    if "played" in obj:
        msg.played.extend(_tokens(obj["played"], "played"))
    if "contract" in obj:
        contract = obj["contract"]
        if not isinstance(contract, dict):
            raise PositionError("contract", "must be a JSON object")
        msg.contract.SetInParent()
        msg.contract.CopyFrom(_value(contract, "contract").struct_value)
    return msg


def position_object(msg: pb.Position) -> dict:
    """The position JSON object a message carries (fields absent from it stay absent);
    :class:`~atout.errors.PositionError` for a contract value that is no JSON value."""
    obj: dict[str, Any] = {}
    ident = _get_id(msg)
    if ident is not None:
        obj["id"] = ident
    if msg.game:
        obj["game"] = msg.game
    if msg.hands:
        obj["hands"] = [list(h.cards) for h in msg.hands]
    if msg.HasField("first"):
        obj["first"] = msg.first
    obj["played"] = list(msg.played)
    if msg.HasField("contract"):
        obj["contract"] = _plain_struct(msg.contract, "contract")
    return obj


def deal_message(obj: Any) -> pb.Deal:
    """A deal as dealt's JSON object (docs/format.md) as a message.

    Raises :class:`~atout.errors.PositionError` for what no message can carry (a card that
    is not a string, a key the format does not have, a card played); the rules are checked
    by the server (:func:`atout.dealt.parse_deal`)."""
    msg = _dealt_message(pb.Deal(), obj, "deal", DEAL_FIELDS)
    if obj.get("played"):
        raise PositionError("played", "a deal as dealt has no card played")
    for name in ("dog", "open", "talon"):
        if name in obj:
            getattr(msg, name).extend(_tokens(obj[name], name))
    if "dealer" in obj:
        msg.dealer = _seat_field(obj["dealer"], "dealer")
    return msg


def deal_object(msg: pb.Deal) -> dict:
    """The deal as dealt's JSON object a message carries: its fields in the format's order,
    those absent from it (an empty list of cards included) left out, so that
    :func:`atout.dealt.parse_deal` names what is missing."""
    obj: dict[str, Any] = {}
    ident = _get_id(msg)
    if ident is not None:
        obj["id"] = ident
    if msg.game:
        obj["game"] = msg.game
    if msg.hands:
        obj["hands"] = [list(h.cards) for h in msg.hands]
    if msg.HasField("first"):
        obj["first"] = msg.first
    if msg.HasField("dealer"):
        obj["dealer"] = msg.dealer
    for name in ("dog", "open", "talon"):
        if getattr(msg, name):
            obj[name] = list(getattr(msg, name))
    return obj


# -- results ---------------------------------------------------------------------------------

def outcome_message(outcome: dict, msg: pb.Outcome) -> None:
    msg.value = outcome.get("value") or 0
    msg.scores.extend(outcome.get("scores") or [])
    for name, x in outcome.items():
        msg.fields.add(name=name).value.CopyFrom(_value(x, f"outcome.{name}"))


def outcome_object(msg: pb.Outcome) -> dict:
    return {f.name: _plain(f.value) for f in msg.fields}


def result_message(r, msg: pb.SolveResult | None = None) -> pb.SolveResult:
    """A :class:`~atout.solver.SolveResult` as a message (filled into ``msg`` if given)."""
    return solve_message(r.to_json(), msg)


def solve_message(result: dict, msg: pb.SolveResult | None = None) -> pb.SolveResult:
    """A solve's result line (``atout solve``'s JSON, ``SolveResult.to_json()``) as a
    message (filled into ``msg`` if given).  What the message has no field for
    (``stopped_by``, ``best_guess``, ``card_bounds``) stays out of it; an HTTP client gets
    the line itself."""
    msg = pb.SolveResult() if msg is None else msg
    _set_id(msg, result.get("id"))
    msg.status = STATUS_OF[result["status"]]
    if result.get("value") is not None:
        msg.value = result["value"]
    if result.get("to_play") is not None:
        msg.to_play = result["to_play"]
    msg.best.extend(result.get("best") or ())
    if result.get("cards") is not None:
        msg.cards.SetInParent()
        for card, value in result["cards"].items():
            msg.cards.cards.add(card=card, value=value)
    msg.line.extend(result.get("line") or ())
    if result.get("outcome") is not None:
        outcome_message(result["outcome"], msg.outcome)
    msg.nodes = result.get("nodes", 0)
    msg.seconds = result.get("seconds", 0.0)
    if result.get("bounds") is not None:
        msg.bounds.low, msg.bounds.high = result["bounds"]
    if result.get("made") is not None:
        msg.made = result["made"]
    return msg


def solve_result(msg: pb.SolveResult):
    """The :class:`~atout.solver.SolveResult` a message carries."""
    from atout.solver import SolveResult

    return SolveResult(
        id=_get_id(msg),
        value=msg.value if msg.HasField("value") else None,
        to_play=msg.to_play if msg.HasField("to_play") else None,
        best=list(msg.best),
        line=list(msg.line),
        outcome=outcome_object(msg.outcome) if msg.HasField("outcome") else None,
        nodes=msg.nodes,
        seconds=msg.seconds,
        status=STATUS_NAME.get(msg.status, "ok"),
        bounds=[msg.bounds.low, msg.bounds.high] if msg.HasField("bounds") else None,
        cards={c.card: c.value for c in msg.cards.cards} if msg.HasField("cards") else None,
        made=msg.made if msg.HasField("made") else None,
    )


def _set(msg, fields: dict) -> None:
    """Set the fields of ``fields`` on ``msg``: a None leaves an optional field absent,
    a [low, high] fills a Bounds, a list a repeated field."""
    for name, x in fields.items():
        if x is None:
            continue
        if isinstance(x, list) and isinstance(getattr(msg, name), pb.Bounds):
            getattr(msg, name).low, getattr(msg, name).high = x
        elif isinstance(x, list):
            getattr(msg, name).extend(x)
        else:
            setattr(msg, name, x)


def _get(msg, name: str):
    """A field of ``msg`` as the report has it: None when absent, [low, high] for Bounds."""
    if not msg.HasField(name):
        return None
    x = getattr(msg, name)
    return [x.low, x.high] if isinstance(x, pb.Bounds) else x


#: a verdict's kind (atout.verdict.VerdictKind) as the message's enum, and back
#: (by name: a kind added to both is carried with no change here)
VERDICT_KIND_OF = {k.value: pb.VerdictKind.Value("VERDICT_KIND_" + k.value.upper())
                   for k in VerdictKind}
VERDICT_KIND_NAME = {v: k for k, v in VERDICT_KIND_OF.items()}

#: the keys of an analysis' play, and those present only where a value is not exact
PLAY_KEYS = ("index", "seat", "card", "value_before", "value_after", "cost", "best",
             "made_before", "made_after", "decisive")
PLAY_BOUNDS = ("bounds_before", "bounds_after", "cost_bounds")


def analysis_message(report: dict, status: str = "ok") -> pb.Analysis:
    """The dict of ``atout.analyze`` as a message (``status`` limit: some values bounded)."""
    msg = pb.Analysis(status=STATUS_OF[status])
    _set_id(msg, report.get("id"))
    _set(msg, {k: report.get(k) for k in ("start_value", "made", "start_bounds", "stopped_by")})
    for p in report.get("plays", ()):
        play = msg.plays.add()
        _set(play, {k: p.get(k) for k in PLAY_KEYS + PLAY_BOUNDS})
        if p.get("verdict") is not None:
            v = p["verdict"]
            play.verdict.kind = VERDICT_KIND_OF[v["kind"]]
            play.verdict.low, play.verdict.high = v["low"], v["high"]
    for s in report.get("seats", ()):
        _set(msg.seats.add(), {k: s.get(k) for k in ("seat", "cards", "mistakes", "cost",
                                                     "at_least", "not_judged")})
    if report.get("outcome") is not None:
        outcome_message(report["outcome"], msg.outcome)
    return msg


def analysis_object(msg: pb.Analysis) -> dict:
    """The dict of ``atout.analyze`` a message carries."""
    report = {"id": _get_id(msg), "start_value": _get(msg, "start_value")}
    if msg.HasField("start_bounds"):
        report["start_bounds"] = _get(msg, "start_bounds")
    plays = []
    for p in msg.plays:
        play = {"index": p.index, "seat": p.seat, "card": p.card,
                "value_before": _get(p, "value_before"), "value_after": _get(p, "value_after"),
                "cost": _get(p, "cost"), "best": list(p.best) or None,
                "made_before": _get(p, "made_before"), "made_after": _get(p, "made_after"),
                "decisive": p.decisive}
        play.update({k: _get(p, k) for k in PLAY_BOUNDS if p.HasField(k)})
        if p.HasField("verdict"):
            play["verdict"] = {"kind": VERDICT_KIND_NAME[p.verdict.kind],
                               "low": p.verdict.low, "high": p.verdict.high}
        plays.append(play)
    seats = []
    for s in msg.seats:
        seat = {"seat": s.seat, "cards": s.cards, "mistakes": s.mistakes, "cost": _get(s, "cost")}
        if s.HasField("at_least"):
            seat.update(at_least=s.at_least, not_judged=s.not_judged)
        seats.append(seat)
    report.update({"made": _get(msg, "made"), "plays": plays, "seats": seats,
                   "outcome": outcome_object(msg.outcome) if msg.HasField("outcome") else None})
    if msg.stopped_by:
        report["stopped_by"] = msg.stopped_by
    return report


# -- advice ------------------------------------------------------------------------------------

_CARD_NUMBERS = ("mean", "se", "optimal", "made", "loss", "low", "high", "behind", "behind_se",
                 "p_better")
#: a budgeted advice's numbers of a card left within bounds: present only there
_CARD_BOUNDS = ("exact", "behind_low", "behind_high", "made_low", "made_high")


def advice_message(advice: dict) -> pb.Advice:
    """The line of ``atout advise`` (``Advice.to_json()``) as a message."""
    msg = pb.Advice(status=STATUS_OF[advice["status"]], seat=advice["seat"],
                    maximizing=advice["maximizing"], samples=advice["samples"],
                    solved=advice["solved"], limited=advice["limited"],
                    distinct=advice["distinct"], deals=float(advice["deals"]),
                    seed=advice["seed"], nodes=advice["nodes"], seconds=advice["seconds"],
                    stopped_by=advice.get("stopped_by") or "",
                    confidence=advice.get("confidence", 0.0), decided=advice.get("decided") or "")
    if advice.get("certainty") is not None:
        msg.certainty = advice["certainty"]
    _set_id(msg, advice.get("id"))
    if advice.get("recommended") is not None:
        msg.recommended = advice["recommended"]
    msg.best.extend(advice["best"])
    if advice.get("value") is not None:
        msg.value = advice["value"]
    for row in advice["cards"]:
        card = msg.cards.add(card=row["card"], draws=row.get("draws", 0),
                             equivalent=row.get("equivalent", ()))
        for name in _CARD_NUMBERS + _CARD_BOUNDS:
            if row.get(name) is not None:
                setattr(card, name, row[name])
    budget = advice.get("budget")
    if budget is not None:
        msg.budget.draw_nodes = budget["draw_nodes"]
        if budget.get("time_limit") is not None:
            msg.budget.time_limit = budget["time_limit"]
        if budget.get("node_limit") is not None:
            msg.budget.node_limit = budget["node_limit"]
        msg.capped = advice.get("capped", 0)
        if advice.get("value_low") is not None:
            msg.value_low, msg.value_high = advice["value_low"], advice["value_high"]
    return msg


def advice_object(msg: pb.Advice) -> dict:
    """The line of ``atout advise`` a message carries (fields as ``Advice.to_json()``)."""
    deals = msg.deals
    obj = {"id": _get_id(msg), "status": STATUS_NAME.get(msg.status, "ok"), "seat": msg.seat,
           "to_play": msg.seat, "maximizing": msg.maximizing,
           "recommended": msg.recommended if msg.HasField("recommended") else None,
           "best": list(msg.best),
           "certainty": msg.certainty if msg.HasField("certainty") else None,
           "confidence": msg.confidence, "decided": msg.decided or None,
           "samples": msg.samples, "solved": msg.solved,
           "limited": msg.limited, "distinct": msg.distinct,
           "deals": int(deals) if deals.is_integer() and deals < 2 ** 53 else deals,
           "seed": msg.seed, "value": msg.value if msg.HasField("value") else None,
           "cards": [], "nodes": msg.nodes, "seconds": msg.seconds}
    for card in msg.cards:
        row: dict[str, Any] = {"card": card.card}
        for name in _CARD_NUMBERS:
            if card.HasField(name):
                row[name] = getattr(card, name)
            elif name not in ("low", "high"):
                row[name] = None
        row["draws"] = card.draws
        for name in _CARD_BOUNDS:
            if card.HasField(name):
                row[name] = getattr(card, name)
        if card.equivalent:
            row["equivalent"] = list(card.equivalent)
        obj["cards"].append(row)
    if msg.stopped_by:
        obj["stopped_by"] = msg.stopped_by
    if msg.HasField("budget"):
        b = msg.budget
        obj["budget"] = {"time_limit": b.time_limit if b.HasField("time_limit") else None,
                         "node_limit": b.node_limit if b.HasField("node_limit") else None,
                         "draw_nodes": b.draw_nodes}
        obj["capped"] = msg.capped
        if msg.HasField("value_low"):
            obj["value_low"], obj["value_high"] = msg.value_low, msg.value_high
    return obj
