"""Daifugo (大富豪) as the generic jobs see it: one :class:`Game`.

The functions below load a part when it is first used (``pitboss --help`` imports no
grammar, no renderer and no solver); what each returns is checked against the contract
(:mod:`referee.jobs.game`) by mypy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from referee.engines.message import M
from referee.games.daifugo import engine
from referee.games.daifugo.questions import OPTIONS, QUESTIONS
from referee.games.daifugo.uecda.listener import LISTENER
from referee.jobs.game import (
    Analyser,
    Answering,
    Converter,
    Disputes,
    Foreign,
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
from referee.jobs.listener import Holding

if TYPE_CHECKING:
    from referee.games.daifugo.notation.dfn import DaifugoRecord
    from referee.games.daifugo.uecda import held
    from referee.jobs.analysis import Limits, MoveAnalysis
    from referee.jobs.report import GameReport
    from referee.jobs.segment import Plan, Step
    from referee.notation.records import Chunk


def _read() -> Callable[[Chunk, str, int], DaifugoRecord]:
    from referee.games.daifugo.notation.dfn import read_daifugo

    return read_daifugo


def _write() -> Callable[[DaifugoRecord, Chunk, Mapping[int, Sequence[str]], Sequence[str]], str]:
    from referee.games.daifugo.annotate import write

    return write


def _plan() -> Callable[[DaifugoRecord, GameReport, engine.RuleSet | None], Plan[engine.State, engine.Move]]:
    from referee.games.daifugo.referee import plan

    return plan


def _settings() -> Settings[engine.State, DaifugoRecord, engine.RuleSet]:
    from referee.games.daifugo import settings

    return Settings(settings.parse, settings.label, settings.declared, settings.comparisons, settings.position_key,
                    of=lambda state: state.rules, option=lambda rules, name: rules.option(name))


def _is_contest_log() -> Callable[[str], bool]:
    from referee.games.daifugo.uecda.notation.header import is_contest_log

    return is_contest_log


def _validate_log() -> Callable[[Iterable[str], str], Iterator[GameReport]]:
    from referee.games.daifugo.uecda.log_referee import validate_log

    return validate_log


def _convert() -> Converter:
    from referee.games.daifugo.uecda import convert

    return convert


def _render() -> Renderer[engine.State, engine.Move, DaifugoRecord]:
    from referee.games.daifugo.render import RENDERER

    return RENDERER


def _live() -> Live:
    from referee.games.daifugo import tables

    return tables


def _players() -> Players:
    from referee.games.daifugo import players

    return players


def _analyse() -> Callable[[Step[engine.State, engine.Move], Limits], MoveAnalysis | None]:
    from referee.games.daifugo.analyse import analyse

    return analyse


def _answers() -> Answering[engine.State, DaifugoRecord]:
    from referee.games.daifugo.solve import questions

    return questions


def _prover() -> Prover:
    from referee.games.daifugo import prove

    return prove


def _disputes() -> Disputes[engine.State, engine.RuleSet]:
    from referee.games.daifugo import disputes

    return disputes


def _rulebook() -> Rulebook:
    from referee.games.daifugo import rulebook

    return rulebook


def _maker() -> Callable[..., Maker]:
    from referee.games.daifugo.selfplay import maker

    return maker


GAME: Game[engine.State, engine.Move, DaifugoRecord, engine.RuleSet] = Game(
    name="daifugo",
    title=M("Daifugo"),  # said in the reader's language where a page or sentence names the game
    engine=engine,
    notation=Notation("DFN", (".dfn",), read=lazy(_read),
                      moves=lambda record: [entry for rnd in record.rounds for entry in rnd.moves],
                      write=lazy(_write), section_tags=frozenset({"round"})),
    rule_sets=tuple(engine.PRESETS),
    settings=Lazy(_settings),
    plan=lazy(_plan),
    foreign=(Foreign("uecda-log", "a UEC contest-server log", lazy(_is_contest_log), lazy(_validate_log),
                     extensions=(".log",), convert=Lazy(_convert), writes=True),),
    examples=("pitboss validate --json contest.log | jq .summary", "pitboss show match.dfn --html replay.html",
              "pitboss annotate -r 'classic +spade3' match.dfn"),
    compiled=engine.COMPILED,
    render=Lazy(_render),
    live=Lazy(_live),
    analyser=Analyser("the fewest plays out for the mover; ? marks a play that brings the mover no nearer going "
                      "out.", lazy(_analyse)),
    solver=Solver(QUESTIONS, OPTIONS, Lazy(_answers)),
    prover=Lazy(_prover),
    rulebook=Lazy(_rulebook),
    players=Lazy(_players),
    disputes=Lazy(_disputes),
    selfplay=SelfPlay(
        "matches", "Random legal, complete Daifugo matches as DFN: each round's deal, exchange, every "
        "move and the finishing order; or, with --format uecda-log, as UEC contest-server logs.",
        lazy(_maker),
        (Option("players", 5, "Players per match, 3 to 8 (uecda: 5).", min=3, max=8),
         Option("options", "", 'Toggles on top of the preset, as in the Options tag: "+eight-cut -revolution '
                'stairs-revolution=4 exchange=choice".'),
         Option("rounds", 3, "Rounds per match (a contest log's games).", min=1),
         Option("format", "dfn", "dfn: DFN records; uecda-log: each match played at a UEC contest table and "
                "written as the contest server's log (with --rules uecda; the server's seed deals, seats and "
                "chains the games; several logs go to an existing --output directory, one file each), e.g. "
                "pitboss selfplay daifugo -r uecda --format uecda-log -n 1 --rounds 1000 -o table.log",
                choices=("dfn", "uecda-log")),
         Option("revision", "2018", "uecda-log: the contest server's revision, 2018 (tndhms 0.29) or later "
                "(its exchange, points and trick rule).", choices=("2018", "later"))),
    ),
    listeners=(LISTENER,),
)

if TYPE_CHECKING:
    _held: Holding = held  # the listener's held tables, checked against the contract by mypy
