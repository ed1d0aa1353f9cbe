"""The one replay: a record played move by move against its game's engine.

Every job that needs a record's moves judged (validate, the timeline behind annotate,
explain, show, solve and analyse, the citations the tests check) runs this loop and
observes it; none has a loop of its own.

A game says what to replay through its *plan* (``Game.plan``): a generator that checks
the record's tags, yields each :class:`~referee.jobs.segment.Segment` to play (a Caravan record, a Daifugo
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

from typing import Generic, TypeVar

from referee.jobs.game import Engine, Game, Record, Setting
from referee.jobs.report import GameReport
from referee.jobs.segment import Plan, Segment, Step, rejected
from referee.notation.records import Finding

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
RecordT = TypeVar("RecordT", bound=Record)
SettingT = TypeVar("SettingT", bound=Setting)


def allowed(engine: Engine[StateT, MoveT], before: StateT, move: MoveT, after: StateT) -> list[str]:
    """The ids of the rules that decided a legal move, the engine's own account: those its
    ``check`` consulted, then those the move set off (``effects``)."""
    consulted: list[str] = []
    engine.check(before, move, consulted)
    return consulted + list(engine.effects(before, move, after))


class Observer(Generic[StateT, MoveT]):
    """What a replay tells whoever follows it. The base class ignores everything."""

    def segment_started(self, segment: Segment[StateT, MoveT]) -> None:
        """A segment starts in ``segment.start`` (after the deal and the exchange duties)."""

    def moved(self, step: Step[StateT, MoveT]) -> None:
        """A move was judged: legal, counted (``step.rejected``) or illegal (``after`` None)."""


class Positions(Observer[StateT, MoveT]):
    """Keeps every segment and every step: what annotate, explain and show read."""

    def __init__(self) -> None:
        self.segments: list[Segment[StateT, MoveT]] = []

    def segment_started(self, segment: Segment[StateT, MoveT]) -> None:
        self.segments.append(segment)

    def moved(self, step: Step[StateT, MoveT]) -> None:
        self.segments[-1].steps.append(step)


class Citations(Observer[StateT, MoveT]):
    """The ids of the rules that decided the legal moves (:func:`allowed`) and of the
    counted illegal ones (what set them off: ``Engine.set_off``)."""

    def __init__(self, engine: Engine[StateT, MoveT]) -> None:
        self.engine = engine
        self.ids: set[str] = set()

    def segment_started(self, segment: Segment[StateT, MoveT]) -> None:
        self.ids.update(self.engine.set_off(segment.start))

    def moved(self, step: Step[StateT, MoveT]) -> None:
        if step.after is None:
            return
        if step.violation is None:
            self.ids.update(allowed(self.engine, step.before, step.entry.move, step.after))
        else:
            self.ids.update(self.engine.set_off(step.after))


def play(engine: Engine[StateT, MoveT], segment: Segment[StateT, MoveT], report: GameReport,
         observer: Observer[StateT, MoveT] | None = None) -> StateT | None:
    """Play a segment's moves from its start: findings into ``report``, each move to the
    observer. The position after the last move, or None when an illegal move ended it."""
    # Without an observer (validate) a legal move builds no Step: that is the hot path.
    watching = observer is not None
    if observer is None:
        observer = Observer()
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
        counted = after_illegal(state, move, violation)
        finding = Finding(violation.rule, violation.message, entry.line, entry.column, ply=ply,
                          round=segment.round, player=segment.mover(state, entry), move=entry.text)
        step = Step(segment.offset + ply - 1, ply, segment.round, entry, finding.player or "", state, counted,
                    violation, rejected=counted is not None)
        if counted is None:
            report.errors.append(finding)
            report.plies += ply - 1
            observer.moved(step)
            return None
        finding.message = rejected(finding.message)
        report.warnings.append(finding)
        observer.moved(step)
        state = counted
    report.plies += ply
    return state


def replay(game: Game[StateT, MoveT, RecordT, SettingT], record: RecordT,
           observer: Observer[StateT, MoveT] | None = None, setting: SettingT | None = None,
           report: GameReport | None = None) -> GameReport:
    """The verdict on a read record: its reader's findings, then its game's plan played
    out (under ``setting`` instead of the record's own rules, when given)."""
    if report is None:
        report = game.new_report(record)
    plan: Plan[StateT, MoveT] = game.plan(record, report, setting)
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


def cite(game: Game[StateT, MoveT, RecordT, SettingT], record: RecordT) -> set[str]:
    """The ids of every rule that decided the record's moves, replayed up to its first
    illegal one (what the golden records' ``covers`` claims are checked against)."""
    citations = Citations(game.engine)
    replay(game, record, citations)
    return citations.ids
