"""One game of a contest-server log replayed from a given start: what the log's referee
plays once the exchange is known, and what the exchange inference plays for each
exchange it tries."""

from __future__ import annotations

from typing import NamedTuple

from referee.games.daifugo import engine as df
from referee.games.daifugo.uecda.notation import log as ul
from referee.jobs.replay import Positions, play
from referee.jobs.report import GameReport
from referee.jobs.segment import Segment
from referee.notation.records import Finding

#: The preset a contest-server log is judged under (its header's flags toggle options).
CONTEST_PRESET = "uecda"


class Outcome(NamedTuple):
    """A replay of a game's moves: the final state (None when an entry contradicts the
    server), errors, warnings, entries replayed, and the positions it went through."""

    state: df.State | None
    errors: list[Finding]
    warnings: list[Finding]
    plies: int
    positions: Positions[df.State, df.Move]


class LogGameReplay:
    """One contest game's moves, played by the one replay from a given start (the
    exchange inference tries several)."""

    def __init__(self, game: ul.LogGame):
        self.game = game
        self.names = game.header.names  # type: ignore[union-attr]  # a read game always has its header

    def mover(self, state: df.State, entry: ul.LogEntry) -> str:
        p = entry.player
        return self.names[p] if 0 <= p < len(self.names) else str(p)

    def replay(self, start: df.State) -> Outcome:
        """The moves from ``start``: the final state (None after an entry that contradicts
        the server), errors, warnings, entries replayed, and the positions."""
        game = self.game
        report = GameReport(game.file, game.index, "daifugo", CONTEST_PRESET)
        positions: Positions[df.State, df.Move] = Positions()
        # A LogEntry is no MoveEntry subclass but has all that replay reads of one (move,
        # line, column, text).
        final = play(df, Segment(game.index, start, game.entries, self.mover),  # type: ignore[arg-type]  # see above
                     report, positions)
        return Outcome(final, report.errors, report.warnings, report.plies, positions)
