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
* a discard; a disband of the goal caravan (every slot dies, no card is used);
* in the opening (the mover's first three placements): a number card on an empty own
  caravan (fnv: the first empty one), no face card, no disband, no draw after it; a discard
  only under fnv (it draws a replacement).

Cards come from the hand, and from the deck in draw order: deck card i can be used once
i+1 draws have been made (a draw follows every play or discard but an opening placement,
while the deck lasts). No move after the game ends (all three lanes decided, or the mover
out of cards). Which moves, which caravans: exactly ``caravan_puzzle``'s set;
caravans that no move can change are constants (their values still decide lanes).

Every rule is a constraint *tracked* under its rule id (spec/caravan*.toml), and the goal
under ``goal.*``; the unsat core of a "no" is the set of rules it rests on, and the
phrases of ``reasons.RULE_WORDS`` word the ones a player thinks of. Numbers are bit-vectors only
as wide as the rule set's proved value bound allows (``value_bound``), unbounded integers
where there is none (holotape): nothing can wrap round.
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
    Disagreement,
    Numbers,
    Script,
    and_,
    at_most_one,
    cvc5_check,
    eq,
    implies,
    int_literal,
    ite,
    not_,
    or_,
    xor,
)

SUIT_CODE = {"S": 0, "H": 1, "D": 2, "C": 3}
#: The Queen-suit field of a card with no Queen on it (not a suit code).
NO_QUEEN = 4

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
    #: cvc5's answer to each unsat check it re-proved (``certify``).
    solvers: list[str] = field(default_factory=list)


def value_bound(rules: cv.RuleSet) -> int | None:
    """The most a caravan can be worth under ``rules``, or None where no bound exists: a
    number card is worth at most 10 doubled once per King on it, and only a rule set that
    limits both the face cards on a card and the number cards in a caravan (fnv: 3 and 7)
    bounds it (7 x 10 x 2^3 = 560). The prove job's ``value-bound`` certificate proves it
    from this model's rules; holotape limits neither, so its numbers are unbounded."""
    faces, numbers = rules.max_faces_per_card, rules.max_numbers_per_caravan
    if faces is None or numbers is None:
        return None
    return numbers * 10 * (1 << faces)


