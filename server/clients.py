"""Who an HTTP request comes from, and the slots a client's requests take.

A bearer token is the operator's, shared by every client, and an address is shared by
every program on a machine, so the server names its clients itself: a random id in a
cookie (:data:`CLIENT_COOKIE`, handed out by :class:`~atout.server.http_log.Logged` with
the first answer to a request without one).  A slot (a tab's "the search I run now") and
a review's session belong to the client that made them."""

from __future__ import annotations

import re
import secrets

from starlette.requests import Request

from .http_io import invalid

MAX_SLOT_LENGTH = 100

#: the cookie that names a client: the server's own random id, handed out with the first
#: answer to a request without one (HttpOnly: the page's scripts never read it)
CLIENT_COOKIE = "atout_client"
CLIENT_ID = re.compile(r"[0-9a-f]{32}")
#: where a request's client id lies in its ASGI scope (set by :class:`Logged`)
CLIENT = "atout.client"


def client_of(request: Request) -> str:
    """The id of the client a request comes from: a slot or a review's session belongs to
    it.  A bearer token is the operator's, shared by every client, and an address is
    shared by every program on a machine, so the server names its clients itself, in a
    cookie; a request without it is a client of its own (its slot replaces nothing, and no
    other request can take it)."""
    return request.scope[CLIENT][0]


def named_client(request: Request) -> str | None:
    """The client id the request sent (its cookie), or None: a request without the cookie
    cannot be told from another, so what it makes belongs to no one — a review's session it
    is given is then a bearer name, good for whoever it hands it on to."""
    client, new = request.scope[CLIENT]
    return None if new else client


def client_from(scope) -> tuple[str, bool]:
    """(the client id of the request in ``scope``, whether it is new: no valid cookie)."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, v = part.strip().partition("=")
                if key == CLIENT_COOKIE and CLIENT_ID.fullmatch(v):
                    return v, False
    return secrets.token_hex(16), True


def slot_of(obj: dict, request: Request) -> tuple[str, str] | None:
    """The request's ``slot``, as the client's own: (its client id, the name) — another
    client naming the same slot has another one (see :func:`client_of`)."""
    v = obj.get("slot")
    if v is None:
        return None
    if not isinstance(v, str) or not 0 < len(v) <= MAX_SLOT_LENGTH:
        raise invalid("slot", f"must be a string of 1 to {MAX_SLOT_LENGTH} characters")
    return client_of(request), v
