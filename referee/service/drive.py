"""What moves a table when no client does: the bots, and the clock (a seat out of time
passes or forfeits). The moves the rules make themselves (a gift the rules fix) are made
with the move that sets them off (``TableHub._play``); a table read back from a database
where one is still owed gets it here.

A :class:`Driver` is told after each move (:meth:`Driver.after`); it plays the bots'
moves through the hub, one at a time under the table's lock, then arms the table's clock
for whoever is to move. While the database cannot take a move it tries again with
back-off, and carries on by itself once it can: no error ends a table's bots or clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from referee.jobs.live import Outcome
from referee.service.errors import HubError
from referee.service.store import now
from referee.service.table import Table
from referee.service.writer import Backoff

log = logging.getLogger("pitboss.service")

#: How the driver plays a move: the hub's (committed, then told to the observers).
Play = Callable[[Table, Outcome], Awaitable[None]]
#: The hub's read-back of a table a failed write left unsure (called with its lock held).
Fresh = Callable[[Table], Awaitable[None]]
#: Seconds a clock whose move could not be committed waits before it tries again.
CLOCK_RETRY = 1.0


class Driver:
    def __init__(self, play: Play, fresh: Fresh, keep: Callable[[Table], None]):
        self._play = play
        self._fresh = fresh
        #: Called when a table has finished (the hub moves it to its finished tables).
        self._keep = keep
        self.closing = False

    def close(self, tables: list[Table]) -> None:
        self.closing = True
        for table in tables:
            if table.clock_task is not None:
                table.clock_task.cancel()

    def after(self, table: Table) -> None:
        """After a move: the bots' moves (and any the rules still owe), then the clock."""
        if self.closing:
            return
        if table.finished:
            if table.clock_task is not None:
                table.clock_task.cancel()
            self._keep(table)
            return
        if table.driving:
            return  # the table's driver is playing: it sees this move on its next turn
        match = table.match
        if match.server_move() is not None or any(table.bot(s) for s in match.movers()):
            table.driving = True
            asyncio.get_running_loop().create_task(self._drive(table))
            return
        self.arm_clock(table)

    async def _drive(self, table: Table) -> None:
        backoff = Backoff(first=0.05, most=1.0)
        try:
            while not self.closing:
                async with table.lock:
                    try:
                        if not await self._turn(table):
                            break
                        backoff.reset()
                    except HubError as err:  # 503 while the database is away; 409 another server's move
                        backoff.failed()
                        if err.status != 409:
                            log.warning("table %s: its bots wait for the database: %s", table.id, err)
                    except Exception:  # a fault of its own must not end the table's bots for good
                        backoff.failed()
                        log.exception("table %s: a bot's move failed", table.id)
                await asyncio.sleep(backoff.wait())
        finally:
            table.driving = False
        if table.finished:
            self.after(table)
        else:
            self.arm_clock(table)

    async def _turn(self, table: Table) -> bool:
        """Play one move the rules owe or one bot's move (False: there is none to play)."""
        await self._fresh(table)
        match = table.match
        if table.finished:
            return False
        outcome = match.server_move()
        if outcome is None:
            bots = [s for s in match.movers() if table.bot(s)]
            if not bots:
                return False
            seat = bots[0]
            style = table.bot(seat) or ""
            seed = hash((table.row.setup.get("seed"), match.ply)) & 0xFFFFFFFF
            outcome = match.bot_move(seat, style, seed)
        await self._play(table, outcome)
        return True

    def arm_clock(self, table: Table, delay: float | None = None) -> None:
        if table.clock_task is not None:
            table.clock_task.cancel()
            table.clock_task = None
        if table.row.clock is None or table.finished or self.closing:
            return
        loop = asyncio.get_running_loop()
        if delay is None:
            delay = max(0.0, table.last_at + table.row.clock - now())
        # a table a failed write left unsure is read back first: its clock runs for whatever ply it is then
        ply = None if table.stale else table.match.ply
        table.clock_task = loop.call_later(delay, lambda: loop.create_task(self.time_up(table, ply)))

    async def time_up(self, table: Table, ply: int | None) -> None:
        """``table``'s clock ran out at ``ply`` (None: at whatever ply it is): the seat to
        move passes or forfeits (tried again a moment later while the database cannot take it)."""
        async with table.lock:
            try:
                await self._fresh(table)
                match = table.match
                if self.closing or table.finished or (ply is not None and match.ply != ply):
                    return  # a move since then armed the clock for the seat it left to move
                if ply is None and table.row.clock is not None and table.last_at + table.row.clock > now():
                    self.arm_clock(table)
                    return
                movers = match.movers()
                if not movers:
                    return
                await self._play(table, match.timeout_move(movers[0]))
            except HubError as err:
                if err.status != 409:
                    log.warning("table %s: its clock waits for the database: %s", table.id, err)
                self.arm_clock(table, CLOCK_RETRY)
                return
            except Exception:  # a fault of its own must not stop the table's clock for good
                log.exception("table %s: a move on time failed", table.id)
                self.arm_clock(table, CLOCK_RETRY)
                return
        self.after(table)
