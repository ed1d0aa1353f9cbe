"""A Pitboss ruling: ``-revolution`` turns off every revolution, four of a kind and long
sequences alike, in every preset, as the contest server's ``RULE_KAKUMEI NO`` does, and
``-revolution stairs-revolution=5`` is read as ``-revolution``. Every path that names rules
(a DFN record's Options, ``--rules``, self-play, a live table, a contest log's header, a
contest table) comes to the one rule set the engine judges by (its ``revolution_rule``:
tests/games/daifugo/test_daifugo_engine.py)."""

from __future__ import annotations

import pytest

from referee.games.daifugo import engine as df
from referee.games.daifugo import live
from referee.games.daifugo import settings as daifugo
from referee.games.daifugo.notation.dfn import options_text, ruleset_of
from referee.games.daifugo.selfplay import daifugo_matches
from referee.games.daifugo.uecda.contest.config import ContestConfig, with_options
from referee.games.daifugo.uecda.log_referee import log_rules
from referee.games.daifugo.uecda.notation import log as ul
from referee.jobs.timeline import timelines

SAID = ["-revolution", "-revolution stairs-revolution=5", "-revolution stairs-revolution=3",
        "-revolution -stairs-revolution"]


@pytest.mark.parametrize("preset", ["classic", "uecda"])
def test_every_path_reads_off_revolution_as_one_rule_set(preset: str) -> None:
    off = df.ruleset(preset, {"revolution": False})
    assert not off.revolution and off.stairs_revolution is None and options_text(off) == "-revolution"
    players = 5
    for options in SAID:
        assert ruleset_of(preset, options) is off  # a record's Options tag, selfplay's --options
        assert daifugo.parse(f"{preset} {options}") is off  # --rules
        assert live.create({"rules": preset, "options": options, "seats": ["A", "B", "C", "D", "E"],
                            "seed": 1})["options"] == "-revolution"  # a live table
        match = next(daifugo_matches(1, seed=2, rules=preset, options=options, players=players, rounds=1)).text()
        (timeline,) = list(timelines(match.splitlines(keepends=True), "m.dfn"))
        assert '[Options "-revolution"]' in match and timeline.segments[0].start.rules is off
    if preset == "uecda":
        assert log_rules(ul.LogHeader(flags={"RULE_KAKUMEI": "NO"})) is off  # a contest log
        for options in SAID:
            assert with_options(ContestConfig(), options).rules() is off  # a contest table
