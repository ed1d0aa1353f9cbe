"""Caravan (Fallout: New Vegas) as the generic jobs see it: one :class:`Game`."""

from __future__ import annotations

from referee.games.caravan import engine
from referee.games.caravan.notation.cvn import read_caravan
from referee.games.caravan.referee import referee_caravan, rules_applied
from referee.jobs.game import Game

GAME = Game(
    name="caravan",
    title="Caravan",
    notation="CVN",
    extensions=(".cvn",),
    rule_sets=tuple(engine.RULESETS),
    engine=engine,
    read=read_caravan,
    judge=referee_caravan,
    cite=rules_applied,
    spec_files=("caravan.toml", "caravan-holotape.toml", "caravan-fnv.toml"),
    parts={
        "selfplay": "referee.games.caravan.selfplay",
        "solve": "referee.games.caravan.solve.questions",
        "live": "referee.games.caravan.live",
    },
)
