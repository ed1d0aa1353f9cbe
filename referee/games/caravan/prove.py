"""Caravan's properties, proved or refuted per rule set (the game's ``prove`` part).

The proofs run on the rules' *count model*: a game state seen as its counts (each
player's hand and deck, each caravan's number and face cards, the cards gone, the opening
placements, who is to move), and one move as the rules allow it, each rule a constraint
named by its rule id (spec/caravan*.toml). Every concrete move is one of the model's (a
card's rank only narrows what is legal), so what holds of every step of the count model
holds of every game; a property the model cannot prove is refuted by a record, replayed
and validated through the engine. The per-card value proof uses a caravan's slots (rank,
Kings, face cards). See docs/prove.md.
"""

from __future__ import annotations

from typing import Any

from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import write_caravan
from referee.games.caravan.solve.model import value_bound
from referee.jobs.certificate import Budget, Certificate
from referee.jobs.solve.smt import FALSE, TRUE, Numbers, Script, Verdict, and_, eq, exactly_one, implies, ite, not_, or_

PROPERTIES = {
    "termination": "every game ends within a number of plies",
    "value-bound": "no caravan is ever worth more than a bound",
    "no-stuck": "the player to move has a legal move, or loses by a rule",
    "one-result": "every ended game has exactly one result",
    "conservation": "no card is made or lost: hands, decks, the table and the cards gone add up to the decks",
}


def settings() -> list[str]:
    return list(cv.RULESETS)


def setting_name(text: str) -> str:
    return cv.ruleset(text.strip()).name


def setting_text(setting: str) -> str:
    """The setting as ``--rules`` gives it (validate judges a witness under it)."""
    return setting


def check(setting: str, prop: str, budget: Budget) -> Certificate:
    rules = cv.ruleset(setting)
    return _CHECKS[prop](rules, budget)


# --------------------------------------------------------------------------- the count model


