"""Cards as people read them: ``10♥``, ``K♠``, ``JK``; which are red."""

from __future__ import annotations

from referee.engines.base import RANK_NAMES, Card
from referee.engines.message import M

SUIT_GLYPHS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
#: The suits' names (marked: a page or a drawing says them in the language spoken).
SUIT_NAMES = {"S": M("spades"), "H": M("hearts"), "D": M("diamonds"), "C": M("clubs")}
RED_SUITS = frozenset("HD")


def rank_text(card: Card) -> str:
    return "JK" if card.is_joker else RANK_NAMES.get(card.rank, str(card.rank))


def glyph(card: Card) -> str:
    """``10♥``; the joker is ``JK``."""
    if card.is_joker:
        return "JK"
    return rank_text(card) + SUIT_GLYPHS[card.suit]


def is_red(card: Card) -> bool:
    return card.suit in RED_SUITS
