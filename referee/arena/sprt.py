"""``--sprt ELO0 ELO1``: a sequential probability ratio test of two entrants' Elo
difference, stopping once H0 (ELO0) or H1 (ELO1) is accepted (alpha = beta = 0.05).

The log-likelihood ratio is the generalised one (GSPRT) of the logistic Elo model, as
fastchess computes it: the samples' empirical distribution over the scores a sample can
take, and for each hypothesis the distribution of largest likelihood whose mean is that
hypothesis's expected score (Van den Bergh's multinomial MLE, one root found by
bisection); every score that has not occurred counts 0.001 (fastchess's regularisation),
so that a run of one result is never certainty.

A sample is a game between the two (the first entrant's score: 1, 1/2 or 0), or with
duplicate deals the mean score of one block of tables that replayed the same deal (over
all its games): the correlated games a block holds are one sample, as a pentanomial count
takes a game pair (a pair's mean is 0, 1/4, 1/2, 3/4 or 1; a block of k games, any
multiple of 1/(2k)). Tables where the two do not both sit (the others fill the seats of a
larger table) are no sample.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.arena.table import TableResult

ALPHA = BETA = 0.05
#: What a score that has not occurred counts (fastchess's regularize).
UNSEEN = 1e-3


def expected(elo: float) -> float:
    """The expected score of an Elo difference (the logistic model)."""
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Sample:
    #: The first entrant's mean score against the second over the sample's games.
    score: Fraction
    games: int
    #: The table (schedule number) that completes it.
    table: int


def grid(games: int) -> list[Fraction]:
    """The scores a sample of ``games`` games can take."""
    return [Fraction(j, 2 * games) for j in range(2 * games + 1)]


def _mle(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution over ``values`` of largest likelihood for the empirical ``probs``
    whose mean is ``s``: p_i = phat_i / (1 + theta (v_i - s)), theta the root of
    sum phat_i (v_i - s) / (1 + theta (v_i - s)) (decreasing in theta on its interval)."""
    shifted = [v - s for v in values]
    lo, hi = -1 / max(shifted), -1 / min(shifted)

    def f(theta: float) -> float:
        return sum(p * d / (1 + theta * d) for p, d in zip(probs, shifted, strict=True))
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    theta = (lo + hi) / 2
    return [p / (1 + theta * d) for p, d in zip(probs, shifted, strict=True)]


@dataclass
class Sprt:
    elo0: float
    elo1: float
    alpha: float = ALPHA
    beta: float = BETA

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Mapping[Fraction, int]) -> float:
        """The log-likelihood ratio of H1 against H0 for these counts of each score (every
        score a sample could take present, zero or not)."""
        if not any(counts.values()):
            return 0.0
        values = sorted(counts)
        weights = [counts[v] or UNSEEN for v in values]
        total = sum(weights)
        probs = [w / total for w in weights]
        floats = [float(v) for v in values]
        p0 = _mle(floats, probs, expected(self.elo0))
        p1 = _mle(floats, probs, expected(self.elo1))
        return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True))

    def verdict(self, llr: float) -> str | None:
        lower, upper = self.bounds
        return "H1" if llr >= upper else "H0" if llr <= lower else None


@dataclass
class Sequential:
    """The test run sample by sample; stops at the first sample that decides it."""

    test: Sprt
    counts: dict[Fraction, int] = field(default_factory=dict)
    samples: int = 0
    games: int = 0
    llr: float = 0.0
    accept: str | None = None
    #: The table whose sample decided the test.
    decided_at: int | None = None

    def add(self, sample: Sample) -> bool:
        """Take one more sample (none once decided); True once decided."""
        if self.accept is not None:
            return True
        for value in grid(sample.games):
            self.counts.setdefault(value, 0)
        self.counts[sample.score] += 1
        self.samples += 1
        self.games += sample.games
        self.llr = self.test.llr(self.counts)
        self.accept = self.test.verdict(self.llr)
        if self.accept is not None:
            self.decided_at = sample.table
        return self.accept is not None

    def result(self) -> dict[str, Any]:
        return {"decided": self.accept is not None, "accept": self.accept, "llr": self.llr, "games": self.games,
                "samples": self.samples, "bounds": list(self.test.bounds), "decided_at_table": self.decided_at}


def run(test: Sprt, samples: Sequence[Sample]) -> dict[str, Any]:
    """The test over these samples, in order: where it stops."""
    sequential = Sequential(test)
    for sample in samples:
        if sequential.add(sample):
            break
    return sequential.result()


class Samples:
    """The samples of ``a`` against ``b`` from tables fed in schedule order (``blocks``:
    each table's block; with ``duplicate``, a block's tables are one sample, complete
    with its last table)."""

    def __init__(self, a: str, b: str, blocks: Mapping[int, int], duplicate: bool):
        self.a, self.b, self.blocks, self.duplicate = a, b, blocks, duplicate
        self.pending: list[Fraction] = []

    def feed(self, result: TableResult) -> list[Sample]:
        """The samples this table completes."""
        out: list[Sample] = []
        if self.a in result.names and self.b in result.names:
            i, j = result.names.index(self.a), result.names.index(self.b)
            scores = [Fraction(1) if ev[i] < ev[j] else Fraction(1, 2) if ev[i] == ev[j] else Fraction(0)
                      for ev in result.events]
            if not self.duplicate:
                return [Sample(s, 1, result.number) for s in scores]
            self.pending += scores
        last = self.blocks.get(result.number + 1) != self.blocks.get(result.number)
        if self.duplicate and last and self.pending:
            out.append(Sample(sum(self.pending, Fraction(0)) / len(self.pending), len(self.pending), result.number))
            self.pending = []
        return out


def samples(results: Sequence[TableResult], blocks: Mapping[int, int], a: str, b: str,
            duplicate: bool) -> list[Sample]:
    """Every sample of these results (in schedule order)."""
    feed = Samples(a, b, blocks, duplicate)
    return [s for res in sorted(results, key=lambda r: r.number) for s in feed.feed(res)]
