"""The z3 model of Daifugo's rules of play: the one deliberate second statement of them
(the engine, ``referee.games.daifugo.engine``, is the first).

``PlayModel`` states, as constraints over which cards a player plays, what makes a legal
play on a table: a combination (a single, the lone joker, a group of one strength with
jokers standing in, a same-suit sequence with jokers filling its holes; uecda's five-card
group and its jokers below the 3 or above the 2), following the table (the same kind and
size, a lone joker on any single, nothing but the spade 3 on a lone joker under spade3),
strength under the order in force (a revolution and eleven-back each reverse it; seed
compares sequences by their strongest card, uecda wants a sequence wholly above), the
consecutive-revolution waiver, the suit-lock, -sequences; and what a play sets off (a
revolution, eight-cut, eleven-back, six-reverse, a forbidden finish). Each rule is a
constraint tracked under its rule id (spec/daifugo*.toml), so an unsat answer says which
rules it rests on. ``OutModel`` states a hand's split into plays led one after another
(the ``out`` question) with the same constraints, and the order's reversals between them.

Numbers are unbounded integers: strengths run 0..14, sizes to 8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import z3

from referee.engines.base import JOKER, SUITS, Card
from referee.games.daifugo import engine as df
from referee.jobs.solve import Deadline, Timeout
from referee.jobs.solve.smt import (
    FALSE,
    TRUE,
    Numbers,
    Script,
    and_,
    eq,
    exactly_one,
    implies,
    ite,
    not_,
    or_,
)

#: Strengths (normal order): 3 = 1 ... 2 = 13; the uecda joker columns 0 and 14.
EIGHT, SIX, JACK, TWO, THREE = df.EIGHT, df.SIX, df.JACK, 13, 1


@dataclass
class Shape:
    """The variables of one play: the cards chosen and what they form."""

    picks: dict[Card, str]
    jokers: str
    single: str
    group: str
    sequence: str
    lone: str
    low: str
    high: str
    size: str
    suits: dict[str, str]
    #: Effects: makes a revolution, includes an 8 / a 6 / a J.
    revolt: str = FALSE
    eight: str = FALSE
    six: str = FALSE
    jack: str = FALSE


@dataclass
class Found:
    answer: str  # "sat" | "unsat"
    plays: list[tuple[Card, ...]] = field(default_factory=list)
    core: list[str] = field(default_factory=list)
    solvers: list[str] = field(default_factory=list)


class PlayModel:
    """The plays a player holding ``hand`` may make in ``state`` (its table, its order, its
    lock, its options), as a model whose solutions are the legal plays' card sets."""

    def __init__(self, state: df.State, hand: Sequence[Card], tag: str = "p") -> None:
        self.state = state
        self.rules = state.rules
        self.hand = tuple(hand)
        self.script = Script(Numbers(None))
        self.shape = combination(self.script, self.rules, self.hand, tag)
        follow(self.script, state, self.shape)

    def solutions(self, deadline: Deadline | None = None, certify: bool = False, limit: int = 10_000) -> Found:
        """Every legal play's cards (a card set once, whatever its jokers stand for), or
        the unsat core when there is none."""
        s = self.script
        solver, literals = s.solver()
        found = Found("unsat")
        blocks: list[str] = []
        keys = list(self.shape.picks.items())
        while len(found.plays) < limit:
            if deadline is not None:
                left = deadline.remaining()
                if left is not None:
                    if left <= 0:
                        raise Timeout()
                    solver.set("timeout", max(1, int(left * 1000)))
            verdict = solver.check(*literals.values())
            if verdict == z3.unknown:
                raise Timeout()
            if verdict == z3.unsat:
                if not found.plays:
                    names = {str(v): k for k, v in literals.items()}
                    found.core = sorted(names[str(c)] for c in solver.unsat_core() if str(c) in names)
                    if certify:
                        from referee.jobs.solve.smt import Disagreement, cvc5_check

                        second = cvc5_check(s.text(), None if deadline is None else deadline.remaining())
                        found.solvers = ["z3", "cvc5"]
                        if second == "sat":
                            raise Disagreement("z3 answers unsat but cvc5 answers sat on the same SMT-LIB text")
                break
            found.answer = "sat"
            model = solver.model()
            chosen = tuple(c for c, v in keys if z3.is_true(model.eval(z3.Bool(v), model_completion=True)))
            k = model.eval(z3.Int(self.shape.jokers), model_completion=True).as_long()
            found.plays.append(chosen + (JOKER,) * k)
            block = or_(*(not_(v) if c in chosen else v for c, v in keys),
                        not_(eq(self.shape.jokers, str(k))))
            blocks.append(block)
            solver.add(z3.parse_smt2_string(_decls(s) + f"(assert {block})"))
        return found

    def legal(self, cards: Sequence[Card], certify: bool = False) -> Found:
        """Is this set of cards a legal play here (some reading of its jokers)? An unsat
        answer's core names the rules it breaks."""
        s = self.script
        held = list(self.shape.picks)
        fixed = and_(*(self.shape.picks[c] if c in cards else not_(self.shape.picks[c]) for c in held),
                     eq(self.shape.jokers, str(sum(1 for c in cards if c.is_joker))))
        if any(c not in held and not c.is_joker for c in cards):
            return Found("unsat", core=["daifugo.hand.possession"])
        sel = s.bool(f"ask_{len(s.lines)}")
        s.add(implies(sel, fixed))
        got = s.check((sel,), certify=certify)
        return Found(got.answer, core=got.core, solvers=list(got.solvers))


