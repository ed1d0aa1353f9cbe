"""Daifugo's built-in players (``pitboss arena``'s ``bot:STYLE``, the live table's bots)
and how a finished match ranks its players.

- ``random``: self-play's player (a random legal move, a pass now and then);
- ``greedy``: the weakest play it has (the most cards at that strength), never a pass
  when it can play; its weakest cards as a gift;
- ``search``: plans its hand with the solver's partition (``solve.search.Partition``: the
  fewest plays that empty it; near the end, the fewest that end on a card it may go out
  on), plays what shortens that plan most for the least strength, plays a play nobody can
  beat (the solver's ``beaters`` against every card it has not seen) when the rest of its
  plan is short, makes a revolution only when the rest of its hand is weaker than the
  cards it has not seen (a revolution turns the order over), never passes when it can
  play, and gives away what its plan can spare.

Every player sees only what its seat sees: its own hand, the table, and which cards are
still out (not which opponent holds them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.engines.base import Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.selfplay import choose as random_choice

if TYPE_CHECKING:
    from referee.games.daifugo.solve.search import Partition

STYLES = ("random", "greedy", "search")


def ranks(result: object, names: Sequence[str]) -> list[list[int]]:
    """Each round's rank of every seat (0: the daifugo, the first out)."""
    out = []
    for rnd in result.get("rounds", ()) if isinstance(result, dict) else ():
        place = {name: i for i, name in enumerate(rnd["finish"])}
        out.append([place[n] for n in names])
    return out


def choose(state: df.State, seat: int, style: str, rng: random.Random) -> df.Move:
    """``seat``'s move in ``style``: a gift it owes during the exchange, else its turn."""
    if style not in STYLES:
        raise ValueError(f"no Daifugo player {style!r}; the players are {', '.join(STYLES)}")
    if state.phase == "exchange":
        gifts = [m for m in df.legal_moves(state) if isinstance(m, df.Give) and m.giver == seat]
        if style == "random":
            return rng.choice(gifts)
        return _gift(state, seat, gifts, style)
    if style == "random":
        return random_choice(rng, state)
    legal = list(df.legal_moves(state))
    plays = [m for m in legal if isinstance(m, df.Play)]
    if not plays:
        return legal[0]
    if style == "greedy":
        return min(plays, key=lambda m: (_strength(state, m), -len(m.cards), _key(m)))
    return _search(state, seat, plays)


def _key(move: df.Play) -> tuple:
    return tuple(sorted(move.cards)), move.joker_as


def _strength(state: df.State, move: df.Play) -> int:
    """How strong a play is now, 1 (weakest) up: its top strength, or its bottom one
    turned over while the order is reversed."""
    combo = df.combination(state.rules, move.cards, move.joker_as)
    assert combo is not None  # a legal play is a combination
    if state.reversed:
        return 15 - combo.low
    return combo.high


def _worth(cards: tuple[Card, ...]) -> int:
    """What a gift gives away: its cards' strengths, a joker above any card."""
    return sum(df.strength(c) if not c.is_joker else 20 for c in cards)


def _gift(state: df.State, seat: int, gifts: list[df.Give], style: str) -> df.Give:
    if style == "greedy":
        return min(gifts, key=lambda g: (_worth(g.cards), g.cards))
    from referee.games.daifugo.solve.search import Partition, lead_state

    plan = Partition(lead_state(state._replace(phase="play", pending=()), seat), seat)

    def cost(g: df.Give) -> tuple:
        mask = sum(plan.bit.get(c, 0) for c in g.cards if not c.is_joker)
        jokers = sum(1 for c in g.cards if c.is_joker)
        left = min(plan.least(plan.full & ~mask, plan.jokers - jokers, p) for p in (0, 1))
        return left, _worth(g.cards), g.cards
    return min(gifts, key=cost)


#: Weight of a revolution's cost: how much stronger than the unseen cards, on average, the
#: rest of the hand is in the order in force (a revolution turns that order over).
REVOLUTION_WEIGHT = 12.0
#: Plays left at which the plan must end on a card one may go out on.
CLEAN_FINISH_PLAYS = 4


