"""A tournament: its settings (``Settings``, kept in ``DIR/arena.json``), its schedule
and the tables it still has to play, and its journal (``DIR/journal.jsonl``: one line per
finished table, written after the table's record), which is what ``--resume DIR``
finishes from after the arena was stopped, even by ``kill -9``: the schedule and every
deal come from the seed, so the tables still to play are the same ones, and the
standings, computed from the results in schedule order, are those of an uninterrupted run.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from referee.arena import schedule as sched
from referee.arena.entrants import Entrant, parse
from referee.arena.table import TableResult, TableSpec

FORMAT = "pitboss-arena/1"


class ArenaError(ValueError):
    """A tournament that cannot be run as asked (exit status 2)."""


@dataclass
class Settings:
    game: str
    entrants: list[Entrant]
    rules: str
    options: str = ""
    rounds: int = 1
    games: int = 10
    mode: str = "round-robin"
    duplicate: bool = False
    permutations: str = "rotations"
    seed: int = 0
    #: Seats per table (None: the game's own: 2 for Caravan, 5 for Daifugo).
    size: int | None = None
    time_limit: float = 5.0
    game_limit: float | None = None
    policy: str = "pass"
    #: Start positions (each a set-up the live table takes: decks, hands, a contest deal).
    starts: list[dict[str, Any]] = field(default_factory=list)
    sprt: tuple[float, float] | None = None
    #: The listener whose protocol the entrants speak (their tables are its); None: the
    #: game's own tables. Set from the entrants.
    protocol: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["entrants"] = [f"{e.name}={e.spec}" for e in self.entrants]
        out["format"] = FORMAT
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        data = dict(data)
        if data.pop("format", None) != FORMAT:
            raise ArenaError(f"not a tournament of this arena ({FORMAT})")
        data["entrants"] = [parse(e) for e in data["entrants"]]
        if data.get("sprt") is not None:
            data["sprt"] = tuple(data["sprt"])
        return cls(**data)


def plan(settings: Settings, size: int) -> tuple[sched.Schedule, list[TableSpec]]:
    """The schedule and each table's spec. With --sprt, --games is the most each entrant
    plays (the test stops the tournament when it is decided)."""
    schedule = sched.build(len(settings.entrants), size, settings.games, settings.seed, settings.mode,
                           settings.duplicate, settings.permutations)
    specs = []
    for slot in schedule.tables:
        start = settings.starts[slot.deal % len(settings.starts)] if settings.starts else None
        specs.append(TableSpec(slot.number, settings.game, settings.rules, settings.options, settings.rounds,
                               slot.seed, tuple(settings.entrants[i] for i in slot.seats), settings.time_limit,
                               settings.game_limit, settings.policy, start, None, settings.protocol))
    return schedule, specs


class Journal:
    """The finished tables, one JSON line each, appended and synced one at a time."""

    def __init__(self, folder: Path):
        self.path = folder / "journal.jsonl"

    def read(self) -> dict[int, TableResult]:
        done: dict[int, TableResult] = {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return done
        for line in text.splitlines():
            try:
                res = TableResult.from_json({"record": "", **json.loads(line)})
            except (ValueError, TypeError):
                continue  # a line cut short by a kill: that table is played again
            done[res.number] = res
        return done

    def append(self, result: TableResult) -> None:
        data = result.to_json()
        data.pop("record")  # the record is its own file
        line = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())


def write_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    temp = path.with_name(f".{path.name}.tmp")
    with temp.open("w", encoding=encoding, newline="\n") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)


def record_name(result: TableResult) -> str:
    return f"table-{result.number + 1:04d}{result.extension}"
