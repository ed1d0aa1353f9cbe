"""What a game's analyser (``Game.analyser``, ``annotate --analyse``) is given and gives
back: the :class:`Limits` of its queries, a :class:`Budget` handing out one move's time,
and a move's :class:`MoveAnalysis`."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.jobs.solve import Deadline

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
    #: What the mover could reach before and after the move (JSON: the game's own keys).
    before: dict[str, object] = field(default_factory=dict)
    after: dict[str, object] = field(default_factory=dict)
    #: The mark the analysis gives ("??", "?") or None; ``added`` says whether it was written.
    glyph: str | None = None
    added: bool = False
    comment: str | None = None
    time: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {"before": self.before, "after": self.after, "glyph": self.glyph, "glyph_added": self.added,
                "comment": self.comment, "time": round(self.time, 3)}


class Budget:
    """The time of one move, handed out query by query."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.clock = Deadline(limits.move_seconds)

    def query(self) -> Deadline:
        left = self.clock.remaining() or 0.0
        return Deadline(max(0.0, min(self.limits.query_seconds, left)))
