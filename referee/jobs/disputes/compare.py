"""``pitboss disputes``: the classes of disagreement between settings, each with where it
shows first and its shortest witness, every witness replayed by ``validate``.

A *comparison* is two settings of a game (``holotape`` against ``fnv``), or a pair of
options on a preset (the preset, each option alone and both: see :mod:`.classes`). Its
game's ``disputes`` part gives the scope; :mod:`.search` searches it; here each class is
written out (the position and move where it shows, in the game's notation; the witness
record; the rule ids) and each witness is validated under every setting compared, with
the verdicts the search predicted or the class says it is unverified.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engines.message import T
from referee.jobs.disputes.classes import ILLEGAL, LEGAL, REJECTED, Outcome, Verdict, kind_of
from referee.jobs.disputes.search import PAIR, TWO, Found, Result, Rule, Witness, outcome, search, start_classes
from referee.jobs.game import Disputes as Part
from referee.jobs.game import Game
from referee.jobs.timeline import timelines
from referee.jobs.validate import validate_text
from referee.notation.records import text_lines


@dataclass(frozen=True)
class Comparison:
    """Settings compared: two (``pair`` False), or a preset, each of two options on it,
    and both (``pair`` True), with their labels as ``--rules`` writes them."""

    game: Game
    settings: tuple[Any, ...]
    pair: bool = False

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.game.settings.get().label(s) for s in self.settings)

    @property
    def rule(self) -> Rule:
        return PAIR if self.pair else TWO


def two(game: Game, a: str, b: str) -> Comparison:
    """Two settings as ``--rules`` takes them. Raises ValueError (a bad setting, or one
    setting twice)."""
    settings = (game.settings.get().parse(a), game.settings.get().parse(b))
    if settings[0] == settings[1]:
        raise ValueError(T("{a} and {b} are the same setting", a=a, b=b))
    return Comparison(game, settings)


def pair(game: Game, preset: Any, one: Any, other: Any, both: Any) -> Comparison:
    return Comparison(game, (preset, one, other, both), pair=True)


@dataclass
class Class:
    """One class of a comparison, written out."""

    key: str
    kind: str
    #: Each setting's verdict where the class shows (its rule id, or None: legal).
    rules: dict[str, str | None]
    #: The position where it shows first (the game's notation), and the move (None: the start).
    position: str
    move: str | None
    #: The witness record's text and length in moves (None: no witness within the scope).
    witness: str | None = None
    length: int | None = None
    #: How the witness's last move (or its ending claim) is judged: label -> {valid, rule, ply}.
    verdicts: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Did validate give the witness exactly the verdicts the search predicted?
    verified: bool | None = None
    #: The points of difference (the settings' fields, by the game's names) that make it.
    points: list[str] = field(default_factory=list)
    #: The part of the scope it was found in.
    scope: str = ""
    #: For an effect: the rules each setting's account of the move names and the other's does not.
    cited: dict[str, list[str]] = field(default_factory=dict)

    @property
    def component(self) -> str | None:
        return self.key.split(":", 1)[1] if self.kind == "effect" else None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.key, "kind": self.kind, "rules": self.rules, "position": self.position,
                "move": self.move, "witness": self.witness, "length": self.length, "verdicts": self.verdicts,
                "verified": self.verified, "points": self.points, "scope": self.scope, "cited": self.cited}


@dataclass
class Disputes:
    comparison: Comparison
    scope: dict[str, Any]
    classes: list[Class]
    complete: bool
    searched: list[list[int]]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        c = self.comparison
        return {"game": c.game.name, "settings": list(c.labels), "pair": c.pair, "scope": self.scope,
                "complete": self.complete, "searched": self.searched, "seconds": round(self.seconds, 2),
                "classes": [k.to_json() for k in self.classes]}


# ------------------------------------------------------------------ verdicts of a record


def record_verdict(game: Game, text: str, setting: Any, ply: int | None) -> dict[str, Any]:
    """How ``validate --rules`` judges a record: valid or not, and the rule of its first
    error (or, at move ``ply``, of the warning that counted it as a pass) and its ply."""
    reports = validate_text(text, "<witness>", {game.name: setting})
    report = reports[0]
    if report.errors:
        f = report.errors[0]
        return {"valid": False, "rule": f.rule, "ply": f.ply}
    for f in report.warnings:
        if ply is not None and f.ply == ply:
            return {"valid": True, "rule": f.rule, "ply": f.ply}
    return {"valid": True, "rule": None, "ply": None}


def _expected(verdict: Verdict, ply: int | None) -> dict[str, Any]:
    if verdict.kind == LEGAL:
        return {"valid": True, "rule": None, "ply": None}
    return {"valid": verdict.kind == REJECTED, "rule": verdict.rule, "ply": ply}


# ------------------------------------------------------------------ writing classes out


def _class(c: Comparison, scope: Any, found: Found) -> Class:
    labels = c.labels
    shown = found.shown
    kind = kind_of(found.key)
    rules: dict[str, str | None] = {label: (v.rule if kind == "legality" else None)
                                    for label, v in zip(labels, shown.verdicts)}
    state = shown.states[0]
    out = Class(found.key, kind, rules, _position(scope, shown),
                None if shown.move is None else scope.describe_move(state, shown.move))
    if kind == "effect":
        out.cited = _cited(c, scope, shown)
        out.rules = {label: (ids[0] if ids else None) for label, ids in out.cited.items()}
    witness = found.witness
    if witness is not None:
        _witness(c, scope, witness, out)
    return out


def _position(scope: Any, shown: Any) -> str:
    """Where a class shows first, as the record that leads there is in fact: its moves
    written as a record of the scope (with its deal or decks), replayed under the first
    setting, and the position before the move (or the start) written as a start position;
    where the game's notation cannot write that position, the record that leads to it."""
    moves = shown.moves + ((shown.move,) if shown.move is not None else ())
    timeline = next(timelines(text_lines(scope.record(shown.start, moves)), "position"), None)
    state = None
    if timeline is not None and timeline.segments:
        steps = timeline.steps
        if shown.move is None:
            state = timeline.segments[0].start
        elif len(steps) >= len(moves):
            state = steps[len(moves) - 1].before
    written = scope.position(state, shown.moves) if state is not None else None
    return written if written is not None else scope.record(shown.start, shown.moves)


