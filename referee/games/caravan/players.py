"""Caravan's built-in players (``pitboss arena``'s ``bot:STYLE``, the live table's bots)
and how a finished game ranks its players.

- ``random``, ``greedy``: self-play's players (a uniformly random legal move; nine times
  in ten one of the moves that score best at once);
- ``search``: looks two moves ahead, its own and the opponent's best reply, in a few
  worlds where the opponent's unseen hand is dealt from the cards it has not seen (the
  cards it cannot see are never looked at: its draws stay unknown), and plays the move
  whose worst reply leaves it best off on average; a move that wins at once is played.

Every player sees only what its seat sees: its own hand, the caravans, how many cards
the opponent holds.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.games.caravan.selfplay import choose as selfplay_choose

STYLES = ("random", "greedy", "search")
#: The search's worlds (opponent hands dealt) and the moves it looks beyond the first at.
WORLDS = 4
WIDTH = 6


def ranks(result: object, names: Sequence[str]) -> list[list[int]]:
    """The game's rank of every seat (0: the winner); none before it ends."""
    if not isinstance(result, dict) or "winner" not in result:
        return []
    return [[0 if n == result["winner"] else 1 for n in names]]


def choose(state: cv.State, style: str, rng: random.Random) -> cv.Move:
    if style not in STYLES:
        raise ValueError(f"no Caravan player {style!r}; the players are {', '.join(STYLES)}")
    if style != "search":
        return selfplay_choose(rng, state, style)
    return _search(state, rng)


def _band(v: int) -> float:
    """How far a caravan's value is from selling (the rules' 21-26)."""
    low, high = cv.TARGET_LOW, cv.TARGET_HIGH
    return (low - v) / 7 if v < low else 0.0 if v <= high else (v - high) / 3 + 1


def evaluate(state: cv.State, me: int) -> float:
    """The position for ``me``: lanes held, and how near each side's caravans are to
    selling and to beating the one they face."""
    if state.over:
        return 1000.0 if state.winner == me else -1000.0
    values = state.values
    score = 0.0
    for a, b in cv.LANES:
        mine, theirs = (values[a], values[b]) if me == 0 else (values[b], values[a])
        w = cv.lane_winner(values[a], values[b])
        if w is not None:
            score += 12.0 if (w == 0) == (me == 0) else -12.0
            continue
        score += 3.0 * (_band(theirs) - _band(mine))
        if cv.TARGET_LOW <= min(mine, theirs) and max(mine, theirs) <= cv.TARGET_HIGH:
            score += 0.5 if mine > theirs else -0.5
    hands = state.hands
    score += 0.3 * ((hands[me].size or 0) - (hands[1 - me].size or 0))
    return score


def _seen(state: cv.State, me: int) -> Counter[Card]:
    seen: Counter[Card] = Counter(state.hands[me].known)
    for caravan in state.caravans:
        for slot in caravan:
            seen[slot.card] += 1
            seen.update(slot.faces)
    return seen


def _world(state: cv.State, me: int, rng: random.Random) -> cv.State:
    """The state as ``me`` may imagine it: the opponent's hand dealt from the cards of a
    set that ``me`` has not seen, no deck known (draws are unknown cards)."""
    pool = Counter(cv.standard_deck())
    pool.subtract(_seen(state, me))
    cards = [c for c, n in pool.items() for _ in range(max(n, 0))]
    size = state.hands[1 - me].size or 0
    dealt = tuple(rng.sample(cards, min(size, len(cards))))
    theirs = cv.Hand(dealt, 0)
    mine = cv.Hand(state.hands[me].known, 0)
    return state._replace(hands=(mine, theirs) if me == 0 else (theirs, mine), decks=(None, None))


def _search(state: cv.State, rng: random.Random) -> cv.Move:
    me = state.to_move
    a, b = state.hands
    hidden = (a, cv.Hand((), b.size)) if me == 0 else (cv.Hand((), a.size), b)
    mine = state._replace(hands=hidden, decks=(None, None))
    scored = []
    for i, m in enumerate(cv.legal_moves(mine)):
        after = cv.apply(mine, m)
        if after.over and after.winner == me:
            return m
        scored.append((-evaluate(after, me), i, m))
    scored.sort()
    top = [m for _, _, m in scored[:WIDTH]]
    if len(top) == 1:
        return top[0]
    worlds = [_world(state, me, rng) for _ in range(WORLDS)]
    best: tuple[float, int] | None = None
    chosen = top[0]
    for rank, m in enumerate(top):
        total = 0.0
        for world in worlds:
            after = cv.apply(world, m)
            if after.over or after.to_move == me:
                total += evaluate(after, me)
                continue
            total += min((evaluate(cv.apply(after, r), me) for r in cv.legal_moves(after)),
                         default=evaluate(after, me))
        key = (-total, rank)
        if best is None or key < best:
            best, chosen = key, m
    return chosen


def table_sizes(rules: str, options: str = "") -> list[int]:
    """The seats a table may have (the default first)."""
    return [2]


def starts(path: str) -> list[dict[str, object]]:
    """The decks of each record of a CVN file that gives both (``Deck1``, ``Deck2``), as a
    live table takes them: ``{"decks": [first seat's, second seat's]}``."""
    from referee.games.caravan.notation.cvn import read_caravan
    from referee.jobs.validate import split
    from referee.notation.records import open_text

    out: list[dict[str, object]] = []
    with open_text(path) as handle:
        for index, chunk in enumerate(split(handle), start=1):
            record = read_caravan(chunk, path, index)
            decks = [record.tag("Deck1"), record.tag("Deck2")]
            if all(decks):
                out.append({"decks": decks})
    return out
