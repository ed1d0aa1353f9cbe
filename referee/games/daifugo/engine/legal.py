"""Legal moves: the gifts still owed during the exchange, else every move of the player to
move, each judged by ``check`` (a candidate play, made of the mover's own cards, by the part
of ``check`` that reads it against the table), so they are exactly what ``check`` accepts;
and ``random_move``, one of them drawn at random without judging them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from random import Random
from typing import TypeVar

from referee.engines.base import ALL_CARDS, JOKER, SUITS, Card
from referee.games.daifugo.engine.cards import (
    _STRENGTH,
    ABOVE_2,
    BELOW_3,
    _suit_pos,
    strongest_cards,
    weakest_cards,
)
from referee.games.daifugo.engine.combos import GROUP, SEQUENCE, SINGLE, Combo, Stand, known_readings
from referee.games.daifugo.engine.play import _resolve, _stronger, _waived, check, judged
from referee.games.daifugo.engine.rules import RuleSet
from referee.games.daifugo.engine.state import Give, Move, Pass, Play, State, _new

T = TypeVar("T")


def legal_moves(state: State) -> Iterator[Move]:
    """Every legal move now: the gifts still owed during the exchange (every choice), else
    the pass (where allowed) and every play of the player to move, each joker with an
    explicit reading (every suit a joker may take only where suit-lock makes it matter)."""
    if state.over:
        return
    if state.phase == "exchange":
        yield from _legal_gives(state)
        return
    p = state.to_move
    assert p is not None
    if state.table is not None or state.rules.leader_may_pass:
        yield Pass(p)
    for play in _candidates(state, p):
        if _resolve(state, play)[1] is None:  # the candidates pass the turn and possession checks
            yield play


def random_move(state: State, rng: Random, pass_rate: float = 0.0) -> Move:
    """A legal move drawn at random, judging only as many candidates as it takes.

    During play: the pass with probability ``pass_rate`` where the pass is legal; otherwise
    a play drawn uniformly among the legal plays (those ``legal_moves`` lists), the pass
    when there is none. The mover's candidates of the shape the table asks for
    (``_candidates``) are kept, weakest first, while the hand stays the same; ``check``'s
    own comparison (``_stronger``, monotone in a play's strength) finds by bisection the
    run of them strong enough, and candidates from that run (and those a comparison cannot
    rank: a lone joker, a joker read several ways) are judged by ``check``'s reading of
    the play one at a time at random until one is legal. So a pass forced by a weak hand
    costs two comparisons, not a judgement of every candidate. During the exchange: a duty
    still owed at random; a gift the duty names (the strongest or weakest cards) is
    proposed as the engine picks them, a free choice as cards drawn at random from the
    hand; each proposal is judged by ``check`` (every owed gift is drawn from the full list
    should a proposal fail). Raises ValueError when the round is over."""
    if state.over:
        raise ValueError("the round is over: there is no move to make")
    if state.phase == "exchange":
        return _random_gift(state, rng)
    p = state.to_move
    assert p is not None
    table = state.table
    may_pass = table is not None or state.rules.leader_may_pass
    if may_pass and rng.random() < pass_rate:
        return _PASSES[p] if p < len(_PASSES) else Pass(p)
    memo = _memo(state.rules, p, state.hands[p])
    extras: Sequence[tuple[Play, list[Combo] | None]]
    if table is None:
        pool = memo.shape(None)
        a, b, extras = 0, len(pool), ()
    else:
        shape = (SINGLE, 1) if table.lone_joker else (table.kind, table.size)
        pool = memo.shape(shape)
        extras = memo.extras[shape]
        if table.lone_joker or not pool or _waived(state, pool[0][1][0]):  # type: ignore[index]  # ranked: read
            a, b = 0, len(pool)  # no strength decides alone: every candidate is judged
        else:
            a, b = _beating(state, table, pool)
    play = _draw_judged(rng, state, pool, a, b, extras)
    if play is not None:
        return play
    if not may_pass:  # pragma: no cover - a leader always holds a single
        raise AssertionError("a leader with no legal play")
    return _PASSES[p] if p < len(_PASSES) else Pass(p)


#: One pass per player id (a move is a value; the same one serves every pass).
_PASSES = tuple(Pass(p) for p in range(8))


def _beating(state: State, table: Combo, pool: list[tuple[Play, list[Combo] | None]]) -> tuple[int, int]:
    """The run ``pool[a:b]`` of one shape's candidates (weakest first by their lowest card)
    that ``_stronger`` says beat ``table``: it holds for all the strong end or all the weak
    end, so the run's edge is found by bisection."""
    n = len(pool)
    first = _stronger(state, pool[0][1][0], table)  # type: ignore[index]  # a shape's ranked plays have their readings
    if first == _stronger(state, pool[-1][1][0], table):  # type: ignore[index]  # as above
        return (0, n) if first else (0, 0)
    lo, hi = 0, n - 1  # _stronger is `first` at lo, not at hi
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if _stronger(state, pool[mid][1][0], table) == first:  # type: ignore[index]  # as above
            lo = mid
        else:
            hi = mid
    return (0, hi) if first else (hi, n)


def _draw_judged(rng: Random, state: State, pool: list[tuple[Play, list[Combo] | None]], a: int, b: int,
                 extras: Sequence[tuple[Play, list[Combo] | None]]) -> Play | None:
    """A play drawn uniformly from ``pool[a:b]`` and ``extras`` among those ``check`` accepts
    (``judged``, so that ``apply`` finds its reading), or None."""
    k = b - a + len(extras)
    if not k:
        return None
    i = int(rng.random() * k)
    play, found = pool[a + i] if i < b - a else extras[i - (b - a)]
    if _legal(state, play, found):
        return play
    rest = pool[a:b] + list(extras)
    rest[i] = rest[-1]
    rest.pop()
    pick = _draw(rng, rest, lambda entry: _legal(state, *entry))
    return None if pick is None else pick[0]


def _legal(state: State, play: Play, found: list[Combo] | None) -> bool:
    if found is None:
        found = known_readings(state.rules, play.cards, play.joker_as)
    return judged(state, play, found)[1] is None


class _Memo:
    """One player's candidates while their hand stays the same object: by shape (None:
    every shape, a leader's), each a list of (play, its readings); a shape's plays that a
    strength comparison ranks (one reading, no lone joker) are kept weakest first, the
    others in ``extras``. A leader's list leaves the readings to be made (None) when drawn.

    After a play (``after``) the new hand's lists are its parent's less the plays that use
    a card now gone, made when first asked for."""

    __slots__ = ("rules", "p", "hand", "shapes", "extras", "parent", "gone", "jokers")

    def __init__(self, rules: RuleSet, p: int, hand: tuple[Card, ...], parent: _Memo | None = None,
                 gone: frozenset[Card] = frozenset(), jokers: int | None = None):
        self.rules, self.p, self.hand = rules, p, hand
        self.shapes: dict[tuple[str, int] | None, list[tuple[Play, list[Combo] | None]]] = {}
        self.extras: dict[tuple[str, int] | None, list[tuple[Play, list[Combo] | None]]] = {}
        #: The memo of the hand this one came from, the cards gone since, and (when a joker
        #: of two went) how many jokers a play may still use.
        self.parent, self.gone, self.jokers = parent, gone, jokers

    def shape(self, shape: tuple[str, int] | None) -> list[tuple[Play, list[Combo] | None]]:
        got = self.shapes.get(shape)
        if got is None and not self._inherit(shape):
            rules = self.rules
            extra: list[tuple[Play, list[Combo] | None]]
            if shape is None:
                got, extra = [(m, None) for m in _plays(rules, self.p, self.hand, None, None)], []
            else:
                entries = [(m, known_readings(rules, m.cards, m.joker_as))
                           for m in _plays(rules, self.p, self.hand, *shape)]
                got = [e for e in entries if len(e[1]) == 1 and not e[1][0].lone_joker]
                got.sort(key=_weakest_first)
                extra = [e for e in entries if len(e[1]) != 1 or e[1][0].lone_joker]
            self.shapes[shape], self.extras[shape] = got, extra
            return got
        return self.shapes[shape]

    def _inherit(self, shape: tuple[str, int] | None) -> bool:
        """Take ``shape``'s lists from the nearest ancestor that has them, less the plays
        that use a card gone since; False when none has them."""
        parent = self.parent
        if parent is None or (shape not in parent.shapes and not parent._inherit(shape)):
            self.parent = None if parent is None or not parent.shapes else parent
            return False
        gone, jokers = self.gone, self.jokers
        for mine, theirs in ((self.shapes, parent.shapes), (self.extras, parent.extras)):
            entries = theirs[shape]
            if jokers is not None:
                mine[shape] = [e for e in entries if gone.isdisjoint(e[0].cards) and e[0].cards.count(JOKER) <= jokers]
            else:
                mine[shape] = [e for e in entries if gone.isdisjoint(e[0].cards)]
        return True

    def after(self, hand: tuple[Card, ...]) -> _Memo | None:
        """The memo of ``hand`` when it is this hand less some cards (the player played
        them), since a hand's candidates are those of any larger hand that it still holds;
        None otherwise."""
        old = self.hand
        if len(hand) >= len(old):
            return None
        held = set(old)
        if not held.issuperset(hand):
            return None
        gone = held.difference(hand)
        jokers, was = hand.count(JOKER), old.count(JOKER)
        if len(gone) + (was - jokers if jokers else 0) != len(old) - len(hand):
            return None  # not a sub-multiset (a card more often than it was held)
        return _Memo(self.rules, self.p, hand, self, frozenset(gone), jokers if jokers < was else None)


def _weakest_first(entry: tuple[Play, list[Combo] | None]) -> int:
    return entry[1][0].low  # type: ignore[index]  # a shape's ranked plays have their readings


#: Each player's ``_Memo`` (keyed by player id; a table seats at most 8). Bound: one per
#: player id. Reason: a hand is one object from its owner's play to their next, and in
#: between they face several tables of the same shape; after a play the next hand's
#: memo is the last one less the cards played.
_MEMOS: dict[int, _Memo] = {}


def _memo(rules: RuleSet, p: int, hand: tuple[Card, ...]) -> _Memo:
    memo = _MEMOS.get(p)
    if memo is None or memo.hand is not hand or memo.rules is not rules:
        derived = memo.after(hand) if memo is not None and memo.rules is rules else None
        memo = _MEMOS[p] = derived if derived is not None else _Memo(rules, p, hand)
    return memo


def _random_gift(state: State, rng: Random) -> Move:
    """``random_move`` during the exchange (see there)."""
    rules = state.rules
    server_first = rules.exchange_style == "server" and any(d.server for d in state.pending)
    duties = [d for d in state.pending if d.server or not server_first]
    duty = duties[int(rng.random() * len(duties))]
    source = state.dealt[duty.giver] if (rules.exchange_style == "simultaneous"
                                         and state.dealt is not None) else state.hands[duty.giver]
    if duty.server or duty.choose == "strongest":
        cards = strongest_cards(source, duty.count)
    elif duty.choose == "weakest":
        cards = weakest_cards(source, duty.count)
    else:
        ordered = sorted(source)
        cards = tuple(sorted(ordered[i] for i in rng.sample(range(len(ordered)), duty.count)))
    gift = Give(duty.giver, duty.receiver, tuple(cards))
    if check(state, gift) is None:
        return gift
    return _draw(rng, list(_gift_candidates(state)), lambda g: check(state, g) is None)  # type: ignore[return-value]  # an exchange still owed has a legal gift


def _draw(rng: Random, pool: list[T], ok: Callable[[T], bool]) -> T | None:
    """A uniformly drawn element of ``pool`` for which ``ok`` holds (None if none does),
    judging elements one at a time in random order (``pool`` is consumed)."""
    while pool:
        i = rng.randrange(len(pool))
        pick = pool[i]
        if ok(pick):
            return pick
        pool[i] = pool[-1]
        pool.pop()
    return None


def _gift_candidates(state: State) -> Iterator[Give]:
    """The gifts that could meet a duty owed now (``_legal_gives`` checks them)."""
    server_first = state.rules.exchange_style == "server" and any(d.server for d in state.pending)
    for duty in state.pending:
        if server_first and not duty.server:
            continue
        source = state.dealt[duty.giver] if (state.rules.exchange_style == "simultaneous"
                                             and state.dealt is not None) else state.hands[duty.giver]
        if duty.server:
            options: Iterable[tuple[Card, ...]] = [strongest_cards(source, duty.count)]
        else:
            options = sorted(set(combinations(sorted(source), duty.count)))
        for cards in options:
            yield Give(duty.giver, duty.receiver, tuple(cards))


def _legal_gives(state: State) -> Iterator[Give]:
    for move in _gift_candidates(state):
        if check(state, move) is None:
            yield move


#: Candidates list real cards weakest first (normal order), ties S, H, D, C.
_CANDIDATE_ORDER = {c: (_STRENGTH[c], _suit_pos(c.suit)) for c in ALL_CARDS if c.rank}


def _candidates(state: State, p: int) -> Iterator[Play]:
    """Plays made of ``p``'s cards that could fit the table's kind and size."""
    table = state.table
    kind = size = None
    if table is not None:
        kind, size = (SINGLE, 1) if table.lone_joker else (table.kind, table.size)
    return _plays(state.rules, p, state.hands[p], kind, size)


def _plays(rules: RuleSet, p: int, hand: tuple[Card, ...], kind: str | None, size: int | None) -> Iterator[Play]:
    """Plays made of ``hand``'s cards of ``kind`` and ``size`` (None: any)."""
    jokers = hand.count(JOKER)
    reals = sorted({c for c in hand if c.rank}, key=_CANDIDATE_ORDER.__getitem__)
    if kind in (None, SINGLE):
        for c in reals:
            yield _new(Play, (p, (c,), ()))
        if jokers:
            yield _new(Play, (p, (JOKER,), ()))
    if kind in (None, GROUP):
        sizes = range(2, rules.max_group + 1) if size is None else (size,)
        yield from _group_candidates(rules, p, reals, jokers, sizes)
    if kind in (None, SEQUENCE) and rules.sequences:
        yield from _sequence_candidates(rules, p, reals, jokers, size)


def _group_candidates(rules: RuleSet, p: int, reals: list[Card], jokers: int, sizes: Iterable[int]) -> Iterator[Play]:
    by_strength: dict[int, list[Card]] = {}
    for c in reals:
        by_strength.setdefault(_STRENGTH[c], []).append(c)
    none: list[Card] = []
    if not jokers:  # real cards only: groups of the strengths held more than once
        for g in sizes:
            for same in by_strength.values():
                if len(same) >= g:
                    for sub in combinations(same, g):
                        yield _new(Play, (p, sub, ()))
        return
    for g in sizes:
        # Only the jokers can make a group of a strength the hand lacks.
        strengths = range(1, 14) if jokers >= g else sorted(by_strength)
        for s in strengths:
            same = by_strength.get(s, none)
            for k in range(0, min(jokers, g) + 1):
                r = g - k
                if r > len(same) or (r == 0 and g < 2):
                    continue
                if not k:  # real cards only: no joker to read
                    for sub in combinations(same, r):
                        yield _new(Play, (p, sub, ()))
                    continue
                stands = _STANDS[s]
                for sub in combinations(same, r):
                    if g == 5:
                        if r == 4 and k == 1:
                            yield _new(Play, (p, sub + (JOKER,), (stands[""],)))
                        continue
                    used = {c.suit for c in sub}
                    free = [x for x in SUITS if x not in used]
                    choices = combinations(free, k) if rules.suit_lock else [tuple(free[:k])]
                    for js in choices:
                        if len(js) == k:
                            yield _new(Play, (p, sub + (JOKER,) * k, tuple([stands[x] for x in js])))


def _sequence_candidates(rules: RuleSet, p: int, reals: list[Card], jokers: int, size: int | None) -> Iterator[Play]:
    lo_min, hi_max = (BELOW_3, ABOVE_2) if rules.joker_out_of_range else (1, 13)
    by_suit: dict[str, dict[int, Card]] = {}
    for c in reals:
        by_suit.setdefault(c.suit, {})[_STRENGTH[c]] = c
    for suit in SUITS:
        held = by_suit.get(suit)
        if held is None or len(held) + jokers < 3:
            continue
        # The spans (length, lowest strength) the suit's cards and the jokers can fill: from
        # each lowest strength, grow the span until it lacks more cards than there are jokers.
        spans = []
        # Without a joker a span starts at a card held; with them it starts at most as many
        # strengths below the weakest card held as there are jokers, and at the strongest held
        # at the latest (a span holds at least one real card and lacks no more than the jokers).
        starts = range(max(lo_min, min(held) - jokers), min(hi_max, max(held)) + 1) if jokers else sorted(held)
        for lo in starts:
            missing = 0
            for hi in range(lo, hi_max + 1):
                if hi not in held:
                    missing += 1
                    if missing > jokers:
                        break
                n = hi - lo + 1
                if n >= 3 and (size is None or n == size) and missing < n:
                    spans.append((n, lo))
        for n, lo in sorted(spans):
            span = range(lo, lo + n)
            missing_at = [x for x in span if x not in held]
            present = [x for x in span if x in held]
            if not missing_at and not jokers:  # real cards only
                yield _new(Play, (p, tuple([held[x] for x in span]), ()))
                continue
            stands = _SUIT_STANDS[suit]
            for e in range(0, min(jokers - len(missing_at), len(present) - 1) + 1):
                for swap in combinations(present, e):
                    jpos = sorted(missing_at + list(swap)) if swap else missing_at
                    cards = tuple([held[x] for x in span if x not in jpos]) + (JOKER,) * len(jpos)
                    yield _new(Play, (p, cards, tuple([stands[x] for x in jpos])))


#: Every joker reading, by strength then suit ("" the uecda joker row), and by suit then
#: strength: candidates share them instead of making their own.
_STANDS = {s: {x: Stand(x, s) for x in (*SUITS, "")} for s in range(BELOW_3, ABOVE_2 + 1)}
_SUIT_STANDS = {x: {s: _STANDS[s][x] for s in range(BELOW_3, ABOVE_2 + 1)} for x in (*SUITS, "")}
