"""``pitboss annotate --analyse``: after each move, the best outcome still reachable by the mover.

Every legal move of an annotated record is looked at from the mover's side, before and after
it, with the solver (``referee.jobs.solve``), each query under a small time limit:

Caravan (only when the mover's hand and deck are fully known; otherwise nothing is said):

* forced win: can the mover force a win within ``depth`` (D) own turns? Before the move:
  the smallest n <= D with a win (the solver's forced-win search, the mover to move). After
  the move: with D - 1 own turns left, does the mover still win whatever the opponent
  replies (a move that ends the game won counts as kept)? Asked only when both hands and
  both decks are known (the search needs perfect information).
* sales: for each of the mover's three caravans, the fewest own moves (at most ``within``,
  K) that bring it into 21-26 with the opponent passing (the solver's ``fewest``), before
  and after the move. K is the same before and after.

  Comment: ``analysis: forced win in 1 | A sellable in 0, B in 2, C not within 3`` (the
  position after the move; ``forced win in N lost`` when the move threw it away).

  Marks: ``??`` when a forced win within D existed before the move and none within D - 1
  own turns remains after it; ``?`` (when not ``??``) when some caravan of the mover was
  sellable within K before the move and none of those caravans is sellable within K after
  it. An ``unknown`` (timed-out) answer takes part in no mark.

Daifugo (a play or a pass by a player to move): the fewest plays that empty the mover's
hand if nobody beats them (the solver's ``out``), before and after the move. Comment:
``analysis: out in N plays`` (after the move). Mark ``?`` for a play after which that count
is not smaller than before (the play did not bring the mover a play nearer going out).
Passes get the comment and no mark; exchanges and timed-out queries get nothing.

A mark is added only to a move that has no annotation glyph of its own in the record.
The analysis comments are appended after the move's other comments, so the output is a
valid record that ``validate`` reads with the same verdicts.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from referee.games.caravan import engine as cv
from referee.games.caravan.solve.questions import line_question
from referee.games.caravan.solve.search import WinSearch
from referee.games.daifugo import engine as df
from referee.games.daifugo.solve.questions import out_question
from referee.jobs.annotate import Annotated, _record_comments, annotate_lines, support
from referee.jobs.solve import Deadline, QuestionError, Timeout
from referee.notation.records import open_text, text_lines

#: Defaults: own turns for the forced win, own moves for a sale, seconds per query and per move.
DEPTH = 2
WITHIN = 3
QUERY_SECONDS = 0.5
MOVE_SECONDS = 2.0


@dataclass(frozen=True)
class Limits:
    depth: int = DEPTH
    within: int = WITHIN
    #: Seconds for one solver query (the forced-win search before and after a move share one).
    query_seconds: float = QUERY_SECONDS
    #: Seconds for all the queries of one move.
    move_seconds: float = MOVE_SECONDS


@dataclass
class MoveAnalysis:
    index: int
    player: str
    before: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)
    #: The mark the analysis gives ("??", "?") or None; ``added`` says whether it was written.
    glyph: str | None = None
    added: bool = False
    comment: str | None = None
    time: float = 0.0

    def to_json(self) -> dict:
        return {"before": self.before, "after": self.after, "glyph": self.glyph, "glyph_added": self.added,
                "comment": self.comment, "time": round(self.time, 3)}


class _Budget:
    """The time of one move, handed out query by query."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.clock = Deadline(limits.move_seconds)

    def query(self) -> Deadline:
        left = self.clock.remaining() or 0.0
        return Deadline(max(0.0, min(self.limits.query_seconds, left)))


# ------------------------------------------------------------------ Caravan


def _mover_known(state: cv.State, p: int) -> bool:
    return state.hands[p].fully_known and state.decks[p] is not None


def _all_known(state: cv.State) -> bool:
    return all(_mover_known(state, p) for p in (0, 1))


def _sales(state: cv.State, p: int, k: int, budget: _Budget) -> dict[str, int | str | None]:
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


def _forced(before: cv.State, after: cv.State | None, d: int, budget: _Budget) -> tuple[Any, Any]:
    """(before, after): before, the smallest n <= d with a forced win, None (none) or
    "unknown"; after (d - 1 own turns left), the smallest such n, 0 (the move won), None or
    "unknown"."""
    p = before.to_move
    search = WinSearch(before, budget.query())
    try:
        first = next((n for n in range(1, d + 1) if search.win(before, n) is not None), None)
    except Timeout:
        first = "unknown"
    if after is None:
        return first, None
    if after.over:
        return first, 0 if after.winner == p else None
    search = WinSearch(before, budget.query())
    try:
        kept = next((n for n in range(1, d) if search.holds(after, n)), None)
    except Timeout:
        kept = "unknown"
    return first, kept


def _sales_text(sales: dict[str, Any], k: int) -> str:
    parts = []
    for i, (letter, n) in enumerate(sales.items()):
        head = f"{letter} sellable in" if i == 0 else f"{letter} in"
        if n == "unknown":
            parts.append(f"{letter} unknown")
        elif n is None:
            parts.append(f"{letter} not sellable within {k}" if i == 0 else f"{letter} not within {k}")
        else:
            parts.append(f"{head} {n}")
    return ", ".join(parts)


