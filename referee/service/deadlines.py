"""Read deadlines for HTTP requests: a client that stops sending mid-request is answered
408 and its connection closed, instead of holding a socket (and a file descriptor) for
good.

uvicorn times out only an idle keep-alive connection. :func:`deadline_protocol` is its
httptools protocol with two deadlines more:

- ``header_timeout``: from the connection (or, on a kept-alive one, from the request's
  first byte) until its headers are complete;
- ``body_timeout``: the longest silence while the body is read (each piece of it resets
  the clock; a slow upload that keeps sending is not cut).

A WebSocket upgrade leaves the deadlines behind (an event stream has its own rules).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # asyncio and uvicorn are imported when a server starts, not with the CLI
    import asyncio

#: Defaults of ``pitboss serve --header-timeout`` and ``--body-timeout`` (seconds).
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0

_TIMEOUT_BODY = b'{"error": "the request was not sent in time"}'
_TIMEOUT_RESPONSE = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
                     b"content-length: %d\r\n\r\n%s" % (len(_TIMEOUT_BODY), _TIMEOUT_BODY))


@cache
def deadline_protocol(header_timeout: float, body_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with these deadlines (uvicorn makes one per connection;
    uvicorn is imported here, when a server starts, not when the CLI does)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class DeadlineProtocol(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: asyncio.TimerHandle | None = None

        def _arm(self, seconds: float) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is None or cycle.response_complete or not cycle.response_started:
                self.transport.write(_TIMEOUT_RESPONSE)
            if cycle is not None and not cycle.response_complete:
                cycle.keep_alive = False
            self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm(header_timeout)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._deadline is None:
                self._arm(header_timeout)

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._arm(body_timeout)

        def on_body(self, body: bytes) -> None:
            super().on_body(body)
            self._arm(body_timeout)

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

    return DeadlineProtocol
