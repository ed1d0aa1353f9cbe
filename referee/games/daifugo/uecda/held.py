"""Single contest tables held on their own (the listener's :class:`~referee.jobs.listener.Holding`,
what ``pitboss arena`` seats UEC contest clients at): the listener's own server
(:class:`~referee.games.daifugo.uecda.server.ContestServer`) on a free loopback port for
one table, with the same bytes, log and judgement of every submission as a contest table
of ``pitboss serve --uecda``, and an observer that keeps each game's finishing order and
the time each seat took from one ply to its own next.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from referee.games.daifugo.uecda import contest
from referee.games.daifugo.uecda.contest.flow import Step
from referee.games.daifugo.uecda.contest.table import ContestTable, Incident, Observer
from referee.games.daifugo.uecda.server import ContestServer, Settings, check_starts
from referee.jobs.listener import Held, HeldIncident, HeldOutcome

#: Seats at one table.
SEATS = contest.PLAYERS
#: What the contest makes of a client that misbehaved: a submission it cannot read is a
#: pass; any other fault (a stall, a dropped connection) leaves its seat, whose turns pass.
_ONE_PASS = ("malformed", "extra-cells")


def _settings(options: str, games: int | None = None) -> Settings:
    return Settings(contest.load(options=options, games=games))


def check(options: str, starts: Sequence[Mapping[str, object]]) -> None:
    """ValueError when the toggles do not read or a deal is no contest deal."""
    settings = _settings(options)
    settings.starts = [dict(s) for s in starts]
    check_starts(settings)


class _Watcher(Observer):
    """Each game's finishing order, the plies, the think times."""

    def __init__(self) -> None:
        self.ranks: list[list[int]] = []
        self.think: list[list[float]] = [[] for _ in range(SEATS)]
        self.plies = 0
        self.last = time.perf_counter()

    def started(self, table: ContestTable) -> None:
        self.last = time.perf_counter()

    def step(self, table: ContestTable, step: Step) -> None:
        now = time.perf_counter()
        self.plies += 1
        if step.kind == "turn" and step.rows is not None:
            self.think[step.seat].append(now - self.last)
        self.last = now
        if step.ended is not None:
            rank = {p: i for i, p in enumerate(step.ended.result)}
            self.ranks.append([rank[p] for p in range(SEATS)])


class _Table:
    def __init__(self, table: Held):
        settings = _settings(table.options, table.games)
        settings.seed = table.seed % 2**31
        settings.timeout = table.timeout
        settings.log_dir = Path(table.folder)
        settings.max_tables = 1
        settings.starts = [dict(table.start)] if table.start else []
        self.watcher = _Watcher()
        self.server = ContestServer("127.0.0.1", 0, settings, observer=lambda _: self.watcher)
        self.port = self.server.start()

    def seated(self) -> int:
        return SEATS if self.server.tables else len(self.server.waiting)

    def join(self, seconds: float | None) -> None:
        self.server.join(seconds)

    def stop(self) -> None:
        self.server.stop()

    def outcome(self) -> HeldOutcome | None:
        table = self.server.tables[0] if self.server.tables else None
        if table is None or table.log_path is None or not table.log_path.exists():
            return None
        watcher = self.watcher
        return HeldOutcome(table.log_path.read_text(encoding="latin-1"), ".log", "latin-1", table.games_done,
                           watcher.ranks, watcher.plies, watcher.think, [_incident(i) for i in table.incidents])


def _incident(incident: Incident) -> HeldIncident:
    return HeldIncident(incident.player, incident.game, incident.turn or 0, incident.kind, incident.message,
                        "a pass" if incident.kind in _ONE_PASS else "its turns pass")


def hold(table: Held) -> _Table:
    """The table, listening on a free loopback port (ValueError for a bad deal or toggle,
    OSError when it cannot listen)."""
    return _Table(table)