def _cited(c: Comparison, scope: Any, shown: Any) -> dict[str, list[str]]:
    """For an effect: the rules each setting's own account of the move (or of the start)
    names and no other setting's does (what set the effect off there)."""
    game = c.game
    if shown.move is None:
        accounts = [list(game.engine.set_off(s)) for s in shown.states]
    else:
        accounts = []
        for state in shown.states:
            got = outcome(game.engine, scope, state, shown.move)
            accounts.append(list(game.engine.effects(state, shown.move, got.after)) if got.verdict.kind == "legal" else
                            [got.verdict.rule] if got.verdict.rule else [])
    return {label: list(dict.fromkeys(r for r in ids if all(r not in other for other in accounts if other is not ids)))
            for label, ids in zip(c.labels, accounts)}


def _witness(c: Comparison, scope: Any, witness: Witness, out: Class) -> None:
    text = scope.record(witness.start, witness.moves, witness.ending)
    last = None if witness.ending is not None or not witness.moves else witness.length
    out.witness, out.length = text, witness.length
    verified = True
    for label, setting, verdict in zip(c.labels, c.settings, witness.verdicts):
        got = record_verdict(c.game, text, setting, last)
        out.verdicts[label] = got
        want = _expected(verdict, last)
        if got["valid"] != want["valid"] or got["rule"] != want["rule"] or (
                want["ply"] is not None and got["ply"] != want["ply"]):
            verified = False
    out.verified = verified


def attribute(c: Comparison, scope_of: Callable[[Sequence[Any]], Any], points: Mapping[str, tuple[str, ...]],
              found: Found) -> list[str]:
    """The points whose fields, copied from the second setting into the first, make the two
    rule alike where the class shows (two settings only): the record that leads there is
    played again under the changed setting, from the same start."""
    if c.pair:
        return []
    a, b = c.settings
    part = part_of(c.game)
    differ = part.differences(a, b)
    out = []
    for name, names in points.items():
        changed = tuple(n for n in names if n in differ)
        if changed and not _still_shows(c, scope_of((part.adopt(a, b, changed), b)), found):
            out.append(name)
    return out