def _search(state: df.State, me: int, plays: list[df.Play]) -> df.Move:
    from referee.games.daifugo.solve.search import Partition, beaters, forbidden, lead_state

    hand = state.hands[me]
    rules = state.rules
    for m in plays:  # out now, if it is no forbidden finish
        if len(m.cards) == len(hand) and not forbidden(rules, m.cards, state.revolution):
            return m
    plan = Partition(lead_state(state, me), me)
    unseen: list[Card] = [c for p, h in enumerate(state.hands) if p != me for c in h]
    others = [p for p in df.players_in(state) if p != me]

    def sure(after: df.State) -> bool:
        """Can nobody beat it (none of the unseen cards, pooled, makes a play on it)?"""
        if after.table is None or not others or after.over:
            return True
        return not beaters(after, others[0], unseen)

    best: tuple | None = None
    chosen = plays[0]
    for m in plays:
        left = _plays_left(plan, state, m)
        cost = 10.0 * left + 0.4 * _strength(state, m)
        after = df.apply(state, m)
        if after.revolution != state.revolution:
            cost += REVOLUTION_WEIGHT * _edge([c for c in hand if c not in m.cards], unseen, state)
        if left <= 2 and sure(after):
            cost -= 9.0  # the lead comes back: the rest of the plan follows
        key = (cost, -len(m.cards), _key(m))
        if best is None or key < best:
            best, chosen = key, m
    return chosen


def _plays_left(plan: Partition, state: df.State, move: df.Play) -> int:
    """The fewest plays that empty the hand after ``move`` (the partition's); near the end,
    the fewest whose last play is one the player may go out on (a forbidden finish ranks
    the player last)."""
    mask = sum(plan.bit.get(c, 0) for c in move.cards if not c.is_joker)
    jokers = plan.jokers - sum(1 for c in move.cards if c.is_joker)
    rest = plan.full & ~mask
    left: int = min(plan.least(rest, jokers, p) for p in (0, 1))
    risky = jokers or any(c.rank in (2, 3) for c in plan.reals if plan.bit[c] & rest)
    if not risky or left > CLEAN_FINISH_PLAYS or not state.rules.forbidden_finish:
        return left
    from referee.games.daifugo.solve.search import forbidden

    revolution = state.revolution
    combo = df.combination(state.rules, move.cards, move.joker_as)
    if combo is not None and df.revolution_rule(state.rules, combo) is not None:
        revolution = not revolution
    clean: int | None = None
    for piece in plan.pieces:
        if piece.mask & rest != piece.mask or piece.jokers > jokers:
            continue
        for parity in (0, 1):
            if not forbidden(state.rules, piece.play.cards, revolution != bool(parity)):
                n = plan.least(rest & ~piece.mask, jokers - piece.jokers, parity) + 1
                clean = n if clean is None else min(clean, n)
    return clean if clean is not None else left + 2


def _edge(mine: list[Card], unseen: list[Card], state: df.State) -> float:
    """How much stronger, on average, the real cards in ``mine`` are than the unseen ones,
    in the order now in force (what a revolution would take away, or give if negative)."""
    def mean(cards: list[Card]) -> float:
        reals = [df.strength(c) for c in cards if not c.is_joker]
        return sum(reals) / len(reals) if reals else 7.0
    edge = mean(mine) - mean(unseen)
    return -edge if state.reversed else edge


def table_sizes(rules: str, options: str = "") -> list[int]:
    """The seats a table may have under these rules (the default first: five, the
    contest's, where allowed). ValueError for rules that do not read."""
    from referee.games.daifugo.notation.dfn import ruleset_of

    ruleset = ruleset_of(rules, options)
    sizes = [n for n in range(2, 9) if df.check_players(ruleset, n) is None]
    return sorted(sizes, key=lambda n: (n != 5, n))


def starts(path: str) -> list[dict[str, object]]:
    """The deals of a file, as a live table takes them (``{"hands": [one per seat]}``):
    each DFN record's first round, or each game of a contest log (``positions``)."""
    from referee.games.daifugo.positions import read_starts

    return [{**start} for start in read_starts(path)]
