"""Exhaustive agreement within a stated scope: on every position of the scope the engine's
search and the z3 model give the same answer to "can player 1 bring caravan A into 21-26
within K moves?" (the same shortest length, or both no), under both rule sets. Positions
that differ only by swapping the two suits are counted once.

The scope (``SCOPE``): caravan A holds 0-2 number cards from 3 5 10 of spades and hearts,
with at most one face card (KS or QH) on them; the hand holds 0-2 of 4S 7H 10S KS QH JS;
the deck 0-1 of 10H KH; the other caravans one card each (B 6S, C 2H; D 9S, E 4H, F 8S);
lines of up to 2 moves. The default suite runs a sample (every 251st position); ``pytest -m
slow`` runs the whole scope; ``python -m tests.games.caravan.test_caravan_agreement``
prints the scope, the number of positions, the disagreements and the time.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterator

import pytest

from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.games.caravan.solve.model import ReachModel
from referee.games.caravan.solve.puzzle import Goal, prepare
from referee.games.caravan.solve.search import shortest_line
from referee.notation.cards import parse_card

SCOPE = {
    "caravan A cards": "0-2 of 3S 5S 10S 3H 5H 10H, at most one face card (KS, QH) on them",
    "hand": "0-2 of 4S 7H 10S KS QH JS",
    "deck": "0-1 of 10H KH",
    "other caravans": "B 6S, C 2H, D 9S, E 4H, F 8S",
    "lines": "up to 2 moves by player 1 (the opponent passing)",
    "rule sets": "holotape, fnv",
    "symmetry": "positions equal up to swapping spades and hearts counted once",
}
WITHIN = 2
_A = [parse_card(t) for t in "3S 5S 10S 3H 5H 10H".split()]
_FACES = [parse_card(t) for t in ("KS", "QH")]
_HAND = [parse_card(t) for t in "4S 7H 10S KS QH JS".split()]
_DECK = [parse_card(t) for t in "10H KH".split()]
_OTHERS = [(cv.Slot(parse_card("6S")),), (cv.Slot(parse_card("2H")),), (cv.Slot(parse_card("9S")),),
           (cv.Slot(parse_card("4H")),), (cv.Slot(parse_card("8S")),)]


def _swap(card: Card) -> Card:
    return card._replace(suit={"S": "H", "H": "S"}.get(card.suit, card.suit))


def _caravans() -> Iterator[tuple[cv.Slot, ...]]:
    for n in range(3):
        for cards in itertools.permutations(_A, n):
            yield tuple(cv.Slot(c) for c in cards)
            for i in range(n):
                for face in _FACES:
                    yield tuple(cv.Slot(c, (face,) if j == i else ()) for j, c in enumerate(cards))


def _key(caravan: tuple, hand: tuple, deck: tuple, swap: bool) -> tuple:
    f = _swap if swap else (lambda c: c)
    return (tuple((f(s.card), tuple(map(f, s.faces))) for s in caravan), tuple(sorted(map(f, hand))),
            tuple(map(f, deck)))


def positions() -> Iterator[cv.State]:
    """Every position of the scope, one per suit-swap class."""
    hands = [h for n in range(3) for h in itertools.combinations(_HAND, n)]
    decks = [()] + [(c,) for c in _DECK]
    for rules in cv.RULESETS.values():
        seen: set[tuple] = set()
        for caravan in _caravans():
            table = (caravan, *_OTHERS)
            if cv.check_position(rules, table):
                continue
            for hand in hands:
                for deck in decks:
                    key = _key(caravan, hand, deck, False)
                    if key in seen:
                        continue
                    seen.add(key)
                    seen.add(_key(caravan, hand, deck, True))
                    yield cv.position(rules, table, (cv.Hand(hand), cv.Hand((), None)),  # type: ignore[arg-type]
                                      (deck, None), 0, opening=False)


def disagreement(state: cv.State) -> str | None:
    """None when the search and the model agree on the scope's question, else both answers."""
    if state.over:
        return None
    puzzle = prepare(state, Goal("reach", 0, 0), WITHIN, "hand+deck")
    found = shortest_line(puzzle)
    result = ReachModel(puzzle).solve()
    search = None if found.line is None else len(found.line)
    model = None if result.answer == "no" else len(result.line or [])
    if search != model:
        return f"search {search}, z3 {model}"
    return None


def run(every: int = 1) -> tuple[int, list[tuple[cv.State, str]], float]:
    start = time.monotonic()
    count = 0
    bad = []
    for i, state in enumerate(positions()):
        if i % every:
            continue
        count += 1
        why = disagreement(state)
        if why is not None:
            bad.append((state, why))
    return count, bad, time.monotonic() - start


def test_a_sample_of_the_scope_agrees() -> None:
    count, bad, _ = run(every=251)
    assert count > 80
    assert not bad, bad[:3]


@pytest.mark.slow
def test_the_whole_scope_agrees() -> None:
    count, bad, _ = run()
    assert count > 10000
    assert not bad, bad[:3]


if __name__ == "__main__":
    every = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    for name, what in SCOPE.items():
        print(f"{name}: {what}")
    n, problems, seconds = run(every)
    print(f"positions: {n}; disagreements: {len(problems)}; time: {seconds:.0f} s")
    for state, why in problems[:20]:
        print(why, state.caravans[0], state.hands[0], state.decks[0], state.rules.name)


# --------------------------------------------------------------------------- one move


def _candidates(state: cv.State) -> Iterator[cv.Move]:
    """Every move a player could try: each card held on each caravan as a number card and
    on each place as a face card (one past the end too), each discard, each disband."""
    for card in sorted(set(state.hands[state.to_move].known)):
        for c in range(6):
            yield cv.PlayNumber(card, c)
            for i in range(len(state.caravans[c]) + 1):
                yield cv.Attach(card, c, i)
        yield cv.Discard(card)
    for c in range(6):
        yield cv.Disband(c)


def _self_play_states(games: int, every: int) -> Iterator[cv.State]:
    from referee.games.caravan.selfplay import CaravanMaker
    from referee.jobs.timeline import timeline_of
    from referee.jobs.validate import split

    for rules in cv.RULESETS:
        for seed in range(games):
            game = CaravanMaker(rules, move_limit=60)(seed, 0)
            chunk = next(split(game.text().splitlines(True)))
            segment = timeline_of(chunk, "self-play", 1, None).segments[0]
            states = [segment.start] + [s.after for s in segment.steps if s.after is not None]
            yield from (s for s in states[::every] if not s.over)


def legality_disagreements(games: int, every: int) -> tuple[int, list[str]]:
    from referee.games.caravan.solve.legality import move_legal

    judged = 0
    bad = []
    for state in _self_play_states(games, every):
        for move in _candidates(state):
            judged += 1
            engine = cv.check(state, move)
            model = move_legal(state, move)
            if (engine is None) != model.legal:
                bad.append(f"{state.rules.name} {move}: engine {engine}, z3 {model.legal} {model.core}")
            elif engine is not None and not model.core:
                bad.append(f"{state.rules.name} {move}: z3 forbids it but names no rule")
    return judged, bad


def test_the_model_judges_a_sample_of_moves_as_the_engine_does() -> None:
    judged, bad = legality_disagreements(1, 25)
    assert judged > 200
    assert not bad, bad[:5]


@pytest.mark.slow
def test_the_model_judges_every_candidate_move_as_the_engine_does() -> None:
    judged, bad = legality_disagreements(4, 2)
    assert not bad, bad[:5]
