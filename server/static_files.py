"""The viewer's files: the package's own ``static/`` folder, read once, and the headers
every page is sent with."""

from __future__ import annotations

import mimetypes
from importlib import resources

from starlette.responses import Response

from .http_io import Json

STATIC_PACKAGE = "atout.server"
STATIC_FOLDER = "static"


def static_files() -> dict[str, tuple[bytes, str]]:
    """Every file shipped in ``static/``, read once: the only files the server ever sends."""
    files = {}
    folder = resources.files(STATIC_PACKAGE) / STATIC_FOLDER
    for entry in folder.iterdir():
        if entry.is_file() and not entry.name.startswith("."):
            kind = mimetypes.guess_type(entry.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind in ("application/javascript",
                                                    "application/json"):
                kind += "; charset=utf-8"
            files[entry.name] = (entry.read_bytes(), kind)
    return files


#: no script, style or font from anywhere but this server
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; connect-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def file_answer(files: dict[str, tuple[bytes, str]], name: str) -> Response:
    """One of ``files`` (only names of the package's own files: nothing else is ever
    looked up on disk), or a JSON 404."""
    found = files.get(name)
    if found is None:
        return Json({"error": "not_found", "reason": "no such file"}, 404)
    data, kind = found
    return Response(data, headers={"Content-Type": kind, "Cache-Control": "no-cache",
                                   **SECURITY_HEADERS})
