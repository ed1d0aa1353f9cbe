"""Who sits where, at which table, with which deal: a seeded schedule, the same every
time it is built from the same field and options (what ``--resume`` relies on).

Tables come in blocks: a block is one group of entrants (as many as a table seats), played
once in each seat rotation (Caravan: both seat orders), so every entrant of the group sits
in every seat once. Groups are chosen one after another, each the one whose entrants have
played least and have met least (ties broken by the seed): every pair shares equally many
tables and every entrant plays equally often as far as the numbers allow. With
``duplicate`` the tables of a block replay one deal (the luck of the cards cancels out
within the block); without it each table has a deal of its own. ``all`` permutations
instead of rotations play every seat order of the group.

A round robin draws groups from the whole field; a gauntlet seats its first entrant (the
challenger) at every table.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any

MODES = ("round-robin", "gauntlet")
PERMUTATIONS = ("rotations", "all")
#: Groups looked at for each block when the field has more than this many.
CANDIDATES = 3000


class ScheduleError(ValueError):
    """A schedule that cannot be made (too few entrants for a table)."""


@dataclass(frozen=True)
class Slot:
    """One table: its number (from 0), its entrants by seat, its block and its deal."""

    number: int
    seats: tuple[int, ...]
    block: int
    deal: int
    seed: int


@dataclass
class Schedule:
    tables: list[Slot]
    entrants: int
    size: int
    duplicate: bool
    #: How balanced it is: tables shared per pair (min, max), seats sat per entrant and
    #: seat (min, max), tables per entrant (min, max).
    balance: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        b = self.balance
        pairs = b["pairs"]
        seats = b["seats"]
        games = b["tables"]
        return (f"{len(self.tables)} tables of {self.size}; each entrant at {_span(games)} tables, each pair "
                f"together at {_span(pairs)}, each entrant {_span(seats)} times in each seat"
                + ("; duplicate deals" if self.duplicate else ""))


def _span(pair: list[int]) -> str:
    return str(pair[0]) if pair[0] == pair[1] else f"{pair[0]}-{pair[1]}"


def deal_seed(seed: int, deal: int) -> int:
    return random.Random(f"{seed}/deal/{deal}").randrange(2**62)


def build(entrants: int, size: int, games: int, seed: int, mode: str = "round-robin", duplicate: bool = False,
          permutations: str = "rotations", limit: int | None = None) -> Schedule:
    """Blocks until every entrant has sat at ``games`` tables (or ``limit`` tables in all)."""
    if mode not in MODES:
        raise ScheduleError(f"the schedule is {' or '.join(MODES)}, not {mode}")
    if entrants < size:
        raise ScheduleError(f"a table seats {size}: the {mode} needs at least {size} entrants, not {entrants}")
    rng = random.Random(f"{seed}/schedule")
    played = [0] * entrants
    met = [[0] * entrants for _ in range(entrants)]
    sat = [[0] * size for _ in range(entrants)]
    tables: list[Slot] = []
    block = 0
    deal = 0
    cycle = _groups(entrants, size, mode)
    left: list[tuple[int, ...]] = []
    while min(played) < games and (limit is None or len(tables) < limit):
        group = _next_group(entrants, size, mode, played, met, rng, cycle, left)
        orders = _orders(group, permutations, sat, rng)
        for order in orders:
            if limit is not None and len(tables) >= limit:
                break
            if not duplicate and tables:
                deal += 1
            tables.append(Slot(len(tables), order, block, deal, deal_seed(seed, deal)))
            for s, e in enumerate(order):
                sat[e][s] += 1
                played[e] += 1
            for a, b in itertools.combinations(group, 2):
                met[a][b] += 1
                met[b][a] += 1
        block += 1
        if duplicate:
            deal += 1
    pairs = [met[a][b] for a, b in itertools.combinations(range(entrants), 2)
             if mode == "round-robin" or a == 0]
    seats = [n for row in sat for n in row] if mode == "round-robin" else [n for row in sat[1:] for n in row]
    balance = {"pairs": [min(pairs), max(pairs)], "seats": [min(seats), max(seats)],
               "tables": [min(played), max(played)]}
    return Schedule(tables, entrants, size, duplicate, balance)


def _groups(n: int, size: int, mode: str) -> list[tuple[int, ...]] | None:
    """Every group a table may seat (None: too many to list; they are sampled)."""
    rest = range(1, n) if mode == "gauntlet" else range(n)
    take = size - 1 if mode == "gauntlet" else size
    if math.comb(len(rest), take) > CANDIDATES:
        return None
    return [(0, *g) if mode == "gauntlet" else g for g in itertools.combinations(rest, take)]


def _next_group(n: int, size: int, mode: str, played: list[int], met: list[list[int]], rng: random.Random,
                cycle: list[tuple[int, ...]] | None, left: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The next block's group: from the groups not yet played in this cycle of all of
    them (each cycle meets every pair equally often), or sampled from a field too large
    to list; the one whose entrants have played least and met least."""
    if cycle is not None:
        if not left:
            left.extend(cycle)
        groups = left
    else:
        rest = list(range(1, n) if mode == "gauntlet" else range(n))
        take = size - 1 if mode == "gauntlet" else size
        groups = [tuple(sorted(rng.sample(rest, take))) for _ in range(CANDIDATES)]
        if mode == "gauntlet":
            groups = [(0, *g) for g in groups]

    def cost(group: tuple[int, ...]) -> tuple[int, int, int, float]:
        counted = group[1:] if mode == "gauntlet" else group
        return (max(played[e] for e in counted), sum(played[e] for e in counted),
                sum(met[a][b] for a, b in itertools.combinations(group, 2)), rng.random())
    chosen = min(groups, key=cost)
    if cycle is not None:
        left.remove(chosen)
    return chosen


def _orders(group: tuple[int, ...], permutations: str, sat: list[list[int]], rng: random.Random) -> list[tuple[int, ...]]:
    """The group's seat orders: its rotations (or every permutation), starting from the
    order that suits the seats its entrants have sat in least."""
    if permutations == "all":
        return list(itertools.permutations(group))
    size = len(group)
    if size <= 6:
        candidates = list(itertools.permutations(group))
    else:
        candidates = [tuple(rng.sample(group, size)) for _ in range(200)]
    first = min(candidates, key=lambda order: (sum(sat[e][s] for s, e in enumerate(order)), rng.random()))
    return [first[i:] + first[:i] for i in range(size)]
