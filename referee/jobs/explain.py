"""``pitboss explain``: one move's full reasoning.

The position before the move, then for each rule set the move is judged under (the
record's own first; see ``annotate``): the verdict and every rule that decided it, each
with its id, title, kind (rule, or ruling where the written rules are silent), the rule
sets it belongs to and its text. Last, whether the move is disputed and whether its
legality rests on a ruling.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee import spec
from referee.jobs import registry
from referee.jobs.annotate import Annotated, MoveNote, Variant, annotate_timeline
from referee.jobs.render.frames import Frame, frames_of
from referee.jobs.render.text import Painter, render
from referee.jobs.rulebook import anchor
from referee.jobs.timeline import timelines


class ExplainError(LookupError):
    """The move asked for does not exist or was never reached by the replay."""


@dataclass
class Explanation:
    annotated: Annotated
    note: MoveNote
    before: Frame

    @property
    def judging(self) -> list[Variant]:
        """The settings that judge this move (they reach it in the same position)."""
        return [v for v in self.annotated.variants if v.label in self.note.verdicts]

    def rules_of(self, label: str) -> list[dict]:
        verdict = self.note.verdicts[label]
        catalog = spec.catalog()
        ids = list(verdict.allowed) if verdict.legal else [verdict.rule]
        out = []
        for rule_id in ids:
            rule = catalog.get(rule_id or "")
            entry: dict[str, object] = {"id": rule_id, "role": "allowed" if verdict.legal else "broken"}
            if rule is not None:
                entry.update(title=rule.title, kind=rule.kind, rulesets=list(rule.rulesets),
                             options=list(rule.options), text=rule.text, source=rule.source,
                             rulebook=anchor(rule.id))
            out.append(entry)
        return out

    def to_json(self) -> dict:
        step = self.note.step
        report = self.annotated.timeline.report
        return {
            "file": report.file,
            "index": report.index,
            "game": report.game,
            "rules": self.annotated.variants[0].label,
            **step.to_json(),
            "disputed": self.note.disputed,
            "rulings": self.note.rulings,
            "position": render(self.before, color=False),
            "verdicts": [
                {"rules": v.label, "preset": v.preset, "own": v.own, "legal": self.note.verdicts[v.label].legal,
                 "rejected": self.note.verdicts[v.label].rejected,
                 "rule": self.note.verdicts[v.label].rule, "message": self.note.verdicts[v.label].message,
                 "checked": self.rules_of(v.label)}
                for v in self.judging
            ],
            "apart": self.note.apart,
            "settings": [j.to_json() for j in self.annotated.judged],
            "not_compared": self.annotated.not_compared,
            "comments": self.note.comments,
        }


def explain(lines: Iterable[str], file: str, ply: int, game: int = 1, round_no: int | None = None) -> Explanation:
    """The reasoning behind move ``ply`` of record ``game`` (of round ``round_no``:
    Daifugo; default its first round). Raises ExplainError when there is no such move."""
    timeline = None
    for timeline in timelines(lines, file):
        if timeline.report.index == game:
            break
    else:
        count = timeline.report.index if timeline is not None else 0
        raise ExplainError(f"{file} has {count} record{'s' * (count != 1)}, not {game}")
    annotated = annotate_timeline(timeline)
    if annotated.unchanged:
        raise ExplainError(f"record {game} of {file}: {annotated.unchanged}; see `pitboss validate {file}`")
    if not timeline.segments:
        raise ExplainError(f"record {game} of {file} cannot be set up (its tags are wrong); "
                           f"see `pitboss validate {file}`")
    rounds = [seg.round for seg in timeline.segments]
    if round_no is None:
        round_no = rounds[0]
    elif round_no not in rounds:
        raise ExplainError(f"record {game} has no round {round_no} that the replay reached "
                           f"(rounds: {', '.join(str(r) for r in rounds if r is not None) or 'none'})")
    notes = [n for n in annotated.notes if n.step.round == round_no]
    note = next((n for n in notes if n.step.ply == ply), None)
    if note is None:
        where = f"round {round_no} of record {game}" if round_no is not None else f"record {game}"
        if not notes:
            raise ExplainError(f"{where} has no move that the replay reached")
        last = notes[-1].step
        if not last.legal and not last.rejected and ply > last.ply:
            raise ExplainError(f"{where}: the replay stops at the illegal move {last.ply} ({last.entry.text}); "
                               f"move {ply} is never reached (explain --ply {last.ply} says why)")
        raise ExplainError(f"{where} has no move {ply}: its moves are 1 to {last.ply}")
    frames = frames_of(annotated)
    before = _frame_before(frames, note)
    return Explanation(annotated, note, before)


def _frame_before(frames: list[Frame], note: MoveNote) -> Frame:
    step = note.step
    for f in frames:
        if f.round == step.round and f.ply == step.ply - 1 and not f.illegal:
            return f
    raise ExplainError("the position before the move is missing")  # pragma: no cover - frames cover every step


def explanation_text(ex: Explanation, color: bool = False) -> str:
    paint = Painter(color)
    step = ex.note.step
    report = ex.annotated.timeline.report
    where = f"round {step.round}, " if step.round is not None else ""
    own = ex.annotated.variants[0]
    lines = [paint(f"{report.file}, game {report.index}, {where}ply {step.ply}: "
                   f"{_who(report.game, step.player)}{step.entry.text}", "bold")
             + f"  (line {step.entry.line}, column {step.entry.column}; the record's rules: {own.label})",
             "", paint("Position before the move:", "bold"), render(ex.before, color).rstrip("\n"), ""]
    catalog = spec.catalog()
    for variant in ex.judging:
        verdict = ex.note.verdicts[variant.label]
        mine = " (the record's rules)" if variant.own else ""
        if verdict.legal:
            lines.append(paint(f"{variant.label}{mine}: legal", "green", "bold"))
            for rule_id in verdict.allowed:
                rule = catalog.get(rule_id)
                title = rule.title if rule else ""
                tag = _rule_tag(rule, variant)
                lines.append(f"  {paint('✓', 'green')} {rule_id} — {title}{tag}")
        else:
            state = "rejected (counted as a pass)" if verdict.rejected else "ILLEGAL"
            lines.append(paint(f"{variant.label}{mine}: {state}", "red", "bold"))
            rule = catalog.get(verdict.rule or "")
            lines.append(f"  {paint('✗', 'red')} {verdict.rule} — {rule.title if rule else ''}{_rule_tag(rule, variant)}")
            lines.append(f"    {verdict.message}")
            if rule is not None:
                lines.append(f"    The rule: {rule.text}")
                lines.append(f"    Source: {rule.source}")
        lines.append("")
    if ex.note.disputed:
        legal = [v.label for v in ex.judging if ex.note.verdicts[v.label].legal]
        illegal = [v.label for v in ex.judging if not ex.note.verdicts[v.label].legal]
        lines.append(paint(f"Disputed: legal under {', '.join(legal)}; illegal under {', '.join(illegal)}.",
                           "yellow", "bold"))
    else:
        word = "legal" if ex.note.own.legal else "illegal"
        lines.append(f"Not disputed: {word} under every rule set compared.")
    for why in ex.note.apart.values():
        lines.append(f"Not judging this move: {why}.")
    for why in ex.annotated.not_compared:
        lines.append(f"Not compared: {why}.")
    if ex.note.rulings:
        for r in ex.note.rulings:
            rule = catalog[r]
            lines.append(paint(f"Rests on a ruling: {r} — {rule.title}. {rule.text} ({rule.source})", "magenta"))
    game = report.game or ""
    lines += ["", f"Every rule above is in the rulebook under its id: pitboss rules {game} "
                  f"(or --html rules.html, each rule at {anchor('<id>')})."]
    return "\n".join(lines).rstrip("\n") + "\n"


def _who(game: str | None, player: str) -> str:
    """Who moved, where the move's text does not say it (its notation names no player)."""
    kind = registry.find(game)
    return f"player {player}: " if kind is not None and not kind.moves_name_mover else ""


def _rule_tag(rule, variant) -> str:
    if rule is None:
        return ""
    bits = []
    if rule.kind == "ruling":
        bits.append("ruling")
    if len(rule.rulesets) == 1:
        bits.append(f"{rule.rulesets[0]} only")
    if rule.options:
        bits.append("option " + ", ".join(rule.options))
    return f"  [{'; '.join(bits)}]" if bits else ""
