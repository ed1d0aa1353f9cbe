"""A Caravan position (immutable) and the moves that change it."""

from __future__ import annotations

from typing import NamedTuple, Union

from referee.engines.base import ALL_CARDS, Card
from referee.games.caravan.engine.rules import RuleSet
from referee.games.caravan.engine.table import LANES, OPENING_PLACEMENTS, Caravan, Hand
from referee.games.caravan.engine.values import lane_winner


class State(NamedTuple):
    rules: RuleSet
    caravans: tuple[Caravan, ...]
    hands: tuple[Hand, Hand]
    #: Each deck's remaining cards, top first; ``None`` when unknown.
    decks: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]
    to_move: int
    #: Opening placements made by each player (the opening lasts 3 placements each).
    placed: tuple[int, int]
    #: Each caravan's value (derived from ``caravans``; kept because every move asks).
    values: tuple[int, ...] = (0,) * 6
    winner: int | None = None
    #: Why the game ended: "lanes", "out" (a player ran out of cards), "no-move".
    end: str | None = None

    @property
    def over(self) -> bool:
        return self.end is not None

    def in_opening(self, player: int | None = None) -> bool:
        return self.placed[self.to_move if player is None else player] < OPENING_PLACEMENTS


class PlayNumber(NamedTuple):
    """Put a card at the end of one of the mover's caravans (``7H>A``)."""

    card: Card
    caravan: int
    draw: Card | None = None


class Attach(NamedTuple):
    """Attach a face card to the ``index``-th number card of any caravan (``KS>D2``)."""

    card: Card
    caravan: int
    index: int  # type: ignore[assignment]  # the field deliberately shadows tuple.index; nothing calls that method on a move
    draw: Card | None = None


class Discard(NamedTuple):
    card: Card
    draw: Card | None = None


class Disband(NamedTuple):
    caravan: int
    draw: Card | None = None


Move = Union[PlayNumber, Attach, Discard, Disband]


def lane_winners(state: State) -> tuple[int | None, int | None, int | None]:
    values = state.values
    # LANES holds three lanes: three winners
    return tuple(lane_winner(values[a], values[b]) for a, b in LANES)  # type: ignore[return-value]


_DISCARDS = {card: Discard(card) for card in ALL_CARDS}
_DISBANDS = tuple(Disband(c) for c in range(6))
