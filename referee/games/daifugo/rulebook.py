"""What Daifugo's rulebook says of its presets and their options (the game's ``rulebook``
part)."""

from __future__ import annotations

from referee.engines.message import M
from referee.games.daifugo import engine
from referee.i18n import Text

#: The presets in a few words (one place, for translation).
TEXT = Text({
    "classic": M("the rules of a 2005 post on 大貧民 (大富豪) on the PTT board: its general rules, with "
                 "its local rules as options"),
    "uecda": M("the rules of the UEC computer-Daihinmin contest's server, tndhms 0.29, as its source "
               "files apply them"),
    "on": M("on"),
    "off": M("off"),
})


def describe(rule_set: str) -> str:
    preset = engine.preset_name(rule_set) or rule_set
    return TEXT.get(preset, preset)


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
