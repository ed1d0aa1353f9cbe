"""Self-play: random legal, complete games, for tests, benchmarks and users' own tools.

Everything goes through the engines (``legal_moves`` and ``apply``); the generator holds
no rule of its own. The same seed gives the same games, each made on its own from
the seed and its number (so any number of processes make the same games).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import DeckCard, write_caravan
from referee.games.caravan.styles import PLAYERS
from referee.jobs.selfplay import items, unit_random

#: A game Pitboss runs stops here (a Pitboss ruling: under fnv a game need not end, as
#: both players may disband empty caravans forever); the record says so with
#: [Termination "move limit"] and the result *.
MOVE_LIMIT = 1000


@dataclass
class CaravanGame:
    tags: dict[str, str]
    moves: list[cv.Move]
    final: cv.State

    def text(self) -> str:
        return write_caravan(self.tags, self.moves)

    def counts(self) -> dict[str, int]:
        return {"moves": len(self.moves)}


#: The cards of one set, and of two (set tags on the second).
_ONE_SET = tuple(DeckCard(c) for c in cv.standard_deck())
_TWO_SETS = _ONE_SET + tuple(DeckCard(c, "2") for c in cv.standard_deck())
#: Their cards and their texts, by the same index.
_CARDS = tuple(d.card for d in _TWO_SETS)
_TEXTS = tuple(map(str, _TWO_SETS))


def _deck_places(rng: random.Random, rules: cv.RuleSet) -> list[int]:
    """A legal deck as places in ``_TWO_SETS``: one to two 54-card sets (set tags on the
    second), size within the rule set's bounds, in a random order (a random sample is in
    random order already)."""
    pool = len(_TWO_SETS) if rng.choice((1, 1, 1, 2)) == 2 else len(_ONE_SET)
    high = min(pool, rules.deck_max or pool)
    size = rng.randint(rules.deck_min, high)
    return rng.sample(range(pool), size)


def random_deck(rng: random.Random, rules: cv.RuleSet) -> list[DeckCard]:
    """A legal deck (see ``_deck_places``), the cards with their set tags."""
    return [_TWO_SETS[i] for i in _deck_places(rng, rules)]


def _greedy_score(state: cv.State, me: int) -> float:
    if state.over:
        return 1000.0 if state.winner == me else -1000.0
    score = 0.0
    values = [cv.caravan_value(c) for c in state.caravans]
    for lane, (a, b) in enumerate(cv.LANES):
        w = cv.lane_winner(values[a], values[b])
        mine, theirs = (a, b) if me == 0 else (b, a)
        if w is not None:
            score += 10.0 if (w == 0) == (me == 0) else -10.0
        v = values[mine]
        score -= abs(23.5 - v) / 10 if v <= 26 else (v - 26) / 2
    return score


def choose(rng: random.Random, state: cv.State, style: str) -> cv.Move:
    """The player's move: a uniformly random legal one (drawn lazily, without listing them
    all), or for the greedy player, nine times in ten, one of the best-scoring ones."""
    if style == "greedy" and rng.random() < 0.9:
        me = state.to_move
        scored = [(_greedy_score(cv.apply(state, m), me), m) for m in cv.legal_moves(state)]
        best = max(score for score, _ in scored)
        return rng.choice([m for score, m in scored if score == best])
    move = cv.random_move(state, rng)
    assert move is not None  # a game that is not over always has a legal move (caravan.end.no-move)
    return move


def play_caravan(rng: random.Random, rules: cv.RuleSet, styles: tuple[str, str] = ("random", "random"),
                 draws: bool = False, first: int | None = None, limit: int = MOVE_LIMIT) -> CaravanGame:
    """One game: played to its end, or stopped after ``limit`` plies (a valid record with
    [Termination "move limit"] and the result *)."""
    decks = [_deck_places(rng, rules), _deck_places(rng, rules)]
    first = rng.randint(0, 1) if first is None else first
    cards = _CARDS.__getitem__
    state = cv.new_game(rules, (list(map(cards, decks[0])), list(map(cards, decks[1]))), first)
    moves: list[cv.Move] = []
    apply, random_move = cv.apply, cv.random_move
    greedy = tuple(style == "greedy" for style in styles)
    for _ in range(limit):
        if state.end is not None:
            break
        if greedy[state.to_move]:
            move = choose(rng, state, "greedy")
        else:
            move = random_move(state, rng)  # type: ignore[assignment]  # never None before the end
        after = apply(state, move)
        if draws:
            move = move._replace(draw=_drawn(state, after))
        moves.append(move)
        state = after
    tags = {
        "Game": "Caravan",
        "Rules": rules.name,
        "Player1": f"{styles[0]}-1",
        "Player2": f"{styles[1]}-2",
        "First": str(first + 1),
        "Deck1": " ".join(map(_TEXTS.__getitem__, decks[0])),
        "Deck2": " ".join(map(_TEXTS.__getitem__, decks[1])),
        "Result": "*" if state.end is None else "1-0" if state.winner == 0 else "0-1",
    }
    if state.end is None:
        tags["Termination"] = "move limit"
    return CaravanGame(tags, moves, state)


def _drawn(before: cv.State, after: cv.State) -> Card | None:
    p = before.to_move
    deck = before.decks[p]
    if deck and after.decks[p] != deck:
        return deck[0]
    return None


@dataclass(frozen=True)
class CaravanMaker:
    """Game number ``index`` of a seed, on its own (``referee.jobs.selfplay``): its
    players' styles, decks, first player and moves all drawn from ``unit_random(seed,
    index)``; a game that does not end within ``move_limit`` plies stops there."""

    rules: str = cv.DEFAULT_RULES
    player: str = "random"
    draws: bool = False
    move_limit: int = MOVE_LIMIT
    whole_file: ClassVar[bool] = False

    def __post_init__(self) -> None:
        cv.ruleset(self.rules)  # ValueError for a name the engine does not know
        if self.player not in PLAYERS:
            raise ValueError(f"the players are {', '.join(PLAYERS)}, not {self.player!r}")

    def __call__(self, seed: int, index: int) -> CaravanGame:
        rng = unit_random(seed, index)
        rule_set = cv.ruleset(self.rules)
        styles = {"random": ("random", "random"), "greedy": ("greedy", "greedy")}.get(
            self.player, (rng.choice(("random", "greedy")), rng.choice(("random", "greedy"))))
        return play_caravan(rng, rule_set, styles, self.draws, limit=self.move_limit)


def caravan_games(count: int, seed: int, rules: str = cv.DEFAULT_RULES, player: str = "random",
                  draws: bool = False, move_limit: int = MOVE_LIMIT) -> Iterator[CaravanGame]:
    """``count`` complete games from ``seed`` (game ``i`` is ``CaravanMaker(...)(seed,
    i)``, whatever else is made); ``player`` is random, greedy or mixed."""
    return items(CaravanMaker(rules, player, draws, move_limit), count, seed)
