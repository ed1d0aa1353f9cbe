"""The service's HTTP endpoints, one function each: ``await endpoint(req)`` -> a
:class:`~referee.service.replies.Reply`, ``req`` the request as :class:`Incoming` reads
it. A refusal is raised as a :class:`HubError` and answered by ``replies.refusal``.

``app.py`` routes them; the hot ones (a seat's view, a move, the public view: a few per
move played) are also reached by its fast path, without the router (:data:`FAST`).
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from referee.service import jobs, page, replies, views
from referee.service import openapi as openapi_doc
from referee.service.context import Service
from referee.service.errors import HubError
from referee.service.incoming import Incoming
from referee.service.replies import Reply
from referee.service.table import Table
from referee.service.views import dumps

MOVE_BODY = 64 * 1024
RECORD_BODY = 8 * 1024 * 1024
PAGE_SIZE = 50

Endpoint = Callable[[Incoming], Awaitable[Reply]]


# ------------------------------------------------------------------ shared steps

async def table_or_404(svc: Service, table_id: str) -> Table:
    table = await svc.hub.get(table_id)
    if table is None:
        raise HubError(404, {"error": f"no table {table_id}"})
    return table


def seat_or_401(table: Table, token: str | None) -> int:
    seat = table.seat_of(token)
    if seat is None:
        raise HubError(401, {"error": "a seat token of this table is needed (Authorization: Bearer TOKEN)"})
    return seat


def rate_or_429(svc: Service, table: Table, seat: int) -> None:
    if not svc.limits.allow(f"{table.id}/{seat}"):
        raise HubError(429, {"error": "too many requests from this token; slow down"})


def _cursor(row: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps([row.created, row.id]).encode()).decode().rstrip("=")


def _uncursor(text: str) -> tuple[float, str]:
    try:
        created, table_id = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        if not isinstance(created, (int, float)) or not isinstance(table_id, str):
            raise ValueError
        return float(created), table_id
    except (ValueError, TypeError, UnicodeDecodeError):
        raise HubError(400, {"error": "bad cursor"}) from None


# ------------------------------------------------------------------ the service itself

async def healthz(req: Incoming) -> Reply:
    svc: Service = req.service
    store, hub = svc.store, svc.hub
    return replies.json_reply({"ok": True, "storage": store.kind, "commits": store.commits, "writes": store.batched,
                               "memory": {"python_blocks": sys.getallocatedblocks(), "tables": len(hub.tables),
                                          "finished_cached": len(hub.finished)},
                               "readers": views.readers_now(hub.tables.values(), svc.readers)})


async def openapi(req: Incoming) -> Reply:
    return replies.json_reply(openapi_doc.build())


async def docs(req: Incoming) -> Reply:
    return replies.html(page.docs_page())


async def favicon(req: Incoming) -> Reply:
    return replies.svg(page.FAVICON)


async def index(req: Incoming) -> Reply:
    hub = req.service.hub
    rows = await hub.page(PAGE_SIZE, None)
    return replies.html(page.index_page([hub.summary(r) for r in rows]))


async def table_page(req: Incoming) -> Reply:
    table = await table_or_404(req.service, req.table_id)
    return replies.html(page.table_page(table.id, table.row.game))


async def replay_page(req: Incoming) -> Reply:
    table = await table_or_404(req.service, req.table_id)
    if not table.finished:
        raise HubError(409, {"error": "the replay opens once the table is finished"})
    return replies.html(await run_in_threadpool(page.replay_page, table.id, table.match.record()))


# ------------------------------------------------------------------ tables

async def create_table(req: Incoming) -> Reply:
    body = await req.json(MOVE_BODY)
    client = req.scope.get("client")
    table, tokens = await req.service.hub.create(body, client[0] if client else None)
    seats = [{"name": s["name"], "token": tok, "bot": s.get("bot")} for s, tok in zip(table.row.seats, tokens)]
    return replies.json_reply({"id": table.id, "game": table.row.game, "rules": table.row.rules,
                               "options": table.row.setup.get("options", ""), "seats": seats,
                               "url": f"/tables/{table.id}"}, 201)


async def list_tables(req: Incoming) -> Reply:
    hub = req.service.hub
    cursor = req.query.get("cursor")
    before = _uncursor(cursor) if cursor else None
    rows = await hub.page(PAGE_SIZE + 1, before)
    more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    return replies.json_reply({"tables": [hub.summary(r) for r in rows],
                               "next": _cursor(rows[-1]) if more else None})


async def public_view(req: Incoming) -> Reply:
    table = await table_or_404(req.service, req.table_id)
    return replies.json_text(views.view_text(table, None))


async def _seated(req: Incoming) -> tuple[Table, int]:
    """The table and the seat whose token the request bears (404, 401, 429)."""
    table = await table_or_404(req.service, req.table_id)
    seat = seat_or_401(table, req.bearer())
    rate_or_429(req.service, table, seat)
    return table, seat


async def seat_view(req: Incoming) -> Reply:
    table, seat = await _seated(req)
    req.service.hub.claim(table, seat)
    return replies.json_text(views.view_text(table, seat))


async def post_move(req: Incoming) -> Reply:
    svc: Service = req.service
    table, seat = await _seated(req)
    body = await req.json(MOVE_BODY)
    if not isinstance(body, dict) or not isinstance(body.get("move"), str) or set(body) - {"move", "ply"}:
        raise HubError(400, {"error": 'the body is {"move": "...", "ply": N} (ply optional)'})
    ply = body.get("ply")
    if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
        raise HubError(400, {"error": "ply is a whole number"})
    svc.hub.claim(table, seat)
    answer = await svc.hub.submit(req.table_id, seat, body["move"], ply)
    return replies.Reply(dumps(answer.body).encode(), answer.status)


async def record(req: Incoming) -> Reply:
    table = await table_or_404(req.service, req.table_id)
    return replies.plain(table.match.record())


async def picture(req: Incoming) -> Reply:
    from referee.jobs.render.svg import render

    table = await table_or_404(req.service, req.table_id)
    token = req.bearer() or req.query.get("token")
    seat = None
    if token:
        seat = seat_or_401(table, token)
        req.service.hub.claim(table, seat)
    return replies.svg(render(table.match.frame(seat)))


#: The hot endpoints the fast path answers: (method, the path after the table id) -> endpoint.
FAST: dict[tuple[str, str], Endpoint] = {("GET", ""): public_view, ("GET", "/view"): seat_view,
                                         ("POST", "/moves"): post_move}


# ------------------------------------------------------------------ the stateless jobs

async def job_validate(req: Incoming) -> Reply:
    text = await req.text(RECORD_BODY)
    return replies.json_reply(await run_in_threadpool(jobs.validate, text))


async def job_annotate(req: Incoming) -> Reply:
    text = await req.text(RECORD_BODY)
    rules = req.query.getlist("rules")
    explain_all = req.query.get("explain_all", "").lower() in ("1", "true", "yes")
    try:
        return replies.json_reply(await run_in_threadpool(jobs.annotate, text, rules, explain_all))
    except jobs.JobError as err:
        raise HubError(err.status, {"error": str(err)}) from None


async def job_solve(req: Incoming) -> Reply:
    body = await req.json(RECORD_BODY)
    if not isinstance(body, dict):
        raise HubError(400, {"error": "the body is a JSON object"})
    try:
        return replies.json_reply(await run_in_threadpool(jobs.solve, body))
    except jobs.JobError as err:
        raise HubError(err.status, {"error": str(err)}) from None
