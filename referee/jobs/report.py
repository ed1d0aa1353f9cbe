"""The verdict on one record, as data (what ``validate --json`` prints per game)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.notation.records import Finding


@dataclass
class GameReport:
    file: str
    index: int
    game: str | None
    rules: str | None
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    #: Moves replayed (plays, discards, disbands, passes, exchanges).
    plies: int = 0
    #: What the replay could check: "full" (every hand and deck known), "partial", "moves".
    knowledge: str | None = None
    #: The line the record starts on.
    line: int | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file": self.file,
            "index": self.index,
            "game": self.game,
            "rules": self.rules,
            "valid": self.valid,
            "errors": [f.to_json() for f in self.errors],
            "warnings": [f.to_json() for f in self.warnings],
            "line": self.line,
            "plies": self.plies,
            "knowledge": self.knowledge,
        }
        out.update(self.details)
        return out
