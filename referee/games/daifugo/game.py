"""Daifugo (大富豪) as the generic jobs see it: one :class:`Game`."""

from __future__ import annotations

from referee.games.daifugo import engine
from referee.games.daifugo.annotate import allowed
from referee.games.daifugo.log_referee import validate_log
from referee.games.daifugo.notation import uecda_log
from referee.games.daifugo.notation.dfn import read_daifugo
from referee.games.daifugo.referee import plan
from referee.jobs.game import Foreign, Game

GAME = Game(
    name="daifugo",
    title="Daifugo",
    notation="DFN",
    extensions=(".dfn",),
    rule_sets=tuple(engine.PRESETS),
    engine=engine,
    read=read_daifugo,
    moves=lambda record: [entry for rnd in record.rounds for entry in rnd.moves],
    plan=plan,
    allowed=lambda before, move, after: allowed(before, move),
    set_off=lambda state: state.events,
    foreign=(Foreign("uecda-log", "a UEC contest-server log", uecda_log.is_contest_log, validate_log),),
    section_tags=frozenset({"round"}),
    spec_files=("daifugo.toml", "daifugo-seed.toml", "daifugo-uecda.toml"),
    parts={
        "selfplay": "referee.games.daifugo.selfplay",
        "solve": "referee.games.daifugo.solve.questions",
    },
)
