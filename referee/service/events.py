"""``GET /v1/tables/{id}/events``: a table's events over a WebSocket. The reader (a
seat with ``?token=``, else a spectator) gets its view first, then one message per move
(with its view after the move, the history of moves left out: the event's ``move`` is its
new entry), then the end.

A reader that does not keep up is dropped, so that it holds neither the server's memory
nor a connection: when its events not yet sent would pass its backlog (``Readers.backlog``
bytes of JSON, :mod:`referee.service.views`), or its socket takes nothing for
``Readers.timeout`` seconds while a message waits, it is closed with 4408 ("too far
behind: reconnect for a fresh view"); if the close itself is not taken within
:data:`CLOSE_GRACE` seconds (or its timeout, if shorter), the connection is cut.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from referee.service import views
from referee.service.context import Service
from referee.service.views import Event, Observer, Readers

#: The largest message a client may send (it only sends pings); more closes with 1009.
WS_MESSAGE = 4 * 1024
#: Seconds a dropped reader has to take the close frame before the connection is cut (its
#: timeout, where that is shorter).
CLOSE_GRACE = 5.0
#: The close code of a reader dropped for falling behind.
TOO_SLOW = 4408
#: Where the server's transport of a WebSocket connection is put in the ASGI scope (by
#: ``app.py``, from uvicorn's protocol), so that a reader that never reads can be cut off.
TRANSPORT = "pitboss.transport"
#: The kernel's send buffer of an event stream (Linux doubles it), fixed rather than left
#: to grow to megabytes for a client that reads nothing: ample for a reader that reads.
SOCKET_BUFFER = 128 * 1024


def transport_of(send: Any) -> Any:
    """The transport beneath an ASGI ``send`` of uvicorn (its protocol's bound method),
    or None under another server."""
    return getattr(getattr(send, "__self__", None), "transport", None)


def _fix_send_buffer(transport: Any) -> None:
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)


async def events(ws: WebSocket) -> None:
    svc: Service = ws.app.state.service
    hub = svc.hub
    table = await hub.get(ws.path_params["id"])
    if table is None:
        await ws.close(code=4404, reason="no such table")
        return
    token = ws.query_params.get("token")
    seat = None
    if token:
        seat = table.seat_of(token)
        if seat is None:
            await ws.close(code=4401, reason="unknown token for this table")
            return
        hub.claim(table, seat)
    await ws.accept()
    _fix_send_buffer(ws.scope.get(TRANSPORT))
    readers: Readers = svc.readers
    obs = views.observe(table, seat, readers.backlog)
    reader = asyncio.get_running_loop().create_task(_drain_client(ws))
    try:
        first = ['{"type":"view",' + hub.view_text(table, seat)[1:]]
        if table.finished:
            first.append(Event({"type": "end", "result": table.match.view(None)["result"]}).text)
        ended = await _Stream(ws, obs, reader, readers.timeout).run(first)
        if ended == SLOW:
            readers.dropped += 1
            if not await _hang_up(ws, min(CLOSE_GRACE, readers.timeout)):
                readers.cut += 1
        elif ended is not None:
            await ws.close(code=ended)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    finally:
        views.unobserve(table, obs)
        reader.cancel()


#: What :meth:`_Stream.run` returns for a reader that fell behind.
SLOW = -1


class _Stream:
    """The messages of one reader, sent in order, each within ``timeout`` seconds."""

    def __init__(self, ws: WebSocket, obs: Observer, reader: asyncio.Task, timeout: float):
        self.ws, self.obs, self.reader, self.timeout = ws, obs, reader, timeout
        #: The deadline of the send under way, if one is.
        self.deadline: asyncio.Timeout | None = None
        obs.on_drop = self._dropped

    def _dropped(self) -> None:
        # the backlog overflowed: a send waiting for the socket gives up now
        if self.deadline is not None and not self.deadline.expired():
            self.deadline.reschedule(asyncio.get_running_loop().time())

    async def run(self, first: list[str]) -> int | None:
        """Send ``first``, then the observer's events, until the client goes (None, or
        the close code its own misbehaviour earns) or falls behind (:data:`SLOW`)."""
        for text in first:
            if not await self._send(text):
                return SLOW
        backlog = self.obs.queue
        while True:
            if backlog.overflowed:
                return SLOW
            if backlog.empty():
                waiter = asyncio.ensure_future(backlog.wait())
                done, _ = await asyncio.wait({waiter, self.reader}, return_when=asyncio.FIRST_COMPLETED)
                if self.reader in done:
                    waiter.cancel()
                    return self.reader.result()
                continue
            if not await self._send(backlog.get_nowait().text):
                return SLOW

    async def _send(self, text: str) -> bool:
        """Send ``text``; False when the socket took nothing for ``timeout`` seconds or
        the reader was dropped meanwhile."""
        try:
            async with asyncio.timeout(self.timeout) as self.deadline:
                await self.ws.send_text(text)
        except TimeoutError:
            return False
        finally:
            self.deadline = None
        return not self.obs.dropped


async def _hang_up(ws: WebSocket, grace: float) -> bool:
    """Close a reader that fell behind with 4408. A client that reads nothing takes not
    even the close frame: if it is not on its way within ``grace`` seconds, the
    connection is cut (False), which frees what the server still held for it."""
    transport = ws.scope.get(TRANSPORT)
    try:
        async with asyncio.timeout(grace):
            await ws.close(code=TOO_SLOW, reason="too far behind: reconnect for a fresh view")
            while transport is not None and transport.get_write_buffer_size():
                await asyncio.sleep(0.05)
    except (TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
        pass
    if transport is not None and transport.get_write_buffer_size():
        transport.abort()
        return False
    return True


async def _drain_client(ws: WebSocket) -> int | None:
    """Read what the client sends (pings); too big a message closes with 1009."""
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return None
            data = message.get("text") or message.get("bytes") or ""
            if len(data) > WS_MESSAGE:
                return 1009
    except (WebSocketDisconnect, RuntimeError):
        return None
