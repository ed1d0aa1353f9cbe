"""One live table in a running service: its stored row, the game's live match, and what
the service keeps beside them (its lock, observers, clock, cached views)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any

from referee.jobs.game import Live
from referee.jobs.live import Match
from referee.service.store import TableRow


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Table:
    row: TableRow
    #: The game's live table, which judges every move.
    match: Match
    #: The game's live part, which opened it (and opens it again after a restart).
    live: Live
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
    #: By seat, the ply of the last move that changed what the seat may do (a ply a
    #: client sends is stale only if its seat's options changed since: ``changes.py``).
    changed_at: dict[int, int] = field(default_factory=dict)
    #: Set while moves applied here wait for their commit: readers wait for it to clear.
    pending: asyncio.Event | None = None
    #: Set when a write failed and what is here may differ from the database: the table
    #: is read back from it before anyone uses it again.
    stale: bool = False
    #: Set while a task plays the table's bots (one at a time).
    driving: bool = False

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
