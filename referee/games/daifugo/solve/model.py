"""The z3 model of a Daifugo hand split into combinations.

The combinations come from the engine (``daifugo_search.Partition``: every combination
the hand holds, from ``legal_moves`` of a trick the player leads). The model picks a set
of them: each real card in exactly one (a tracked constraint per card), the jokers used
exactly as many as held (tracked), at most N plays (tracked). ``at_most(n)`` asks whether N
plays can do; its unsat core, less the bound, is a set of cards that alone already need
more than N plays: the reason in words for "no fewer".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from referee.games.daifugo.solve.search import Partition, Piece, forbidden
from referee.jobs.solve import Deadline, Timeout


@dataclass
class SplitResult:
    answer: str  # "yes" (a split of at most n plays exists) | "no" | "unknown"
    pieces: list[Piece] = field(default_factory=list)
    #: For "no": the cards (text) whose covering constraints are in the unsat core.
    core: list[str] = field(default_factory=list)
    solver_calls: int = 0


class SplitModel:
    def __init__(self, partition: Partition) -> None:
        self.partition = partition
        self.solver = z3.SolverFor("QF_FD")
        self.solver.set("core.minimize", True)
        self.x = [z3.Bool(f"piece_{i}") for i in range(len(partition.pieces))]
        self.trackers: dict[str, z3.BoolRef] = {}
        for card in partition.reals:
            bit = partition.bit[card]
            holding = [(self.x[i], 1) for i, p in enumerate(partition.pieces) if p.mask & bit]
            self._track(f"card {card}", z3.PbEq(holding, 1) if holding else z3.BoolVal(False))
        if partition.jokers or any(p.jokers for p in partition.pieces):
            uses = [(self.x[i], p.jokers) for i, p in enumerate(partition.pieces) if p.jokers]
            self._track("card JK", z3.PbEq(uses, partition.jokers) if uses else z3.BoolVal(partition.jokers == 0))
        self.calls = 0
        self._clean: z3.BoolRef | None = None

    def _clean_finish(self) -> z3.BoolRef:
        """A literal that, assumed, asks for a split with a last play that is no forbidden
        finish: some chosen piece is last, and it is clean under the order left by the
        revolutions of the others (their parity)."""
        if self._clean is None:
            partition = self.partition
            pieces = partition.pieces
            revolts = [self.x[i] for i, p in enumerate(pieces) if p.revolt]
            parity = z3.BoolVal(False)
            for r in revolts:
                parity = z3.Xor(parity, r)
            last = [z3.Bool(f"last_{i}") for i in range(len(pieces))]
            start = partition.state.revolution
            options = []
            for i, piece in enumerate(pieces):
                # Parity of the others = parity of all, flipped back by this piece's own revolt.
                others = z3.Xor(parity, z3.BoolVal(piece.revolt))
                # An odd number of revolutions before it turns the starting order round.
                clean_if_odd = not forbidden(partition.rules, piece.play.cards, not start)
                clean_if_even = not forbidden(partition.rules, piece.play.cards, start)
                ok = z3.If(others, z3.BoolVal(clean_if_odd), z3.BoolVal(clean_if_even))
                options.append(z3.And(last[i], self.x[i], ok))
            self._clean = z3.Bool("clean finish")
            self.solver.add(z3.Implies(self._clean, z3.Or(options) if options else z3.BoolVal(False)))
        return self._clean

    def _track(self, name: str, constraint: z3.BoolRef) -> None:
        lit = z3.Bool(f"track {name}")
        self.trackers[name] = lit
        self.solver.add(z3.Implies(lit, constraint))

    def at_most(self, n: int, deadline: Deadline | None = None, clean: bool = False) -> SplitResult:
        """Is there a split into at most ``n`` plays (with ``clean``: one that can end on a
        normal finish)?"""
        bound = z3.Bool(f"bound {n}")
        self.solver.add(z3.Implies(bound, z3.PbLe([(x, 1) for x in self.x], n)))
        if deadline is not None:
            left = deadline.remaining()
            if left is not None:
                if left <= 0:
                    raise Timeout()
                self.solver.set("timeout", max(1, int(left * 1000)))
            deadline.solver_calls += 1
        self.calls += 1
        extra = [self._clean_finish()] if clean else []
        verdict = self.solver.check(*self.trackers.values(), bound, *extra)
        result = SplitResult("unknown", solver_calls=self.calls)
        if verdict == z3.unknown:
            raise Timeout()
        if verdict == z3.sat:
            model = self.solver.model()
            result.answer = "yes"
            result.pieces = [p for x, p in zip(self.x, self.partition.pieces) if z3.is_true(model.eval(x))]
            return result
        names = {str(lit): name for name, lit in self.trackers.items()}
        result.answer = "no"
        result.core = sorted((names[str(c)] for c in self.solver.unsat_core() if str(c) in names),
                             key=lambda t: t)
        return result

    def fewest(self, deadline: Deadline | None = None, clean: bool = False) -> SplitResult:
        """The least n with a split of n plays (counting down from the number of cards);
        with ``clean``, of n plays that can end on a normal finish ("no" if none can)."""
        n = len(self.partition.hand)
        best = self.at_most(n, deadline, clean)
        if best.answer != "yes":
            return best
        while True:
            n = len(best.pieces) - 1
            if n < 1:
                return best
            trial = self.at_most(n, deadline, clean)
            if trial.answer != "yes":
                best.solver_calls = trial.solver_calls
                best.core = trial.core
                return best
            best = trial