class CountModel:
    """One step of the count model: state ``s`` to ``s'`` by one move of the player to move
    (every rule a tracked constraint), or several steps from the start (``unroll``)."""

    def __init__(self, rules: cv.RuleSet) -> None:
        self.rules = rules
        self.n = Numbers(None)
        self.script = Script(self.n)

    def state(self, tag: str) -> dict[str, Any]:
        s = self.script
        st: dict[str, Any] = {"tag": tag}
        for p in (0, 1):
            st[f"h{p}"] = s.int(f"h{p}_{tag}")
            st[f"d{p}"] = s.int(f"d{p}_{tag}")
            st[f"pl{p}"] = s.int(f"pl{p}_{tag}")
        for c in range(6):
            st[f"n{c}"] = s.int(f"n{c}_{tag}")
            st[f"f{c}"] = s.int(f"f{c}_{tag}")
        st["g"] = s.int(f"g_{tag}")
        st["m"] = s.bool(f"m_{tag}")  # player 2 to move
        st["over"] = s.bool(f"over_{tag}")
        n = self.n
        zero = n.num(0)
        for key in [f"{k}{p}" for k in "hd" for p in (0, 1)] + [f"{k}{c}" for k in "nf" for c in range(6)] + ["g"]:
            s.add(n.ge(st[key], zero))
        for p in (0, 1):
            s.add(and_(n.ge(st[f"pl{p}"], zero), n.le(st[f"pl{p}"], n.num(cv.OPENING_PLACEMENTS))))
        return st

    def total(self, st: dict[str, Any]) -> str:
        return self.n.add(*(st[k] for k in ("h0", "h1", "d0", "d1", "g")),
                          *(st[f"{k}{c}"] for k in "nf" for c in range(6)))

    def rank(self, st: dict[str, Any]) -> str:
        """2 x the cards in hands and decks + the cards on the table: every card is played
        (or discarded) once and disbanded or removed once at most."""
        n = self.n
        held = n.add(st["h0"], st["h1"], st["d0"], st["d1"])
        return n.add(held, held, *(st[f"{k}{c}"] for k in "nf" for c in range(6)))

    def start(self, st: dict[str, Any], decks: tuple[str, str]) -> None:
        """The start of a game: decks of the given sizes, 8 cards each in hand, nothing on
        the table (caravan.opening.deal; the deck rules bound the sizes)."""
        s, n = self.script, self.n
        rules = self.rules
        for p in (0, 1):
            s.track("caravan.deck.size", n.ge(decks[p], n.num(rules.deck_min)))
            # a set gives each of its 54 cards once: a deck of D cards takes D / 54 sets or more
            sets = s.int(f"sets{p}_{st['tag']}")
            s.track("caravan.deck.duplicate", and_(n.ge(sets, n.num(1)), n.le(decks[p], f"(* 54 {sets})")))
            if rules.deck_max is not None:
                s.track("caravan.deck.max", n.le(decks[p], n.num(rules.deck_max)))
            s.track("caravan.opening.deal", and_(eq(st[f"h{p}"], n.num(cv.OPENING_HAND)),
                                                 eq(n.add(st[f"h{p}"], st[f"d{p}"]), decks[p]),
                                                 eq(st[f"pl{p}"], n.num(0))))
        s.add(and_(*(eq(st[f"{k}{c}"], n.num(0)) for k in "nf" for c in range(6)), eq(st["g"], n.num(0)),
                   not_(st["over"])))

    def step(self, a: dict[str, Any], b: dict[str, Any], tag: str) -> dict[str, str]:
        """The move from state ``a`` to ``b`` (a not over): one of the mover's moves, its
        draw, and the end of the game judged after it. Returns the move's selectors."""
        s = self.script
        moves: dict[str, str] = {}
        for p in (0, 1):
            for kind, targets in (("place", cv.own_caravans(p)), ("number", range(6)),
                                  ("face", range(6)), ("jack", range(6)), ("joker", range(6)),
                                  ("discard", (None,)), ("disband", range(6))):
                for c in targets:
                    key = f"{p}_{kind}" + ("" if c is None else f"_{c}")
                    moves[key] = s.bool(f"mv_{tag}_{key}")
        s.track("caravan.turn.structure", exactly_one(list(moves.values())))
        for key, sel in moves.items():
            p = int(key[0])
            kind = key.split("_")[1]
            c = int(key.split("_")[2]) if kind != "discard" else None
            s.track("caravan.turn.structure", implies(sel, eq(a["m"], TRUE if p else FALSE)))
            self._move(a, b, sel, p, kind, c, tag)
        self._end(a, b)
        return moves

    def _move(self, a: dict, b: dict, sel: str, p: int, kind: str, c: int | None, tag: str) -> None:
        s, n = self.script, self.n
        rules = self.rules
        one, zero = n.num(1), n.num(0)
        q = 1 - p
        opening = n.lt(a[f"pl{p}"], n.num(cv.OPENING_PLACEMENTS))
        h, d = a[f"h{p}"], a[f"d{p}"]
        drawn = s.bool(f"dr_{tag}_{p}_{kind}_{c}")
        plays_card = kind != "disband"
        if plays_card:
            s.track("caravan.hand.possession", implies(sel, n.ge(h, one)))
        # What does not change, unless the move says so below.
        changed: dict[str, str] = {}
        gone = zero
        draws = FALSE
        if kind == "place":
            s.track("caravan.opening.deal", implies(sel, opening))
            s.track("caravan.opening.empty", implies(sel, eq(a[f"n{c}"], zero)))
            if rules.opening_first_empty:
                before = [eq(a[f"n{o}"], zero) for o in cv.own_caravans(p) if o < c]  # type: ignore[operator]  # a placement names its caravan
                s.track("caravan.opening.order", implies(sel, not_(or_(*before))))
            changed[f"n{c}"] = n.add(a[f"n{c}"], one)
            changed[f"pl{p}"] = n.add(a[f"pl{p}"], one)
            s.track("caravan.draw.none", not_(and_(sel, drawn)))
        elif kind == "discard":
            if rules.opening_discard:
                s.track("caravan.opening.discard-redraw", implies(and_(sel, opening), n.ge(d, one)))
            else:
                s.track("caravan.opening.discard", implies(sel, not_(opening)))
            if not rules.discard_with_empty_deck:
                s.track("caravan.discard.empty-deck", implies(sel, n.ge(d, one)))
            gone = one
            draws = TRUE
        elif kind == "disband":
            s.track("caravan.opening.disband", implies(sel, not_(opening)))
            if cv.owner(c) != p:  # type: ignore[arg-type]  # a disband names its caravan
                s.track("caravan.disband.own", not_(sel))
            if rules.disband_empty:
                s.track("caravan.disband.all-empty",
                        implies(sel, or_(*(n.gt(a[f"n{o}"], zero) for o in cv.own_caravans(p)))))
            else:
                s.track("caravan.disband.empty", implies(sel, n.gt(a[f"n{c}"], zero)))
            gone = n.add(a[f"n{c}"], a[f"f{c}"])
            changed[f"n{c}"] = zero
            changed[f"f{c}"] = zero
            s.track("caravan.draw.none", not_(and_(sel, drawn)))
        else:
            draws = TRUE
            if kind == "number":
                s.track("caravan.opening.number-only", implies(sel, not_(opening)))
                if cv.owner(c) != p:  # type: ignore[arg-type]  # a number card names its caravan
                    s.track("caravan.number.own", not_(sel))
                if rules.max_numbers_per_caravan is not None:
                    s.track("caravan.number.max-cards",
                            implies(sel, n.lt(a[f"n{c}"], n.num(rules.max_numbers_per_caravan))))
                changed[f"n{c}"] = n.add(a[f"n{c}"], one)
            else:
                gone = self._face(a, sel, p, kind, c, tag, opening, changed)  # type: ignore[arg-type]  # a face card names its caravan
        # The card leaves the hand; a draw follows while the deck lasts (caravan.draw.empty).
        spent = one if plays_card else zero
        s.track("caravan.draw.empty", implies(and_(sel, drawn), and_(draws, n.ge(d, one))))
        s.track("caravan.draw.mismatch", implies(and_(sel, draws, n.ge(d, one)), drawn))
        got = ite(drawn, one, zero)
        changed[f"h{p}"] = n.add(n.sub(h, spent), got)
        changed[f"d{p}"] = n.sub(d, got)
        changed["g"] = n.add(a["g"], gone)
        counts = [f"{k}{x}" for k in ("h", "d", "pl") for x in (0, 1)] + [f"{k}{x}" for k in "nf" for x in range(6)]
        for key in [*counts, "g"]:
            s.track("caravan.turn.structure", implies(sel, eq(b[key], changed.get(key, a[key]))))
        # Who moves next: the other player, but the same after an opening discard (fnv).
        again = and_(opening, TRUE) if (kind == "discard" and rules.opening_discard) else FALSE
        s.track("caravan.turn.structure", implies(sel, eq(b["m"], ite(again, a["m"], TRUE if q else FALSE))))

    def _face(self, a: dict, sel: str, p: int, kind: str, c: int, tag: str, opening: str,
              changed: dict[str, str]) -> str:
        """A face card's rules and effects (into ``changed``); the cards it sends out of play."""
        s, n, rules = self.script, self.n, self.rules
        one, zero = n.num(1), n.num(0)
        gone = zero
        s.track("caravan.opening.number-only", implies(sel, not_(opening)))
        s.track("caravan.face.target", implies(sel, n.ge(a[f"n{c}"], one)))
        if rules.max_faces_per_card is not None:
            room = n.num(rules.max_faces_per_card)
            s.track("caravan.face.limit",
                    implies(sel, n.lt(a[f"f{c}"], self._times(room, a[f"n{c}"]))))
        if kind == "face":  # a King or a Queen stays on its card
            changed[f"f{c}"] = n.add(a[f"f{c}"], one)
        elif kind == "jack":  # the card and its faces go, and the Jack
            k = s.int(f"k_{tag}_{p}_{c}")
            s.track("caravan.jack.remove", implies(sel, and_(n.ge(k, zero), n.le(k, a[f"f{c}"]))))
            changed[f"n{c}"] = n.sub(a[f"n{c}"], one)
            changed[f"f{c}"] = n.sub(a[f"f{c}"], k)
            gone = n.add(n.num(2), k)
        else:  # a Joker: stays on its card; matching cards anywhere go, with their faces
            lost = []
            ace = s.bool(f"ace_{tag}_{p}_{c}")  # on an Ace: its suit goes; else its value
            for o in range(6):
                r, g = s.int(f"jr_{tag}_{p}_{c}_{o}"), s.int(f"jg_{tag}_{p}_{c}_{o}")
                keep = one if o == c else zero  # the Joker's own card stays
                removal = and_(n.ge(r, zero), n.ge(g, zero), n.le(n.add(r, keep), a[f"n{o}"]),
                               n.le(g, a[f"f{o}"]))
                s.track("caravan.joker.ace", implies(and_(sel, ace), removal))
                s.track("caravan.joker.number", implies(and_(sel, not_(ace)), removal))
                changed[f"n{o}"] = n.sub(a[f"n{o}"], r)
                changed[f"f{o}"] = n.add(n.sub(a[f"f{o}"], g), one if o == c else zero)
                lost += [r, g]
            gone = n.add(*lost)
        return gone

    def _times(self, k: str, x: str) -> str:
        """k x (k a numeral)."""
        return self.n.add(*([x] * int(k)))

    def _end(self, a: dict, b: dict) -> None:
        """After the move: out of cards ends the game (caravan.end.out); the lanes may (their
        values are not counted here: ``over`` is free otherwise, caravan.end.lanes)."""
        s, n = self.script, self.n
        zero = n.num(0)
        out = or_(*(and_(eq(b[f"h{p}"], zero), eq(b[f"d{p}"], zero)) for p in (0, 1)))
        s.track("caravan.end.out", implies(out, b["over"]))
        s.track("caravan.end.game-over", not_(a["over"]))


