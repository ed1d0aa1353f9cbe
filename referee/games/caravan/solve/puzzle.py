"""A Caravan reach/fewest question as data, shared by the search and the z3 model.

The question: player P (the owner of the goal caravan, or the side to move for a lane) makes
up to K moves while the opponent passes; does some line put the goal in place after its last
move?

* goal ``reach``: caravan X holds 21-26;
* goal ``lane``: the lane of X (P's caravan) and Y (the opponent's facing one) is decided
  in P's favour (X in 21-26, and Y out of it or lower).

The cards P may use: the known cards of the hand, and with ``cards="hand+deck"`` also the
known deck in draw order (each move that plays or discards a card draws the next one).
With ``cards="hand"`` what is drawn stays unknown and unusable.

Which moves (both methods use exactly this set, every one checked by the engine):

1. a number card on the goal caravan X;
2. a face card (J, Q, K) on a card of a goal caravan (X, and Y for a lane);
3. a Joker on any number card on the table (it removes goal cards that match it);
4. when a Joker is among the usable cards: a number card on one of P's other caravans
   (a target for that Joker);
5. a discard (it stands for every move whose only use is the card drawn after it);
6. disbanding X.

Every other move changes no goal caravan and is worth, for the question, only the card
drawn after it, which a discard of the same card draws too (``discard`` is legal whenever
such a move draws). The one thing this leaves out: lines that play on another caravan
only so that a later card may legally go there as a Joker target (three moves or more),
and lines that keep the game alive by changing another lane. In the opening (where
discards and face cards are not moves) every legal move is used.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from referee.engines.base import Card
from referee.games.caravan import engine as cv


@dataclass(frozen=True)
class Goal:
    kind: str  # "reach" | "lane"
    player: int
    caravan: int
    facing: int | None = None

    @property
    def caravans(self) -> tuple[int, ...]:
        return (self.caravan,) if self.facing is None else (self.caravan, self.facing)

    def met(self, state: cv.State) -> bool:
        v = state.values
        x = v[self.caravan]
        in_x = cv.TARGET_LOW <= x <= cv.TARGET_HIGH
        if self.kind == "reach":
            return in_x
        # the lane is the mover's as the engine decides lanes (caravan.lane.decided)
        return cv.lane_winner(x, v[self.facing]) == 0  # type: ignore[index]  # a lane goal names its facing caravan

    def describe(self) -> str:
        if self.kind == "reach":
            return f"caravan {cv.LETTERS[self.caravan]} in 21-26"
        a, b = sorted(self.caravans)
        return f"lane {cv.LETTERS[a]}/{cv.LETTERS[b]} won for player {self.player + 1}"


@dataclass(frozen=True)
class Puzzle:
    """The start (prepared: P to move, the opponent passive), the goal, the bound."""

    start: cv.State
    goal: Goal
    within: int
    cards: str  # "hand" | "hand+deck"
    #: Is a Joker among the cards P can use within ``within`` moves? (move kind 4)
    joker: bool

    @property
    def player(self) -> int:
        return self.goal.player


def prepare(state: cv.State, goal: Goal, within: int, cards: str) -> Puzzle:
    """The question's start state: P to move; the opponent's hand and deck made unknown, so
    that the engine never ends the game on the passive opponent's account; with
    ``cards="hand"`` P's deck unknown too (draws stay unknown), unless it is empty."""
    p = goal.player
    deck = state.decks[p]
    if cards == "hand":
        deck = () if deck == () else None
    hands = list(state.hands)
    decks = list(state.decks)
    hands[1 - p] = cv.Hand((), None)
    decks[1 - p] = None
    decks[p] = deck
    start = state._replace(hands=(hands[0], hands[1]), decks=(decks[0], decks[1]), to_move=p)
    joker = any(c.is_joker for c in usable_cards(start, p, within))
    return Puzzle(start, goal, within, cards, joker)


def usable_cards(state: cv.State, player: int, within: int) -> list[Card]:
    """The known hand, then the deck cards that can be drawn before the last of ``within``
    moves (one per earlier move)."""
    cards = list(state.hands[player].known)
    deck = state.decks[player]
    if deck:
        cards += list(deck[: max(0, within - 1)])
    return cards


def advance(state: cv.State, move: cv.Move, player: int) -> cv.State:
    """The engine's ``apply``, and the turn handed straight back to ``player`` (the opponent
    passes)."""
    after = cv.apply(state, move)
    return after if after.over or after.to_move == player else after._replace(to_move=player)


def moves(state: cv.State, puzzle: Puzzle, last: bool = False) -> Iterator[cv.Move]:
    """The question's moves from ``state`` (the module docstring), each legal by
    ``engine.check``. ``last``: only moves that change a goal caravan (the final move of a
    line must, or the goal held before it)."""
    if state.over:
        return
    if state.in_opening():
        for m in cv.legal_moves(state):
            if not last or not isinstance(m, cv.Discard):
                yield m
        return
    goal = puzzle.goal
    p = state.to_move
    check = cv.check
    goals = goal.caravans
    x = goal.caravan
    number_targets = cv.own_caravans(p) if (puzzle.joker and not last) else (x,)
    caravans = state.caravans
    for card in sorted(set(state.hands[p].known)):
        if cv.is_number(card):
            for c in number_targets:
                m = cv.PlayNumber(card, c)
                if check(state, m) is None:
                    yield m
        else:
            targets = range(6) if card.is_joker else goals
            for c in targets:
                for i in range(len(caravans[c])):
                    m = cv.Attach(card, c, i)
                    if check(state, m) is None:
                        yield m
        if not last:
            m = cv.Discard(card)
            if check(state, m) is None:
                yield m
    if caravans[x] and not last:
        m = cv.Disband(x)
        if check(state, m) is None:
            yield m


def replay(puzzle: Puzzle, line: list[cv.Move]) -> tuple[bool, str]:
    """Replay a witness line through the engine (``check`` then ``apply``, the opponent
    passing): (confirmed, why not)."""
    state = puzzle.start
    p = puzzle.player
    for n, move in enumerate(line, start=1):
        if state.over:
            return False, f"move {n}: the game is already over"
        if state.to_move != p:
            state = state._replace(to_move=p)
        v = cv.check(state, move)
        if v is not None:
            return False, f"move {n} is illegal: [{v.rule}] {v.message}"
        state = advance(state, move, p)
    if not puzzle.goal.met(state):
        return False, f"after the line the goal ({puzzle.goal.describe()}) does not hold"
    return True, ""


def final_state(puzzle: Puzzle, line: list[cv.Move]) -> cv.State:
    state = puzzle.start
    for move in line:
        state = advance(state, move, puzzle.player)
    return state
