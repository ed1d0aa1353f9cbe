"""The standings of a tournament, from its tables' results in schedule order (so that a
resumed tournament, whose tables finished in another order, gets the same figures).

- points: in each game, one for every seat ranked below, a half for every seat ranked
  level (Caravan: 1 the winner, 0 the loser; a Daifugo round: 4 the daifugo .. 0 the
  daihinmin at five); points per game with a 95 % interval (normal, from the games'
  spread);
- rating: openskill's Plackett-Luce model (each game a ranking of its seats), with the
  players' skill taken as fixed (no drift between games: ``tau`` 0), mu and the interval
  mu +- 1.96 sigma;
- crosstable: for every two entrants, the games both played: how often each ranked above;
- ``sprt``: a sequential test of two entrants' Elo difference (``GSPRT``, the normal
  approximation of the log-likelihood ratio that fishtest and fastchess use), each sample
  a game between the two, or with duplicate deals the mean over one block of tables that
  replayed the same deal (the correlated pair a pentanomial count treats as one);
- think times (p50, p99) and incidents, per entrant.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.arena.table import TableResult

Z95 = 1.959963984540054


def event_points(ranks: Sequence[int]) -> list[float]:
    return [sum(1.0 if r < o else 0.5 if r == o else 0.0 for j, o in enumerate(ranks) if j != i)
            for i, r in enumerate(ranks)]


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95 % interval (normal approximation; one value: no width)."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


@dataclass
class Sprt:
    a: str
    b: str
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @staticmethod
    def expected(elo: float) -> float:
        return 1 / (1 + 10 ** (-elo / 400))

    def llr(self, samples: Sequence[float], games_per_sample: float = 1.0) -> float:
        """The log-likelihood ratio of elo1 against elo0 given the samples (each a score
        of ``a`` against ``b`` in [0, 1], the mean of ``games_per_sample`` games); the
        variance is regularised by one sample of the most doubt its games allow (a
        game's 0.25, over its games), so that a run of one result is not certainty."""
        n = len(samples)
        if n < 2:
            return 0.0
        mean = statistics.fmean(samples)
        var = statistics.pvariance(samples, mean)
        var = (var * n + 0.25 / games_per_sample) / (n + 1.0)
        s0, s1 = self.expected(self.elo0), self.expected(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def run(self, samples: Sequence[tuple[float, int]]) -> dict[str, Any]:
        """Sequentially over (score, games in it): where the test stops."""
        lower, upper = self.bounds
        scores: list[float] = []
        games = 0
        llr = 0.0
        for score, count in samples:
            scores.append(score)
            games += count
            llr = self.llr(scores, games / len(scores))
            if llr >= upper or llr <= lower:
                return {"decided": True, "accept": "H1" if llr >= upper else "H0", "llr": llr, "games": games,
                        "samples": len(scores), "bounds": [lower, upper]}
        return {"decided": False, "accept": None, "llr": llr, "games": games, "samples": len(scores),
                "bounds": [lower, upper]}


def sprt_samples(results: Sequence[TableResult], blocks: dict[int, int], a: str, b: str,
                 duplicate: bool) -> list[tuple[float, int]]:
    """``a``'s scores against ``b``: one per game, or per block of duplicate tables."""
    samples: list[tuple[float, int]] = []
    pending: dict[int, list[float]] = {}
    for res in results:
        if a not in res.names or b not in res.names:
            continue
        i, j = res.names.index(a), res.names.index(b)
        scores = [1.0 if ev[i] < ev[j] else 0.5 if ev[i] == ev[j] else 0.0 for ev in res.events]
        if not duplicate:
            samples += [(s, 1) for s in scores]
            continue
        block = blocks.get(res.number, res.number)
        pending.setdefault(block, []).extend(scores)
        if len(pending[block]) and _block_done(res, blocks):
            got = pending.pop(block)
            samples.append((statistics.fmean(got), len(got)))
    for got in pending.values():
        if got:
            samples.append((statistics.fmean(got), len(got)))
    return samples


def _block_done(res: TableResult, blocks: dict[int, int]) -> bool:
    """Is this the block's last table (the next table, if any, is of another block)?"""
    return blocks.get(res.number + 1) != blocks.get(res.number)


def standings(names: Sequence[str], results: Sequence[TableResult]) -> dict[str, Any]:
    """Every entrant's figures, the crosstable, the rating's history (for the plots)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    ratings = {n: model.rating(name=n) for n in names}
    points: dict[str, list[float]] = {n: [] for n in names}
    think: dict[str, list[float]] = {n: [] for n in names}
    incidents: dict[str, Counter[str]] = {n: Counter() for n in names}
    cross: dict[str, dict[str, list[int]]] = {a: {b: [0, 0, 0] for b in names if b != a} for a in names}
    history: list[dict[str, Any]] = []
    games = 0
    for res in sorted(results, key=lambda r: r.number):
        for seat, times in zip(res.names, res.think, strict=False):
            think[seat].extend(times)
        for inc in res.incidents:
            incidents[inc["entrant"]][inc["kind"]] += 1
        for ev in res.events:
            games += 1
            for seat, p in zip(res.names, event_points(ev), strict=True):
                points[seat].append(p)
            teams = [[ratings[n]] for n in res.names]
            rated = model.rate(teams, ranks=list(ev))
            for n, team in zip(res.names, rated, strict=True):
                ratings[n] = team[0]
            for i, a in enumerate(res.names):
                for j, b in enumerate(res.names):
                    if i != j:
                        cross[a][b][0 if ev[i] < ev[j] else 1 if ev[i] == ev[j] else 2] += 1
        history.append({"table": res.number, "games": games, "mu": {n: round(ratings[n].mu, 3) for n in names}})
    rows: list[dict[str, Any]] = []
    for n in names:
        mean, lo, hi = interval(points[n])
        r = ratings[n]
        rows.append({
            "name": n, "games": len(points[n]), "points": sum(points[n]),
            "points_per_game": mean, "points_per_game_interval": [lo, hi],
            "rating": r.mu, "rating_sigma": r.sigma, "rating_interval": [r.mu - Z95 * r.sigma, r.mu + Z95 * r.sigma],
            "incidents": sum(incidents[n].values()), "incident_kinds": dict(sorted(incidents[n].items())),
            "think": {"moves": len(think[n]), "p50_ms": _ms(percentile(think[n], 0.5)),
                      "p99_ms": _ms(percentile(think[n], 0.99))},
            "points_histogram": dict(sorted(Counter(points[n]).items())),
        })
    rows.sort(key=lambda row: (-row["rating"], row["name"]))
    crosstable = {a: {b: {"wins": w, "draws": d, "losses": lo,
                          "score": (w + d / 2) / (w + d + lo) if w + d + lo else None}
                      for b, (w, d, lo) in row.items()} for a, row in cross.items()}
    return {"entrants": rows, "crosstable": crosstable, "games": games, "history": history}


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)
