"""The replay of a DFN record into its positions (see ``timeline``), round by round.

The replay is the referee's own (``daifugo_referee.Replay``), followed by an observer that
keeps each position, so it reaches exactly the moves ``validate`` reaches.
"""

from __future__ import annotations

from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import read_daifugo
from referee.games.daifugo.referee import Observer, Replay
from referee.jobs.report import GameReport
from referee.jobs.timeline import Segment, Step, Timeline
from referee.notation.records import Chunk


class _Positions(Observer):
    """Keeps every position of the replay in ``timeline``."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.index = {id(e): i for i, e in enumerate(timeline.entries)}

    def round_started(self, number: int, state: df.State) -> None:
        self.timeline.segments.append(Segment(number, state))

    def moved(self, entry, ply, number, before, after, violation, rejected) -> None:
        self.timeline.segments[-1].steps.append(
            Step(self.index[id(entry)], ply, number, entry, entry.player, before, after, violation,
                 rejected=rejected))


def daifugo_timeline(chunk: Chunk, file: str, index: int, report: GameReport) -> Timeline:
    record = read_daifugo(chunk, file, index)
    entries = [e for rnd in record.rounds for e in rnd.moves]
    timeline = Timeline("daifugo", chunk, record, report, entries=entries)
    if record.errors:
        return timeline
    scratch = GameReport(file, index, "daifugo", None, line=record.line)
    Replay(record, scratch, _Positions(timeline)).run()
    return timeline
