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
from referee.engines.message import J, N, T
from referee.i18n import current, tr
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
                rule = spec.translated(rule, current())
                entry.update(title=rule.title, kind=rule.kind, rulesets=list(registry.rule_sets_of(rule)),
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
            "classes": [c.to_json() for c in self.note.classes],
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
        raise ExplainError(N("{file} has {n} record, not {game}", "{file} has {n} records, not {game}", count,
                             file=file, game=game))
    annotated = annotate_timeline(timeline)
    if annotated.unchanged:
        raise ExplainError(T("record {game} of {file}: {why}; see {command}", game=game, file=file,
                             why=annotated.unchanged, command=f"`pitboss validate {file}`"))
    if not timeline.segments:
        raise ExplainError(T("record {game} of {file} cannot be set up (its tags are wrong); see {command}",
                             game=game, file=file, command=f"`pitboss validate {file}`"))
    rounds = [seg.round for seg in timeline.segments]
    if round_no is None:
        round_no = rounds[0]
    elif round_no not in rounds:
        reached = ", ".join(str(r) for r in rounds if r is not None)
        raise ExplainError(T("record {game} has no round {round} that the replay reached (rounds: {rounds})",
                             game=game, round=round_no, rounds=reached) if reached else
                           T("record {game} has no round {round} that the replay reached (rounds: none)",
                             game=game, round=round_no))
    notes = [n for n in annotated.notes if n.step.round == round_no]
    note = next((n for n in notes if n.step.ply == ply), None)
    if note is None:
        where = (T("round {round} of record {game}", round=round_no, game=game) if round_no is not None
                 else T("record {game}", game=game))
        if not notes:
            raise ExplainError(T("{where} has no move that the replay reached", where=where))
        last = notes[-1].step
        if not last.legal and not last.rejected and ply > last.ply:
            raise ExplainError(T("{where}: the replay stops at the illegal move {last} ({move}); "
                                 "move {ply} is never reached ({command} says why)", where=where, last=last.ply,
                                 move=last.entry.text, ply=ply, command=f"explain --ply {last.ply}"))
        raise ExplainError(T("{where} has no move {ply}: its moves are 1 to {last}", where=where, ply=ply,
                             last=last.ply))
    frames = frames_of(annotated)
    before = _frame_before(frames, note)
    return Explanation(annotated, note, before)


def _frame_before(frames: list[Frame], note: MoveNote) -> Frame:
    step = note.step
    for f in frames:
        if f.round == step.round and f.ply == step.ply - 1 and not f.illegal:
            return f
    raise ExplainError(T("the position before the move is missing"))  # pragma: no cover - frames cover every step


def explanation_text(ex: Explanation, color: bool = False) -> str:
    paint = Painter(color)
    step = ex.note.step
    report = ex.annotated.timeline.report
    own = ex.annotated.variants[0]
    move = _who(report.game, step.player, step.entry.text)
    if step.round is not None:
        head = T("{file}, game {game}, round {round}, ply {ply}: {move}", file=report.file, game=report.index,
                 round=step.round, ply=step.ply, move=move)
    else:
        head = T("{file}, game {game}, ply {ply}: {move}", file=report.file, game=report.index, ply=step.ply,
                 move=move)
    lines = [paint(tr(head), "bold")
             + tr(T("  (line {line}, column {column}; the record's rules: {rules})", line=step.entry.line,
                    column=step.entry.column, rules=own.label)),
             "", paint(tr(T("Position before the move:")), "bold"), render(ex.before, color).rstrip("\n"), ""]
    catalog = spec.catalog()
    lang = current()

    def rule_of(rule_id: str) -> spec.Rule | None:
        rule = catalog.get(rule_id)
        return spec.translated(rule, lang) if rule is not None else None

    for variant in ex.judging:
        verdict = ex.note.verdicts[variant.label]
        if verdict.legal:
            state = (T("{rules} (the record's rules): legal", rules=variant.label) if variant.own
                     else T("{rules}: legal", rules=variant.label))
            lines.append(paint(tr(state), "green", "bold"))
            for rule_id in verdict.allowed:
                rule = rule_of(rule_id)
                title = rule.title if rule else ""
                tag = _rule_tag(rule, variant)
                lines.append(f"  {paint('✓', 'green')} {rule_id} — {title}{tag}")
        else:
            if verdict.rejected:
                state = (T("{rules} (the record's rules): rejected (counted as a pass)", rules=variant.label)
                         if variant.own else T("{rules}: rejected (counted as a pass)", rules=variant.label))
            else:
                state = (T("{rules} (the record's rules): ILLEGAL", rules=variant.label) if variant.own
                         else T("{rules}: ILLEGAL", rules=variant.label))
            lines.append(paint(tr(state), "red", "bold"))
            rule = rule_of(verdict.rule or "")
            lines.append(f"  {paint('✗', 'red')} {verdict.rule} — "
                         f"{rule.title if rule else ''}{_rule_tag(rule, variant)}")
            lines.append(f"    {tr(verdict.message)}")
            if rule is not None:
                lines.append("    " + tr(T("The rule: {text}", text=rule.text)))
                lines.append("    " + tr(T("Source: {source}", source=rule.source)))
        lines.append("")
    if ex.note.disputed:
        legal = [v.label for v in ex.judging if ex.note.verdicts[v.label].legal]
        illegal = [v.label for v in ex.judging if not ex.note.verdicts[v.label].legal]
        lines.append(paint(tr(T("Disputed: legal under {legal}; illegal under {illegal}.", legal=", ".join(legal),
                                illegal=", ".join(illegal))), "yellow", "bold"))
    elif ex.note.own.legal:
        lines.append(tr(T("Not disputed: legal under every rule set compared.")))
    else:
        lines.append(tr(T("Not disputed: illegal under every rule set compared.")))
    for named in ex.note.classes:
        shown = named.shown
        where = (T("pitboss disputes {game} '{a}' '{b}' shows its shortest game", game=report.game or "",
                   a=shown.labels[0], b=shown.labels[-1]) if shown is not None and shown.witness is not None
                 else T("the atlas does not show it"))
        lines.append(tr(T("Class of dispute between {a} and {b}: {key} ({where}).", a=named.settings[0],
                          b=named.settings[1], key=named.key, where=where)))
    for why in ex.note.apart.values():
        lines.append(tr(T("Not judging this move: {why}.", why=why)))
    for why in ex.annotated.not_compared:
        lines.append(tr(T("Not compared: {why}.", why=why)))
    if ex.note.rulings:
        for r in ex.note.rulings:
            rule = spec.translated(catalog[r], lang)
            lines.append(paint(tr(T("Rests on a ruling: {rule} — {title}. {text} ({source})", rule=r, title=rule.title,
                                    text=rule.text, source=rule.source)), "magenta"))
    game = report.game or ""
    lines += ["", tr(T("Every rule above is in the rulebook under its id: {command} (or {html}, each rule at {place}).",
                       command=f"pitboss rules {game}", html="--html rules.html",
                       place=anchor("<id>")))]
    return "\n".join(lines).rstrip("\n") + "\n"


def _who(game: str | None, player: str, move: str) -> str:
    """The move, and who moved where the move's text does not say it (its notation names no player)."""
    kind = registry.find(game)
    if kind is not None and not kind.notation.moves_name_mover:
        return T("player {player}: {move}", player=player, move=move)
    return move


def _rule_tag(rule, variant) -> str:
    if rule is None:
        return ""
    bits = []
    if rule.kind == "ruling":
        bits.append(T("ruling"))
    sets = registry.rule_sets_of(rule)
    if len(sets) == 1:
        bits.append(T("{rules} only", rules=sets[0]))
    if rule.options:
        bits.append(T("option {options}", options=", ".join(rule.options)))
    return f"  [{tr(J('; ', bits))}]" if bits else ""
