"""What Daifugo's rulebook says of its presets and their options (the game's ``rulebook``
part)."""

from __future__ import annotations

from referee.engines.message import M
from referee.games.daifugo import engine
from referee.i18n import Text

#: The presets in a few words (one place, for translation).
TEXT = Text({
    "seed": M("the written rules this project was asked for"),
    "uecda": M("the rules of the UEC computer-Daihinmin contest server"),
    "on": M("on"),
    "off": M("off"),
})


def describe(rule_set: str) -> str:
    return TEXT.get(rule_set, rule_set)


def options(rule_set: str) -> dict[str, str]:
    """Each option (notation.md's name) and how the preset sets it."""
    rules = engine.PRESETS[rule_set]
    out = {}
    for name in engine.OPTIONS:
        value = rules.option(name)
        if isinstance(value, bool):
            out[name] = TEXT["on"] if value else TEXT["off"]
        elif value is None:
            out[name] = TEXT["off"]
        else:
            out[name] = str(value)
    return out
