"""Daifugo's properties, proved or refuted per setting (the game's ``prove`` part): each
preset, and each preset with one option toggled.

The proofs run on the rules' *count model* of a round: for each player the cards held,
whether they passed in this trick and whether they went out (normally, on a forbidden
finish, or dropped by miyako-ochi); whether a play is on the table; the passes since the
last play (the contest server's stall rule); the gifts still owed; the cards played. A
move is a gift, a play of one or more held cards, or a pass, as the setting allows it;
every rule a constraint named by its rule id (spec/daifugo*.toml). Every concrete move is
one of the model's (which cards form a combination only narrows it), so what holds of
every step of the model holds of every round. Each check is made for every player count
the preset seats. See docs/prove.md.
"""

from __future__ import annotations

from typing import Any

from referee.games.daifugo import engine as df
from referee.games.daifugo import settings as daifugo_settings
from referee.jobs.certificate import Budget, Certificate
from referee.jobs.solve import Timeout
from referee.jobs.solve.smt import FALSE, TRUE, Numbers, Script, Verdict, and_, eq, exactly_one, implies, ite, not_, or_

PROPERTIES = {
    "termination": "every round ends within a number of plies",
    "no-stuck": "the player to move always has a legal move",
    "trick-ends": "every trick ends: it cannot go on without end",
    "one-result": "every ended round gives each player exactly one place",
    "conservation": "the deck's cards are all dealt and none is made or lost by the exchange or play",
}

#: Gifts owed at most at the start of a round (daihinmin and daifugo, hinmin and fugo).
MOST_GIFTS = 4


def settings() -> list[str]:
    """Each preset, then the preset with each option toggled (``settings.flipped``)."""
    out = []
    for preset in df.PRESETS:
        base = df.ruleset(preset)
        out.append(daifugo_settings.label(base))
        for name in df.OPTIONS:
            other = df.ruleset(preset, {name: daifugo_settings.flipped(base, name)})
            label = daifugo_settings.label(other)
            if label not in out:
                out.append(label)
    return out


def setting_name(text: str) -> str:
    return daifugo_settings.label(daifugo_settings.parse(text))


def setting_text(setting: str) -> str:
    return setting


def check(setting: str, prop: str, budget: Budget) -> Certificate:
    rules = daifugo_settings.parse(setting)
    return _CHECKS[prop](rules, budget)


def _counts(rules: df.RuleSet) -> range:
    return range(rules.min_players, rules.max_players + 1)


def _deck(rules: df.RuleSet, n: int) -> int:
    """Cards in the deck for n players (daifugo.deal.missing)."""
    return 52 + rules.jokers(n)


# --------------------------------------------------------------------------- the count model


