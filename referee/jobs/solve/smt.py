"""A small SMT-LIB writer for the z3 models: terms as text, folded where constant, and the
one place a model is handed to a solver (z3; cvc5 as the second opinion of ``--certify``).

Building a model as SMT-LIB text and handing it to z3 in one parse keeps the build small
beside the solving, which matters for questions answered in tens of milliseconds; and the
same text can be given to another solver. Terms are strings; ``TRUE``/``FALSE`` and
numerals fold through ``and_``, ``or_``, ``not_``, ``ite``, ``eq`` and a :class:`Numbers`'
``add`` and comparisons, so that the static parts of a position cost nothing.

Numbers are either unbounded integers (``Numbers(None)``) or bit-vectors of a width that a
*proved bound* fits (``Numbers.fitting(bound)``): a model never computes in a width that
could wrap round. A numeral that does not fit its width is refused (ValueError).

Constraints can be *tracked* under a name (``track``): the solver then checks them under an
assumption literal per name, and an unsat core is a list of names (rule ids).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import z3

from referee.jobs.solve import Timeout

TRUE, FALSE = "true", "false"


def int_literal(term: str) -> int | None:
    """The value of a numeral term (an integer or a bit-vector numeral), or None."""
    if term.startswith("(_ bv"):
        return int(term[5:term.index(" ", 5)])
    if term.isdigit():
        return int(term)
    return None


class Numbers:
    """The arithmetic of one model: unbounded integers (``width`` None) or unsigned
    bit-vectors of ``width`` bits."""

    def __init__(self, width: int | None) -> None:
        self.width = width
        self.sort = "Int" if width is None else f"(_ BitVec {width})"
        self.limit = None if width is None else 1 << width
        self.logic = "QF_LIA" if width is None else "QF_BV"

    @classmethod
    def fitting(cls, bound: int | None) -> Numbers:
        """Bit-vectors wide enough for every number up to twice ``bound`` (a sum of two
        such numbers, or a doubling, still fits), or integers when there is no bound."""
        if bound is None:
            return cls(None)
        return cls(max(4, (2 * bound + 1).bit_length()))

    def describe(self) -> str:
        return "unbounded integers" if self.width is None else f"{self.width}-bit numbers"

    def num(self, n: int) -> str:
        if n < 0 or (self.limit is not None and n >= self.limit):
            raise ValueError(f"{n} does not fit the model's {self.describe()}")
        return str(n) if self.width is None else f"(_ bv{n} {self.width})"

    def _cmp(self, op: str, a: str, b: str) -> str:
        x, y = int_literal(a), int_literal(b)
        if x is not None and y is not None:
            return TRUE if {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op] else FALSE
        if self.width is None:
            return f"({op} {a} {b})"
        return f"({_BV_OPS[op]} {a} {b})"

    def lt(self, a: str, b: str) -> str:
        return self._cmp("<", a, b)

    def le(self, a: str, b: str) -> str:
        return self._cmp("<=", a, b)

    def gt(self, a: str, b: str) -> str:
        return self._cmp(">", a, b)

    def ge(self, a: str, b: str) -> str:
        return self._cmp(">=", a, b)

    def add(self, *terms: str) -> str:
        const = 0
        parts = []
        for t in terms:
            v = int_literal(t)
            if v is not None:
                const += v
            else:
                parts.append(t)
        if const or not parts:
            parts.append(self.num(const))
        if len(parts) == 1:
            return parts[0]
        return f"({'+' if self.width is None else 'bvadd'} {' '.join(parts)})"

    def sub(self, a: str, b: str) -> str:
        """``a - b`` (for bit-vectors, only where ``a >= b`` is asserted)."""
        x, y = int_literal(a), int_literal(b)
        if x is not None and y is not None and x >= y:
            return self.num(x - y)
        if y == 0:
            return a
        return f"({'-' if self.width is None else 'bvsub'} {a} {b})"

    def double(self, term: str) -> str:
        v = int_literal(term)
        if v is not None:
            return self.num(2 * v)
        return self.add(term, term)

    def count(self, terms: Iterable[str]) -> str:
        """How many of the Boolean ``terms`` hold."""
        return self.add(*(ite(t, self.num(1), self.num(0)) for t in terms))


_BV_OPS = {"<": "bvult", "<=": "bvule", ">": "bvugt", ">=": "bvuge"}


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


def xor(a: str, b: str) -> str:
    if a == FALSE:
        return b
    if b == FALSE:
        return a
    if a == TRUE:
        return not_(b)
    if b == TRUE:
        return not_(a)
    return f"(xor {a} {b})"


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


def at_most_one(terms: list[str]) -> str:
    """At most one of the Boolean ``terms`` holds (pairwise, plain SMT-LIB: any solver
    reads it)."""
    terms = [t for t in terms if t != FALSE]
    if len(terms) <= 1:
        return TRUE
    return and_(*(f"(not (and {a} {b}))" for i, a in enumerate(terms) for b in terms[i + 1:]))


def exactly_one(terms: list[str]) -> str:
    return and_(or_(*terms), at_most_one(terms))


class Disagreement(RuntimeError):
    """Two solvers gave different answers on the same SMT-LIB text (both are in the message)."""


@dataclass
class Verdict:
    """One check of a script: ``sat``, ``unsat`` or ``unknown``; for unsat the names of the
    tracked constraints in z3's core; with ``--certify``, what each solver said."""

    answer: str
    core: list[str] = field(default_factory=list)
    model: z3.ModelRef | None = None
    #: Solver -> its answer ("z3": "unsat", "cvc5": "unsat").
    solvers: dict[str, str] = field(default_factory=dict)


