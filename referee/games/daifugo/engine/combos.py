"""Combinations and readings: every way a set of cards forms a single, a group or a
sequence (jokers standing in), with no table considered; and which combinations revolt."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from referee.engines.base import ALL_CARDS, SUITS, Card
from referee.engines.message import N, T
from referee.games.daifugo.engine.cards import (
    _STRENGTH,
    ABOVE_2,
    BELOW_3,
    LONE_JOKER_STRENGTH,
    _strength_name,
    card_at,
    strength,
)
from referee.games.daifugo.engine.rules import RuleSet, memo_for


class Stand(NamedTuple):
    """What a joker stands for: ``suit`` (S H D C, or "" for the uecda joker row) and
    ``strength`` (1..13 = 3..2; 0 / 14 = the uecda columns below the 3 / above the 2)."""

    suit: str
    strength: int

    @classmethod
    def of(cls, card: Card) -> Stand:
        """The reading ``JK(card)``."""
        return cls(card.suit, strength(card))

    def __str__(self) -> str:
        c = card_at(self.suit, self.strength)
        if c is not None:
            return str(c)
        col = {BELOW_3: "below-3", ABOVE_2: "above-2"}.get(self.strength, str(self.strength))
        return f"{self.suit or 'joker-row'}:{col}"


# Combination kinds.
SINGLE, GROUP, SEQUENCE = "single", "group", "sequence"

#: The fewest cards a sequence holds.
SEQUENCE_MIN = 3


class Combo(NamedTuple):
    """A combination as read: what the table shows and what later plays must beat.

    ``low``/``high``: strength range (equal for singles and groups; the lone joker has 14).
    ``suits``: the set of suits used (a joker counts as its reading's suit; "" = joker row);
    None for a lone joker or when a bare joker's suit is undetermined
    (ruling ``daifugo.joker.ambiguous``). ``stands``: the jokers' readings, in order.
    """

    kind: str
    size: int
    low: int
    high: int
    suits: frozenset[str] | None
    stands: tuple[Stand, ...] = ()
    lone_joker: bool = False

    def includes(self, s: int) -> bool:
        """Does the play 'include' strength ``s`` (eight-cut, six-reverse, eleven-back)?
        A lone joker never does."""
        return not self.lone_joker and self.low <= s <= self.high

    def __str__(self) -> str:
        return str(self.describe())

    def describe(self) -> T:
        """The combination in words ("a group of 3 5s"), as a message."""
        if self.lone_joker:
            return T("a lone joker")
        if self.kind == SINGLE:
            return T("a single {rank}", rank=_strength_name(self.low))
        if self.kind == GROUP:
            return T("a group of {n} {rank}s", n=self.size, rank=_strength_name(self.low))
        suit = next(iter(self.suits)) if self.suits and len(self.suits) == 1 else ""
        return T("a {n}-card sequence {cards}", n=self.size,
                 cards=f"{_strength_name(self.low)}{suit}-{_strength_name(self.high)}{suit}")


LONE_JOKER = Combo(SINGLE, 1, LONE_JOKER_STRENGTH, LONE_JOKER_STRENGTH, None, (), True)
#: A single real card: its strength, its suit (a constant table of the 52 cards).
_SINGLES = {c: Combo(SINGLE, 1, _STRENGTH[c], _STRENGTH[c], frozenset((c.suit,))) for c in ALL_CARDS if c.rank}


def readings(rules: RuleSet, cards: Sequence[Card], joker_as: Sequence[Stand | None] = ()) -> list[Combo]:
    """Every way ``cards`` form a combination under ``rules`` (daifugo.combo.invalid):
    a single; a group of 2 to ``max_group`` cards of one rank; a sequence of 3 or more
    consecutive cards of one suit. Jokers stand in as ``joker_as`` says; an unstated joker
    (None) takes every possible reading. No table is considered here. Pure: the solver
    and the puzzle search reuse it.
    """
    n = len(cards)
    if n == 1:
        card = cards[0]
        if card.rank == 0:  # the joker
            return [LONE_JOKER] if len(joker_as) <= 1 else []
        return [] if joker_as else [_SINGLES[card]]
    if n == 0:
        return []
    reals = tuple([c for c in cards if c.rank])
    k = n - len(reals)
    if len(joker_as) > k or len(set(reals)) != len(reals):
        return []
    stated = (*joker_as, *(None,) * (k - len(joker_as)))
    return _group_readings(rules, reals, stated) + _sequence_readings(rules, reals, stated)


#: ``readings`` already made, per rule set (keyed by its identity; the entry holds it, so
#: the identity stays its own). Bound: ``_READ_BOUND`` plays per rule set, forgotten all
#: at once when full. Reason: the same few thousand plays (singles, pairs, short runs)
#: recur in every game, and reading one is the costliest step of judging a play.
_READ: dict[int, tuple[RuleSet, dict[tuple[tuple[Card, ...], tuple[Stand | None, ...]], list[Combo]]]] = {}
_READ_BOUND = 1 << 16


def known_readings(rules: RuleSet, cards: tuple[Card, ...], joker_as: tuple[Stand | None, ...] = ()) -> list[Combo]:
    """``readings(rules, cards, joker_as)``, remembered: the same list for the same play
    (callers read it and never change it)."""
    memo = memo_for(_READ, rules)
    key = (cards, joker_as)
    found = memo.get(key)
    if found is None:
        if len(memo) >= _READ_BOUND:
            memo.clear()
        found = memo[key] = readings(rules, cards, joker_as)
    return found


def combination(rules: RuleSet, cards: Sequence[Card], joker_as: Sequence[Stand | None] = ()) -> Combo | None:
    """The combination ``cards`` form, or None when they form none or can be read in ways
    that differ in kind or strength (a bare joker's suit alone may stay undetermined)."""
    found = readings(rules, cards, joker_as)
    return _merge(found) if found else None


def _group_readings(rules: RuleSet, reals: tuple[Card, ...], stated: tuple[Stand | None, ...]) -> list[Combo]:
    n = len(reals) + len(stated)
    if n > rules.max_group:
        return []
    if reals:
        s0 = _STRENGTH[reals[0]]
        if any(_STRENGTH[c] != s0 for c in reals):
            return []
        ranks: Iterable[int] = (s0,)
    else:
        ranks = range(1, 14)
    real_suits = frozenset(c.suit for c in reals)
    # A 5-card group is four suits plus the joker in the server's joker row.
    pool = ("",) if n == 5 else tuple(x for x in SUITS if x not in real_suits)
    fixed = [st.suit for st in stated if st is not None]
    if len(set(fixed)) != len(fixed) or any(x not in pool for x in fixed):
        return []
    free = [x for x in pool if x not in fixed]
    slots = [i for i, st in enumerate(stated) if st is None]
    out = []
    for s in ranks:
        if any(st is not None and st.strength != s for st in stated):
            continue
        for chosen in combinations(free, len(slots)):
            suits = [st.suit if st is not None else "" for st in stated]
            for i, x in zip(slots, chosen, strict=True):
                suits[i] = x
            stands = tuple(Stand(x, s) for x in suits)
            out.append(Combo(GROUP, n, s, s, real_suits | frozenset(suits), stands))
    return out


def _sequence_readings(rules: RuleSet, reals: tuple[Card, ...], stated: tuple[Stand | None, ...]) -> list[Combo]:
    n = len(reals) + len(stated)
    if n < SEQUENCE_MIN or not reals:
        return []
    suit = reals[0].suit
    if any(c.suit != suit for c in reals) or any(st is not None and st.suit != suit for st in stated):
        return []
    present = sorted(_STRENGTH[c] for c in reals)
    lo_min, hi_max = (BELOW_3, ABOVE_2) if rules.joker_out_of_range else (1, 13)
    fixed = sorted(st.strength for st in stated if st is not None)
    if len(set(fixed)) != len(fixed):
        return []
    slots = [i for i, st in enumerate(stated) if st is None]
    out = []
    for lo in range(max(lo_min, present[-1] - n + 1), min(present[0], hi_max - n + 1) + 1):
        holes = [x for x in range(lo, lo + n) if x not in present]
        if any(x not in holes for x in fixed):
            continue
        rest = iter(x for x in holes if x not in fixed)
        strengths = [st.strength if st is not None else 0 for st in stated]
        for i in slots:
            strengths[i] = next(rest)
        stands = tuple(Stand(suit, x) for x in strengths)
        out.append(Combo(SEQUENCE, n, lo, lo + n - 1, frozenset((suit,)), stands))
    return out


def _merge(found: Sequence[Combo]) -> Combo | None:
    """One combination from several readings: None when they differ in kind or strength;
    when only the suits a bare joker takes differ, they stay undetermined (suits None)."""
    first = found[0]
    key = first[:4] + (first.lone_joker,)
    for c in found[1:]:
        if c[:4] + (c.lone_joker,) != key:
            return None
    if any(c.suits != first.suits for c in found[1:]):
        return first._replace(suits=None)
    return first


def _invalid_message(rules: RuleSet, cards: Sequence[Card], joker_as: Sequence[Stand | None]) -> T:
    if not cards:
        return T("a play needs at least one card")
    reals = [c for c in cards if not c.is_joker]
    k = len(cards) - len(reals)
    if len(joker_as) > k:
        return N("{given} joker readings are given for {n} joker", "{given} joker readings are given for {n} jokers",
                 k, given=len(joker_as))
    for c in reals:
        if reals.count(c) > 1:
            return T("{card} appears twice in one play", card=c)
    shown = list(map(str, reals))
    shown += [f"JK({st})" if st is not None else "JK" for st in tuple(joker_as) + (None,) * (k - len(joker_as))]
    what = " ".join(shown)
    if reals and len({_STRENGTH[c] for c in reals}) == 1 and len(cards) > rules.max_group:
        if rules.max_group == 4 and len(cards) == 5:
            return T("{cards}: a group has at most {most} cards (a 5-card group is no combination under {rules})",
                     cards=what, most=rules.max_group, rules=rules.name)
        return T("{cards}: a group has at most {most} cards", cards=what, most=rules.max_group)
    if rules.joker_out_of_range:
        return T("{cards} form no combination: a single card, 2 to {most} cards of one rank, or 3 or "
                 "more consecutive cards of one suit (a joker may stand in for any one card); "
                 "the joker may also stand below the 3 or above the 2 at a sequence's end",
                 cards=what, most=rules.max_group)
    return T("{cards} form no combination: a single card, 2 to {most} cards of one rank, or 3 or "
             "more consecutive cards of one suit (a joker may stand in for any one card); "
             "no sequence wraps between 2 and 3", cards=what, most=rules.max_group)


def revolution_rule(rules: RuleSet, combo: Combo) -> str | None:
    """The rule by which playing ``combo`` makes a revolution, or None if it makes none
    (daifugo.option.revolution: a group of four or more; daifugo.option.stairs-revolution:
    a long enough sequence; never a lone joker). With the option ``revolution`` off
    nothing revolts, long sequences included, whatever ``stairs-revolution`` says."""
    if combo.lone_joker or not rules.revolution:
        return None
    if combo.kind == GROUP and combo.size >= 4:
        return "daifugo.option.revolution"
    if combo.kind == SEQUENCE and rules.stairs_revolution is not None and combo.size >= rules.stairs_revolution:
        return "daifugo.option.stairs-revolution"
    return None