def _decls(script: Script) -> str:
    return "\n".join(line for line in script.lines if line.startswith("(declare-const")) + "\n" + "\n".join(
        f"(declare-const |track {name}| Bool)" for name in script.tracked)


def combination(script: Script, rules: df.RuleSet, hand: Sequence[Card], tag: str, active: str = TRUE) -> Shape:
    """The variables of a play made of ``hand``'s cards and the rules that make it a
    combination (daifugo.combo.invalid and the joker rules); with ``active`` a literal,
    only when it holds (else the play is empty)."""
    n = script.numbers
    s = Guarded(script, active)
    reals = sorted({c for c in hand if not c.is_joker}, key=lambda c: (df.strength(c), c.suit))
    held_jokers = sum(1 for c in hand if c.is_joker)
    picks = {c: s.bool(f"x_{tag}_{c}") for c in reals}
    jokers = s.int(f"j_{tag}")
    single, group, sequence, lone = (s.bool(f"{k}_{tag}") for k in ("single", "group", "seq", "lone"))
    low, high, size = s.int(f"lo_{tag}"), s.int(f"hi_{tag}"), s.int(f"n_{tag}")
    suits = {x: s.bool(f"u_{tag}_{x}") for x in SUITS}
    shape = Shape(picks, jokers, single, group, sequence, lone, low, high, size, suits)
    count = n.count(picks.values())
    s.track("daifugo.hand.possession", and_(n.ge(jokers, n.num(0)), n.le(jokers, n.num(held_jokers))))
    script.add(and_(eq(size, n.add(count, jokers)), n.ge(jokers, n.num(0))))
    s.track("daifugo.combo.invalid", and_(exactly_one([single, group, sequence]), n.ge(size, n.num(1))))
    if active != TRUE:  # an unused play holds no card
        script.add(implies(not_(active), eq(size, n.num(0))))
    # A single: one real card, or the lone joker (the strongest single, no suit).
    s.track("daifugo.combo.invalid", implies(single, eq(size, n.num(1))))
    s.track("daifugo.play.lone-joker", eq(lone, and_(single, eq(jokers, n.num(1)))))
    for c, x in picks.items():
        st = n.num(df.strength(c))
        s.track("daifugo.combo.invalid", implies(and_(x, or_(single, group)), and_(eq(low, st), eq(high, st))))
        s.track("daifugo.combo.invalid", implies(and_(x, sequence), and_(n.le(low, st), n.ge(high, st))))
    s.track("daifugo.play.lone-joker", implies(lone, and_(eq(low, n.num(df.LONE_JOKER_STRENGTH)),
                                                          eq(high, n.num(df.LONE_JOKER_STRENGTH)))))
    # A group: 2 to 4 cards of one strength, jokers standing in; uecda's 5: four plus the joker.
    s.track("daifugo.combo.invalid", implies(group, and_(n.ge(size, n.num(2)), n.le(size, n.num(min(4, rules.max_group))
                                                                                  if rules.max_group < 5 else
                                                                                  n.num(5)),
                                                         eq(low, high), n.ge(low, n.num(1)), n.le(low, n.num(13)))))
    if held_jokers >= 2:  # two jokers together are a pair of the strength they stand for
        s.track("daifugo.joker.two-jokers", implies(and_(group, eq(count, n.num(0))), eq(size, n.num(2))))
    if rules.max_group >= 5:
        s.track("daifugo.combo.five-group", implies(and_(group, eq(size, n.num(5))),
                                                    and_(eq(count, n.num(4)), eq(jokers, n.num(1)))))
    # A sequence: 3 or more consecutive strengths of one suit, at least one real card, the
    # jokers filling the holes; no wrap (uecda: a joker may stand below the 3 / above the 2).
    lo_min, hi_max = (df.BELOW_3, df.ABOVE_2) if rules.joker_out_of_range else (1, 13)
    s.track("daifugo.combo.invalid", implies(sequence, and_(n.ge(size, n.num(df.combos.SEQUENCE_MIN)),
                                                            n.ge(count, n.num(1)),
                                                            eq(high, n.add(low, size, "(- 1)")),
                                                            n.ge(low, n.num(0)), n.le(high, n.num(14)))))
    s.track("daifugo.joker.out-of-range" if rules.joker_out_of_range else "daifugo.combo.invalid",
            implies(sequence, and_(n.ge(low, n.num(lo_min)), n.le(high, n.num(hi_max)))))
    for x in SUITS:
        same = [v for c, v in picks.items() if c.suit == x]
        others = [v for c, v in picks.items() if c.suit != x]
        # a sequence's suit is its cards' suit; its real cards are all of it
        s.track("daifugo.combo.invalid", implies(and_(sequence, suits[x]), not_(or_(*others))))
        s.add(implies(or_(*same), suits[x]) if same else TRUE)
    s.track("daifugo.combo.invalid", implies(sequence, exactly_one(list(suits.values()))))
    # The suits a play uses (suit-lock): its real cards', and each joker's in a group, a suit
    # none of its real cards has (uecda's five-card group: the joker row, no suit).
    for x in SUITS:
        real = or_(*(v for c, v in picks.items() if c.suit == x))
        s.add(implies(single, eq(suits[x], real)))
    s.track("daifugo.combo.invalid", implies(and_(group, n.le(size, n.num(4))),
                                             eq(n.count(suits.values()), size)))
    if rules.max_group >= 5:
        s.add(implies(and_(group, eq(size, n.num(5))), and_(*suits.values())))
    _sets_off(s, script, rules, shape, active, tag)
    return shape


