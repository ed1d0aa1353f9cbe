"""One question asked of one position: the dispatch behind ``pitboss solve``."""

from __future__ import annotations

from dataclasses import dataclass

from referee.jobs.solve import MAX_DEPTH, MAX_WITHIN, QUESTIONS, Answer, Deadline, QuestionError
from referee.jobs.solve.positions import Position


@dataclass
class Options:
    """Every option of ``pitboss solve``; each question reads the ones it needs."""

    caravan: str | None = None
    lane: str | None = None
    within: int | None = None
    cards: str | None = None
    depth: int | None = None
    play: str | None = None
    player: str | None = None
    method: str = "auto"
    timeout: float | None = 10.0


#: Which options each question takes (any other given option is a usage error).
TAKES = {
    "reach": {"caravan", "within", "cards", "method"},
    "fewest": {"caravan", "lane", "within", "cards", "method"},
    "forced-win": {"depth"},
    "out": {"player", "method"},
    "unbeatable": {"player", "play", "cards"},
    "forced-out": {"player", "depth"},
}


def ask(position: Position, question: str, options: Options) -> Answer:
    """The answer to ``question`` about ``position`` (QuestionError: bad usage).

    ``options.timeout`` counts from this call (loading the solver and building its model
    included); the answer's ``stats.time`` is the time the call really took, and its
    other stats the work really done, also when the time ran out."""
    deadline = Deadline(options.timeout)
    answer = _ask(position, question, options, deadline)
    stats = answer.stats
    stats.time = deadline.elapsed()
    if answer.answer == "unknown" and deadline.expired():
        stats.nodes = max(stats.nodes, deadline.checks)
        stats.solver_calls = max(stats.solver_calls, deadline.solver_calls)
        took = f"unknown after {stats.time:.2f} s (--timeout {options.timeout:g} s)"
        answer.text = [took if line == f"unknown: {answer.reason}" else line for line in answer.text]
        answer.reason = took
        if f"unknown: {took}" not in answer.text:
            answer.text = [line for line in answer.text if not line.startswith("unknown")] + [f"unknown: {took}"]
    return answer


def _ask(position: Position, question: str, options: Options, deadline: Deadline) -> Answer:
    for name, most in (("within", MAX_WITHIN), ("depth", MAX_DEPTH)):
        value = getattr(options, name)
        if value is not None and value > most:
            raise QuestionError(f"--{name} {value} is past its maximum, {most}")
    q = QUESTIONS.get(question)
    if q is None:
        raise QuestionError(f"unknown question {question!r}: {', '.join(QUESTIONS)}")
    if q.game != position.game:
        fits = ", ".join(n for n, x in QUESTIONS.items() if x.game == position.game)
        raise QuestionError(f"--question {question} is a {q.game.title()} question, but the record is "
                            f"{position.game.title()}; ask one of: {fits}")
    given = {name for name in ("caravan", "lane", "within", "cards", "depth", "play", "player")
             if getattr(options, name) is not None}
    if options.method != "auto":
        given.add("method")
    extra = sorted(given - TAKES[question])
    if extra:
        raise QuestionError(f"--question {question} does not take {', '.join('--' + e for e in extra)}")
    if position.game == "caravan":
        from referee.games.caravan.solve.questions import (
            forced_win_question,
            line_question,
        )

        if question == "forced-win":
            return forced_win_question(position.state, depth=options.depth, deadline=deadline)
        return line_question(position.state, question, caravan=options.caravan, lane=options.lane,
                             within=options.within, cards=options.cards or "hand+deck",
                             method=options.method, deadline=deadline)
    from referee.games.daifugo.solve.questions import (
        forced_out_question,
        out_question,
        unbeatable_question,
    )

    names = position.names
    if question == "out":
        return out_question(position.state, names, player=options.player, method=options.method,
                            deadline=deadline)
    if question == "unbeatable":
        return unbeatable_question(position.state, names, player=options.player, play=options.play,
                                   cards=options.cards or "unseen", deadline=deadline)
    return forced_out_question(position.state, names, player=options.player, depth=options.depth,
                               deadline=deadline)
