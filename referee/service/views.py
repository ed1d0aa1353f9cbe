"""What each reader of a table sees: its view (built once per ply and reader, kept with
the table) and the events sent to its observers after each move.

A view is the public one (``seat`` None) or a seat's (its hand and legal moves too); the
game's live match says what each may see, this module only adds the table's own fields
and caches the result with its JSON text, which every request and event of the same
reader at the same ply shares.

A move event carries the reader's view without the history of moves (``moves``, which
grows with every ply): the event's ``move`` is the history's new entry. Each observer's
events wait in a :class:`Backlog` bounded in bytes; an observer past it is dropped.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.jobs.live import Outcome, table_view
from referee.service.table import Table

#: JSON as the hot answers write it: compact, no NaN, and non-ASCII as ``\uXXXX`` escapes
#: (the same JSON to any reader, and the C encoder writes ASCII faster).
dumps = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode

#: What one reader's events not yet sent may hold, in bytes of JSON, by default.
EVENT_BACKLOG = 1024 * 1024
#: Seconds a reader's socket may take nothing while a message waits for it, by default.
SEND_TIMEOUT = 30.0


@dataclass
class Readers:
    """The event readers' limits, and what became of the readers dropped for falling
    behind (``/healthz`` shows it)."""

    #: Bytes of JSON a reader's events not yet sent may hold.
    backlog: int = EVENT_BACKLOG
    #: Seconds its socket may take nothing while a message waits.
    timeout: float = SEND_TIMEOUT
    #: Readers dropped, and those of them cut off (they did not take the close either).
    dropped: int = 0
    cut: int = 0


class Event(Mapping[str, Any]):
    """An event for observers, kept as its JSON ``text`` only (built once and sent as is
    to every observer of the same reader: what waits in a backlog is what it counts).
    Read as a mapping, it is that text parsed."""

    __slots__ = ("text",)

    def __init__(self, message: dict[str, Any], view_text: str | None = None):
        text = dumps(message)
        self.text = text if view_text is None else f'{text[:-1]},"view":{view_text}}}'

    def _doc(self) -> dict[str, Any]:
        return json.loads(self.text)

    def __getitem__(self, key: str) -> Any:
        return self._doc()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._doc())

    def __len__(self) -> int:
        return len(self._doc())


class Backlog:
    """An observer's events not yet sent, oldest first, bounded by the bytes of their
    JSON text (``limit``). An event that would take it past its limit is not taken: the
    backlog empties and stays ``overflowed`` (its reader is too far behind)."""

    def __init__(self, limit: int = EVENT_BACKLOG):
        self.limit = limit
        self.nbytes = 0
        self.overflowed = False
        self._items: deque[Event] = deque()
        self._ready = asyncio.Event()

    def put_nowait(self, event: Event) -> bool:
        """Take ``event``; False when the backlog is (or now is) overflowed."""
        if self.overflowed:
            return False
        size = len(event.text)
        if self.nbytes + size > self.limit:
            self.overflowed = True
            self._items.clear()
            self.nbytes = 0
            self._ready.set()
            return False
        self._items.append(event)
        self.nbytes += size
        self._ready.set()
        return True

    def get_nowait(self) -> Event:
        """The oldest event (``asyncio.QueueEmpty`` when there is none)."""
        if not self._items:
            raise asyncio.QueueEmpty
        event = self._items.popleft()
        self.nbytes -= len(event.text)
        return event

    def empty(self) -> bool:
        return not self._items

    def __len__(self) -> int:
        return len(self._items)

    async def wait(self) -> None:
        """Until there is an event to take, or the backlog overflowed."""
        while not self._items and not self.overflowed:
            self._ready.clear()
            await self._ready.wait()


@dataclass(eq=False)
class Observer:
    seat: int | None
    queue: Backlog = field(default_factory=Backlog)
    #: Called once when the observer is dropped (its backlog overflowed): its connection
    #: hangs up at once, even while it waits for its socket.
    on_drop: Callable[[], None] | None = None

    @property
    def dropped(self) -> bool:
        """Fell too far behind: it must reconnect (and gets a fresh view)."""
        return self.queue.overflowed


class _Cached:
    """A reader's view at one ply: the dict, and (made when first asked) its JSON text and
    the JSON of the view as move events carry it (without ``moves``)."""

    __slots__ = ("view", "_text", "_event")

    def __init__(self, view: dict[str, Any]):
        self.view = view
        self._text: str | None = None
        self._event: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = dumps(self.view)
        return self._text

    def event(self) -> str:
        if self._event is None:
            self._event = dumps({k: v for k, v in self.view.items() if k != "moves"})
        return self._event


def view(table: Table, seat: int | None) -> dict[str, Any]:
    """The reader's view now (``seat`` None: the public one). Built once per ply and
    reader: the dict is shared with the cache, a caller changes only its own copy."""
    return dict(cached(table, seat).view)


def view_text(table: Table, seat: int | None) -> str:
    """The reader's view as JSON text (built once per ply and reader)."""
    return cached(table, seat).text