def _sets_off(s: Guarded, script: Script, rules: df.RuleSet, shape: Shape, active: str, tag: str) -> None:
    """What a play sets off (on any play but a lone joker): a revolution (four of a kind;
    a long enough sequence under stairs-revolution), and whether it holds an 8, a 6 or a
    Jack where eight-cut, six-reverse and eleven-back are in force."""
    n = script.numbers
    group, sequence, size, low, high = shape.group, shape.sequence, shape.size, shape.low, shape.high
    revolt_group = and_(group, n.ge(size, n.num(4))) if rules.revolution else FALSE
    stairs = rules.stairs_revolution if rules.revolution else None
    revolt_seq = and_(sequence, n.ge(size, n.num(stairs))) if stairs is not None else FALSE
    shape.revolt = s.bool(f"revolt_{tag}")
    s.track("daifugo.option.revolution", implies(revolt_group, shape.revolt))
    if stairs is not None:
        s.track("daifugo.option.stairs-revolution", implies(revolt_seq, shape.revolt))
    script.add(implies(shape.revolt, and_(active, or_(revolt_group, revolt_seq))))
    holds = {}
    for name, strength_of, attr, in_force in (("eight-cut", EIGHT, "eight", rules.eight_cut),
                                              ("six-reverse", SIX, "six", rules.six_reverse),
                                              ("eleven-back", JACK, "jack", rules.eleven_back)):
        var = s.bool(f"{attr}_{tag}")
        includes = and_(not_(shape.lone), n.le(low, n.num(strength_of)), n.ge(high, n.num(strength_of)))
        if in_force:
            s.track(f"daifugo.option.{name}", eq(var, includes))
        else:
            s.add(not_(var))
        holds[attr] = var
    shape.eight, shape.six, shape.jack = holds["eight"], holds["six"], holds["jack"]


