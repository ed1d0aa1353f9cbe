"""Legal moves: the gifts still owed during the exchange, else every move of the player to
move, each judged by ``check`` (a candidate play, made of the mover's own cards, by the part
of ``check`` that reads it against the table), so they are exactly what ``check`` accepts;
and ``random_move``, one of them drawn at random without judging them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from random import Random
from typing import NamedTuple, TypeVar

from referee.engines.base import ALL_CARDS, JOKER, SUITS, Card
from referee.games.daifugo.engine.cards import (
    _STRENGTH,
    ABOVE_2,
    BELOW_3,
    _suit_pos,
    strongest_cards,
    weakest_cards,
)
from referee.games.daifugo.engine.combos import (
    GROUP,
    SEQUENCE,
    SEQUENCE_MIN,
    SINGLE,
    Combo,
    Stand,
    known_readings,
)
from referee.games.daifugo.engine.judging import _stronger, _waived, check, judged
from referee.games.daifugo.engine.rules import RuleSet, memo_for
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
        yield _pass(p)
    table = state.table
    kind, size = (None, None) if table is None else (table.kind, table.size)  # a lone joker: a single
    for entry in _entries(state.rules, state.hands[p], kind, size):
        play = _legal(state, p, entry)  # a candidate passes the turn and possession checks
        if play is not None:
            yield play


def random_move(state: State, rng: Random, pass_rate: float = 0.0) -> Move:
    """A legal move drawn at random, judging only as many candidates as it takes.

    During play: the pass with probability ``pass_rate`` where the pass is legal; otherwise
    a play drawn uniformly among the legal plays (those ``legal_moves`` lists), the pass
    when there is none. The mover's candidates of the shape the table asks for
    (its kind and size; ``_entries``) are kept, weakest first, while the hand only loses cards; ``check``'s
    own comparison (``_stronger``, monotone in a play's strength) finds by bisection the
    run of them strong enough, and candidates from that run (and those a comparison cannot
    rank: a lone joker, a joker read several ways) are judged by ``check``'s reading of
    the play one at a time at random until one is legal. So a pass forced by a weak hand
    costs two comparisons, not a judgement of every candidate. During the exchange: a duty
    still owed at random; a gift the duty names (the strongest or weakest cards) is
    proposed as the engine picks them, a free choice as cards drawn at random from the
    hand; each proposal is judged by ``check`` (every owed gift is drawn from the full list
    should a proposal fail). Raises ValueError when the round is over."""
    phase = state.phase
    if phase != "play":
        if phase == "over":
            raise ValueError("the round is over: there is no move to make")
        return _random_gift(state, rng)
    p = state.to_move
    assert p is not None
    table = state.table
    rules = state.rules
    may_pass = table is not None or rules.leader_may_pass
    if may_pass and rng.random() < pass_rate:
        return _pass(p)
    hand = state.hands[p]
    memo = _MEMOS.get(p)  # _memo(), its usual case inlined: once a move
    if memo is None or memo.hand is not hand or memo.rules is not rules:
        memo = _memo(rules, p, hand)
    if table is None:
        got = memo.shapes.get(None)
        if got is None or got[0] != memo.mask:
            got = memo.lists(None)
        pool = got[1]
        play = _draw_judged(rng, state, p, pool, 0, len(pool), ())
    else:
        shape = (table.kind, table.size)  # a lone joker is a single (LONE_JOKER): only a single beats it
        got = memo.shapes.get(shape)
        if got is None or got[0] != memo.mask:
            got = memo.lists(shape)
        _, pool, extras = got
        if not pool or table.lone_joker or _waived(state, pool[0][2][0]):  # type: ignore[index]  # a shape's lists are read
            a, b = 0, len(pool)  # no strength decides alone: every candidate is judged
        else:  # _beating(), its ends inlined: most tables are beaten by all or none
            first = _stronger(state, pool[0][2][0], table)  # type: ignore[index]  # as above
            if first == _stronger(state, pool[-1][2][0], table):  # type: ignore[index]  # as above
                a, b = 0, len(pool) if first else 0
            else:
                a, b = _beating(state, table, pool, first)
        if a == b and not extras:
            return _pass(p)  # no candidate: the pass is forced
        play = _draw_judged(rng, state, p, pool, a, b, extras)
    if play is not None:
        return play
    if not may_pass:  # pragma: no cover - a leader always holds a single
        raise AssertionError("a leader with no legal play")
    return _pass(p)


def _pass(p: int) -> Pass:
    """``p``'s pass (``_PASSES``)."""
    return _PASSES[p] if p < len(_PASSES) else Pass(p)


#: One pass per player id (a move is a value; the same one serves every pass).
_PASSES = tuple(Pass(p) for p in range(8))

#: A candidate play (whoever makes it): its cards, its jokers' readings, its readings as a
#: combination (``known_readings``; None in a leader's list until it is drawn), and its
#: cards as a mask (``_mask``: it fits a hand when its mask lies within the hand's).
Entry = tuple[tuple[Card, ...], tuple[Stand | None, ...], list[Combo] | None, int]


def _beating(state: State, table: Combo, pool: list[Entry], first: bool) -> tuple[int, int]:
    """The run ``pool[a:b]`` of one shape's candidates (weakest first by their lowest card)
    that ``_stronger`` says beat ``table``, when it holds for one end of the pool (``first``:
    the weakest) and not the other: it holds for all the strong end or all the weak end, so
    the run's edge is found by bisection."""
    lo, hi = 0, len(pool) - 1  # _stronger is `first` at lo, not at hi
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if _stronger(state, pool[mid][2][0], table) == first:  # type: ignore[index]  # a shape's lists are read
            lo = mid
        else:
            hi = mid
    return (0, hi) if first else (hi, len(pool))


def _draw_judged(rng: Random, state: State, p: int, pool: list[Entry], a: int, b: int,
                 extras: Sequence[Entry]) -> Play | None:
    """``p``'s play drawn uniformly from ``pool[a:b]`` and ``extras`` among those ``check``
    accepts (``judged``, so that ``apply`` finds its reading), or None."""
    k = b - a + len(extras)
    if not k:
        return None
    i = int(rng.random() * k)
    play = _legal(state, p, pool[a + i] if i < b - a else extras[i - (b - a)])
    if play is not None:
        return play
    rest = pool[a:b] + list(extras) if extras else pool[a:b]
    rest[i] = rest[-1]
    rest.pop()
    entry = _draw(rng, rest, lambda e: _legal(state, p, e) is not None)
    return None if entry is None else _new(Play, (p, entry[0], entry[1]))


def _legal(state: State, p: int, entry: Entry) -> Play | None:
    """The candidate ``entry`` as ``p``'s play if ``check`` accepts it (``judged``, so
    that ``apply`` finds its reading), else None."""
    cards, joker_as, found, _ = entry
    play = _new(Play, (p, cards, joker_as))
    if judged(state, play, found or known_readings(state.rules, cards, joker_as))[1] is None:
        return play
    return None


class _Memo(NamedTuple):
    """One player's candidates while their hand only loses cards: by shape (None: every
    shape, a leader's), each kept as (the mask of the hand they were listed for, the
    candidates, the extras); a shape's candidates that a strength comparison ranks (one
    reading, no lone joker) are kept weakest first, the others in the extras (a leader's
    list keeps every candidate, in ``_entries``' order, and no extras).

    A smaller hand's candidates are those of a larger hand that it still holds, so the
    memo of the next hand (``_memo``) shares this one's ``shapes`` and each list is
    filtered by mask when asked for; a list listed for a hand that is not a superset of
    this one (another memo's) is listed afresh instead."""

    rules: RuleSet
    hand: tuple[Card, ...]
    #: ``_mask(hand)``: -1 when the hand holds a card twice (nothing is kept then).
    mask: int
    shapes: dict[tuple[str, int] | None, tuple[int, list[Entry], list[Entry]]]

    def lists(self, shape: tuple[str, int] | None) -> tuple[int, list[Entry], list[Entry]]:
        """The hand's candidates of ``shape`` and their extras (see the class)."""
        mask = self.mask
        got = self.shapes.get(shape)
        if got is not None and mask >= 0:
            had = got[0]
            if had == mask:
                return got
            if not mask & ~had:  # a superset's list: less the candidates using a card gone
                gone = had ^ mask
                kept = got[2]
                got = (mask, [e for e in got[1] if not e[3] & gone],
                       [e for e in kept if not e[3] & gone] if kept else kept)
                self.shapes[shape] = got
                return got
        if shape is None:
            got = (mask, _entries(self.rules, self.hand, None, None), [])
        else:
            kind, size = shape
            extras: list[Entry] = []
            ranked = _entries(self.rules, self.hand, kind, size, extras)
            if kind == SEQUENCE:  # by suit, then lowest card: sorted here (singles and groups come weakest first)
                ranked.sort(key=_weakest_first)
            got = (mask, ranked, extras)
        self.shapes[shape] = got
        return got


def _weakest_first(entry: Entry) -> int:
    return entry[2][0].low  # type: ignore[index]  # a shape's lists are read


#: Each player's ``_Memo`` (keyed by player id; a table seats at most 8). Bound: one per
#: player id. Reason: a hand is one object from its owner's play to their next, and in
#: between they face several tables of the same shape; after a play the next hand's
#: lists are the last one's less the candidates that use a card played.
_MEMOS: dict[int, _Memo] = {}


def _memo(rules: RuleSet, p: int, hand: tuple[Card, ...]) -> _Memo:
    memo = _MEMOS.get(p)
    if memo is None or memo.hand is not hand or memo.rules is not rules:
        mask = _mask(hand)
        if mask < 0:  # a card held twice: no mask says it, so nothing is kept
            return _new(_Memo, (rules, hand, mask, {}))
        if memo is not None and memo.rules is rules and memo.mask >= 0 and not mask & ~memo.mask:
            memo = _MEMOS[p] = _new(_Memo, (rules, hand, mask, memo.shapes))
        else:
            memo = _MEMOS[p] = _new(_Memo, (rules, hand, mask, {}))
    return memo


#: Each real card's bit in a mask of cards; the jokers take the bits above them, one more
#: per joker (two jokers: both bits), so that "a play's cards lie within a hand" is
#: "its mask lies within the hand's".
_BIT = {c: 1 << i for i, c in enumerate(ALL_CARDS[:-1])}
_REALS = (1 << 52) - 1
_BIT[JOKER] = 1 << 52  # summed: the number of jokers, above the real cards' bits
_JOKER_BITS = tuple(((1 << n) - 1) << 52 for n in range(9))


def _mask(cards: Sequence[Card]) -> int:
    """The mask of ``cards``; -1 when a real card comes twice (or there are more than 8 jokers).

    The sum of the cards' bits holds each real card's bit and, above them, the number of
    jokers; a card held twice carries into the next bit, so the bits and the jokers then
    count fewer than the cards."""
    total = sum(map(_BIT.__getitem__, cards))
    reals, jokers = total & _REALS, total >> 52
    if reals.bit_count() + jokers != len(cards) or jokers >= len(_JOKER_BITS):
        return -1
    return reals | _JOKER_BITS[jokers]


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


#: Candidates list real cards weakest first (normal order), ties S, H, D, C (the joker after them).
_CANDIDATE_ORDER = {c: _STRENGTH[c] * 8 + _suit_pos(c.suit) for c in ALL_CARDS if c.rank}
_CANDIDATE_ORDER[JOKER] = (ABOVE_2 + 1) * 8


def _entries(rules: RuleSet, hand: tuple[Card, ...], kind: str | None, size: int | None,
             extras: list[Entry] | None = None) -> list[Entry]:
    """The candidate plays made of ``hand``'s cards of ``kind`` and ``size`` (None: any),
    as entries (``Entry``: cards, jokers' readings, readings, mask): singles weakest first
    (the lone joker last), then groups by size and strength, then sequences by suit,
    length and lowest card. Each part that a few of the hand's cards
    decide (a card's single, one strength's groups of a size, one suit's sequences) is
    made once per rule set (``_BLOCKS``) and shared by every hand that holds those cards.

    Given ``extras``, the candidates a strength comparison cannot rank (a lone joker, a
    play read several ways) go there instead, in the same order."""
    blocks = memo_for(_BLOCKS, rules)
    if len(blocks) >= _BLOCK_BOUND:
        blocks.clear()
    jokers = hand.count(JOKER)
    reals = sorted(set(hand), key=_CANDIDATE_ORDER.__getitem__)
    if jokers:
        reals.pop()  # the joker, ordered last
    out: list[Entry] = []
    if kind is None or kind == SINGLE:
        _singles(blocks, rules, reals, jokers, out, extras)
    if kind is None or kind == GROUP:
        _groups(blocks, rules, reals, jokers, size, out, extras)
    if (kind is None or kind == SEQUENCE) and rules.sequences:
        _sequences(blocks, rules, reals, jokers, size, out, extras)
    return out


def _take(got: Block, rules: RuleSet, out: list[Entry], extras: list[Entry] | None) -> None:
    """A block's entries onto ``out``; given ``extras``, only its ranked ones, the others
    onto ``extras``."""
    if extras is None:
        out += got[0]  # type: ignore[arg-type]  # a block has its entries
    else:
        out += got[1] if got[1] is not None else _split(got, rules)
        extras += got[2]  # type: ignore[arg-type]  # split above


def _singles(blocks: dict[object, Block], rules: RuleSet, reals: list[Card], jokers: int,
             out: list[Entry], extras: list[Entry] | None) -> None:
    """``_entries``' singles: each real card's, weakest first, then the lone joker's."""
    got: Block | None
    for c in reals:
        got = blocks.get(c)
        if got is None:
            got = _block(blocks, c, rules, (((c,), ()),))
        if extras is None:
            out += got[0]  # type: ignore[arg-type]  # a block has its entries
        else:  # a real card's single is ranked: no extras
            out += got[1] if got[1] is not None else _split(got, rules)
    if jokers:
        got = blocks.get(JOKER)
        if got is None:
            got = _block(blocks, JOKER, rules, (((JOKER,), ()),))
        _take(got, rules, out, extras)


def _groups(blocks: dict[object, Block], rules: RuleSet, reals: list[Card], jokers: int, size: int | None,
            out: list[Entry], extras: list[Entry] | None) -> None:
    """``_entries``' groups: by size (``size`` only, when given), then by strength."""
    by_strength: dict[int, tuple[Card, ...]] = {}
    for c in reals:
        s = _STRENGTH[c]
        by_strength[s] = by_strength.get(s, ()) + (c,)
    for g in (range(2, rules.max_group + 1) if size is None else (size,)):
        j = min(jokers, g)
        # Only the jokers can make a group of a strength the hand lacks.
        for s in (range(1, 14) if jokers >= g else by_strength):
            same = by_strength.get(s, ())
            if len(same) + j < g:
                continue
            key: tuple[object, ...] = (GROUP, g, j, s, same)
            got = blocks.get(key)
            if got is None:
                got = _block(blocks, key, rules, _group_block(rules, s, same, j, g))
            _take(got, rules, out, extras)


def _sequences(blocks: dict[object, Block], rules: RuleSet, reals: list[Card], jokers: int, size: int | None,
               out: list[Entry], extras: list[Entry] | None) -> None:
    """``_entries``' sequences: by suit, then (within a suit's block) length and lowest card."""
    by_suit = sum(map(_SUIT_STRENGTH_BIT.__getitem__, reals))
    for i, suit in enumerate(SUITS):
        held = (by_suit >> 13 * i) & 0x1FFF  # the suit's cards: bit s - 1 for strength s
        if not held:
            continue
        if jokers:
            if held.bit_count() + jokers < SEQUENCE_MIN:
                continue
        elif not _HAS_RUN[held]:
            continue  # no run long enough, and no joker to fill a gap
        key = (SEQUENCE, size, jokers, suit, held)
        got = blocks.get(key)
        if got is None:
            cards = tuple([c for c in reals if c.suit == suit])
            got = _block(blocks, key, rules, _sequence_block(rules, suit, cards, jokers, size))
        _take(got, rules, out, extras)


#: Each real card's bit in the 13 bits of its suit (``SUITS``' order) by strength: bit
#: 13 x suit + s - 1 for strength s (``_STRENGTH``).
_SUIT_STRENGTH_BIT = {c: 1 << (13 * SUITS.index(c.suit) + _STRENGTH[c] - 1) for c in ALL_CARDS if c.rank}


def _has_run(held: int) -> bool:
    """Whether the strengths ``held`` (bit s - 1 for strength s) hold ``SEQUENCE_MIN`` in a row."""
    run = held
    for _ in range(SEQUENCE_MIN - 1):
        run &= run >> 1
    return run != 0


#: ``_has_run`` of every 13 bits of one suit's strengths (looked up: every hand's list asks
#: it for each suit).
_HAS_RUN = bytes([_has_run(held) for held in range(1 << 13)])


Candidate = tuple[tuple[Card, ...], tuple[Stand | None, ...]]


#: A part of ``_entries``: its entries (their readings None until asked for), then, once a
#: shape's list asks, the same read and split into those a strength comparison ranks (one
#: reading, no lone joker) and the others (None until then).
Block = list[tuple[Entry, ...] | None]


def _block(blocks: dict[object, Block], key: object, rules: RuleSet, made: Iterable[Candidate]) -> Block:
    bit = _BIT.__getitem__  # _mask(cards), inlined: a candidate holds no card twice
    got: Block = [tuple([(cards, joker_as, None, (total & _REALS) | _JOKER_BITS[total >> 52])
                         for cards, joker_as in made for total in (sum(map(bit, cards)),)]), None, None]
    blocks[key] = got
    return got


def _split(block: Block, rules: RuleSet) -> tuple[Entry, ...]:
    """Read a block's entries (``known_readings``) and split them (see ``Block``); the
    ranked ones. A leader's list leaves its candidates unread until one is drawn."""
    read = tuple([(cards, joker_as, known_readings(rules, cards, joker_as), mask)
                  for cards, joker_as, _, mask in block[0]])  # type: ignore[union-attr]  # a block has its entries
    block[0] = read
    block[2] = tuple([e for e in read if len(e[2]) != 1 or e[2][0].lone_joker])
    ranked = block[1] = tuple([e for e in read if len(e[2]) == 1 and not e[2][0].lone_joker])
    return ranked


#: The parts of ``_entries``, per rule set (keyed by its identity; the entry holds it).
#: Bound: ``_BLOCK_BOUND`` parts per rule set, forgotten all at once when full. Reason:
#: every hand is new, but its cards make the same few singles, groups and runs as other
#: hands' did; each part is made (and its plays read) once.
_BLOCKS: dict[int, tuple[RuleSet, dict[object, Block]]] = {}
_BLOCK_BOUND = 1 << 15


def _group_block(rules: RuleSet, s: int, same: tuple[Card, ...], jokers: int, g: int) -> Iterator[Candidate]:
    """The groups of ``g`` cards of strength ``s`` from the real cards ``same`` (weakest
    first) and up to ``jokers`` jokers."""
    for k in range(0, jokers + 1):
        r = g - k
        if r > len(same):
            continue
        if not k:  # real cards only: no joker to read
            for sub in combinations(same, r):
                yield sub, ()
            continue
        stands = _STANDS[s]
        for sub in combinations(same, r):
            if g == 5:
                if r == 4 and k == 1:
                    yield sub + (JOKER,), (stands[""],)
                continue
            used = {c.suit for c in sub}
            free = [x for x in SUITS if x not in used]
            choices = combinations(free, k) if rules.suit_lock else [tuple(free[:k])]
            for js in choices:
                if len(js) == k:
                    yield sub + (JOKER,) * k, tuple([stands[x] for x in js])


def _sequence_block(rules: RuleSet, suit: str, cards: tuple[Card, ...], jokers: int,
                    size: int | None) -> Iterator[Candidate]:
    """The sequences of ``size`` cards (None: any) in ``suit`` from its real cards ``cards``
    (weakest first) and up to ``jokers`` jokers, shortest first, then by lowest card."""
    lo_min, hi_max = (BELOW_3, ABOVE_2) if rules.joker_out_of_range else (1, 13)
    held = {_STRENGTH[c]: c for c in cards}
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
            if n >= SEQUENCE_MIN and (size is None or n == size) and missing < n:
                spans.append((n, lo))
    for n, lo in sorted(spans):
        span = range(lo, lo + n)
        missing_at = [x for x in span if x not in held]
        present = [x for x in span if x in held]
        if not missing_at and not jokers:  # real cards only
            yield tuple([held[x] for x in span]), ()
            continue
        stands = _SUIT_STANDS[suit]
        for e in range(0, min(jokers - len(missing_at), len(present) - 1) + 1):
            for swap in combinations(present, e):
                jpos = sorted(missing_at + list(swap)) if swap else missing_at
                used = tuple([held[x] for x in span if x not in jpos]) + (JOKER,) * len(jpos)
                yield used, tuple([stands[x] for x in jpos])


#: Every joker reading, by strength then suit ("" the uecda joker row), and by suit then
#: strength: candidates share them instead of making their own.
_STANDS = {s: {x: Stand(x, s) for x in (*SUITS, "")} for s in range(BELOW_3, ABOVE_2 + 1)}
_SUIT_STANDS = {x: {s: _STANDS[s][x] for s in range(BELOW_3, ABOVE_2 + 1)} for x in (*SUITS, "")}