def cached(table: Table, seat: int | None) -> _Cached:
    """The reader's view (and its texts) from the table's cache (built on a miss)."""
    match = table.match
    if table.views_ply != match.ply:
        table.views.clear()
        table.views_ply = match.ply
    found = table.views.get(seat)
    if found is None:
        found = table.views[seat] = _Cached(_build(table, seat))
        table.views_built += 1
    return found


def _build(table: Table, seat: int | None) -> dict[str, Any]:
    clock = None
    if table.row.clock is not None and not table.finished:
        clock = {"move_seconds": table.row.clock, "deadline": table.last_at + table.row.clock}
    return table_view(table.match, seat, table_id=table.id, game=table.row.game, rules=table.row.rules,
                      options=table.row.setup.get("options", ""), status=table.status,
                      bots=[table.bot(i) for i in range(len(table.row.seats))], clock=clock)


def changed(table: Table) -> None:
    """The table changed without a move (a seat taken, a match read back): views anew."""
    table.views.clear()
    table.views_ply = -1


def readers_now(tables: Iterable[Table], readers: Readers) -> dict[str, int]:
    """The event readers of ``tables`` now: how many, the bytes of events waiting for
    them, and how many were dropped (and of those, cut off) since the start."""
    observers = [obs for table in tables for obs in table.observers]
    return {"open": len(observers), "backlog_bytes": sum(obs.queue.nbytes for obs in observers),
            "dropped": readers.dropped, "cut": readers.cut}


def observe(table: Table, seat: int | None, backlog: int = EVENT_BACKLOG) -> Observer:
    """A new observer of ``table`` as ``seat`` sees it, its events bounded by ``backlog``
    bytes of JSON."""
    obs = Observer(seat, Backlog(backlog))
    table.observers.add(obs)
    return obs


def unobserve(table: Table, obs: Observer) -> None:
    table.observers.discard(obs)


def broadcast(table: Table, outcome: Outcome) -> None:
    """One event per observer; each message's JSON is built once per reader (seat) and
    handed to every observer of that seat (:class:`Event` carries the text). Its view is
    the reader's without ``moves``: the event's ``move`` is the new entry (None when the
    move adds none, as a forfeit on time)."""
    if not table.observers:
        return
    match = table.match
    end = Event({"type": "end", "result": match.view(None)["result"]}) if table.finished else None
    head = {"type": "move", "ply": match.ply, "seat": match.seats[outcome.seat], "move": outcome.public or None}
    messages: dict[int | None, Event] = {}
    for obs in list(table.observers):
        message = messages.get(obs.seat)
        if message is None:
            body = dict(head)
            if outcome.seat == obs.seat and outcome.drawn is not None:
                body["drawn"] = outcome.drawn
            message = messages[obs.seat] = Event(body, cached(table, obs.seat).event())
        send(table, obs, message)
        if end is not None:
            send(table, obs, end)


def note(table: Table, what: dict[str, Any] | None) -> None:
    """Tell every observer of a note about the table (another protocol's: what went wrong
    at it), with the reader's whole view as it now is."""
    messages: dict[int | None, Event] = {}
    for obs in list(table.observers):
        message = messages.get(obs.seat)
        if message is None:
            message = messages[obs.seat] = Event({"type": "note", "note": what}, view_text(table, obs.seat))
        send(table, obs, message)


def send(table: Table, obs: Observer, message: Event) -> None:
    """Queue ``message`` for ``obs``; an observer whose backlog overflows is dropped."""
    if not obs.queue.put_nowait(message):
        table.observers.discard(obs)
        if obs.on_drop is not None:
            drop, obs.on_drop = obs.on_drop, None
            drop()
