"""What each reader of a table sees: its view (built once per ply and reader, kept with
the table) and the events sent to its observers after each move.

A view is the public one (``seat`` None) or a seat's (its hand and legal moves too); the
game's live match says what each may see, this module only adds the table's own fields
and caches the result with its JSON text, which every request and event of the same
reader at the same ply shares.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from referee.jobs.live import Outcome
from referee.service.table import Table

#: JSON as the hot answers write it: compact, no NaN, and non-ASCII as ``\uXXXX`` escapes
#: (the same JSON to any reader, and the C encoder writes ASCII faster).
dumps = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode


@dataclass(eq=False)
class Observer:
    seat: int | None
    #: The messages for this reader: an :class:`Event` (its JSON built once for every
    #: reader of the same seat), or a message of its own (a note with its view).
    queue: asyncio.Queue[Event | dict[str, object]] = field(default_factory=lambda: asyncio.Queue(maxsize=2000))
    #: Set when the observer fell too far behind: it must reconnect (and gets a fresh view).
    dropped: bool = False


class Event(dict):
    """An event for observers: the message (a dict) and its JSON ``text``, built once and
    sent as is to every observer of the same reader."""

    def __init__(self, message: dict[str, Any], view: dict[str, Any] | None = None, text: str | None = None):
        super().__init__(message)
        if view is not None:
            self["view"] = view
        self.text = text if text is not None else dumps(self)


def view(table: Table, seat: int | None) -> dict[str, Any]:
    """The reader's view now (``seat`` None: the public one). Built once per ply and
    reader: the dict is shared with the cache, a caller changes only its own copy."""
    return dict(cached(table, seat)[0])


def view_text(table: Table, seat: int | None) -> str:
    """The reader's view as JSON text (built once per ply and reader)."""
    return cached(table, seat)[1]


def cached(table: Table, seat: int | None) -> tuple[dict[str, Any], str]:
    """The reader's view and its JSON text, from the table's cache (built on a miss)."""
    match = table.match
    if table.views_ply != match.ply:
        table.views.clear()
        table.views_ply = match.ply
    found = table.views.get(seat)
    if found is None:
        out = _build(table, seat)
        found = table.views[seat] = (out, dumps(out))
        table.views_built += 1
    return found


def _build(table: Table, seat: int | None) -> dict[str, Any]:
    match = table.match
    inner = match.view(seat)
    seats = inner.pop("seats")
    if not isinstance(seats, list):
        raise TypeError(f"the live view of {table.row.game} lists no seats")
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


def changed(table: Table) -> None:
    """The table changed without a move (a seat taken, a match read back): views anew."""
    table.views.clear()
    table.views_ply = -1


def observe(table: Table, seat: int | None) -> Observer:
    obs = Observer(seat)
    table.observers.add(obs)
    return obs


def unobserve(table: Table, obs: Observer) -> None:
    table.observers.discard(obs)


def broadcast(table: Table, outcome: Outcome) -> None:
    """One event per observer; each message's JSON is built once per reader (seat) and
    handed to every observer of that seat (:class:`Event` carries the text)."""
    if not table.observers:
        return
    match = table.match
    end = Event({"type": "end", "result": match.view(None)["result"]}) if table.finished else None
    head = {"type": "move", "ply": match.ply, "seat": match.seats[outcome.seat], "move": outcome.public or None}
    messages: dict[int | None, Event] = {}
    for obs in list(table.observers):
        message = messages.get(obs.seat)
        if message is None:
            seen, text = cached(table, obs.seat)
            body = dict(head)
            if outcome.seat == obs.seat and outcome.drawn is not None:
                body["drawn"] = outcome.drawn
            prefix = dumps(body)
            message = messages[obs.seat] = Event(body, view=seen, text=f'{prefix[:-1]},"view":{text}}}')
        send(table, obs, message)
        if end is not None:
            send(table, obs, end)


def note(table: Table, what: dict[str, Any] | None) -> None:
    """Tell every observer of a note about the table (another protocol's: what went wrong
    at it), with the reader's view as it now is."""
    for obs in list(table.observers):
        send(table, obs, {"type": "note", "note": what, "view": view(table, obs.seat)})


def send(table: Table, obs: Observer, message: Event | dict[str, object]) -> None:
    try:
        obs.queue.put_nowait(message)
    except asyncio.QueueFull:
        obs.dropped = True
        table.observers.discard(obs)
