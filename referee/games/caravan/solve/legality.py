"""Is this move legal here, by the z3 model? The model's one step (``ReachModel`` with K =
1, the move fixed, no goal) is satisfiable exactly when the rules allow the move; when it
is not, the unsat core is the set of rule ids that forbid it. The engine's ``check`` is the
first statement of the same rules; the tests hold the two to the same verdict on every
candidate move of random positions (the opening included). A card the mover does not hold,
a number card placed or a caravan disbanded on the opponent's side, and a face card on a
card that does not exist are judged before the model is built (their rule ids say so); a
recorded draw is not judged here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.games.caravan import engine as cv
from referee.games.caravan.solve.model import ReachModel
from referee.games.caravan.solve.puzzle import Goal, Puzzle
from referee.jobs.solve.smt import and_, not_

GOALS = ("goal.low", "goal.high", "goal.beat")


@dataclass
class Legality:
    legal: bool
    #: The rule ids an illegal move breaks (the unsat core).
    core: list[str] = field(default_factory=list)
    solvers: list[str] = field(default_factory=list)


def move_legal(state: cv.State, move: cv.Move, certify: bool = False) -> Legality:
    """The model's verdict on ``move`` for the player to move in ``state``."""
    p = state.to_move
    if state.over:
        return Legality(False, ["caravan.end.game-over"])
    card = getattr(move, "card", None)
    hand = state.hands[p].known
    if card is not None and card not in hand:
        return Legality(False, ["caravan.hand.possession"])
    own = cv.own_caravans(p)
    target = getattr(move, "caravan", None)
    if isinstance(move, cv.Disband) and target not in own:
        return Legality(False, ["caravan.disband.own"])
    if isinstance(move, cv.Attach) and not 0 <= move.index < len(state.caravans[move.caravan]):
        return Legality(False, ["caravan.face.target"])
    if target is None:
        goal = Goal("reach", p, own[0])
    elif target in own:
        goal = Goal("reach", p, target)
    else:  # the opponent's caravan: the lane, so that the model holds both sides
        goal = Goal("lane", p, target - 3 if p == 0 else target + 3, target)
    start = state._replace(hands=(state.hands[0], state.hands[1]), decks=state.decks)
    joker = card is not None and card.is_joker
    puzzle = Puzzle(start, goal, 1, "hand", joker)
    model = ReachModel(puzzle, question=False)
    sel = model.sel[0]
    index = next(i for i, (c, needed) in enumerate(model.cards) if c == card and not needed) if card else None
    chosen = [] if index is None else [sel["picks"][index]]
    if isinstance(move, cv.Discard):
        chosen.append(sel["disc"])
    elif isinstance(move, cv.Disband):
        chosen.append(sel["disb"])
    elif isinstance(move, cv.PlayNumber):
        var = sel["nums"].get(move.caravan) or sel["foreign"].get(move.caravan)
        if var is None:  # a face card placed as a number card, with no number card held
            return Legality(False, ["caravan.face.target"])
        chosen.append(var)
    else:
        var = sel["faces"].get((move.caravan, move.index))
        if var is None:  # a number card attached, with no face card held
            return Legality(False, ["caravan.number.end"])
        chosen.append(var)
    s = model.script
    fixed = s.bool("the_move")
    s.add(f"(=> {fixed} {and_(*chosen, not_(sel['skip']))})")
    got = s.check((fixed,), certify=certify, without=GOALS)
    return Legality(got.answer == "sat", got.core, list(got.solvers))