class RoundModel:
    """The count model of a round of ``players`` players under ``rules``."""

    def __init__(self, rules: df.RuleSet, players: int) -> None:
        self.rules = rules
        self.players = players
        self.n = Numbers(None)
        self.script = Script(self.n)

    def state(self, tag: str) -> dict[str, Any]:
        s, n = self.script, self.n
        k = self.players
        st: dict[str, Any] = {
            "h": [s.int(f"h{i}_{tag}") for i in range(k)],
            "passed": [s.bool(f"ps{i}_{tag}") for i in range(k)],
            "fin": [s.bool(f"fin{i}_{tag}") for i in range(k)],
            "foul": [s.bool(f"foul{i}_{tag}") for i in range(k)],
            "drop": [s.bool(f"drop{i}_{tag}") for i in range(k)],
            "table": s.bool(f"table_{tag}"),
            "mover": s.int(f"mv_{tag}"),
            "stall": s.int(f"stall_{tag}"),
            "owed": s.int(f"owed_{tag}"),
            "pile": s.int(f"pile_{tag}"),
            "over": s.bool(f"over_{tag}"),
        }
        zero = n.num(0)
        for i in range(k):
            s.add(n.ge(st["h"][i], zero))
            # a player out of the round holds no cards, unless dropped (their cards leave play)
            s.add(implies(or_(st["fin"][i], st["foul"][i]), eq(st["h"][i], zero)))
        s.add(and_(n.ge(st["stall"], zero), n.ge(st["owed"], zero), n.ge(st["pile"], zero),
                   n.ge(st["mover"], zero), n.lt(st["mover"], n.num(k))))
        # While gifts are owed nobody has played: the round is as dealt (every hand holds at
        # least 3 cards: a deal gives each player 6 or more, and a gift is 1 or 2 cards).
        s.track("daifugo.exchange.pending", implies(n.gt(st["owed"], zero), and_(
            not_(st["table"]), eq(st["stall"], zero), eq(st["pile"], zero),
            *(and_(n.ge(st["h"][i], n.num(3)), not_(st["passed"][i]), not_(st["fin"][i]), not_(st["foul"][i]),
                   not_(st["drop"][i])) for i in range(k)))))
        return st

    def is_in(self, st: dict, i: int) -> str:
        return and_(self.n.gt(st["h"][i], self.n.num(0)), not_(st["drop"][i]))

    def held(self, st: dict) -> str:
        """The cards held by the players still in."""
        n = self.n
        return n.add(*(ite(self.is_in(st, i), st["h"][i], n.num(0)) for i in range(self.players)))

    def waiting(self, st: dict) -> str:
        """The players still in who have not passed in this trick."""
        return self.n.count(and_(self.is_in(st, i), not_(st["passed"][i])) for i in range(self.players))

    def step(self, a: dict, b: dict, tag: str) -> dict[str, str]:
        """One move from ``a`` (the round not over) to ``b``: a gift while gifts are owed,
        else the mover's play or pass, and what follows (going out, the trick's end, the
        round's end)."""
        s, n = self.script, self.n
        rules = self.rules
        k = self.players
        zero, one = n.num(0), n.num(1)
        give, play, pas = s.bool(f"give_{tag}"), s.bool(f"play_{tag}"), s.bool(f"pass_{tag}")
        s.add(exactly_one([give, play, pas]))
        s.track("daifugo.end.game-over", not_(a["over"]))
        s.track("daifugo.exchange.pending", implies(n.gt(a["owed"], zero), give))
        s.track("daifugo.exchange.duty", implies(give, n.gt(a["owed"], zero)))
        mover = [s.bool(f"who{i}_{tag}") for i in range(k)]
        s.add(implies(or_(play, pas), exactly_one(mover)))
        for i in range(k):
            s.track("daifugo.turn.order", implies(mover[i], and_(eq(a["mover"], n.num(i)), self.is_in(a, i))))
            s.track("daifugo.pass.sat-out", implies(mover[i], not_(a["passed"][i])))
            s.track("daifugo.turn.finished", implies(mover[i], not_(or_(a["fin"][i], a["foul"][i], a["drop"][i]))))
        cards = s.int(f"cards_{tag}")
        s.track("daifugo.combo.invalid", implies(play, n.ge(cards, one)))
        pass_rule = "daifugo.pass.empty-stage" if rules.leader_may_pass else "daifugo.pass.leader"
        if not rules.leader_may_pass:
            s.track(pass_rule, implies(pas, a["table"]))
        # The hands: a gift moves cards between two hands; a play takes the mover's cards.
        gifts_in = [s.int(f"gin{i}_{tag}") for i in range(k)]
        gifts_out = [s.int(f"gout{i}_{tag}") for i in range(k)]
        for i in range(k):
            mine = and_(play, mover[i])
            s.track("daifugo.hand.possession", implies(mine, n.le(cards, a["h"][i])))
            gift_in, gift_out = gifts_in[i], gifts_out[i]
            s.add(and_(n.ge(gift_in, zero), n.ge(gift_out, zero)))
            s.track("daifugo.exchange.duty", n.le(gift_out, n.num(2)))
            s.add(implies(not_(give), and_(eq(gift_in, zero), eq(gift_out, zero))))
            s.track("daifugo.hand.possession",
                    eq(b["h"][i], n.sub(n.add(a["h"][i], gift_in), n.add(gift_out, ite(mine, cards, zero)))))
            s.add(implies(not_(mine), eq(b["drop"][i], a["drop"][i])) if not rules.miyako_ochi else TRUE)
        s.track("daifugo.exchange.duty", implies(give, eq(n.add(*gifts_in), n.add(*gifts_out))))
        s.add(eq(b["owed"], ite(give, n.sub(a["owed"], one), a["owed"])))
        s.track("daifugo.round.end", eq(b["pile"], n.add(a["pile"], ite(play, cards, zero))))
        self._going_out(a, b, play, mover)
        cut, cleared = self._trick(a, b, tag, give, play, pas, mover)
        # The stall rule (uecda): passes since the last play; at the limit the round ends.
        s.add(eq(b["stall"], ite(play, zero, ite(pas, n.add(a["stall"], one), a["stall"]))))
        ins = n.count(self.is_in(b, i) for i in range(k))
        ending = n.le(ins, one)
        if rules.stall_limit is not None:
            ending = or_(ending, n.ge(b["stall"], n.num(rules.stall_limit)))
            s.track("daifugo.end.stall", implies(n.ge(b["stall"], n.num(rules.stall_limit)), b["over"]))
        s.track("daifugo.round.end", eq(b["over"], ending))
        return {"give": give, "play": play, "pass": pas, "cut": cut, "cleared": cleared}

    def _going_out(self, a: dict, b: dict, play: str, mover: list[str]) -> None:
        """Going out: normally, or on a forbidden finish; miyako-ochi may drop the daifugo."""
        s, n = self.script, self.n
        rules = self.rules
        zero = n.num(0)
        for i in range(self.players):
            out_now = and_(play, mover[i], eq(b["h"][i], zero))
            rule = "daifugo.option.forbidden-finish" if rules.forbidden_finish else "daifugo.round.end"
            finish = or_(b["fin"][i], b["foul"][i]) if rules.forbidden_finish else b["fin"][i]
            s.track(rule, implies(out_now, and_(finish, not_(and_(b["fin"][i], b["foul"][i])))))
            if not rules.forbidden_finish:
                s.track(rule, implies(out_now, not_(b["foul"][i])))
            s.add(implies(not_(out_now), and_(eq(b["fin"][i], a["fin"][i]), eq(b["foul"][i], a["foul"][i]))))
            if rules.miyako_ochi:
                s.track("daifugo.option.miyako-ochi", implies(and_(b["drop"][i], not_(a["drop"][i])),
                                                              and_(play, self.is_in(a, i), not_(mover[i]))))
                s.add(implies(a["drop"][i], b["drop"][i]))
            else:
                s.add(eq(b["drop"][i], a["drop"][i]))

    def _trick(self, a: dict, b: dict, tag: str, give: str, play: str, pas: str,
               mover: list[str]) -> tuple[str, str]:
        """The trick: a play puts cards on the table (eight-cut and spade3 may clear it at
        once); a pass marks the passer; the trick ends by the setting's rule. Returns the
        cut and the trick's end."""
        s, n = self.script, self.n
        rules = self.rules
        k = self.players
        one = n.num(1)
        cut = s.bool(f"cut_{tag}")
        if not (rules.eight_cut or rules.spade3):
            s.track("daifugo.option.eight-cut", not_(cut))
        s.add(implies(not_(play), not_(cut)))
        cleared = s.bool(f"clear_{tag}")
        end_rule = {"others": "daifugo.trick.end", "all": "daifugo.trick.clear",
                    "all-but-one": "daifugo.option.trick-end"}[rules.trick_end]
        marked = [or_(a["passed"][i], and_(pas, mover[i])) for i in range(k)]
        unmarked = [and_(self.is_in(b, i), not_(marked[i])) for i in range(k)]
        if rules.trick_end == "all-but-one":
            done = not_(or_(*(and_(unmarked[i], unmarked[j]) for i in range(k) for j in range(i + 1, k))))
        else:
            done = not_(or_(*unmarked))
        # after a play or a pass: nobody (or, all-but-one, at most one) left waiting ends it;
        # under "others" also the player on the table being the only one left
        s.track(end_rule, implies(and_(not_(give), done), cleared))
        owner_left = and_(or_(play, a["table"]), eq(n.count(unmarked), one)) if rules.trick_end == "others" else FALSE
        s.track(end_rule, implies(cleared, or_(cut, done, owner_left)))
        s.add(implies(give, not_(cleared)))
        s.add(implies(cut, cleared))
        for i in range(k):
            s.track("daifugo.pass.sat-out", eq(b["passed"][i], and_(not_(cleared), marked[i])))
        s.track("daifugo.trick.leader", eq(b["table"], and_(not_(cleared), or_(play, a["table"]))))
        return cut, cleared

    def start(self, st: dict) -> None:
        """A dealt round: every card of the deck in some hand, nobody out, nothing on the
        table; gifts owed from round 2 on (none, or the exchange's)."""
        s, n = self.script, self.n
        k = self.players
        s.track("daifugo.deal.missing", eq(n.add(*st["h"]), n.num(_deck(self.rules, k))))
        s.track("daifugo.deal.count", and_(*(n.ge(h, n.num(1)) for h in st["h"])))
        s.add(and_(*(not_(x) for i in range(k) for x in (st["passed"][i], st["fin"][i], st["foul"][i],
                                                              st["drop"][i]))))
        gifts = 0 if self.rules.exchange == "none" else (MOST_GIFTS if k >= 4 else 2)
        s.track("daifugo.exchange.duty", n.le(st["owed"], n.num(gifts)))
        s.add(and_(not_(st["table"]), eq(st["stall"], n.num(0)), eq(st["pile"], n.num(0)), not_(st["over"])))


