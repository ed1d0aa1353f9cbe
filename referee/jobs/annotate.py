"""``pitboss annotate``: each record written back with a comment on every move that matters.

A record is replayed once under its own setting (its ``Rules`` and ``Options`` tags) and
once under each setting it is compared with (``--rules``, or by default the game's
comparisons: Caravan the other rule set; Daifugo the other preset where it seats the
record's players and every single option toggled). Each setting's verdict on a move comes
from its own replay. A move is *disputed* when the replays stand in the same position
before it and rule it differently. Once replays part (one rejected an earlier move, or their
positions differ), a move is judged only under the settings that reach it in the same
position. Where a setting parts is said once: at the move that set it apart (disputed, or
``parts here``), or, where it parted without a move (the set-up rejected, a round started
in another position), on the round's first move (``parted at the start of round 2 |
classic +diamond3-start: [rule.id] ...``); the ``settings:`` line says each setting's first
failure. A comment names, beside the first setting judging the move, only the settings
that rule it otherwise. A toggled option is kept as a comparison only when it changes some
verdict.

A move gets a ``{ }`` comment when it is

* illegal under the first setting that reaches it (the record's own, while it lasts):
  ``illegal under holotape: [rule.id] sentence``, or for a counted submission
  ``rejected under uecda, counted as a pass: ...``;
* disputed: ``disputed | holotape: illegal [rule.id] sentence (source) | fnv: legal
  [rule.id] title (source)``;
* legal by a ruling rather than by the written rules (spec ``kind = "ruling"``):
  ``ruling: [rule.id] title (source)``;

and, with ``explain_all``, every legal move: ``allowed under holotape: [rule.id ...]``.
Findings that belong to no move (tags, the result, the finishing order) go in a
``record ...`` comment before the first move, with ``settings: ...`` (each setting's verdict
on the whole record, when they differ) and ``not compared: ...``.

The output is a valid record again; ``validate`` reads it back with the same verdicts.
Comments written by an earlier run of ``annotate`` are replaced, not repeated. A record
that cannot be read (a syntax error) is written back unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from referee import spec
from referee.engines.message import J, M, N, R, T, said
from referee.i18n import tr
from referee.jobs import registry
from referee.jobs.disputes.naming import Named, name_move, verdict
from referee.jobs.game import Comparison, Setting
from referee.jobs.registry import SomeGame
from referee.jobs.replay import allowed
from referee.jobs.report import GameReport
from referee.jobs.rulebook import anchor
from referee.jobs.segment import Step, unrejected
from referee.jobs.timeline import ContestLog, SomeTimeline, replayed, timelines
from referee.notation.records import Finding, open_text, text_lines

#: Comments written by this module start so (and are dropped when a record is annotated again).
OWN_COMMENT = re.compile(r"\s*(illegal under |rejected under |disputed \||parts here \||ruling: |allowed under "
                         r"|record (invalid|warning): |analysis: |settings: |not compared: |parted at the start)")


def is_own_comment(text: str) -> bool:
    """Was this comment written by annotate (it may have been wrapped over lines)?"""
    return OWN_COMMENT.match(" ".join(text.split())) is not None


@dataclass(frozen=True)
class Variant:
    """A setting a record is judged under: its label in comments (``fnv``,
    ``classic +eight-cut``), its rule set's name and the setting itself."""

    label: str
    preset: str
    rules: Setting
    #: Is this the record's own setting?
    own: bool = False


@dataclass(frozen=True)
class Verdict:
    legal: bool
    #: The rule broken (illegal) and its sentence.
    rule: str | None = None
    message: str | None = None
    #: The rules that decided a legal move (the engine's account: ``replay.allowed``).
    allowed: tuple[str, ...] = ()
    #: Illegal, and the rules counted it as a pass.
    rejected: bool = False

    @property
    def kind(self) -> str:
        return "legal" if self.legal else "rejected" if self.rejected else "illegal"

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "rejected": self.rejected, "rule": self.rule, "message": self.message,
                "allowed": list(self.allowed)}