def _unsat(script: Script, budget: Budget, failure: str) -> Verdict:
    """A check that must answer unsat (a proof's step); AssertionError with ``failure`` if not."""
    got = _verdict(script, budget)
    if got.answer != "unsat":
        raise AssertionError(failure)
    return got


def _verdict(model: CountModel | Script, budget: Budget, extra: tuple[str, ...] = (),
             without: tuple[str, ...] = ()) -> Verdict:
    script = model.script if isinstance(model, CountModel) else model
    got = script.check(extra, budget.left(), budget.certify, without)
    if got.answer == "unknown":
        from referee.jobs.solve import Timeout

        raise Timeout()
    if got.answer == "unsat" and "cvc5" in got.solvers:
        budget.certified += 1
    return got


# --------------------------------------------------------------------------- termination


def _termination(rules: cv.RuleSet, budget: Budget) -> Certificate:
    """A ranking argument: the rank (2 x cards in hands and decks + cards on the table)
    falls by at least 1 at every move of a game not over, and is never negative."""
    model = CountModel(rules)
    a, b = model.state("a"), model.state("b")
    model.step(a, b, "t")
    n = model.n
    model.script.add(n.ge(model.rank(b), model.rank(a)))
    got = _verdict(model, budget)
    if got.answer == "unsat":
        return Certificate(
            "termination", "proved", bound="2 x (d1 + d2)", method="ranking function checked by z3",
            assumptions=[f"decks of d1 and d2 cards (at least {rules.deck_min} each"
                         + (f", at most {rules.deck_max}" if rules.deck_max else "; no maximum") + ")",
                         "with two 54-card decks: at most 216 plies"],
            reason=("rank = 2 x (cards in hands and decks) + (cards on the table) falls by at least 1 with every "
                    "move: a card played or discarded leaves hand and deck, and a disband needs a card on the caravan"),
            rests_on=got.core)
    return _loop_refutation(rules, budget)


