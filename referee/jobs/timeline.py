"""A record replayed into its positions: the state before and after every move.

``validate`` keeps only what it must; ``annotate``, ``explain`` and ``show`` need each
position. :func:`timelines` cuts a file into records and gives, for each, the verdict
``validate`` gives (its :class:`GameReport`, the same function) and a :class:`Timeline`:
every move with the position before it, the position after it, and the rule it broke.
The replay follows the referee exactly: it stops at the first illegal move, and under
``uecda`` it goes on past a rejected submission as the contest server did.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.engines.base import Violation
from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import read_caravan
from referee.games.caravan.referee import start_state
from referee.jobs.report import GameReport
from referee.jobs.validate import judge_chunk, sniff
from referee.notation.records import Chunk, MoveEntry, Record, split_records


@dataclass
class Step:
    """One move of a record as the replay met it."""

    #: Index of the move in the record (0-based, file order, all rounds together).
    index: int
    #: Ply as ``validate`` counts it: from 1 within the record (Caravan) or round (Daifugo).
    ply: int
    round: int | None
    entry: MoveEntry
    #: Who moved, as the record names them ("1"/"2" in Caravan, a name in Daifugo).
    player: str
    before: Any
    #: The position after the move; None when the move was illegal and ended the replay.
    after: Any | None
    #: The rule the move broke (under the record's rules), or None.
    violation: Violation | None = None
    #: uecda: the move was an illegal submission the server counted as a pass.
    rejected: bool = False

    @property
    def legal(self) -> bool:
        return self.violation is None

    def to_json(self) -> dict:
        """Where the move stands and how the record's rules judged it."""
        return {
            "round": self.round,
            "ply": self.ply,
            "line": self.entry.line,
            "column": self.entry.column,
            "player": self.player,
            "move": self.entry.text,
            "legal": self.legal,
            "rejected": self.rejected,
        }


@dataclass
class Segment:
    """A stretch of play from one start position: a Caravan record, a Daifugo round."""

    round: int | None
    start: Any
    steps: list[Step] = field(default_factory=list)


@dataclass
class Timeline:
    game: str | None
    chunk: Chunk
    record: Record | None
    report: GameReport
    segments: list[Segment] = field(default_factory=list)
    #: Every move of the record, replayed or not (in file order).
    entries: list[MoveEntry] = field(default_factory=list)

    @property
    def steps(self) -> list[Step]:
        return [s for seg in self.segments for s in seg.steps]

    @property
    def readable(self) -> bool:
        """Was the record read without a finding of the reader's own (a syntax error, a
        tag given twice, a malformed tag value)? Such a record cannot be rewritten
        faithfully, so ``annotate`` passes it through unchanged."""
        return self.record is not None and not self.record.errors

    @property
    def rules_name(self) -> str | None:
        return self.report.rules


# ------------------------------------------------------------------ Caravan


def caravan_timeline(chunk: Chunk, file: str, index: int, report: GameReport) -> Timeline:
    record = read_caravan(chunk, file, index)
    timeline = Timeline("caravan", chunk, record, report, entries=list(record.moves))
    if record.errors:
        return timeline
    scratch = GameReport(file, index, "caravan", None)
    state = start_state(record, scratch)
    if state is None or record.errors or scratch.errors:
        return timeline
    segment = Segment(None, state)
    timeline.segments.append(segment)
    for i, entry in enumerate(record.moves):
        player = cv.player_name(state.to_move)
        violation = cv.check(state, entry.move)
        if violation is not None:
            segment.steps.append(Step(i, i + 1, None, entry, player, state, None, violation))
            break
        after = cv.apply(state, entry.move)
        segment.steps.append(Step(i, i + 1, None, entry, player, state, after))
        state = after
    return timeline


# ------------------------------------------------------------------ any game

def _builder(game: str | None):
    """The timeline builder of a game (by its Game tag, lower case), or None."""
    if game == "caravan":
        return caravan_timeline
    if game == "daifugo":
        from referee.games.daifugo.timeline import daifugo_timeline

        return daifugo_timeline
    return None


def timeline_of(chunk: Chunk, file: str, index: int) -> Timeline:
    """The record's verdict (as ``validate`` gives it) and its replay."""
    report = judge_chunk(chunk, file, index)
    builder = _builder(chunk.game)
    if builder is None or chunk.findings:  # an unknown game, or a record over a size limit
        return Timeline(chunk.game, chunk, None, report)
    return builder(chunk, file, index, report)


class ContestLog(ValueError):
    """A UEC contest-server log: ``validate`` judges it; the tools that replay records
    move by move (annotate, explain, show, solve) take CVN and DFN records."""


def record_chunks(lines: Iterable[str], file: str) -> Iterator[Chunk]:
    """The records of a CVN or DFN file. Raises ContestLog for a contest-server log."""
    stream, foreign = sniff(lines)
    if foreign is not None:
        raise ContestLog(f"{file} is a contest-server log: this command takes CVN and DFN records; "
                         f"judge a log with `pitboss validate {file}`")
    yield from split_records(stream)


def timelines(lines: Iterable[str], file: str) -> Iterator[Timeline]:
    """Each record's timeline. Raises ContestLog for a contest-server log."""
    for index, chunk in enumerate(record_chunks(lines, file), start=1):
        yield timeline_of(chunk, file, index)