@dataclass
class Judged:
    """One setting's replay of the record."""

    variant: Variant
    timeline: SomeTimeline
    #: Kept only when it changes some verdict (a single option toggled).
    toggle_only: bool = False
    steps: dict[int, Step[object, object]] = field(default_factory=dict)

    @property
    def report(self) -> GameReport:
        return self.timeline.report

    def first_failure(self) -> Finding | None:
        return self.report.errors[0] if self.report.errors else None

    def summary(self) -> str:
        """The setting's verdict on the whole record, in words."""
        f = self.first_failure()
        label = self.variant.label
        if f is None:
            return T("{label} valid", label=label)
        if f.ply is None:
            if f.round is not None:
                return T("{label} rejects the record's set-up in round {round} [{rule}]", label=label, round=f.round,
                         rule=f.rule)
            return T("{label} rejects the record's set-up [{rule}]", label=label, rule=f.rule)
        return T("{label} first fails at {ply} [{rule}]", label=label, ply=_ply(f), rule=f.rule)

    def to_json(self) -> dict[str, Any]:
        f = self.first_failure()
        return {"rules": self.variant.label, "own": self.variant.own, "valid": f is None,
                "first_failure": None if f is None else {"round": f.round, "ply": f.ply, "rule": f.rule,
                                                         "message": f.message},
                "summary": self.summary()}


def _ply(f: Finding) -> T:
    return T("round {round}, ply {ply}", round=f.round, ply=f.ply) if f.round is not None else T("ply {ply}", ply=f.ply)


@dataclass
class MoveNote:
    #: The move as the first setting that reached it met it (the record's own while it lasts).
    step: Step[object, object]
    #: Each setting's verdict, for the settings that reach the move in the same position.
    verdicts: dict[str, Verdict]
    disputed: bool
    rulings: list[str]
    comments: list[str] = field(default_factory=list)
    #: Settings not judging this move, and why (``already failed at ply 3 [rule]``).
    apart: dict[str, str] = field(default_factory=dict)
    #: Legal under the settings judging it, but they stand in different positions after it
    #: (it set off a rule some of them have: an 8 that ends the trick): they part here.
    parts: bool = False
    #: Where each setting judging the move stands after it (the game's position key).
    afters: dict[str, Hashable] = field(default_factory=dict)
    #: Settings that parted from the first judge before this move without a move of theirs
    #: (a set-up rejected, a round started otherwise), said here once: label -> the rules.
    parted: dict[str, list[str]] = field(default_factory=dict)
    #: The classes of dispute the move shows (as ``pitboss disputes`` names them), each
    #: with where the game's atlas shows it.
    classes: list[Named] = field(default_factory=list)

    @property
    def own(self) -> Verdict:
        return next(iter(self.verdicts.values()))

    def to_json(self) -> dict[str, Any]:
        step = self.step
        return {
            **step.to_json(),
            "index": step.index + 1,
            "rule": step.violation.rule if step.violation else None,
            "message": step.violation.message if step.violation else None,
            "disputed": self.disputed,
            "rulings": self.rulings,
            "verdicts": {label: v.to_json() for label, v in self.verdicts.items()},
            "apart": self.apart,
            "parts": self.parts,
            "parted": self.parted,
            "classes": [c.to_json() for c in self.classes],
            "comments": self.comments,
            "rulebook": self.rulebook(),
        }

    def rulebook(self) -> dict[str, str]:
        """Each rule the notes cite, and its place in the rulebook (``pitboss rules``)."""
        ids = [self.step.violation.rule] if self.step.violation else []
        ids += [v.rule for v in self.verdicts.values() if v.rule] + list(self.rulings)
        catalog = spec.catalog()
        return {r: anchor(r) for r in dict.fromkeys(ids) if r in catalog}


