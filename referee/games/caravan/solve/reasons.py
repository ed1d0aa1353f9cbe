"""A "no" of the Caravan model in words: the unsat core (rule ids, and the goal's parts)
as the sentence a player reads, "every line of at most K moves would ..."."""

from __future__ import annotations

from referee.games.caravan import engine as cv
from referee.games.caravan.solve.puzzle import Puzzle

#: What each tracked constraint says, as the end of "every line would ...".
RULE_WORDS = {
    "goal.low": "leave {x} below 21",
    "goal.high": "{high}",
    "goal.beat": "leave {y} in 21-26 and at least as high as {x}",
    "caravan.number.same-value": "put a number card right after one of the same value (caravan.number.same-value)",
    "caravan.number.direction": "break {dir} (caravan.number.direction)",
    "caravan.number.max-cards": "put an eighth number card on a caravan (caravan.number.max-cards)",
    "caravan.face.limit": "give a number card a fourth face card (caravan.face.limit)",
    "caravan.queen.last": "put a Queen on a card other than the last of its caravan (caravan.queen.last)",
    "caravan.discard.empty-deck": "discard with an empty deck (caravan.discard.empty-deck)",
    "caravan.draw.mismatch": "need a deck card before it is drawn (one card is drawn after each move: "
                             "caravan.draw.mismatch)",
    "caravan.end.game-over": "have to go on after the game has ended (caravan.end.game-over)",
    "caravan.opening.empty": "place an opening card on a caravan that is not empty (caravan.opening.empty)",
    "caravan.opening.order": "place an opening card elsewhere than on the first empty caravan (caravan.opening.order)",
    "caravan.opening.number-only": "play a face card in the opening (caravan.opening.number-only)",
    "caravan.opening.discard": "discard in the opening (caravan.opening.discard)",
}


def reason_words(puzzle: Puzzle, core: list[str]) -> str:
    """The unsat core as a sentence: 'every line of at most K moves would ...'."""
    goal = puzzle.goal
    state = puzzle.start
    x = cv.LETTERS[goal.caravan]
    y = cv.LETTERS[goal.facing] if goal.facing is not None else ""
    dir_words = _direction_words(state, goal.caravan)
    high = (f"leave caravan {x} above 26" if state.values[goal.caravan] > cv.TARGET_HIGH
            else f"push caravan {x} past 26")
    phrases = [RULE_WORDS[name].format(x=f"caravan {x}", y=f"caravan {y}", dir=dir_words, high=high)
               for name in core if name in RULE_WORDS]
    k = puzzle.within
    moves = f"{k} move{'s' if k != 1 else ''}"
    cards = _cards_words(puzzle)
    if not phrases:
        return (f"no line of at most {moves} exists at all: with {cards}, no sequence of legal moves "
                f"brings about {goal.describe()}")
    if core == ["goal.low"]:
        return (f"with {cards}, no line of at most {moves} gets caravan {x} (now {state.values[goal.caravan]}) "
                f"up to 21")
    return (f"with {cards}, every line of at most {moves} that could bring about {goal.describe()} would "
            + _join(phrases))


def _join(phrases: list[str]) -> str:
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + " or " + phrases[-1]


def _cards_words(puzzle: Puzzle) -> str:
    p = puzzle.player
    hand = " ".join(map(str, puzzle.start.hands[p].known)) or "no known card"
    deck = puzzle.start.decks[p]
    if puzzle.cards == "hand+deck" and deck:
        shown = " ".join(map(str, deck[: max(0, puzzle.within - 1)]))
        return f"the hand {hand} and the deck's next cards {shown}" if shown else f"the hand {hand}"
    return f"the hand {hand}"


def _direction_words(state: cv.State, c: int) -> str:
    caravan = state.caravans[c]
    name = cv.LETTERS[c]
    if not caravan:
        return f"caravan {name}'s direction and suit"
    d = state.rules.direction(caravan)
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[cv.current_suit(caravan) or "S"]
    if d == 0:
        return f"the direction caravan {name} takes from {caravan[-1].card} (suit {suit})"
    way = "ascending" if d > 0 else "descending"
    return f"caravan {name}'s {way} order from {caravan[-1].card} (suit {suit})"
