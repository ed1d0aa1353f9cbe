"""Annotating Daifugo records: the rule sets compared, the judge, the writer.

A move is judged in the position the record's own rules led to under: the record's rule
set (its preset and Options); each other preset that seats that many players (uecda: 5),
with the same Options; and the record's rule set with each option named in its Options
toggled (``+x`` becomes ``-x``,
``stairs-revolution=N`` off, ``exchange=weakest`` ``choice`` and back).

A legal move is "allowed by" the rules the engine consulted to accept it (``check``'s
``consulted`` list), followed by the rules the move set off (the engine's ``State.events``).
"""

from __future__ import annotations

from collections.abc import Sequence

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
    """The move under ``rules`` in ``state``: the rule it breaks, or the rules that allowed it."""
    s = state if state.rules is rules else state._replace(rules=rules)
    v = df.check(s, move)
    if v is not None:
        return Verdict(False, v.rule, v.message)
    return Verdict(True, allowed=tuple(dict.fromkeys(allowed(s, move))))


def allowed(state: df.State, move: df.Move, after: df.State | None = None) -> list[str]:
    """The ids of the rules a legal move relied on, as the engine's ``check`` consulted
    them, then those of what it set off (the ``events`` of ``after``, the state it led to,
    applied here when not given)."""
    consulted: list[str] = []
    df.check(state, move, consulted)
    return consulted + list((after if after is not None else df.apply(state, move)).events)


def write(timeline: Timeline, comments: dict[int, list[str]], record_comments: list[str]) -> str:
    record = timeline.record
    assert isinstance(record, DaifugoRecord)
    return write_annotated_daifugo(record, timeline.chunk.text, comments, record_comments,
                                   keep=lambda c: not (c.kind == "{" and is_own_comment(c.text)))


SUPPORT = GameSupport(tuple(df.PRESETS), variants, judge, write, option_differs)