def _verdict(script: Script, budget: Budget, extra: tuple[str, ...] = ()) -> Verdict:
    got = script.check(extra, budget.left(), budget.certify)
    if got.answer == "unknown":
        raise Timeout()
    if got.answer == "unsat" and "cvc5" in got.solvers:
        budget.certified += 1
    return got


def _lex_less(n: Numbers, after: list[str], before: list[str]) -> str:
    """``after`` < ``before`` lexicographically."""
    terms = []
    for i in range(len(after)):
        same = [eq(after[j], before[j]) for j in range(i)]
        terms.append(and_(*same, n.lt(after[i], before[i])))
    return or_(*terms)


def _all_counts(rules: df.RuleSet, budget: Budget, build) -> tuple[bool, list[str], int | None]:
    """Run ``build(model)`` (which adds the negated claim) for every player count; (all
    unsat, the union of the cores, the first count that failed)."""
    core: set[str] = set()
    for k in _counts(rules):
        model = RoundModel(rules, k)
        build(model)
        got = _verdict(model.script, budget)
        if got.answer != "unsat":
            return False, sorted(core), k
        core |= set(got.core)
    return True, sorted(core), None


def _players(rules: df.RuleSet) -> str:
    low, high = rules.min_players, rules.max_players
    return f"{low} players" if low == high else f"{low} to {high} players"


