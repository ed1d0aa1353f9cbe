"""The replay of a DFN record into its positions (see ``timeline``), round by round.

The round set-up (deal, exchange duties, turn order, snapshots) is the referee's own
(``daifugo_referee._Replay``); only its move loop is taken over here, to keep each position.
The loop makes the same calls in the same order (``check``, then ``apply``, or ``reject``
for a submission the contest server counts as a pass), so the replay reaches exactly the
moves ``validate`` reaches.
"""

from __future__ import annotations

from ..engines import daifugo as df
from ..notation.dfn import DaifugoRecord, DaifugoRound, read_daifugo
from ..notation.records import Chunk
from .daifugo_referee import _Replay
from .report import GameReport
from .timeline import Segment, Step, Timeline


class _TimelineReplay(_Replay):
    """The referee's replay, keeping every position in ``timeline``."""

    def __init__(self, record: DaifugoRecord, report: GameReport, timeline: Timeline) -> None:
        super().__init__(record, report)
        self.timeline = timeline
        self.index = {id(e): i for i, e in enumerate(timeline.entries)}

    def _moves(self, rnd: DaifugoRound, number: int, state: df.State) -> df.State | None:
        segment = Segment(number, state)
        self.timeline.segments.append(segment)
        ply = 0
        for entry in rnd.moves:
            ply += 1
            move = entry.move
            index = self.index[id(entry)]
            before = state
            violation = df.check(state, move)
            if violation is None:
                state = df.apply(state, move)
                segment.steps.append(Step(index, ply, number, entry, entry.player, before, state))
                continue
            violation = self._unknown_player(state, entry, violation)
            if (state.rules.rejection_is_pass and violation.rule not in df.TURN_RULES
                    and state.phase == "play" and not isinstance(move, df.Give) and move.player >= 0):
                state = df.reject(state, move)
                segment.steps.append(Step(index, ply, number, entry, entry.player, before, state, violation,
                                          rejected=True))
                continue
            segment.steps.append(Step(index, ply, number, entry, entry.player, before, None, violation))
            return None
        return state


def daifugo_timeline(chunk: Chunk, file: str, index: int, report: GameReport) -> Timeline:
    record = read_daifugo(chunk, file, index)
    entries = [e for rnd in record.rounds for e in rnd.moves]
    timeline = Timeline("daifugo", chunk, record, report, entries=entries)
    if record.errors:
        return timeline
    scratch = GameReport(file, index, "daifugo", None, line=record.line)
    _TimelineReplay(record, scratch, timeline).run()
    return timeline
