"""``--positions FILE``: the decks or deals the tables start from, read by the game's
``players`` part (``starts``), each a set-up the game's live table takes (and a listener's
table, for its first game); the tables take them in turn, deal by deal (a duplicate block
replays one)."""

from __future__ import annotations

from pathlib import Path
from referee.arena.parts import parts


def read_positions(game: str, path: Path) -> list[dict[str, object]]:
    """The starts in the file; ValueError when it holds none, OSError when unreadable."""
    starts = parts(game)[1].starts(str(path))
    if not starts:
        raise ValueError(f"no deck or deal to start a {game} table from")
    return starts
