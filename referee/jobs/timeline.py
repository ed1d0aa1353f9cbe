"""A record replayed into its positions: the state before and after every move.

``validate`` keeps only what it must; ``annotate``, ``explain`` and ``show`` need each
position. :func:`timelines` cuts a file into records and gives, for each, a
:class:`Timeline`: the verdict ``validate`` gives (its :class:`GameReport`) and every move
with the positions around it, both from one run of the one replay (``replay.replay`` with
a ``Positions`` observer), under the record's own rules or a setting given.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from referee.engines.message import T
from referee.jobs import registry
from referee.jobs.game import Game, Record, Setting
from referee.jobs.registry import SomeGame
from referee.jobs.replay import Positions, replay
from referee.jobs.report import GameReport
from referee.jobs.segment import Segment, Step
from referee.jobs.validate import attach_sources, judge_chunk, sniff, split
from referee.notation.records import Chunk, MoveEntry

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
RecordT = TypeVar("RecordT", bound=Record)
SettingT = TypeVar("SettingT", bound=Setting)

__all__ = ["ContestLog", "Segment", "SomeTimeline", "Step", "Timeline", "record_chunks", "timeline_of", "timelines"]


@dataclass
class Timeline(Generic[StateT, MoveT, RecordT, SettingT]):
    game: str | None
    chunk: Chunk
    #: The record as read (None: its game is unknown, or it was over a size limit).
    record: RecordT | None
    report: GameReport
    segments: list[Segment[StateT, MoveT]] = field(default_factory=list)
    #: Every move of the record, replayed or not (in file order).
    entries: list[MoveEntry[MoveT]] = field(default_factory=list)
    #: The setting the replay judged under (None: the record's own rules).
    setting: SettingT | None = None

    @property
    def steps(self) -> list[Step[StateT, MoveT]]:
        return [s for seg in self.segments for s in seg.steps]

    @property
    def kind(self) -> SomeGame | None:
        return registry.find(self.game)

    @property
    def readable(self) -> bool:
        """Was the record read without a finding of the reader's own (a syntax error, a
        tag given twice, a malformed tag value)? Such a record cannot be rewritten
        faithfully, so ``annotate`` passes it through unchanged."""
        return self.record is not None and not self.record.errors

    @property
    def rules_name(self) -> str | None:
        return self.report.rules


def timeline_of(chunk: Chunk, file: str, index: int, setting: Setting | None = None) -> SomeTimeline:
    """The record's verdict (as ``validate`` gives it) and its positions, from one replay
    (under ``setting`` instead of the record's own rules, when given)."""
    game = registry.find(chunk.game)
    if game is None or chunk.findings:  # an unknown game, or a record over a size limit
        return Timeline(chunk.game, chunk, None, judge_chunk(chunk, file, index))
    return replayed(game, chunk, game.notation.read(chunk, file, index), setting)


def replayed(game: Game[StateT, MoveT, RecordT, SettingT], chunk: Chunk, record: RecordT,
             setting: SettingT | None = None) -> Timeline[StateT, MoveT, RecordT, SettingT]:
    """A read record's timeline under ``setting`` (None: its own rules)."""
    positions: Positions[StateT, MoveT] = Positions()
    report = replay(game, record, positions, setting)
    attach_sources(report, chunk)
    return Timeline(game.name, chunk, record, report, positions.segments, list(game.notation.moves(record)),
                    setting)


#: A timeline of a record of any game (the registry's games are of types generic code
#: does not know).
SomeTimeline = Timeline[Any, Any, Any, Any]


class ContestLog(ValueError):
    """A whole-file format (a UEC contest-server log) that cannot be written as records:
    ``validate`` judges it; the tools that replay records move by move take records."""


def record_chunks(lines: Iterable[str], file: str) -> Iterator[Chunk]:
    """The records of a file; a whole-file format (a contest log) as its game's notation
    writes it (``pitboss convert``). Raises ContestLog for a format that cannot be."""
    stream, foreign = sniff(lines)
    if foreign is None:
        yield from split(stream)
        return
    if foreign.convert is None:
        notations = " and ".join(g.notation.name for g in registry.games())
        raise ContestLog(T("{file} is {format}: this command takes {notations} records; judge it with {command}",
                           file=file, format=foreign.title, notations=notations,
                           command=f"`pitboss validate {file}`"))
    converted = (line for text in foreign.converted(stream, file) for line in text.splitlines(keepends=True))
    yield from split(converted)


def timelines(lines: Iterable[str], file: str, setting: Setting | None = None) -> Iterator[SomeTimeline]:
    """Each record's timeline. Raises ContestLog for a whole-file format."""
    for index, chunk in enumerate(record_chunks(lines, file), start=1):
        yield timeline_of(chunk, file, index, setting)
