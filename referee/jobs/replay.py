"""The one replay: a record played move by move against its game's engine.

Every job that needs a record's moves judged (validate, the timeline behind annotate,
explain, show, solve and analyse, the citations the tests check) runs this loop and
observes it; none has a loop of its own.

A game says what to replay through its *plan* (``Game.plan``): a generator that checks
the record's tags, yields each :class:`Segment` to play (a Caravan record, a Daifugo
round: its start position and its moves) and is sent the position the segment ended in
(it can then check the result or the finishing order, and set up the next segment). The
loop here does the rest, the same for every game:

* each move through ``engine.check``; a legal one through ``engine.apply``;
* an illegal one through ``engine.after_illegal``, the engine's own policy: the position
  after it when the rules count it (the contest server counts a rejected submission as a
  pass: a warning), or None: an error, and the replay stops;
* each segment and each move told to the observer (a visitor, as python-chess's readers
  have), with the positions before and after.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.engines.base import Violation
from referee.engines.message import M, T
from referee.jobs.report import GameReport
from referee.notation.records import Finding, MoveEntry

if TYPE_CHECKING:
    from referee.jobs.game import Game

#: The message of a counted illegal move (a warning): the violation's, said as rejected.
REJECTED = M("rejected, counted as a pass: {message}")


def rejected(message: str) -> T:
    """A counted illegal move's message."""
    return T(REJECTED, message=message)


def unrejected(message: str) -> str:
    """The violation's own message inside a counted illegal move's (else ``message``)."""
    if isinstance(message, T) and message.msgid == REJECTED:
        return message.args["message"]
    prefix = REJECTED.partition("{")[0]
    return message[len(prefix):] if message.startswith(prefix) else message


@dataclass
class Segment:
    """A stretch of play from one start position: a Caravan record, a Daifugo round."""

    round: int | None
    start: Any
    #: The moves to play, as read (each a MoveEntry: the engine's move and its place).
    entries: Sequence[MoveEntry]
    #: Who made a move, as the record names players ("1"/"2", "Aki"); given the game's
    #: state and one of ``entries`` (the game's own MoveEntry subclass).
    mover: Callable[[Any, Any], str]
    #: Rewords a violation for the record's reader (a move naming an unknown player).
    reword: Callable[[Any, Any, Violation], Violation] | None = None
    #: Index of the segment's first move among all the record's moves.
    offset: int = 0
    #: The moves played, once replayed (kept only by observers that keep positions).
    steps: list[Step] = field(default_factory=list)


@dataclass
class Step:
    """One move of a record as the replay met it."""

    #: Index of the move in the record (0-based, file order, all rounds together).
    index: int
    #: Ply as ``validate`` counts it: from 1 within the record (Caravan) or round (Daifugo).
    ply: int
    round: int | None
    entry: MoveEntry
    #: Who moved, as the record names them.
    player: str
    before: Any
    #: The position after the move; None when the move was illegal and ended the replay.
    after: Any | None
    #: The rule the move broke, or None.
    violation: Violation | None = None
    #: The move was illegal and the rules counted it as a pass (the contest server).
    rejected: bool = False

    @property
    def legal(self) -> bool:
        return self.violation is None

    def to_json(self) -> dict[str, Any]:
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


class Observer:
    """What a replay tells whoever follows it. The base class ignores everything."""

    def segment_started(self, segment: Segment) -> None:
        """A segment starts in ``segment.start`` (after the deal and the exchange duties)."""

    def moved(self, step: Step) -> None:
        """A move was judged: legal, counted (``step.rejected``) or illegal (``after`` None)."""


class Positions(Observer):
    """Keeps every segment and every step: what annotate, explain and show read."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []

    def segment_started(self, segment: Segment) -> None:
        self.segments.append(segment)

    def moved(self, step: Step) -> None:
        self.segments[-1].steps.append(step)


class Citations(Observer):
    """The ids of the rules that decided the legal moves (``Game.allowed``) and of the
    counted illegal ones."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.ids: set[str] = set()

    def segment_started(self, segment: Segment) -> None:
        self.ids.update(self.game.set_off(segment.start))

    def moved(self, step: Step) -> None:
        if step.after is None:
            return
        if step.violation is None:
            self.ids.update(self.game.allowed(step.before, step.entry.move, step.after))
        else:
            self.ids.update(self.game.set_off(step.after))


#: A plan: yields segments, is sent the position each ended in.
Plan = Generator[Segment, Any, None]


def play(engine: Any, segment: Segment, report: GameReport, observer: Observer | None = None) -> Any | None:
    """Play a segment's moves from its start: findings into ``report``, each move to the
    observer. The position after the last move, or None when an illegal move ended it."""
    # Without an observer (validate) a legal move builds no Step: that is the hot path.
    watching = observer is not None
    observer = observer or _IGNORE
    observer.segment_started(segment)
    check, apply, after_illegal = engine.check, engine.apply, engine.after_illegal
    state = segment.start
    ply = 0
    for ply, entry in enumerate(segment.entries, start=1):
        move = entry.move
        violation = check(state, move)
        if violation is None:
            after = apply(state, move)
            if watching:
                observer.moved(Step(segment.offset + ply - 1, ply, segment.round, entry,
                                    segment.mover(state, entry), state, after))
            state = after
            continue
        if segment.reword is not None:
            violation = segment.reword(state, entry, violation)
        after = after_illegal(state, move, violation)
        finding = Finding(violation.rule, violation.message, entry.line, entry.column, ply=ply,
                          round=segment.round, player=segment.mover(state, entry), move=entry.text)
        step = Step(segment.offset + ply - 1, ply, segment.round, entry, finding.player or "", state, after,
                    violation, rejected=after is not None)
        if after is None:
            report.errors.append(finding)
            report.plies += ply - 1
            observer.moved(step)
            return None
        finding.message = rejected(finding.message)
        report.warnings.append(finding)
        observer.moved(step)
        state = after
    report.plies += ply
    return state


def replay(game: Game, record: Any, observer: Observer | None = None, setting: Any = None,
           report: GameReport | None = None) -> GameReport:
    """The verdict on a read record: its reader's findings, then its game's plan played
    out (under ``setting`` instead of the record's own rules, when given)."""
    if report is None:
        report = game.new_report(record)
    plan: Plan = game.plan(record, report, setting)
    engine = game.engine
    try:
        segment = next(plan)
        while True:
            final = play(engine, segment, report, observer)
            if final is None:
                plan.close()
                break
            segment = plan.send(final)
    except StopIteration:
        pass
    return report


_IGNORE = Observer()


def cite(game: Game, record: Any) -> set[str]:
    """The ids of every rule that decided the record's moves, replayed up to its first
    illegal one (what the golden records' ``covers`` claims are checked against)."""
    citations = Citations(game)
    replay(game, record, citations)
    return citations.ids
