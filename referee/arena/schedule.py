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
    """Tables until every entrant has sat at ``games`` of them (or ``limit`` tables in all)."""
    if mode not in MODES:
        raise ScheduleError(f"the schedule is {' or '.join(MODES)}, not {mode}")
    if entrants < size:
        raise ScheduleError(f"a table seats {size}: the {mode} needs at least {size} entrants, not {entrants}")
    plan = _Plan(entrants, size, games, seed, mode, permutations, limit)
    if duplicate:
        plan.blocks()
    else:
        plan.interleaved()
    return plan.schedule(duplicate)


class _Plan:
    """The tables chosen so far, and what they add up to: tables per entrant, tables per
    pair, sittings per entrant and seat."""

    def __init__(self, entrants: int, size: int, games: int, seed: int, mode: str, permutations: str,
                 limit: int | None):
        self.n, self.size, self.games, self.seed, self.mode = entrants, size, games, seed, mode
        self.permutations, self.limit = permutations, limit
        self.rng = random.Random(f"{seed}/schedule")
        self.played = [0] * entrants
        self.met = [[0] * entrants for _ in range(entrants)]
        self.sat = [[0] * size for _ in range(entrants)]
        self.tables: list[Slot] = []
        self.cycle = _groups(entrants, size, mode)

    def wanted(self) -> bool:
        return min(self.played) < self.games and (self.limit is None or len(self.tables) < self.limit)

    def add(self, order: tuple[int, ...], block: int, deal: int) -> None:
        self.tables.append(Slot(len(self.tables), order, block, deal, deal_seed(self.seed, deal)))
        for s, e in enumerate(order):
            self.sat[e][s] += 1
            self.played[e] += 1
        for a, b in itertools.combinations(order, 2):
            self.met[a][b] += 1
            self.met[b][a] += 1

    def blocks(self) -> None:
        """Duplicate deals: a block is one group in each of its seat orders, one after
        another on one deal; the next block's group the least played and least met."""
        left: list[tuple[int, ...]] = []
        block = 0
        while self.wanted():
            group = self.next_group(left)
            for order in _orders(group, self.permutations, self.sat, self.rng):
                if self.limit is not None and len(self.tables) >= self.limit:
                    break
                self.add(order, block, block)
            block += 1

    def interleaved(self) -> None:
        """A deal per table: each round of a cycle seats every group once, in the next of
        its seat orders (the group least played and least met first), so that a schedule
        cut anywhere is as balanced as a table at a time allows, and a whole cycle (every
        group in every seat order) is balanced exactly."""
        pending: list[tuple[int, ...]] = []
        orders: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        while self.wanted():
            if self.cycle is None:  # too many groups to list: each table the best of a sample
                group = self.next_group([])
                order = _orders(group, self.permutations, self.sat, self.rng)[0]
            else:
                if not pending:
                    pending.extend(self.cycle)
                    if not any(orders.values()):
                        orders.clear()  # a new cycle
                group = self.next_group(pending)
                if group not in orders:
                    orders[group] = _orders(group, self.permutations, self.sat, self.rng)
                order = orders[group].pop(0)
            number = len(self.tables)
            self.add(order, number, number)

    def next_group(self, left: list[tuple[int, ...]]) -> tuple[int, ...]:
        """The next group: from ``left`` (the groups not yet played in this cycle or round:
        each cycle meets every pair equally often; refilled from the cycle when empty), or
        sampled from a field too large to list; the one whose entrants have played least
        and met least."""
        n, size, mode, rng = self.n, self.size, self.mode, self.rng
        if self.cycle is not None:
            if not left:
                left.extend(self.cycle)
            groups = left
        else:
            rest = list(range(1, n) if mode == "gauntlet" else range(n))
            take = size - 1 if mode == "gauntlet" else size
            groups = [tuple(sorted(rng.sample(rest, take))) for _ in range(CANDIDATES)]
            if mode == "gauntlet":
                groups = [(0, *g) for g in groups]
        played, met = self.played, self.met

        def cost(group: tuple[int, ...]) -> tuple[int, int, int, float]:
            counted = group[1:] if mode == "gauntlet" else group
            return (max(played[e] for e in counted), sum(played[e] for e in counted),
                    sum(met[a][b] for a, b in itertools.combinations(group, 2)), rng.random())
        chosen = min(groups, key=cost)
        if self.cycle is not None:
            left.remove(chosen)
        return chosen

    def schedule(self, duplicate: bool) -> Schedule:
        n, mode = self.n, self.mode
        pairs = [self.met[a][b] for a, b in itertools.combinations(range(n), 2) if mode == "round-robin" or a == 0]
        rows = self.sat if mode == "round-robin" else self.sat[1:]
        seats = [k for row in rows for k in row]
        balance = {"pairs": [min(pairs), max(pairs)], "seats": [min(seats), max(seats)],
                   "tables": [min(self.played), max(self.played)]}
        return Schedule(self.tables, n, self.size, duplicate, balance)


def _groups(n: int, size: int, mode: str) -> list[tuple[int, ...]] | None:
    """Every group a table may seat (None: too many to list; they are sampled)."""
    rest = range(1, n) if mode == "gauntlet" else range(n)
    take = size - 1 if mode == "gauntlet" else size
    if math.comb(len(rest), take) > CANDIDATES:
        return None
    return [(0, *g) if mode == "gauntlet" else g for g in itertools.combinations(rest, take)]


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
