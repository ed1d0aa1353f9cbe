"""``pitboss annotate``: each record written back with a comment on every move that matters.

Every move a record's replay reaches is judged in the position the record's own rules led
to, under each rule set of the game (Caravan: holotape and fnv; Daifugo: seed and uecda,
and the record's rules with each of its options toggled). A move gets a ``{ }`` comment
when it is

* illegal under the record's rules: ``illegal under holotape: [rule.id] sentence``
  (``rejected under uecda, counted as a pass: ...`` for a contest server's rejection);
* disputed, its verdict differing between rule sets:
  ``disputed | holotape: illegal [rule.id] sentence | fnv: legal [rule.id ...]``;
* legal by a ruling rather than by the written rules (spec ``kind = "ruling"``):
  ``ruling: [rule.id] title (source)``;

and, with ``explain_all``, every legal move: ``allowed under holotape: [rule.id ...]``.
Findings that belong to no move (tags, the result, the finishing order) go in a
``record ...`` comment before the first move.

The output is a valid record again: canonical notation, the record's own comments kept
where they stood, annotation glyphs kept, and no comment that could change a verdict;
``validate`` reads it back with the same verdicts. Comments written by an earlier run of
``annotate`` (they start with the words above) are replaced, not repeated. A record that
cannot be read (a syntax error) is written back unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from referee import spec
from referee.games.caravan import engine as cv
from referee.games.caravan.notation import cvn
from referee.jobs.timeline import ContestLog, Step, Timeline, timelines
from referee.notation.comments import Comment, Placed, place_comments, scan_comments
from referee.notation.records import Finding, open_text

#: Comments written by this module start so (and are dropped when a record is annotated again).
OWN_COMMENT = re.compile(r"\s*(illegal under |rejected under |disputed \||ruling: |allowed under |record (invalid|warning): |analysis: )")


def is_own_comment(text: str) -> bool:
    """Was this comment written by annotate (it may have been wrapped over lines)?"""
    return OWN_COMMENT.match(" ".join(text.split())) is not None


@dataclass(frozen=True)
class Variant:
    """A rule set a move is judged under: its label in comments (``fnv``,
    ``seed +eight-cut``), its preset's name and the engine's rule set."""

    label: str
    preset: str
    rules: Any
    #: Is this the record's own rule set?
    own: bool = False


@dataclass(frozen=True)
class Verdict:
    legal: bool
    #: The rule broken (illegal) and its sentence.
    rule: str | None = None
    message: str | None = None
    #: The rules that decided a legal move (Caravan: ``engine.explain``; Daifugo: the
    #: rules the play relied on and those it set off).
    allowed: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"legal": self.legal, "rule": self.rule, "message": self.message, "allowed": list(self.allowed)}


@dataclass
class MoveNote:
    step: Step
    verdicts: dict[str, Verdict]
    disputed: bool
    rulings: list[str]
    comments: list[str] = field(default_factory=list)

    @property
    def own(self) -> Verdict:
        return next(iter(self.verdicts.values()))

    def to_json(self) -> dict:
        step = self.step
        return {
            **step.to_json(),
            "index": step.index + 1,
            "rule": step.violation.rule if step.violation else None,
            "message": step.violation.message if step.violation else None,
            "disputed": self.disputed,
            "rulings": self.rulings,
            "verdicts": {label: v.to_json() for label, v in self.verdicts.items()},
            "comments": self.comments,
            "rulebook": self.rulebook(),
        }

    def rulebook(self) -> dict[str, str]:
        """Each rule the notes cite, and its place in the rulebook (``pitboss rules``)."""
        from referee.jobs.rulebook import anchor

        ids = [self.step.violation.rule] if self.step.violation else []
        ids += [v.rule for v in self.verdicts.values() if v.rule] + list(self.rulings)
        catalog = spec.catalog()
        return {r: anchor(r) for r in dict.fromkeys(ids) if r in catalog}


@dataclass
class Annotated:
    timeline: Timeline
    variants: list[Variant]
    notes: list[MoveNote]
    #: The record written back, annotated.
    text: str
    #: Why the record was written back unchanged (unreadable, unknown game), or None.
    unchanged: str | None = None

    def to_json(self) -> dict:
        report = self.timeline.report
        return {
            "file": report.file,
            "index": report.index,
            "game": report.game,
            "rules": report.rules,
            "valid": report.valid,
            "variants": [v.label for v in self.variants],
            "errors": [f.to_json() for f in report.errors],
            "warnings": [f.to_json() for f in report.warnings],
            "unchanged": self.unchanged,
            "moves": [n.to_json() for n in self.notes],
            "disputed": sum(1 for n in self.notes if n.disputed),
            "illegal": sum(1 for n in self.notes if not n.step.legal),
            "ruling_dependent": sum(1 for n in self.notes if n.rulings),
            "text": self.text,
        }


# ------------------------------------------------------------------ per game


@dataclass(frozen=True)
class GameSupport:
    """What annotating needs of a game: its rule-set names, the variants to compare for a
    record, a judge, and a writer."""

    presets: tuple[str, ...]
    variants: Callable[[Timeline, Sequence[str]], list[Variant]]
    judge: Callable[[Any, Any, Any], Verdict]
    #: (timeline, comments by move index, record-level comments) -> the record's text, with
    #: the source's own comments kept (those ``is_own_comment`` does not claim).
    write: Callable[["Timeline", dict[int, list[str]], list[str]], str]
    #: Does the option named by a rule's ``options`` differ between two variants' rules?
    option_differs: Callable[[Any, Any, str], bool] = lambda a, b, name: False


def _caravan_variants(timeline: Timeline, wanted: Sequence[str]) -> list[Variant]:
    own = timeline.segments[0].start.rules
    out = [Variant(own.name, own.name, own, own=True)]
    for name, rules in cv.RULESETS.items():
        if name != own.name and (not wanted or name in wanted):
            out.append(Variant(name, name, rules))
    return out


def _caravan_judge(state: cv.State, move: cv.Move, rules: cv.RuleSet) -> Verdict:
    s = state if state.rules is rules else state._replace(rules=rules)
    v = cv.check(s, move)
    if v is not None:
        return Verdict(False, v.rule, v.message)
    return Verdict(True, allowed=tuple(dict.fromkeys(cv.explain(s, move))))


def _caravan_write(timeline: Timeline, comments: dict[int, list[str]], record_comments: list[str]) -> str:
    placed = _placed_comments(timeline)
    record = timeline.record
    assert isinstance(record, cvn.CaravanRecord)
    tags = {name: tag.value for name, tag in record.tags.items()}
    result = record.result_token[0] if record.result_token else None
    if result is None and tags.get("Result", "*") not in cvn.RESULTS:
        result = "*"
    merged: dict[int, list[str]] = {}
    if record_comments:
        merged[-1] = list(record_comments)
    for i, found in placed.after.items():
        merged.setdefault(i, []).extend(c.text for c in found)
    for i, texts in comments.items():
        merged.setdefault(i, []).extend(texts)
    glyphs = {i: e.glyphs for i, e in enumerate(record.moves) if e.glyphs}
    body = cvn.write_caravan(tags, [e.move for e in record.moves], result, comments=merged, glyphs=glyphs)
    return _assemble(body, placed)


GAMES: dict[str, GameSupport] = {
    "caravan": GameSupport(tuple(cv.RULESETS), _caravan_variants, _caravan_judge, _caravan_write),
}


def support(game: str | None) -> GameSupport | None:
    """What annotating needs of a game (by its Game tag, lower case), or None."""
    if game == "daifugo" and game not in GAMES:
        from referee.games.daifugo.annotate import SUPPORT

        GAMES["daifugo"] = SUPPORT
    return GAMES.get(game or "")


def rule_sets() -> dict[str, tuple[str, ...]]:
    """Each game's rule-set names (what ``--rules`` accepts)."""
    return {game: support(game).presets for game in ("caravan", "daifugo")}  # type: ignore[union-attr]


