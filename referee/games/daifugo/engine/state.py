"""Moves and the state of a round, and the turn order (who is still in, who moves next)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Union

from referee.engines.base import Card, Violation
from referee.engines.message import T
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
    count: int  # type: ignore[assignment]  # the rules' word; tuple.count is never asked of a Duty
    choose: str
    server: bool = False

    @property
    def choice(self) -> T:
        """``choose`` as a sentence says it (and a catalog translates it)."""
        return CHOOSE_WORDS[self.choose]


#: How a sentence says a gift's ``choose``.
CHOOSE_WORDS = {"strongest": T("strongest"), "weakest": T("weakest"), "choice": T("choice")}


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
        return T("player {n}", n=player + 1)

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


# The engine's moves build each new State once, from a list of the old one's fields
# (``_new(State, fields)``), instead of ``_replace`` twice a move; these are the indices.
_new = tuple.__new__
_FIELD = State._fields.index
RULES, SEATS, HANDS, TO_MOVE, PHASE, TABLE, LAST_PLAYER, PASSED = map(_FIELD, (
    "rules", "seats", "hands", "to_move", "phase", "table", "last_player", "passed"))
FINISHED, FOULED, DROPPED, REVOLUTION, BACK, LOCK, DIRECTION, TRICK_REVOLTED = map(_FIELD, (
    "finished", "fouled", "dropped", "revolution", "back", "lock", "direction", "trick_revolted"))
PENDING, PREVIOUS, OPENING, STALL, STALLED, EVENTS = map(_FIELD, (
    "pending", "previous", "opening", "stall", "stalled", "events"))
_NO_ONE: frozenset[int] = frozenset()


def _turn_orders(seats: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Every seat in turn order after each player (by id: the seats are the ids 0..n-1;
    the player last), forward and backward; remembered (``_ORDERS``)."""
    got = _ORDERS.get(seats)
    if got is None:
        n = len(seats)
        forward: list[tuple[int, ...]] = [()] * n
        backward: list[tuple[int, ...]] = [()] * n
        for i, q in enumerate(seats):
            forward[q] = seats[i + 1:] + seats[:i + 1]
            backward[q] = (seats[i - 1::-1] + seats[:i - 1:-1]) if i else seats[::-1]
        if len(_ORDERS) >= 1 << 10:
            _ORDERS.clear()
        got = _ORDERS[seats] = (forward, backward)
    return got


#: The turn orders of each seating (``_turn_orders``), by the seats' value. Bound: 2^10
#: seatings, forgotten all at once when full. Reason: every move asks for the order after
#: its mover; a round keeps one seating, and the tables a service serves at once
#: interleave their moves, so one entry per table in play (a few hundred bytes each).
_ORDERS: dict[tuple[int, ...], tuple[list[tuple[int, ...]], list[tuple[int, ...]]]] = {}


def in_turn_order(fields: Sequence[Any], after: int) -> list[int]:
    """The players still in (``State.is_in``) in turn order after ``after`` (current
    direction; ``after`` itself last, when still in), from a state's ``fields``."""
    hands: tuple[tuple[object, ...], ...] = fields[HANDS]
    dropped: tuple[int, ...] = fields[DROPPED]
    seats = fields[SEATS]
    order = (_ORDERS.get(seats) or _turn_orders(seats))[0 if fields[DIRECTION] > 0 else 1][after]
    if dropped:
        return [q for q in order if hands[q] and q not in dropped]
    return [q for q in order if hands[q]]


def players_in(state: State) -> tuple[int, ...]:
    """The players still in the round, in seat order."""
    return tuple(p for p in state.seats if state.is_in(p))


def _next_player(state: State, after: int, skip: frozenset[int] = _NO_ONE) -> int | None:
    """The next player in the current direction after ``after`` who is still in and not in
    ``skip``; ``after`` itself comes last (the uecda own turn)."""
    for q in in_turn_order(state, after):
        if q not in skip:
            return q
    return None


def _leader_after(state: State, player: int) -> int | None:
    """Who leads after a trick ends with ``player`` on the table: that player, or if they
    are out, the next player still in after them (daifugo.trick.leader)."""
    return leader_after(state, player)


def leader_after(fields: Sequence[Any], player: int) -> int | None:
    """``_leader_after`` from a state's ``fields``."""
    hands: tuple[tuple[object, ...], ...] = fields[HANDS]
    if hands[player] and player not in fields[DROPPED]:
        return player
    ins = in_turn_order(fields, player)
    return ins[0] if ins else None


def clear_trick(fields: list[Any], leader: int | None) -> None:
    """End the trick in a state's ``fields``: the table, the passes, the lock and
    eleven-back cleared (what the end of a trick clears); ``leader`` to move."""
    fields[TABLE] = None
    fields[PASSED] = _NO_ONE
    fields[LOCK] = None
    fields[BACK] = False
    fields[TRICK_REVOLTED] = False
    fields[TO_MOVE] = leader


def fresh_trick(state: State, leader: int) -> State:
    """``state`` with a new trick led by ``leader``: the table, the passes, the lock and
    eleven-back cleared (what the end of a trick clears)."""
    fields = list(state)
    clear_trick(fields, leader)
    return _new(State, fields)


def end_round(fields: list[Any], events: Sequence[str]) -> State:
    """The round over, from a state's ``fields``: nobody to move (daifugo.round.end)."""
    fields[PHASE] = "over"
    fields[TO_MOVE] = None
    fields[EVENTS] = (*events, "daifugo.round.end")
    return _new(State, fields)


def _end_round(state: State, events: Sequence[str]) -> State:
    return end_round(list(state), events)


def effects(before: State, move: Move, after: State) -> tuple[str, ...]:
    """The ids of the rules a legal move set off (a revolution, an eight-cut, a trick's or
    the round's end, a lock, a finish, ...): the ``events`` of the position it led to."""
    return after.events


def set_off(state: State) -> tuple[str, ...]:
    """The ids of the rules that brought ``state`` about without a move of its own (a
    counted illegal move's pass, a start position already over): its ``events``."""
    return state.events