@dataclass
class Annotated:
    timeline: SomeTimeline
    variants: list[Variant]
    notes: list[MoveNote]
    #: The record written back, annotated.
    text: str
    #: Why the record was written back unchanged (unreadable, unknown game), or None.
    unchanged: str | None = None
    #: Each setting's replay, the record's own first.
    judged: list[Judged] = field(default_factory=list)
    #: Settings of the game that are not compared, and why.
    not_compared: list[str] = field(default_factory=list)
    #: The comments written before the first move (record findings, settings).
    record_comments: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        report = self.timeline.report
        return {
            "file": report.file,
            "index": report.index,
            "game": report.game,
            "rules": report.rules,
            "valid": report.valid,
            "variants": [v.label for v in self.variants],
            "settings": [j.to_json() for j in self.judged],
            "not_compared": self.not_compared,
            "errors": [f.to_json() for f in report.errors],
            "warnings": [f.to_json() for f in report.warnings],
            "unchanged": self.unchanged,
            "moves": [n.to_json() for n in self.notes],
            "disputed": sum(1 for n in self.notes if n.disputed),
            "illegal": sum(1 for n in self.notes if not n.step.legal),
            "ruling_dependent": sum(1 for n in self.notes if n.rulings),
            "text": self.text,
        }


# ------------------------------------------------------------------ the settings compared


def parse_wanted(wanted: Sequence[str]) -> list[str]:
    """The settings of ``--rules`` (repeated, or comma-separated), each checked to be a
    setting of some game: raises ValueError saying what each game accepts."""
    texts = [w.strip() for item in wanted for w in item.split(",") if w.strip()]
    for text in texts:
        errors = []
        for game in registry.games():
            try:
                game.settings.get().parse(text)
                break
            except ValueError as err:
                errors.append(T("{game}: {error}", game=game.title, error=said(err)))
        else:
            raise ValueError(T("unknown setting {text} ({errors})", text=repr(text), errors=J("; ", errors)))
    return texts



def _comparisons(game: SomeGame, own: Setting, timeline: SomeTimeline,
                 wanted: Sequence[str], compare_all: bool = False) -> list[Comparison[Setting]]:
    settings = game.settings.get()
    if not wanted:
        return [c for c in settings.comparisons(own, timeline.record) if compare_all or not c.only_all]
    out: list[Comparison[Setting]] = []
    for text in wanted:
        try:
            out.append(Comparison(settings.parse(text)))
        except ValueError:
            continue  # a setting of another game
    return out


def _own_setting(game: SomeGame, timeline: SomeTimeline) -> Setting | None:
    settings = game.settings.get()
    if timeline.setting is not None:
        return timeline.setting
    if timeline.segments:
        found: Setting = settings.of(timeline.segments[0].start)
        return found
    declared: Setting | None = settings.declared(timeline.record)
    return declared


# ------------------------------------------------------------------ judging


def _verdict(game: SomeGame, step: Step[object, object]) -> Verdict:
    v = step.violation
    if v is not None:
        message = unrejected(v.message)
        return Verdict(False, v.rule, message, rejected=step.rejected)
    assert step.after is not None  # a legal move leads somewhere
    return Verdict(True, allowed=tuple(dict.fromkeys(allowed(game.engine, step.before, step.entry.move, step.after))))


def _rulings(verdict: Verdict) -> list[str]:
    catalog = spec.catalog()
    ids = list(verdict.allowed) if verdict.legal else [verdict.rule or ""]
    return [r for r in ids if r in catalog and catalog[r].kind == "ruling"]


def _judge_moves(game: SomeGame, judged: list[Judged]) -> list[MoveNote]:
    """Every move some replay reached: judged under the settings that reach it in the same
    position as the first of them that reaches it."""
    key = game.settings.get().position_key
    parted: dict[tuple[str, str], str] = {}
    notes = []
    indices = sorted({i for j in judged for i in j.steps})
    for i in indices:
        reached = [(j, j.steps[i]) for j in judged if i in j.steps]
        ref, ref_step = reached[0]
        ref_key = key(ref_step.before)
        verdicts: dict[str, Verdict] = {}
        apart: dict[str, str] = {}
        for j in judged:
            label = j.variant.label
            step = j.steps.get(i)
            if step is not None and key(step.before) == ref_key:
                verdicts[label] = _verdict(game, step)
            elif step is not None:
                since = parted.setdefault((label, ref.variant.label), _step_ply(ref_step))
                apart[label] = T("{label} is in another position than {other} (since {since})", label=label,
                                 other=ref.variant.label, since=since)
            else:
                f = j.first_failure()
                apart[label] = (T("{label} already failed at {ply} [{rule}]", label=label, ply=_ply(f), rule=f.rule)
                                if f is not None and f.ply
                                else T("{label} rejects the record's set-up [{rule}]", label=label, rule=f.rule)
                                if f is not None
                                else T("{label} never reached this move", label=label))
        kinds = {v.kind for v in verdicts.values()}
        afters = {j.variant.label: key(after) for j in judged
                  if j.variant.label in verdicts and (after := j.steps[i].after) is not None}
        note = MoveNote(ref_step, verdicts, len(kinds) > 1, _rulings(verdicts[ref.variant.label]), apart=apart,
                        parts=len(kinds) == 1 and len(set(afters.values())) > 1, afters=afters)
        notes.append(note)
    return notes


