"""A record's play as the one replay meets it: the segments a game's plan yields and the
steps (moves judged) they are played in.

A game's *plan* (``Game.plan``) is a generator: it checks the record's tags, yields each
:class:`Segment` to play (a Caravan record, a Daifugo round: its start position and its
moves) and is sent the position the segment ended in. :mod:`referee.jobs.replay` plays the
segments; what it met, move by move, is a :class:`Step`. Type parameters: ``StateT`` a position,
``MoveT`` a move as the game's engine reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from referee.engines.base import Violation
from referee.engines.message import M, T
from referee.notation.records import MoveEntry

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")

#: The message of a counted illegal move (a warning): the violation's, said as rejected.
REJECTED = M("rejected, counted as a pass: {message}")


def rejected(message: str) -> T:
    """A counted illegal move's message."""
    return T(REJECTED, message=message)


def unrejected(message: str) -> str:
    """The violation's own message inside a counted illegal move's (else ``message``)."""
    if isinstance(message, T) and message.msgid == REJECTED:
        found: str = message.args["message"]
        return found
    prefix = REJECTED.partition("{")[0]
    return message[len(prefix):] if message.startswith(prefix) else message


@dataclass
class Segment(Generic[StateT, MoveT]):
    """A stretch of play from one start position: a Caravan record, a Daifugo round."""

    round: int | None
    start: StateT
    #: The moves to play, as read (each a MoveEntry: the engine's move and its place).
    entries: Sequence[MoveEntry[MoveT]]
    #: Who made a move, as the record names players ("1"/"2", "Aki"); given the game's
    #: state and one of ``entries`` (the game's own MoveEntry subclass).
    mover: Callable[[StateT, MoveEntry[MoveT]], str]
    #: Rewords a violation for the record's reader (a move naming an unknown player).
    reword: Callable[[StateT, MoveEntry[MoveT], Violation], Violation] | None = None
    #: Index of the segment's first move among all the record's moves.
    offset: int = 0
    #: The moves played, once replayed (kept only by observers that keep positions).
    steps: list[Step[StateT, MoveT]] = field(default_factory=list)


@dataclass
class Step(Generic[StateT, MoveT]):
    """One move of a record as the replay met it."""

    #: Index of the move in the record (0-based, file order, all rounds together).
    index: int
    #: Ply as ``validate`` counts it: from 1 within the record (Caravan) or round (Daifugo).
    ply: int
    round: int | None
    entry: MoveEntry[MoveT]
    #: Who moved, as the record names them.
    player: str
    before: StateT
    #: The position after the move; None when the move was illegal and ended the replay.
    after: StateT | None
    #: The rule the move broke, or None.
    violation: Violation | None = None
    #: The move was illegal and the rules counted it as a pass (the contest server).
    rejected: bool = False

    @property
    def legal(self) -> bool:
        return self.violation is None

    def to_json(self) -> dict[str, object]:
        """Where the move stands and how the replay's rules judged it."""
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


#: A plan: yields segments, is sent the position each ended in.
Plan = Generator[Segment[StateT, MoveT], StateT, None]