class Guarded:
    """A script whose constraints all hold only under ``active`` (an unused play)."""

    def __init__(self, script: Script, active: str) -> None:
        self.script = script
        self.active = active
        self.numbers = script.numbers

    @property
    def lines(self) -> list[str]:
        return self.script.lines

    def bool(self, name: str) -> str:
        return self.script.bool(name)

    def int(self, name: str) -> str:
        return self.script.int(name)

    def add(self, term: str) -> None:
        self.script.add(implies(self.active, term))

    def track(self, name: str, term: str) -> None:
        self.script.track(name, implies(self.active, term))


def follow(s: Script | Guarded, state: df.State, shape: Shape) -> None:
    """The rules a play must keep on ``state``'s table: kind, size and strength under the
    order in force, the lone joker, the suit-lock, -sequences."""
    n = s.numbers
    rules = state.rules
    if not rules.sequences:
        s.track("daifugo.option.sequences", not_(shape.sequence))
    table = state.table
    if table is None:
        return
    if table.lone_joker:
        if rules.spade3:
            spade3 = df.Card(3, "S")
            pick = shape.picks.get(spade3, FALSE)
            s.track("daifugo.option.spade3", implies(not_(shape.lone), and_(shape.single, pick)))
            s.track("daifugo.play.lone-joker", not_(shape.lone))  # a lone joker on a lone joker is no stronger
        else:
            s.track("daifugo.play.lone-joker", FALSE)
        return
    kind = {df.SINGLE: shape.single, df.GROUP: shape.group, df.SEQUENCE: shape.sequence}[table.kind]
    s.track("daifugo.play.same-kind", or_(and_(kind, eq(shape.size, n.num(table.size))),
                                          and_(shape.lone, TRUE if table.kind == df.SINGLE else FALSE)))
    reverse = state.reversed
    lo, hi = n.num(table.low), n.num(table.high)
    if table.kind == df.SEQUENCE:
        if rules.sequence_compare == "above":
            rule = "daifugo.play.sequence-above"
            stronger = n.lt(shape.high, lo) if reverse else n.gt(shape.low, hi)
        else:
            rule = "daifugo.play.sequence-top"
            stronger = n.lt(shape.low, lo) if reverse else n.gt(shape.high, hi)
    else:
        rule = "daifugo.play.stronger"
        stronger = n.lt(shape.low, lo) if reverse else n.gt(shape.low, lo)
        stronger = or_(stronger, shape.lone)  # the lone joker beats any single
    waived = FALSE
    if rules.consecutive_revolution and rules.revolution and state.trick_revolted:
        waived = s.bool(f"waived_{len(s.lines)}")
        s.track("daifugo.option.consecutive-revolution", eq(waived, and_(shape.group, n.ge(shape.size, n.num(4)))))
    s.track(rule, or_(stronger, waived))
    if state.lock is not None:
        lock = state.lock
        free = s.bool(f"unlocked_{len(s.lines)}")  # a lone joker counts for no suit
        s.track("daifugo.lock.lone-joker", eq(free, shape.lone))
        s.track("daifugo.option.suit-lock", or_(free, and_(*(shape.suits[x] if x in lock else
                                                              not_(shape.suits[x]) for x in SUITS))))


def forbidden(s: Script, rules: df.RuleSet, shape: Shape, reversed_order: str) -> str:
    """Going out on this play is a forbidden finish (daifugo.option.forbidden-finish): it
    holds the joker, or a 2 (a 3 when the order in force is reversed)."""
    if not rules.forbidden_finish:
        return FALSE
    n = s.numbers
    twos = or_(*(v for c, v in shape.picks.items() if df.strength(c) == TWO))
    threes = or_(*(v for c, v in shape.picks.items() if df.strength(c) == THREE))
    return or_(n.gt(shape.jokers, n.num(0)), ite(reversed_order, threes, twos))


@dataclass
class Split:
    """A split of a hand into plays (``out``), or the core of "none so short"."""

    answer: str  # "yes" | "no"
    plays: list[tuple[Card, ...]] = field(default_factory=list)
    core: list[str] = field(default_factory=list)
    solver_calls: int = 0
    solvers: list[str] = field(default_factory=list)


