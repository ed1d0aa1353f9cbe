"""The z3 model of a Daifugo round's set-up and end: the rules around the play that
``step.StepModel`` states.

* ``DealModel``: a deal judged: the player count the setting seats, every card of the
  deck dealt exactly once, the hand sizes of a one-at-a-time deal.
* ``StartModel``: a dealt round: the turn order (listed, or the reverse of the last
  finishing order), the gifts owed (who gives whom how many, and how they are chosen),
  and who leads (the first listed player, the daihinmin, or the holder of the diamond 3).
* ``GiftModel``: one gift of the exchange and the position after it: the duty it meets,
  in the order the setting makes them, from which cards (as dealt, or as held after
  receiving), the strongest, the weakest or any; after the last gift, play starts.
* ``ResultModel``: an ended round's finishing order (normal finishes in order, the player
  left holding cards, forbidden finishers the earlier lower, a dropped daifugo last; after
  a stall, the players still in in any order) and the titles it gives.

Each rule is a constraint tracked under its rule id: what a record states (its hands, its
turn order, its finishing order, its titles) is checked under assumptions, so an unsat
answer's core says which rules the record breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engines.base import ALL_CARDS, JOKER, SUITS, Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.solve.step import Reading, Successor, const
from referee.jobs.solve import Deadline
from referee.jobs.solve.smt import TRUE, Numbers, Script, Verdict, and_, eq, exactly_one, implies, ite, not_, or_

#: The titles by their code in the result model: what ``df.title_names`` gives by place.
TITLES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
DIAMOND_3 = Card(3, "D")
REALS = ALL_CARDS[:-1]


def _power(card: Card) -> int:
    """A card's strength in normal order, the joker strongest (the exchange's order)."""
    return 14 if card.is_joker else df.strength(card)


def _server_rank(card: Card) -> tuple[int, int]:
    """The contest server's order of picking the strongest: the joker, 2, A, K, ...; within
    a rank spade, heart, diamond, club (larger is picked first)."""
    return (_power(card), -SUITS.index(card.suit) if not card.is_joker else 0)


def leader(s: Script, rules: df.RuleSet, seats: Sequence[int], previous: Sequence[int] | None,
           holds_d3: dict[int, str], tag: str) -> str:
    """The first leader of a round (an Int term): the holder of the diamond 3 (uecda;
    seed's round 1 with diamond3-start), the daihinmin from round 2, else the first seat."""
    n = s.numbers
    var = s.int(f"leader_{tag}")
    holder = str(seats[0])
    for q in reversed(list(holds_d3)):
        holder = ite(holds_d3[q], n.num(q), holder)
    if rules.first_leader == "diamond3":
        s.track("daifugo.lead.diamond3", eq(var, holder))
    elif previous is not None:
        s.track("daifugo.lead.later-rounds", eq(var, n.num(previous[-1])))
    elif rules.diamond3_start:
        s.track("daifugo.option.diamond3-start", eq(var, holder))
    else:
        s.track("daifugo.lead.first-round", eq(var, n.num(seats[0])))
    return var


def judged(script: Script, claims: dict[str, str], timeout: float | None = None) -> Verdict:
    """``script`` checked with each claim (name -> term) assumed: an unsat core names the
    rules (and the claims) that cannot all hold."""
    for name, term in claims.items():
        script.track(name, term)
    return script.check((), timeout)


# --------------------------------------------------------------------------- the deal


class DealModel:
    """Hands of ``players`` players dealt under ``rules``: each hand's count of each card,
    and the rules a deal keeps. ``judge`` checks a record's hands against them."""

    def __init__(self, rules: df.RuleSet, players: int, deal_order: Sequence[int] | None = None) -> None:
        self.rules, self.players = rules, players
        s = self.script = Script(Numbers(None))
        n = s.numbers
        self.count = s.int("players")
        s.track("daifugo.deal.players", and_(n.ge(self.count, n.num(rules.min_players)),
                                             n.le(self.count, n.num(rules.max_players))))
        jokers = rules.jokers(players)
        cards = (*REALS, JOKER)
        self.held = {(p, c): s.int(f"h_{p}_{c}") for p in range(players) for c in cards}
        for c in cards:
            most = jokers if c.is_joker else 1
            total = n.add(*(self.held[p, c] for p in range(players)))
            s.add(and_(*(n.ge(self.held[p, c], n.num(0)) for p in range(players))))
            s.track("daifugo.deal.duplicate", n.le(total, n.num(most)))
            s.track("daifugo.deal.missing", n.ge(total, n.num(most)))
        deck = 52 + jokers
        sizes = [n.add(*(self.held[p, c] for c in cards)) for p in range(players)]
        q, r = divmod(deck, players)
        order = list(deal_order) if deal_order is not None else list(range(players))
        expected = [q + 1] * r + [q] * (players - r)
        rotations = [expected] if rules.deal_start == "first" else [expected[i:] + expected[:i] for i in range(players)]
        fits = or_(*(and_(*(eq(sizes[p], n.num(k)) for p, k in zip(order, want, strict=True))) for want in rotations))
        dealt_all = eq(n.add(*sizes), n.num(deck))
        s.track("daifugo.deal.count", implies(dealt_all, fits))

    def judge(self, hands: Sequence[Sequence[Card]], timeout: float | None = None) -> Verdict:
        """The record's hands (one per player) against the rules of a deal."""
        n = self.script.numbers
        said = [eq(self.count, n.num(len(hands)))]
        for (p, c), var in self.held.items():
            said.append(eq(var, n.num(list(hands[p]).count(c) if p < len(hands) else 0)))
        return judged(self.script, {"the record's hands": and_(*said)}, timeout)


# --------------------------------------------------------------------------- the start of a round


@dataclass(frozen=True)
class Start:
    """What the start model says of a dealt round."""

    seats: tuple[int, ...]
    duties: tuple[df.Duty, ...]
    #: The first leader, when no gift is owed (else ``GiftModel`` says who, after the last).
    leader: int | None


class StartModel:
    """A round dealt ``hands`` after ``previous`` (a finishing order; None: a first
    round), under ``rules``: its turn order (``seats``, when the record or the server
    gives them), the gifts owed and how each is chosen, and its first leader."""

    def __init__(self, rules: df.RuleSet, hands: Sequence[Sequence[Card]], previous: Sequence[int] | None,
                 seats: Sequence[int] | None = None) -> None:
        self.rules, self.hands, self.previous = rules, tuple(map(tuple, hands)), previous
        k = self.k = len(hands)
        s = self.script = Script(Numbers(None))
        n = s.numbers
        self.seat = [s.int(f"seat_{i}") for i in range(k)]
        if rules.seating == "given":
            given = list(seats) if seats is not None else list(range(k))
            s.add(and_(*(eq(v, n.num(q)) for v, q in zip(self.seat, given, strict=True))))
        elif previous is None:
            s.track("daifugo.lead.first-round", and_(*(eq(v, n.num(i)) for i, v in enumerate(self.seat))))
        else:
            s.track("daifugo.lead.later-rounds", and_(*(eq(v, n.num(previous[k - 1 - i]))
                                                        for i, v in enumerate(self.seat))))
        self._duties()
        d3 = {q: const(DIAMOND_3 in hand) for q, hand in enumerate(self.hands)}
        order = tuple(seats) if seats is not None else (df.default_seats(rules, k, previous) or tuple(range(k)))
        self.leader = leader(s, rules, order, previous, d3, "start")

    def _duties(self) -> None:
        """Who gives whom how many cards (``owe``), and how each giver chooses them."""
        s, n, rules, prev = self.script, self.script.numbers, self.rules, self.previous
        k = self.k
        self.owe = {(g, r): s.int(f"owe_{g}_{r}") for g in range(k) for r in range(k) if g != r}
        pairs: dict[tuple[int, int], int] = {}
        if prev is not None and rules.exchange != "none" and k >= 2:
            pairs[prev[-1], prev[0]] = pairs[prev[0], prev[-1]] = 2
            if k >= 4:
                pairs[prev[-2], prev[1]] = pairs[prev[1], prev[-2]] = 1
        for (g, r), var in self.owe.items():
            s.track("daifugo.exchange.duty", eq(var, n.num(pairs.get((g, r), 0))))
        lower = set() if prev is None else {prev[-1], prev[-2]} if k >= 4 else {prev[-1]}
        self.how = {g: s.int(f"how_{g}") for g in range(k)}  # 0 strongest, 1 weakest, 2 any
        for g, var in self.how.items():
            if g in lower:
                s.track("daifugo.exchange.strongest", eq(var, n.num(0)))
            elif rules.exchange == "weakest":
                s.track("daifugo.exchange.weakest", eq(var, n.num(1)))
            else:
                s.track("daifugo.exchange.choice", eq(var, n.num(2)))

    def judge_seats(self, order: Sequence[int], timeout: float | None = None) -> Verdict:
        """A record's turn order against the rules of seating."""
        n = self.script.numbers
        return judged(self.script, {"the record's turn order": and_(*(eq(v, n.num(q))
                                                                      for v, q in zip(self.seat, order, strict=True)))},
                      timeout)

    def start(self, timeout: float | None = None) -> Start:
        got = self.script.check((), timeout)
        if got.answer != "sat":
            raise ValueError(f"no start: {got.core}")
        values = Reading(got.model)
        seats = tuple(values.number(v) for v in self.seat)
        owed = {(g, r): values.number(v) for (g, r), v in self.owe.items() if values.number(v)}
        choose = ("strongest", "weakest", "choice")
        # The gifts in the order they are made: the lower titles' first (the contest
        # server makes those transfers itself), each pair from the top titles down.
        made = sorted(owed, key=lambda gr: (values.number(self.how[gr[0]]) != 0, self._title(gr[1], gr[0])))
        duties = tuple(df.Duty(g, r, owed[g, r], choose[values.number(self.how[g])],
                               self.rules.exchange_style == "server" and values.number(self.how[g]) == 0)
                       for g, r in made)
        return Start(seats, duties, None if duties else values.number(self.leader))

    def _title(self, high: int, low: int) -> int:
        prev = self.previous or ()
        return min(prev.index(high), prev.index(low)) if high in prev and low in prev else 0


# --------------------------------------------------------------------------- the exchange


class GiftModel:
    """One gift of the exchange in ``state`` (gifts still owed) and the position after it,
    as one z3 model whose solutions are the (gift, position after) pairs."""

    def __init__(self, state: df.State) -> None:
        if state.phase != "exchange":
            raise ValueError("the gift model takes a round in its exchange")
        self.state, self.rules = state, state.rules
        s = self.script = Script(Numbers(None))
        duties = state.pending
        self.which = [s.bool(f"duty_{i}") for i in range(len(duties))]
        s.track("daifugo.exchange.duty", exactly_one(self.which))
        server_first = self.rules.exchange_style == "server" and any(d.server for d in duties)
        for i, d in enumerate(duties):
            if self.rules.exchange_style == "server":
                s.track("daifugo.exchange.order", implies(self.which[i], const(d.server or not server_first)))
        self.gives: dict[tuple[int, Card], str] = {}
        for i, d in enumerate(duties):
            self._duty(i, d)
        self._after()

    def _source(self, d: df.Duty) -> tuple[Card, ...]:
        st = self.state
        simultaneous = self.rules.exchange_style == "simultaneous" and st.dealt is not None
        return st.dealt[d.giver] if simultaneous else st.hands[d.giver]  # type: ignore[index]  # simultaneous: dealt is set

    def _duty(self, i: int, d: df.Duty) -> None:
        """Gift ``i`` (duty ``d``) when chosen: how many cards, from which, chosen how."""
        s, n, st = self.script, self.script.numbers, self.state
        on = self.which[i]
        hand, source = st.hands[d.giver], self._source(d)
        cards = sorted(set(hand) | set(source), key=_power)
        picks = {c: (s.int(f"g_{i}_joker") if c.is_joker else s.bool(f"g_{i}_{c}")) for c in cards}
        count = n.add(*(v if c.is_joker else ite(v, n.num(1), n.num(0)) for c, v in picks.items()))
        s.add(implies(not_(on), eq(count, n.num(0))))
        s.track("daifugo.exchange.duty", implies(on, eq(count, n.num(d.count))))
        for c, v in picks.items():
            self.gives[i, c] = v
            taken = n.gt(v, n.num(0)) if c.is_joker else v
            if c.is_joker:
                s.add(n.ge(v, n.num(0)))
                s.track("daifugo.hand.possession", n.le(v, n.num(hand.count(c))))
                if self.rules.exchange_style == "simultaneous" and st.dealt is not None:
                    s.track("daifugo.exchange.simultaneous", n.le(v, n.num(source.count(c))))
            else:
                s.track("daifugo.hand.possession", implies(v, const(c in hand)))
                if self.rules.exchange_style == "simultaneous" and st.dealt is not None:
                    s.track("daifugo.exchange.simultaneous", implies(v, const(c in source)))
            self._choice(d, on, c, taken, picks, source)

    def _choice(self, d: df.Duty, on: str, c: Card, taken: str, picks: dict[Card, str],
                source: tuple[Card, ...]) -> None:
        """Card ``c`` given under duty ``d``: no card of the source left out may be stronger
        (the strongest; the server's own order, no ties), or weaker (the weakest)."""
        s, n = self.script, self.script.numbers
        for other, w in picks.items():
            if other == c or other not in source:
                continue
            left = (n.lt(w, n.num(source.count(other))) if other.is_joker else not_(w))
            if d.choose == "strongest":
                better = _server_rank(other) > _server_rank(c) if d.server else _power(other) > _power(c)
                if better:
                    s.track("daifugo.exchange.strongest", implies(and_(on, taken), not_(left)))
            elif d.choose == "weakest" and _power(other) < _power(c):
                s.track("daifugo.exchange.weakest", implies(and_(on, taken), not_(left)))

    def _after(self) -> None:
        """The hands after the gift; once none is owed, play starts with the first leader."""
        s, st = self.script, self.state
        duties = st.pending
        holds: dict[int, str] = {}
        for q, hand in enumerate(st.hands):
            gone = [and_(self.which[i], self.gives[i, DIAMOND_3]) for i, d in enumerate(duties)
                    if d.giver == q and (i, DIAMOND_3) in self.gives]
            came = [and_(self.which[i], self.gives[i, DIAMOND_3]) for i, d in enumerate(duties)
                    if d.receiver == q and (i, DIAMOND_3) in self.gives]
            holds[q] = or_(and_(const(DIAMOND_3 in hand), not_(or_(*gone))), *came)
        self.leader = leader(s, self.rules, st.seats, st.previous, holds, "gift")

    def successors(self, deadline: Deadline | None = None) -> list[Successor]:
        """Every gift the model allows and the position after it."""
        timeout = (lambda: None) if deadline is None else deadline.remaining
        shown = [(w, "Bool") for w in self.which]
        shown += [(v, "Int" if c.is_joker else "Bool") for (_, c), v in self.gives.items()]
        out = []
        for model in self.script.models(shown, timeout):
            if deadline is not None:
                deadline.solver_calls += 1
            out.append(self._read(Reading(model)))
        return out

    def _read(self, values: Reading) -> Successor:
        st = self.state
        i = next(j for j, w in enumerate(self.which) if values.flag(w))
        d = st.pending[i]
        cards: list[Card] = []
        for (j, c), v in self.gives.items():
            if j == i:
                cards += [c] * (values.number(v) if c.is_joker else int(values.flag(v)))
        gift = tuple(sorted(cards))
        hands = list(st.hands)
        rest = list(hands[d.giver])
        for c in gift:
            rest.remove(c)
        hands[d.giver] = tuple(rest)
        hands[d.receiver] = hands[d.receiver] + gift
        pending = st.pending[:i] + st.pending[i + 1:]
        after = st._replace(hands=tuple(hands), pending=pending, events=())
        if not pending:
            first = values.number(self.leader)
            after = after._replace(phase="play", to_move=first, last_player=first)
        return Successor(df.Give(d.giver, d.receiver, gift), after)


# --------------------------------------------------------------------------- the result


class ResultModel:
    """The finishing order and the titles of an ended round (``state`` over)."""

    def __init__(self, state: df.State) -> None:
        if not state.over:
            raise ValueError("the result model takes a round that is over")
        self.state = state
        k = len(state.hands)
        s = self.script = Script(Numbers(None))
        n = s.numbers
        self.place = [s.int(f"place_{q}") for q in range(k)]
        remaining = [q for q in state.seats if state.is_in(q)]
        top = len(state.finished)
        for i, q in enumerate(state.finished):
            s.track("daifugo.round.end", eq(self.place[q], n.num(i)))
        if state.stalled:  # after a stall the players still in take the places left, in any order
            for q in remaining:
                s.track("daifugo.end.stall", and_(n.ge(self.place[q], n.num(top)),
                                                  n.lt(self.place[q], n.num(top + len(remaining)))))
            s.track("daifugo.end.stall", f"(distinct {' '.join(self.place[q] for q in remaining)})"
                    if len(remaining) > 1 else TRUE)
        else:
            for i, q in enumerate(remaining):
                s.track("daifugo.round.end", eq(self.place[q], n.num(top + i)))
        low = top + len(remaining)
        for i, q in enumerate(reversed(state.fouled)):  # the earlier forbidden finisher ranks lower
            s.track("daifugo.finish.forbidden-order", eq(self.place[q], n.num(low + i)))
        for i, q in enumerate(state.dropped):
            s.track("daifugo.option.miyako-ochi", eq(self.place[q], n.num(low + len(state.fouled) + i)))
        names = df.title_names(k)
        self.title = [s.int(f"title_{q}") for q in range(k)]
        for q in range(k):
            for place, name in enumerate(names):
                s.track("daifugo.result.titles", implies(eq(self.place[q], n.num(place)),
                                                         eq(self.title[q], n.num(TITLES.index(name)))))

    def judge(self, finish: Sequence[int] | None = None, titles: Sequence[str] | None = None,
              timeout: float | None = None) -> Verdict:
        """A record's finishing order (player ids, first to last) and titles (by player id)
        against the rules."""
        n = self.script.numbers
        claims = {}
        if finish is not None:
            claims["daifugo.result.finish"] = and_(*(eq(self.place[q], n.num(i)) for i, q in enumerate(finish)))
        if titles is not None:
            claims["the record's titles"] = and_(*(eq(self.title[q], n.num(TITLES.index(t)))
                                                   for q, t in enumerate(titles)))
        return judged(self.script, claims, timeout)

    def order(self, timeout: float | None = None) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """A finishing order the rules give (the only one, but after a stall) and its titles."""
        got = self.judge(timeout=timeout)
        values = Reading(got.model)
        places = [values.number(v) for v in self.place]
        return (tuple(sorted(range(len(places)), key=places.__getitem__)),
                tuple(TITLES[values.number(v)] for v in self.title))

