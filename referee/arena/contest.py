"""A table of a listener's protocol in the arena (Daifugo's UEC contest): the listener
``pitboss serve --PROTOCOL`` runs (the game's :class:`~referee.jobs.listener.Listener`,
its server module), opened on a free loopback port for one table, and the table's clients
started one after another, each once the one before has been given its player number (so
the schedule's seat order is the order of the player numbers, which the protocol's own
draws then seat). The table is the listener's: the same bytes, the same log, the same
judgement of every submission as a real contest server, with the listener's guard against
a client that stalls, disconnects or sends garbage (its turns then pass for the rest of the
table: the protocol has no way back in, so the client is started afresh at its next
table). A start position goes to the listener as its positions option would (the table's
first game is dealt it).

Think times are what the table sees: the time from one ply to the mover's next.
"""

from __future__ import annotations

import importlib
import socket
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, cast

from referee.arena.process import Program
from referee.arena.protocol import HELLO_SECONDS
from referee.arena.table import TableResult, TableSpec
from referee.jobs import registry
from referee.jobs.listener import Listener, OptionValue


class ServerModule(Protocol):
    """What the arena drives of a listener's server module (the one its ``serve`` runs):
    its settings from the listener's options, its server, the seats of its tables."""

    PLAYERS: int

    def settings_from(self, options: Mapping[str, OptionValue]) -> Any: ...

    def check_starts(self, settings: Any) -> None: ...

    @property
    def ContestServer(self) -> Callable[..., Any]: ...  # noqa: N802 - the module's class


def listener(game: str, protocol: str) -> Listener:
    """The game's listener for ``protocol`` (LookupError when it has none)."""
    for found in registry.game(game).listeners:
        if found.name == protocol:
            return found
    raise LookupError(f"{game} has no listener {protocol}")


def server_of(found: Listener) -> ServerModule:
    return cast(ServerModule, importlib.import_module(found.server))


def seats(game: str, protocol: str) -> int:
    """Seats at one of the listener's tables."""
    return server_of(listener(game, protocol)).PLAYERS


def options_of(found: Listener, spec: TableSpec, folder: str) -> dict[str, OptionValue]:
    """The listener's options for one table of ``spec`` (its logs in ``folder``)."""
    key = found.key
    options: dict[str, OptionValue] = {f"{key}_games": spec.rounds, f"{key}_seed": spec.seed % 2**31,
                                       f"{key}_timeout": spec.time_limit, f"{key}_logs": folder, f"{key}_tables": 1}
    if spec.options:
        options[f"{key}_options"] = spec.options
    return options


def check_starts(game: str, protocol: str, options: str, starts: list[dict[str, Any]]) -> None:
    """ValueError when a start position is none the listener's tables take."""
    found = listener(game, protocol)
    server_module = server_of(found)
    settings = server_module.settings_from({f"{found.key}_options": options} if options else {})
    settings.starts = starts
    server_module.check_starts(settings)


def play_contest(spec: TableSpec) -> TableResult:
    assert spec.protocol is not None
    names = [e.name for e in spec.entrants]
    t0 = time.perf_counter()
    found = listener(spec.game, spec.protocol)
    server_module = server_of(found)
    watcher = _Watcher(len(names))
    with tempfile.TemporaryDirectory(prefix="pitboss-arena-") as tmp:
        try:
            settings = server_module.settings_from(options_of(found, spec, tmp))
            settings.starts = [spec.start] if spec.start else []
            server = server_module.ContestServer("127.0.0.1", 0, settings, observer=lambda table: watcher)
            port = server.start()
        except (ValueError, OSError) as err:
            return TableResult(spec.number, names, [], "", "", error=str(err))
        programs: list[Program] = []
        late: dict[int, socket.socket] = {}
        try:
            for i, entrant in enumerate(spec.entrants):
                stderr = Path(spec.stderr_dir) / f"{entrant.name}.stderr" if spec.stderr_dir else None
                programs.append(Program(entrant.command("127.0.0.1", port), stderr, pipes=False))
                if not _seated(server, i + 1, HELLO_SECONDS + 3):
                    # a silent stand-in takes the seat (as a client that sends no profile),
                    # and leaves once the table starts: the seat's turns pass
                    late[i] = socket.create_connection(("127.0.0.1", port))
                    _seated(server, i + 1, HELLO_SECONDS + 3)
            for stand_in in late.values():
                stand_in.close()
            limit = None if spec.game_limit is None else spec.game_limit * spec.rounds
            server.join(limit)
        finally:
            for program in programs:
                program.kill()
            for stand_in in late.values():
                stand_in.close()
            server.stop()
        table = server.tables[0] if server.tables else None
        if table is None or table.log_path is None or not table.log_path.exists():
            return TableResult(spec.number, names, [], "", "", error="the table did not start")
        record = table.log_path.read_text(encoding="latin-1")
        incidents = [_incident(spec, names, i) for i in table.incidents if i.player not in late]
        for i in late:
            incidents.append({"entrant": names[i], "table": spec.number, "seat": i, "round": None, "ply": 0,
                              "kind": "crash", "message": f"did not connect within {HELLO_SECONDS + 3:g} s",
                              "consequence": "its turns pass"})
        error = None if table.games_done == spec.rounds else f"{table.games_done} of {spec.rounds} games played"
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

    def __init__(self, seats: int):
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
