"""What the arena plays a game through: its parts of the game contract
(:mod:`referee.jobs.game`), the live table (``Game.live``, the one ``pitboss serve``
plays) and the built-in players (``Game.players``). A game with both can be played."""

from __future__ import annotations

from referee.jobs import registry
from referee.jobs.game import Live, Players


def playable() -> tuple[str, ...]:
    """The games the arena can play, by name."""
    return tuple(g.name for g in registry.games() if g.live is not None and g.players is not None)


def parts(name: str) -> tuple[Live, Players]:
    """The game's live table and players (LookupError saying which games can be played)."""
    game = registry.find(name)
    if game is None or game.live is None or game.players is None:
        raise LookupError(f"the arena plays {', '.join(playable())}, not {name}")
    return game.live.get(), game.players.get()
