"""``--positions FILE``: the decks or deals the tables start from, read by the game's
``players`` part (``starts``), each a set-up the game's live table takes (and a listener's
table, for its first game); the tables take them in turn, deal by deal (a duplicate block
replays one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def read_positions(game: Any, path: Path) -> list[dict[str, Any]]:
    """The starts in the file; ValueError when it holds none, OSError when unreadable."""
    starts: list[dict[str, Any]] = game.part("players").starts(str(path))
    if not starts:
        raise ValueError(f"no deck or deal to start a {game.name} table from")
    return starts
