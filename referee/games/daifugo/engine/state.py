"""Moves and the state of a round, and the turn order (who is still in, who moves next)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Union

from referee.engines.base import Card, Violation
from referee.games.daifugo.engine.combos import Combo, Stand
from referee.games.daifugo.engine.rules import RuleSet


class Play(NamedTuple):
    """``player`` plays ``cards`` as one combination.

    ``joker_as`` gives one reading per joker in ``cards``, in order, each a ``Stand`` or
    None (unstated: a bare ``JK``). ``()`` means every joker is unstated. The engine
    resolves unstated jokers when only one reading is legal (rule ``daifugo.joker.ambiguous``).
    A lone joker's reading is ignored: it is always the lone joker.
    """

    player: int
    cards: tuple[Card, ...]
    joker_as: tuple[Stand | None, ...] = ()


class Pass(NamedTuple):
    player: int


class Give(NamedTuple):
    """An exchange gift before the first play of a round (``Dai -> Aki: 2S JK``)."""

    giver: int
    receiver: int
    cards: tuple[Card, ...]


class Unreadable(NamedTuple):
    """A submission whose cells hold no card the table can hold (a contest client's value
    in column 0 or 14 of a row): the server cannot take it as cards (``text`` as logged)."""

    player: int
    text: str = ""


Move = Union[Play, Pass, Give, Unreadable]


class Duty(NamedTuple):
    """An exchange gift owed: ``giver`` gives ``count`` cards to ``receiver``.

    ``choose``: "strongest" (the lower titles), "weakest" or "choice" (the upper titles).
    ``server``: the contest server makes this transfer itself, before the choices (uecda).
    """

    giver: int
    receiver: int
    count: int
    choose: str
    server: bool = False


class State(NamedTuple):
    """A Daifugo round in progress. Build it with ``new_round`` or ``snapshot``."""

    rules: RuleSet
    #: Player ids in turn order at the start of the round (direction +1).
    seats: tuple[int, ...]
    #: Each player's cards, by player id.
    hands: tuple[tuple[Card, ...], ...]
    #: Whose turn it is; None during the exchange and once the round is over.
    to_move: int | None
    #: "exchange", "play" or "over".
    phase: str = "play"
    #: The play to beat, None when the next play leads.
    table: Combo | None = None
    #: Who made the last accepted play (it persists after a trick ends: the contest
    #: server's ``last_player``); at the start of a round, the first leader.
    last_player: int | None = None
    #: Players who passed (or, under uecda, were rejected) in this trick.
    passed: frozenset[int] = frozenset()
    #: Players who went out normally, in order.
    finished: tuple[int, ...] = ()
    #: Players who went out on a forbidden finish, in order (daifugo.option.forbidden-finish).
    fouled: tuple[int, ...] = ()
    #: The previous daifugo, when ``miyako-ochi`` made them drop out.
    dropped: tuple[int, ...] = ()
    revolution: bool = False
    #: Eleven-back in force for this trick.
    back: bool = False
    #: The suit set every play must use (suit-lock), or None.
    lock: frozenset[str] | None = None
    #: +1 or -1 (six-reverse).
    direction: int = 1
    #: A revolution was made in this trick (consecutive-revolution).
    trick_revolted: bool = False
    #: Exchange gifts still owed, in the order they are made.
    pending: tuple[Duty, ...] = ()
    #: The hands as dealt (the seed exchange is judged on them); None for a snapshot.
    dealt: tuple[tuple[Card, ...], ...] | None = None
    #: The previous round's finishing order (titles), None in a first round.
    previous: tuple[int, ...] | None = None
    round_no: int = 1
    #: No play made yet this round (daifugo.lead.diamond3-free).
    opening: bool = True
    #: Consecutive passes and rejections since the last accepted play (uecda stall rule).
    stall: int = 0
    #: The round ended by the stall rule: the places of those still in are random.
    stalled: bool = False
    #: Rule ids of the behaviours the last move set off (revolution, trick end, ...).
    events: tuple[str, ...] = ()
    #: Player names for messages, or None ("player 1", ...).
    names: tuple[str, ...] | None = None

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def reversed(self) -> bool:
        """Is the order in force reversed (revolution XOR eleven-back)?"""
        return self.revolution != self.back

    def name(self, player: int) -> str:
        if self.names is not None and 0 <= player < len(self.names):
            return self.names[player]
        return f"player {player + 1}"

    def is_in(self, player: int) -> bool:
        """Still in the round: holding cards and not dropped by miyako-ochi."""
        return bool(self.hands[player]) and player not in self.dropped


class RuleError(ValueError):
    """A start position the rules cannot accept; ``violation`` says which rule it breaks."""

    def __init__(self, violation: Violation):
        super().__init__(violation.message)
        self.violation = violation


#: Violations that mean a move came at a wrong time or from the wrong player. In every
#: record they are errors; under uecda every *other* violation is a submission the server
#: rejected and counted as a pass (see ``reject``).
TURN_RULES = frozenset({
    "daifugo.end.game-over", "daifugo.exchange.pending", "daifugo.exchange.duty",
    "daifugo.exchange.order", "daifugo.exchange.strongest", "daifugo.exchange.weakest",
    "daifugo.exchange.simultaneous", "daifugo.turn.order", "daifugo.turn.finished",
    "daifugo.pass.sat-out",
})


def _v(rule: str, message: str) -> Violation:
    return Violation(rule, message)


def players_in(state: State) -> tuple[int, ...]:
    """The players still in the round, in seat order."""
    return tuple(p for p in state.seats if state.is_in(p))


def _next_player(state: State, after: int, skip: frozenset[int] = frozenset()) -> int | None:
    """The next player in the current direction after ``after`` who is still in and not in
    ``skip``; ``after`` itself comes last (the uecda own turn)."""
    seats = state.seats
    n = len(seats)
    i = seats.index(after)
    d = state.direction
    for k in range(1, n + 1):
        q = seats[(i + k * d) % n]
        if q not in skip and state.is_in(q):
            return q
    return None


def _leader_after(state: State, player: int) -> int | None:
    """Who leads after a trick ends with ``player`` on the table: that player, or if they
    are out, the next player still in after them (daifugo.trick.leader)."""
    if state.is_in(player):
        return player
    return _next_player(state, player)


def fresh_trick(state: State, leader: int) -> State:
    """``state`` with a new trick led by ``leader``: the table, the passes, the lock and
    eleven-back cleared (what the end of a trick clears)."""
    return state._replace(table=None, passed=frozenset(), lock=None, back=False, trick_revolted=False,
                          to_move=leader)


def _end_round(state: State, events: Sequence[str]) -> State:
    return state._replace(phase="over", to_move=None, events=tuple(events) + ("daifugo.round.end",))
