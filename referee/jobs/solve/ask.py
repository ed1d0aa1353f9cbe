"""One question asked of one position: the dispatch behind ``pitboss solve``."""

from __future__ import annotations

from typing import Any

from referee.engines.message import T
from referee.jobs import registry
from referee.jobs.questions import QuestionOption
from referee.jobs.solve import Answer, Deadline, QuestionError
from referee.jobs.solve.positions import Position


def question_names() -> list[str]:
    """Every game's questions, by name (what ``--question`` accepts)."""
    return [q.name for g in registry.games() if g.solver is not None for q in g.solver.questions]


def question_options() -> dict[str, list[QuestionOption]]:
    """Each question option's name -> its declarations, one per game that has it."""
    out: dict[str, list[QuestionOption]] = {}
    for g in registry.games():
        for option in g.solver.options if g.solver is not None else ():
            out.setdefault(option.name, []).append(option)
    return out


def option_names() -> list[str]:
    return list(question_options())


class Options:
    """The options of one ``pitboss solve``: ``method``, ``timeout`` and the question
    options every game declares (``Solver.options``; None when not given), read as
    attributes by each game's ``ask``."""

    #: Set by ``ask`` when the call starts.
    deadline: Deadline

    def __init__(self, method: str = "auto", timeout: float | None = 10.0, **given: Any) -> None:
        known = option_names()
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise TypeError(f"no solve option {', '.join(unknown)}")
        self.method = method
        self.timeout = timeout
        #: Re-prove every unsat answer with cvc5 from the same SMT-LIB text (set after
        #: construction: ``--certify``).
        self.certify = False
        self.values: dict[str, Any] = {name: given.get(name) for name in known}

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("values", {})
        if name in values:
            return values[name]
        raise AttributeError(name)


def ask(position: Position, question: str, options: Options) -> Answer:
    """The answer to ``question`` about ``position`` (QuestionError: bad usage).

    ``options.timeout`` counts from this call (loading the game's solver and building its
    model included: the game's ``ask`` is given the deadline as ``options.deadline``); the
    answer's ``stats.time`` is the time the call really took, and its other stats the work
    really done, also when the time ran out."""
    deadline = Deadline(options.timeout)
    options.deadline = deadline
    answer = _ask(position, question, options)
    stats = answer.stats
    stats.time = deadline.elapsed()
    if answer.answer == "unknown" and deadline.expired():
        stats.nodes = max(stats.nodes, deadline.checks)
        stats.solver_calls = max(stats.solver_calls, deadline.solver_calls)
        took = f"unknown after {stats.time:.2f} s (--timeout {options.timeout:g} s)"
        answer.reason = took
        answer.text = [line for line in answer.text if not line.startswith("unknown")] + [f"unknown: {took}"]
    return answer


def _ask(position: Position, question: str, options: Options) -> Answer:
    for name, declared in question_options().items():
        value = options.values.get(name)
        most = min((o.max for o in declared if o.max is not None), default=None)
        if value is not None and most is not None and value > most:
            raise QuestionError(T("--{name} {value} is past its maximum, {most}", name=name, value=value, most=most))
    game = registry.game(position.game)
    solver = game.solver
    q = next((q for q in solver.questions if q.name == question), None) if solver is not None else None
    if solver is None or q is None:
        owner = next((g for g in registry.games() if g.solver is not None for x in g.solver.questions
                      if x.name == question), None)
        if owner is None:
            raise QuestionError(T("unknown question {question}: {questions}", question=repr(question),
                                  questions=", ".join(question_names())))
        fits = ", ".join(x.name for x in solver.questions) if solver is not None else ""
        raise QuestionError(T("--question {question} is a {game} question, but the record is {other}; ask one of: "
                              "{fits}", question=question, game=owner.title, other=game.title, fits=fits))
    given = {name for name, value in options.values.items() if value is not None}
    if options.method != "auto":
        given.add("method")
    extra = sorted(given - q.takes)
    if extra:
        raise QuestionError(T("--question {question} does not take {options}", question=question,
                              options=", ".join("--" + e for e in extra)))
    answering = solver.answers.get()  # loading it (z3) is the question's time too
    if options.deadline.expired():
        return Answer(question, "unknown", text=["unknown"])
    return answering.ask(position, question, options)