class OutModel:
    """Player ``player``'s hand in ``state`` split into plays led one after another (each
    a combination by the rules above, nobody beating them), every card in exactly one
    (tracked as ``card 5S``: a core of such names is a set of cards that alone need more
    plays); the order's reversals between them decide whether the last is a forbidden
    finish."""

    def __init__(self, state: df.State, player: int) -> None:
        self.state = state
        self.rules = state.rules
        hand = state.hands[player]
        self.hand = hand
        self.most = len(hand)
        s = self.script = Script(Numbers(None))
        n = s.numbers
        self.active = [s.bool(f"use_{k}") for k in range(self.most)]
        lead = state._replace(table=None, lock=None, back=False, trick_revolted=False)
        self.shapes = []
        for k in range(self.most):
            if k:
                s.add(implies(self.active[k], self.active[k - 1]))
            shape = combination(s, self.rules, hand, f"p{k}", self.active[k])
            follow(s, lead, shape)
            self.shapes.append(shape)
        for c in sorted(set(x for x in hand if not x.is_joker), key=lambda c: (df.strength(c), c.suit)):
            s.track(f"card {c}", exactly_one([shape.picks[c] for shape in self.shapes]))
        held = sum(1 for c in hand if c.is_joker)
        s.track("card JK", eq(n.add(*(shape.jokers for shape in self.shapes)), n.num(held)))
        # A normal finish: the last play is no forbidden finish under the order its
        # predecessors' revolutions leave.
        self.clean = s.bool("clean")
        order = TRUE if state.revolution else FALSE
        options = []
        for k, shape in enumerate(self.shapes):
            last = and_(self.active[k], not_(self.active[k + 1])) if k + 1 < self.most else self.active[k]
            options.append(and_(last, not_(forbidden(s, self.rules, shape, order))))
            flipped = s.bool(f"order_{k}")
            s.add(eq(flipped, ite(shape.revolt, not_(order), order)))
            order = flipped
        s.add(implies(self.clean, or_(*options)))
        self.calls = 0

    def at_most(self, plays: int, deadline: Deadline | None = None, clean: bool = False,
                certify: bool = False) -> Split:
        """A split into at most ``plays`` plays (with ``clean``: ending on a normal finish)."""
        extra = [] if plays >= self.most else [not_(self.active[plays])]
        if clean:
            extra.append(self.clean)
        sel = self.script.bool(f"ask_{self.calls}")
        self.script.add(implies(sel, and_(*extra)))
        self.calls += 1
        left = None if deadline is None else deadline.remaining()
        if left is not None and left <= 0:
            raise Timeout()
        if deadline is not None:
            deadline.solver_calls += 1
        got = self.script.check((sel,), left, certify)
        if got.answer == "unknown":
            raise Timeout()
        if got.answer == "unsat":
            return Split("no", core=[c for c in got.core], solver_calls=self.calls, solvers=list(got.solvers))
        model = got.model
        out = []
        for k, shape in enumerate(self.shapes):
            if not z3.is_true(model.eval(z3.Bool(self.active[k]), model_completion=True)):  # type: ignore[union-attr]
                break
            cards = tuple(c for c, v in shape.picks.items()
                          if z3.is_true(model.eval(z3.Bool(v), model_completion=True)))  # type: ignore[union-attr]
            k_jokers = model.eval(z3.Int(shape.jokers), model_completion=True).as_long()  # type: ignore[union-attr]
            out.append(cards + (JOKER,) * k_jokers)
        return Split("yes", out, solver_calls=self.calls)

    def fewest(self, deadline: Deadline | None = None, clean: bool = False) -> Split:
        """The fewest plays (with ``clean``: ending on a normal finish; "no" if none can),
        by bisection between a bound known too small and a split found."""
        best = self.at_most(self.most, deadline, clean)
        if best.answer != "yes":
            return best
        low = 0  # no split of this many plays (a hand holds a card)
        core: list[str] = []
        while len(best.plays) - low > 1:
            middle = (low + len(best.plays)) // 2
            trial = self.at_most(middle, deadline, clean)
            if trial.answer == "yes":
                best = trial
            else:
                low, core = middle, trial.core
        best.core, best.solver_calls = core, self.calls
        return best
