"""Caravan settings: a rule set by name (``holotape``, ``fnv``); no options."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engines.message import T
from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import CaravanRecord
from referee.jobs.game import Comparison


def parse(text: str) -> cv.RuleSet:
    """A setting as a user writes it (``fnv``). Raises ValueError with what is wrong."""
    words = text.split()
    if len(words) != 1 or words[0].lower() not in cv.RULESETS:
        raise ValueError(T("{text} is not a Caravan rule set: use one of {choices}", text=repr(text),
                           choices=", ".join(cv.RULESETS)))
    return cv.RULESETS[words[0].lower()]


def label(rules: cv.RuleSet) -> str:
    return rules.name


def declared(record: CaravanRecord) -> cv.RuleSet | None:
    """The rule set the record's Rules tag names (None: one Pitboss does not know)."""
    name = (record.tag("Rules") or cv.DEFAULT_RULES).strip().lower()
    return cv.RULESETS.get(name)


def comparisons(own: cv.RuleSet, record: CaravanRecord) -> Sequence[Comparison]:
    """The other rule sets, each judged by its own replay."""
    return [Comparison(rules) for name, rules in cv.RULESETS.items() if name != own.name]


def position_key(state: cv.State) -> object:
    """What two replays must agree on to be in the same position (all but the rule set)."""
    return state._replace(rules=None)  # type: ignore[arg-type]  # a key, not a State to play on
