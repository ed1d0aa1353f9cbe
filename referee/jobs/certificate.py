"""A property's certificate under one setting, and what one check may spend: what a
game's prover (:class:`~referee.jobs.game.Prover`) returns and is given."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.jobs.solve import Deadline, Timeout


@dataclass
class Certificate:
    """One property's verdict under one setting (what ``--json`` prints per property)."""

    name: str
    verdict: str
    #: The bound proved (plies, a value), or None.
    bound: int | str | None = None
    method: str = ""
    #: What the certificate depends on (deck sizes, player counts), in words.
    assumptions: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: A refutation's witness: a whole record, valid under the setting.
    witness: str | None = None
    #: Why, in a sentence.
    reason: str = ""
    #: The rule ids the proof rests on (the unsat cores of its checks).
    rests_on: list[str] = field(default_factory=list)
    #: The solvers that agreed on every unsat check ("z3", and "cvc5" with --certify).
    solvers: list[str] = field(default_factory=list)
    #: A record illustrating a proof's edge (a rule that is needed), or None.
    example: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "verdict": self.verdict, "bound": self.bound, "method": self.method,
                "assumptions": self.assumptions, "seconds": round(self.seconds, 3), "witness": self.witness,
                "reason": self.reason, "rests_on": self.rests_on, "solvers": self.solvers,
                "example": self.example}


@dataclass
class Budget:
    """What one property check may spend: its deadline, and whether cvc5 re-proves each
    unsat answer (``certify``)."""

    deadline: Deadline
    certify: bool = False
    #: cvc5's re-proofs made (for the report).
    certified: int = 0
    #: Skip the searches that only make a refutation's witness the shortest (a rulebook's
    #: summary wants the verdict, not the minimality).
    quick: bool = False

    def left(self) -> float | None:
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            raise Timeout()
        return remaining
