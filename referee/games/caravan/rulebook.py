"""What Caravan's rulebook says of its rule sets (the game's ``rulebook`` part)."""

from __future__ import annotations

from referee.games.caravan import engine
from referee.i18n import tr


def describe(rule_set: str) -> str:
    """The rule set in a few words, in the language spoken."""
    return tr(engine.RULESETS[rule_set].description)


def options(rule_set: str) -> dict[str, str]:
    """Caravan has no options on top of its rule sets."""
    return {}
