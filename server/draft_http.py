"""Bringing a deal in: the deal editor's checks and TarotClub's files, beside :mod:`.http`::

    POST /api/draft   {"draft": {...}, "typed": {"to": "hands[2]", "text": "KS QS T21"},
                       "fill": true, "seed": 7}
                      -> {"draft": the draft (with what was typed placed, or the rest dealt),
                          "check": where it stands (atout/draft.py: stage, problems, todo,
                          options, deal, position; and player_order, the pack as a player
                          sorts a hand), "typed_error": {"field", "reason"}}
    POST /api/draft   {"position": {...}}   -> the same for a position (or a deal as dealt)
                      opened in the editor
    POST /api/import  {"text": "<a TarotClub file>", "name": "deal.json", "called": "KH"}
                      -> {"items": [{"label", "position"} or {"label", "deal"} or
                          {"label", "field", "reason"}]}

Nothing here searches: every answer is the rules engine's (atout/draft.py,
atout/tarotclub.py), quick enough to answer on the event loop (a draft holds at most one
deal; a file at most the 256 kB of a request body).  A typed hand with a card that is not
one is answered 200 with ``typed_error`` — the draft as it was, the reason beside the field
the player typed into — for nothing was lost; a request that is not a draft at all is 422
naming the field, as everywhere.
"""

from __future__ import annotations

import random

from atout import draft as drafts
from atout import tarotclub
from atout.cards import card, token
from atout.dealt import is_deal
from atout.errors import PositionError
from atout.present.view import player_order

from .http_io import check_keys, invalid

DRAFT_KEYS = ("draft", "typed", "fill", "seed", "position")
IMPORT_KEYS = ("text", "name", "called")


def draft_answer(obj: dict) -> dict:
    """``/api/draft``'s answer to a request object."""
    check_keys(obj, DRAFT_KEYS)
    answer: dict = {}
    try:
        if obj.get("position") is not None:
            draft = drafts.from_position(obj["position"])
        else:
            draft = obj.get("draft")
            if not isinstance(draft, dict):
                raise PositionError("draft", "must be an object" if "draft" in obj else "is missing")
            typed = obj.get("typed")
            if typed is not None:
                if not isinstance(typed, dict) or set(typed) - {"to", "text"}:
                    raise PositionError("typed", "must be {\"to\": \"hands[n]\" or \"outside\", \"text\"}")
                try:
                    draft = drafts.typed(draft, typed.get("to"), typed.get("text", ""))
                except PositionError as e:
                    if e.field == "typed.to":
                        raise
                    answer["typed_error"] = {"field": e.field, "reason": e.reason}
            if obj.get("fill"):
                seed = obj.get("seed")
                if seed is not None and not isinstance(seed, (int, str)):
                    raise PositionError("seed", "must be a whole number or text")
                draft = drafts.fill(draft, random.Random(seed))
        answer["check"] = drafts.check(draft)
        answer["check"]["player_order"] = player_order(answer["check"]["game"])
    except PositionError as e:
        raise invalid(e.field if obj.get("position") is None else f"position.{e.field}",
                      e.reason) from None
    except RecursionError:
        raise invalid("draft", "nested too deeply") from None
    answer["draft"] = draft
    return answer


def import_answer(obj: dict) -> dict:
    """``/api/import``'s answer: each deal of a TarotClub file, or why it was refused."""
    check_keys(obj, IMPORT_KEYS)
    text, name = obj.get("text"), obj.get("name") or "file"
    if not isinstance(text, str):
        raise invalid("text", "must be the file's text" if "text" in obj else "is missing")
    if not isinstance(name, str) or len(name) > 200:
        raise invalid("name", "must be a file name of at most 200 characters")
    called = obj.get("called")
    if called is not None:
        try:
            called = token(card(called))
        except ValueError as e:
            raise invalid("called", str(e)) from None
    stem = name.rsplit("/", 1)[-1]
    stem = stem[:-5] if stem.lower().endswith(".json") else stem
    items = []
    for number, item in tarotclub.read_text(text, stem or "file", called):
        label = name if number is None else f"{name}: line {number}"
        if isinstance(item, PositionError):
            items.append({"label": label, "field": item.field, "reason": item.reason})
        else:
            items.append({"label": label, "deal" if is_deal(item) else "position": item})
    return {"items": items}
