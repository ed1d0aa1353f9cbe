"""Caravan self-play refuses what the rest of Pitboss refuses, in the same words: a rule
set the engine does not know (as a live table's creation says it), a player the command's
``--player`` does not offer."""

from __future__ import annotations

import pytest

from referee.games.caravan import engine as cv
from referee.games.caravan import live
from referee.games.caravan.selfplay import CaravanMaker
from referee.jobs import registry
from referee.jobs.live import LiveError


def test_an_unknown_rule_set_is_refused_in_the_engines_words() -> None:
    with pytest.raises(ValueError) as engine_said:
        cv.ruleset("poker")
    with pytest.raises(ValueError) as selfplay_said:
        CaravanMaker("poker")
    with pytest.raises(LiveError) as live_said:
        live.create({"rules": "poker", "seats": ["Ann", "Bo"], "seed": 1})
    assert str(selfplay_said.value) == str(engine_said.value) == live_said.value.message
    assert "holotape" in str(engine_said.value) and "fnv" in str(engine_said.value)
    assert all(cv.ruleset(name).name == name for name in cv.RULESETS)


def test_the_makers_players_are_the_commands_choices() -> None:
    (option,) = [o for o in registry.game("caravan").selfplay.options if o.name == "player"]
    for player in option.choices:
        assert CaravanMaker(cv.DEFAULT_RULES, player).player == player
    with pytest.raises(ValueError, match="not 'chess'"):
        CaravanMaker(cv.DEFAULT_RULES, "chess")
