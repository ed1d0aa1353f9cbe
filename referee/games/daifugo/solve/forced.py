"""``forced-out`` answered from the rules' z3 model: an AND-OR search over the game tree
whose moves, and the position after each, are the solutions of ``step.StepModel`` (one
model per position: every move the rules allow there and what it sets off), and whose
cut (no budget below the fewest plays that empty the hand) is ``rules.OutModel``'s.

It is the engine's ``search.ForcedOut`` (its table, its move ordering, its strategy
built as a graph) with the moves and positions taken from the model instead. The engine
is the cross-check, at every position the search reaches: its legal moves must be the
model's moves (the same cards read the same way) and its ``apply`` must give the model's
position after each (``Disagreement`` otherwise); its own search must reach the same
answer, and a ``yes``'s strategy is replayed through it (``verify_out_strategy``).
"""

from __future__ import annotations

from referee.games.daifugo import engine as df
from referee.games.daifugo.solve.rules import OutModel
from referee.games.daifugo.solve.search import ForcedOut
from referee.games.daifugo.solve.step import StepModel
from referee.jobs.solve import Deadline
from referee.jobs.solve.smt import Disagreement


def move_key(state: df.State, move: df.Move) -> tuple:
    """What tells moves apart: a pass, or the cards and what they read as on this table."""
    if isinstance(move, df.Pass):
        return ("pass",)
    assert isinstance(move, df.Play)
    combo = df.resolved(state, move)
    if combo is None:
        raise Disagreement(f"the z3 model plays {' '.join(map(str, move.cards))}, which the engine does not allow")
    return (tuple(sorted(move.cards)), combo.kind, combo.low, combo.high, combo.suits, combo.lone_joker)


def engine_successors(state: df.State) -> dict[tuple, tuple[df.Move, df.State]]:
    """The engine's moves and positions after them, by ``move_key`` (events left out)."""
    out: dict[tuple, tuple[df.Move, df.State]] = {}
    for move in df.legal_moves(state):
        out.setdefault(move_key(state, move), (move, df.apply(state, move)._replace(events=())))
    return out


def model_successors(state: df.State, deadline: Deadline | None = None
                     ) -> tuple[dict[df.Move, df.State], dict[df.Move, df.Move]]:
    """The rules' model's moves in ``state`` and the position after each, held to the
    engine's: the same moves (cards and reading) and the same positions after them, else
    ``Disagreement``. Also each model move's engine move."""
    engine = engine_successors(state)
    got: dict[df.Move, df.State] = {}
    matched: dict[df.Move, df.Move] = {}
    for found in StepModel(state).successors(deadline):
        name = move_key(state, found.move)
        if name not in engine:
            raise Disagreement(f"the z3 model allows {found.move}, the engine does not ({_where(state)})")
        their_move, their_after = engine.pop(name)
        if their_after != found.after:
            raise Disagreement(f"after {found.move} the z3 model and the engine differ: "
                               f"{_difference(found.after, their_after)} ({_where(state)})")
        got[found.move] = found.after
        matched[found.move] = their_move
    if engine:
        missing = next(iter(engine.values()))[0]
        raise Disagreement(f"the engine allows {missing}, the z3 model does not ({_where(state)})")
    return got, matched


def _where(state: df.State) -> str:
    return f"{state.rules!r}, table {state.table}, {state.name(state.to_move)} to move"  # type: ignore[arg-type]  # a round in play has a player to move


class ModelForcedOut(ForcedOut):
    """``ForcedOut`` over the rules' model: see the module. ``checked`` counts the
    positions at which the engine was held to the model."""

    def __init__(self, root: df.State, player: int, deadline: Deadline | None) -> None:
        super().__init__(root, player, deadline)
        self.tree: dict[tuple, dict[df.Move, df.State]] = {}
        #: Each model move's engine move (the same cards, read the same way), per position.
        self.engine_moves: dict[tuple, dict[df.Move, df.Move]] = {}
        self.checked = 0

    def _node(self, state: df.State) -> dict[df.Move, df.State]:
        key = self.key(state)
        got = self.tree.get(key)
        if got is None:
            got, self.engine_moves[key] = model_successors(state, self.deadline)
            self.tree[key] = got
            self.checked += 1
        return got

    def moves(self, state: df.State) -> list[df.Move]:
        return list(self._node(state))

    def after(self, state: df.State, move: df.Move) -> df.State:
        return self._node(state)[move]

    def fewest(self, state: df.State) -> int:
        hand = tuple(sorted(state.hands[self.player]))
        got = self.fewest_memo.get(hand)
        if got is None:
            got = len(OutModel(state, self.player).fewest(self.deadline).plays)
            self.fewest_memo[hand] = got
        return got

    def as_engine(self, state: df.State, tree: dict) -> dict:
        """A strategy over the model's moves as the engine's moves (what the engine's
        replay and the record's notation take), position by position."""
        names = self.engine_moves[self.key(state)]
        return {names[move]: self.as_engine(self.after(state, move), sub) if sub else {} for move, sub in tree.items()}


def _difference(a: df.State, b: df.State) -> str:
    fields = [f for f in df.State._fields if getattr(a, f) != getattr(b, f)]
    return "; ".join(f"{f}: z3 {getattr(a, f)!r}, engine {getattr(b, f)!r}" for f in fields)
