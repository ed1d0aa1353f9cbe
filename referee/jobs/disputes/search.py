"""The search: every record of a scope, breadth first by length, judged under each
setting at once.

From each start of the scope, records grow one move at a time. Each move is checked under
every setting (the game's ``engine.check``; a legal move applied, an illegal one given to
``engine.after_illegal``), and its outcomes are classified (:mod:`.classes`):

* where the settings stand in the same position and their verdicts differ, the record is
  a witness of a *legality* class: shortest, since records are met in order of length;
* where both take the move and the readings part, the move is where an *effect* class
  shows (its position and move are the first met); the record goes on, each setting in
  its own position, until the verdicts differ (a move, or a claim at the record's end:
  a declared result, a finishing order) *because* of the parting: at positions the
  settings no longer share, or at a shared one whose verdicts differ for a reason no
  position with equal readings shows. That record is the class's witness.

Positions met twice (the same raw state under every setting, the same bookkeeping) are
searched once; ``dedup=False`` searches every record (the brute force the tests compare
with). A record stops where a setting rejects it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from time import monotonic
from typing import Any

from referee.jobs.disputes.classes import (
    ILLEGAL,
    LEGAL,
    REJECTED,
    Outcome,
    Verdict,
    classify_pair,
    classify_two,
    kind_of,
    verdicts_differ_pair,
    verdicts_differ_two,
)
from referee.jobs.disputes.scope import Scope, Start


@dataclass(frozen=True)
class Rule:
    """How a comparison classifies: two settings, or a pair of options (four settings)."""

    classify: Callable[..., set[str]]
    differ: Callable[[Sequence[Verdict]], bool]


TWO = Rule(classify_two, verdicts_differ_two)
PAIR = Rule(classify_pair, verdicts_differ_pair)


@dataclass
class Witness:
    """A record of the scope that shows a class: from ``start``, ``moves`` (its last one
    the move where the verdicts differ, unless ``ending`` — a claim at the record's end —
    is where they do), with each setting's verdict there."""

    start: Start
    moves: tuple[Any, ...]
    verdicts: tuple[Verdict, ...]
    ending: str | None = None

    @property
    def length(self) -> int:
        return len(self.moves)


@dataclass
class Shown:
    """Where a class shows first: the position (each setting's state) and the move (None:
    the start itself), the verdicts, and the record that leads there."""

    states: tuple[Any, ...]
    move: Any
    verdicts: tuple[Verdict, ...]
    start: Start
    moves: tuple[Any, ...]


@dataclass
class Found:
    key: str
    shown: Shown
    witness: Witness | None = None


@dataclass
class Result:
    classes: dict[str, Found] = field(default_factory=dict)
    #: Records (or, with dedup, positions) searched at each length.
    searched: list[int] = field(default_factory=list)
    depth: int = 0
    seconds: float = 0.0
    #: The search stopped at its time limit before its depth.
    cut_short: bool = False


@dataclass
class _Node:
    states: tuple[Any, ...]
    extra: Hashable
    start: Start
    moves: tuple[Any, ...]
    #: Effect classes the settings parted on (by the first parting), else empty.
    parted: frozenset[str] = frozenset()
    #: Do the settings stand in the same raw position?
    same: bool = True
    #: Do their readings agree too?
    agree: bool = True


def rejected_verdicts(start: Start) -> tuple[Verdict, ...]:
    """Each setting's verdict on a start's set-up."""
    return tuple(start.rejected.get(i, Verdict(LEGAL)) for i in range(len(start.states)))


def start_classes(rule: Rule, scope: Scope, start: Start) -> set[str]:
    """The classes a start shows: a set-up some setting rejects, or start positions whose
    readings differ."""
    verdicts = rejected_verdicts(start)
    if start.rejected:
        return rule.classify([None] * len(verdicts), [Outcome(v) for v in verdicts], True)
    outcomes = [Outcome(Verdict(LEGAL), s, scope.reading(s)) for s in start.states]
    return rule.classify([None] * len(outcomes), outcomes, True)