def _loop_refutation(rules: cv.RuleSet, budget: Budget) -> Certificate:
    """The rank can stay the same: find the shortest lasso (a count state met twice) in
    the count model from the start of a game, then the record that plays it.

    Two lemmas, each checked by z3 first, make the search short: the rank never rises,
    and it stays the same only by a disband (of an empty caravan). Each search asks for
    a repetition within K plies (any i < j <= K), so an unsat answer rules out every
    shorter lasso at once."""
    lemmas = []
    for claim in ("rises", "stays"):
        model = CountModel(rules)
        a, b = model.state("a"), model.state("b")
        moves = model.step(a, b, "t")
        if claim == "rises":
            model.script.add(model.n.gt(model.rank(b), model.rank(a)))
        else:
            model.script.add(and_(eq(model.rank(b), model.rank(a)),
                                  *(not_(sel) for key, sel in moves.items() if "disband" in key)))
        got = _verdict(model, budget)
        if got.answer != "unsat":
            raise AssertionError(f"the rank {claim} under {rules.name}")
        lemmas.append(got)
    record, repeated = loop_record(rules)
    if budget.quick:  # the record's repetition, without the search that shows it shortest
        return Certificate(
            "termination", "refuted", method="witness record (pitboss prove shows it is the shortest)",
            assumptions=["any legal decks"],
            reason=(f"the position after ply {repeated[1]} is the position after ply {repeated[0]}: both players "
                    f"may disband an empty caravan turn after turn"),
            rests_on=sorted(set(lemmas[0].core) | set(lemmas[1].core)), witness=record)
    shortest = None
    low = 0
    for k in (4, 8, *range(9, 25)):
        if _lasso(rules, budget, k):
            for j in range(low + 1, k):
                if _lasso(rules, budget, j):
                    k = j
                    break
            shortest = k
            break
        low = k
    if shortest is None:
        raise AssertionError("a rank that can stay, but no lasso within 24 plies")
    if repeated != (shortest - 2, shortest):
        raise AssertionError(f"the loop record repeats at plies {repeated}, the model's shortest lasso is {shortest}")
    return Certificate(
        "termination", "refuted",
        method=f"shortest lasso in the count model (bounded model checking, {shortest} plies)",
        assumptions=["any legal decks; the shortest holds for every deck"],
        reason=(f"the position after ply {shortest} is the position after ply {shortest - 2}: a Joker empties a "
                f"caravan on each side, then both players disband their empty caravan turn after turn, and the "
                f"rules give no draw; z3: no repetition within {shortest - 1} plies of the count model"),
        rests_on=sorted(set(lemmas[0].core) | set(lemmas[1].core)),
        witness=record)