class Script:
    """Declarations, assertions and tracked assertions over one kind of ``Numbers``."""

    def __init__(self, numbers: Numbers | None = None) -> None:
        self.numbers = numbers or Numbers(None)
        self.lines: list[str] = []
        self.tracked: dict[str, list[str]] = {}

    def bool(self, name: str) -> str:
        self.lines.append(f"(declare-const {name} Bool)")
        return name

    def int(self, name: str) -> str:
        """A number (of the script's ``Numbers``)."""
        self.lines.append(f"(declare-const {name} {self.numbers.sort})")
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

    def body(self) -> str:
        """The declarations and assertions, tracked ones under their literals."""
        out = list(self.lines)
        for name, terms in self.tracked.items():
            out.append(f"(declare-const {tracker(name)} Bool)")
            for t in terms:
                out.append(f"(assert (=> {tracker(name)} {t}))")
        return "\n".join(out)

    def text(self, extra: Iterable[str] = ()) -> str:
        """The whole script as SMT-LIB 2.6: the logic, the body, and a check under every
        tracked name (and ``extra`` literals) as assumptions."""
        assumptions = [tracker(n) for n in self.tracked] + list(extra)
        return (f"(set-logic {self.numbers.logic})\n{self.body()}\n"
                f"(check-sat-assuming ({' '.join(assumptions)}))\n")

    def solver(self) -> tuple[z3.Solver, dict[str, z3.BoolRef]]:
        """A z3 solver holding the script, and the assumption literal of each tracked name."""
        solver = z3.SolverFor(self.numbers.logic)
        solver.set("core.minimize", True)
        solver.from_string(self.body())
        literals = {name: z3.Bool(tracker(name)[1:-1]) for name in self.tracked}
        return solver, literals

    def check(self, extra: Iterable[str] = (), timeout: float | None = None, certify: builtins.bool = False,
              without: Iterable[str] = ()) -> Verdict:
        """One check under every tracked name (less ``without``) and the ``extra`` literals:
        z3's answer, its core (names) or model; with ``certify``, an unsat answer is
        checked again by cvc5 from the same text (``Disagreement`` when they differ;
        ``timeout`` in seconds covers both)."""
        import time

        start = time.monotonic()
        solver, literals = self.solver()
        if timeout is not None:
            solver.set("timeout", max(1, int(timeout * 1000)))
        left_out = set(without)
        assumptions = [lit for name, lit in literals.items() if name not in left_out]
        extra = list(extra)
        verdict = solver.check(*assumptions, *(z3.Bool(e.strip("|")) for e in extra))
        out = Verdict(str(verdict))
        out.solvers["z3"] = out.answer
        if verdict == z3.unsat:
            names = {str(v): k for k, v in literals.items()}
            out.core = sorted(names[str(lit)] for lit in solver.unsat_core() if str(lit) in names)
            if certify:
                left = None if timeout is None else max(0.001, timeout - (time.monotonic() - start))
                second = cvc5_check(self.text_without(left_out, extra), left)
                out.solvers["cvc5"] = second
                if second not in ("unsat", "unknown"):
                    raise Disagreement(f"z3 answers unsat but cvc5 answers {second} on the same SMT-LIB text")
        elif verdict == z3.sat:
            out.model = solver.model()
        return out

    def models(self, shown: Sequence[tuple[str, str]], timeout: Callable[[], float | None] = lambda: None,
               limit: builtins.int = 100_000) -> Iterator[z3.ModelRef]:
        """Every solution of the script under every tracked name, once per value of the
        ``shown`` terms ((name, "Bool" | "Int") pairs: a solution differing only elsewhere is
        the same one). ``timeout()`` gives the seconds left before each check (None: no
        limit; 0 or less: stop at once); a check that runs out raises ``Timeout``."""
        solver, literals = self.solver()
        terms = [z3.Bool(name) if sort == "Bool" else z3.Int(name) if self.numbers.width is None
                 else z3.BitVec(name, self.numbers.width) for name, sort in shown]
        assumptions = list(literals.values())
        for _ in range(limit):
            left = timeout()
            if left is not None:
                if left <= 0:
                    raise Timeout()
                solver.set("timeout", max(1, int(left * 1000)))
            verdict = solver.check(*assumptions)
            if verdict == z3.unknown:
                raise Timeout()
            if verdict == z3.unsat:
                return
            model = solver.model()
            yield model
            solver.add(z3.Or([t != model.eval(t, model_completion=True) for t in terms]))
        raise Timeout()  # more solutions than the caller said a position can have

    def text_without(self, left_out: set[str], extra: list[str]) -> str:
        assumptions = [tracker(n) for n in self.tracked if n not in left_out] + extra
        return (f"(set-logic {self.numbers.logic})\n{self.body()}\n"
                f"(check-sat-assuming ({' '.join(assumptions)}))\n")


def tracker(name: str) -> str:
    """The assumption literal of a tracked name (a rule id is not a plain SMT-LIB symbol)."""
    return "|track " + name + "|"


def cvc5_check(text: str, timeout: float | None = None) -> str:
    """cvc5's answer (``sat``, ``unsat``, ``unknown``) on a whole SMT-LIB script that ends
    with one check."""
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("incremental", "true")
    if timeout is not None:
        solver.setOption("tlimit-per", str(max(1, int(timeout * 1000))))
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "model")
    symbols = parser.getSymbolManager()
    answer = "unknown"
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        said = command.invoke(solver, symbols).strip()
        if said in ("sat", "unsat", "unknown"):
            answer = said
    return answer
