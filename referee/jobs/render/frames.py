"""A record's replay as frames (:class:`~referee.jobs.frame.Frame`): each position,
with the move that led to it and its notes.

A frame knows its game by name only; what a game draws, and what it keeps beside the
engine's state for drawing (``Frame.table``), comes from the game's renderer
(``Game.render``, a :class:`~referee.jobs.game.Renderer`): its ``table_start`` and
``table_after`` say what lies on the table beyond the engine's state, ``mover`` who moved,
``number`` the move's number as the notation writes it, when the game has them.
"""

from __future__ import annotations

from typing import Any

from referee import spec
from referee.engines.message import T
from referee.i18n import current, tr
from referee.jobs import registry
from referee.jobs.annotate import Annotated, MoveNote
from referee.jobs.frame import TEXT, Frame, Note
from referee.jobs.game import Renderer
from referee.jobs.segment import unrejected

#: The renderer of a frame's game, whichever it is (generic code does not know its types).
SomeRenderer = Renderer[Any, Any, Any]


def render_part(frame_or_game: Frame[object, object] | str) -> SomeRenderer:
    """The renderer of a frame's game. Raises LookupError for a game without one."""
    name = frame_or_game if isinstance(frame_or_game, str) else frame_or_game.game
    game = registry.find(name)
    if game is None or game.render is None:
        raise LookupError(f"no renderer for {name!r}")
    return game.render.get()


def sentences(note: MoveNote, own: str) -> list[Note]:
    """annotate's verdicts on a move, as sentences a player reads."""
    out: list[Note] = []
    step = note.step
    catalog = spec.catalog()
    if step.violation is not None:
        v = step.violation
        message = tr(unrejected(v.message)).rstrip(".。")
        if step.rejected:
            out.append(Note("rejected", TEXT["rejected"].format(message=message), (v.rule,)))
        else:
            out.append(Note("illegal", TEXT["illegal"].format(rules=own, message=message), (v.rule,)))
    if note.disputed:
        parts = []
        ids: list[str] = []
        for label, verdict in note.verdicts.items():
            if verdict.legal:
                parts.append(TEXT["verdict_legal"].format(rules=label))
            else:
                parts.append(TEXT["verdict_illegal"].format(rules=label,
                                                            message=tr(verdict.message or "").rstrip(".。")))
                if verdict.rule:
                    ids.append(verdict.rule)
        out.append(Note("disputed", TEXT["disputed"].format(verdicts="; ".join(parts)), tuple(ids)))
    for r in note.rulings:
        rule = catalog.get(r)
        if rule is not None:
            title = spec.translated(rule, current()).title
            out.append(Note("ruling", TEXT["ruling"].format(title=title, source=rule.source), (r,)))
    return out


def frames_of(annotated: Annotated) -> list[Frame[object, object]]:
    """Every position of a record's replay: each segment's start, then the position after
    each move (after an illegal move, the position before it, marked)."""
    timeline = annotated.timeline
    game = timeline.game or ""
    label = annotated.variants[0].label if annotated.variants else (timeline.rules_name or "")
    notes: dict[int, MoveNote] = {n.step.index: n for n in annotated.notes}
    part = render_part(game)
    record = timeline.record
    start_table, after_table, mover, number = part.table_start, part.table_after, part.mover, part.number
    frames: list[Frame[object, object]] = []
    for segment in timeline.segments:
        table = start_table(record, segment) if start_table is not None else None
        frames.append(Frame(game, segment.start, label, 0, segment.round, table=table))
        for step in segment.steps:
            note = notes.get(step.index)
            state = step.after if step.after is not None else step.before
            if after_table is not None and step.after is not None:
                table = after_table(step, table)
            v = step.violation
            frame = Frame(
                game, state, label, step.ply, segment.round, step.entry.text, step.player,
                illegal=v is not None and not step.rejected, rejected=step.rejected,
                disputed=bool(note and note.disputed), ruling=bool(note and note.rulings),
                comments=list(note.comments) if note else [], table=table, action=step.entry.move,
                mover=mover(record, step) if mover is not None else step.player,
                notes=sentences(note, label) if note else [],
                why=(v.rule, v.message) if v is not None else None)
            frame.number = number(frame) if number is not None else f"{step.ply}."
            frames.append(frame)
    return frames


def select(frames: list[Frame[object, object]], ply: int | None, round_no: int | None = None) -> Frame[object, object]:
    """The frame after ``ply`` moves of round ``round_no`` (a match of rounds; default the
    first round when a ply is given), or the last frame when ``ply`` is None. Raises
    LookupError when there is no such position."""
    if not frames:
        raise LookupError(T("the record has no position to show (its start could not be set up)"))
    if round_no is None:
        if ply is None:
            return frames[-1]
        round_no = frames[0].round
    pool = [f for f in frames if f.round == round_no]
    if not pool:
        rounds = sorted({f.round for f in frames if f.round is not None})
        if not rounds:
            raise LookupError(T("there is no round {round} (rounds: none)", round=round_no))
        raise LookupError(T("there is no round {round} (rounds: {rounds})", round=round_no,
                            rounds=", ".join(map(str, rounds))))
    if ply is None:
        return pool[-1]
    for f in pool:
        if f.ply == ply and not f.illegal:
            return f
    last = max(f.ply for f in pool if not f.illegal)
    if any(f.illegal for f in pool):
        raise LookupError(T("ply {ply} is not a position of the replay (plies 0 to {last}; the replay stops at an "
                            "illegal move)", ply=ply, last=last))
    raise LookupError(T("ply {ply} is not a position of the replay (plies 0 to {last})", ply=ply, last=last))
