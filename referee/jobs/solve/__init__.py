"""``pitboss solve``: questions about a position, answered with a witness or a proof.

Every question answers ``yes``, ``no`` or ``unknown`` (the time ran out). A ``yes`` carries a
witness (a line of moves, a split of a hand, a strategy) that has been replayed through the
game's engine (``check`` then ``apply``) before it is returned; a ``no`` carries the reason
in words: from the unsat core of the z3 model's named constraints when z3 answered, or from
the exhaustive search (what it ruled out) when the search did.

Each game lists its questions (``Game.solver``: ``Solver.questions``) and answers them in its ``solve`` part
(``ask(position, question, options)``); ``ask`` here checks the question and its options and
hands it over. See ``positions`` for reading a position from a file, and each game's
``solve`` folder for its searches and its z3 model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


class Timeout(Exception):
    """The deadline passed: the question is answered ``unknown``."""


class Deadline:
    """A point in time after which the work stops; ``check()`` is cheap enough for inner loops."""

    def __init__(self, seconds: float | None) -> None:
        self.start = time.monotonic()
        self.seconds = seconds
        self.end = None if seconds is None else self.start + seconds
        self._tick = 0
        #: Work done against this deadline, so that the stats of a question that ran out of
        #: time are still true: positions examined (each search checks the clock once a
        #: position) and solver calls (each z3 check).
        self.solver_calls = 0

    def remaining(self) -> float | None:
        if self.end is None:
            return None
        return max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end

    def check(self, every: int = 256) -> None:
        """Raise Timeout when past the deadline (looks at the clock every ``every`` calls)."""
        self._tick += 1
        if self._tick % every == 0 and self.expired():
            raise Timeout()

    def check_now(self) -> None:
        """Raise Timeout when past the deadline (between steps of work that are not
        positions: building a model)."""
        if self.expired():
            raise Timeout()

    @property
    def checks(self) -> int:
        """How often the work looked at the clock (once a position in the searches)."""
        return self._tick

    def elapsed(self) -> float:
        return time.monotonic() - self.start


@dataclass
class Stats:
    time: float = 0.0
    solver_calls: int = 0
    nodes: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"time": round(self.time, 6), "solver_calls": self.solver_calls, "nodes": self.nodes}


@dataclass
class Answer:
    """One answered question: what ``--json`` prints (``extra`` adds fields beside the five)."""

    question: str
    answer: str  # "yes" | "no" | "unknown"
    witness: Any = None
    reason: str | None = None
    stats: Stats = field(default_factory=Stats)
    #: Method that produced the answer ("z3", "search").
    method: str | None = None
    #: The human-readable lines printed for this answer (the witness explained).
    text: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "question": self.question,
            "answer": self.answer,
            "witness": self.witness,
            "reason": self.reason,
            "stats": self.stats.to_json(),
        }
        if self.method is not None:
            out["method"] = self.method
        out.update(self.extra)
        return out


class QuestionError(ValueError):
    """The question cannot be asked of this position (bad usage: exit status 2)."""


METHODS = ("auto", "z3", "search")

