"""The service's answers as ASGI responses: a status, a body, its media type and any
headers, sent in two messages. Every endpoint returns one (the router and the fast path
send it alike); every refusal is :func:`refusal` of its :class:`HubError`."""

from __future__ import annotations

import math
from typing import Any

from referee.service.errors import HubError
from referee.service.views import dumps


class Reply:
    """An answer: ``await reply(scope, receive, send)`` sends it."""

    __slots__ = ("status", "body", "media_type", "headers")

    def __init__(self, body: bytes, status: int = 200, media_type: bytes = b"application/json",
                 headers: dict[str, str] | None = None):
        self.status = status
        self.body = body
        self.media_type = media_type
        self.headers = headers

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        head = [(b"content-length", b"%d" % len(self.body)), (b"content-type", self.media_type)]
        if self.headers:
            head += [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in self.headers.items()]
        await send({"type": "http.response.start", "status": self.status, "headers": head})
        await send({"type": "http.response.body", "body": self.body})


def json_reply(doc: Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    """``doc`` as JSON (ASCII: whatever text it holds, the answer can be written)."""
    return Reply(dumps(doc).encode(), status, headers=headers)


def json_text(text: str, status: int = 200) -> Reply:
    """JSON already written (a cached view, ASCII)."""
    return Reply(text.encode(), status)


def html(text: str) -> Reply:
    return Reply(text.encode("utf-8", "replace"), media_type=b"text/html; charset=utf-8")


def plain(text: str) -> Reply:
    """Text as UTF-8 (a lone surrogate, which only a stored row the name checks never saw
    can hold, written as ``?``)."""
    return Reply(text.encode("utf-8", "replace"), media_type=b"text/plain; charset=utf-8")


def svg(text: str) -> Reply:
    return Reply(text.encode("utf-8"), media_type=b"image/svg+xml")


def _json_safe(value: Any) -> Any:
    """An error body echoes what the client sent: numbers JSON cannot write (inf, nan)
    are given back as text, so the answer is still JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return value


def refusal(err: HubError) -> Reply:
    """The answer of a refusal: its status, its JSON body and its headers."""
    return Reply(dumps(_json_safe(err.body)).encode(), err.status, headers=err.headers)


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Reply:
    return refusal(HubError(status, {"error": message}, headers))
