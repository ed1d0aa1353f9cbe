"""Live tables in a running service: create, submit, observe — for every protocol.

The HTTP API (``referee/service/app.py``) and any other protocol module (the UEC contest
server, ``referee/service/uecda``) go through one :class:`TableHub`:

- ``await hub.create(body)`` -> ``(table, tokens)``: a new table (``body`` as ``POST
  /v1/tables`` takes it), stored before it is answered;
- ``await hub.submit(table_id, seat, text, ply=None)`` -> :class:`Answer`: a seat's move,
  judged by the game's engine, committed before it is answered, then broadcast; bots, the
  server's own moves and clocks follow by themselves;
- ``hub.observe(table_id, seat)`` -> an :class:`Observer` whose queue receives one event
  per move (``{"type": "move", ...}``) and ``{"type": "end"}``; ``hub.view(table, seat)``
  is the reader's view at any time;
- a table whose seats play over another protocol (the contest's connections) is taken in
  with ``await hub.adopt(game, setup, seats, match)`` (no seat tokens), its moves, judged
  by that protocol's side, committed with ``await hub.record(table, outcomes)`` (one
  commit for all), its notes (what went wrong at it) with ``await hub.annotate(table)``.

The hub never names a game: each table's game is reached through ``registry.game(name)``
and its ``live`` part (:mod:`referee.jobs.live`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import random
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from referee.jobs import registry
from referee.jobs.game import Live
from referee.jobs.live import BOT_STYLES, LiveError, Outcome
from referee.service.store import Conflict, MoveRow, Store, TableRow, now

MAX_SEATS = 16
MAX_NAME = 40
#: Finished tables kept in memory (the rest are read back from the database on demand).
FINISHED_CACHE = 16


class HubError(Exception):
    """An answer other than 200: ``status``, a JSON body."""

    def __init__(self, status: int, body: dict[str, Any]):
        super().__init__(body.get("error") or body.get("message"))
        self.status = status
        self.body = body


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(eq=False)
class Observer:
    seat: int | None
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(maxsize=2000))
    #: Set when the observer fell too far behind: it must reconnect (and gets a fresh view).
    dropped: bool = False


#: JSON as the hot answers write it: compact, no NaN, and non-ASCII as ``\uXXXX`` escapes
#: (the same JSON to any reader, and the C encoder writes ASCII about 40 % faster).
dumps = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode


class Event(dict):
    """An event for observers: the message (a dict, as before) and its JSON ``text``,
    built once and sent as is to every observer of the same reader."""

    def __init__(self, message: dict[str, Any], view: dict[str, Any] | None = None, text: str | None = None):
        super().__init__(message)
        if view is not None:
            self["view"] = view
        self.text = text if text is not None else dumps(self)


def live_part(game: str) -> Live:
    """The live tables of a game (LookupError: it has none)."""
    live = registry.game(game).live
    if live is None:
        raise LookupError(f"{game} has no live tables")
    return live.get()


@dataclass
class Table:
    row: TableRow
    match: Any
    live: Any
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    observers: set = field(default_factory=set)
    last_at: float = 0.0
    clock_task: asyncio.TimerHandle | None = None
    #: The readers' views at ``views_ply``, by seat (None: the public one): (dict, JSON
    #: text). A view is built (and a seat's ``legal`` computed) at most once per ply and
    #: reader, however many requests and events want it.
    views: dict = field(default_factory=dict)
    views_ply: int = -1
    #: How many views were built (the cache's misses; tests watch it).
    views_built: int = 0

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def finished(self) -> bool:
        return self.match.status() == "finished"

    def bot(self, seat: int) -> str | None:
        return self.row.seats[seat].get("bot")

    @property
    def status(self) -> str:
        """``waiting`` before the first move while a human seat has not used its token yet
        (nobody has taken that seat), else the match's ``playing`` or ``finished``."""
        status = self.match.status()
        if status == "playing" and self.match.ply == 0 and self.unclaimed():
            return "waiting"
        return status

    def unclaimed(self) -> list[int]:
        claimed = self.row.claimed
        tokens = len(self.row.tokens)  # a table of another protocol has none: its seats are its connections
        return [i for i, s in enumerate(self.row.seats) if not s.get("bot") and i < tokens and i not in claimed]

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (constant-time comparison against every seat)."""
        if not token:
            return None
        digest = token_hash(token)
        found = None
        for i, stored in enumerate(self.row.tokens):
            if hmac.compare_digest(stored, digest):
                found = i
        return found


@dataclass
class Answer:
    status: int
    body: dict[str, Any]


class TableHub:
    def __init__(self, store: Store):
        self.store = store
        self.tables: dict[str, Table] = {}
        self.finished: OrderedDict[str, Table] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        self.closing = False

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
                self._after(table)
        return len(ids)

    def close(self) -> None:
        self.closing = True
        for table in self.tables.values():
            if table.clock_task is not None:
                table.clock_task.cancel()

    # ------------------------------------------------------------------ tables

    @staticmethod
    def _check_body(body: Any) -> dict[str, Any]:
        def bad(message: str, detail: Any = None, status: int = 422) -> HubError:
            return HubError(status, {"error": message, "detail": detail})

        if not isinstance(body, dict):
            raise bad("the body must be a JSON object", status=400)
        known = {"game", "rules", "options", "seats", "bots", "decks", "rounds", "seed", "clock"}
        extra = sorted(set(body) - known)
        if extra:
            raise bad(f"unknown field{'s' if len(extra) > 1 else ''}: {', '.join(extra)}", extra)
        game = body.get("game")
        kind = registry.find(game) if isinstance(game, str) else None
        if kind is None or kind.live is None:
            raise bad(f"game must be one of {', '.join(registry.names())}", {"game": game})
        seats = body.get("seats")
        if (not isinstance(seats, list) or not seats or len(seats) > MAX_SEATS
                or not all(isinstance(s, str) and 0 < len(s) <= MAX_NAME and s == s.strip() and s for s in seats)):
            raise bad(f"seats is a list of player names (1 to {MAX_NAME} characters, no surrounding spaces)",
                      {"seats": seats})
        if len(set(seats)) != len(seats):
            raise bad("seats must be different names", {"seats": seats})
        bots = body.get("bots") or {}
        if not isinstance(bots, dict) or any(k not in seats or v not in BOT_STYLES for k, v in bots.items()):
            raise bad(f"bots maps seat names to {' or '.join(BOT_STYLES)}", {"bots": bots})
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**62)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise bad("seed is a whole number from 0 to 2^63 - 1", {"seed": seed})
        clock = body.get("clock")
        if clock is not None:
            seconds = clock.get("move_seconds") if isinstance(clock, dict) else None
            if (not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
                    or not 0.05 <= seconds <= 7 * 86400 or set(clock) != {"move_seconds"}):
                raise bad('clock is {"move_seconds": N} with N from 0.05 to 604800', {"clock": clock})
        for name in ("rules", "options"):
            if body.get(name) is not None and not isinstance(body[name], str):
                raise bad(f"{name} is a string", {name: body[name]})
        return {**body, "seed": seed, "bots": bots}

    async def create(self, body: Any) -> tuple[Table, list[str]]:
        body = self._check_body(body)
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
        self._after(table)
        return table, tokens

    # ------------------------------------------------------------------ tables of other protocols

    async def adopt(self, game: str, setup: dict[str, Any], seats: list[str], match: Any) -> Table:
        """A table whose seats play over another protocol (no seat tokens; its moves come
        through :meth:`record`): ``match`` is its live Match, which the game's live part
        builds again from ``setup`` and the stored moves after a restart."""
        row = TableRow(id=secrets.token_hex(8), created=now(), game=game, rules=setup["rules"], setup=setup,
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
                self._broadcast(table, outcome)
            table.last_at = at
            if table.finished:
                await self.store.write(self.store.update_table(table.id, status="finished"))
        self._after(table)

    async def annotate(self, table: Table, note: dict[str, Any] | None = None) -> None:
        """Store the table's set-up and status as they now are (another protocol's notes:
        what went wrong at the table); observers get ``{"type": "note", "note", "view"}``."""
        self._changed(table)
        table.row.status = table.status
        await self.store.write(self.store.update_table(table.id, setup=table.row.setup, status=table.status))
        for obs in list(table.observers):
            self._send(table, obs, {"type": "note", "note": note, "view": self.view(table, obs.seat)})

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
            self.finished[table.id] = table
            self.finished.move_to_end(table.id)
            while len(self.finished) > FINISHED_CACHE:
                self.finished.popitem(last=False)
        else:
            self.tables[table.id] = table

    async def page(self, limit: int, before: tuple[float, str] | None) -> list[TableRow]:
        return await asyncio.to_thread(self.store.page, limit, before)

    # ------------------------------------------------------------------ views

    def view(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The reader's view now (``seat`` None: the public one). Built once per ply and
        reader: the dict is shared with the cache, a caller changes only its own copy."""
        return dict(self._view(table, seat)[0])

    def view_text(self, table: Table, seat: int | None) -> str:
        """The reader's view as JSON text (built once per ply and reader)."""
        return self._view(table, seat)[1]

    def _view(self, table: Table, seat: int | None) -> tuple[dict[str, Any], str]:
        match = table.match
        if table.views_ply != match.ply:
            table.views.clear()
            table.views_ply = match.ply
        cached = table.views.get(seat)
        if cached is None:
            out = self._build_view(table, seat)
            cached = table.views[seat] = (out, dumps(out))
            table.views_built += 1
        return cached

    def _build_view(self, table: Table, seat: int | None) -> dict[str, Any]:
        match = table.match
        inner = match.view(seat)
        seats = inner.pop("seats")
        for i, s in enumerate(seats):
            s["bot"] = table.bot(i)
        out = {"id": table.id, "game": table.row.game, "rules": table.row.rules,
               "options": table.row.setup.get("options", ""), "status": table.status, "ply": match.ply,
               "round": inner.pop("round"), "to_move": inner.pop("to_move"), "seats": seats}
        out.update(inner)
        if table.row.clock is not None and not table.finished:
            out["clock"] = {"move_seconds": table.row.clock, "deadline": table.last_at + table.row.clock}
        if seat is not None:
            out["seat"] = match.seats[seat]
        return out

    def _changed(self, table: Table) -> None:
        """The table changed without a move (a seat taken, a match read back): views anew."""
        table.views.clear()
        table.views_ply = -1

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
            self._changed(table)

    def summary(self, row: TableRow) -> dict[str, Any]:
        table = self.tables.get(row.id) or self.finished.get(row.id)
        status = table.status if table is not None else row.status
        return {"id": row.id, "game": row.game, "rules": row.rules, "seats": [s["name"] for s in row.seats],
                "status": status}

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
        self._after(table)
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
                self._changed(table)
            raise HubError(409, {"error": "another move was stored at this ply first", "ply": table.match.ply})
        match.commit(outcome)
        table.last_at = at
        if status is not None:
            table.row.status = status
        self._changed(table)
        if match.status() == "finished":
            table.row.status = "finished"
            # the listing's status (a restart recomputes it from the moves anyway)
            self.store.submit([("UPDATE live_tables SET status = ? WHERE id = ?", ("finished", table.id))])
        self._broadcast(table, outcome)

    def _broadcast(self, table: Table, outcome: Outcome) -> None:
        """One event per observer; each message's JSON is built once per reader (seat) and
        handed to every observer of that seat (:class:`Event` carries the text)."""
        if not table.observers:
            return
        match = table.match
        finished = table.finished
        end = None
        if finished:
            end = Event({"type": "end", "result": match.view(None)["result"]})
        head = {"type": "move", "ply": match.ply, "seat": match.seats[outcome.seat], "move": outcome.public or None}
        messages: dict[int | None, Event] = {}
        for obs in list(table.observers):
            message = messages.get(obs.seat)
            if message is None:
                view, text = self._view(table, obs.seat)
                body = dict(head)
                if outcome.seat == obs.seat and outcome.drawn is not None:
                    body["drawn"] = outcome.drawn
                prefix = dumps(body)
                message = messages[obs.seat] = Event(body, view=view, text=f'{prefix[:-1]},"view":{text}}}')
            self._send(table, obs, message)
            if end is not None:
                self._send(table, obs, end)

    @staticmethod
    def _send(table: Table, obs: Observer, message: dict) -> None:
        try:
            obs.queue.put_nowait(message)
        except asyncio.QueueFull:
            obs.dropped = True
            table.observers.discard(obs)

    def observe(self, table: Table, seat: int | None) -> Observer:
        obs = Observer(seat)
        table.observers.add(obs)
        return obs

    def unobserve(self, table: Table, obs: Observer) -> None:
        table.observers.discard(obs)

    # ------------------------------------------------------------------ bots, server moves, clocks

    def _after(self, table: Table) -> None:
        """After a move: the server's and the bots' moves, then the clock."""
        if self.closing:
            return
        if table.finished:
            if table.clock_task is not None:
                table.clock_task.cancel()
            self._keep(table)
            return
        match = table.match
        if match.server_move() is not None or any(table.bot(s) for s in match.movers()):
            asyncio.get_running_loop().create_task(self._drive(table))
            return
        self._arm_clock(table)

    async def _drive(self, table: Table) -> None:
        while not self.closing:
            async with table.lock:
                match = table.match
                if table.finished:
                    break
                outcome = match.server_move()
                if outcome is None:
                    bots = [s for s in match.movers() if table.bot(s)]
                    if not bots:
                        break
                    seat = bots[0]
                    seed = hash((table.row.setup.get("seed"), match.ply)) & 0xFFFFFFFF
                    outcome = match.bot_move(seat, table.bot(seat), seed)
                try:
                    await self._commit(table, outcome)
                except HubError:
                    await asyncio.sleep(random.random() * 0.05)
                    continue
            await asyncio.sleep(0)
        self._after_drive(table)

    def _after_drive(self, table: Table) -> None:
        if table.finished:
            self._after(table)
        else:
            self._arm_clock(table)

    def _arm_clock(self, table: Table) -> None:
        if table.clock_task is not None:
            table.clock_task.cancel()
            table.clock_task = None
        if table.row.clock is None or table.finished or self.closing:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, table.last_at + table.row.clock - now())
        ply = table.match.ply
        table.clock_task = loop.call_later(delay, lambda: loop.create_task(self._time_up(table, ply)))

    async def _time_up(self, table: Table, ply: int) -> None:
        async with table.lock:
            match = table.match
            if self.closing or table.finished or match.ply != ply:
                return
            movers = match.movers()
            if not movers:
                return
            try:
                await self._commit(table, match.timeout_move(movers[0]))
            except HubError:
                pass
        self._after(table)
