"""The one reader of an HTTP request, for every endpoint, however it was reached (the
router's routes and the fast path of ``app.py`` alike): the table id in its path, its
bearer token, its query, and its body read within a size limit as bytes, JSON or text.

Every malformed part is a :class:`~referee.service.errors.HubError` (400, or 413 for a
body over its limit), never an exception of the parser's own. A JSON body is text: JSON
that escapes a lone surrogate (``"\udc00"``, which no UTF-8 text holds) is refused, as
is JSON nested deeper than :data:`MAX_DEPTH` (no request of the service nests more than a
few levels), so that nothing the service stores or echoes can fail to be written.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.datastructures import QueryParams
from starlette.types import Receive, Scope

from referee.service.errors import HubError

#: The deepest nesting of arrays and objects a JSON body may have.
MAX_DEPTH = 32


def checked(doc: Any) -> Any:
    """``doc`` (parsed JSON) when it is no deeper than MAX_DEPTH and every string in it is
    text (no lone surrogate); else a 400."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _text_or_400(value)
        elif isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise HubError(400, {"error": f"the JSON is nested deeper than {MAX_DEPTH} levels"})
            if isinstance(value, dict):
                for key, item in value.items():
                    _text_or_400(key)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)
    return doc


def whole(value: Any) -> int | None:
    """``value`` as a whole number (JSON's ``5`` or ``5.0``, never ``true``), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _text_or_400(value: str) -> None:
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise HubError(400, {"error": "a string in the body holds a lone surrogate (such as \\udc00), "
                                          "which is not text"}) from None


class Incoming:
    """One HTTP request as ASGI hands it over (``scope`` and ``receive``), with the
    running service (``service``: :class:`referee.service.context.Service`)."""

    __slots__ = ("service", "scope", "receive", "table_id", "_query")

    def __init__(self, service: Any, scope: Scope, receive: Receive, table_id: str | None = None):
        self.service = service
        self.scope = scope
        self.receive = receive
        self.table_id = table_id if table_id is not None else scope.get("path_params", {}).get("id", "")
        self._query: QueryParams | None = None

    def header(self, name: bytes) -> bytes | None:
        """The first value of header ``name`` (lower case, as ASGI gives names)."""
        for key, value in self.scope["headers"]:
            if key == name:
                return value
        return None

    def bearer(self) -> str | None:
        """The token of an ``Authorization: Bearer TOKEN`` header, if there is one."""
        header = self.header(b"authorization")
        if header is None:
            return None
        scheme, _, token = header.decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        return token.strip()

    @property
    def query(self) -> QueryParams:
        if self._query is None:
            self._query = QueryParams(self.scope.get("query_string", b""))
        return self._query

    async def body(self, limit: int) -> bytes:
        """The request body, at most ``limit`` bytes: 400 for a bad Content-Length or a
        client gone mid-body, 413 beyond the limit."""
        length = self.header(b"content-length")
        if length is not None:
            if not length.isdigit():
                raise HubError(400, {"error": "bad Content-Length"})
            if int(length) > limit:
                raise HubError(413, {"error": f"the body is over {limit // 1024} KiB"})
        chunks = []
        size = 0
        while True:
            message = await self.receive()
            if message["type"] != "http.request":
                raise HubError(400, {"error": "the client went away mid-body"})
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise HubError(413, {"error": f"the body is over {limit // 1024} KiB"})
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def json(self, limit: int) -> Any:
        """The body as JSON (400 when it is not, or is not text: see :func:`checked`)."""
        raw = await self.body(limit)
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise HubError(400, {"error": "the body is not JSON", "detail": None}) from None
        except RecursionError:
            raise HubError(400, {"error": f"the JSON is nested deeper than {MAX_DEPTH} levels"}) from None
        return checked(doc)

    async def text(self, limit: int) -> str:
        """The body as UTF-8 text (a byte-order mark dropped; 400 when it is not UTF-8)."""
        raw = await self.body(limit)
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise HubError(400, {"error": "the body is not UTF-8 text"}) from None
