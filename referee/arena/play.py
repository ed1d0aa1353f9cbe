"""Where a table is played: a table of a listener's protocol through that listener
(``contest``), any other on the game's live match (``table``). What a worker process or a
Dask task runs."""

from __future__ import annotations

from referee.arena.contest import play_contest
from referee.arena.table import CpuClock, Table, TableResult, TableSpec
from referee.jobs.live import LiveError


def play_table(spec: TableSpec) -> TableResult:
    """Play one table (in whatever process runs it), with the CPU time it took, set-up
    included. A table that cannot even be set up (a bad position) comes back with its
    ``error`` and no games."""
    clock = CpuClock()
    result = _play(spec)
    result.cpu, result.processes_cpu = clock.read()
    return result


def _play(spec: TableSpec) -> TableResult:
    if spec.protocol is not None:
        return play_contest(spec)
    try:
        table = Table(spec)
    except (LiveError, ValueError) as err:
        message = err.message if isinstance(err, LiveError) else str(err)
        return TableResult(spec.number, [e.name for e in spec.entrants], [], "", "", error=message)
    return table.play()
