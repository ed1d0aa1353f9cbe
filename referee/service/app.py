"""The live referee service (``pitboss serve``): an ASGI app (Starlette, served by uvicorn).

``create_app(db)`` builds it: the HTTP API and WebSocket events of ``service.md``, the
stateless jobs, the web page. Every answer other than 2xx is JSON ``{"error": ...}``
(with ``rule`` where a rule decided it); malformed input of any kind is a 4xx.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import math
import sys
import time
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from referee.service import jobs, page
from referee.service import openapi as openapi_doc
from referee.service.store import open_store
from referee.service.tables import HubError, Table, TableHub
from referee.service.tables import dumps as tables_dumps

MOVE_BODY = 64 * 1024
RECORD_BODY = 8 * 1024 * 1024
WS_MESSAGE = 4 * 1024
PAGE_SIZE = 50


class Limits:
    """Per-token request rate: a token bucket of ``burst`` requests refilled at ``rate``/s.

    A bucket that has refilled to ``burst`` is the same as none, so such buckets are
    dropped as they come (a sweep at most once every ``burst / rate`` seconds): the map
    holds only the tokens used in the last few seconds, never one entry per table ever
    played (which was the service's one per-finished-table memory growth)."""

    def __init__(self, rate: float, burst: float):
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, tuple[float, float]] = {}
        self._full_after = burst / rate
        self._swept = time.monotonic()

    def allow(self, key: str) -> bool:
        t = time.monotonic()
        if t - self._swept > self._full_after:
            self._sweep(t)
        tokens, last = self.buckets.get(key, (self.burst, t))
        tokens = min(self.burst, tokens + (t - last) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, t)
            return False
        self.buckets[key] = (tokens - 1, t)
        return True

    def _sweep(self, t: float) -> None:
        self._swept = t
        burst, rate = self.burst, self.rate
        self.buckets = {k: (n, last) for k, (n, last) in self.buckets.items() if n + (t - last) * rate < burst}


def _error(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status)


async def _body(request: Request, limit: int) -> bytes:
    """The request body, at most ``limit`` bytes (413 beyond it)."""
    return await _scope_body(request.scope, request.receive, limit)


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


async def _json(request: Request, limit: int) -> Any:
    raw = await _body(request, limit)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise HubError(400, {"error": "the body is not JSON", "detail": None}) from None


