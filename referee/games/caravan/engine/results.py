"""The end of a game: a declared result judged, and how the game was won, in words."""

from __future__ import annotations

from referee.engines.base import Violation
from referee.engines.message import T
from referee.games.caravan.engine.state import State
from referee.games.caravan.engine.table import LANES, LETTERS
from referee.games.caravan.engine.values import caravan_value


def check_result(state: State, declared: str, abandoned: bool = False) -> tuple[Violation, bool] | None:
    """Whether a declared result (``1-0``, ``0-1``, ``*``) is the outcome of the game as it
    stands after the record's last move: None when it is, else the Violation and whether it
    is only a doubt (True: the result cannot be confirmed, a warning) rather than a fault.
    ``abandoned``: the record says the game was given up ([Termination "forfeit"])."""
    if state.over:
        expected = "1-0" if state.winner == 0 else "0-1"
        if declared != expected:
            return Violation("caravan.result.wrong",
                             T("the result is {declared}, but {end}, so it is {expected}",
                               declared=declared, end=describe_end(state), expected=expected)), False
        return None
    if declared == "*" or abandoned:
        return None
    if any(state.hands[p].size is None or state.decks[p] is None for p in (0, 1)):
        return Violation("caravan.result.unverified",
                         T("the result {declared} cannot be confirmed: the lanes are not all "
                           "decided and without both decks nobody can tell whether a player ran out",
                           declared=declared)), True
    return Violation("caravan.result.unfinished",
                     T("the result is {declared}, but the game has not ended (not every lane is "
                       "decided and nobody ran out); only {tag} allows that",
                       declared=declared, tag='[Termination "forfeit"]')), False


def describe_end(state: State) -> T:
    """How a finished game was won, as a sentence."""
    winner = state.winner + 1  # type: ignore[operator]  # asked only of an ended game: it has a winner
    loser = 2 - state.winner  # type: ignore[operator]  # as above
    if state.end == "lanes":
        values = [caravan_value(c) for c in state.caravans]
        lanes = ", ".join(f"{LETTERS[a]}/{LETTERS[b]} {values[a]}-{values[b]}" for a, b in LANES)
        return T("player {winner} won: all three lanes are decided ({lanes})", winner=winner, lanes=lanes)
    if state.end == "out":
        return T("player {winner} won: player {loser} ran out of cards", winner=winner, loser=loser)
    return T("player {winner} won: player {loser} had no legal move", winner=winner, loser=loser)
