"""Annotating Daifugo records: the rule sets compared, the judge, the writer.

A move is judged in the position the record's own rules led to under: the record's rule
set (its preset and Options); each other preset that seats that many players (uecda: 5),
with the same Options; and the record's rule set with each option named in its Options
toggled (``+x`` becomes ``-x``,
``stairs-revolution=N`` off, ``exchange=weakest`` ``choice`` and back).

The engine has no ``explain``; :func:`allowed` names the rules a legal move relied on,
from the public engine API (the combination's readings, the table, the rule set), followed
by the rules the move set off (the engine's ``State.events``).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engines.base import JOKER
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import (
    DaifugoRecord,
    options_text,
    toggle,
    words,
)
from referee.games.daifugo.notation.dfn_annotated import write_annotated_daifugo
from referee.jobs.annotate import GameSupport, Variant, Verdict, is_own_comment
from referee.jobs.timeline import Timeline


def label(rules: df.RuleSet) -> str:
    extra = options_text(rules)
    return f"{rules.name} {extra}" if extra else rules.name


def _record_toggles(record: DaifugoRecord) -> dict[str, object]:
    tag = record.tags.get("Options")
    if tag is None:
        return {}
    out: dict[str, object] = {}
    for word, _column in words(tag):
        name, value = toggle(word)
        out[name] = value
    return out


def _flipped(name: str, value: object) -> object:
    if name == "stairs-revolution":
        return None if value not in (None, False, 0) else 4
    if name == "exchange":
        return "choice" if value == "weakest" else "weakest"
    return not value


def variants(timeline: Timeline, wanted: Sequence[str]) -> list[Variant]:
    own: df.RuleSet = timeline.segments[0].start.rules
    out = [Variant(label(own), own.name, own, own=True)]
    seen = {own}
    toggles = _record_toggles(timeline.record)  # type: ignore[arg-type]

    def add(rules: df.RuleSet) -> None:
        if rules not in seen:
            seen.add(rules)
            out.append(Variant(label(rules), rules.name, rules))

    players = len(timeline.segments[0].start.hands)
    for preset, base in df.PRESETS.items():
        # A preset that cannot seat this many players does not judge the record.
        if not base.min_players <= players <= base.max_players:
            continue
        if preset != own.name and (not wanted or preset in wanted):
            try:
                add(df.ruleset(preset, toggles))
            except ValueError:  # an option value the other preset cannot take
                continue
    if not wanted or own.name in wanted:
        for name, value in toggles.items():
            try:
                add(df.ruleset(own.name, {**toggles, name: _flipped(name, value)}))
            except ValueError:
                continue
    return out


def option_differs(a: df.RuleSet, b: df.RuleSet, name: str) -> bool:
    return a.option(name) != b.option(name)


def judge(state: df.State, move: df.Move, rules: df.RuleSet) -> Verdict:
    s = state if state.rules is rules else state._replace(rules=rules)
    v = df.check(s, move)
    if v is not None:
        return Verdict(False, v.rule, v.message)
    return Verdict(True, allowed=tuple(dict.fromkeys(allowed(s, move))))


def allowed(state: df.State, move: df.Move) -> list[str]:
    """The ids of the rules a legal move relied on (turn, possession, combination, the
    table, the exchange duty), then those of what it set off: the engine's ``events``,
    which also name the joker rulings, the diamond-3 lead, playing over one's own cards,
    spade3 and consecutive-revolution when a play relied on them."""
    rules = state.rules
    ids: list[str] = []
    if isinstance(move, df.Give):
        duty = next(d for d in state.pending if d.giver == move.giver)
        ids.append("daifugo.exchange.duty")
        if rules.exchange_style == "server":
            ids.append("daifugo.exchange.order")
        elif state.dealt is not None:
            ids.append("daifugo.exchange.simultaneous")
        ids.append("daifugo.hand.possession")
        ids.append({"strongest": "daifugo.exchange.strongest", "weakest": "daifugo.exchange.weakest"}
                   .get(duty.choose, "daifugo.exchange.choice"))
    elif isinstance(move, df.Pass):
        ids.append("daifugo.turn.order")
        if state.table is None:
            ids.append("daifugo.pass.empty-stage")
    else:
        ids += ["daifugo.turn.order", "daifugo.hand.possession", "daifugo.combo.invalid"]
        jokers = move.cards.count(JOKER)
        if jokers and len(move.cards) > 1 and (len(move.joker_as) < jokers or None in move.joker_as):
            ids.append("daifugo.joker.ambiguous")  # a bare joker, read the one legal way
        combo = df.resolved(state, move)
        table = state.table
        if table is None:
            ids.append("daifugo.play.same-kind")
        elif table.lone_joker:
            ids.append("daifugo.play.lone-joker")
        elif combo is not None and combo.lone_joker:
            ids += ["daifugo.play.same-kind", "daifugo.play.lone-joker"]
        else:
            ids.append("daifugo.play.same-kind")
            if combo is not None and combo.kind == df.SEQUENCE:
                ids.append("daifugo.play.sequence-top" if rules.sequence_compare == "top"
                           else "daifugo.play.sequence-above")
            else:
                ids.append("daifugo.play.stronger")
        if state.lock is not None and table is not None:
            ids.append("daifugo.option.suit-lock")
    ids += df.apply(state, move).events
    return ids


def write(timeline: Timeline, comments: dict[int, list[str]], record_comments: list[str]) -> str:
    record = timeline.record
    assert isinstance(record, DaifugoRecord)
    return write_annotated_daifugo(record, timeline.chunk.text, comments, record_comments,
                                   keep=lambda c: not (c.kind == "{" and is_own_comment(c.text)))


SUPPORT = GameSupport(tuple(df.PRESETS), variants, judge, write, option_differs)
