"""The contest tables in the HTTP service: each table of five TCP connections becomes a
table of the service like any other (through what the service lends a listener,
:class:`referee.jobs.listener.ListenerHost`), listed, watched live over its WebSocket,
its record the contest's log, stored in the same database.

The protocol's table plays in its own thread and must never wait for the service (its
clients expect the contest server's timing), so what it does goes one way: its
:class:`Feed` (the table's observer) hands each thing to the event loop
without blocking (a queue, and one ``call_soon_threadsafe`` for all that gathered), and
one task per table, :meth:`Bridge.follow`,
adopts the table into the hub, commits its plies in batches (one database commit for all
the plies waiting), stores its misbehaviour reports and marks its end.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from referee.games.daifugo.uecda.contest import live
from referee.games.daifugo.uecda.contest.flow import Step
from referee.games.daifugo.uecda.contest.table import ContestTable, Incident
from referee.jobs.listener import HostedTable, ListenerHost
from referee.jobs.live import Outcome

#: Plies committed together at most (one database commit, then one event each).
BATCH = 500
#: How long the service lets a table's plies gather before it takes them (seconds): a
#: spectator sees them this much later, and the table's thread is woken less.
GATHER = 0.01

#: The service's table, as the service lends it.
Table = TypeVar("Table", bound=HostedTable)


class Feed:
    """The observer of one protocol table (called from the table's thread): what it is
    told waits in a queue; the service is woken once for all that gathered."""

    def __init__(self, bridge: Bridge[Any], table: ContestTable):
        self.bridge = bridge
        self.items: collections.deque[tuple[Any, ...]] = collections.deque()
        self.woken = True  # until the follower starts, which takes whatever is there
        self.ready = asyncio.Event()
        #: Set when nobody follows any more (the service stopped, or failed to take the
        #: table): the table plays on, its log is written, nothing more is kept here.
        self.closed = False
        try:
            bridge.loop.call_soon_threadsafe(bridge.spawn, self)
        except RuntimeError:  # the service has stopped
            self.closed = True

    def _put(self, item: tuple[Any, ...]) -> None:
        if self.closed:
            return
        self.items.append(item)
        if not self.woken:
            self.woken = True
            try:
                self.bridge.loop.call_soon_threadsafe(self.ready.set)
            except RuntimeError:  # the service has stopped: the table plays on, its log is written
                pass

    async def take(self) -> list[tuple[Any, ...]]:
        """What gathered since the last call (waiting for something to come)."""
        while True:
            self.woken = False
            if self.items:
                break
            await self.ready.wait()
            self.ready.clear()
            await asyncio.sleep(GATHER)
        out = []
        while self.items:
            out.append(self.items.popleft())
        return out

    def started(self, table: ContestTable) -> None:
        self._put(("start", live.setup_of(table)))

    def step(self, table: ContestTable, step: Step) -> None:
        self._put(("step", step, table.ended if step.last else None))

    def incident(self, table: ContestTable, incident: Incident) -> None:
        self._put(("report", live.report_of(incident), table.seats[incident.player].dropped))

    def finished(self, table: ContestTable) -> None:
        self._put(("finished",))


class Bridge(Generic[Table]):
    """The tables of one listener, as tables of game ``game`` of the service's ``hub``."""

    def __init__(self, hub: ListenerHost[Table], game: str, loop: asyncio.AbstractEventLoop,
                 say: Callable[[str], None] = print):
        self.hub, self.game, self.loop, self.say = hub, game, loop, say
        self.tasks: set[asyncio.Task[None]] = set()
        #: The hub's tables being fed, for the stop.
        self.following: dict[str, Table] = {}

    def feed(self, table: ContestTable) -> Feed:
        """The observer for a protocol table about to start (called from the listener's thread)."""
        return Feed(self, table)

    def spawn(self, feed: Feed) -> None:
        task = self.loop.create_task(self.follow(feed))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def follow(self, feed: Feed) -> None:
        table: Table | None = None
        match: live.ContestMatch | None = None
        try:
            while True:
                items = await feed.take()
                plies: list[Outcome] = []
                for item in items:
                    kind = item[0]
                    if kind == "step":
                        assert match is not None
                        plies.append(match.outcome(item[1], item[2]))
                        if len(plies) >= BATCH:
                            assert table is not None
                            await self.hub.record(table, plies)
                            plies = []
                        continue
                    if plies:
                        assert table is not None
                        await self.hub.record(table, plies)
                        plies = []
                    if kind == "start":
                        setup = item[1]
                        match = live.open(setup, attached=True)
                        table = await self.hub.adopt(self.game, setup, list(setup["names"]), match)
                        self.following[table.id] = table
                    elif kind == "report":
                        assert table is not None
                        report, dropped = item[1], item[2]
                        # the set-up is the one live.setup_of made: its reports and players are lists
                        stored = cast(dict[str, Any], table.row.setup)
                        stored["reports"].append(report)
                        stored["players"][report["player"]]["dropped"] = dropped
                        await self.hub.annotate(table, {"report": report})
                    elif kind == "finished":
                        assert table is not None and match is not None
                        match.detach()
                        self.following.pop(table.id, None)
                        await self.hub.annotate(table, {"finished": match.status()})
                        return
                if plies:
                    assert table is not None
                    await self.hub.record(table, plies)
        except Exception as err:  # the service could not take the table (its database failed)
            self.say(f"contest protocol: table {table.id if table is not None else '(new)'} is no longer "
                     f"followed by the service: {type(err).__name__}: {err}")
        finally:
            feed.closed = True
            feed.items.clear()
            if match is not None:
                match.detach()
            if table is not None:
                self.following.pop(table.id, None)

    async def stop(self) -> None:
        """The service is stopping: the tables still playing are cut short here (a restart
        shows them interrupted)."""
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