def _lasso(rules: cv.RuleSet, budget: Budget, k: int) -> bool:
    """Does the count model hold a game whose state repeats within ``k`` plies?"""
    model = CountModel(rules)
    n = model.n
    states = [model.state(f"s{i}") for i in range(k + 1)]
    model.start(states[0], (model.script.int("D0"), model.script.int("D1")))
    for i in range(k):
        moves = model.step(states[i], states[i + 1], f"t{i}")
        before, after = model.rank(states[i]), model.rank(states[i + 1])
        model.script.add(n.le(after, before))  # the lemmas
        model.script.add(implies(eq(after, before), or_(*(sel for key, sel in moves.items() if "disband" in key))))
    keys = [key for key in states[0] if key not in ("tag", "over")]
    model.script.add(or_(*(and_(*(eq(states[i][key], states[j][key]) for key in keys))
                           for j in range(1, k + 1) for i in range(j))))
    return _verdict(model, budget).answer == "sat"


def loop_record(rules: cv.RuleSet) -> tuple[str, tuple[int, int]]:
    """A game whose position repeats, and the two plies after which it is the same: player
    2 opens, both players put a 5 on their second and first caravans, player 2's Joker on
    player 1's second 5 removes the other two, then both disband their empty caravan."""
    five_s, five_h, five_d = (next(c for c in cv.standard_deck() if c.rank == 5 and c.suit == s) for s in "SHD")
    joker = cv.standard_deck()[-1]
    numbers = [c for c in cv.standard_deck() if cv.is_number(c) and c.rank != 5]
    d1 = [five_s, five_h, numbers[0]] + numbers[1:28]
    d2 = [numbers[30], five_d, numbers[31], joker] + numbers[32:36] + numbers[1:23]
    state = cv.new_game(rules, (list(d1), list(d2)), 1)
    script: list[cv.Move] = [cv.PlayNumber(numbers[30], 3), cv.PlayNumber(five_s, 0), cv.PlayNumber(five_d, 4),
                             cv.PlayNumber(five_h, 1), cv.PlayNumber(numbers[31], 5), cv.PlayNumber(numbers[0], 2),
                             cv.Attach(joker, 1, 0), cv.Disband(0), cv.Disband(4)]
    seen: dict[tuple, int] = {}
    repeated = (-1, -1)
    for ply, move in enumerate(script, start=1):
        why = cv.check(state, move)
        if why is not None:
            raise AssertionError(f"loop record, ply {ply}: {why.message}")
        state = cv.apply(state, move)
        key = (state.caravans, state.hands, state.decks, state.to_move, state.placed)
        if key in seen and repeated[0] < 0:
            repeated = (seen[key], ply)
        seen.setdefault(key, ply)
    tags = {"Game": "Caravan", "Rules": rules.name, "Player1": "loop-1", "Player2": "loop-2", "First": "2",
            "Deck1": _deck_text(d1), "Deck2": _deck_text(d2), "Result": "*"}
    return write_caravan(tags, script), repeated


