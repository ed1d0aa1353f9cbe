"""Self-play: random legal, complete Daifugo matches as DFN, for tests, benchmarks and
users' own tools.

A match is several rounds among 3 to 8 players (5 under ``uecda``): each round is dealt
from a shuffled deck one card at a time as the rules say (seed: from the first-ranked
player; uecda: from a random dealer in seat order), the exchange gifts are chosen among the
legal ones, and every move is drawn by the engine's ``random_move``: uniformly among the
legal plays, judging candidates only until one is legal (a player who may pass does so now
and then, not as often as a uniform draw would make them). Everything goes
through the engine; the generator holds no rule of its own. The same seed gives the same
matches.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from referee.engines.base import Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import (
    hand_text,
    options_text,
    ruleset_of,
    write_daifugo,
)

NAMES = ("Aki", "Ben", "Chie", "Dai", "Eri", "Fumi", "Gen", "Hana")
#: How often a player who may pass does, when they could also play.
PASS_RATE = 0.25
#: A round that runs longer than this is abandoned and dealt again (it cannot happen
#: under the rules as they are; a guard against an engine bug looping forever).
MAX_PLIES = 2000


@dataclass
class DaifugoMatch:
    tags: dict[str, str]
    #: Each round's tags and moves.
    rounds: list[tuple[dict[str, str], list[df.Move]]]
    #: Each round's final state.
    finals: list[df.State]

    def text(self) -> str:
        return write_daifugo(self.tags, self.rounds)

    @property
    def plies(self) -> int:
        return sum(len(moves) for _, moves in self.rounds)


def deal(rng: random.Random, rules: df.RuleSet, n: int, order: Sequence[int]) -> list[tuple[Card, ...]]:
    """A shuffled deck dealt one card at a time to the players in ``order``."""
    cards = list(df.deck(rules, n))
    rng.shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i, card in enumerate(cards):
        hands[order[i % n]].append(card)
    return [tuple(h) for h in hands]


def choose(rng: random.Random, state: df.State) -> df.Move:
    """A random legal move: a pass now and then where one is legal, else a random play
    (a pass when there is none); drawn by the engine without listing every legal move."""
    return df.random_move(state, rng, PASS_RATE)


def play_round(rng: random.Random, rules: df.RuleSet, names: Sequence[str], number: int,
               previous: tuple[int, ...] | None, seats: tuple[int, ...] | None) -> tuple[dict[str, str], list[df.Move], df.State] | None:
    """One round from a fresh deal: its tags, its moves and its final state (None if it ran
    past MAX_PLIES)."""
    n = len(names)
    fixed = df.default_seats(rules, n, previous)
    seat_t = fixed if fixed is not None else (seats or tuple(range(n)))
    if rules.deal_start == "first":
        order: Sequence[int] = previous if previous is not None else range(n)
    else:
        start = rng.randrange(n)
        order = seat_t[start:] + seat_t[:start]
    hands = deal(rng, rules, n, list(order))
    state = df.new_round(rules, hands, seat_t, previous, number, names)
    moves: list[df.Move] = []
    while not state.over:
        if len(moves) >= MAX_PLIES:
            return None
        move = choose(rng, state)
        moves.append(move)
        state = df.apply(state, move)
    tags = {"Round": str(number)}
    for p, name in enumerate(names):
        tags[f"Hand.{name}"] = hand_text(hands[p])
    if fixed is None:
        tags["Order"] = " ".join(names[p] for p in seat_t)
    tags["Finish"] = " ".join(names[p] for p in df.finishing_order(state))  # type: ignore[union-attr]  # the round is over here
    return tags, moves, state


def play_match(rng: random.Random, rules: df.RuleSet, players: int, rounds: int) -> DaifugoMatch:
    names = NAMES[:players]
    seats = None
    if rules.seating == "given":
        seats = tuple(rng.sample(range(players), players))
    tags = {"Game": "Daifugo", "Rules": rules.name}
    options = options_text(rules)
    if options:
        tags["Options"] = options
    tags["Players"] = " ".join(names)
    played: list[tuple[dict[str, str], list[df.Move]]] = []
    finals: list[df.State] = []
    previous = None
    while len(played) < rounds:
        got = play_round(rng, rules, names, len(played) + 1, previous, seats)
        if got is None:  # pragma: no cover - see MAX_PLIES
            continue
        round_tags, moves, state = got
        played.append((round_tags, moves))
        finals.append(state)
        previous = df.finishing_order(state)
    return DaifugoMatch(tags, played, finals)


def daifugo_matches(count: int, seed: int, players: int = 5, rules: str = df.DEFAULT_PRESET,
                    options: str = "", rounds: int = 3) -> Iterator[DaifugoMatch]:
    """``count`` complete matches of ``rounds`` rounds from ``seed``. Raises ValueError for
    an unknown preset or option, or a player count the rules do not allow."""
    rule_set = ruleset_of(rules, options)
    if not rule_set.min_players <= players <= rule_set.max_players:
        allowed = (f"exactly {rule_set.min_players}" if rule_set.min_players == rule_set.max_players
                   else f"{rule_set.min_players} to {rule_set.max_players}")
        raise ValueError(f"{rule_set.name} is played by {allowed} players, not {players}")
    if rounds < 1:
        raise ValueError("a match has at least one round")
    rng = random.Random(seed)
    for _ in range(count):
        yield play_match(rng, rule_set, players, rounds)