def _still_shows(c: Comparison, scope: Any, found: Found) -> bool:
    shown = found.shown
    start = next((s for s in scope.starts() if s.info == shown.start.info), None)
    if start is None:
        return True  # the changed setting has no such start: it cannot say
    if shown.move is None:
        got = start_classes(c.rule, scope, start)
        return found.key in got if kind_of(found.key) == "effect" else any(kind_of(k) == "legality" for k in got)
    if start.rejected:
        return False
    states, extra = tuple(start.states), start.extra
    engine = c.game.engine
    for move in shown.moves:
        outcomes = [outcome(engine, scope, s, move) for s in states]
        if not all(o.verdict.goes_on for o in outcomes):
            return False
        states, extra = scope.advance(states, [o.after for o in outcomes], move, extra)
    outcomes = [outcome(engine, scope, s, shown.move) for s in states]
    return _shows(c.rule, scope, states, outcomes, found.key)


def _shows(rule: Rule, scope: Any, states: Sequence[Any], outcomes: Sequence[Outcome], key: str) -> bool:
    """Do the settings still disagree there as the class says: a legality class while the
    verdicts differ at all, an effect while that component parts?"""
    verdicts = [o.verdict for o in outcomes]
    if rule.differ(verdicts):
        return kind_of(key) == "legality"
    if not all(v.goes_on for v in verdicts):
        return False
    before = [scope.reading(s) for s in states]
    after = [Outcome(o.verdict, o.after, scope.reading(o.after)) for o in outcomes]
    return key in rule.classify(before, after)


# ------------------------------------------------------------------ running one


def has_part(game: Game) -> bool:
    """Does the game answer ``pitboss disputes``?"""
    return game.disputes is not None


def part_of(game: Game) -> Part[Any, Any]:
    """The game's ``disputes`` part. Raises LookupError when it has none."""
    if game.disputes is None:
        raise LookupError(T("{game} has no dispute scope", game=game.title))
    return game.disputes.get()


def parts(game: Game) -> list[str]:
    """The names of the parts of a game's dispute scope."""
    return list(part_of(game).PARTS)


def disputes(c: Comparison, depth: int | None = None, seconds: float | None = None,
             only: Sequence[str] | None = None, progress: Callable[[str, int, int], None] | None = None) -> Disputes:
    """The classes of ``c`` within its game's scope: each part of the scope (``only`` those
    named) searched in full (its records of at most its length, or ``depth`` moves when
    given; all parts within ``seconds`` together), a class written out from the first part
    that shows it. ``progress`` is told each part's name, each length and the positions."""
    from time import monotonic

    part = part_of(c.game)
    points = part.points(c.settings)
    classes: dict[str, Class] = {}
    described, searched, seconds_taken, complete = [], [], 0.0, True
    deadline = None if seconds is None else monotonic() + seconds
    for name, scope, length in part.scopes(c.settings):
        if only and name not in only:
            continue
        length = depth if depth is not None else length
        left = None if deadline is None else max(0.0, deadline - monotonic())
        told = None if progress is None else (lambda d, n, name=name: progress(name, d, n))
        result: Result = search(c.game.engine, scope, c.rule, length, seconds=left, progress=told)
        complete = complete and not result.cut_short
        described.append({"name": name, **scope.describe(), "depth": length})
        searched.append(result.searched)
        seconds_taken += result.seconds
        for key, found in result.classes.items():
            if key in classes and (classes[key].witness is not None or found.witness is None):
                continue
            if c.pair and found.witness is None:
                continue  # two options rule otherwise together only where a verdict shows it

            out = _class(c, scope, found)
            out.scope = name
            out.points = attribute(c, lambda s: _scope_like(scope, s), points, found) if points else []
            classes[key] = out
    ordered = [classes[k] for k in sorted(classes, key=lambda k: (kind_of(k) != "legality", k))]
    return Disputes(c, {"parts": described}, ordered, complete, searched, seconds_taken)


def _scope_like(scope: Any, settings: Sequence[Any]) -> Any:
    """A scope of the same kind as ``scope`` for other settings."""
    return type(scope)(settings)


__all__ = ["Class", "Comparison", "Disputes", "ILLEGAL", "disputes", "pair", "record_verdict", "two"]
