"""What every endpoint of a running service reaches: its table hub, its database, the
per-token request rate (:class:`Limits`) and the event readers' limits."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from referee.service.store import Store
from referee.service.tables import TableHub
from referee.service.views import Readers


class Limits:
    """Per-token request rate: a token bucket of ``burst`` requests refilled at ``rate``/s.

    A bucket that has refilled to ``burst`` is the same as none, so such buckets are
    dropped as they come (a sweep at most once every ``burst / rate`` seconds): the map
    holds only the tokens used in the last few seconds, never one entry per table ever
    played."""

    def __init__(self, rate: float, burst: float):
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, tuple[float, float]] = {}
        self._full_after = burst / rate
        self._swept = time.monotonic()

    def allow(self, key: str) -> bool:
        t = time.monotonic()
        if t - self._swept > self._full_after:
            self._sweep(t)
        tokens, last = self.buckets.get(key, (self.burst, t))
        tokens = min(self.burst, tokens + (t - last) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, t)
            return False
        self.buckets[key] = (tokens - 1, t)
        return True

    def _sweep(self, t: float) -> None:
        self._swept = t
        burst, rate = self.burst, self.rate
        self.buckets = {k: (n, last) for k, (n, last) in self.buckets.items() if n + (t - last) * rate < burst}


@dataclass
class Service:
    hub: TableHub
    store: Store
    limits: Limits
    #: The event readers' limits (bytes behind, seconds stalled) and the dropped ones.
    readers: Readers = field(default_factory=Readers)
