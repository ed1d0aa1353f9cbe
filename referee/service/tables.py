"""Live tables in a running service: create, submit, observe — for every protocol.

The HTTP API (``referee/service/endpoints.py``) and a game's protocol listeners (the UEC
contest server's, ``referee.jobs.listener``) go through one :class:`TableHub`:

- ``await hub.create(body)`` -> ``(table, tokens)``: a new table (``body`` as ``POST
  /v1/tables`` takes it), stored before it is answered;
- ``await hub.submit(table_id, seat, text, ply=None)`` -> :class:`Answer`: a seat's move,
  judged by the game's engine, committed before it is answered, then broadcast; bots, the
  server's own moves and clocks follow by themselves (:mod:`referee.service.drive`);
- ``hub.observe(table_id, seat)`` -> an :class:`~referee.service.views.Observer` whose
  queue receives one event per move (``{"type": "move", ...}``) and ``{"type": "end"}``;
  ``hub.view(table, seat)`` is the reader's view at any time (:mod:`referee.service.views`);
- a table whose seats play over another protocol (the contest's connections) is taken in
  with ``await hub.adopt(game, setup, seats, match)`` (no seat tokens), its moves, judged
  by that protocol's side, committed with ``await hub.record(table, outcomes)`` (one
  commit for all), its notes (what went wrong at it) with ``await hub.annotate(table)``.

The hub never names a game: each table's game is reached through ``registry.game(name)``
and its ``live`` part (:mod:`referee.jobs.live`).
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter, OrderedDict
from typing import Any

from referee.jobs import registry
from referee.jobs.game import Live
from referee.jobs.live import LiveError, Match, Outcome
from referee.service import views
from referee.service.caps import TABLES_RETRY_AFTER, TableCaps
from referee.service.creation import check_body
from referee.service.drive import Driver
from referee.service.errors import HubError
from referee.service.store import Conflict, MoveRow, Store, TableRow, now
from referee.service.table import Answer, Table, token_hash

#: Finished tables kept in memory (the rest are read back from the database on demand).
FINISHED_CACHE = 16


def rules_name(game: str, rules: str) -> str:
    """A stored table's rule set as it is written now: another name the game's settings
    still read it by (a rule set's older name) is written as the rule set it names."""
    kind = registry.find(game)
    if kind is None:
        return rules
    settings = kind.settings.get()
    try:
        return settings.label(settings.parse(rules))
    except ValueError:
        return rules


def live_part(game: str) -> Live:
    """The live tables of a game (LookupError: it has none)."""
    live = registry.game(game).live
    if live is None:
        raise LookupError(f"{game} has no live tables")
    return live.get()


class TableHub:
    def __init__(self, store: Store, caps: TableCaps | None = None):
        self.store = store
        self.caps = caps or TableCaps()
        self.tables: dict[str, Table] = {}
        #: Who created each unfinished table created since the start (table id -> client
        #: address), and how many each address has: the per-client cap's count.
        self.creators: dict[str, str] = {}
        self.created_by: Counter[str] = Counter()
        self._swept = now()
        self.finished: OrderedDict[str, Table] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        self.driver = Driver(self._commit, self._keep)

    # ------------------------------------------------------------------ start and stop

    async def resume(self) -> int:
        """Load every unfinished table (after a restart) and let bots and clocks carry on."""
        ids = await asyncio.to_thread(self.store.unfinished)
        for table_id in ids:
            table = await self.get(table_id)
            if table is not None:
                if table.status != table.row.status:  # a protocol's table cut short by the stop
                    table.row.status = table.status
                    await self.store.write(self.store.update_table(table_id, status=table.row.status))
                self.driver.after(table)
        self.sweep()
        return len(ids)

    def close(self) -> None:
        self.driver.close(list(self.tables.values()))

    @property
    def closing(self) -> bool:
        return self.driver.closing

    # ------------------------------------------------------------------ tables

    async def create(self, body: Any, client: str | None = None) -> tuple[Table, list[str]]:
        """A new table from ``body``; ``client``: the creator's address, for the per-client cap."""
        self._check_caps(client)
        body = check_body(body)
        game = registry.game(body["game"])
        live = live_part(game.name)
        try:
            setup = live.create(body)
        except LiveError as err:
            raise HubError(err.status if err.status in (400, 422) else 422,
                           {"error": err.message, "detail": err.detail, "rule": err.rule}) from None
        tokens = [secrets.token_urlsafe(24) for _ in body["seats"]]
        row = TableRow(id=secrets.token_hex(8), created=now(), game=game.name, rules=str(setup["rules"]),
                       setup=setup, seats=[{"name": n, "bot": body["bots"].get(n)} for n in body["seats"]],
                       tokens=[token_hash(t) for t in tokens],
                       clock=(body.get("clock") or {}).get("move_seconds"), status="playing")
        table = Table(row, live.open(setup), live, last_at=row.created)
        row.status = table.status
        await self.store.write(self.store.insert_table(row))
        self.tables[row.id] = table
        if client is not None:
            self.creators[row.id] = client
            self.created_by[client] += 1
        self.driver.after(table)
        return table, tokens

    def _check_caps(self, client: str | None) -> None:
        if now() - self._swept > self.caps.idle / 4 or len(self.tables) >= self.caps.total:
            self.sweep()
        wait = {"Retry-After": str(TABLES_RETRY_AFTER)}
        if len(self.tables) >= self.caps.total:
            raise HubError(503, {"error": f"the service holds its limit of {self.caps.total:,} unfinished "
                                          "tables; try again later"}, wait)
        if client is not None and self.created_by[client] >= self.caps.per_client:
            raise HubError(429, {"error": f"this address has {self.caps.per_client:,} unfinished tables, its "
                                          "limit; finish one or try again later"}, wait)

    def sweep(self) -> int:
        """Let the unfinished tables idle past ``caps.idle`` leave memory; how many left.

        Only a table nothing is under way at is idle: no reader watching it, no clock
        armed, no bot or server move due, no move being made, and seat tokens (a table of
        another protocol stays with its connections). It is read back from the database
        when next used, exactly as it was."""
        t = self._swept = now()
        idle = [table for table in self.tables.values()
                if t - table.last_at > self.caps.idle and self._at_rest(table)]
        for table in idle:
            del self.tables[table.id]
            self._release(table.id)
        return len(idle)

    @staticmethod
    def _at_rest(table: Table) -> bool:
        match = table.match
        return (bool(table.row.tokens) and not table.observers and table.clock_task is None
                and not table.lock.locked() and not table.finished and match.server_move() is None
                and not any(table.bot(s) for s in match.movers()))

    def _release(self, table_id: str) -> None:
        client = self.creators.pop(table_id, None)
        if client is not None:
            self.created_by[client] -= 1
            if not self.created_by[client]:
                del self.created_by[client]

    async def get(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or len(table_id) > 64:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id) or self.finished.get(table_id)
            if table is None:
                table = await asyncio.to_thread(self._load, table_id)
                if table is not None:
                    self._keep(table)
        self._loading.pop(table_id, None)
        return table

    def _load(self, table_id: str) -> Table | None:
        row = self.store.table(table_id)
        if row is None:
            return None
        row.rules = rules_name(row.game, row.rules)
        live = live_part(row.game)
        match = live.open(row.setup)
        last = row.created
        for move in self.store.moves(table_id):
            if move.ply != match.ply + 1:
                raise RuntimeError(f"table {table_id}: stored ply {move.ply} after {match.ply}")
            match.replay(move.seat, move.stored)
            last = move.at
        return Table(row, match, live, last_at=last)

    def _keep(self, table: Table) -> None:
        if table.finished:
            self.tables.pop(table.id, None)
            self._release(table.id)
            self.finished[table.id] = table
            self.finished.move_to_end(table.id)
            while len(self.finished) > FINISHED_CACHE:
                self.finished.popitem(last=False)
        else:
            self.tables[table.id] = table

    async def page(self, limit: int, before: tuple[float, str] | None) -> list[TableRow]:
        return await asyncio.to_thread(self.store.page, limit, before)

    def summary(self, row: TableRow) -> dict[str, Any]:
        table = self.tables.get(row.id) or self.finished.get(row.id)
        status = table.status if table is not None else row.status
        return {"id": row.id, "game": row.game, "rules": rules_name(row.game, row.rules),
                "seats": [s["name"] for s in row.seats],
                "status": status}

    def claim(self, table: Table, seat: int) -> None:
        """``seat``'s token was used (a view, a move, an event stream): the seat is taken.
        The table stops ``waiting`` once every human seat is. Stored without waiting for
        the commit (losing it in a crash only shows the table as waiting again)."""
        if seat in table.row.claimed:
            return
        before = table.status
        table.row.claimed = [*table.row.claimed, seat]
        status = table.status
        table.row.status = status
        self.store.submit(self.store.update_claimed(table.id, table.row.claimed, status))
        if status != before:
            views.changed(table)

    # ------------------------------------------------------------------ readers

    def view(self, table: Table, seat: int | None) -> dict[str, Any]:
        return views.view(table, seat)

    def view_text(self, table: Table, seat: int | None) -> str:
        return views.view_text(table, seat)

    def observe(self, table: Table, seat: int | None) -> views.Observer:
        return views.observe(table, seat)

    def unobserve(self, table: Table, obs: views.Observer) -> None:
        views.unobserve(table, obs)

    # ------------------------------------------------------------------ moves

    async def submit(self, table_id: str, seat: int, text: str, ply: int | None = None) -> Answer:
        table = await self.get(table_id)
        if table is None:
            raise HubError(404, {"error": f"no table {table_id}"})
        async with table.lock:
            match = table.match
            if table.finished:
                raise HubError(409, {"error": "the table is finished", "ply": match.ply, "status": "finished"})
            if ply is not None and ply != match.ply:
                raise HubError(409, {"error": f"stale ply {ply}: the table is at ply {match.ply}",
                                     "ply": match.ply})
            try:
                outcome = match.submit(seat, text)
            except LiveError as err:
                raise HubError(400 if err.status == 400 else 422,
                               {"error": err.message, "rule": err.rule, "ply": match.ply}) from None
            if not outcome.counts:
                if outcome.status == 403:
                    raise HubError(403, {"error": outcome.message, "ply": match.ply})
                return Answer(422, {"accepted": False, "rule": outcome.rule, "message": outcome.message,
                                    "ply": match.ply})
            await self._commit(table, outcome)
        body: dict[str, Any] = {"accepted": outcome.accepted, "ply": match.ply, "move": outcome.stored,
                                "events": outcome.events, "status": table.status,
                                "result": match.view(None)["result"] if table.finished else None}
        if outcome.drawn is not None:
            body["drawn"] = outcome.drawn
        if outcome.counted_as is not None:
            body.update({"counted_as": outcome.counted_as, "rule": outcome.rule, "message": outcome.message})
        self.driver.after(table)
        return Answer(200, body)

    async def _commit(self, table: Table, outcome: Outcome) -> None:
        """Store the move, then (only then) make it the table's and tell the observers.
        Called with the table's lock held. The store-then-apply runs as its own task: a
        request cancelled while it waits cannot leave a committed move unapplied."""
        await asyncio.shield(asyncio.get_running_loop().create_task(self._store_and_apply(table, outcome)))

    async def _store_and_apply(self, table: Table, outcome: Outcome) -> None:
        match = table.match
        at = now()
        row = MoveRow(match.ply + 1, outcome.seat, outcome.stored, at)
        # the first move ends ``waiting`` (the listing's status, in the move's transaction)
        status = "playing" if table.row.status == "waiting" else None
        try:
            await self.store.write(self.store.insert_move(table.id, row, status))
        except Conflict:
            # another server on this database stored this ply first: take its moves
            fresh = await asyncio.to_thread(self._load, table.id)
            if fresh is not None:
                table.match, table.last_at = fresh.match, fresh.last_at
                views.changed(table)
            raise HubError(409, {"error": "another move was stored at this ply first", "ply": table.match.ply})
        match.commit(outcome)
        table.last_at = at
        if status is not None:
            table.row.status = status
        views.changed(table)
        if match.status() == "finished":
            table.row.status = "finished"
            # the listing's status (a restart recomputes it from the moves anyway)
            self.store.submit([("UPDATE live_tables SET status = ? WHERE id = ?", ("finished", table.id))])
        views.broadcast(table, outcome)

    # ------------------------------------------------------------------ tables of other protocols

    async def adopt(self, game: str, setup: dict[str, Any], seats: list[str], match: Match) -> Table:
        """A table whose seats play over another protocol (no seat tokens; its moves come
        through :meth:`record`): ``match`` is its live Match, which the game's live part
        builds again from ``setup`` and the stored moves after a restart."""
        row = TableRow(id=secrets.token_hex(8), created=now(), game=game, rules=str(setup["rules"]), setup=setup,
                       seats=[{"name": n, "bot": None} for n in seats], tokens=[], clock=None,
                       status=match.status())
        table = Table(row, match, live_part(game), last_at=row.created)
        await self.store.write(self.store.insert_table(row))
        self.tables[row.id] = table
        return table

    async def record(self, table: Table, outcomes: list[Outcome]) -> None:
        """Moves another protocol has judged and played: stored in one commit, then made
        the table's and told to its observers, one by one."""
        async with table.lock:
            match = table.match
            at = now()
            statements: list[tuple[str, tuple[Any, ...]]] = []
            for i, outcome in enumerate(outcomes):
                statements += self.store.insert_move(table.id, MoveRow(match.ply + 1 + i, outcome.seat,
                                                                       outcome.stored, at))
            await self.store.write(statements)
            for outcome in outcomes:
                match.commit(outcome)
                views.broadcast(table, outcome)
            table.last_at = at
            if table.finished:
                await self.store.write(self.store.update_table(table.id, status="finished"))
        self.driver.after(table)

    async def annotate(self, table: Table, note: dict[str, Any] | None = None) -> None:
        """Store the table's set-up and status as they now are (another protocol's notes:
        what went wrong at the table); observers get ``{"type": "note", "note", "view"}``."""
        views.changed(table)
        table.row.status = table.status
        await self.store.write(self.store.update_table(table.id, setup=table.row.setup, status=table.status))
        views.note(table, note)
