"""Legal moves: the gifts still owed during the exchange, else every move of the player to
move, each judged by ``check`` (a candidate play, made of the mover's own cards, by the part
of ``check`` that reads it against the table), so they are exactly what ``check`` accepts;
and ``random_move``, one of them drawn at random without judging them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
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
)
from referee.games.daifugo.engine.combos import GROUP, SEQUENCE, SINGLE, Stand
from referee.games.daifugo.engine.play import _resolve, check
from referee.games.daifugo.engine.rules import RuleSet
from referee.games.daifugo.engine.state import Give, Move, Pass, Play, State

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
    a play drawn from the candidates (``_candidates``) one at a time at random, each checked
    until one is legal, so every legal play is equally likely (as ``rng.choice`` over the
    plays of ``legal_moves`` would make it); the pass when no play is legal. During the
    exchange: a gift drawn the same way from those still owed. Raises ValueError when the
    round is over."""
    if state.over:
        raise ValueError("the round is over: there is no move to make")
    if state.phase == "exchange":
        return _draw(rng, list(_gift_candidates(state)), lambda g: check(state, g) is None)  # type: ignore[return-value]  # an exchange still owed has a legal gift
    p = state.to_move
    assert p is not None
    may_pass = state.table is not None or state.rules.leader_may_pass
    if may_pass and rng.random() < pass_rate:
        return Pass(p)
    play = _draw(rng, list(_candidates(state, p)), lambda m: _resolve(state, m)[1] is None)
    if play is not None:
        return play
    if not may_pass:  # pragma: no cover - a leader always holds a single
        raise AssertionError("a leader with no legal play")
    return Pass(p)


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
    rules = state.rules
    hand = state.hands[p]
    table = state.table
    jokers = hand.count(JOKER)
    reals = sorted({c for c in hand if c.rank}, key=_CANDIDATE_ORDER.__getitem__)
    kind = size = None
    if table is not None:
        kind, size = (SINGLE, 1) if table.lone_joker else (table.kind, table.size)
    if kind in (None, SINGLE):
        for c in reals:
            yield Play(p, (c,))
        if jokers:
            yield Play(p, (JOKER,))
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
    for g in sizes:
        # Only the jokers can make a group of a strength the hand lacks.
        strengths = range(1, 14) if jokers >= g else sorted(by_strength)
        for s in strengths:
            same = by_strength.get(s, none)
            for k in range(0, min(jokers, g) + 1):
                r = g - k
                if r > len(same) or (r == 0 and g < 2):
                    continue
                for sub in combinations(same, r):
                    if g == 5:
                        if r == 4 and k == 1:
                            yield Play(p, sub + (JOKER,), (Stand("", s),))
                        continue
                    free = [x for x in SUITS if all(c.suit != x for c in sub)]
                    choices = combinations(free, k) if rules.suit_lock else [tuple(free[:k])]
                    for js in choices:
                        if len(js) == k:
                            yield Play(p, sub + (JOKER,) * k, tuple(Stand(x, s) for x in js))


def _sequence_candidates(rules: RuleSet, p: int, reals: list[Card], jokers: int, size: int | None) -> Iterator[Play]:
    lo_min, hi_max = (BELOW_3, ABOVE_2) if rules.joker_out_of_range else (1, 13)
    for suit in SUITS:
        held = {_STRENGTH[c]: c for c in reals if c.suit == suit}
        if not held:
            continue
        # The spans (length, lowest strength) the suit's cards and the jokers can fill: from
        # each lowest strength, grow the span until it lacks more cards than there are jokers.
        spans = []
        # Without a joker a span starts at a card held; with one it may start anywhere.
        for lo in (range(lo_min, hi_max + 1) if jokers else sorted(held)):
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
            for e in range(0, min(jokers - len(missing_at), len(present) - 1) + 1):
                for swap in combinations(present, e):
                    jpos = sorted(missing_at + list(swap))
                    cards = tuple(held[x] for x in span if x not in jpos) + (JOKER,) * len(jpos)
                    yield Play(p, cards, tuple(Stand(suit, x) for x in jpos))
