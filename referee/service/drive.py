"""What moves a table when no client does: the moves the rules make themselves (a gift
the rules fix), the bots' moves, and the clock (a seat out of time passes or forfeits).

A :class:`Driver` is told after each move (:meth:`Driver.after`); it plays the server's
and the bots' moves through the hub's commit, one at a time under the table's lock, then
arms the table's clock for whoever is to move.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from referee.jobs.live import Outcome
from referee.service.errors import HubError
from referee.service.store import now
from referee.service.table import Table

#: How the driver plays a move: the hub's commit (stored, then applied and broadcast).
Commit = Callable[[Table, Outcome], Awaitable[None]]


class Driver:
    def __init__(self, commit: Commit, keep: Callable[[Table], None]):
        self._commit = commit
        #: Called when a table has finished (the hub moves it to its finished tables).
        self._keep = keep
        self.closing = False

    def close(self, tables: list[Table]) -> None:
        self.closing = True
        for table in tables:
            if table.clock_task is not None:
                table.clock_task.cancel()

    def after(self, table: Table) -> None:
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
        self.arm_clock(table)

    async def _drive(self, table: Table) -> None:
        while not self.closing:
            async with table.lock:
                match = table.match
                if table.finished:
                    break
                outcome = match.server_move()
                if outcome is None:
                    bots = [(s, style) for s in match.movers() if (style := table.bot(s))]
                    if not bots:
                        break
                    seat, style = bots[0]
                    seed = hash((table.row.setup.get("seed"), match.ply)) & 0xFFFFFFFF
                    outcome = match.bot_move(seat, style, seed)
                try:
                    await self._commit(table, outcome)
                except HubError:
                    await asyncio.sleep(random.random() * 0.05)
                    continue
            await asyncio.sleep(0)
        if table.finished:
            self.after(table)
        else:
            self.arm_clock(table)

    def arm_clock(self, table: Table) -> None:
        if table.clock_task is not None:
            table.clock_task.cancel()
            table.clock_task = None
        if table.row.clock is None or table.finished or self.closing:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, table.last_at + table.row.clock - now())
        ply = table.match.ply
        table.clock_task = loop.call_later(delay, lambda: loop.create_task(self.time_up(table, ply)))

    async def time_up(self, table: Table, ply: int) -> None:
        """``table``'s clock ran out at ``ply``: the seat to move passes or forfeits."""
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
        self.after(table)
