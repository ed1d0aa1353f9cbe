"""The legal moves of the player to move (from the cards known to be in hand), and one
drawn at random without listing them all."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from referee.engines.base import ALL_CARDS, Card
from referee.games.caravan.engine.judging import check
from referee.games.caravan.engine.state import _DISBANDS, _DISCARDS, Attach, Disband, Discard, Move, PlayNumber, State
from referee.games.caravan.engine.table import _IS_NUMBER, OPENING_PLACEMENTS, _new, is_number, own_caravans


def legal_moves(state: State) -> Iterator[Move]:
    """Every legal move of the player to move, made from the cards known to be in hand
    (each distinct card once; draws are left to ``apply``)."""
    if state.over:
        return
    p = state.to_move
    hand = sorted(set(state.hands[p].known))
    caravans = state.caravans
    for card in hand:
        if is_number(card):
            for c in own_caravans(p):
                m: Move = PlayNumber(card, c)
                if check(state, m) is None:
                    yield m
        elif not state.in_opening():
            for c, caravan in enumerate(caravans):
                for i in range(len(caravan)):
                    m = Attach(card, c, i)
                    if check(state, m) is None:
                        yield m
    for card in hand:
        m = Discard(card)
        if check(state, m) is None:
            yield m
    for c in own_caravans(p):
        m = Disband(c)
        if check(state, m) is None:
            yield m


def standard_deck() -> list[Card]:
    """One 54-card set: 52 cards and two jokers."""
    return list(ALL_CARDS) + [ALL_CARDS[-1]]


def random_move(state: State, rng: Random, tries: int = 12) -> Move | None:
    """A legal move drawn uniformly from ``legal_moves(state)`` (None when there is none),
    found lazily: a candidate (one of the moves ``legal_moves`` considers) is drawn at random
    and judged by ``check``, again until one is legal; each draw is uniform over the
    candidates, so the first legal one is uniform over the legal moves. After ``tries``
    candidates judged without a legal one the legal moves are listed and one is chosen.

    The candidates are drawn from a grid, so that finding the one drawn takes no count of
    the hand: a row for each card held, as wide as the widest row needs (a number card's
    placement on each own caravan, a face card's, after the opening, on each of the number
    cards on the table; then the card's discard), and after the rows the three disbands. A
    cell past the end of its row, or in the row of a second copy of a card (drawn at its
    first place only), is no candidate: it is drawn again, not judged."""
    if state.end is not None:
        return None
    p = state.to_move
    hand = state.hands[p].known
    caravans = state.caravans
    if state.placed[p] < OPENING_PLACEMENTS:
        slots = 0
        width = 4
    else:
        c0, c1, c2, c3, c4, c5 = caravans  # (unpacked one by one: faster than map)
        slots = len(c0) + len(c1) + len(c2) + len(c3) + len(c4) + len(c5)
        width = slots + 1 if slots > 3 else 4
    cells = len(hand) * width
    total = cells + 3
    first = 3 * p
    random = rng.random
    index = hand.index
    judged = 0
    while judged < tries:
        i = (random() * total).__trunc__()  # int(), without the call of a type
        if i >= cells:
            move: Move = _DISBANDS[first + i - cells]
        else:
            k, j = divmod(i, width)
            card = hand[k]
            if _IS_NUMBER[card]:
                if j < 3:
                    move = _new(PlayNumber, (card, first + j, None))
                elif j == 3:
                    move = _DISCARDS[card]
                else:
                    continue
            elif j < slots:
                c = 0
                for caravan in caravans:
                    if j < len(caravan):
                        break
                    j -= len(caravan)
                    c += 1
                move = _new(Attach, (card, c, j, None))
            elif j == slots:
                move = _DISCARDS[card]
            else:
                continue
            if k and index(card) != k:
                continue  # a second copy of a card: drawn at its first place only
        judged += 1
        if check(state, move) is None:
            return move
    legal = list(legal_moves(state))
    return rng.choice(legal) if legal else None
