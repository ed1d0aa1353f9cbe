"""The live referee service (``pitboss serve``): an ASGI app (Starlette, served by uvicorn).

``create_app(db)`` builds it: the HTTP API and WebSocket events of the service, the
stateless jobs, the web page (the endpoints: ``endpoints.py`` and ``events.py``). Every
answer other than 2xx is JSON ``{"error": ...}`` (with ``rule`` where a rule decided it);
malformed input of any kind is a 4xx.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import Route, WebSocketRoute

from referee.service import endpoints, replies
from referee.service.caps import TableCaps
from referee.service.context import Limits, Service
from referee.service.deadlines import BODY_TIMEOUT, HEADER_TIMEOUT, deadline_protocol
from referee.service.endpoints import Endpoint
from referee.service.errors import HubError
from referee.service.events import TRANSPORT, WS_MESSAGE, events, transport_of
from referee.service.incoming import Incoming
from referee.service.store import open_store
from referee.service.tables import TableHub
from referee.service.views import Readers

#: Another protocol's listener, run beside the HTTP service: given the hub once it is up.
Listener = Callable[[TableHub], Coroutine[Any, Any, None]]

_TABLES = "/v1/tables/"


class _FastApp(Starlette):
    """Starlette with a fast path in front: the hot endpoints (``endpoints.FAST``: views
    and moves, a few per move played) are answered straight from ASGI, without the
    router's scan, the middleware layers and Request objects, which cost more CPU than
    the move. They read the request and answer exactly as through the router."""

    #: The running service (set on start-up, as ``state.service`` for the routes).
    service: Service | None = None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            scope[TRANSPORT] = transport_of(send)  # to cut off a reader that reads nothing
        elif scope["type"] == "http" and scope["path"].startswith(_TABLES):
            table_id, slash, tail = scope["path"][len(_TABLES):].partition("/")
            endpoint = endpoints.FAST.get((scope["method"], slash + tail)) if table_id else None
            if endpoint is not None:
                await self._answer(endpoint, Incoming(self.service, scope, receive, table_id), send)
                return
        await super().__call__(scope, receive, send)

    @staticmethod
    async def _answer(endpoint: Endpoint, req: Incoming, send) -> None:
        try:
            reply = await endpoint(req)
        except HubError as exc:
            reply = replies.refusal(exc)
        except Exception:
            await replies.error(500, "internal error")(req.scope, req.receive, send)
            raise  # the server logs it, as Starlette's error middleware does
        await reply(req.scope, req.receive, send)


def _route(path: str, endpoint: Endpoint, methods: list[str] | None = None) -> Route:
    """A route of the router to ``endpoint``, which reads the request as :class:`Incoming`."""
    async def handle(request: Request) -> replies.Reply:
        return await endpoint(Incoming(request.app.state.service, request.scope, request.receive))

    return Route(path, handle, methods=methods, name=endpoint.__name__)


ROUTES = [
    _route("/healthz", endpoints.healthz),
    _route("/openapi.json", endpoints.openapi),
    _route("/docs", endpoints.docs),
    _route("/", endpoints.index),
    _route("/favicon.ico", endpoints.favicon),
    _route("/tables/{id}", endpoints.table_page),
    _route("/tables/{id}/replay", endpoints.replay_page),
    _route("/v1/tables", endpoints.create_table, methods=["POST"]),
    _route("/v1/tables", endpoints.list_tables, methods=["GET"]),
    _route("/v1/tables/{id}", endpoints.public_view),
    _route("/v1/tables/{id}/view", endpoints.seat_view),
    _route("/v1/tables/{id}/moves", endpoints.post_move, methods=["POST"]),
    _route("/v1/tables/{id}/record", endpoints.record),
    _route("/v1/tables/{id}/picture", endpoints.picture),
    WebSocketRoute("/v1/tables/{id}/events", events),
    _route("/v1/validate", endpoints.job_validate, methods=["POST"]),
    _route("/v1/annotate", endpoints.job_annotate, methods=["POST"]),
    _route("/v1/solve", endpoints.job_solve, methods=["POST"]),
]


async def _refused(request: Request, exc: HubError) -> replies.Reply:
    return replies.refusal(exc)


async def _not_found(request: Request, exc: Exception) -> replies.Reply:
    return replies.error(404, "no such page")


async def _not_allowed(request: Request, exc: Exception) -> replies.Reply:
    return replies.error(405, "method not allowed")


async def _crashed(request: Request, exc: Exception) -> replies.Reply:  # a bug: say so, plainly
    return replies.error(500, "internal error")


def create_app(db: str = "pitboss.db", *, rate: float = 200.0, burst: float = 400.0,
               resume: bool = True, readers: Readers | None = None, caps: TableCaps | None = None) -> Starlette:
    """The service on database ``db`` (a SQLite path or ``postgresql://...``);
    ``readers``: the event readers' limits (:class:`~referee.service.views.Readers`);
    ``caps``: how many unfinished tables it holds (:class:`~referee.service.caps.TableCaps`)."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        store = await asyncio.to_thread(open_store, db)
        hub = TableHub(store, caps)
        app.service = app.state.service = Service(hub, store, Limits(rate, burst), readers or Readers())
        app.state.hub = hub
        if resume:
            await hub.resume()
        try:
            yield
        finally:
            hub.close()
            await asyncio.to_thread(store.close)

    handlers: dict[Any, Any] = {HubError: _refused, 404: _not_found, 405: _not_allowed, 500: _crashed}
    return _FastApp(routes=ROUTES, lifespan=lifespan, exception_handlers=handlers)


def _loop_factory():
    """uvloop's event loop where it is installed (it comes with ``uvicorn[standard]``): the
    server's per-request CPU is mostly the event loop's and the HTTP layer's. uvicorn picks
    it only when it runs the loop itself; here the loop is ours, so it is chosen here."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - a platform without uvloop (Windows)
        return None
    return uvloop.new_event_loop


def _start_listeners(hub: TableHub, listeners: tuple[Listener, ...] | list[Listener]) -> list[asyncio.Task]:
    """Start the other protocols' listeners beside the HTTP service, each given the hub."""
    loop = asyncio.get_running_loop()
    return [loop.create_task(listen(hub)) for listen in listeners]


def _announce(server: Any, db: str, announce: Callable[[str], Any]) -> None:
    for sock in server.servers[0].sockets if server.servers else ():
        h, p = sock.getsockname()[:2]
        announce(f"pitboss: serving on http://{h}:{p} (database: {db})")
        break


def serve(host: str, port: int, db: str, *, rate: float = 200.0, burst: float = 400.0,
          readers: Readers | None = None, announce=print, extra_servers=(),
          deadlines: tuple[float, float] = (HEADER_TIMEOUT, BODY_TIMEOUT), caps: TableCaps | None = None) -> int:
    """Run the service until SIGINT/SIGTERM, then finish the requests in flight; 0 when
    it stopped cleanly. ``extra_servers``: coroutines (other protocols) run beside it,
    each given the hub once it is up; ``deadlines``: the seconds a request's headers and
    a silence in its body may take (:mod:`referee.service.deadlines`); ``caps``: see
    :func:`create_app`."""
    import gc
    import signal

    import uvicorn

    app = create_app(db, rate=rate, burst=burst, readers=readers, caps=caps)
    # no proxy headers (nothing here reads the client's address), no access log, no Server
    # header: per-request work that answers nobody
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=WS_MESSAGE * 16,
                            timeout_graceful_shutdown=10, lifespan="on", proxy_headers=False,
                            access_log=False, server_header=False, http=deadline_protocol(*deadlines))
    server = uvicorn.Server(config)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        listening: list[asyncio.Task] = []
        if server.started:
            # What is loaded by now (modules, parsers, resumed tables) lives as long as the
            # process: out of the collector's sight, so its full passes stay short
            gc.freeze()
            _announce(server, db, announce)
            listening = _start_listeners(app.state.hub, extra_servers)
        await task
        for t in listening:
            t.cancel()

    # uvicorn hands the signal it stopped on back to the handler it found once it is done;
    # that handler only notes it, so that a requested stop exits 0
    stopped_by: list[int] = []
    previous = {sig: signal.signal(sig, lambda s, _frame: stopped_by.append(s))
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(main())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0 if server.started else 1