def outcome(engine: Any, scope: Scope, state: Any, move: Any) -> Outcome:
    """A move's outcome under the setting of ``state``."""
    violation = engine.check(state, move)
    if violation is None:
        after = engine.apply(state, move)
        return Outcome(Verdict(LEGAL), after)
    after = engine.after_illegal(state, move, violation)
    if after is None:
        return Outcome(Verdict(ILLEGAL, violation.rule))
    return Outcome(Verdict(REJECTED, violation.rule), after)


class _Search:
    def __init__(self, engine: Any, scope: Scope, rule: Rule, depth: int, follow: int, dedup: bool,
                 seconds: float | None, progress: Callable[[int, int], None] | None = None) -> None:
        self.engine, self.scope, self.rule = engine, scope, rule
        self.progress = progress
        self.depth, self.follow, self.dedup = depth, follow, dedup
        self.deadline = None if seconds is None else monotonic() + seconds
        self.result = Result(depth=depth)
        #: Legality keys met where the readings agree (no effect can have caused them).
        self.intrinsic: set[str] = set()
        #: Effect key -> candidate witnesses (length order), each with the legality key it ends on.
        self.candidates: dict[str, list[tuple[Witness, str | None]]] = {}

    # ------------------------------------------------------------ bookkeeping

    def _show(self, key: str, shown: Shown) -> None:
        if key not in self.result.classes:
            self.result.classes[key] = Found(key, shown)

    def _candidate(self, node: _Node, witness: Witness, legality: str | None) -> None:
        for key in node.parted:
            self.candidates.setdefault(key, []).append((witness, legality))

    def _readings(self, states: Sequence[Any]) -> list[dict[str, Any]]:
        return [self.scope.reading(s) for s in states]

    def _node(self, states: tuple[Any, ...], extra: Hashable, start: Start, moves: tuple[Any, ...],
              parted: frozenset[str], before: Sequence[Any] | None, move: Any,
              outcomes: Sequence[Outcome] | None) -> _Node:
        raws = [self.scope.raw(s) for s in states]
        same = all(r == raws[0] for r in raws)
        readings = self._readings(states)
        agree = same and all(r == readings[0] for r in readings)
        if not parted and not agree:
            olds = None if before is None else self._readings(before)
            if outcomes is None:
                got = self.rule.classify([None] * len(states),
                                         [Outcome(Verdict(LEGAL), s, r) for s, r in zip(states, readings)], True)
            else:
                got = self.rule.classify(olds, [Outcome(o.verdict, s, r)
                                                for o, s, r in zip(outcomes, states, readings)])
            parted = frozenset(k for k in got if kind_of(k) == "effect")
            verdicts = tuple(o.verdict for o in outcomes) if outcomes else tuple(Verdict(LEGAL) for _ in states)
            for key in parted:
                self._show(key, Shown(tuple(before) if before is not None else states, move, verdicts, start,
                                      moves[:-1] if move is not None else moves))
        return _Node(states, extra, start, moves, parted, same, agree)

    # ------------------------------------------------------------ the search

    def starts(self) -> list[_Node]:
        nodes = []
        for start in self.scope.starts():
            if start.rejected:
                verdicts = rejected_verdicts(start)
                for key in self.rule.classify([None] * len(verdicts), [Outcome(v) for v in verdicts], True):
                    self._show(key, Shown(start.states, None, verdicts, start, ()))
                    self.result.classes[key].witness = self.result.classes[key].witness or Witness(start, (), verdicts)
                continue
            nodes.append(self._node(tuple(start.states), start.extra, start, (), frozenset(), None, None, None))
        return nodes

    def run(self) -> Result:
        began = monotonic()
        layer = self.starts()
        seen: set[Hashable] = set()
        self.result.searched.append(len(layer))
        for depth in range(1, self.depth + self.follow + 1):
            if self.deadline is not None and monotonic() > self.deadline:
                self.result.cut_short = True
                break
            if depth > self.depth:
                # Past the scope's length only records that parted are followed, to their witness.
                witnessed = self._witnessed()
                layer = [n for n in layer if n.parted and not all(k in witnessed for k in n.parted)]
                if not layer:
                    break
            nxt: list[_Node] = []
            for node in layer:
                self._expand(node, depth, nxt, seen)
            layer = nxt
            self.result.searched.append(len(layer))
            if self.progress is not None:
                self.progress(depth, len(layer))
        self._settle()
        self.result.seconds = monotonic() - began
        return self.result

    def _witnessed(self) -> set[str]:
        """Effect classes that have a witness (past the scope's length, where the legality
        classes met where readings agree are all known): records parted on them need not be
        followed further."""
        return {k for k, found in self.candidates.items()
                if any(legality is None or legality not in self.intrinsic for _, legality in found)}

    def _expand(self, node: _Node, depth: int, nxt: list[_Node], seen: set[Hashable]) -> None:
        scope, engine = self.scope, self.engine
        in_scope = depth <= self.depth
        for move in scope.moves(node.states, node.extra):
            outcomes = [outcome(engine, scope, s, move) for s in node.states]
            verdicts = tuple(o.verdict for o in outcomes)
            moves = node.moves + (move,)
            if self.rule.differ(verdicts):
                witness = Witness(node.start, moves, verdicts)
                if node.same:
                    keys = {k for k in self.rule.classify([None] * len(verdicts), [Outcome(v) for v in verdicts])
                            if kind_of(k) == "legality"}
                    for key in keys:
                        if node.agree:
                            self.intrinsic.add(key)
                        if in_scope:
                            self._show(key, Shown(node.states, move, verdicts, node.start, node.moves))
                            found = self.result.classes[key]
                            found.witness = found.witness or witness
                    if node.parted:
                        for key in keys:
                            self._candidate(node, witness, key)
                elif node.parted:
                    self._candidate(node, witness, None)
                continue
            if not all(v.goes_on for v in verdicts):
                continue
            states, extra = scope.advance(node.states, [o.after for o in outcomes], move, node.extra)
            child = self._node(states, extra, node.start, moves, node.parted, node.states, move,
                               outcomes) if in_scope or node.parted else None
            if child is None or (not child.same and not child.parted):
                # (settings apart, as predicted, show nothing more: a pair of options whose
                # one option alone took another course, as it would alone)
                continue
            if child.parted:
                for ending, said in scope.endings(states):
                    if self.rule.differ(said):
                        self._candidate(child, Witness(node.start, moves, tuple(said), ending), None)
            if self.dedup:
                met = (tuple(scope.raw(s) for s in states) if not child.same else scope.raw(states[0]),
                       extra, child.parted)
                if met in seen:
                    continue
                seen.add(met)
            nxt.append(child)

    def _settle(self) -> None:
        """Each effect class's witness: its shortest candidate whose verdicts differ because
        of the parting (not a legality class a position with equal readings shows)."""
        for key, found in self.result.classes.items():
            if kind_of(key) != "effect":
                continue
            for witness, legality in sorted(self.candidates.get(key, ()), key=lambda c: c[0].length):
                if legality is None or legality not in self.intrinsic:
                    found.witness = witness
                    break


def search(engine: Any, scope: Scope, rule: Rule, depth: int, follow: int = 2, dedup: bool = True,
           seconds: float | None = None, progress: Callable[[int, int], None] | None = None) -> Result:
    """Every class the scope's records of at most ``depth`` moves show, with its first
    position and its shortest witness (an effect's witness may run ``follow`` moves
    longer); ``seconds`` bounds the time taken (the result then says it was cut short);
    ``progress`` is told each length searched and the positions (records) of that length."""
    return _Search(engine, scope, rule, depth, follow, dedup, seconds, progress).run()
