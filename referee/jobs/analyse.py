"""``pitboss annotate --analyse``: after each move, the best outcome still reachable by the mover.

Every legal move of an annotated record is looked at from the mover's side, before and after
it, with the solver, each query under a small time limit, by its game's analyser (the
``analyse`` part of its Game: ``analyse(step, limits) -> MoveAnalysis | None``):

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

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from referee.i18n import tr
from referee.jobs.analysis import Limits, MoveAnalysis
from referee.jobs.annotate import Annotated, annotate_lines, written
from referee.notation.records import MoveEntry, open_text, text_lines


@dataclass
class Analysed:
    """An annotated record with the analysis of each move (by move index) written in."""

    annotated: Annotated
    moves: dict[int, MoveAnalysis]
    limits: Limits

    @property
    def text(self) -> str:
        return self.annotated.text

    def to_json(self) -> dict[str, object]:
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
    game = annotated.timeline.kind
    if game is None or game.analyser is None or annotated.unchanged is not None or not annotated.notes:
        return Analysed(annotated, {}, limits)
    analyser = game.analyser.analyse
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
    saved: list[tuple[MoveEntry[object], tuple[str, ...]]] = []
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
    try:
        annotated.text = written(timeline, {i: [tr(c) for c in cs] for i, cs in comments.items()},
                                 [tr(c) for c in annotated.record_comments])
    finally:
        for entry, glyphs in saved:  # the record as read stays as read
            entry.glyphs = glyphs
    return Analysed(annotated, found, limits)


def analyse_lines(lines: Iterable[str], file: str, wanted: Sequence[str] = (), explain_all: bool = False,
                  limits: Limits = Limits(), compare_all: bool = False) -> Iterator[Analysed]:
    for annotated in annotate_lines(lines, file, wanted, explain_all, compare_all):
        yield analyse(annotated, limits)


def analyse_text(text: str, file: str = "<text>", wanted: Sequence[str] = (), explain_all: bool = False,
                 limits: Limits = Limits()) -> list[Analysed]:
    return list(analyse_lines(text_lines(text), file, wanted, explain_all, limits))


def analyse_file(path: str, wanted: Sequence[str] = (), explain_all: bool = False,
                 limits: Limits = Limits(), stdin: TextIO | None = None, compare_all: bool = False) -> Iterator[Analysed]:
    """``annotate_file`` with the analysis (raises as it does)."""
    name = "<stdin>" if path == "-" else path
    handle = open_text(path, stdin)
    try:
        yield from analyse_lines(handle, name, wanted, explain_all, limits, compare_all)
    finally:
        if path != "-":
            handle.close()
