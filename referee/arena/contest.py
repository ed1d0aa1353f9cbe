"""A contest table in the arena: the contest protocol's own listener (the one ``pitboss
serve --uecda`` runs), opened on a free loopback port for one table, and five contest
clients started one after another, each once the one before has been given its player
number (so the schedule's seat order is the order of the player numbers, which the
contest's own draws then seat). The table is the contest part's: the same bytes, the same
log, the same judgement of every submission as a real contest server, with the listener's
guard against a client that stalls, disconnects or sends garbage (its turns then pass for
the rest of the table: the protocol has no way back in, so the client is started afresh
at its next table).

Think times are what the table sees: the time from one ply to the mover's next.
"""

from __future__ import annotations

import socket
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.arena.process import Program
from referee.arena.protocol import HELLO_SECONDS
from referee.arena.table import TableResult, TableSpec


def play_contest(spec: TableSpec) -> TableResult:
    from referee.service.uecda.server import ContestServer, Settings, contest_part

    part = contest_part()
    contest = spec.contest or {}
    t0 = time.perf_counter()
    names = [e.name for e in spec.entrants]
    try:
        config = part.load(options=contest.get("options", ""), games=spec.rounds, revision=contest.get("revision"))
    except ValueError as err:
        return TableResult(spec.number, names, [], "", "", error=str(err))
    watcher = _Watcher(part, len(names))
    with tempfile.TemporaryDirectory(prefix="pitboss-arena-") as tmp:
        settings = Settings(config, spec.seed % 2**31, spec.time_limit, Path(tmp), 1, part)
        server = ContestServer("127.0.0.1", 0, settings, observer=lambda table: watcher)
        port = server.start()
        programs: list[Program] = []
        late: list[int] = []
        try:
            for i, entrant in enumerate(spec.entrants):
                stderr = Path(spec.stderr_dir) / f"{entrant.name}.stderr" if spec.stderr_dir else None
                programs.append(Program(entrant.command("127.0.0.1", port), stderr, pipes=False))
                if not _seated(server, i + 1, HELLO_SECONDS + 3):
                    late.append(i)  # a stand-in connection that closes: the seat passes
                    with socket.create_connection(("127.0.0.1", port)):
                        pass
                    _seated(server, i + 1, HELLO_SECONDS + 3)
            limit = None if spec.game_limit is None else spec.game_limit * spec.rounds
            server.join(limit)
        finally:
            for program in programs:
                program.kill()
            server.stop()
        table = server.tables[0] if server.tables else None
        if table is None or table.log_path is None or not table.log_path.exists():
            return TableResult(spec.number, names, [], "", "", error="the contest table did not start")
        record = table.log_path.read_text(encoding="latin-1")
        incidents = [_incident(spec, names, i) for i in table.incidents]
        for i in late:
            incidents.append({"entrant": names[i], "table": spec.number, "seat": i, "round": None, "ply": 0,
                              "kind": "crash", "message": f"did not connect within {HELLO_SECONDS + 3:g} s",
                              "consequence": "its turns pass"})
        error = None if table.games_done == config.games else f"{table.games_done} of {config.games} games played"
    return TableResult(spec.number, names, watcher.events, record, ".log", watcher.plies, watcher.think, incidents,
                       time.perf_counter() - t0, error)


def _seated(server: Any, count: int, seconds: float) -> bool:
    """Wait until ``count`` clients have their player numbers (the fifth starts the table)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if len(server.waiting) >= count or server.tables:
            return True
        time.sleep(0.005)
    return False


def _incident(spec: TableSpec, names: list[str], incident: Any) -> dict[str, Any]:
    return {"entrant": names[incident.player], "table": spec.number, "seat": incident.player,
            "round": incident.game, "ply": incident.turn or 0, "kind": incident.kind, "message": incident.message,
            "consequence": "its turns pass" if incident.kind not in ("malformed", "extra-cells") else "a pass"}


class _Watcher:
    """The table's observer: each game's finishing order, the plies, the think times."""

    def __init__(self, part: Any, seats: int):
        self.events: list[list[int]] = []
        self.think: list[list[float]] = [[] for _ in range(seats)]
        self.plies = 0
        self.last = time.perf_counter()

    def started(self, table: Any) -> None:
        self.last = time.perf_counter()

    def step(self, table: Any, step: Any) -> None:
        now = time.perf_counter()
        self.plies += 1
        if step.kind == "turn" and step.rows is not None:
            self.think[step.seat].append(now - self.last)
        self.last = now
        if step.ended is not None:
            rank = {p: i for i, p in enumerate(step.ended.result)}
            self.events.append([rank[p] for p in range(len(self.think))])

    def incident(self, table: Any, incident: Any) -> None:
        pass

    def finished(self, table: Any) -> None:
        pass
