"""A position to solve: a record of a file, cut at a ply (notation.md section 5).

The record is replayed exactly as ``validate`` replays it (``timeline.timeline_of``); the
position is the state after ``ply`` moves (Caravan: of the record; Daifugo: of the round,
``round`` counting from 1), or after every move the replay reached. A position the replay
cannot reach (a syntax error, a bad tag, an illegal move at or before the ply) is invalid:
its findings are those ``validate`` reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from referee.engines.message import N, T
from referee.jobs.game import Setting
from referee.jobs.report import GameReport
from referee.jobs.timeline import (
    ContestLog,
    Segment,
    SomeTimeline,
    record_chunks,
    timeline_of,
)
from referee.notation.records import Finding, Record, open_text


class PositionError(Exception):
    """The position is invalid (exit status 1): ``report`` holds its findings."""

    def __init__(self, message: str, report: GameReport, findings: list[Finding]) -> None:
        super().__init__(message)
        self.report = report
        self.findings = findings


class UsageError(ValueError):
    """The file, record, round or ply asked for does not exist (exit status 2)."""


@dataclass
class Position:
    game: str
    state: object
    timeline: SomeTimeline
    #: Moves replayed to get here (within the round for Daifugo).
    ply: int
    round: int | None
    #: The record's later findings (past the ply), which do not affect this position.
    later: list[Finding] = field(default_factory=list)

    @property
    def rules(self) -> str | None:
        return self.timeline.report.rules

    @property
    def record(self) -> Record:
        """The record the position is of."""
        record = self.timeline.record
        assert record is not None  # a position is made only of a record that was read
        return record

    def describe(self) -> str:
        report = self.timeline.report
        if self.round is not None:
            return N("{file} game {index} ({game}, {rules}), round {round}, after {n} move",
                     "{file} game {index} ({game}, {rules}), round {round}, after {n} moves", self.ply,
                     file=report.file, index=report.index, game=self.game, rules=self.rules, round=self.round)
        return N("{file} game {index} ({game}, {rules}), after {n} move",
                 "{file} game {index} ({game}, {rules}), after {n} moves", self.ply,
                 file=report.file, index=report.index, game=self.game, rules=self.rules)


def load_position(path: str, game: int = 1, ply: int | None = None, round: int | None = None,
                  settings: dict[str, Setting] | None = None) -> Position:
    """The position of record ``game`` (1-based) of ``path`` after ``ply`` moves (under
    ``settings``' setting for its game, when given: game name -> setting, as
    ``referee.jobs.validate.parse_settings`` makes them)."""
    if path != "-" and not Path(path).exists():
        raise UsageError(T("no such file: {path}", path=path))
    name = "<stdin>" if path == "-" else path
    handle = open_text(path)
    try:
        for index, chunk in enumerate(record_chunks(handle, name), start=1):
            if index == game:
                return _position(timeline_of(chunk, name, index, (settings or {}).get(chunk.game or "")), ply, round)
    except ContestLog as err:
        raise UsageError(str(err)) from None
    finally:
        if path != "-":
            handle.close()
    raise UsageError(T("{name} has no record {game} (--game counts records from 1)", name=name, game=game))


def _position(timeline: SomeTimeline, ply: int | None, round: int | None) -> Position:
    report = timeline.report
    game = timeline.game or "?"
    if timeline.kind is None:
        raise PositionError(T("not a record of a game Pitboss knows"), report, report.errors)
    if not timeline.segments:
        raise PositionError(T("the record's start position cannot be set up"), report, report.errors)
    segment = _segment(timeline, round, ply is not None)
    steps = segment.steps
    if ply is not None and ply < 0:
        raise UsageError(T("--ply counts moves from 0 (the start position)"))
    reached = [s for s in steps if s.after is not None]
    available = len(segment.entries)
    if ply is None:
        ply = available  # the end of the record (of the round)
    if ply > available:
        if segment.round is None:
            raise UsageError(N("the record has {n} move; --ply {ply} is past its end",
                               "the record has {n} moves; --ply {ply} is past its end", available, ply=ply))
        raise UsageError(N("the round has {n} move; --ply {ply} is past its end",
                           "the round has {n} moves; --ply {ply} is past its end", available, ply=ply))
    if ply > len(reached):
        bad = steps[len(reached)] if len(reached) < len(steps) else None
        findings = [f for f in report.errors if bad is None or (f.ply == bad.ply and f.round == segment.round)]
        raise PositionError(T("move {n} is illegal, so ply {ply} cannot be reached", n=len(reached) + 1, ply=ply),
                            report,
                            findings or report.errors)
    state = segment.start if ply == 0 else reached[ply - 1].after
    later = [f for f in report.errors + report.warnings if f.ply is not None and f.ply > ply]
    return Position(game, state, timeline, ply, segment.round, later)


def _segment(timeline: SomeTimeline, round: int | None, ply_given: bool) -> Segment:
    """The round asked for; by default (as ``show``) the first when a ply is given, else
    the last one replayed."""
    if round is None:
        return timeline.segments[0] if ply_given else timeline.segments[-1]
    for seg in timeline.segments:
        if seg.round == round:
            return seg
    rounds = [s.round for s in timeline.segments]
    if not rounds:
        raise UsageError(T("the replay has no round {round} (rounds replayed: none)", round=round))
    raise UsageError(T("the replay has no round {round} (rounds replayed: {rounds})", round=round,
                       rounds=", ".join(map(str, rounds))))