def _step_ply(step: Step[object, object]) -> T:
    if step.round is not None:
        return T("round {round}, ply {ply}", round=step.round, ply=step.ply)
    return T("ply {ply}", ply=step.ply)


def _changes_something(j: Judged, own: Judged, notes: Sequence[MoveNote]) -> bool:
    """Does this setting rule some move, or the record's set-up, otherwise than the record's own?"""
    label, own_label = j.variant.label, own.variant.label
    for note in notes:
        mine, theirs = note.verdicts.get(label), note.verdicts.get(own_label)
        if mine is not None and theirs is not None and mine.kind != theirs.kind:
            return True
    outcome = lambda f: None if f is None else (f.round, f.ply, f.rule)  # noqa: E731
    return outcome(j.first_failure()) != outcome(own.first_failure())


def _without(notes: list[MoveNote], dropped: set[str]) -> list[MoveNote]:
    out = []
    for note in notes:
        verdicts = {k: v for k, v in note.verdicts.items() if k not in dropped}
        if not verdicts:
            continue
        apart = {k: v for k, v in note.apart.items() if k not in dropped}
        afters = {k: v for k, v in note.afters.items() if k not in dropped}
        disputed = len({v.kind for v in verdicts.values()}) > 1
        out.append(MoveNote(note.step, verdicts, disputed, note.rulings, apart=apart,
                            parts=not disputed and len(set(afters.values())) > 1, afters=afters))
    return out


def _start_of(j: Judged, index: int) -> object | None:
    """The position the segment holding move ``index`` starts from, in ``j``'s replay."""
    return next((seg.start for seg in j.timeline.segments if any(s.index == index for s in seg.steps)), None)


def _partings(game: SomeGame, judged: Sequence[Judged], notes: Sequence[MoveNote]) -> None:
    """Fill each note's ``parted``: the settings that stop judging along with the first
    judge at that move without a move showing why (the set-up rejected, a round started in
    another position: another leader, another exchange), each with the rules that set it
    apart. A setting that failed at a move, or parted by one, was shown there; none is
    told twice while it stays apart."""
    by_label = {j.variant.label: j for j in judged}
    told: set[str] = set()
    previous: MoveNote | None = None
    for note in notes:
        told -= set(note.verdicts)
        ref = by_label[next(iter(note.verdicts))]
        for label in note.apart:
            if label in told:
                continue
            told.add(label)
            j = by_label[label]
            if j.steps.get(note.step.index) is None:
                f = j.first_failure()
                if f is not None and not f.ply:
                    note.parted[label] = [f.rule]
                continue
            if previous is not None and label in previous.verdicts and previous.step.round == note.step.round:
                continue  # parted by the move before: that move's comment says how
            theirs, mine = _start_of(j, note.step.index), _start_of(ref, note.step.index)
            rules = list(game.engine.set_off(theirs)) if theirs is not None else []
            own = list(game.engine.set_off(mine)) if mine is not None else []
            note.parted[label] = [r for r in rules if r not in own] + [r for r in own if r not in rules]
        previous = note


def _parted_comment(note: MoveNote) -> str:
    parts = [T("{label}: {rules}", label=label, rules=J("; ", (_cite(r) for r in rules))) if rules
             else T("{label}: in another position", label=label) for label, rules in note.parted.items()]
    head = (T("parted at the start of round {round}", round=note.step.round) if note.step.round is not None
            else T("parted at the start"))
    return J(" | ", [head, *parts])


