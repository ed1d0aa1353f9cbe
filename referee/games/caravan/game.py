"""Caravan (Fallout: New Vegas) as the generic jobs see it: one :class:`Game`.

The functions below load a part when it is first used (``pitboss --help`` imports no
grammar, no renderer and no solver); what each returns is checked against the contract
(:mod:`referee.jobs.game`) by mypy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from referee.engines.message import M
from referee.games.caravan import engine
from referee.games.caravan.questions import OPTIONS, QUESTIONS
from referee.games.caravan.styles import PLAYERS
from referee.jobs.game import (
    Analyser,
    Answering,
    Disputes,
    Game,
    Lazy,
    Live,
    Maker,
    Notation,
    Option,
    Players,
    Prover,
    Renderer,
    Rulebook,
    SelfPlay,
    Settings,
    Solver,
    lazy,
)

if TYPE_CHECKING:
    from referee.games.caravan.notation.cvn import CaravanRecord
    from referee.jobs.analysis import Limits, MoveAnalysis
    from referee.jobs.report import GameReport
    from referee.jobs.segment import Plan, Step
    from referee.notation.records import Chunk


def _read() -> Callable[[Chunk, str, int], CaravanRecord]:
    from referee.games.caravan.notation.cvn import read_caravan

    return read_caravan


def _write() -> Callable[[CaravanRecord, Chunk, Mapping[int, Sequence[str]], Sequence[str]], str]:
    from referee.games.caravan.annotate import write

    return write


def _plan() -> Callable[[CaravanRecord, GameReport, engine.RuleSet | None], Plan[engine.State, engine.Move]]:
    from referee.games.caravan.referee import plan

    return plan


def _settings() -> Settings[engine.State, CaravanRecord, engine.RuleSet]:
    from referee.games.caravan import settings

    return Settings(settings.parse, settings.label, settings.declared, settings.comparisons, settings.position_key,
                    of=lambda state: state.rules)


def _render() -> Renderer[engine.State, engine.Move, CaravanRecord]:
    from referee.games.caravan.render import RENDERER

    return RENDERER


def _live() -> Live:
    from referee.games.caravan import live

    return live


def _players() -> Players:
    from referee.games.caravan import players

    return players


def _analyse() -> Callable[[Step[engine.State, engine.Move], Limits], MoveAnalysis | None]:
    from referee.games.caravan.analyse import analyse

    return analyse


def _answers() -> Answering[engine.State, CaravanRecord]:
    from referee.games.caravan.solve import questions

    return questions


def _prover() -> Prover:
    from referee.games.caravan import prove

    return prove


def _disputes() -> Disputes[engine.State, engine.RuleSet]:
    from referee.games.caravan import disputes

    return disputes


def _rulebook() -> Rulebook:
    from referee.games.caravan import rulebook

    return rulebook


def _maker() -> Callable[..., Maker]:
    from referee.games.caravan.selfplay import CaravanMaker

    return CaravanMaker


GAME: Game[engine.State, engine.Move, CaravanRecord, engine.RuleSet] = Game(
    name="caravan",
    title=M("Caravan"),  # said in the reader's language where a page or sentence names the game
    engine=engine,
    notation=Notation("CVN", (".cvn",), read=lazy(_read), moves=lambda record: record.moves, write=lazy(_write),
                      moves_name_mover=False),
    rule_sets=tuple(engine.RULESETS),
    settings=Lazy(_settings),
    plan=lazy(_plan),
    numbered_players=True,
    examples=("pitboss validate games.cvn", "pitboss annotate game.cvn",
              "pitboss solve puzzle.cvn -Q reach --caravan A --within 3",
              "pitboss selfplay caravan --games 100 --rules fnv > random.cvn"),
    compiled=engine.COMPILED,
    render=Lazy(_render),
    live=Lazy(_live),
    analyser=Analyser("with the mover's hand and deck known, a forced win within --depth own turns and each of "
                      "the mover's caravans' fewest moves into 21-26 within --within; ? marks a sale made "
                      "impossible.", lazy(_analyse)),
    solver=Solver(QUESTIONS, OPTIONS, Lazy(_answers)),
    prover=Lazy(_prover),
    rulebook=Lazy(_rulebook),
    players=Lazy(_players),
    disputes=Lazy(_disputes),
    selfplay=SelfPlay(
        "games", "Random legal, complete Caravan games as CVN, with both decks (random legal decks).",
        lazy(_maker),
        (Option("player", "random", "random: uniform legal moves; greedy: prefers moves that win lanes; "
                "mixed: either, per side.", choices=PLAYERS),
         Option("draws", False, "Write each drawn card (+9D) after its move.", negatable=True),
         Option("move-limit", 1000, "Stop a game after this many plies, as a record with [Termination \"move limit\"] "
                "and the result * (under fnv a game need not end).", min=1)),
    ),
)
