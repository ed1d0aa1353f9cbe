"""The z3 model of Caravan: the rules stated a second time, as constraints, for questions
of the form "is there a line of at most K moves by one player (the other passing) that
brings the goal about?" (``caravan_puzzle``).

This is the one deliberate second statement of the Caravan rules in the project. The
engine (``referee.games.caravan.engine``) is the first; the agreement tests hold the two
together (the model's answer must equal the exhaustive search's on thousands of positions,
and every line the model finds must replay through the engine).

The encoding is bounded model checking over K steps. Each caravan that matters is a row
of *slots*: the number cards on it now and room for the ones the line may add. A slot
never moves; a removed card's slot is dead, so "the last card" is the last living slot.
For every state t = 0..K and slot: alive, value (Kings double it), Queen parity and the
latest Queen's suit (direction and current suit), face-card count (fnv's limit). Each step
is exactly one move (or the line has ended: ``skip``), made of one card:

* a number card at the end of one of the mover's caravans: the same-value rule, and once
  two cards set a direction, the direction or the current suit (holotape: first two cards,
  every Queen on the caravan reverses; fnv: last two cards, Queens on the last one), fnv's
  7-card limit;
* a face card on a living card: King doubles it; Queen flips the parity and sets the suit
  (fnv: only on the last card); Jack kills the slot; Joker kills every other slot whose card
  matches its target (an Ace's suit, else the value), on every modelled caravan; fnv's
  3-face limit;
* a discard; a disband of the goal caravan (every slot dies, no card is used).

Cards come from the hand, and from the deck in draw order: deck card i can be used once
i+1 card-using moves have been made. No move after the game ends (all three lanes decided,
or the mover out of cards). Which moves, which caravans: exactly ``caravan_puzzle``'s set;
caravans that no move can change are constants (their values still decide lanes).

The rules a "no" may rest on are *tracked* under names (``RULE_WORDS``); the unsat core
of the goal plus those names is turned into the reason in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.games.caravan.solve.puzzle import Puzzle
from referee.jobs.solve import Deadline, Timeout
from referee.jobs.solve.smt import (
    FALSE,
    TRUE,
    Script,
    add,
    and_,
    at_most_one,
    count,
    double,
    eq,
    ge,
    gt,
    implies,
    int_literal,
    ite,
    le,
    lt,
    not_,
    num,
    or_,
)

SUIT_CODE = {"S": 0, "H": 1, "D": 2, "C": 3}
#: The Queen-suit field of a card with no Queen on it (not a suit code).
NO_QUEEN = 4

#: What each tracked constraint says, as the end of "every line would ...".
RULE_WORDS = {
    "goal.low": "leave {x} below 21",
    "goal.high": "{high}",
    "goal.beat": "leave {y} in 21-26 and at least as high as {x}",
    "rule.same-value": "put a number card right after one of the same value (caravan.number.same-value)",
    "rule.direction": "break {dir} (caravan.number.direction)",
    "rule.max-cards": "put an eighth number card on a caravan (caravan.number.max-cards)",
    "rule.face-limit": "give a number card a fourth face card (caravan.face.limit)",
    "rule.queen-last": "put a Queen on a card other than the last of its caravan (caravan.queen.last)",
    "rule.discard-empty": "discard with an empty deck (caravan.discard.empty-deck)",
    "rule.draw-order": "need a deck card before it is drawn (one card is drawn after each move)",
    "rule.game-over": "have to go on after the game has ended (caravan.end.lanes)",
}


@dataclass
class _Slot:
    c: int
    j: int
    #: For a slot the line may fill: which of the caravan's new cards it is (0, 1, ...).
    new: int | None
    R: str
    S: str
    A: list[str] = field(default_factory=list)
    V: list[str] = field(default_factory=list)
    QP: list[str] = field(default_factory=list)
    QS: list[str] = field(default_factory=list)
    NF: list[str] = field(default_factory=list)


@dataclass
class ModelResult:
    answer: str  # "yes" | "no" | "unknown"
    line: list[cv.Move] | None = None
    core: list[str] = field(default_factory=list)
    solver_calls: int = 0
    size: int = 0


class ReachModel:
    """The model of one ``Puzzle`` (after the opening)."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline | None = None) -> None:
        self.deadline = deadline
        state = puzzle.start
        if state.in_opening():
            raise ValueError("the z3 model covers positions after the opening")
        self.puzzle = puzzle
        self.state = state
        self.rules = state.rules
        self.fnv_limits = state.rules.max_faces_per_card is not None
        self.p = puzzle.player
        self.K = puzzle.within
        goal = puzzle.goal
        self.goal = goal
        self.x = goal.caravan
        p = self.p
        # Cards: the hand (usable at once), then the deck cards reachable in draw order.
        hand = state.hands[p]
        deck = state.decks[p]
        self.cards: list[tuple[Card, int]] = [(c, 0) for c in hand.known]
        if deck:
            self.cards += [(c, i + 1) for i, c in enumerate(deck[: max(0, self.K - 1)])]
        self.deck_len = None if deck is None else len(deck)
        self.hand_size = len(hand.known)
        self.hand_unknown = hand.unknown
        self.joker = puzzle.joker
        self.modelled = tuple(range(6)) if self.joker else goal.caravans
        self.numcars = tuple(cv.own_caravans(p)) if self.joker else (self.x,)
        n_numbers = sum(1 for c, _ in self.cards if cv.is_number(c))
        self.has_faces = any(not cv.is_number(c) for c, _ in self.cards)
        self.cap = {c: (min(self.K, n_numbers) if c == self.x else min(self.K - 1, n_numbers)) if c in self.numcars
                    else 0 for c in self.modelled}
        self.script = Script()
        self.slots: dict[int, list[_Slot]] = {}
        self.sel: list[dict] = []
        # Named terms, made once each: (caravan, state) -> ...
        self._derived_cache: dict[tuple[int, int], dict[str, str]] = {}
        self._counts: dict[tuple[int, int], str] = {}
        self._values: dict[tuple[int, int], str] = {}
        self._build()

    # ----------------------------------------------------------------- building

    def _face_kinds(self, c: int) -> str:
        """Which face cards may go on caravan c's cards: all (goal caravans), jokers only
        (the others, as targets), or none."""
        if c in self.goal.caravans:
            return "all"
        return "joker" if self.joker else "none"

    def _build(self) -> None:
        s = self.script
        K = self.K
        fnv = self.fnv_limits
        face_cap = self.rules.max_faces_per_card
        # Slots and their state at t = 0.
        for c in self.modelled:
            row = []
            for j, slot in enumerate(self.state.caravans[c]):
                queens = [f for f in slot.faces if f.rank == cv.QUEEN]
                sl = _Slot(c, j, None, num(slot.card.rank), num(SUIT_CODE[slot.card.suit]))
                sl.A.append(TRUE)
                sl.V.append(num(cv.card_value(slot)))
                sl.QP.append(TRUE if len(queens) % 2 else FALSE)
                sl.QS.append(num(SUIT_CODE[queens[-1].suit]) if queens else num(NO_QUEEN))
                sl.NF.append(num(len(slot.faces)))
                row.append(sl)
            base = len(row)
            for k in range(self.cap[c]):
                sl = _Slot(c, base + k, k, s.int(f"r_{c}_{base + k}"), s.int(f"s_{c}_{base + k}"))
                s.add(and_(ge(sl.R, num(1)), le(sl.R, num(10)), ge(sl.S, num(0)), le(sl.S, num(3))))
                sl.A.append(FALSE)
                sl.V.append(sl.R)
                sl.QP.append(FALSE)
                sl.QS.append(num(NO_QUEEN))
                sl.NF.append(num(0))
                row.append(sl)
            self.slots[c] = row
        dyn_value = {c: c in self.goal.caravans and any(card.rank == cv.KING for card, _ in self.cards)
                     for c in self.modelled}
        dyn_queen = {c: c == self.x and any(card.rank == cv.QUEEN for card, _ in self.cards) for c in self.modelled}
        jokers = any(card.is_joker for card, _ in self.cards)
        skips: list[str] = []
        used = num(0)  # card-using moves before step t
        for t in range(K):
            if self.deadline is not None:
                self.deadline.check_now()  # building the model is the question's time too
            sel: dict = {"t": t}
            skip = s.bool(f"skip_{t}")
            skips.append(skip)
            nums = {c: s.bool(f"num_{t}_{c}") for c in self.numcars} if any(
                cv.is_number(card) for card, _ in self.cards) else {}
            faces = {}
            if self.has_faces:
                for c in self.modelled:
                    if self._face_kinds(c) != "none":
                        for sl in self.slots[c]:
                            faces[c, sl.j] = s.bool(f"face_{t}_{c}_{sl.j}")
            disc = s.bool(f"disc_{t}") if self.cards else FALSE
            disb = s.bool(f"disb_{t}")
            picks = [s.bool(f"card_{t}_{i}") for i in range(len(self.cards))]
            sel.update(skip=skip, nums=nums, faces=faces, disc=disc, disb=disb, picks=picks)
            self.sel.append(sel)
            choices = [skip, disc, disb, *nums.values(), *faces.values()]
            s.add(or_(*choices))
            s.add(at_most_one(choices))
            using = and_(not_(skip), not_(disb))
            s.add(at_most_one(picks))
            s.add(eq(or_(*picks), using))
            if t:
                s.add(implies(skips[t - 1], skip))

            def kind(pred) -> str:
                return or_(*(picks[i] for i, (card, _) in enumerate(self.cards) if pred(card)))

            number = self._name(f"isnum_{t}", kind(cv.is_number), "Bool")
            king = self._name(f"isking_{t}", kind(lambda card: card.rank == cv.KING), "Bool")
            queen = self._name(f"isqueen_{t}", kind(lambda card: card.rank == cv.QUEEN), "Bool")
            jack = self._name(f"isjack_{t}", kind(lambda card: card.rank == cv.JACK), "Bool")
            joker = self._name(f"isjoker_{t}", kind(lambda card: card.is_joker), "Bool")
            rank = self._name(f"rank_{t}", add(*(ite(picks[i], num(card.rank), num(0))
                                                 for i, (card, _) in enumerate(self.cards) if cv.is_number(card))))
            suit = self._name(f"suit_{t}", add(*(ite(picks[i], num(SUIT_CODE[card.suit]), num(0))
                                                 for i, (card, _) in enumerate(self.cards) if not card.is_joker)))
            for c, b in nums.items():
                s.add(implies(b, number))
            for (c, j), b in faces.items():
                s.add(implies(b, not_(number)))
                if self._face_kinds(c) == "joker":
                    s.add(implies(b, joker))
            # Cards: each once; deck cards only once drawn.
            for i, (card, needed) in enumerate(self.cards):
                if needed:
                    s.track("rule.draw-order", implies(picks[i], ge(used, num(needed))))
            # The game must still be on.
            s.track("rule.game-over", implies(not_(skip), not_(self._over(t, used))))
            # fnv: no discard from an empty deck.
            if not self.rules.discard_with_empty_deck and self.deck_len is not None:
                s.track("rule.discard-empty", implies(disc, lt(used, num(self.deck_len))))
            # Disband: the goal caravan, when it holds cards.
            s.add(implies(disb, gt(self._derived(self.x, t)["n"], num(0))))
            # Number cards: legality on each caravan.
            for c, b in nums.items():
                d = self._derived(c, t)
                placed_before = self._placed_count(c, t)
                s.add(implies(b, lt(placed_before, num(self.cap[c]))))
                empty = eq(d["n"], num(0))
                s.track("rule.same-value", implies(b, or_(empty, not_(eq(rank, d["lastR"])))))
                up = d["up"]
                s.track("rule.direction", implies(b, or_(lt(d["n"], num(2)), eq(suit, d["suit"]),
                                                         and_(up, gt(rank, d["lastR"])),
                                                         and_(not_(up), lt(rank, d["lastR"])))))
                if self.rules.max_numbers_per_caravan is not None:
                    s.track("rule.max-cards", implies(b, lt(d["n"], num(self.rules.max_numbers_per_caravan))))
            # Face cards: a living card; fnv limits.
            for (c, j), b in faces.items():
                sl = self.slots[c][j]
                s.add(implies(b, sl.A[t]))
                if face_cap is not None:  # (fnv)
                    s.track("rule.face-limit", implies(b, lt(sl.NF[t], num(face_cap))))
                if self.rules.queen_last_only and self._face_kinds(c) == "all":
                    later = [o.A[t] for o in self.slots[c] if o.j > j]
                    s.track("rule.queen-last", implies(and_(b, queen), not_(or_(*later))))
            # The Joker's target: its card's value and suit.
            jr = js = None
            if jokers and faces:
                jr, js = s.int(f"jr_{t}"), s.int(f"js_{t}")
                for (c, j), b in faces.items():
                    sl = self.slots[c][j]
                    s.add(implies(b, and_(eq(jr, sl.R), eq(js, sl.S))))
            joker_move = and_(joker, not_(disc)) if jokers and faces else FALSE
            # Transition to t + 1.
            for c in self.modelled:
                placed_before = self._placed_count(c, t)
                for sl in self.slots[c]:
                    face = faces.get((c, sl.j), FALSE)
                    placed = and_(nums[c], eq(placed_before, num(sl.new))) if (sl.new is not None and c in nums) \
                        else FALSE
                    if sl.new is not None and placed != FALSE:
                        s.add(implies(placed, and_(eq(sl.R, rank), eq(sl.S, suit))))
                    hit = FALSE
                    if joker_move != FALSE:
                        # a Joker move comes with its target ints
                        match = ite(eq(jr, num(1)), eq(sl.S, js), eq(sl.R, jr))  # type: ignore[arg-type]
                        hit = and_(joker_move, not_(face), match)
                    removed = or_(and_(disb, TRUE if c == self.x else FALSE), and_(face, jack), hit)
                    self._next(sl.A, f"a_{t + 1}_{c}_{sl.j}", "Bool",
                               or_(and_(sl.A[t], not_(removed)), placed))
                    if dyn_value[c]:
                        self._next(sl.V, f"v_{t + 1}_{c}_{sl.j}", "Int",
                                   ite(placed, rank, ite(and_(face, king), double(sl.V[t]), sl.V[t])))
                    else:
                        sl.V.append(sl.V[t])
                    if dyn_queen[c]:
                        fq = and_(face, queen)
                        self._next(sl.QP, f"qp_{t + 1}_{c}_{sl.j}", "Bool",
                                   ite(placed, FALSE, ite(fq, not_(sl.QP[t]), sl.QP[t])))
                        self._next(sl.QS, f"qs_{t + 1}_{c}_{sl.j}", "Int",
                                   ite(placed, num(NO_QUEEN), ite(fq, suit, sl.QS[t])))
                    else:
                        sl.QP.append(sl.QP[t])
                        sl.QS.append(sl.QS[t])
                    if fnv and face != FALSE:
                        self._next(sl.NF, f"nf_{t + 1}_{c}_{sl.j}", "Int",
                                   ite(placed, num(0), ite(face, add(sl.NF[t], num(1)), sl.NF[t])))
                    else:
                        sl.NF.append(sl.NF[t])
            sel["used"] = used
            used = self._name(f"used_{t + 1}", add(used, ite(using, num(1), num(0))))
        self.skips = skips
        # Each card is played or discarded at most once.
        for i in range(len(self.cards)):
            s.add(at_most_one([sel["picks"][i] for sel in self.sel]))
        # The goal after the last step.
        vx = self._value(self.x, K)
        s.track("goal.low", ge(vx, num(21)))
        s.track("goal.high", le(vx, num(26)))
        if self.goal.kind == "lane":
            vy = self._value(self.goal.facing, K)  # type: ignore[arg-type]  # a lane goal names its facing caravan
            s.track("goal.beat", or_(lt(vy, num(21)), gt(vy, num(26)), gt(vx, vy)))

    def _next(self, row: list[str], name: str, sort: str, term: str) -> None:
        """The field's term at the next state: the term itself when constant, else a
        fresh variable equal to it."""
        if term in (TRUE, FALSE) or int_literal(term) is not None or term == row[-1]:
            row.append(term)
            return
        var = self.script.bool(name) if sort == "Bool" else self.script.int(name)
        self.script.add(eq(var, term))
        row.append(var)

    def _name(self, name: str, term: str, sort: str = "Int") -> str:
        """A variable equal to ``term`` (SMT-LIB text has no sharing: a term used in many
        constraints is written once), or the term itself when it is a literal or a name."""
        if term in (TRUE, FALSE) or int_literal(term) is not None or not term.startswith("("):
            return term
        var = self.script.bool(name) if sort == "Bool" else self.script.int(name)
        self.script.add(eq(var, term))
        return var

    def _placed_count(self, c: int, t: int) -> str:
        cache = self._counts
        if (c, t) not in cache:
            cache[c, t] = self._name(f"cnt_{t}_{c}", count(sel["nums"].get(c, FALSE) for sel in self.sel[:t]))
        return cache[c, t]

    def _derived(self, c: int, t: int) -> dict[str, str]:
        """Caravan c at state t: living count, last card's value and suit, the direction
        (``up``: ascending, under this rule set) and the current suit."""
        cache = self._derived_cache
        if (c, t) in cache:
            return cache[c, t]
        n = num(0)
        last_r = prev_r = first_r = second_r = num(0)
        last_s = num(0)
        last_qp = FALSE
        last_qs = num(NO_QUEEN)
        parity = FALSE
        holotape = self.rules.direction_from != "last-two"
        for sl in self.slots[c]:
            a = sl.A[t]
            if a == FALSE:
                continue
            tag = f"{c}_{t}_{sl.j}"
            name = self._name
            if holotape:
                second_r = name(f"d2_{tag}", ite(and_(a, eq(n, num(1))), sl.R, second_r))
                first_r = name(f"d1_{tag}", ite(and_(a, eq(n, num(0))), sl.R, first_r))
                q = and_(a, sl.QP[t])
                if q != FALSE:
                    parity = name(f"dp_{tag}", q if parity == FALSE else f"(xor {parity} {q})", "Bool")
            else:
                prev_r = name(f"dv_{tag}", ite(a, last_r, prev_r))
                last_qp = name(f"dq_{tag}", ite(a, sl.QP[t], last_qp), "Bool")
            last_r = name(f"dl_{tag}", ite(a, sl.R, last_r))
            last_s = name(f"ds_{tag}", ite(a, sl.S, last_s))
            last_qs = name(f"dt_{tag}", ite(a, sl.QS[t], last_qs))
            n = name(f"dn_{tag}", add(n, ite(a, num(1), num(0))))
        if not holotape:
            run_up = gt(last_r, prev_r)
            rev = last_qp
        else:
            run_up = gt(second_r, first_r)
            rev = parity
        # Name the shared terms once: they are used by every rule of the step.
        s = self.script
        names = {}
        for key, term, sort in (("n", n, "Int"), ("lastR", last_r, "Int"), ("up", ite(rev, not_(run_up), run_up),
                                                                            "Bool"),
                                ("suit", ite(eq(last_qs, num(NO_QUEEN)), last_s, last_qs), "Int")):
            if term in (TRUE, FALSE) or int_literal(term) is not None:
                names[key] = term
                continue
            var = s.bool(f"d_{key}_{c}_{t}") if sort == "Bool" else s.int(f"d_{key}_{c}_{t}")
            s.add(eq(var, term))
            names[key] = var
        cache[c, t] = names
        return names

    def _value(self, c: int, t: int) -> str:
        if c not in self.slots:
            return num(self.state.values[c])
        cache = self._values
        if (c, t) not in cache:
            cache[c, t] = self._name(f"val_{t}_{c}", add(*(ite(sl.A[t], sl.V[t], num(0)) for sl in self.slots[c])))
        return cache[c, t]

    def _over(self, t: int, used: str) -> str:
        """The game has ended at state t: every lane decided, or the mover out of cards."""
        lanes = []
        for a, b in cv.LANES:
            va, vb = self._value(a, t), self._value(b, t)
            ina = and_(ge(va, num(21)), le(va, num(26)))
            inb = and_(ge(vb, num(21)), le(vb, num(26)))
            lanes.append(or_(and_(ina, not_(inb)), and_(inb, not_(ina)), and_(ina, inb, not_(eq(va, vb)))))
        over = and_(*lanes)
        if self.hand_unknown == 0 and self.deck_len is not None:
            total = self.hand_size + self.deck_len
            over = or_(over, eq(used, num(total)))
        return self._name(f"over_{t}", over, "Bool")

    # ----------------------------------------------------------------- solving

    def solve(self, deadline: Deadline | None = None) -> ModelResult:
        """A shortest line (yes), the unsat core (no), or unknown at the deadline."""
        if deadline is not None:
            deadline.check_now()
        solver, literals = self.script.solver()
        result = ModelResult("unknown", size=len(self.script.lines))
        assumptions = list(literals.values())

        def check(extra: list) -> z3.CheckSatResult:
            if deadline is not None:
                left = deadline.remaining()
                if left is not None:
                    if left <= 0:
                        raise Timeout()
                    solver.set("timeout", max(1, int(left * 1000)))
            result.solver_calls += 1
            if deadline is not None:
                deadline.solver_calls += 1
            return solver.check(*assumptions, *extra)

        verdict = check([])
        if verdict == z3.unknown:
            raise Timeout()
        if verdict == z3.unsat:
            names = {str(v): k for k, v in literals.items()}
            result.answer = "no"
            result.core = sorted(names[str(lit)] for lit in solver.unsat_core() if str(lit) in names)
            return result
        line = self._line(solver.model())
        # The shortest line: the fewest moves k (from 0 up) for which a line exists; the
        # first check found one of len(line) moves, so only shorter bounds are tried.
        for bound in range(len(line)):
            verdict = check([z3.Bool(self.skips[bound])])
            if verdict == z3.unknown:
                raise Timeout()
            if verdict == z3.sat:
                line = self._line(solver.model())
                break
        result.answer = "yes"
        result.line = line
        return result

    def _line(self, model: z3.ModelRef) -> list[cv.Move]:
        values = {d.name(): model[d] for d in model.decls()}

        def true(term: str) -> bool:
            if term in (TRUE, FALSE):
                return term == TRUE
            v = values.get(term)
            return v is not None and z3.is_true(v)

        line: list[cv.Move] = []
        for t, sel in enumerate(self.sel):
            if true(sel["skip"]):
                break
            card = next((self.cards[i][0] for i, b in enumerate(sel["picks"]) if true(b)), None)
            if true(sel["disb"]):
                line.append(cv.Disband(self.x))
                continue
            if true(sel["disc"]):
                line.append(cv.Discard(card))  # type: ignore[arg-type]  # a step that moves picks a card
                continue
            moved = False
            for c, b in sel["nums"].items():
                if true(b):
                    line.append(cv.PlayNumber(card, c))  # type: ignore[arg-type]  # a step that moves picks a card
                    moved = True
            for (c, j), b in sel["faces"].items():
                if true(b):
                    index = sum(1 for o in self.slots[c] if o.j < j and true(o.A[t]))
                    line.append(cv.Attach(card, c, index))  # type: ignore[arg-type]  # a step that moves picks a card
                    moved = True
            if not moved:
                raise AssertionError(f"step {t}: the model chose no move")
        return line


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
