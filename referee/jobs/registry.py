"""The games Pitboss knows: each folder ``referee/games/<name>/`` that holds a ``game``
module (its ``GAME``, a :class:`~referee.jobs.game.Game`), found by looking; then the games
kept outside the package that ``PITBOSS_GAMES`` names (their ``game`` modules, separated by
commas: ``tests.games.highcard.game``), which every process of a run inherits (worker
processes, a Dask cluster's workers, a command run from Python); then any game given to
:func:`register` in this process.

A game is its folder: adding one is a folder under ``referee/games/``, its grammar
(``grammar/<notation>.lark``) and its rules (``spec/<name>*.toml``); nothing here or in
any other generic module names it (a test holds them to it). The folders are found by
listing the package, the same in a checkout and in an installed wheel, with no install
step: entry points would be written when the package is installed, so a new folder would
stay unseen until the next install, and the games ship inside this package anyway.

A game module is imported when its game is first asked for, not when the folders are
listed.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
from functools import cache
from typing import Any

import referee.games
from referee import i18n, spec
from referee.jobs.game import Game

#: A registered game, whichever it is: generic code does not know its types (its states,
#: moves, records and settings), only that they fit together.
SomeGame = Game[Any, Any, Any, Any]

#: Games kept outside the package: their ``game`` modules, comma-separated.
ENVIRONMENT = "PITBOSS_GAMES"

_registered: dict[str, SomeGame] = {}


@cache
def _folders() -> tuple[str, ...]:
    """The game folders of referee/games/ (those with a ``game`` module), by name."""
    package = referee.games.__name__
    return tuple(sorted(info.name for info in pkgutil.iter_modules(referee.games.__path__)
                        if info.ispkg and importlib.util.find_spec(f"{package}.{info.name}.game") is not None))


@cache
def _load(name: str) -> SomeGame:
    found = importlib.import_module(f"{referee.games.__name__}.{name}.game").GAME
    if not isinstance(found, Game) or found.name != name:
        raise TypeError(f"referee/games/{name}/game.py: GAME must be the Game named {name!r}")
    _announce(found)
    return found


def _announce(game: SomeGame) -> None:
    """Tell the rule catalog and the message catalogs where a game keeps its own."""
    if game.home is not None:
        spec.include(game.home)
        i18n.include(game.home / "locale")


def register(game: SomeGame) -> None:
    """Know ``game`` too (a game outside referee/games/). Registering the same game again
    changes nothing; another game of a known name is a ValueError."""
    known = _registered.get(game.name) or (_load(game.name) if game.name in _folders() else None)
    if known is game:
        return
    if known is not None:
        raise ValueError(f"there is already a game named {game.name!r}")
    _registered[game.name] = game
    _announce(game)


@cache
def _from_environment() -> None:
    """Register the games ``PITBOSS_GAMES`` names (once per process)."""
    for module in filter(None, (m.strip() for m in os.environ.get(ENVIRONMENT, "").split(","))):
        try:
            found = importlib.import_module(module).GAME
        except (ImportError, AttributeError) as err:
            raise ImportError(f"{ENVIRONMENT} names {module}, which is no game module here: {err}") from err
        if not isinstance(found, Game):
            raise TypeError(f"{ENVIRONMENT}: {module}.GAME is not a Game")
        register(found)


def game(name: str) -> SomeGame:
    """The game of that name (a ``Game`` tag's value, any case). Raises KeyError."""
    _from_environment()
    key = name.strip().lower()
    if key in _registered:
        return _registered[key]
    if key not in _folders():
        raise KeyError(name)
    return _load(key)


def names() -> tuple[str, ...]:
    """Every game's name: the folders' in name order, then those registered."""
    _from_environment()
    return _folders() + tuple(n for n in _registered if n not in _folders())


def games() -> tuple[SomeGame, ...]:
    return tuple(game(n) for n in names())


def find(name: str | None) -> SomeGame | None:
    """The game of a ``Game`` tag's value, or None when there is no such game."""
    if name is None:
        return None
    _from_environment()
    key = name.strip().lower()
    return game(key) if key in _registered or key in _folders() else None


def section_tags() -> dict[str, frozenset[str]]:
    """Each game's tags that open a tag section inside a record (for the record splitter)."""
    return {g.name: g.notation.section_tags for g in games()}


def rule_sets_of(rule: spec.Rule) -> tuple[str, ...]:
    """The rule sets a rule belongs to, by name (a rule of every rule set: every game's)."""
    if spec.EVERY not in rule.rulesets:
        return rule.rulesets
    return tuple(r for g in games() for r in g.rule_sets)