# --------------------------------------------------------------------------- value bound


def _value_bound(rules: cv.RuleSet, budget: Budget) -> Certificate:
    """Induction over one caravan's slots (rank, Kings, face cards, value): the bound holds
    at every placement and after every face card."""
    bound = value_bound(rules)
    if bound is None:
        return Certificate(
            "value-bound", "refuted", method="witness record",
            assumptions=["decks of any legal size (holotape sets no maximum)"],
            reason=("a King doubles its card and holotape limits neither the face cards on a card nor the "
                    "decks: with n 54-card sets in each deck a 10 can carry 8n Kings (10 x 2^(8n)); this record "
                    "takes caravan A to 10 x 2^13 = 81920, past any 16-bit number"),
            witness=kings_record(rules, 13))
    s = Script(Numbers(None))
    n = s.numbers
    cap, faces = rules.max_numbers_per_caravan, rules.max_faces_per_card
    per_card = 10 * (1 << faces)  # type: ignore[operator]  # a bounded rule set has both limits
    one_slot = []
    for tag in ("a", "b"):
        r, k, f, v = (s.int(f"{x}_{tag}") for x in "rkfv")
        one_slot.append((r, k, f, v))
    (r0, k0, f0, v0), (r1, k1, f1, v1) = one_slot
    inv = lambda r, k, f, v: and_(n.ge(r, n.num(1)), n.le(r, n.num(10)), n.ge(k, n.num(0)), n.le(k, f),  # noqa: E731
                                  n.le(f, n.num(faces)), n.le(v, n.num(per_card)), n.ge(v, r))  # type: ignore[arg-type]
    s.add(inv(r0, k0, f0, v0))
    king, other, placed = s.bool("king"), s.bool("other"), s.bool("placed")
    s.add(exactly_one([king, other, placed]))
    s.track("caravan.face.limit", implies(or_(king, other), n.lt(f0, n.num(faces))))  # type: ignore[arg-type]
    s.track("caravan.value.king", implies(king, and_(eq(v1, n.double(v0)), eq(k1, n.add(k0, n.num(1))),
                                                     eq(f1, n.add(f0, n.num(1))), eq(r1, r0))))
    s.add(implies(other, and_(eq(v1, v0), eq(k1, k0), eq(f1, n.add(f0, n.num(1))), eq(r1, r0))))
    s.track("caravan.number.end", implies(placed, and_(n.ge(r1, n.num(1)), n.le(r1, n.num(10)), eq(v1, r1),
                                                       eq(k1, n.num(0)), eq(f1, n.num(0)))))
    # v <= 10 x 2^k is what keeps a doubling inside the bound.
    for kings in range(faces + 1):  # type: ignore[operator]
        s.add(implies(eq(k0, n.num(kings)), n.le(v0, n.num(10 << kings))))
        s.add(implies(eq(k1, n.num(kings)), n.le(v1, n.num(10 << kings))))
    s.add(not_(inv(r1, k1, f1, v1)))
    got = _unsat(s, budget, f"the value bound's induction failed under {rules.name}")
    return Certificate(
        "value-bound", "proved", bound=bound, method="induction over a card's slot, checked by z3",
        assumptions=["none: it holds for any legal decks"],
        reason=(f"a number card holds at most {faces} face cards, so at most {faces} Kings: worth at most "
                f"{per_card}; a caravan holds at most {cap} number cards: {cap} x {per_card} = {bound}"),
        rests_on=sorted(set(got.core) | {"caravan.number.max-cards"}))


