"""Card text: ``10H``, ``TH``, ``7♥``, ``js`` (any case) and ``JK`` in, ``10H``/``JK`` out."""

from __future__ import annotations

from referee.engines.base import ALL_CARDS, RANK_NAMES, Card
from referee.engines.message import T

_SUIT_ALIASES = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_RANK_TEXT = {**{str(r): r for r in range(2, 11)}, "T": 10, **{v: k for k, v in RANK_NAMES.items()}}

_CARDS: dict[str, Card] = {"JK": ALL_CARDS[-1]}
for _card in ALL_CARDS[:-1]:
    for _rank_text, _rank in _RANK_TEXT.items():
        if _rank == _card.rank:
            for _suit_text, _suit in _SUIT_ALIASES.items():
                if _suit == _card.suit:
                    _CARDS[_rank_text + _suit_text] = _card


class CardError(ValueError):
    """A text that names no card."""


def parse_card(text: str) -> Card:
    card = _CARDS.get(text.upper())
    if card is None:
        raise CardError(T("{text} is not a card (write rank then suit, e.g. 10H, QS, AC; JK for the joker)",
                          text=repr(text)))
    return card