# ------------------------------------------------------------------ comments


def _ids(ids: Iterable[str]) -> str:
    return "[" + " ".join(ids) + "]"


def _cite(rule_id: str) -> str:
    """A rule as a comment names it: its id, its title and the clause it rests on."""
    rule = spec.catalog().get(rule_id)
    if rule is None:
        return f"[{rule_id}]"
    return T("[{rule}] {title} ({source})", rule=rule_id, title=R(rule_id, rule.title), source=rule.source)


def _distinctive(game: SomeGame, rule_id: str, variant: Variant, variants: Sequence[Variant]) -> bool:
    """Does ``rule_id`` belong to ``variant`` and not to every other variant (a rule-set
    rule, or one brought in by an option the variants set differently)?"""
    rule = spec.catalog().get(rule_id)
    if rule is None:
        return False
    others = [v for v in variants if v is not variant]
    if any(not rule.applies_to(v.preset) for v in others):
        return True
    option = game.settings.get().option
    return any(option(variant.rules, name) != option(v.rules, name) for v in others for name in rule.options)


def _differing(note: MoveNote, variants: Sequence[Variant]) -> list[Variant]:
    """The first setting judging a move, and those that rule it otherwise (another verdict,
    or the same verdict and another position after it): the settings that agree with the
    first are not repeated."""
    judging = [v for v in variants if v.label in note.verdicts]
    first = judging[0]
    mine = note.verdicts[first.label]
    out = [first]
    for v in judging[1:]:
        theirs = note.verdicts[v.label]
        if (theirs.kind, theirs.rule) != (mine.kind, mine.rule) or (
                v.label in note.afters and note.afters[v.label] != note.afters.get(first.label)):
            out.append(v)
    return out


def _disputed_comment(game: SomeGame, note: MoveNote, variants: Sequence[Variant], head: str = M("disputed")) -> str:
    """The verdicts of the settings on a move (``head``: ``disputed``, or ``parts here``),
    the first judge's and those of the settings that rule otherwise."""
    judging = _differing(note, variants)
    broken = {v.rule for v in note.verdicts.values() if not v.legal}
    parts: list[str] = [T(head)]
    catalog = spec.catalog()
    for variant in judging:
        verdict = note.verdicts[variant.label]
        if not verdict.legal:
            rule = catalog.get(verdict.rule or "")
            state = T("rejected, counted as a pass") if verdict.rejected else T("illegal")
            # The first judge's verdict is spelled out in its own comment just before.
            said = variant is judging[0]
            sentence = ((R(rule.id, rule.title) if rule is not None else "") if said
                        else verdict.message or "")
            if rule is not None:
                parts.append(T("{label}: {state} [{rule}] {sentence} ({source})", label=variant.label, state=state,
                               rule=verdict.rule, sentence=sentence, source=rule.source))
            else:
                parts.append(T("{label}: {state} [{rule}] {sentence}", label=variant.label, state=state,
                               rule=verdict.rule, sentence=sentence))
            continue
        ids = [r for r in verdict.allowed if r in broken]
        ids += [r for r in verdict.allowed if r not in broken and _distinctive(game, r, variant, judging)]
        absent = [r for r in sorted(x for x in broken if x) if r not in verdict.allowed
                  and not _applies(catalog.get(r), variant.preset)]
        # Settings differ in what a move set off or broke: only that is worth naming.
        shown = ids
        text = (T("{label}: legal {rules}", label=variant.label, rules=J("; ", (_cite(r) for r in shown))) if shown
                else T("{label}: legal", label=variant.label))
        if absent:
            text = T("{verdict} (no such rule in {label}: {rules})", verdict=text, label=variant.label,
                     rules=", ".join(absent))
        parts.append(text)
    parts += [_class_text(c) for c in note.classes]
    return J(" | ", parts)


def _class_text(named: Named) -> str:
    """A class of dispute as a comment names it, and where the atlas shows its shortest game."""
    shown = named.shown
    if shown is None:
        return T("class {key}", key=named.key)
    if shown.witness is None:
        return T("class {key} (atlas: {settings})", key=named.key, settings=" / ".join(shown.labels))
    return N("class {key} (atlas: {settings}, shortest game {n} move)",
             "class {key} (atlas: {settings}, shortest game {n} moves)", shown.witness, key=named.key,
             settings=" / ".join(shown.labels))