def kings_record(rules: cv.RuleSet, kings: int) -> str:
    """A holotape game in which both players pile Kings on player 1's first card, a 10:
    each deck holds the Kings of two 54-card sets right after its three opening cards."""
    deck = cv.standard_deck()
    king_cards = [c for c in deck if c.rank == cv.KING] * 2
    ten = next(c for c in deck if c.rank == 10 and c.suit == "S")
    lows = [c for c in deck if cv.is_number(c) and c != ten]
    d1 = [ten, lows[0], lows[1]] + king_cards + lows[2:27]
    d2 = [lows[3], lows[4], lows[5]] + king_cards + lows[6:31]
    state = cv.new_game(rules, (list(d1), list(d2)), 0)
    moves: list[cv.Move] = []
    placed_kings = 0
    while placed_kings < kings:
        p = state.to_move
        if state.in_opening():
            card = ten if p == 0 and state.placed[0] == 0 else next(
                c for c in state.hands[p].known if cv.is_number(c) and c != ten)
            move: cv.Move = cv.PlayNumber(card, next(c for c in cv.own_caravans(p) if not state.caravans[c]))
        else:
            king = next(c for c in state.hands[p].known if c.rank == cv.KING)
            move = cv.Attach(king, 0, 0)
            placed_kings += 1
        why = cv.check(state, move)
        if why is not None:
            raise AssertionError(f"kings record: {why.message}")
        moves.append(move)
        state = cv.apply(state, move)
    tags = {"Game": "Caravan", "Rules": rules.name, "Player1": "kings-1", "Player2": "kings-2", "First": "1",
            "Deck1": _deck_text(d1), "Deck2": _deck_text(d2), "Result": "*"}
    return write_caravan(tags, moves)


def _deck_text(deck: list) -> str:
    """A deck of up to two sets: a card's second copy is tagged with set 2."""
    seen: dict[Any, int] = {}
    words = []
    for card in deck:
        seen[card] = seen.get(card, 0) + 1
        copies = 2 if card.is_joker else 1
        words.append(str(card) if seen[card] <= copies else f"{card}/2")
    return " ".join(words)


# --------------------------------------------------------------------------- no stuck player


def _no_stuck(rules: cv.RuleSet, budget: Budget) -> Certificate:
    """A position not over whose mover has no legal move: impossible, because the ruling
    caravan.end.no-move ends such a game; without it, possible (the example)."""
    model = CountModel(rules)
    s = model.script
    a = model.state("a")
    stuck = s.bool("stuck")  # the mover has no legal move (the count model cannot see ranks)
    s.track("caravan.end.no-move", implies(stuck, a["over"]))
    s.add(and_(stuck, not_(a["over"])))
    got = _verdict(model, budget)
    if got.answer != "unsat":
        raise AssertionError("a stuck player without the no-move ruling")
    example = stuck_record(rules)
    return Certificate(
        "no-stuck", "proved", method="the rules' end conditions checked by z3",
        assumptions=["none"],
        reason=("a player who must move and has no legal move loses (caravan.end.no-move), so no game is left "
                "hanging; the ruling is needed" + (": in the example player 1 holds only face cards in the opening"
                                                   if example else "")),
        rests_on=got.core, example=example)


def stuck_record(rules: cv.RuleSet) -> str | None:
    """A game in which the ruling decides: player 1 is dealt eight face cards and, the
    opening allowing no discard, has no legal move after player 2's first placement."""
    if rules.opening_discard:
        return None
    faces = [c for c in cv.standard_deck() if not cv.is_number(c)]
    numbers = [c for c in cv.standard_deck() if cv.is_number(c)]
    d1 = faces[:8] + numbers[:22]
    d2 = numbers[8:38]
    state = cv.new_game(rules, (list(d1), list(d2)), 1)
    move = cv.PlayNumber(next(c for c in state.hands[1].known if cv.is_number(c)), 3)
    state = cv.apply(state, move)
    assert state.end == "no-move", state.end
    tags = {"Game": "Caravan", "Rules": rules.name, "Player1": "stuck-1", "Player2": "stuck-2", "First": "2",
            "Deck1": " ".join(map(str, d1)), "Deck2": " ".join(map(str, d2)), "Result": "0-1"}
    return write_caravan(tags, [move])