def analyse_caravan(step, limits: Limits) -> MoveAnalysis | None:
    before: cv.State = step.before
    after: cv.State | None = step.after
    if not step.legal or after is None or before.over:
        return None
    p = before.to_move
    if not _mover_known(before, p):
        return None
    start = time.monotonic()
    budget = _Budget(limits)
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
            words.append(f"forced win in {first} lost")
        elif kept == 0:
            words.append("won")
        elif isinstance(kept, int):
            words.append(f"forced win in {kept}")
        elif first is None and kept is None:
            words.append(f"no forced win within {d}")
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
    result.comment = "analysis: " + " | ".join(words) if words else None
    result.time = time.monotonic() - start
    return result


# ------------------------------------------------------------------ Daifugo


def _out(state: df.State, p: int, budget: _Budget) -> int | str | None:
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


def analyse_daifugo(step, limits: Limits) -> MoveAnalysis | None:
    before: df.State = step.before
    after: df.State | None = step.after
    move = step.entry.move
    if not step.legal or after is None or before.phase != "play" or before.to_move is None:
        return None
    if not isinstance(move, (df.Play, df.Pass)):
        return None
    p = before.to_move
    start = time.monotonic()
    budget = _Budget(limits)
    n_before = _out(before, p, budget)
    n_after = _out(after, p, budget)
    if not isinstance(n_before, int) or not isinstance(n_after, int):
        return None
    result = MoveAnalysis(step.index, step.player, {"out": n_before}, {"out": n_after})
    result.comment = f"analysis: out in {n_after} play{'s' if n_after != 1 else ''}"
    if isinstance(move, df.Play) and n_after >= n_before:
        result.glyph = "?"
    result.time = time.monotonic() - start
    return result


# ------------------------------------------------------------------ records


ANALYSERS = {"caravan": analyse_caravan, "daifugo": analyse_daifugo}


@dataclass
class Analysed:
    """An annotated record with the analysis of each move (by move index) written in."""

    annotated: Annotated
    moves: dict[int, MoveAnalysis]
    limits: Limits

    @property
    def text(self) -> str:
        return self.annotated.text

    def to_json(self) -> dict:
        doc = self.annotated.to_json()
        for move in doc["moves"]:
            found = self.moves.get(move["index"] - 1)
            move["analysis"] = found.to_json() if found is not None else None
        doc["analysis"] = {"depth": self.limits.depth, "within": self.limits.within,
                           "query_seconds": self.limits.query_seconds, "move_seconds": self.limits.move_seconds,
                           "marked": sum(1 for m in self.moves.values() if m.added)}
        return doc


def analyse(annotated: Annotated, limits: Limits = Limits()) -> Analysed:
    """The analysis of every legal move of an annotated record, and its text rewritten with
    the analysis comments (after the move's others) and the marks (where it had no glyph)."""
    analyser = ANALYSERS.get(annotated.timeline.game or "")
    if analyser is None or annotated.unchanged is not None or not annotated.notes:
        return Analysed(annotated, {}, limits)
    timeline = annotated.timeline
    found: dict[int, MoveAnalysis] = {}
    for note in annotated.notes:
        a = analyser(note.step, limits)
        if a is not None:
            found[note.step.index] = a
    comments: dict[int, list[str]] = {}
    for note in annotated.notes:
        if note.comments:
            comments.setdefault(note.step.index, []).extend(note.comments)
    saved: list[tuple[Any, tuple[str, ...]]] = []
    for note in annotated.notes:
        a = found.get(note.step.index)
        if a is None:
            continue
        note.comments = [*note.comments, a.comment] if a.comment else note.comments
        if a.comment:
            comments.setdefault(note.step.index, []).append(a.comment)
        entry = note.step.entry
        if a.glyph and not entry.glyphs:
            saved.append((entry, entry.glyphs))
            entry.glyphs = (a.glyph,)
            a.added = True
    game = support(timeline.game)
    assert game is not None
    try:
        annotated.text = game.write(timeline, comments, _record_comments(timeline))
    finally:
        for entry, glyphs in saved:  # the record as read stays as read
            entry.glyphs = glyphs
    return Analysed(annotated, found, limits)


def analyse_lines(lines: Iterable[str], file: str, wanted: Sequence[str] = (), explain_all: bool = False,
                  limits: Limits = Limits()) -> Iterator[Analysed]:
    for annotated in annotate_lines(lines, file, wanted, explain_all):
        yield analyse(annotated, limits)


def analyse_text(text: str, file: str = "<text>", wanted: Sequence[str] = (), explain_all: bool = False,
                 limits: Limits = Limits()) -> list[Analysed]:
    return list(analyse_lines(text_lines(text), file, wanted, explain_all, limits))


def analyse_file(path: str, wanted: Sequence[str] = (), explain_all: bool = False,
                 limits: Limits = Limits(), stdin: TextIO | None = None) -> Iterator[Analysed]:
    """``annotate_file`` with the analysis (raises as it does)."""
    name = "<stdin>" if path == "-" else path
    handle = open_text(path, stdin)
    try:
        yield from analyse_lines(handle, name, wanted, explain_all, limits)
    finally:
        if path != "-":
            handle.close()
