"""What ``pitboss solve`` can ask, as data: each game's questions and their options
(``Game.solver``: ``Solver.questions``, ``Solver.options``). Light: the answers are in
each game's ``solve`` part, loaded only when a question is asked."""

from __future__ import annotations

from dataclasses import dataclass

#: The largest --within (own moves) and --depth (own turns or plays) a question takes: past
#: them even building the question's model outgrows any sensible --timeout and memory.
MAX_WITHIN = 30
MAX_DEPTH = 30


@dataclass(frozen=True)
class Question:
    """A question ``pitboss solve`` can ask of a game's positions (``Solver.questions``)."""

    name: str
    summary: str
    example: str
    #: The options of ``pitboss solve`` it takes (any other given is a usage error).
    takes: frozenset[str] = frozenset()


@dataclass(frozen=True)
class QuestionOption:
    """An option some of a game's questions take (``pitboss solve --NAME``); games that
    share a name share the option, their helps joined."""

    name: str
    type: type
    help: str
    short: str | None = None
    metavar: str | None = None
    min: int | None = None
    #: The largest value taken (a documented maximum; past it, a clear error).
    max: int | None = None