# --------------------------------------------------------------------------- one result


def _one_result(rules: cv.RuleSet, budget: Budget) -> Certificate:
    """Every way a game ends names one winner: three decided lanes cannot give both
    players two, and when both players are out of cards one check comes first."""
    s = Script(Numbers(None))
    lanes = [s.bool(f"lane{i}") for i in range(3)]  # decided for player 2
    won = [s.bool("won1"), s.bool("won2")]
    by_lanes, out1, out2, first = s.bool("by_lanes"), s.bool("out1"), s.bool("out2"), s.bool("mover2")
    ones = [ite(w, "0", "1") for w in lanes]
    twos = [ite(w, "1", "0") for w in lanes]
    s.track("caravan.end.lanes", implies(by_lanes, and_(eq(won[0], f"(>= (+ {' '.join(ones)}) 2)"),
                                                         eq(won[1], f"(>= (+ {' '.join(twos)}) 2)"))))
    order = rules.out_check_order
    # Out of cards (lanes not deciding): the first player found out loses.
    s.track("caravan.end.out", implies(and_(not_(by_lanes), or_(out1, out2)),
                                       and_(implies(and_(out1, not_(out2)), and_(won[1], not_(won[0]))),
                                            implies(and_(out2, not_(out1)), and_(won[0], not_(won[1]))))))
    checked_first = {m: order(m)[0] for m in (0, 1)}
    both = and_(not_(by_lanes), out1, out2)
    s.track(rules.both_out_rule,
            implies(both, ite(first, and_(won[1 - checked_first[1]], not_(won[checked_first[1]])),
                              and_(won[1 - checked_first[0]], not_(won[checked_first[0]])))))
    # The declared result: 1 "1-0", 2 "0-1", 0 "*"; two readings of one game must agree.
    over = or_(by_lanes, out1, out2)
    results = [s.int("r1"), s.int("r2")]
    for r in results:
        s.add(and_(f"(>= {r} 0)", f"(<= {r} 2)"))
        s.track("caravan.result.wrong", implies(over, and_(eq(eq(r, "1"), won[0]), eq(eq(r, "2"), won[1]))))
        s.track("caravan.result.unfinished", implies(not_(over), eq(r, "0")))  # (no forfeit)
    s.add(or_(and_(over, not_(exactly_one(won))), not_(eq(results[0], results[1]))))
    got = _unsat(s, budget, f"a game with no single result under {rules.name}")
    return Certificate(
        "one-result", "proved", method="case split checked by z3", assumptions=["none"],
        reason=("three decided lanes give two to exactly one player; a player out of cards loses, and when both "
                "are out the rule set says who is checked first"),
        rests_on=got.core)


# --------------------------------------------------------------------------- conservation


def _conservation(rules: cv.RuleSet, budget: Budget) -> Certificate:
    """Induction: the start holds hands + decks = the decks; every move keeps hands + decks
    + table + gone the same."""
    model = CountModel(rules)
    a, b = model.state("a"), model.state("b")
    decks = (model.script.int("D0"), model.script.int("D1"))
    n = model.n
    total = n.add(*decks)
    model.script.add(eq(model.total(a), total))
    model.step(a, b, "t")
    model.script.add(not_(eq(model.total(b), total)))
    got = _verdict(model, budget)
    init = CountModel(rules)
    s0 = init.state("s0")
    d0 = (init.script.int("D0"), init.script.int("D1"))
    init.start(s0, d0)
    init.script.add(not_(eq(init.total(s0), init.n.add(*d0))))
    base = _verdict(init, budget)
    if got.answer != "unsat" or base.answer != "unsat":
        raise AssertionError(f"cards are not conserved under {rules.name}")
    return Certificate(
        "conservation", "proved", bound="d1 + d2", method="induction (k = 1) checked by z3",
        assumptions=["decks of d1 and d2 cards"],
        reason="hands + decks + number and face cards on the table + cards discarded or removed = d1 + d2",
        rests_on=sorted(set(got.core) | set(base.core)))


_CHECKS = {
    "termination": _termination,
    "value-bound": _value_bound,
    "no-stuck": _no_stuck,
    "one-result": _one_result,
    "conservation": _conservation,
}