class ReachModel:
    """The model of one ``Puzzle`` (the opening included)."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline | None = None, question: bool = True) -> None:
        self.deadline = deadline
        #: Keep to the question's moves (no disband of an empty caravan: it changes nothing);
        #: False: every move the rules allow (``legality``).
        self.question = question
        state = puzzle.start
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
        self.placed0 = state.placed[p]
        self.opening = self.placed0 < cv.OPENING_PLACEMENTS
        own = tuple(cv.own_caravans(p))
        spread = self.joker or self.opening
        self.modelled = tuple(sorted(set(range(6) if self.joker else goal.caravans) | (set(own) if spread else set())))
        self.numcars = own if spread else (self.x,)
        n_numbers = sum(1 for c, _ in self.cards if cv.is_number(c))
        self.has_faces = any(not cv.is_number(c) for c, _ in self.cards)
        self.cap = {c: (min(self.K, n_numbers) if c == self.x else min(self.K - 1 if not self.opening else self.K,
                                                                        n_numbers)) if c in self.numcars
                    else 0 for c in self.modelled}
        bound = value_bound(self.rules)
        self.n = Numbers.fitting(None if bound is None else max(bound, len(self.cards) + self.K + 16))
        self.script = Script(self.n)
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
        n = self.n
        K = self.K
        # Slots and their state at t = 0.
        for c in self.modelled:
            row = []
            for j, slot in enumerate(self.state.caravans[c]):
                queens = [f for f in slot.faces if f.rank == cv.QUEEN]
                sl = _Slot(c, j, None, n.num(slot.card.rank), n.num(SUIT_CODE[slot.card.suit]))
                sl.A.append(TRUE)
                sl.V.append(n.num(cv.card_value(slot)))
                sl.QP.append(TRUE if len(queens) % 2 else FALSE)
                sl.QS.append(n.num(SUIT_CODE[queens[-1].suit]) if queens else n.num(NO_QUEEN))
                sl.NF.append(n.num(len(slot.faces)))
                row.append(sl)
            base = len(row)
            for k in range(self.cap[c]):
                sl = _Slot(c, base + k, k, s.int(f"r_{c}_{base + k}"), s.int(f"s_{c}_{base + k}"))
                s.add(and_(n.ge(sl.R, n.num(1)), n.le(sl.R, n.num(10)), n.ge(sl.S, n.num(0)), n.le(sl.S, n.num(3))))
                sl.A.append(FALSE)
                sl.V.append(sl.R)
                sl.QP.append(FALSE)
                sl.QS.append(n.num(NO_QUEEN))
                sl.NF.append(n.num(0))
                row.append(sl)
            self.slots[c] = row
        self.dyn_value = {c: c in self.goal.caravans and any(card.rank == cv.KING for card, _ in self.cards)
                          for c in self.modelled}
        self.dyn_queen = {c: c == self.x and any(card.rank == cv.QUEEN for card, _ in self.cards)
                          for c in self.modelled}
        skips: list[str] = []
        used = n.num(0)  # moves before step t after which the mover drew
        spent = n.num(0)  # cards the mover played or discarded before step t
        placed = n.num(self.placed0)  # the mover's opening placements before step t
        for t in range(K):
            if self.deadline is not None:
                self.deadline.check_now()  # building the model is the question's time too
            used, spent, placed = self._step(t, skips, used, spent, placed)
        self.skips = skips
        # Each card is played or discarded at most once: it leaves the hand.
        for i in range(len(self.cards)):
            s.track("caravan.hand.possession", at_most_one([sel["picks"][i] for sel in self.sel]))
        # The goal after the last step.
        vx = self._value(self.x, K)
        s.track("goal.low", n.ge(vx, n.num(21)))
        s.track("goal.high", n.le(vx, n.num(26)))
        if self.goal.kind == "lane":
            vy = self._value(self.goal.facing, K)  # type: ignore[arg-type]  # a lane goal names its facing caravan
            s.track("goal.beat", or_(n.lt(vy, n.num(21)), n.gt(vy, n.num(26)), n.gt(vx, vy)))

    def _step(self, t: int, skips: list[str], used: str, spent: str, placed: str) -> tuple[str, str, str]:
        """Step t: the move chosen (or none: the line has ended), every rule it must keep,
        and the state after it. Returns the draw and placement counts after it."""
        s = self.script
        n = self.n
        rules = self.rules
        sel = self._selectors(t, skips)
        skip, nums, foreign, faces = sel["skip"], sel["nums"], sel["foreign"], sel["faces"]
        disc, disb, picks = sel["disc"], sel["disb"], sel["picks"]
        opening = self._name(f"opening_{t}", n.lt(placed, n.num(cv.OPENING_PLACEMENTS)), "Bool")
        choices = [skip, disc, disb, *nums.values(), *foreign.values(), *faces.values()]
        # One action a turn (caravan.turn.structure), made of one card held.
        s.track("caravan.turn.structure", and_(or_(*choices), at_most_one(choices)))
        using = and_(not_(skip), not_(disb))
        s.track("caravan.hand.possession", and_(at_most_one(picks), eq(or_(*picks), using)))
        if t:
            s.add(implies(skips[t - 1], skip))
        number, king, queen, jack, joker, rank, suit = self._picked(t, picks)
        for b in (*nums.values(), *foreign.values()):
            s.track("caravan.face.target", implies(b, number))  # a face card is attached, not placed
        for b in foreign.values():
            s.track("caravan.number.own", not_(b))
        for (c, j), b in faces.items():
            s.track("caravan.number.end", implies(b, not_(number)))  # a number card is never attached
            if self._face_kinds(c) == "joker":
                s.add(implies(b, joker))  # the question's moves: only a Joker on those caravans
        # Deck cards only once drawn: the draw is the deck's top card.
        for i, (card, needed) in enumerate(self.cards):
            if needed:
                s.track("caravan.draw.mismatch", implies(picks[i], n.ge(used, n.num(needed))))
        # The game must still be on.
        s.track("caravan.end.game-over", implies(not_(skip), not_(self._over(t, spent))))
        # The opening: number cards on empty own caravans, no face card, no disband.
        s.track("caravan.opening.number-only", implies(opening, not_(or_(*faces.values()))))
        s.track("caravan.opening.disband", implies(opening, not_(disb)))
        if rules.opening_discard:
            s.track("caravan.opening.discard-redraw", implies(and_(opening, disc), n.lt(used, n.num(self.deck_len))
                                                              if self.deck_len is not None else TRUE))
        else:
            s.track("caravan.opening.discard", implies(opening, not_(disc)))
        if not rules.discard_with_empty_deck and self.deck_len is not None:
            s.track("caravan.discard.empty-deck", implies(disc, n.lt(used, n.num(self.deck_len))))
        self._disband_rules(t, disb)
        self._number_rules(t, nums, opening, rank, suit)
        self._face_rules(t, faces, queen)
        self._transition(t, sel, opening, rank, suit, king, queen, jack, joker)
        return self._draw(t, sel, opening, using, used, spent, placed)

    def _selectors(self, t: int, skips: list[str]) -> dict:
        """Step t's choice, one Boolean per kind of move and target: none (the line has
        ended), a number card on a caravan (the mover's, or another's: caravan.number.own),
        a face card on a slot, a discard, a disband; and which card is used."""
        s = self.script
        own = set(cv.own_caravans(self.p))
        skip = s.bool(f"skip_{t}")
        skips.append(skip)
        has_numbers = any(cv.is_number(card) for card, _ in self.cards)
        nums = {c: s.bool(f"num_{t}_{c}") for c in self.numcars} if has_numbers else {}
        foreign = {c: s.bool(f"numx_{t}_{c}") for c in self.modelled if c not in own} if has_numbers else {}
        faces = {}
        if self.has_faces:
            for c in self.modelled:
                if self._face_kinds(c) != "none":
                    for sl in self.slots[c]:
                        faces[c, sl.j] = s.bool(f"face_{t}_{c}_{sl.j}")
        disc = s.bool(f"disc_{t}") if self.cards else FALSE
        disb = s.bool(f"disb_{t}")
        picks = [s.bool(f"card_{t}_{i}") for i in range(len(self.cards))]
        sel: dict = {"t": t, "skip": skip, "nums": nums, "foreign": foreign, "faces": faces, "disc": disc,
                     "disb": disb, "picks": picks}
        self.sel.append(sel)
        return sel

    def _picked(self, t: int, picks: list[str]) -> tuple[str, str, str, str, str, str, str]:
        """What the card used at step t is: a number card, a King, Queen, Jack or Joker; its
        rank and suit (0 when none)."""
        n = self.n

        def kind(pred) -> str:
            return or_(*(picks[i] for i, (card, _) in enumerate(self.cards) if pred(card)))

        number = self._name(f"isnum_{t}", kind(cv.is_number), "Bool")
        king = self._name(f"isking_{t}", kind(lambda card: card.rank == cv.KING), "Bool")
        queen = self._name(f"isqueen_{t}", kind(lambda card: card.rank == cv.QUEEN), "Bool")
        jack = self._name(f"isjack_{t}", kind(lambda card: card.rank == cv.JACK), "Bool")
        joker = self._name(f"isjoker_{t}", kind(lambda card: card.is_joker), "Bool")
        rank = self._name(f"rank_{t}", n.add(*(ite(picks[i], n.num(card.rank), n.num(0))
                                               for i, (card, _) in enumerate(self.cards) if cv.is_number(card))))
        suit = self._name(f"suit_{t}", n.add(*(ite(picks[i], n.num(SUIT_CODE[card.suit]), n.num(0))
                                               for i, (card, _) in enumerate(self.cards) if not card.is_joker)))
        return number, king, queen, jack, joker, rank, suit

    def _draw(self, t: int, sel: dict, opening: str, using: str, used: str, spent: str,
              placed: str) -> tuple[str, str, str]:
        """The draw after step t and the counts after it (cards drawn, cards used, opening
        placements). A draw follows a play or discard, not an opening placement
        (caravan.draw.none), and none comes from an empty deck (caravan.draw.empty)."""
        s, n = self.script, self.n
        draws = s.bool(f"draws_{t}")
        placing = and_(opening, or_(*sel["nums"].values()))
        s.track("caravan.draw.none", implies(or_(sel["disb"], placing), not_(draws)))
        room = n.lt(used, n.num(self.deck_len)) if self.deck_len is not None else TRUE
        s.track("caravan.draw.empty", implies(not_(room), not_(draws)))
        s.add(eq(draws, and_(using, not_(placing), room)))
        sel["used"] = used
        used = self._name(f"used_{t + 1}", n.add(used, ite(draws, n.num(1), n.num(0))))
        spent = self._name(f"spent_{t + 1}", n.add(spent, ite(using, n.num(1), n.num(0))))
        placed = self._name(f"placed_{t + 1}", n.add(placed, ite(placing, n.num(1), n.num(0))))
        return used, spent, placed

    def _disband_rules(self, t: int, disb: str) -> None:
        """The disband of step t: the goal caravan, as the rule set allows."""
        s, n, rules = self.script, self.n, self.rules
        own = set(cv.own_caravans(self.p))
        # Disband: the goal caravan (the question's only disband).
        if rules.disband_empty:
            others = [self._derived(c, t)["n"] for c in sorted(own)]
            s.track("caravan.disband.all-empty", implies(disb, or_(*(n.gt(m, n.num(0)) for m in others))))
            if self.question:  # an empty one changes nothing the question asks
                s.add(implies(disb, n.gt(self._derived(self.x, t)["n"], n.num(0))))
        else:
            s.track("caravan.disband.empty", implies(disb, n.gt(self._derived(self.x, t)["n"], n.num(0))))

    def _number_rules(self, t: int, nums: dict[int, str], opening: str, rank: str, suit: str) -> None:
        """A number card of step t: an opening placement, else the rules of a caravan's end."""
        s, n, rules = self.script, self.n, self.rules
        own = set(cv.own_caravans(self.p))
        # Number cards: the opening's placements, else the rules of the caravan's end.
        for c, b in nums.items():
            d = self._derived(c, t)
            s.add(implies(b, n.lt(self._placed_count(c, t), n.num(self.cap[c]))))
            empty = eq(d["n"], n.num(0))
            s.track("caravan.opening.empty", implies(and_(b, opening), empty))
            if rules.opening_first_empty:
                before = [eq(self._derived(o, t)["n"], n.num(0)) for o in sorted(own) if o < c]
                s.track("caravan.opening.order", implies(and_(b, opening), not_(or_(*before))))
            main = and_(b, not_(opening))
            s.track("caravan.number.same-value", implies(main, or_(empty, not_(eq(rank, d["lastR"])))))
            up = d["up"]
            s.track("caravan.number.direction", implies(main, or_(n.lt(d["n"], n.num(2)), eq(suit, d["suit"]),
                                                                  and_(up, n.gt(rank, d["lastR"])),
                                                                  and_(not_(up), n.lt(rank, d["lastR"])))))
            if rules.max_numbers_per_caravan is not None:
                s.track("caravan.number.max-cards", implies(main, n.lt(d["n"], n.num(rules.max_numbers_per_caravan))))

    def _face_rules(self, t: int, faces: dict[tuple[int, int], str], queen: str) -> None:
        """A face card of step t: on a living number card; fnv's limits."""
        s, n, rules = self.script, self.n, self.rules
        # Face cards: on a living number card; fnv's limits.
        for (c, j), b in faces.items():
            sl = self.slots[c][j]
            s.track("caravan.face.target", implies(b, sl.A[t]))
            if rules.max_faces_per_card is not None:
                s.track("caravan.face.limit", implies(b, n.lt(sl.NF[t], n.num(rules.max_faces_per_card))))
            if rules.queen_last_only and self._face_kinds(c) == "all":
                later = [o.A[t] for o in self.slots[c] if o.j > j]
                s.track("caravan.queen.last", implies(and_(b, queen), not_(or_(*later))))

    def _transition(self, t: int, sel: dict, opening: str, rank: str, suit: str, king: str, queen: str,
                    jack: str, joker: str) -> None:
        """The state after step t: where the card went and what it did (a King doubles, a
        Queen turns and sets the suit, a Jack and a Joker remove cards, a disband clears)."""
        s = self.script
        n = self.n
        nums, faces, disc, disb = sel["nums"], sel["faces"], sel["disc"], sel["disb"]
        has_joker = any(card.is_joker for card, _ in self.cards)
        jr = js = None
        if has_joker and faces:
            jr, js = s.int(f"jr_{t}"), s.int(f"js_{t}")
            for (c, j), b in faces.items():
                sl = self.slots[c][j]
                s.add(implies(b, and_(eq(jr, sl.R), eq(js, sl.S))))
        joker_move = and_(joker, not_(disc)) if has_joker and faces else FALSE
        for c in self.modelled:
            placed_before = self._placed_count(c, t)
            for sl in self.slots[c]:
                face = faces.get((c, sl.j), FALSE)
                placed = and_(nums[c], eq(placed_before, n.num(sl.new))) if (sl.new is not None and c in nums) \
                    else FALSE
                if sl.new is not None and placed != FALSE:
                    s.track("caravan.number.end", implies(placed, and_(eq(sl.R, rank), eq(sl.S, suit))))
                hit_ace = hit_number = FALSE
                if joker_move != FALSE:
                    target = and_(joker_move, not_(face))
                    hit_ace = and_(target, eq(jr, n.num(1)), eq(sl.S, js))  # type: ignore[arg-type]  # a Joker move has its target
                    hit_number = and_(target, not_(eq(jr, n.num(1))), eq(sl.R, jr))  # type: ignore[arg-type]  # as above
                jacked = and_(face, jack)
                disbanded = disb if c == self.x else FALSE
                alive = self._fresh(sl.A, f"a_{t + 1}_{c}_{sl.j}",
                                    or_(and_(sl.A[t], not_(or_(jacked, hit_ace, hit_number, disbanded))), placed))
                if alive is not None:
                    # The frame (a card stays unless something removes it; a new one comes
                    # only by a placement), then each removal under its rule.
                    s.add(implies(alive, or_(sl.A[t], placed)))
                    s.add(implies(or_(placed, and_(sl.A[t], not_(or_(jacked, hit_ace, hit_number, disbanded)))),
                                  alive))
                    s.track("caravan.jack.remove", implies(jacked, not_(alive)))
                    s.track("caravan.joker.ace", implies(hit_ace, not_(alive)))
                    s.track("caravan.joker.number", implies(hit_number, not_(alive)))
                    s.track("caravan.turn.structure", implies(and_(disbanded, not_(placed)), not_(alive)))
                if self.dyn_value[c]:
                    value = self._fresh(sl.V, f"v_{t + 1}_{c}_{sl.j}", "", sort="Int")
                    s.add(implies(placed, eq(value, rank)))  # type: ignore[arg-type]  # dynamic: a fresh variable
                    s.add(implies(and_(not_(placed), not_(and_(face, king))), eq(value, sl.V[t])))  # type: ignore[arg-type]  # as above
                    s.track("caravan.value.king", implies(and_(not_(placed), face, king),
                                                          eq(value, n.double(sl.V[t]))))  # type: ignore[arg-type]  # as above
                else:
                    sl.V.append(sl.V[t])
                if self.dyn_queen[c]:
                    fq = and_(face, queen)
                    self._next(sl.QP, f"qp_{t + 1}_{c}_{sl.j}", "Bool",
                               ite(placed, FALSE, ite(fq, not_(sl.QP[t]), sl.QP[t])))
                    self._next(sl.QS, f"qs_{t + 1}_{c}_{sl.j}", "Int",
                               ite(placed, n.num(NO_QUEEN), ite(fq, suit, sl.QS[t])))
                else:
                    sl.QP.append(sl.QP[t])
                    sl.QS.append(sl.QS[t])
                if self.fnv_limits and face != FALSE:
                    self._next(sl.NF, f"nf_{t + 1}_{c}_{sl.j}", "Int",
                               ite(placed, n.num(0), ite(face, n.add(sl.NF[t], n.num(1)), sl.NF[t])))
                else:
                    sl.NF.append(sl.NF[t])

    def _fresh(self, row: list[str], name: str, term: str, sort: str = "Bool") -> str | None:
        """The field's next state: the current term when nothing can change it (``term`` a
        constant equal to it: appended, None returned), else a fresh variable (appended
        and returned) that the caller constrains."""
        if sort == "Bool" and (term in (TRUE, FALSE) or term == row[-1]):
            row.append(term)
            return None
        var = self.script.bool(name) if sort == "Bool" else self.script.int(name)
        row.append(var)
        return var

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
            cache[c, t] = self._name(f"cnt_{t}_{c}", self.n.count(sel["nums"].get(c, FALSE) for sel in self.sel[:t]))
        return cache[c, t]

    def _derived(self, c: int, t: int) -> dict[str, str]:
        """Caravan c at state t: living count, last card's value and suit, the direction
        (``up``: ascending, under this rule set) and the current suit. Each definition is
        a rule: the direction under the rule set's own rule (and the equal-values ruling,
        and holotape's Queen on a lone card), the suit under caravan.suit.current."""
        cache = self._derived_cache
        if (c, t) in cache:
            return cache[c, t]
        n = self.n
        if c not in self.slots:  # a caravan no move of the question changes
            caravan = self.state.caravans[c]
            cache[c, t] = {"n": n.num(len(caravan))}
            return cache[c, t]
        s = self.script
        count = n.num(0)
        last_r = prev_r = first_r = second_r = n.num(0)
        last_s = n.num(0)
        last_qp = FALSE
        last_qs = n.num(NO_QUEEN)
        parity = first_queen = FALSE
        holotape = self.rules.direction_from != "last-two"
        name = self._name
        for sl in self.slots[c]:
            a = sl.A[t]
            if a == FALSE:
                continue
            tag = f"{c}_{t}_{sl.j}"
            if holotape:
                second_r = name(f"d2_{tag}", ite(and_(a, eq(count, n.num(1))), sl.R, second_r))
                first_r = name(f"d1_{tag}", ite(and_(a, eq(count, n.num(0))), sl.R, first_r))
                first_queen = or_(first_queen, and_(a, eq(count, n.num(0)), sl.QP[t]))
                q = and_(a, n.gt(count, n.num(0)), sl.QP[t])
                if q != FALSE:
                    parity = name(f"dp_{tag}", xor(parity, q), "Bool")
            else:
                prev_r = name(f"dv_{tag}", ite(a, last_r, prev_r))
                last_qp = name(f"dq_{tag}", ite(a, sl.QP[t], last_qp), "Bool")
            last_r = name(f"dl_{tag}", ite(a, sl.R, last_r))
            last_s = name(f"ds_{tag}", ite(a, sl.S, last_s))
            last_qs = name(f"dt_{tag}", ite(a, sl.QS[t], last_qs))
            count = name(f"dn_{tag}", n.add(count, ite(a, n.num(1), n.num(0))))
        rule = self.rules.direction_rule
        if holotape:
            low, high = first_r, second_r
            if first_queen != FALSE:
                lone = s.bool(f"d_lone_{c}_{t}")
                s.track("caravan.queen.single-card", eq(lone, first_queen))
                parity = xor(parity, lone)
            rev = parity
        else:
            low, high = prev_r, last_r
            rev = last_qp
        names = {"n": self._name(f"d_n_{c}_{t}", count), "lastR": self._name(f"d_lastR_{c}_{t}", last_r)}
        run = s.bool(f"d_run_{c}_{t}")
        s.track(rule, implies(n.gt(high, low), run))
        s.track(rule, implies(n.lt(high, low), not_(run)))
        s.track("caravan.direction.equal", implies(eq(high, low), not_(run)))
        up = s.bool(f"d_up_{c}_{t}")
        s.track(rule, eq(up, ite(rev, not_(run), run)))
        names["up"] = up
        suit = s.int(f"d_suit_{c}_{t}")
        s.track("caravan.suit.current", eq(suit, ite(eq(last_qs, n.num(NO_QUEEN)), last_s, last_qs)))
        names["suit"] = suit
        cache[c, t] = names
        return names

    def _value(self, c: int, t: int) -> str:
        if c not in self.slots:
            return self.n.num(self.state.values[c])
        cache = self._values
        if (c, t) not in cache:
            cache[c, t] = self._name(f"val_{t}_{c}", self.n.add(*(ite(sl.A[t], sl.V[t], self.n.num(0))
                                                                  for sl in self.slots[c])))
        return cache[c, t]

    def _over(self, t: int, spent: str) -> str:
        """The game has ended at state t: every lane decided (caravan.lane.decided,
        caravan.end.lanes), or the mover out of cards (caravan.end.out)."""
        s = self.script
        n = self.n
        lanes = []
        for a, b in cv.LANES:
            va, vb = self._value(a, t), self._value(b, t)
            ina = and_(n.ge(va, n.num(cv.TARGET_LOW)), n.le(va, n.num(cv.TARGET_HIGH)))
            inb = and_(n.ge(vb, n.num(cv.TARGET_LOW)), n.le(vb, n.num(cv.TARGET_HIGH)))
            decided = or_(and_(ina, not_(inb)), and_(inb, not_(ina)), and_(ina, inb, not_(eq(va, vb))))
            if decided in (TRUE, FALSE):
                lanes.append(decided)
                continue
            var = s.bool(f"lane_{t}_{a}")
            s.track("caravan.lane.decided", eq(var, decided))
            lanes.append(var)
        over = s.bool(f"over_{t}")
        every = and_(*lanes)
        s.track("caravan.end.lanes", implies(every, over))
        out = FALSE
        if self.hand_unknown == 0 and self.deck_len is not None:
            out = eq(spent, n.num(self.hand_size + self.deck_len))
            s.track("caravan.end.out", implies(out, over))
        s.add(implies(over, or_(every, out)))
        return over

    # ----------------------------------------------------------------- solving

    def solve(self, deadline: Deadline | None = None, certify: bool = False) -> ModelResult:
        """A shortest line (yes), the unsat core (no), or unknown at the deadline. With
        ``certify`` every unsat answer (the "no", and each "no shorter line") is checked
        again by cvc5 from the same SMT-LIB text (``smt.Disagreement`` if it differs)."""
        if deadline is not None:
            deadline.check_now()
        solver, literals = self.script.solver()
        result = ModelResult("unknown", size=len(self.script.lines))
        assumptions = list(literals.values())

        def left() -> float | None:
            remaining = None if deadline is None else deadline.remaining()
            if remaining is not None and remaining <= 0:
                raise Timeout()
            return remaining

        def check(extra: list[str]) -> z3.CheckSatResult:
            remaining = left()
            if remaining is not None:
                solver.set("timeout", max(1, int(remaining * 1000)))
            result.solver_calls += 1
            if deadline is not None:
                deadline.solver_calls += 1
            verdict = solver.check(*assumptions, *(z3.Bool(e) for e in extra))
            if verdict == z3.unsat and certify:
                second = cvc5_check(self.script.text(extra), left())
                result.solvers.append(second)
                if second == "sat":
                    raise Disagreement(f"z3 answers unsat but cvc5 answers sat on the same SMT-LIB text "
                                       f"({len(self.script.lines)} lines)")
                if second == "unknown":
                    raise Timeout()
            return verdict

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
            verdict = check([self.skips[bound]])
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
