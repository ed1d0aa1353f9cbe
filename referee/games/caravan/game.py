"""Caravan (Fallout: New Vegas) as the generic jobs see it: one :class:`Game`."""

from __future__ import annotations

from referee.games.caravan import engine
from referee.games.caravan.notation.cvn import read_caravan
from referee.games.caravan.referee import plan
from referee.jobs.game import Game

GAME = Game(
    name="caravan",
    title="Caravan",
    notation="CVN",
    extensions=(".cvn",),
    rule_sets=tuple(engine.RULESETS),
    engine=engine,
    read=read_caravan,
    moves=lambda record: record.moves,
    plan=plan,
    allowed=lambda before, move, after: engine.explain(before, move),
    set_off=engine.end_rules,
    spec_files=("caravan.toml", "caravan-holotape.toml", "caravan-fnv.toml"),
    parts={
        "selfplay": "referee.games.caravan.selfplay",
        "solve": "referee.games.caravan.solve.questions",
    },
)
