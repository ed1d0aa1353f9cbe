"""The one list of games. Adding a game is one folder under referee/games/ and one line here.

Nothing else in the generic layers (``referee/engines``, ``referee/notation``,
``referee/jobs``, ``referee/service``, ``cli.py``) names a game; a test holds them to it.
"""

from __future__ import annotations

import importlib
from functools import cache

from referee.jobs.game import Game

#: Game name -> the module that builds its :class:`Game` (as ``GAME``).
GAME_MODULES: dict[str, str] = {
    "caravan": "referee.games.caravan.game",
    "daifugo": "referee.games.daifugo.game",
}


@cache
def game(name: str) -> Game:
    """The game of that name (a ``Game`` tag's value, any case). Raises KeyError."""
    module = GAME_MODULES[name.strip().lower()]
    built: Game = importlib.import_module(module).GAME
    return built


def names() -> tuple[str, ...]:
    return tuple(GAME_MODULES)


def games() -> tuple[Game, ...]:
    return tuple(game(n) for n in GAME_MODULES)


def find(name: str | None) -> Game | None:
    """The game of a ``Game`` tag's value, or None when there is no such game."""
    if name is None or name.strip().lower() not in GAME_MODULES:
        return None
    return game(name)


def section_tags() -> dict[str, frozenset[str]]:
    """Each game's tags that open a tag section inside a record (for the record splitter)."""
    return {g.name: g.section_tags for g in games()}
