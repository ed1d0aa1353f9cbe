"""``GET /v1/tables/{id}/events``: a table's events over a WebSocket. The reader (a
seat with ``?token=``, else a spectator) gets its view first, then one message per move
(with its view after the move), then the end; a reader too far behind is closed (4408)
and reconnects for a fresh view."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket, WebSocketDisconnect

from referee.service.context import Service
from referee.service.views import Event

#: The largest message a client may send (it only sends pings); more closes with 1009.
WS_MESSAGE = 4 * 1024


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
    obs = hub.observe(table, seat)
    reader = asyncio.get_running_loop().create_task(_drain_client(ws))
    try:
        await ws.send_text('{"type":"view",' + hub.view_text(table, seat)[1:])
        if table.finished:
            await ws.send_json({"type": "end", "result": table.match.view(None)["result"]})
        while True:
            getter = asyncio.ensure_future(obs.queue.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                getter.cancel()
                code = reader.result()
                if code is not None:
                    await ws.close(code=code)
                return
            message = getter.result()
            await (ws.send_text(message.text) if isinstance(message, Event) else ws.send_json(message))
            if obs.dropped and obs.queue.empty():
                await ws.close(code=4408, reason="too far behind: reconnect for a fresh view")
                return
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    finally:
        hub.unobserve(table, obs)
        reader.cancel()


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