def _name_classes(game: SomeGame, judged: Sequence[Judged], notes: Sequence[MoveNote]) -> None:
    """Fill the ``classes`` of each disputed move, and of each move after which positions part."""
    by_label = {j.variant.label: j for j in judged}
    variants = [j.variant for j in judged]
    for note in notes:
        if not (note.disputed or note.parts):
            continue
        sides = []
        for v in _differing(note, variants):
            step, said = by_label[v.label].steps[note.step.index], note.verdicts[v.label]
            sides.append((v.label, v.rules, step.before, step.after,
                          verdict(said.legal, said.rule, said.rejected)))
        note.classes = name_move(game, sides)


def _applies(rule: spec.Rule | None, rule_set: str) -> bool:
    return rule is not None and rule.applies_to(rule_set)


def comments_for(game: SomeGame, note: MoveNote, variants: Sequence[Variant], explain_all: bool) -> list[str]:
    """A move's comments. Where settings parted before it is said once, where they part
    (the ``settings:`` line, a disputed move, ``parts here``, ``parted at the start``)."""
    step = note.step
    ref = next(v for v in variants if v.label in note.verdicts)
    out: list[str] = []
    verdict = note.verdicts[ref.label]
    if note.parted:
        out.append(_parted_comment(note))
    if not verdict.legal:
        if verdict.rejected:
            comment = T("rejected under {label}, counted as a pass: [{rule}] {message}", label=ref.label,
                        rule=verdict.rule, message=verdict.message)
        else:
            comment = T("illegal under {label}: [{rule}] {message}", label=ref.label, rule=verdict.rule,
                        message=verdict.message)
        out.append(comment)
    if note.disputed:
        out.append(_disputed_comment(game, note, variants))
    elif note.parts:
        out.append(_disputed_comment(game, note, variants, M("parts here")))
    if note.rulings:
        out.append(T("ruling: {rules}", rules=J("; ", (_cite(r) for r in note.rulings))))
    if explain_all and step.legal and ref.own:
        out.append(T("allowed under {label}: {rules}", label=ref.label, rules=_ids(verdict.allowed)))
    return out


# ------------------------------------------------------------------ the record


def _record_comments(timeline: SomeTimeline) -> list[str]:
    """Findings that belong to no move: tags, the deal, the result, the finishing order."""
    out: list[str] = []
    report = timeline.report
    for f in report.errors:
        if f.ply is None:
            out.append(T("record invalid: [{rule}] round {round}: {message}", rule=f.rule, round=f.round,
                         message=f.message) if f.round is not None else
                       T("record invalid: [{rule}] {message}", rule=f.rule, message=f.message))
    for f in report.warnings:
        if f.ply is None:
            out.append(T("record warning: [{rule}] round {round}: {message}", rule=f.rule, round=f.round,
                         message=f.message) if f.round is not None else
                       T("record warning: [{rule}] {message}", rule=f.rule, message=f.message))
    return out


def _settings_comments(judged: Sequence[Judged], not_compared: Sequence[str]) -> list[str]:
    out: list[str] = []
    outcomes = {None if f is None else (f.round, f.ply, f.rule) for f in (j.first_failure() for j in judged)}
    if len(outcomes) > 1:
        out.append(T("settings: {verdicts}", verdicts=J(" | ", (j.summary() for j in judged))))
    if not_compared:
        out.append(T("not compared: {settings}", settings=J("; ", not_compared)))
    return out