# --------------------------------------------------------------------------- the properties


def _rank(model: RoundModel, st: dict) -> list[str]:
    n = model.n
    rules = model.rules
    if rules.stall_limit is not None:
        return [st["owed"], model.held(st), n.sub(n.num(rules.stall_limit), st["stall"])]
    return [st["owed"], model.held(st), ite(st["table"], n.num(1), n.num(0)), model.waiting(st)]


def _termination(rules: df.RuleSet, budget: Budget) -> Certificate:
    def build(model: RoundModel) -> None:
        a, b = model.state("a"), model.state("b")
        model.step(a, b, "t")
        n = model.n
        if rules.stall_limit is not None:
            model.script.add(n.lt(a["stall"], n.num(rules.stall_limit)))
            # the rank must also stay a natural number while the round goes on
            below = and_(not_(b["over"]), n.ge(b["stall"], n.num(rules.stall_limit)))
        else:
            below = FALSE
        model.script.add(or_(not_(_lex_less(n, _rank(model, b), _rank(model, a))), below))

    ok, core, failed = _all_counts(rules, budget, build)
    if not ok:
        return Certificate("termination", "unknown", method="ranking function",
                           reason=f"the ranking does not fall at every move with {failed} players")
    most = max(_counts(rules))
    deck = _deck(rules, most)
    if rules.stall_limit is not None:
        limit = rules.stall_limit
        bound = MOST_GIFTS + deck + (deck + 1) * (limit - 1)
        rank = (f"(gifts owed, cards held, {limit} - passes since the last play) falls lexicographically with "
                f"every move: the leader may pass, so only the stall rule ends a run of passes")
        formula = f"4 + D + (D + 1) x {limit - 1} for a deck of D cards"
    else:
        bound = MOST_GIFTS + (deck + 1) * most
        rank = ("(gifts owed, cards held, a play on the table, players still in who have not passed) falls "
                "lexicographically with every move: a play spends cards, a pass marks the passer, and a trick "
                "ends only by passes or a cut")
        formula = "4 + (D + 1) x n for n players and a deck of D cards"
    return Certificate("termination", "proved", bound=bound, method="lexicographic ranking function checked by z3",
                       assumptions=[_players(rules), f"bound {formula} ({bound} with {most} players)"],
                       reason=rank, rests_on=core)


