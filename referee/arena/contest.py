"""A table of a listener's protocol in the arena (Daifugo's UEC contest): the game's
:class:`~referee.jobs.listener.Listener` holds one table on its own (its
:class:`~referee.jobs.listener.Holding`: the listener ``pitboss serve --PROTOCOL`` runs,
on a free loopback port), and the table's clients
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

import socket
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.arena.process import Program
from referee.arena.protocol import HELLO_SECONDS
from referee.arena.table import TableResult, TableSpec
from referee.jobs import registry
from referee.jobs.listener import Held, HeldTable, Holding

#: Seconds a client has to take its seat before a silent stand-in takes it.
SEATING_SECONDS = HELLO_SECONDS + 3


def holding(game: str, protocol: str) -> Holding:
    """What holds the game's tables of ``protocol`` (LookupError when nothing does)."""
    for found in registry.game(game).listeners:
        held = found.holding() if found.name == protocol else None
        if held is not None:
            return held
    raise LookupError(f"{game} holds no tables of {protocol} on their own")


def seats(game: str, protocol: str) -> int:
    """Seats at one of the listener's tables."""
    return holding(game, protocol).SEATS


def check_starts(game: str, protocol: str, options: str, starts: list[dict[str, Any]]) -> None:
    """ValueError when the toggles do not read or a start position is none the listener's
    tables take."""
    holding(game, protocol).check(options, starts)


def play_contest(spec: TableSpec) -> TableResult:
    assert spec.protocol is not None
    names = [e.name for e in spec.entrants]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pitboss-arena-") as tmp:
        try:
            table = holding(spec.game, spec.protocol).hold(
                Held(spec.rounds, spec.seed, spec.time_limit, spec.options, spec.start, tmp))
        except (ValueError, OSError) as err:
            return TableResult(spec.number, names, [], "", "", error=str(err))
        late = _seat_clients(spec, table)
        outcome = table.outcome()
    if outcome is None:
        return TableResult(spec.number, names, [], "", "", error="the table did not start")
    incidents = [{"entrant": names[i.seat], "table": spec.number, "seat": i.seat, "round": i.game, "ply": i.ply,
                  "kind": i.kind, "message": i.message, "consequence": i.consequence}
                 for i in outcome.incidents if i.seat not in late]
    for i in late:
        incidents.append({"entrant": names[i], "table": spec.number, "seat": i, "round": None, "ply": 0,
                          "kind": "crash", "message": f"did not connect within {SEATING_SECONDS:g} s",
                          "consequence": "its turns pass"})
    played = outcome.games_played
    error = None if played == spec.rounds else f"{played} of {spec.rounds} games played"
    result = TableResult(spec.number, names, outcome.ranks, outcome.record, outcome.extension, outcome.plies,
                         outcome.think, incidents, time.perf_counter() - t0, error)
    return result


def _seat_clients(spec: TableSpec, table: HeldTable) -> set[int]:
    """Start the clients in seat order and play the table out; the seats a client never
    took (a silent stand-in sat there, and left once the table started: its turns pass)."""
    programs: list[Program] = []
    late: dict[int, socket.socket] = {}
    try:
        for i, entrant in enumerate(spec.entrants):
            stderr = Path(spec.stderr_dir) / f"{entrant.name}.stderr" if spec.stderr_dir else None
            programs.append(Program(entrant.command("127.0.0.1", table.port), stderr, pipes=False))
            if not _seated(table, i + 1, SEATING_SECONDS):
                late[i] = socket.create_connection(("127.0.0.1", table.port))
                _seated(table, i + 1, SEATING_SECONDS)
        for stand_in in late.values():
            stand_in.close()
        table.join(None if spec.game_limit is None else spec.game_limit * spec.rounds)
    finally:
        for program in programs:
            program.kill()
        for stand_in in late.values():
            stand_in.close()
        table.stop()
    return set(late)


def _seated(table: HeldTable, count: int, seconds: float) -> bool:
    """Wait until ``count`` clients have their seats (the last one starts the table)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if table.seated() >= count:
            return True
        time.sleep(0.005)
    return False
