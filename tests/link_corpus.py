"""Links for the two readers of a link to agree on (atout/present/link.py's ``parse_link`` and the
page's ``readLink`` in server/static/link.js, docs/format.md "Reading a link"): good ones of
every game, integer ids written every way one can be miswritten, each part given twice, odd
escapes and addresses, and payloads with a character or a bit changed.

:func:`verdict` is what Python's reader says of one, in the form the page's answer is
compared in: the link read, or the refusal's field and reason.
"""

from __future__ import annotations

import random
from unittest import mock

from atout.present import link
from atout.deal import random_endgame
from atout.games import HAND_SIZE

#: integer ids as a link may carry them (the id's bytes, the "integer" bit set): the first
#: ones are how atout writes them, the others are refused by both readers
INTEGER_IDS = ["0", "7", "-7", "9007199254740993", str(2 ** 63 - 1), str(-2 ** 63),
               "+5", " 7 ", "5_0", "١٢", "007", "-0", "", "-", "1e3", "0x10", "5.0",
               str(2 ** 63), str(-2 ** 63 - 1), "9" * 30, "٥", "７"]
VIEW_VALUES = ["0", "1", "12", "999", "", "+1", " 1", "1 ", "1.0", "٣", "²", "1000", "007",
               "-1", "0x1", "%31", "1%00", "1e1", "1+"]
ADDRESSES = ["http://127.0.0.1:8765/", "http://[x]/", "http://[::1/", "http://a]b/", "",
             "  ", "https://h/path?q=1&d=zz", "x:", "http://h/#"]
VIEW_PARTS = ("card", "from", "whatif", "seat")


def bits_of(obj: dict) -> list[int]:
    """The bits :func:`atout.present.link.encode` writes for ``obj``, before the padding."""
    made = []

    class Writer(link._Writer):
        def __init__(self):
            super().__init__()
            made.append(self)
    with mock.patch.object(link, "_Writer", Writer):
        link.encode(obj)
    return made[0].bits


def payload_of(bits: list[int]) -> str:
    w = link._Writer()
    w.bits = list(bits)
    return w.text()


def with_integer_id(obj: dict, digits: str) -> str:
    """``obj``'s payload with an integer id written as ``digits`` (as atout writes none)."""
    bits = bits_of({k: v for k, v in obj.items() if k != "id"})[:-1]    # its "no id" bit
    w = link._Writer()
    w.bits = bits
    data = digits.encode("utf-8")
    w.put(1, 1)
    w.put(1, 1)
    w.put(len(data), 10)
    for b in data:
        w.put(b, 8)
    return w.text()


def deals(rng: random.Random, count: int) -> list[dict]:
    """Random positions of every game, a few cards played, some with an id."""
    out = []
    for i in range(count):
        game = ("fr4", "fr3", "fr5", "priest5", "at4")[i % 5]
        obj = random_endgame(rng, game, rng.randrange(HAND_SIZE[game] + 1))
        ident = rng.choice([None, "déjà ♠ vu", 12345, -7, 2 ** 60, "12"])
        if ident is not None:
            obj["id"] = ident
        out.append(obj)
    return out


def _mutated(rng: random.Random, payload: str) -> str:
    """A payload with a character changed, added or left out, or a bit flipped."""
    i = rng.randrange(len(payload) + 1)
    how = rng.randrange(4)
    if how == 0 and i < len(payload):
        return payload[:i] + rng.choice(link.ALPHABET) + payload[i + 1:]
    if how == 1:
        return payload[:i] + rng.choice(link.ALPHABET + "=+%~.é\u0000 ") + payload[i:]
    if how == 2 and i < len(payload):
        return payload[:i] + payload[i + 1:]
    bits = link._Reader(payload).bits
    k = rng.randrange(len(bits))
    bits[k] ^= 1
    return payload_of(bits)


def corpus(seed: str = "links", size: int = 400) -> list[str]:
    """Links, good and bad, of every kind above (about ``size``)."""
    rng = random.Random(seed)
    objs = deals(rng, 20)
    links = []
    for obj in objs:
        payload = link.encode(obj)
        links.append(f"{rng.choice(ADDRESSES)}#d={payload}")
        played = obj.get("played", [])
        links.append(f"http://h/#d={payload}&card={len(played)}&seat=1")
        for digits in INTEGER_IDS:
            if rng.random() < 0.3:
                links.append(f"http://h/#d={with_integer_id(obj, digits)}")
    payloads = [link.encode(o) for o in objs]
    for name in ("d", *VIEW_PARTS, "deal"):
        a, b = rng.sample(payloads, 2)
        links.append(f"http://h/#d={a}&{name}={b if name == 'd' else '1'}")
        links.append(f"http://h/#{name}=1&d={a}&{name}=1")
    for name in ("card", "from", "seat"):
        for value in VIEW_VALUES:
            links.append(f"http://h/#d={rng.choice(payloads)}&{name}={value}")
    for extra in ("whatif=", "whatif=,,", "whatif=6D,T3", "whatif=6D%2CT3", "whatif=a+b",
                  "from=0&whatif=EX", "deal=3", "deal=%FF%FE", "?d=x", "d", "d=", "=&&",
                  "d=%41%41", "D=x", "unknown=1", "d=A+B", "d=A%zzB", "card=1%C3%28"):
        links.append(f"http://h/#{extra}&d={rng.choice(payloads)}")
        links.append(f"http://h/#{extra}")
    for address in ADDRESSES:
        links.append(f"{address}d={rng.choice(payloads)}")
        links.append(f" \t{address}#d={rng.choice(payloads)}&card=0\n")
    while len(links) < size:
        links.append(f"http://h/#d={_mutated(rng, rng.choice(payloads))}")
    return links


def verdict(url: str) -> dict:
    """What atout/present/link.py's reader says of ``url``: ``{"link": {...}}`` (the page's numbers
    are exact to 2^53 only: a larger integer id is compared as its digits) or
    ``{"field", "reason"}``."""
    try:
        read = link.parse_link(url)
    except link.LinkError as e:
        return {"field": e.field, "reason": e.reason}
    ident = read["position"].get("id")
    if isinstance(ident, int) and abs(ident) > 2 ** 53 - 1:
        read["position"]["id"] = str(ident)
    return {"link": read}