# ------------------------------------------------------------------ judging


def judge_step(timeline: Timeline, step: Step, variants: Sequence[Variant]) -> MoveNote:
    """A move judged under every variant, in the position the record's own rules led to."""
    game = support(timeline.game)
    assert game is not None
    verdicts: dict[str, Verdict] = {}
    for variant in variants:
        if variant.own and step.violation is not None:
            verdicts[variant.label] = Verdict(False, step.violation.rule, step.violation.message)
        else:
            verdicts[variant.label] = game.judge(step.before, step.entry.move, variant.rules)
    own = verdicts[variants[0].label]
    disputed = len({v.legal for v in verdicts.values()}) > 1
    catalog = spec.catalog()
    if own.legal:
        rulings = [r for r in own.allowed if r in catalog and catalog[r].kind == "ruling"]
    else:
        rulings = [own.rule] if own.rule in catalog and catalog[own.rule].kind == "ruling" else []
    return MoveNote(step, verdicts, disputed, rulings)


def _ids(ids: Iterable[str]) -> str:
    return "[" + " ".join(ids) + "]"


def _distinctive(kind: GameSupport, rule_id: str, variant: Variant, variants: Sequence[Variant]) -> bool:
    """Does ``rule_id`` belong to ``variant`` and not to every other variant (a rule-set
    rule, or one brought in by an option the variants set differently)?"""
    rule = spec.catalog().get(rule_id)
    if rule is None:
        return False
    others = [v for v in variants if v is not variant]
    if any(v.preset not in rule.rulesets for v in others):
        return True
    return any(kind.option_differs(variant.rules, v.rules, name) for v in others for name in rule.options)


