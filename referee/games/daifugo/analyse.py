"""Analysing Daifugo moves: what the mover could still reach before and after each move (see
``referee.jobs.analyse``, which says what is asked and how moves are marked)."""

from __future__ import annotations

import time

from referee.engines.message import N, T
from referee.games.daifugo import engine as df
from referee.games.daifugo.solve.questions import out_question
from referee.jobs.analysis import Budget, Limits, MoveAnalysis
from referee.jobs.solve import QuestionError


def _out(state: df.State, p: int, budget: Budget) -> int | str | None:
    """Fewest plays out for player p: 0 with no cards, "unknown" on a timeout, None when
    the solver cannot be asked."""
    if not state.hands[p]:
        return 0
    names = tuple(str(i) for i in range(len(state.hands)))
    try:
        a = out_question(state, names, player=str(p), method="search", deadline=budget.query())
    except QuestionError:
        return None
    return a.extra.get("plays") if a.answer == "yes" else "unknown"


def analyse(step, limits: Limits) -> MoveAnalysis | None:
    before: df.State = step.before
    after: df.State | None = step.after
    move = step.entry.move
    if not step.legal or after is None or before.phase != "play" or before.to_move is None:
        return None
    if not isinstance(move, (df.Play, df.Pass)):
        return None
    p = before.to_move
    start = time.monotonic()
    budget = Budget(limits)
    n_before = _out(before, p, budget)
    n_after = _out(after, p, budget)
    if not isinstance(n_before, int) or not isinstance(n_after, int):
        return None
    result = MoveAnalysis(step.index, step.player, {"out": n_before}, {"out": n_after})
    result.comment = T("analysis: {findings}", findings=N("out in {n} play", "out in {n} plays", n_after))
    if isinstance(move, df.Play) and n_after >= n_before:
        result.glyph = "?"
    result.time = time.monotonic() - start
    return result


# ------------------------------------------------------------------ records
