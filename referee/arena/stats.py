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
- think times (p50, p99) and incidents, per entrant.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
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