async def _text(request: Request, limit: int) -> str:
    raw = await _body(request, limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise HubError(400, {"error": "the body is not UTF-8 text"}) from None


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _cursor(row) -> str:
    return base64.urlsafe_b64encode(json.dumps([row.created, row.id]).encode()).decode().rstrip("=")


def _uncursor(text: str) -> tuple[float, str]:
    try:
        created, table_id = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        if not isinstance(created, (int, float)) or not isinstance(table_id, str):
            raise ValueError
        return float(created), table_id
    except (ValueError, TypeError, UnicodeDecodeError):
        raise HubError(400, {"error": "bad cursor"}) from None


def _json_text(text: str, status: int = 200) -> Response:
    return Response(text, status, media_type="application/json")


async def _send_json(send, status: int, text: str | bytes) -> None:
    data = text.encode() if isinstance(text, str) else text
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(data)).encode()), (b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": data})


def _scope_header(scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


def _scope_bearer(scope) -> str | None:
    header = _scope_header(scope, b"authorization")
    if header is None:
        return None
    scheme, _, token = header.decode("latin-1").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def _scope_body(scope, receive, limit: int) -> bytes:
    """The request body from ASGI messages, at most ``limit`` bytes: 400 for a bad
    Content-Length or a client gone mid-body, 413 beyond the limit."""
    length = _scope_header(scope, b"content-length")
    if length is not None:
        if not length.isdigit():
            raise HubError(400, {"error": "bad Content-Length"})
        if int(length) > limit:
            raise HubError(413, {"error": f"the body is over {limit // 1024} KiB"})
    chunks = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise HubError(400, {"error": "the client went away mid-body"})
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise HubError(413, {"error": f"the body is over {limit // 1024} KiB"})
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


class _FastApp(Starlette):
    """Starlette with a fast path in front: the hot endpoints (views and moves, a few
    per move played) are answered straight from ASGI, without the router's scan, the
    middleware layers and Request/Response objects, which cost more CPU than the move."""

    def __init__(self, fast, **kwargs: Any):
        super().__init__(**kwargs)
        self._fast = fast

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and await self._fast(scope, receive, send):
            return
        await super().__call__(scope, receive, send)


def create_app(db: str = "pitboss.db", *, rate: float = 200.0, burst: float = 400.0,
               resume: bool = True) -> Starlette:
    """The service on database ``db`` (a SQLite path or ``postgresql://...``)."""
    state: dict[str, Any] = {}
    limits = Limits(rate, burst)

    def hub() -> TableHub:
        return state["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        store = await asyncio.to_thread(open_store, db)
        state["store"] = store
        state["hub"] = TableHub(store)
        app.state.hub = state["hub"]
        if resume:
            await state["hub"].resume()
        try:
            yield
        finally:
            state["hub"].close()
            await asyncio.to_thread(store.close)

    async def table_or_404(table_id: str) -> Table:
        table = await hub().get(table_id)
        if table is None:
            raise HubError(404, {"error": f"no table {table_id}"})
        return table

    def seat_or_401(table: Table, token: str | None) -> int:
        seat = table.seat_of(token)
        if seat is None:
            raise HubError(401, {"error": "a seat token of this table is needed (Authorization: Bearer TOKEN)"})
        return seat

    # ------------------------------------------------------------------ endpoints

    async def healthz(request: Request) -> Response:
        store = state["store"]
        return JSONResponse({"ok": True, "storage": store.kind, "commits": store.commits, "writes": store.batched,
                             "memory": {"python_blocks": sys.getallocatedblocks(), "tables": len(hub().tables),
                                        "finished_cached": len(hub().finished)}})

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_doc.build())

    async def docs(request: Request) -> Response:
        return HTMLResponse(page.docs_page())

    async def create_table(request: Request) -> Response:
        body = await _json(request, MOVE_BODY)
        table, tokens = await hub().create(body)
        seats = [{"name": s["name"], "token": tok, "bot": s.get("bot")} for s, tok in zip(table.row.seats, tokens)]
        return JSONResponse({"id": table.id, "game": table.row.game, "rules": table.row.rules,
                             "options": table.row.setup.get("options", ""), "seats": seats,
                             "url": f"/tables/{table.id}"}, 201)

    async def list_tables(request: Request) -> Response:
        cursor = request.query_params.get("cursor")
        before = _uncursor(cursor) if cursor else None
        rows = await hub().page(PAGE_SIZE + 1, before)
        more = len(rows) > PAGE_SIZE
        rows = rows[:PAGE_SIZE]
        return JSONResponse({"tables": [hub().summary(r) for r in rows],
                             "next": _cursor(rows[-1]) if more else None})

    # The hot endpoints (a seat's view, a move, the public view) are written once, as
    # functions of the table id, the token and the body; the Starlette routes and the
    # fast path (``_FastApp``: no routing, middleware or Request objects for them) call them.

    def rate_or_429_seat(table: Table, seat: int) -> None:
        if not limits.allow(f"{table.id}/{seat}"):
            raise HubError(429, {"error": "too many requests from this token; slow down"})

    async def do_public_view(table_id: str) -> str:
        table = await table_or_404(table_id)
        return hub().view_text(table, None)

    async def do_seat_view(table_id: str, token: str | None) -> str:
        table = await table_or_404(table_id)
        seat = seat_or_401(table, token)
        rate_or_429_seat(table, seat)
        hub().claim(table, seat)
        return hub().view_text(table, seat)

    async def do_move(table_id: str, token: str | None, read) -> tuple[int, dict[str, Any]]:
        table = await table_or_404(table_id)
        seat = seat_or_401(table, token)
        rate_or_429_seat(table, seat)
        raw = await read(MOVE_BODY)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise HubError(400, {"error": "the body is not JSON", "detail": None}) from None
        if not isinstance(body, dict) or not isinstance(body.get("move"), str) or set(body) - {"move", "ply"}:
            raise HubError(400, {"error": 'the body is {"move": "...", "ply": N} (ply optional)'})
        ply = body.get("ply")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise HubError(400, {"error": "ply is a whole number"})
        hub().claim(table, seat)
        answer = await hub().submit(table_id, seat, body["move"], ply)
        return answer.status, answer.body

    async def public_view(request: Request) -> Response:
        return _json_text(await do_public_view(request.path_params["id"]))

    async def seat_view(request: Request) -> Response:
        return _json_text(await do_seat_view(request.path_params["id"], _bearer(request)))

    async def post_move(request: Request) -> Response:
        status, body = await do_move(request.path_params["id"], _bearer(request),
                                     lambda limit: _body(request, limit))
        return JSONResponse(body, status)

    async def fast(scope, receive, send) -> bool:
        """The hot endpoints straight from ASGI; False: not one of them (Starlette answers)."""
        path: str = scope["path"]
        if not path.startswith("/v1/tables/"):
            return False
        table_id, sep, tail = path[11:].partition("/")
        method = scope["method"]
        if not table_id:
            return False
        status = 200
        try:
            if not sep and method == "GET":
                text: str | bytes = await do_public_view(table_id)
            elif tail == "view" and method == "GET":
                text = await do_seat_view(table_id, _scope_bearer(scope))
            elif tail == "moves" and method == "POST":
                status, body = await do_move(table_id, _scope_bearer(scope),
                                             lambda limit: _scope_body(scope, receive, limit))
                text = tables_dumps(body)
            else:
                return False
        except HubError as exc:
            status, text = exc.status, tables_dumps(_json_safe(exc.body))
        except Exception:
            await _send_json(send, 500, tables_dumps({"error": "internal error"}))
            raise  # the server logs it, as Starlette's error middleware does
        await _send_json(send, status, text)
        return True

    async def record(request: Request) -> Response:
        table = await table_or_404(request.path_params["id"])
        return PlainTextResponse(table.match.record())

    async def picture(request: Request) -> Response:
        from referee.jobs.render.svg import render

        table = await table_or_404(request.path_params["id"])
        token = _bearer(request) or request.query_params.get("token")
        seat = None
        if token:
            seat = seat_or_401(table, token)
            hub().claim(table, seat)
        return Response(render(table.match.frame(seat)), media_type="image/svg+xml")

    async def job_validate(request: Request) -> Response:
        text = await _text(request, RECORD_BODY)
        return JSONResponse(await run_in_threadpool(jobs.validate, text))

    async def job_annotate(request: Request) -> Response:
        text = await _text(request, RECORD_BODY)
        rules = request.query_params.getlist("rules")
        explain_all = request.query_params.get("explain_all", "").lower() in ("1", "true", "yes")
        try:
            return JSONResponse(await run_in_threadpool(jobs.annotate, text, rules, explain_all))
        except jobs.JobError as err:
            raise HubError(err.status, {"error": str(err)}) from None

    async def job_solve(request: Request) -> Response:
        body = await _json(request, RECORD_BODY)
        if not isinstance(body, dict):
            raise HubError(400, {"error": "the body is a JSON object"})
        try:
            return JSONResponse(await run_in_threadpool(jobs.solve, body))
        except jobs.JobError as err:
            raise HubError(err.status, {"error": str(err)}) from None

    async def favicon(request: Request) -> Response:
        return Response(page.FAVICON, media_type="image/svg+xml")

    async def index(request: Request) -> Response:
        rows = await hub().page(PAGE_SIZE, None)
        return HTMLResponse(page.index_page([hub().summary(r) for r in rows]))

    async def table_page(request: Request) -> Response:
        table = await table_or_404(request.path_params["id"])
        return HTMLResponse(page.table_page(table.id, table.row.game))

    async def replay(request: Request) -> Response:
        table = await table_or_404(request.path_params["id"])
        if not table.finished:
            raise HubError(409, {"error": "the replay opens once the table is finished"})
        return HTMLResponse(await run_in_threadpool(page.replay_page, table.id, table.match.record()))

    async def events(ws: WebSocket) -> None:
        table = await hub().get(ws.path_params["id"])
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
            hub().claim(table, seat)
        await ws.accept()
        obs = hub().observe(table, seat)
        reader = asyncio.get_running_loop().create_task(_drain_client(ws))
        try:
            await ws.send_text('{"type":"view",' + hub().view_text(table, seat)[1:])
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
                text = getattr(message, "text", None)
                await (ws.send_text(text) if text is not None else ws.send_json(message))
                if obs.dropped and obs.queue.empty():
                    await ws.close(code=4408, reason="too far behind: reconnect for a fresh view")
                    return
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        finally:
            hub().unobserve(table, obs)
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

    # ------------------------------------------------------------------ errors

    async def hub_error(request: Request, exc: HubError) -> Response:
        return JSONResponse(_json_safe(exc.body), exc.status)

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, "no such page")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _error(405, "method not allowed")

    async def crashed(request: Request, exc: Exception) -> Response:  # a bug: say so, plainly
        return _error(500, "internal error")

    routes = [
        Route("/healthz", healthz),
        Route("/openapi.json", openapi),
        Route("/docs", docs),
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/tables/{id}", table_page),
        Route("/tables/{id}/replay", replay),
        Route("/v1/tables", create_table, methods=["POST"]),
        Route("/v1/tables", list_tables, methods=["GET"]),
        Route("/v1/tables/{id}", public_view),
        Route("/v1/tables/{id}/view", seat_view),
        Route("/v1/tables/{id}/moves", post_move, methods=["POST"]),
        Route("/v1/tables/{id}/record", record),
        Route("/v1/tables/{id}/picture", picture),
        WebSocketRoute("/v1/tables/{id}/events", events),
        Route("/v1/validate", job_validate, methods=["POST"]),
        Route("/v1/annotate", job_annotate, methods=["POST"]),
        Route("/v1/solve", job_solve, methods=["POST"]),
    ]
    handlers: dict[Any, Any] = {HubError: hub_error, 404: not_found, 405: not_allowed, 500: crashed}
    return _FastApp(fast, routes=routes, lifespan=lifespan, exception_handlers=handlers)


def _loop_factory():
    """uvloop's event loop where it is installed (it comes with ``uvicorn[standard]``): the
    server's per-request CPU is mostly the event loop's and the HTTP layer's. uvicorn picks
    it only when it runs the loop itself; here the loop is ours, so it is chosen here."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - a platform without uvloop (Windows)
        return None
    return uvloop.new_event_loop


def serve(host: str, port: int, db: str, *, rate: float = 200.0, burst: float = 400.0,
          announce=print, extra_servers=()) -> int:
    """Run the service until SIGINT/SIGTERM, then finish the requests in flight; 0 when
    it stopped cleanly. ``extra_servers``: coroutines (other protocols) run beside it,
    each given the hub once it is up."""
    import uvicorn

    app = create_app(db, rate=rate, burst=burst)
    # no proxy headers (nothing here reads the client's address), no access log, no Server
    # header: per-request work that answers nobody
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=WS_MESSAGE * 16,
                            timeout_graceful_shutdown=10, lifespan="on", proxy_headers=False,
                            access_log=False, server_header=False)
    server = uvicorn.Server(config)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started:
            # What is loaded by now (modules, parsers, resumed tables) lives as long as the
            # process: out of the collector's sight, so its full passes stay short
            import gc

            gc.freeze()
            for sock in server.servers[0].sockets if server.servers else ():
                h, p = sock.getsockname()[:2]
                announce(f"pitboss: serving on http://{h}:{p} (database: {db})")
                break
            extra = [asyncio.get_running_loop().create_task(s(app.state.hub)) for s in extra_servers]
        else:
            extra = []
        await task
        for t in extra:
            t.cancel()

    # uvicorn hands the signal it stopped on back to the handler it found once it is done;
    # that handler only notes it, so that a requested stop exits 0
    import signal

    stopped_by: list[int] = []
    previous = {sig: signal.signal(sig, lambda s, _frame: stopped_by.append(s)) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(main())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0 if server.started else 1