def _no_stuck(rules: df.RuleSet, budget: Budget) -> Certificate:
    def build(model: RoundModel) -> None:
        a = model.state("a")
        s, n = model.script, model.n
        i = s.int("who")
        s.add(and_(n.ge(i, n.num(0)), n.lt(i, n.num(model.players))))
        s.add(and_(not_(a["over"]), eq(a["owed"], n.num(0))))
        for p in range(model.players):
            # the turn goes to a player still in who has not passed
            s.track("daifugo.turn.order", implies(eq(i, n.num(p)), and_(model.is_in(a, p), not_(a["passed"][p]))))
        held = n.add(*(ite(eq(i, n.num(p)), a["h"][p], n.num(0)) for p in range(model.players)))
        pass_ok, lead_ok = s.bool("pass_ok"), s.bool("lead_ok")
        if rules.leader_may_pass:
            s.track("daifugo.pass.empty-stage", pass_ok)
        else:
            s.track("daifugo.pass.leader", eq(pass_ok, a["table"]))
        # a single card is a combination, and the leader plays any combination
        s.track("daifugo.combo.invalid", implies(and_(not_(a["table"]), n.ge(held, n.num(1))), lead_ok))
        s.track("daifugo.play.same-kind", implies(lead_ok, not_(a["table"])))
        s.add(and_(not_(pass_ok), not_(lead_ok)))

    ok, core, failed = _all_counts(rules, budget, build)
    if not ok:
        return Certificate("no-stuck", "refuted", method="one step checked by z3",
                           reason=f"a player to move without a legal move with {failed} players")
    lead = ("the leader may pass" if rules.leader_may_pass else
            "a leader holds at least one card, and a single card is a combination any leader may play")
    return Certificate("no-stuck", "proved", method="one step checked by z3", assumptions=[_players(rules)],
                       reason=f"a follower may always pass; {lead}", rests_on=core)


