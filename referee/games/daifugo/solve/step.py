"""The z3 model of one move of a Daifugo round in play and the position after it.

``StepModel`` states, for a concrete position, which moves the player to move may make (a
pass, or a play by ``rules.PlayModel``'s constraints: combinations, following, the lock)
and, as constraints over the position after it, what each sets off: the cards leaving the
hand; going out, normally or on a forbidden finish (judged by the order in force before
the play), and the last daifugo's drop by miyako-ochi; the order (revolution,
eleven-back) and the direction (six-reverse); the lock starting or ending; the trick's
end (eight-cut, spade3, the setting's trick-end rule) and what it clears; who moves or
leads next; the stall count and the round's end. Each rule is a constraint tracked under
its rule id.

Each solution is one move and the position after it; ``successors`` reads them all, one
per distinct position after (a joker's reading counts only where it changes the table:
its strength always, its suit where a lock may follow). ``forced.ModelForcedOut``
searches the game tree these make; the engine is its cross-check, never its source.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import z3

from referee.engines.base import JOKER, SUITS, Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.solve.rules import Guarded, Shape, combination, follow, forbidden
from referee.jobs.solve import Deadline
from referee.jobs.solve.smt import FALSE, TRUE, Numbers, Script, and_, eq, implies, ite, not_, or_, xor

#: A five-card group's joker stands in the contest server's joker row: a suit of its own.
ROW = ""
NONE = "(- 1)"


def turn_order(seats: tuple[int, ...], after: int, forward: bool) -> list[int]:
    """Every player in turn order after ``after`` (``after`` itself last), turns going
    forward through the seats or backward (six-reverse)."""
    i = seats.index(after)
    n = len(seats)
    return [seats[(i + k) % n] if forward else seats[(i - k) % n] for k in range(1, n + 1)]


def const(flag: bool) -> str:
    return TRUE if flag else FALSE


@dataclass(frozen=True)
class Successor:
    """One move the model allows and the position after it (``after.events`` is empty:
    the model states what a move does, not the engine's record of it)."""

    move: df.Move
    after: df.State


class StepModel:
    """The moves of the player to move in ``state`` (a round in play) and the position
    after each, as one z3 model whose solutions are the (move, position after) pairs."""

    def __init__(self, state: df.State) -> None:
        if state.phase != "play" or state.to_move is None:
            raise ValueError("the step model takes a round in play")
        self.state = state
        self.rules = state.rules
        self.p = state.to_move
        s = self.script = Script(Numbers(None))
        self.n = s.numbers
        self.passing = s.bool("pass")
        self.playing = not_(self.passing)
        self.shape = combination(s, self.rules, state.hands[self.p], "m", self.playing)
        follow(Guarded(s, self.playing), state, self.shape)
        self._passes()
        self._going_out()
        self._effects()
        self._turn()
        self._cleared()

    # ------------------------------------------------------------------ the move

    def _passes(self) -> None:
        """Who may pass (a follower always; a leader where the setting says so); a pass
        plays no card (the shape's variables fixed, so that a pass is one solution)."""
        s, sh, st = self.script, self.shape, self.state
        may = s.bool("may_pass")
        if st.table is None:
            rule = "daifugo.pass.empty-stage" if self.rules.leader_may_pass else "daifugo.pass.leader"
            s.track(rule, eq(may, const(self.rules.leader_may_pass)))
        else:
            s.add(may)
        s.add(implies(self.passing, and_(may, not_(sh.single), not_(sh.group), not_(sh.sequence),
                                         eq(sh.low, "0"), eq(sh.high, "0"),
                                         *(not_(v) for v in sh.suits.values()))))

    def _going_out(self) -> None:
        """The hand after the play; going out on it, normally or on a forbidden finish
        (judged by the order in force before it); miyako-ochi's drop; who is still in;
        the round's end."""
        s, n, st, sh = self.script, self.n, self.state, self.shape
        self.empty = s.bool("empty")
        held = len(st.hands[self.p])
        s.track("daifugo.hand.possession", eq(self.empty, and_(self.playing, eq(sh.size, n.num(held)))))
        self.foul = s.bool("foul")
        if self.rules.forbidden_finish:
            s.track("daifugo.finish.forbidden-order",
                    eq(self.foul, and_(self.empty, forbidden(s, self.rules, sh, const(st.reversed)))))
        else:
            s.add(not_(self.foul))
        self.fin = s.bool("fin")
        s.track("daifugo.option.forbidden-finish", eq(self.fin, and_(self.empty, not_(self.foul))))
        self.drop = s.bool("drop")
        prev = st.previous
        daifugo = prev[0] if prev is not None else None
        if self.rules.miyako_ochi and daifugo is not None and daifugo != self.p and st.is_in(daifugo):
            s.track("daifugo.option.miyako-ochi", implies(self.drop, self.fin))
            # the first to go out normally finishes first: a forbidden finish does not count
            s.track("daifugo.miyako.first-place", eq(self.drop, and_(self.fin, const(not st.finished))))
        else:
            s.add(not_(self.drop))
        self.ins = {q: s.bool(f"in_{q}") for q in st.seats}
        for q in st.seats:
            was = const(st.is_in(q))
            now = not_(self.empty) if q == self.p else and_(was, not_(self.drop)) if q == daifugo else was
            s.track("daifugo.turn.finished", eq(self.ins[q], now))
        self.over = s.bool("over")
        ending = [and_(self.empty, n.le(n.count(self.ins.values()), n.num(1)))]
        self.stall = s.int("stall_after")
        self.stalled = s.bool("stalled")
        stall = ite(self.playing, n.num(0), n.num(st.stall + 1))
        limit = self.rules.stall_limit
        if limit is not None:
            s.track("daifugo.end.stall", and_(eq(self.stall, stall), eq(self.stalled, and_(
                self.passing, n.ge(self.stall, n.num(limit))))))
            ending.append(self.stalled)
        else:
            s.add(and_(eq(self.stall, stall), not_(self.stalled)))
        s.track("daifugo.round.end", eq(self.over, or_(*ending)))

    def _effects(self) -> None:
        """The order, the direction, the trick's cut and the lock after a play (a lone
        joker reverses nothing and cuts nothing)."""
        s, st, sh = self.script, self.state, self.shape
        self.revolution = s.bool("revolution_after")
        rule = "daifugo.option.revolution" if self.rules.revolution else "daifugo.option.stairs-revolution"
        s.track(rule, eq(self.revolution, xor(const(st.revolution), and_(self.playing, sh.revolt))))
        self.forward = s.bool("forward_after")
        s.track("daifugo.option.six-reverse",
                eq(self.forward, xor(const(st.direction > 0), and_(self.playing, sh.six))))
        self.cut = s.bool("cut")
        cuts = [and_(self.playing, sh.eight)]
        if st.table is not None and st.table.lone_joker:  # only the spade 3 follows it, and it cuts
            s.track("daifugo.option.spade3", implies(and_(self.playing, not_(sh.lone)), self.cut))
            cuts.append(and_(self.playing, not_(sh.lone)))
        s.track("daifugo.option.eight-cut", eq(self.cut, or_(*cuts)))
        self._lock()

    def suits_of(self, sh: Shape) -> dict[str, str]:
        """The suits a play uses, the joker row of a five-card group among them."""
        out = dict(sh.suits)
        out[ROW] = and_(sh.group, eq(sh.size, self.n.num(5))) if self.rules.max_group >= 5 else FALSE
        return out

    def _lock(self) -> None:
        """The lock after the move, before the trick's end clears it: a play that uses
        exactly the table's suits starts it (suit-lock), a lone joker ends it, anything
        else keeps it."""
        s, st, sh = self.script, self.state, self.shape
        used = self.suits_of(sh)
        table = st.table
        starts = FALSE
        if self.rules.suit_lock and st.lock is None and table is not None and table.suits is not None:
            starts = and_(self.playing, not_(sh.lone),
                          *(used[x] if x in table.suits else not_(used[x]) for x in (*SUITS, ROW)))
        self.locks = s.bool("locks")
        lone = and_(self.playing, sh.lone)
        s.track("daifugo.lock.lone-joker", implies(lone, not_(self.locks)))
        s.track("daifugo.option.suit-lock",
                implies(not_(lone), eq(self.locks, or_(const(st.lock is not None), starts))))
        self.lock_to = {x: ite(starts, used[x], const(st.lock is not None and x in st.lock)) for x in (*SUITS, ROW)}

    # ------------------------------------------------------------------ the turn

    def _turn(self) -> None:
        """Who moves next: the first player still in and not marked, in the direction in
        force; the trick ends by a cut or by the setting's rule, and its last player (or
        the next still in after them) leads the next one."""
        s, n, st = self.script, self.n, self.state
        waiting = {q: s.bool(f"waiting_{q}") for q in st.seats}
        for q in st.seats:
            if q == self.p:  # who plays stays in the turn (it may come back to them); who passes is marked
                s.track("daifugo.trick.own-cards", implies(self.playing, eq(waiting[q], self.ins[q])))
                s.track("daifugo.pass.sat-out", implies(self.passing, not_(waiting[q])))
            else:
                s.track("daifugo.pass.sat-out", eq(waiting[q], and_(self.ins[q], const(q not in st.passed))))
        count = n.count(waiting.values())
        last = self.p if st.last_player is None else st.last_player
        self.owner = s.int("owner_after")
        s.track("daifugo.trick.leader", eq(self.owner, ite(self.playing, n.num(self.p), n.num(last))))
        first = self._first(waiting, self.p, "first")
        self.done = s.bool("done")
        rule = self.rules.trick_end
        if rule == "all-but-one":
            s.track("daifugo.option.trick-end", eq(self.done, n.le(count, n.num(1))))
        elif rule == "others":  # the one whose cards are on the table, left alone, ends it
            alone = and_(or_(self.playing, const(st.table is not None)), eq(count, n.num(1)), eq(first, self.owner))
            s.track("daifugo.trick.end", eq(self.done, or_(eq(count, n.num(0)), alone)))
        else:
            s.track("daifugo.trick.clear", eq(self.done, eq(count, n.num(0))))
        self.cleared = s.bool("cleared")
        s.track("daifugo.trick.end" if rule == "others" else "daifugo.trick.clear",
                eq(self.cleared, and_(not_(self.over), or_(self.cut, self.done))))
        leader = s.int("leader")
        for q in st.seats:
            after = self._first(self.ins, q, f"lead{q}")
            s.track("daifugo.trick.leader", implies(eq(self.owner, n.num(q)),
                                                    eq(leader, ite(self.ins[q], n.num(q), after))))
        self.to_move = s.int("to_move_after")
        s.track("daifugo.turn.order", eq(self.to_move, ite(self.over, NONE, ite(self.cleared, leader, first))))

    def _first(self, candidates: dict[int, str], after: int, tag: str) -> str:
        """The first player of ``candidates`` in turn order after ``after`` (in the
        direction in force after the move), or -1."""
        n = self.n
        picks = []
        for forward in (True, False):
            term = NONE
            for q in reversed(turn_order(self.state.seats, after, forward)):
                term = ite(candidates[q], n.num(q), term)
            picks.append(term)
        var = self.script.int(tag)
        self.script.track("daifugo.turn.order", eq(var, ite(self.forward, picks[0], picks[1])))
        return var

    def _cleared(self) -> None:
        """What the trick's end clears: the table, the marks, the lock, eleven-back and the
        trick's revolution (the revolution itself and the direction stay)."""
        s, st, sh = self.script, self.state, self.shape
        kept = not_(self.cleared)
        self.table = s.bool("table_after")
        s.track("daifugo.trick.leader", eq(self.table, and_(kept, or_(self.playing, const(st.table is not None)))))
        self.marked = {q: s.bool(f"marked_{q}") for q in st.seats}
        for q, v in self.marked.items():
            mark = self.passing if q == self.p else const(q in st.passed)
            s.track("daifugo.pass.sat-out", eq(v, and_(kept, mark)))
        self.back = s.bool("back_after")
        s.track("daifugo.option.eleven-back",
                eq(self.back, and_(kept, xor(const(st.back), and_(self.playing, sh.jack)))))
        self.revolted = s.bool("revolted_after")
        s.track("daifugo.option.consecutive-revolution",
                eq(self.revolted, and_(kept, or_(const(st.trick_revolted), and_(self.playing, sh.revolt)))))
        self.locked = s.bool("locked_after")
        s.track("daifugo.option.suit-lock", eq(self.locked, and_(kept, self.locks)))
        self.lock_suits = {x: s.bool(f"lock_{x or 'row'}") for x in self.lock_to}
        for x, v in self.lock_suits.items():
            s.track("daifugo.option.suit-lock", eq(v, and_(self.locked, self.lock_to[x])))

    # ------------------------------------------------------------------ the solutions

    def shown(self) -> list[tuple[str, str]]:
        """The terms that tell one move from another: passing, the cards, and what the
        play reads as (its kind and strengths, and its suits where a lock may follow)."""
        sh = self.shape
        out = [(self.passing, "Bool")] + [(v, "Bool") for v in sh.picks.values()]
        out += [(sh.jokers, "Int"), (sh.single, "Bool"), (sh.group, "Bool"), (sh.sequence, "Bool"),
                (sh.low, "Int"), (sh.high, "Int")]
        if self.lock_matters():
            out += [(v, "Bool") for v in sh.suits.values()]
        return out

    def lock_matters(self) -> bool:
        """Can a play's suits (a joker's suit in a group) change what follows: a lock in
        force, or one that may start?"""
        return self.rules.suit_lock or self.state.lock is not None

    def successors(self, deadline: Deadline | None = None) -> list[Successor]:
        """Every move the model allows and the position after it."""
        timeout = (lambda: None) if deadline is None else deadline.remaining
        out = []
        for model in self.script.models(self.shown(), timeout):
            if deadline is not None:
                deadline.solver_calls += 1
            out.append(successor(self, model))
        return out


# --------------------------------------------------------------------------- reading a solution


class Reading:
    """One solution's values, by variable name."""

    def __init__(self, model: z3.ModelRef) -> None:
        self.model = model

    def flag(self, name: str) -> bool:
        return z3.is_true(self.model.eval(_bool(name), model_completion=True))

    def number(self, name: str) -> int:
        return self.model.eval(_int(name), model_completion=True).as_long()


@functools.lru_cache(maxsize=4096)
def _bool(name: str) -> z3.BoolRef:
    return z3.Bool(name)


@functools.lru_cache(maxsize=1024)
def _int(name: str) -> z3.ArithRef:
    return z3.Int(name)


def successor(m: StepModel, model: z3.ModelRef) -> Successor:
    """The move and the position after it that one solution of ``m`` states."""
    st, p = m.state, m.p
    values = Reading(model)
    value, number = values.flag, values.number
    if value(m.passing):
        move: df.Move = df.Pass(p)
        combo = None
        hand = st.hands[p]
    else:
        cards = tuple(c for c, v in m.shape.picks.items() if value(v))
        cards += (JOKER,) * number(m.shape.jokers)
        combo = read_combo(m, values, cards)
        move = df.Play(p, cards, combo.stands)
        rest = list(st.hands[p])
        for c in cards:
            rest.remove(c)
        hand = tuple(rest)
    hands = st.hands[:p] + (hand,) + st.hands[p + 1:]
    over = value(m.over)
    to_move = number(m.to_move)
    lock = frozenset(x for x, v in m.lock_suits.items() if value(v)) if value(m.locked) else None
    after = st._replace(
        hands=hands, to_move=None if to_move < 0 else to_move, phase="over" if over else "play",
        table=(combo or st.table) if value(m.table) else None, last_player=number(m.owner),
        passed=frozenset(q for q, v in m.marked.items() if value(v)),
        finished=st.finished + ((p,) if value(m.fin) else ()),
        fouled=st.fouled + ((p,) if value(m.foul) else ()),
        dropped=st.dropped + ((st.previous[0],) if value(m.drop) and st.previous else ()),
        revolution=value(m.revolution), back=value(m.back), lock=lock,
        direction=1 if value(m.forward) else -1, trick_revolted=value(m.revolted),
        opening=st.opening and combo is None, stall=number(m.stall), stalled=value(m.stalled),
        events=())
    return Successor(move, after)


def read_combo(m: StepModel, values: Reading, cards: tuple[Card, ...]) -> df.Combo:
    """The combination a solution's play reads as, its jokers' readings stated (a group's
    jokers take the first suits free where no lock can follow: then the suit changes
    nothing)."""
    sh = m.shape
    value, number = values.flag, values.number
    if value(sh.lone):
        return df.LONE_JOKER
    low, high = number(sh.low), number(sh.high)
    reals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(reals)
    own = frozenset(c.suit for c in reals)
    if value(sh.sequence):
        suit = next(x for x in SUITS if value(sh.suits[x]))
        held = {df.strength(c) for c in reals}
        stands = tuple(df.Stand(suit, x) for x in range(low, high + 1) if x not in held)
        return df.Combo(df.SEQUENCE, len(cards), low, high, frozenset((suit,)), stands)
    if value(sh.single):
        return df.Combo(df.SINGLE, 1, low, high, own)
    if len(cards) == 5:
        return df.Combo(df.GROUP, 5, low, high, own | {ROW}, (df.Stand(ROW, low),))
    if m.lock_matters():
        free = [x for x in SUITS if x not in own and value(sh.suits[x])]
    else:
        free = [x for x in SUITS if x not in own][:jokers]
    return df.Combo(df.GROUP, len(cards), low, high, own | frozenset(free), tuple(df.Stand(x, low) for x in free))