def annotate_timeline(timeline: SomeTimeline, wanted: Sequence[str] = (), explain_all: bool = False,
                      compare_all: bool = False) -> Annotated:
    """The record of ``timeline`` annotated: compared with the settings ``wanted`` (texts
    as ``--rules`` takes them), or by default with the game's comparisons (``compare_all``:
    also those it compares only when all are asked for)."""
    game = timeline.kind
    if game is None:
        return Annotated(timeline, [], [], timeline.chunk.text, T("the game is unknown"))
    if not timeline.readable:
        errors = timeline.record.errors if timeline.record is not None else timeline.report.errors
        first = errors[0] if errors else None
        why = (T("it cannot be read as written ([{rule}] {message})", rule=first.rule, message=first.message)
               if first else T("it cannot be read"))
        return Annotated(timeline, [], [], timeline.chunk.text, why)
    settings = game.settings.get()
    own_setting = _own_setting(game, timeline)
    judged: list[Judged] = []
    not_compared: list[str] = []
    if own_setting is not None:
        own = Variant(settings.label(own_setting), own_setting.name, own_setting, own=True)
        judged.append(Judged(own, timeline))
        seen = {own_setting}
        report = timeline.report
        for comparison in _comparisons(game, own_setting, timeline, wanted, compare_all):
            if comparison.setting is None:
                not_compared.append(comparison.why_not or "")
                continue
            if comparison.setting in seen:
                continue
            seen.add(comparison.setting)
            record = game.notation.read(timeline.chunk, report.file, report.index)
            other = replayed(game, timeline.chunk, record, comparison.setting)
            setting = comparison.setting
            judged.append(Judged(Variant(settings.label(setting), setting.name, setting), other,
                                 comparison.toggle_only))
    for j in judged:
        j.steps = {s.index: s for seg in j.timeline.segments for s in seg.steps}
    notes = _judge_moves(game, judged)
    dropped = {j.variant.label for j in judged[1:] if j.toggle_only and not _changes_something(j, judged[0], notes)}
    if dropped:
        judged = [j for j in judged if j.variant.label not in dropped]
        notes = _without(notes, dropped)
    variants = [j.variant for j in judged]
    _partings(game, judged, notes)
    _name_classes(game, judged, notes)
    by_index: dict[int, list[str]] = {}
    for note in notes:
        note.comments = comments_for(game, note, variants, explain_all)
        if note.comments:
            by_index.setdefault(note.step.index, []).extend(note.comments)
    record_comments = _record_comments(timeline) + _settings_comments(judged, not_compared)
    # The comments go into the record in the language spoken; the JSON keeps them as messages.
    text = written(timeline, {i: [tr(c) for c in cs] for i, cs in by_index.items()}, [tr(c) for c in record_comments])
    return Annotated(timeline, variants, notes, text, judged=judged, not_compared=not_compared,
                     record_comments=record_comments)


def written(timeline: SomeTimeline, comments: dict[int, list[str]], record_comments: list[str]) -> str:
    """A readable record written back by its game's notation, with these comments."""
    game = timeline.kind
    assert game is not None and timeline.record is not None
    return game.notation.write(timeline.record, timeline.chunk, comments, record_comments)


def annotate_lines(lines: Iterable[str], file: str, wanted: Sequence[str] = (),
                   explain_all: bool = False, compare_all: bool = False) -> Iterator[Annotated]:
    for timeline in timelines(lines, file):
        yield annotate_timeline(timeline, wanted, explain_all, compare_all)


def annotate_text(text: str, file: str = "<text>", wanted: Sequence[str] = (),
                  explain_all: bool = False, compare_all: bool = False) -> list[Annotated]:
    return list(annotate_lines(text_lines(text), file, wanted, explain_all, compare_all))


def joined(records: Iterable[Annotated]) -> str:
    """The annotated records as one file: records separated by a blank line."""
    parts = [a.text.rstrip("\n") + "\n" for a in records]
    return "\n".join(parts)


#: A file annotate cannot write back (a contest log).
NotAnnotatable = ContestLog


def annotate_file(path: str, wanted: Sequence[str] = (), explain_all: bool = False,
                  stdin: TextIO | None = None, compare_all: bool = False) -> Iterator[Annotated]:
    """Every record of a file (``-``: standard input), annotated. Raises OSError when the
    file cannot be read and ContestLog for a whole-file format."""
    name = "<stdin>" if path == "-" else path
    handle = open_text(path, stdin)
    try:
        yield from annotate_lines(handle, name, wanted, explain_all, compare_all)
    finally:
        if path != "-":
            handle.close()