def _trick_ends(rules: df.RuleSet, budget: Budget) -> Certificate:
    def build(model: RoundModel) -> None:
        a, b = model.state("a"), model.state("b")
        s, n = model.script, model.n
        model.step(a, b, "t")
        s.add(a["table"])
        # the trick goes on, yet neither the cards held nor the players waiting fell
        s.add(b["table"])
        s.add(not_(_lex_less(n, [model.held(b), model.waiting(b)], [model.held(a), model.waiting(a)])))

    ok, core, failed = _all_counts(rules, budget, build)

    def ends(model: RoundModel) -> None:
        a, b = model.state("a"), model.state("b")
        s = model.script
        model.step(a, b, "t")
        s.add(and_(b["table"], not_(b["over"])))
        s.add(not_(or_(*(and_(model.is_in(b, i), not_(b["passed"][i])) for i in range(model.players)))))

    ok2, core2, failed2 = _all_counts(rules, budget, ends)
    if not (ok and ok2):
        return Certificate("trick-ends", "unknown", method="ranking function",
                           reason=f"not shown with {failed or failed2} players")
    return Certificate("trick-ends", "proved", method="ranking function within a trick, checked by z3",
                       assumptions=[_players(rules)],
                       reason=("inside a trick every move spends cards or marks a passer, and once nobody still in "
                               "is left to move the trick has ended"),
                       rests_on=sorted(set(core) | set(core2)))


def _one_result(rules: df.RuleSet, budget: Budget) -> Certificate:
    def build(model: RoundModel) -> None:
        a, b = model.state("a"), model.state("b")
        s, n = model.script, model.n
        k = model.players
        group = lambda st, i: [st["fin"][i], st["foul"][i], st["drop"][i], model.is_in(st, i)]  # noqa: E731
        for i in range(k):
            s.add(exactly_one(group(a, i)))
        model.step(a, b, "t")
        broken = or_(*(not_(exactly_one(group(b, i))) for i in range(k)))
        over_many = and_(b["over"], n.gt(n.count(model.is_in(b, i) for i in range(k)), n.num(1)),
                         TRUE if rules.stall_limit is None else not_(n.ge(b["stall"], n.num(rules.stall_limit))))
        s.add(or_(broken, over_many))

    ok, core, failed = _all_counts(rules, budget, build)
    if not ok:
        return Certificate("one-result", "refuted", method="induction (k = 1) checked by z3",
                           reason=f"a player in no place or in two, with {failed} players")
    extra = ("; after 20 passes the players still in take the remaining places in a random order, one each"
             if rules.stall_limit is not None else "")
    return Certificate("one-result", "proved", method="induction (k = 1) checked by z3", assumptions=[_players(rules)],
                       reason=("each player is at every moment exactly one of: still in, out normally, out on a "
                               "forbidden finish, dropped; the finishing order lists each group once, and a round "
                               "ends only when at most one player is still in" + extra),
                       rests_on=core)


def _conservation(rules: df.RuleSet, budget: Budget) -> Certificate:
    def build(model: RoundModel) -> None:
        a, b = model.state("a"), model.state("b")
        s, n = model.script, model.n
        deck = n.num(_deck(rules, model.players))
        s.add(eq(n.add(*a["h"], a["pile"]), deck))
        model.step(a, b, "t")
        s.add(not_(eq(n.add(*b["h"], b["pile"]), deck)))

    def base(model: RoundModel) -> None:
        a = model.state("a")
        model.start(a)
        model.script.add(not_(eq(model.n.add(*a["h"], a["pile"]), model.n.num(_deck(rules, model.players)))))

    ok, core, failed = _all_counts(rules, budget, build)
    ok2, core2, _ = _all_counts(rules, budget, base)
    if not (ok and ok2):
        return Certificate("conservation", "refuted", method="induction (k = 1) checked by z3",
                           reason=f"cards made or lost with {failed} players")
    decks = sorted({_deck(rules, k) for k in _counts(rules)})
    return Certificate("conservation", "proved", bound=" or ".join(map(str, decks)),
                       method="induction (k = 1) checked by z3", assumptions=[_players(rules)],
                       reason="hands + cards played = the deck (52 cards and the jokers) after the deal, every gift "
                              "and every play",
                       rests_on=sorted(set(core) | set(core2)))


_CHECKS = {
    "termination": _termination,
    "no-stuck": _no_stuck,
    "trick-ends": _trick_ends,
    "one-result": _one_result,
    "conservation": _conservation,
}
