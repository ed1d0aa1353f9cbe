"""``pitboss arena``: set up, run (or resume) and report a tournament.

:func:`run` is the Python entry point the command calls: it checks the field against the
game, writes ``DIR/arena.json``, plays every table not yet in the journal (on every core,
or on Dask), and writes the standings (``standings.json``), the report (``report.html``
and each game's replay page) and returns the standings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.arena import entrants as ent
from referee.arena import report, sprt, stats
from referee.arena.contest import check_starts, seats
from referee.arena.parts import parts
from referee.arena.runner import Progress, run_tables
from referee.arena.schedule import ScheduleError
from referee.arena.table import POLICIES, TableResult, creation
from referee.arena.tournament import ArenaError, Journal, Settings, plan, record_name, write_atomic
from referee.jobs import registry
from referee.jobs.live import LiveError


def table_size(settings: Settings) -> int:
    game = registry.game(settings.game)
    if settings.protocol is not None:
        return seats(game.name, settings.protocol)
    try:
        sizes = parts(game.name)[1].table_sizes(settings.rules, settings.options)
    except ValueError as err:
        raise ArenaError(str(err)) from None
    if settings.size is None:
        return int(sizes[0])
    if settings.size not in sizes:
        raise ArenaError(f"a {game.name} table under {settings.rules} seats {', '.join(map(str, sorted(sizes)))}, "
                         f"not {settings.size}")
    return settings.size


def check(settings: Settings) -> int:
    """The settings against the game (ArenaError says what is wrong); the table size."""
    try:
        players = parts(settings.game)[1]
    except LookupError as err:
        raise ArenaError(str(err)) from None
    game = registry.game(settings.game)
    if settings.rules not in game.rule_sets:
        raise ArenaError(f"{game.name} rule sets are {', '.join(game.rule_sets)}, not {settings.rules}")
    if settings.policy not in POLICIES:
        raise ArenaError(f"--on-incident is {' or '.join(POLICIES)}, not {settings.policy}")
    if settings.time_limit <= 0 or (settings.game_limit is not None and settings.game_limit <= 0):
        raise ArenaError("time limits are seconds above 0")
    try:
        settings.protocol = ent.check(settings.entrants, tuple(players.STYLES),
                                      tuple(found.name for found in game.listeners if found.held is not None))
    except ent.EntrantError as err:
        raise ArenaError(str(err)) from None
    if settings.sprt is not None and settings.sprt[0] >= settings.sprt[1]:
        raise ArenaError(f"--sprt ELO0 ELO1: ELO0 is below ELO1, not {settings.sprt[0]:g} {settings.sprt[1]:g}")
    size = table_size(settings)
    _check_starts(settings, size)
    return size


def _check_starts(settings: Settings, size: int) -> None:
    """Every start position (and a protocol's options) as the tables will take them, so
    that a bad one stops the tournament before it starts, saying which and why."""
    if settings.protocol is not None:
        try:
            check_starts(settings.game, settings.protocol, settings.options, settings.starts)
        except ValueError as err:
            raise ArenaError(f"--positions: {err}" if settings.starts else str(err)) from None
        return
    live = parts(settings.game)[0]
    names = [f"seat{i + 1}" for i in range(size)]
    for number, start in enumerate(settings.starts, start=1):
        try:
            live.create(creation(settings.game, settings.rules, settings.options, names, 1, 0, start))
        except LiveError as err:
            raise ArenaError(f"--positions: position {number}: {err.message}") from None


def _prepare(out: Path, settings: Settings | None, resume: bool) -> Settings:
    saved = out / "arena.json"
    if resume:
        try:
            data = json.loads(saved.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ArenaError(f"{out} holds no tournament to resume (no arena.json)") from None
        except ValueError as err:
            raise ArenaError(f"{saved} does not read: {err}") from None
        return Settings.from_json(data)
    if settings is None:
        raise ArenaError("give the game and its entrants, or --resume DIR")
    if saved.exists():
        raise ArenaError(f"{out} already holds a tournament: finish it with --resume {out}, or choose another --out")
    return settings


def run(settings: Settings | None, out: Path, *, resume: bool = False, concurrency: int = 1, dask: Any = None,
        progress: Callable[[str], None] | None = None, replays: bool = True) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    settings = _prepare(out, settings, resume)
    size = check(settings)
    try:
        schedule, specs = plan(settings, size)
    except ScheduleError as err:
        raise ArenaError(str(err)) from None
    if not resume:
        write_atomic(out / "arena.json", json.dumps(settings.to_json(), indent=1, ensure_ascii=False) + "\n")
    (out / "games").mkdir(exist_ok=True)
    if any(e.kind == "stdio" for e in settings.entrants):
        (out / "bots").mkdir(exist_ok=True)
        specs = [s.__class__(**{**s.__dict__, "stderr_dir": str(out / "bots")}) for s in specs]
    journal = Journal(out)
    done = {n: r for n, r in journal.read().items() if (out / "games" / record_name(r)).exists()}
    blocks = {slot.number: slot.block for slot in schedule.tables}
    names = [e.name for e in settings.entrants]
    watch = _Watch(settings, blocks)
    decided = watch.feed(done)
    todo = [s for s in specs if s.number not in done and (decided is None or s.number <= decided)]
    bar = Progress(len(todo), progress)
    results = run_tables(todo, concurrency, dask)
    try:
        for result in results:
            _keep(out, result, journal)
            done[result.number] = result
            bar.update(result)
            if decided is None:
                decided = watch.feed(done)
            if decided is not None and all(n in done for n in range(decided + 1)):
                break
    finally:
        results.close()
        bar.close()
    counted = [done[n] for n in sorted(done) if decided is None or n <= decided]
    doc = stats.standings(names, counted)
    doc["tournament"] = {**settings.to_json(), "table_size": size, "schedule": schedule.describe(),
                         "balance": schedule.balance, "tables": len(specs), "tables_played": len(counted)}
    doc["incidents"] = [i for r in counted for i in r.incidents]
    doc["errors"] = [{"table": r.number, "error": r.error} for r in counted if r.error]
    if settings.sprt is not None:
        a, b = names[:2]
        samples = sprt.samples(counted, blocks, a, b, settings.duplicate)
        doc["sprt"] = {"a": a, "b": b, "elo0": settings.sprt[0], "elo1": settings.sprt[1], "duplicate": settings.duplicate,
                       **sprt.run(sprt.Sprt(*settings.sprt), samples)}
    doc["records"] = [f"games/{record_name(r)}" for r in counted if r.record or r.error is None]
    report.write(out, doc, counted, replays)
    return doc


def _keep(out: Path, result: TableResult, journal: Journal) -> None:
    encoding = "latin-1" if result.extension == ".log" else "utf-8"
    write_atomic(out / "games" / record_name(result), result.record, encoding)
    journal.append(result)


class _Watch:
    """The SPRT followed as tables finish: the tables finished so far, in schedule order
    and without a gap, fed to the test one sample at a time; the table at which it is
    decided (None: not yet, or no SPRT)."""

    def __init__(self, settings: Settings, blocks: dict[int, int]):
        self.test = None if settings.sprt is None else sprt.Sequential(sprt.Sprt(*settings.sprt))
        a, b = (e.name for e in settings.entrants[:2])
        self.samples = sprt.Samples(a, b, blocks, settings.duplicate)
        self.next = 0

    def feed(self, done: dict[int, TableResult]) -> int | None:
        if self.test is None:
            return None
        while self.test.decided_at is None and self.next in done:
            for sample in self.samples.feed(done[self.next]):
                if self.test.add(sample):
                    break
            self.next += 1
        return self.test.decided_at
