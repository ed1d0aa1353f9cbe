"""Highcard, a two-player game that lives in the test suite (registered by tests/conftest.py
only): the contract's required parts, a renderer and a rulebook part, its grammar, its
rules and its French in this folder. Adding it edited nothing outside this folder."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from referee.engines.base import Card
from referee.engines.message import M
from referee.jobs.game import (
    Comparison,
    Game,
    Lazy,
    Notation,
    Renderer,
    Rulebook,
    Settings,
    lazy,
)

from . import engine

if TYPE_CHECKING:
    from referee.jobs.report import GameReport
    from referee.jobs.segment import Plan
    from referee.notation.records import Chunk

    from .notation import HighcardRecord


def _read() -> Callable[[Chunk, str, int], HighcardRecord]:
    from .notation import read

    return read


def _write() -> Callable[[HighcardRecord, Chunk, Mapping[int, Sequence[str]], Sequence[str]], str]:
    from .notation import write

    return write


def _plan() -> Callable[[HighcardRecord, GameReport, engine.Rules | None], Plan[engine.State, Card]]:
    from .plan import plan

    return plan


def _parse(text: str) -> engine.Rules:
    if text.strip().lower() not in engine.RULE_SETS:
        raise ValueError(f"{text!r} is not a Highcard rule set: {', '.join(engine.RULE_SETS)}")
    return engine.named(text.strip().lower())


def _declared(record: HighcardRecord) -> engine.Rules | None:
    name = (record.tag("Rules") or engine.RULE_SETS[0]).strip().lower()
    return engine.named(name) if name in engine.RULE_SETS else None


def _settings() -> Settings[engine.State, HighcardRecord, engine.Rules]:
    return Settings(_parse, lambda rules: rules.name, _declared,
                    lambda own, record: [Comparison(engine.named(r)) for r in engine.RULE_SETS if r != own.name],
                    lambda state: state._replace(rules=None), lambda state: state.rules)


def _render() -> Renderer[engine.State, Card, HighcardRecord]:
    from .render import RENDERER

    return RENDERER


def _rulebook() -> Rulebook:
    from . import render

    return render


GAME: Game[engine.State, Card, HighcardRecord, engine.Rules] = Game(
    name="highcard",
    title=M("Highcard"),
    engine=engine,
    notation=Notation("HCN", (".hcn",), read=lazy(_read), moves=lambda record: record.moves, write=lazy(_write),
                      moves_name_mover=False),
    rule_sets=engine.RULE_SETS,
    settings=Lazy(_settings),
    plan=lazy(_plan),
    numbered_players=True,
    home=Path(__file__).resolve().parent,
    languages=("fr",),
    render=Lazy(_render),
    rulebook=Lazy(_rulebook),
)
