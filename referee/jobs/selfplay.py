"""``pitboss selfplay GAME``: random legal, complete games, as each game describes them.

A game's self-play is data on its :class:`~referee.jobs.game.Game` (``selfplay``): what
one generated item is called, the options its generator takes beyond the common ones
(how many, the seed, the rule set), and the generator itself (loaded when first used).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One option of a game's self-play: ``--name`` on the command line, ``name`` (with
    ``_`` for ``-``) as the generator's keyword."""

    name: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    #: A boolean option's off switch (``--no-draws``) is written beside it.
    negatable: bool = False

    @property
    def keyword(self) -> str:
        return self.name.replace("-", "_")


@dataclass(frozen=True)
class SelfPlay:
    #: What one generated record is called, plural ("games", "matches").
    noun: str
    #: The command's help.
    help: str
    #: "module:function": (count, seed, rules=..., **options) -> items with ``text()``;
    #: raises ValueError for a combination of options the rules do not allow.
    generator: str
    options: tuple[Option, ...] = ()

    def generate(self, count: int, seed: int, rules: str, **options: Any) -> Iterator[Any]:
        module, _, function = self.generator.partition(":")
        return getattr(importlib.import_module(module), function)(count, seed, rules=rules, **options)
