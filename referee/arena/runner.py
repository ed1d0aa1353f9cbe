"""Running the tables: one after another here, on a pool of worker processes
(``--concurrency N``), or as tasks on a Dask cluster (``--dask ADDRESS``). Each finished
table's record is written (atomically), then its journal line (synced): a kill at any
moment loses at most the tables in flight, which a resume plays again.

With an SPRT the results are taken in schedule order: once the tables finished so far
without a gap decide the test, no more are started, and the tables past the deciding
one do not count.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from typing import Any

from referee.arena.play import play_table
from referee.arena.table import TableResult, TableSpec

#: Tables in flight per worker (a little queued keeps the workers busy).
IN_FLIGHT_PER_WORKER = 2


def serial(specs: Sequence[TableSpec]) -> Generator[TableResult, None, None]:
    for spec in specs:
        yield play_table(spec)


def pooled(specs: Sequence[TableSpec], workers: int) -> Generator[TableResult, None, None]:
    """The tables on ``workers`` processes, yielded as they finish."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from referee.jobs.parallel import signals_held, start_pool

    pool = start_pool(workers)
    todo = deque(specs)
    running: set[Any] = set()
    done = False
    try:
        while todo or running:
            while todo and len(running) < workers * IN_FLIGHT_PER_WORKER:
                with signals_held():
                    running.add(pool.submit(play_table, todo.popleft()))
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
        done = True
    finally:
        pool.shutdown(wait=done, cancel_futures=not done)


def on_dask(specs: Sequence[TableSpec], scheduler: Any) -> Generator[TableResult, None, None]:
    """The tables as tasks on a Dask cluster, yielded as they finish."""
    import uuid

    from distributed import as_completed

    from referee.jobs.cluster import connect, wait_for_one

    client, own = connect(scheduler)
    run = uuid.uuid4().hex[:12]
    try:
        threads = sum(client.nthreads().values()) or 1
        todo = deque(specs)
        futures = as_completed()
        waiting: set[Any] = set()

        def submit() -> None:
            spec = todo.popleft()
            future = client.submit(play_table, spec, key=f"pitboss-arena-{run}-{spec.number}", pure=False)
            futures.add(future)
            waiting.add(future)
        while todo and len(waiting) < threads * IN_FLIGHT_PER_WORKER:
            submit()
        while not futures.is_empty():
            if not futures.has_ready():
                wait_for_one(client, waiting)  # a cluster left without workers is an error, not a hang
            future = next(futures)
            waiting.discard(future)
            result = future.result()
            future.release()
            yield result
            if todo:
                submit()
    finally:
        if own:
            client.close()


def run_tables(specs: Sequence[TableSpec], concurrency: int, dask: Any = None) -> Generator[TableResult, None, None]:
    if dask is not None:
        return on_dask(specs, dask)
    if concurrency <= 1 or len(specs) <= 1:
        return serial(specs)
    return pooled(specs, concurrency)


class Progress:
    """A live progress line on a terminal (nothing otherwise)."""

    def __init__(self, total: int, write: Callable[[str], None] | None):
        self.total = total
        self.write = write
        self.start = time.monotonic()
        self.done = 0
        self.games = 0
        self.incidents = 0

    def update(self, result: TableResult) -> None:
        self.done += 1
        self.games += len(result.events)
        self.incidents += len(result.incidents)
        if self.write is None:
            return
        spent = time.monotonic() - self.start
        left = spent / self.done * (self.total - self.done) if self.done else 0
        self.write(f"\r\x1b[2K{self.done}/{self.total} tables, {self.games} games, {self.incidents} incidents, "
                   f"{spent:.0f} s, ~{left:.0f} s left")

    def close(self) -> None:
        if self.write is not None:
            self.write("\r\x1b[2K")
