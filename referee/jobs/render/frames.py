"""A record's replay as frames: each position, with the move that led to it and its notes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.jobs.annotate import Annotated, MoveNote


@dataclass
class TablePlay:
    """Daifugo: the play on the table, who made it, and the cards as written."""

    player: str
    cards: tuple[Any, ...]
    #: One reading per joker (engine ``Stand`` or None), in order.
    joker_as: tuple[Any, ...] = ()


@dataclass
class Frame:
    game: str
    #: The position shown.
    state: Any
    #: The record's rule set as named in comments (``holotape``, ``seed +eight-cut``).
    rules: str
    #: Moves made in this segment (Caravan record or Daifugo round) to reach the position.
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
    comments: list[str] = field(default_factory=list)
    #: Daifugo: the play on the table.
    table: TablePlay | None = None

    @property
    def title(self) -> str:
        where = f"round {self.round}, " if self.round is not None else ""
        if self.move is None:
            return f"{where}start"
        mark = " (illegal)" if self.illegal else " (rejected)" if self.rejected else ""
        return f"{where}ply {self.ply}: {self.move}{mark}"

    def to_json(self) -> dict:
        return {"round": self.round, "ply": self.ply, "move": self.move, "player": self.player,
                "illegal": self.illegal, "rejected": self.rejected, "disputed": self.disputed,
                "ruling": self.ruling, "comments": self.comments, "title": self.title}


def frames_of(annotated: Annotated) -> list[Frame]:
    """Every position of a record's replay: each segment's start, then the position after
    each move (after an illegal move, the position before it, marked)."""
    timeline = annotated.timeline
    game = timeline.game or ""
    label = annotated.variants[0].label if annotated.variants else (timeline.rules_name or "")
    notes: dict[int, MoveNote] = {n.step.index: n for n in annotated.notes}
    frames: list[Frame] = []
    daifugo = game == "daifugo"
    for segment in timeline.segments:
        table = _daifugo_table_start(timeline, segment) if daifugo else None
        frames.append(Frame(game, segment.start, label, 0, segment.round, table=table))
        for step in segment.steps:
            note = notes.get(step.index)
            state = step.after if step.after is not None else step.before
            if daifugo and step.after is not None:
                table = _daifugo_table_after(step, table)
            frames.append(Frame(
                game, state, label, step.ply, segment.round, step.entry.text, step.player,
                illegal=step.violation is not None and not step.rejected, rejected=step.rejected,
                disputed=bool(note and note.disputed), ruling=bool(note and note.rulings),
                comments=list(note.comments) if note else [], table=table))
    return frames


def _daifugo_table_start(timeline, segment) -> TablePlay | None:
    """The play on the table at a round's start: a snapshot's ``[Table]`` tag."""
    from referee.games.daifugo import engine as df
    from referee.games.daifugo.notation.dfn import MoveTextError, read_play

    state: df.State = segment.start
    if state.table is None:
        return None
    record = timeline.record
    number = segment.round or 1
    rnd = next((r for i, r in enumerate(record.rounds, start=1) if (r.number or i) == number), None)
    tag = rnd.tags.get("Table") if rnd is not None else None
    if tag is None:
        return None
    try:
        play = read_play(tag.value, {n: i for i, n in enumerate(record.players)})
    except MoveTextError:
        return None
    return TablePlay(state.name(play.player), play.cards, play.joker_as)


def _daifugo_table_after(step, table: TablePlay | None) -> TablePlay | None:
    """The play on the table after a move (the engine keeps only its combination)."""
    from referee.games.daifugo import engine as df

    state: df.State = step.after
    if state.table is None:
        return None
    move = step.entry.move
    if isinstance(move, df.Play) and step.violation is None:
        return TablePlay(state.name(move.player), move.cards, move.joker_as)
    return table


def select(frames: list[Frame], ply: int | None, round_no: int | None = None) -> Frame:
    """The frame after ``ply`` moves of round ``round_no`` (Daifugo; default the first
    round when a ply is given), or the last frame when ``ply`` is None. Raises LookupError
    when there is no such position."""
    if not frames:
        raise LookupError("the record has no position to show (its start could not be set up)")
    if round_no is None:
        if ply is None:
            return frames[-1]
        round_no = frames[0].round
    pool = [f for f in frames if f.round == round_no]
    if not pool:
        rounds = sorted({f.round for f in frames if f.round is not None})
        raise LookupError(f"there is no round {round_no} (rounds: {', '.join(map(str, rounds)) or 'none'})")
    if ply is None:
        return pool[-1]
    for f in pool:
        if f.ply == ply and not f.illegal:
            return f
    last = max(f.ply for f in pool if not f.illegal)
    stop = "; the replay stops at an illegal move" if any(f.illegal for f in pool) else ""
    raise LookupError(f"ply {ply} is not a position of the replay (plies 0 to {last}{stop})")
