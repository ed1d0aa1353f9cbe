"""What every engine shares: cards and the value a rule check returns."""

from __future__ import annotations

from typing import NamedTuple

SUITS = "SHDC"
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


class Card(NamedTuple):
    """A playing card. ``rank`` is 1 (ace) to 13 (king); the joker has rank 0, suit ''."""

    rank: int
    suit: str

    def __str__(self) -> str:
        if self.rank == 0:
            return "JK"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit}"

    @property
    def is_joker(self) -> bool:
        return self.rank == 0


JOKER = Card(0, "")
#: Every distinct card, interned: engines compare and hash these few objects only.
ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14)) + (JOKER,)


class Violation(NamedTuple):
    """Why a move is illegal: the rule's id (see spec/) and a sentence a player understands."""

    rule: str
    message: str