def _disputed_comment(kind: GameSupport, note: MoveNote, variants: Sequence[Variant]) -> str:
    broken = {v.rule for v in note.verdicts.values() if not v.legal}
    parts = ["disputed"]
    for variant in variants:
        verdict = note.verdicts[variant.label]
        if not verdict.legal:
            # The record's own verdict is spelled out in the "illegal" comment already.
            said = variant.own and note.step.violation is not None
            parts.append(f"{variant.label}: illegal [{verdict.rule}]" + ("" if said else f" {verdict.message}"))
            continue
        ids = [r for r in verdict.allowed if r in broken]
        ids += [r for r in verdict.allowed if r not in broken and _distinctive(kind, r, variant, variants)]
        absent = [r for r in sorted(broken) if r not in verdict.allowed
                  and variant.preset not in spec.catalog().get(r, _NO_RULE).rulesets]
        text = f"{variant.label}: legal"
        if ids:
            text += f" {_ids(ids)}"
        if absent:
            text += f" (no such rule in {variant.label}: {', '.join(absent)})"
        if not ids and not absent:
            text += f" {_ids(verdict.allowed)}"
        parts.append(text)
    return " | ".join(parts)


class _NoRule:
    rulesets: tuple[str, ...] = ()


_NO_RULE = _NoRule()


def comments_for(note: MoveNote, variants: Sequence[Variant], kind: GameSupport,
                 explain_all: bool) -> list[str]:
    step = note.step
    own = variants[0]
    out: list[str] = []
    if step.violation is not None:
        v = step.violation
        if step.rejected:
            out.append(f"rejected under {own.label}, counted as a pass: [{v.rule}] {_strip_rejected(v.message)}")
        else:
            out.append(f"illegal under {own.label}: [{v.rule}] {v.message}")
    if note.disputed:
        out.append(_disputed_comment(kind, note, variants))
    if note.rulings:
        catalog = spec.catalog()
        out.append("ruling: " + "; ".join(f"[{r}] {catalog[r].title} ({catalog[r].source})" for r in note.rulings))
    if explain_all and step.legal:
        out.append(f"allowed under {own.label}: {_ids(note.own.allowed)}")
    return out


def _strip_rejected(message: str) -> str:
    prefix = "rejected, counted as a pass: "
    return message[len(prefix):] if message.startswith(prefix) else message


# ------------------------------------------------------------------ writing


def _assemble(body: str, placed: Placed) -> str:
    """The writer's record with the comments that stood before the tags, in the tag
    section and after the result put back in their places."""
    tags_part, sep, movetext = body.partition("\n\n")
    lines: list[str] = [c.source() for c in placed.before]
    lines.append(tags_part)
    lines.extend(c.source() for c in placed.head)
    text = "\n".join(lines) + "\n\n" + movetext
    if placed.trailing:
        text += "\n".join(c.source() for c in placed.trailing) + "\n"
    return text


