"""One position of a record's replay as the renderers draw it: a :class:`Frame`, with the
move that led to it, its notes as sentences and what lies on the table beside the state.

Frames are made by :func:`referee.jobs.render.frames.frames_of` (and by a live table's
``frame``); a game's renderer (``Game.render``) draws them. Type parameters: ``StateT``
a position, ``MoveT`` a move as the game's engine reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from referee.engines.base import Card
from referee.engines.message import M
from referee.i18n import Text

#: Covariant: a frame of a game's positions is a frame of objects to who only reads it (the
#: service, which hands a live table's frame to the game's own renderer).
StateT = TypeVar("StateT", covariant=True)
MoveT = TypeVar("MoveT", covariant=True)

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

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, "rules": list(self.rules)}


@dataclass
class TablePlay:
    """The play lying on the table beside the state (the engine keeps only what it must
    beat): who made it, its cards as written, one reading per joker in order (None:
    unstated). A game's renderer fills it (``table_start``, ``table_after``)."""

    player: str
    cards: tuple[Card, ...]
    joker_as: tuple[object, ...] = ()


@dataclass
class Frame(Generic[StateT, MoveT]):
    game: str
    #: The position shown.
    state: StateT
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
    table: TablePlay | None = None
    #: The move as the engine reads it (None for a start position).
    action: MoveT | None = None
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

    def to_json(self) -> dict[str, object]:
        return {"round": self.round, "ply": self.ply, "move": self.move, "player": self.player,
                "mover": self.mover, "number": self.number,
                "illegal": self.illegal, "rejected": self.rejected, "disputed": self.disputed,
                "ruling": self.ruling, "comments": self.comments,
                "notes": [n.to_json() for n in self.notes],
                "why": list(self.why) if self.why else None, "title": self.title}
