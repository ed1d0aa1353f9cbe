"""Analysing Caravan moves: what the mover could still reach before and after each move (see
``referee.jobs.analyse``, which says what is asked and how moves are marked)."""

from __future__ import annotations

import time
from typing import Any

from referee.engines.message import J, T
from referee.games.caravan import engine as cv
from referee.games.caravan.solve.questions import line_question
from referee.games.caravan.solve.search import WinSearch
from referee.jobs.analysis import Budget, Limits, MoveAnalysis
from referee.jobs.solve import QuestionError, Timeout


def _mover_known(state: cv.State, p: int) -> bool:
    return state.hands[p].fully_known and state.decks[p] is not None


def _all_known(state: cv.State) -> bool:
    return all(_mover_known(state, p) for p in (0, 1))


def _sales(state: cv.State, p: int, k: int, budget: Budget) -> dict[str, int | str | None]:
    """Each of p's caravans: the fewest own moves (<= k) into 21-26, None (not within k) or
    "unknown"."""
    out: dict[str, int | str | None] = {}
    for c in cv.own_caravans(p):
        letter = cv.LETTERS[c]
        if state.over:
            out[letter] = "unknown"
            continue
        try:
            a = line_question(state, "fewest", caravan=letter, within=k, method="search", deadline=budget.query())
        except QuestionError:
            out[letter] = "unknown"
            continue
        out[letter] = a.extra.get("moves") if a.answer == "yes" else None if a.answer == "no" else "unknown"
    return out


def _forced(before: cv.State, after: cv.State | None, d: int, budget: Budget) -> tuple[Any, Any]:
    """(before, after): before, the smallest n <= d with a forced win, None (none) or
    "unknown"; after (d - 1 own turns left), the smallest such n, 0 (the move won), None or
    "unknown"."""
    p = before.to_move
    search = WinSearch(before, budget.query())
    first: int | str | None
    try:
        first = next((n for n in range(1, d + 1) if search.win(before, n) is not None), None)
    except Timeout:
        first = "unknown"
    if after is None:
        return first, None
    if after.over:
        return first, 0 if after.winner == p else None
    search = WinSearch(before, budget.query())
    kept: int | str | None
    try:
        kept = next((n for n in range(1, d) if search.holds(after, n)), None)
    except Timeout:
        kept = "unknown"
    return first, kept


def _sales_text(sales: dict[str, Any], k: int) -> str:
    parts = []
    for i, (letter, n) in enumerate(sales.items()):
        if n == "unknown":
            parts.append(T("{caravan} unknown", caravan=letter))
        elif n is None:
            parts.append(T("{caravan} not sellable within {k}", caravan=letter, k=k) if i == 0
                         else T("{caravan} not within {k}", caravan=letter, k=k))
        else:
            parts.append(T("{caravan} sellable in {n}", caravan=letter, n=n) if i == 0
                         else T("{caravan} in {n}", caravan=letter, n=n))
    return J(", ", parts)


def analyse(step, limits: Limits) -> MoveAnalysis | None:
    before: cv.State = step.before
    after: cv.State | None = step.after
    if not step.legal or after is None or before.over:
        return None
    p = before.to_move
    if not _mover_known(before, p):
        return None
    start = time.monotonic()
    budget = Budget(limits)
    result = MoveAnalysis(step.index, step.player)
    d, k = limits.depth, limits.within
    words: list[str] = []
    lost = False
    if _all_known(before) and d >= 1:
        first, kept = _forced(before, after, d, budget)
        result.before["forced_win"] = first
        result.after["forced_win"] = kept
        if isinstance(first, int) and kept is None:
            lost = True
            words.append(T("forced win in {n} lost", n=first))
        elif kept == 0:
            words.append(T("won"))
        elif isinstance(kept, int):
            words.append(T("forced win in {n}", n=kept))
        elif first is None and kept is None:
            words.append(T("no forced win within {n}", n=d))
    sales_before = _sales(before, p, k, budget)
    result.before["sellable"] = sales_before
    if not after.over:
        sales_after = _sales(after, p, k, budget)
        result.after["sellable"] = sales_after
        words.append(_sales_text(sales_after, k))
        were = [c for c, n in sales_before.items() if isinstance(n, int)]
        if were and all(sales_after[c] is None for c in were):
            result.glyph = result.glyph or "?"
    if lost:
        result.glyph = "??"
    result.comment = T("analysis: {findings}", findings=J(" | ", words)) if words else None
    result.time = time.monotonic() - start
    return result
