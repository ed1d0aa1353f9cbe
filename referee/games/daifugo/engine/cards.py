"""Cards and strength: the Daifugo order of the ranks, the server's out-of-range joker
columns, and the strongest/weakest cards of a hand (the exchange)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.engines.base import ALL_CARDS, JOKER, SUITS, Card
from referee.engines.message import M

#: The server's out-of-range joker columns (uecda sequences only).
BELOW_3, ABOVE_2 = 0, 14


#: Strength of the 8, the 6 and the Jack (eight-cut, six-reverse, eleven-back).
EIGHT, SIX, JACK = 6, 4, 9


#: Strength the lone joker is given for display; comparisons treat it specially.
LONE_JOKER_STRENGTH = 14


def strength(card: Card) -> int:
    """Daifugo strength of a real card in normal order: 3 -> 1 ... K -> 11, A -> 12, 2 -> 13."""
    return (card.rank - 3) % 13 + 1


def rank_of(s: int) -> int:
    """The card rank (1 = ace ... 13 = king) of strength 1..13."""
    return (s + 1) % 13 + 1


def card_at(suit: str, s: int) -> Card | None:
    """The real card a joker reading names, or None for the out-of-range columns / joker row."""
    if suit == "" or not 1 <= s <= 13:
        return None
    return Card(rank_of(s), suit)


def _strength_name(s: int) -> str:
    if s == BELOW_3:
        return "(below 3)"
    if s == ABOVE_2:
        return "(above 2)"
    return Card(rank_of(s), "").__str__()


_STRENGTH = {c: strength(c) for c in ALL_CARDS[:-1]}


_STRENGTH[JOKER] = LONE_JOKER_STRENGTH


DIAMOND_3 = Card(3, "D")


SPADE_3 = Card(3, "S")


_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _server_key(card: Card) -> tuple[int, int]:
    # Strongest first: the joker, then 2, A, K, ...; within a rank S, H, D, C.
    return (-_STRENGTH[card], _SUIT_ORDER.get(card.suit, -1))


def _weak_key(card: Card) -> tuple[int, int]:
    # Weakest first: 3 upward, within a rank S, H, D, C; the joker last.
    return (_STRENGTH[card], _SUIT_ORDER.get(card.suit, 9))


#: Both orders' keys for every card of the deck (sorting a hand looks them up instead of
#: calling the key functions once per card; a card outside the deck has no strength, as
#: before).
_SERVER_KEYS = {c: _server_key(c) for c in ALL_CARDS}
_WEAK_KEYS = {c: _weak_key(c) for c in ALL_CARDS}


def strongest_cards(hand: Sequence[Card], n: int) -> tuple[Card, ...]:
    """The ``n`` strongest cards in the contest server's fixed order (joker, 2, A, K, ...;
    ties S, H, D, C), normal order whatever the previous revolution (daifugo.exchange.strongest)."""
    return tuple(sorted(hand, key=_SERVER_KEYS.__getitem__)[:n])


def weakest_cards(hand: Sequence[Card], n: int) -> tuple[Card, ...]:
    """The ``n`` weakest cards in normal order (3 upward, ties S, H, D, C; the joker last)."""
    return tuple(sorted(hand, key=_WEAK_KEYS.__getitem__)[:n])


def _strengths(cards: Iterable[Card]) -> list[int]:
    return sorted(_STRENGTH[c] for c in cards)


_SUIT_NAMES = {"S": M("spades"), "H": M("hearts"), "D": M("diamonds"), "C": M("clubs"), "": M("the joker row")}


def _suit_pos(s: str) -> int:
    return _SUIT_ORDER.get(s, 4)
