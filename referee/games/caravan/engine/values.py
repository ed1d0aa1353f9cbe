"""What a caravan is worth, which suit and direction it runs in, and who holds a lane."""

from __future__ import annotations

from collections.abc import Iterable

from referee.games.caravan.engine.table import KING, QUEEN, TARGET_HIGH, TARGET_LOW, Caravan, Slot


def card_value(slot: Slot) -> int:
    if not slot.faces:
        return slot.card.rank
    kings = sum(1 for f in slot.faces if f.rank == KING)
    return slot.card.rank << kings


def caravan_value(caravan: Caravan) -> int:
    return sum(card_value(s) for s in caravan)


def current_suit(caravan: Caravan) -> str | None:
    """The last number card's suit, or that of the latest Queen attached to it (both sets)."""
    if not caravan:
        return None
    last = caravan[-1]
    if last.faces:
        for face in reversed(last.faces):
            if face.rank == QUEEN:
                return face.suit
    return last.card.suit


def _queen_parity(slots: Iterable[Slot]) -> bool:
    """An odd number of Queens attached to these number cards?"""
    odd = False
    for slot in slots:
        if slot.faces:
            for face in slot.faces:
                if face.rank == QUEEN:
                    odd = not odd
    return odd


def _run(first: int, second: int) -> int:
    # Equal values (left so by a Jack) count as descending (ruling caravan.direction.equal).
    return 1 if second > first else -1


def direction_holotape(caravan: Caravan) -> int:
    """Set by the first two number cards, reversed by each Queen anywhere in the caravan."""
    if len(caravan) < 2:
        return 0
    d = _run(caravan[0].card.rank, caravan[1].card.rank)
    return -d if _queen_parity(caravan) else d


def direction_fnv(caravan: Caravan) -> int:
    """From the last two number cards, reversed by each Queen on the last one."""
    if len(caravan) < 2:
        return 0
    d = _run(caravan[-2].card.rank, caravan[-1].card.rank)
    return -d if _queen_parity(caravan[-1:]) else d


def lane_winner(a: int, b: int) -> int | None:
    """Which side holds a lane: 0 (first caravan), 1 (second) or None (still open)."""
    a_in = TARGET_LOW <= a <= TARGET_HIGH
    b_in = TARGET_LOW <= b <= TARGET_HIGH
    if a_in and b_in:
        return None if a == b else (0 if a > b else 1)
    if a_in:
        return 0
    if b_in:
        return 1
    return None
