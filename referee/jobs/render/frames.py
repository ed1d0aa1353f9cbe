"""A record's replay as frames: each position, with the move that led to it and its notes.

A frame knows its game by name only; what a game draws, and what it keeps beside the
engine's state for drawing (``Frame.table``), comes from the game's ``render`` part
(``Game.part("render")``). That part may define:

* ``table_start(timeline, segment)`` and ``table_after(step, table)``: what lies on the
  table at a segment's start and after a move, beyond the engine's state;
* ``mover(timeline, step)``: who moved, as a player reads it;
* ``number(frame)``: the move's number as the game's notation writes it (``3.``, ``3…``);
* ``text(frame, color)``, ``svg(frame)``, ``data(frame)`` and ``script()``: the drawings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from referee import spec
from referee.engines.message import M, T
from referee.i18n import Text, current, tr
from referee.jobs import registry
from referee.jobs.annotate import Annotated, MoveNote
from referee.jobs.replay import unrejected

#: The sentences of the notes (one place, for translation).
TEXT = Text({
    # A frame's title: (round_)start, (round_)ply(_illegal|_rejected).
    "start": M("start"),
    "round_start": M("round {round}, start"),
    "ply": M("ply {ply}: {move}"),
    "ply_illegal": M("ply {ply}: {move} (illegal)"),
    "ply_rejected": M("ply {ply}: {move} (rejected)"),
    "round_ply": M("round {round}, ply {ply}: {move}"),
    "round_ply_illegal": M("round {round}, ply {ply}: {move} (illegal)"),
    "round_ply_rejected": M("round {round}, ply {ply}: {move} (rejected)"),
    "illegal": M("This move is illegal under {rules}: {message}."),
    "rejected": M("The contest server rejected this submission and counted it as a pass: {message}."),
    "disputed": M("The rule sets disagree about this move: {verdicts}."),
    "verdict_legal": M("under {rules} it is legal"),
    "verdict_illegal": M("under {rules} it is illegal ({message})"),
    "ruling": M("It stands by a ruling, where the written rules are silent: {title} ({source})."),
})


@dataclass(frozen=True)
class Note:
    """A note on a move as a sentence, of a kind (``illegal``, ``rejected``,
    ``disputed``, ``ruling``), with the ids of the rules it is about."""

    kind: str
    text: str
    rules: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, "rules": list(self.rules)}


@dataclass
class TablePlay:
    """The play lying on the table beside the state (the engine keeps only what it must
    beat): who made it, its cards as written, one reading per joker in order (None:
    unstated). A game's render part fills it (``table_start``, ``table_after``)."""

    player: str
    cards: tuple[Any, ...]
    joker_as: tuple[Any, ...] = ()


@dataclass
class Frame:
    game: str
    #: The position shown.
    state: Any
    #: The record's rule set as annotate names it in comments (a preset and its options).
    rules: str
    #: Moves made in this segment (a record, or a round of a match) to reach the position.
    ply: int
    round: int | None = None
    #: The move that led here (None for a start position), who made it.
    move: str | None = None
    player: str | None = None
    #: The move broke the record's rules (the position is the one before it).
    illegal: bool = False
    rejected: bool = False
    disputed: bool = False
    ruling: bool = False
    #: annotate's comments on the move, as it writes them into the record.
    comments: list[str] = field(default_factory=list)
    #: What the game's drawing keeps beside the state (what lies on the table).
    table: Any = None
    #: The move as the engine reads it (None for a start position).
    action: Any = None
    #: Who moved, as a player reads it; the move's number as the notation writes it.
    mover: str | None = None
    number: str | None = None
    #: The notes as sentences.
    notes: list[Note] = field(default_factory=list)
    #: Why an illegal (or rejected) move is so: the rule's id and the sentence.
    why: tuple[str, str] | None = None
    #: A live table's view of the position (all empty or None for a record's replay):
    #: the seats' names, in seat order (else the drawing says "Player 1" or the record's
    #: own names); how many cards each seat holds in a hand the position hides (its
    #: state shows none of them), and in a deck it hides (0: none hidden); the seat of
    #: the reader, drawn nearest (None: a spectator, drawn as a record is).
    names: tuple[str, ...] = ()
    hidden_hands: tuple[int, ...] = ()
    hidden_decks: tuple[int, ...] = ()
    reader: int | None = None

    @property
    def title(self) -> str:
        key = "round_" if self.round is not None else ""
        if self.move is None:
            return TEXT[key + "start"].format(round=self.round)
        key += "ply_illegal" if self.illegal else "ply_rejected" if self.rejected else "ply"
        return TEXT[key].format(round=self.round, ply=self.ply, move=self.move)

    def to_json(self) -> dict:
        return {"round": self.round, "ply": self.ply, "move": self.move, "player": self.player,
                "mover": self.mover, "number": self.number,
                "illegal": self.illegal, "rejected": self.rejected, "disputed": self.disputed,
                "ruling": self.ruling, "comments": self.comments,
                "notes": [n.to_json() for n in self.notes],
                "why": list(self.why) if self.why else None, "title": self.title}


def render_part(frame_or_game: Frame | str) -> ModuleType:
    """The ``render`` part of a frame's game. Raises LookupError for a game without one."""
    name = frame_or_game if isinstance(frame_or_game, str) else frame_or_game.game
    game = registry.find(name)
    if game is None or not game.has("render"):
        raise LookupError(f"no renderer for {name!r}")
    return game.part("render")


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


def frames_of(annotated: Annotated) -> list[Frame]:
    """Every position of a record's replay: each segment's start, then the position after
    each move (after an illegal move, the position before it, marked)."""
    timeline = annotated.timeline
    game = timeline.game or ""
    label = annotated.variants[0].label if annotated.variants else (timeline.rules_name or "")
    notes: dict[int, MoveNote] = {n.step.index: n for n in annotated.notes}
    part = render_part(game)
    start_table = getattr(part, "table_start", None)
    after_table = getattr(part, "table_after", None)
    mover = getattr(part, "mover", None)
    number = getattr(part, "number", None)
    frames: list[Frame] = []
    for segment in timeline.segments:
        table = start_table(timeline, segment) if start_table else None
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
                mover=mover(timeline, step) if mover else step.player,
                notes=sentences(note, label) if note else [],
                why=(v.rule, v.message) if v is not None else None)
            frame.number = number(frame) if number else f"{step.ply}."
            frames.append(frame)
    return frames


def select(frames: list[Frame], ply: int | None, round_no: int | None = None) -> Frame:
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
