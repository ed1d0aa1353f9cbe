"""What the conformance suite (tests/test_conformance.py) needs of Highcard: positions met
in random play, and every card the notation can write in one."""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.engines.base import ALL_CARDS, Card
from tests.games.highcard import engine

DECK = [c for c in ALL_CARDS if not c.is_joker]


def positions(seed: int, count: int) -> Iterator[engine.State]:
    rng = random.Random(seed)
    made = 0
    while True:
        cards = rng.sample(DECK, 2 * rng.randint(1, 6))
        half = len(cards) // 2
        state = engine.State(engine.named(rng.choice(engine.RULE_SETS)), (tuple(cards[:half]), tuple(cards[half:])))
        while True:
            yield state
            made += 1
            if made == count:
                return
            if state.over:
                break
            state = engine.apply(state, rng.choice(engine.legal_moves(state)))


def writable(state: engine.State) -> list[Card]:
    return DECK


def key(state: engine.State, move: Card) -> object:
    return move
