"""Daifugo settings: a preset and option toggles (``classic +spade3 -eight-cut``).

By default a record is compared with the other preset (same toggles) where it seats the
record's players, and with every single option toggled: an on/off option flipped, a set
value back to the preset's default (``stairs-revolution=5`` under classic: 4), a default
value to its alternative (classic's 4: off; ``exchange=weakest``: ``choice``).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engines.message import T, said
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import (
    DaifugoRecord,
    options_text,
    toggle,
    words,
)
from referee.jobs.game import Comparison

#: The values a non-boolean option flips to when it has its preset's default value.
ALTERNATIVES: dict[str, tuple[object, ...]] = {
    "stairs-revolution": (None, 4),
    "exchange": ("weakest", "choice"),
    "trick-end": ("all-but-one", "all"),
}


def parse(text: str) -> df.RuleSet:
    """A setting as a user writes it: a preset, then toggles as the Options tag writes
    them (``classic +spade3 -eight-cut stairs-revolution=5``; a preset's alias is read as
    the preset). Raises ValueError."""
    parts = text.split()
    preset = df.preset_name(parts[0]) if parts else None
    if preset is None:
        raise ValueError(T("{text}: a Daifugo setting starts with its preset ({join}), then option toggles such "
                           "as +spade3 -eight-cut", text=repr(text), join=', '.join(df.PRESETS)))
    return df.ruleset(preset, dict(toggle(w) for w in parts[1:]))


def label(rules: df.RuleSet) -> str:
    extra = options_text(rules)
    return f"{rules.name} {extra}" if extra else rules.name


def declared(record: DaifugoRecord) -> df.RuleSet | None:
    """The setting the record's Rules and Options tags name (None: they do not read)."""
    preset = (record.tag("Rules") or df.DEFAULT_PRESET).strip().lower()
    tag = record.tags.get("Options")
    try:
        toggles = dict(toggle(w) for w, _ in words(tag)) if tag is not None else {}
        return df.ruleset(preset, toggles)
    except ValueError:
        return None


def _toggles(rules: df.RuleSet) -> dict[str, object]:
    base = df.PRESETS[rules.name]
    return {name: rules.option(name) for name in df.OPTIONS if rules.option(name) != base.option(name)}


def flipped(rules: df.RuleSet, name: str) -> object:
    """The option's other value, as a single toggle of ``rules`` sets it."""
    value, default = rules.option(name), df.PRESETS[rules.name].option(name)
    if isinstance(value, bool):
        return not value
    if value != default:
        return default
    return next(v for v in ALTERNATIVES.get(name, (None,)) if v != value)


def comparisons(own: df.RuleSet, record: DaifugoRecord) -> Sequence[Comparison]:
    """The other presets with the same toggles (or why one cannot judge the record), then
    every single option toggled; only those that change some verdict are kept by annotate,
    and by default only the options the record's own setting sets (its Options tag): the
    others when every comparison is asked for."""
    out: list[Comparison] = []
    seen = {own}
    players = len(record.players)
    toggles = _toggles(own)
    for name, base in df.PRESETS.items():
        if name == own.name:
            continue
        if not base.min_players <= players <= base.max_players:
            if base.min_players == base.max_players:
                why = T("{rules} (it seats {n} players, the record has {players})", rules=name, n=base.min_players,
                        players=players)
            else:
                why = T("{rules} (it seats {least} to {most} players, the record has {players})", rules=name,
                        least=base.min_players, most=base.max_players, players=players)
            out.append(Comparison(None, why))
            continue
        try:
            other = df.ruleset(name, toggles)
        except ValueError as err:
            out.append(Comparison(None, T("{rules} ({error})", rules=name, error=said(err))))
            continue
        seen.add(other)
        out.append(Comparison(other))
    for name in df.OPTIONS:
        try:
            other = df.ruleset(own.name, {**toggles, name: flipped(own, name)})
        except ValueError:
            continue
        if other not in seen:
            seen.add(other)
            out.append(Comparison(other, toggle_only=True, only_all=name not in toggles))
    return out


def position_key(state: df.State) -> object:
    """What two replays must agree on to be in the same position (all but the rule set
    and the names of what the last move set off)."""
    return state._replace(rules=None, events=())  # type: ignore[arg-type]  # a key, not a State to play on