def _record_comments(timeline: Timeline) -> list[str]:
    """Findings that belong to no move: tags, the deal, the result, the finishing order."""
    out = []
    report = timeline.report
    for f in report.errors:
        if f.ply is None:
            out.append(f"record invalid: [{f.rule}] {_where(f)}{f.message}")
    for f in report.warnings:
        if f.ply is None:
            out.append(f"record warning: [{f.rule}] {_where(f)}{f.message}")
    return out


def _where(f: Finding) -> str:
    return f"round {f.round}: " if f.round is not None else ""


def _placed_comments(timeline: Timeline) -> Placed:
    comments, first_tag = scan_comments(timeline.chunk.text, timeline.chunk.line)
    kept: list[Comment] = [c for c in comments if not (c.kind == "{" and is_own_comment(c.text))]
    record = timeline.record
    moves = [(e.line, e.column) for e in timeline.entries]
    result = None
    token = getattr(record, "result_token", None)
    if token:
        result = (token[1], token[2])
    return place_comments(kept, first_tag, moves, result)


def annotate_timeline(timeline: Timeline, wanted: Sequence[str] = (), explain_all: bool = False) -> Annotated:
    game = support(timeline.game)
    if game is None:
        return Annotated(timeline, [], [], timeline.chunk.text, "the game is unknown")
    if not timeline.readable:
        first = timeline.record.errors[0] if timeline.record is not None and timeline.record.errors else None
        why = f"it cannot be read as written ([{first.rule}] {first.message})" if first else "it cannot be read"
        return Annotated(timeline, [], [], timeline.chunk.text, why)
    notes: list[MoveNote] = []
    variants: list[Variant] = []
    if timeline.segments:
        variants = game.variants(timeline, wanted)
        for step in timeline.steps:
            note = judge_step(timeline, step, variants)
            note.comments = comments_for(note, variants, game, explain_all)
            notes.append(note)
    by_index: dict[int, list[str]] = {}
    for note in notes:
        if note.comments:
            by_index.setdefault(note.step.index, []).extend(note.comments)
    text = game.write(timeline, by_index, _record_comments(timeline))
    return Annotated(timeline, variants, notes, text)


def annotate_lines(lines: Iterable[str], file: str, wanted: Sequence[str] = (),
                   explain_all: bool = False) -> Iterator[Annotated]:
    for timeline in timelines(lines, file):
        yield annotate_timeline(timeline, wanted, explain_all)


def annotate_text(text: str, file: str = "<text>", wanted: Sequence[str] = (),
                  explain_all: bool = False) -> list[Annotated]:
    return list(annotate_lines(text.splitlines(keepends=True), file, wanted, explain_all))


def joined(records: Iterable[Annotated]) -> str:
    """The annotated records as one file: records separated by a blank line."""
    parts = [a.text.rstrip("\n") + "\n" for a in records]
    return "\n".join(parts)


#: A file annotate cannot write back (a contest log).
NotAnnotatable = ContestLog


def annotate_file(path: str, wanted: Sequence[str] = (), explain_all: bool = False,
                  stdin: TextIO | None = None) -> Iterator[Annotated]:
    """Every record of a CVN or DFN file (``-``: standard input), annotated. Raises OSError
    when the file cannot be read and ContestLog for a UEC contest-server log."""
    name = "<stdin>" if path == "-" else path
    handle = open_text(path, stdin)
    try:
        yield from annotate_lines(handle, name, wanted, explain_all)
    finally:
        if path != "-":
            handle.close()


def check_wanted(wanted: Sequence[str]) -> list[str]:
    """The rule-set names of ``--rules`` (comma-separated or repeated), checked: raises
    ValueError naming the known ones."""
    names = [w.strip().lower() for item in wanted for w in item.split(",") if w.strip()]
    known = {n for presets in rule_sets().values() for n in presets}
    bad = [n for n in names if n not in known]
    if bad:
        listed = "; ".join(f"{game}: {', '.join(p)}" for game, p in rule_sets().items())
        raise ValueError(f"unknown rule set {bad[0]!r} ({listed})")
    return names
