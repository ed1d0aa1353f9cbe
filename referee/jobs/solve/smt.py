"""A small SMT-LIB writer for the z3 models: terms as text, folded where constant.

Building a model as SMT-LIB text and handing it to z3 in one parse keeps the build small
beside the solving, which matters for questions answered in tens of milliseconds. Terms are
strings; ``TRUE``/``FALSE`` and integer literals fold through
``and_``, ``or_``, ``not_``, ``ite``, ``eq``, ``add`` and the comparisons, so that the
static parts of a position (cards already on the table) cost nothing.

Constraints can be *tracked* under a name (``track``): the solver then checks them under an
assumption literal per name, and an unsat core is a list of names.
"""

from __future__ import annotations

from collections.abc import Iterable

import z3

TRUE, FALSE = "true", "false"
#: Numbers are bit-vectors of this width, never negative, compared unsigned. z3 bit-blasts
#: them; for these small bounded quantities that is faster than integer arithmetic (Int
#: with QF_LIA or the default solver), above all for the unsat proofs behind "no" answers.
#: 16 bits hold any caravan value (ten cards with three Kings each stay far below).
WIDTH = 16
SORT = f"(_ BitVec {WIDTH})"
_LIMIT = 1 << WIDTH


def num(n: int) -> str:
    if not 0 <= n < _LIMIT:
        raise ValueError(f"{n} does not fit the model's {WIDTH}-bit numbers")
    return f"(_ bv{n} {WIDTH})"


def int_literal(term: str) -> int | None:
    """The value of a numeral term, or None for any other term."""
    if term.startswith("(_ bv"):
        return int(term[5:term.index(" ", 5)])
    return None


def and_(*terms: str) -> str:
    parts = []
    for t in terms:
        if t == FALSE:
            return FALSE
        if t != TRUE:
            parts.append(t)
    if not parts:
        return TRUE
    return parts[0] if len(parts) == 1 else f"(and {' '.join(parts)})"


def or_(*terms: str) -> str:
    parts = []
    for t in terms:
        if t == TRUE:
            return TRUE
        if t != FALSE:
            parts.append(t)
    if not parts:
        return FALSE
    return parts[0] if len(parts) == 1 else f"(or {' '.join(parts)})"


def not_(t: str) -> str:
    if t == TRUE:
        return FALSE
    if t == FALSE:
        return TRUE
    if t.startswith("(not "):  # terms are whole s-expressions: this is (not X)
        return t[5:-1]
    return f"(not {t})"


def implies(a: str, b: str) -> str:
    if a == FALSE or b == TRUE:
        return TRUE
    if a == TRUE:
        return b
    if b == FALSE:
        return not_(a)
    return f"(=> {a} {b})"


def ite(c: str, a: str, b: str) -> str:
    if c == TRUE or a == b:
        return a
    if c == FALSE:
        return b
    if a == TRUE and b == FALSE:
        return c
    if a == FALSE and b == TRUE:
        return not_(c)
    return f"(ite {c} {a} {b})"


def eq(a: str, b: str) -> str:
    if a == b:
        return TRUE
    x, y = int_literal(a), int_literal(b)
    if x is not None and y is not None:
        return TRUE if x == y else FALSE
    if a in (TRUE, FALSE) and b in (TRUE, FALSE):
        return TRUE if a == b else FALSE
    return f"(= {a} {b})"


_BV_OPS = {"<": "bvult", "<=": "bvule", ">": "bvugt", ">=": "bvuge"}


def _cmp(op: str, a: str, b: str) -> str:
    x, y = int_literal(a), int_literal(b)
    if x is not None and y is not None:
        return TRUE if {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op] else FALSE
    return f"({_BV_OPS[op]} {a} {b})"


def lt(a: str, b: str) -> str:
    return _cmp("<", a, b)


def le(a: str, b: str) -> str:
    return _cmp("<=", a, b)


def gt(a: str, b: str) -> str:
    return _cmp(">", a, b)


def ge(a: str, b: str) -> str:
    return _cmp(">=", a, b)


def add(*terms: str) -> str:
    const = 0
    parts = []
    for t in terms:
        v = int_literal(t)
        if v is not None:
            const += v
        else:
            parts.append(t)
    if const or not parts:
        parts.append(num(const))
    return parts[0] if len(parts) == 1 else f"(bvadd {' '.join(parts)})"


def double(term: str) -> str:
    v = int_literal(term)
    if v is not None:
        return num(2 * v)
    return f"(bvadd {term} {term})"


def count(terms: Iterable[str]) -> str:
    """How many of the Boolean ``terms`` hold."""
    return add(*(ite(t, num(1), num(0)) for t in terms))


def at_most_one(terms: list[str]) -> str:
    terms = [t for t in terms if t != FALSE]
    if len(terms) <= 1:
        return TRUE
    return f"((_ at-most 1) {' '.join(terms)})"


class Script:
    """Declarations, assertions and tracked assertions, then a z3 solver over them."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.tracked: dict[str, list[str]] = {}
        self.names: set[str] = set()

    def bool(self, name: str) -> str:
        self.lines.append(f"(declare-const {name} Bool)")
        return name

    def int(self, name: str) -> str:
        """A number (a bit-vector of ``WIDTH`` bits)."""
        self.lines.append(f"(declare-const {name} {SORT})")
        return name

    def add(self, term: str) -> None:
        if term == TRUE:
            return
        self.lines.append(f"(assert {term})")

    def track(self, name: str, term: str) -> None:
        """Assert ``term`` under the assumption named ``name`` (several terms may share it)."""
        if term == TRUE:
            self.tracked.setdefault(name, [])
            return
        self.tracked.setdefault(name, []).append(term)

    def text(self) -> str:
        out = list(self.lines)
        for name, terms in self.tracked.items():
            out.append(f"(declare-const track__{name.replace('.', '__').replace('-', '_')} Bool)")
            for t in terms:
                out.append(f"(assert (=> {tracker(name)} {t}))")
        return "\n".join(out)

    def solver(self) -> tuple[z3.Solver, dict[str, z3.BoolRef]]:
        """A solver holding the script, and the assumption literal of each tracked name."""
        ctx_solver = z3.SolverFor("QF_BV")
        ctx_solver.set("core.minimize", True)
        ctx_solver.add(z3.parse_smt2_string(self.text()))
        literals = {name: z3.Bool(tracker(name)) for name in self.tracked}
        return ctx_solver, literals


def tracker(name: str) -> str:
    return "track__" + name.replace(".", "__").replace("-", "_")
