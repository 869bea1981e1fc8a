"""What a user sends, made safe to print: one rule for every output meant for people.

Positions carry text of their own (an ``id``, and in a refused position any key or
token).  JSON output escapes it by itself; everything written for people — stderr lines,
the server's log, ``show``, ``solve --text``, the ``analyze`` table — goes through
:func:`printable`, so that no id can end a line early, forge a log line, move a
terminal's cursor or fail to encode:

>>> print(printable("a" + chr(10) + "line 9: forged"))
a\\x0aline 9: forged
>>> print(printable("déjà-vu", ascii=True))
d\\xe9j\\xe0-vu

Text that is not Unicode at all (a lone surrogate, which a JSON ``\\ud800`` escape can
make) is refused where it could be kept — in an ``id`` (:func:`lone_surrogate`) — and
escaped where it is only quoted (an unknown key named in an error).
"""

from __future__ import annotations


def _escape(ch: str) -> str:
    n = ord(ch)
    if n < 0x100:
        return f"\\x{n:02x}"
    if n < 0x10000:
        return f"\\u{n:04x}"
    return f"\\U{n:08x}"


def printable(text: str, ascii: bool = False) -> str:
    """``text`` with every character that is not printable (control and format characters,
    line and paragraph separators, lone surrogates, unassigned code points; with
    ``ascii`` also every non-ASCII one) written as ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``."""
    if text.isprintable() and (not ascii or text.isascii()):
        return text          # the usual case, at no cost
    return "".join(ch if ch.isprintable() and (not ascii or ch.isascii()) else _escape(ch)
                   for ch in text)


def shown(key, limit: int = 30) -> str:
    """A key a user sent, as a field name in an error: printable, at most ``limit`` characters."""
    text = printable(str(key))
    if not text:
        return '""'                      # a key that is the empty string
    return text if len(text) <= limit else text[:limit] + "…"


def lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (it is then not Unicode text: no UTF-8 encoder,
    protobuf string or terminal takes it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
