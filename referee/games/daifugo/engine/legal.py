"""Legal moves: the gifts still owed during the exchange, else every move of the player to
move, each checked by ``check`` (so they are exactly what ``check`` accepts)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from referee.engines.base import JOKER, SUITS, Card
from referee.games.daifugo.engine.cards import (
    _STRENGTH,
    ABOVE_2,
    BELOW_3,
    _suit_pos,
    strongest_cards,
)
from referee.games.daifugo.engine.combos import GROUP, SEQUENCE, SINGLE, Stand
from referee.games.daifugo.engine.play import check
from referee.games.daifugo.engine.rules import RuleSet
from referee.games.daifugo.engine.state import Give, Move, Pass, Play, State


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
        if check(state, play) is None:
            yield play


def _legal_gives(state: State) -> Iterator[Give]:
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
            move = Give(duty.giver, duty.receiver, tuple(cards))
            if check(state, move) is None:
                yield move


def _candidates(state: State, p: int) -> Iterator[Play]:
    """Plays made of ``p``'s cards that could fit the table's kind and size."""
    rules = state.rules
    hand = state.hands[p]
    table = state.table
    jokers = hand.count(JOKER)
    reals = sorted({c for c in hand if not c.is_joker}, key=lambda c: (_STRENGTH[c], _suit_pos(c.suit)))
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
    for g in sizes:
        for s in range(1, 14):
            same = by_strength.get(s, [])
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
    lengths = range(3, hi_max - lo_min + 2) if size is None else (size,)
    for suit in SUITS:
        held = {_STRENGTH[c]: c for c in reals if c.suit == suit}
        if not held:
            continue
        for n in lengths:
            for lo in range(lo_min, hi_max - n + 2):
                span = range(lo, lo + n)
                missing = [x for x in span if x not in held]
                if len(missing) > jokers:
                    continue
                present = [x for x in span if x in held]
                if not present:
                    continue
                for e in range(0, min(jokers - len(missing), len(present) - 1) + 1):
                    for swap in combinations(present, e):
                        jpos = sorted(missing + list(swap))
                        cards = tuple(held[x] for x in span if x not in jpos) + (JOKER,) * len(jpos)
                        yield Play(p, cards, tuple(Stand(suit, x) for x in jpos))
