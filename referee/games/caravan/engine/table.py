"""Caravan's table: the cards, the six caravans and their owners, the hands.

Caravans are numbered 0-5 (A-F): 0-2 belong to player 0 (player "1" in records), 3-5 to
player 1. Caravan i faces caravan i + 3. Number cards in a caravan are indexed from 0 here
(the notation counts from 1)."""

from __future__ import annotations

from typing import NamedTuple

from referee.engines.base import ALL_CARDS, Card

JACK, QUEEN, KING = 11, 12, 13
LANES = ((0, 3), (1, 4), (2, 5))
LETTERS = "ABCDEF"
TARGET_LOW, TARGET_HIGH = 21, 26
OPENING_PLACEMENTS = 3
OPENING_HAND = 8


def is_number(card: Card) -> bool:
    return 1 <= card.rank <= 10


#: ``is_number`` of every card, for the hot paths.
_IS_NUMBER = {card: is_number(card) for card in ALL_CARDS}


def owner(caravan: int) -> int:
    return caravan // 3


def own_caravans(player: int) -> range:
    return range(3 * player, 3 * player + 3)


def player_name(player: int) -> str:
    return str(player + 1)


class Slot(NamedTuple):
    """A number card in a caravan with the face cards attached to it, oldest first."""

    card: Card
    faces: tuple[Card, ...] = ()


Caravan = tuple[Slot, ...]


#: Builds a named tuple from its fields without the generated ``__new__`` (hot paths only).
_new = tuple.__new__


class Hand(NamedTuple):
    """A hand: the cards known to be in it, plus ``unknown`` unseen cards.

    ``unknown`` is ``None`` when not even the number of unseen cards is known (a record
    without decks): possession can then not be checked.
    """

    known: tuple[Card, ...]
    unknown: int | None = 0

    @property
    def size(self) -> int | None:
        return None if self.unknown is None else len(self.known) + self.unknown

    @property
    def fully_known(self) -> bool:
        return self.unknown == 0

    def holds(self, card: Card) -> bool:
        return card in self.known or self.unknown is None or self.unknown > 0

    def after(self, played: Card | None, draws: bool, drawn: Card | None) -> Hand:
        """The hand after a move: ``played`` (None: no card) leaves it (a copy known to be
        in it, else one of the unseen cards); then, if the move ``draws``, ``drawn`` joins it
        at the end (None: an unseen card). What is not counted stays uncounted."""
        unknown = self.unknown
        cards = list(self.known)  # changed in place, then a tuple again: fewer copies than slices
        if played is not None:
            try:
                cards.remove(played)
            except ValueError:
                if unknown is not None:
                    unknown -= 1
        if draws:
            if drawn is not None:
                cards.append(drawn)
            elif unknown is not None:
                unknown += 1
        known = tuple(cards)
        return _new(Hand, (known, unknown))
