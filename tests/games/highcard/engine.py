"""Highcard's rules: two players, a hand each; a trick is a card from the leader, then one
from the other; the higher card (ace high) takes it, a tie goes to the leader, who also
leads the next. Under ``suited`` the second card follows the leader's suit when it can.
The game ends when the hands are empty; more tricks wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from referee.engines.base import Card, Violation
from referee.engines.message import T

RULE_SETS = ("classic", "suited")


@dataclass(frozen=True)
class Rules:
    """A rule set: one object per name, which a pickle brings back as itself."""

    name: str

    def __reduce__(self) -> tuple[object, ...]:
        return named, (self.name,)


def named(name: str) -> Rules:
    """The rule set of this name (KeyError: none)."""
    return _NAMED[name]


_NAMED = {name: Rules(name) for name in RULE_SETS}


class State(NamedTuple):
    rules: Rules
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    to_move: int = 0
    #: The leader's card of the trick under way (None: the next card leads).
    led: Card | None = None
    tricks: tuple[int, int] = (0, 0)

    @property
    def over(self) -> bool:
        return not self.hands[0] and not self.hands[1]


def strength(card: Card) -> int:
    return 14 if card.rank == 1 else card.rank


def deal_violation(hands: tuple[tuple[Card, ...], ...]) -> Violation | None:
    cards = [c for h in hands for c in h]
    if len(hands) != 2 or len(hands[0]) != len(hands[1]) or len(set(cards)) != len(cards):
        return Violation("highcard.deal.hands", T("the two hands must hold as many cards, no card twice"))
    return None


def check(state: State, move: Card, consulted: list[str] | None = None) -> Violation | None:
    hand = state.hands[state.to_move]
    if consulted is not None:
        consulted.append("highcard.hand.possession")
    if move not in hand:
        return Violation("highcard.hand.possession", T("player {n} does not hold {card}", n=state.to_move + 1,
                                                       card=str(move)))
    led = state.led
    if state.rules.name == "suited" and led is not None:
        if consulted is not None:
            consulted.append("highcard.play.follow-suit")
        if move.suit != led.suit and any(c.suit == led.suit for c in hand):
            return Violation("highcard.play.follow-suit", T("player {n} must follow suit", n=state.to_move + 1))
    return None


def apply(state: State, move: Card) -> State:
    p = state.to_move
    left = tuple(tuple(c for c in h if c != move) if i == p else h for i, h in enumerate(state.hands))
    hands = (left[0], left[1])
    if state.led is None:
        return state._replace(hands=hands, to_move=1 - p, led=move)
    leader = 1 - p
    winner = p if strength(move) > strength(state.led) else leader
    tricks = tuple(n + (i == winner) for i, n in enumerate(state.tricks))
    return State(state.rules, hands, winner, None, (tricks[0], tricks[1]))


def legal_moves(state: State) -> list[Card]:
    return [c for c in state.hands[state.to_move] if check(state, c) is None]


def after_illegal(state: State, move: Card, violation: Violation) -> State | None:
    return None


def effects(before: State, move: Card, after: State) -> list[str]:
    return (["highcard.trick.win"] if before.led is not None else []) + set_off(after)


def set_off(state: State) -> list[str]:
    return ["highcard.end.empty"] if state.over else []


def winner(state: State) -> int | None:
    a, b = state.tricks
    return None if a == b else 0 if a > b else 1
