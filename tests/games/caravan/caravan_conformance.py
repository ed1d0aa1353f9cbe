"""What the conformance suite (tests/test_conformance.py) needs of Caravan: positions met in
random self-play, and every move the notation can write in one (legal or not)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.games.caravan import engine as cv
from referee.games.caravan.selfplay import random_deck
from referee.notation.cards import parse_card


def cards(text: str) -> list:
    return [parse_card(w) for w in text.split()]


def _random_states(rules: cv.RuleSet, seed: int, games: int, every: int = 1):
    """States met in random self-play (fixed seed): decks from the self-play module, each
    move chosen at random from ``legal_moves``."""
    rng = random.Random(seed)
    for _ in range(games):
        decks = [[d.card for d in random_deck(rng, rules)] for _ in range(2)]
        state = cv.new_game(rules, (decks[0], decks[1]), rng.randint(0, 1))
        n = 0
        while not state.over and n < 400:
            moves = list(cv.legal_moves(state))
            assert moves, "a game not over always has a legal move (else it ends by no-move)"
            if n % every == 0:
                yield state, moves
            state = cv.apply(state, rng.choice(moves))
            n += 1
        yield state, list(cv.legal_moves(state))


def _candidates(state: cv.State) -> set[cv.Move]:
    """Every move that could be written for the player to move, cards in hand or not."""
    p = state.to_move
    pool = set(state.hands[p].known) | set(cards("5H KS JK QD JC AS 10C"))
    out: set[cv.Move] = set()
    for card in pool:
        out.add(cv.Discard(card))
        for c in range(6):
            out.add(cv.PlayNumber(card, c))
            for i in range(len(state.caravans[c]) + 1):
                out.add(cv.Attach(card, c, i))
    out.update(cv.Disband(c) for c in range(6))
    return out


def positions(seed: int, count: int) -> Iterator[cv.State]:
    """``count`` positions of random self-play under both rule sets, the game not over."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        rules = cv.ruleset(rng.choice(sorted(cv.RULESETS)))
        for state, _ in _random_states(rules, rng.randrange(1 << 30), games=1, every=5):
            if not state.over:
                found += 1
                yield state
                if found == count:
                    return


def writable(state: cv.State) -> set[cv.Move]:
    return _candidates(state)


def key(state: cv.State, move: cv.Move) -> object:
    return move
