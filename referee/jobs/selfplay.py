"""``pitboss selfplay GAME``: random legal, complete games, as each game describes them,
on every core.

A game's self-play is data on its :class:`~referee.jobs.game.Game` (``selfplay``): what
one generated item is called, the options its generator takes beyond the common ones
(how many, the seed, the rule set), and its *maker* (loaded when first called): given the
rule set and the options it checks them (ValueError) and returns a callable that makes
item number ``index`` of seed ``seed`` on its own, from a random generator seeded with
both (:func:`unit_random`). Items are independent of each other, so any number of
processes make the same items: :func:`produce` hands out consecutive indices in batches
to worker processes (the pool of :mod:`referee.jobs.parallel`) and yields the items in
index order; at most a few batches per worker are in flight, so memory stays flat.

An item has ``text()`` (its notation) and ``counts()`` (``{"moves": ...}`` and whatever
else the game counts); a maker whose items each fill a file of their own (a contest log)
says so with ``whole_file`` and its items name their file (``file_name(number)``).
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from referee.jobs.game import Game, Maker, WholeFile

if TYPE_CHECKING:
    from concurrent.futures import Future


ItemT = TypeVar("ItemT")


def items(maker: Callable[[int, int], ItemT], count: int, seed: int, start: int = 0) -> Iterator[ItemT]:
    """Items ``start`` to ``start + count - 1`` of ``seed``, made in this process as they
    are asked for, in order."""
    return (maker(seed, index) for index in range(start, start + count))


def unit_random(seed: int, index: int) -> random.Random:
    """The random generator item ``index`` of ``seed`` is made from: its own, so that each
    item is the same whichever process makes it and whatever was made before it."""
    return random.Random(f"{seed}:{index}")


# ------------------------------------------------------------------ on every core

#: A batch is sized to take about this much CPU time in a worker (the first batches hold
#: one item each, until an item's cost is known) ...
BATCH_SECONDS = 0.05
#: ... and at most this many items.
BATCH_MAX = 512


@dataclass(frozen=True)
class Made:
    """One item as the parent writes it: its text, its counts, its file name (or None)."""

    index: int
    text: str
    counts: dict[str, int]
    file_name: str | None = None


class MakeError(Exception):
    """Making one item raised: which one, and what it raised (a worker's exception travels
    back to the parent as this)."""

    def __init__(self, index: int, why: str) -> None:
        super().__init__(index, why)
        self.index = index
        self.why = why


def _made(maker: Maker, seed: int, index: int) -> Made:
    try:
        item = maker(seed, index)
        if not maker.whole_file:
            return Made(index, item.text(), item.counts())
        assert isinstance(item, WholeFile)
        return Made(index, item.text(), item.counts(), item.file_name(index + 1))
    except Exception as err:  # any failure of one item is reported as that item's
        raise MakeError(index, f"{type(err).__name__}: {err}") from None


def make_batch(maker: Maker, seed: int, start: int, stop: int) -> tuple[list[Made], float, MakeError | None]:
    """Items ``start`` to ``stop - 1`` (in a worker), the CPU time they took, and the
    failure that stopped the batch early (the items before it are kept: they are written)."""
    c0 = time.process_time()
    items = []
    try:
        for index in range(start, stop):
            items.append(_made(maker, seed, index))
    except MakeError as err:
        return items, time.process_time() - c0, err
    return items, time.process_time() - c0, None


def produce(maker: Maker, count: int, seed: int, jobs: int | None = None, noun: str = "items",
            start: int = 0) -> Generator[Made, None, None]:
    """Items ``start`` to ``start + count - 1`` of ``seed``, in order, made on ``jobs``
    processes (default: the cores available; one item, or one job, is made here). The
    items are the same for any ``jobs``. Raises :class:`~referee.jobs.parallel.RunError`
    when making an item fails (after yielding every item before it) or a worker process
    dies: the pool then fails every batch not yet finished, so the run yields every
    finished batch before the first failed one and names the number from which nothing
    was made (the dead worker's item is that one or after it)."""
    from referee.jobs.parallel import RunError, available_cores

    jobs = available_cores() if jobs is None else jobs
    if jobs > 1 and count > 1:
        yield from _on_pool(maker, count, seed, jobs, noun, start)
        return
    for index in range(start, start + count):
        try:
            yield _made(maker, seed, index)
        except MakeError as err:
            raise RunError(_failed(err, noun, seed)) from None


def _on_pool(maker: Maker, count: int, seed: int, jobs: int, noun: str, start: int) -> Generator[Made, None, None]:
    """:func:`produce` on a pool of ``jobs`` worker processes: batches handed out in
    index order, at most a few per worker in flight, their items yielded in order."""
    from concurrent.futures import BrokenExecutor

    from referee.jobs.parallel import (
        IN_FLIGHT_PER_JOB,
        RunError,
        signals_held,
        start_pool,
        submit_packed,
        worker_failed,
    )

    end = start + count
    pool = start_pool(min(jobs, count))
    pending: deque[tuple[int, int, Future]] = deque()
    limit = jobs * IN_FLIGHT_PER_JOB
    size, following = 1, start
    per_item: float | None = None
    done = False
    broken: BaseException | None = None  # the pool refused a batch: submit no more
    try:
        while True:
            while broken is None and following < end and len(pending) < limit:
                stop = min(end, following + size)
                try:
                    if following == start:
                        # The first batch forks the workers: a Ctrl-C or SIGTERM arriving
                        # meanwhile could be lost; it waits until they are started.
                        with signals_held():
                            future = submit_packed(pool, make_batch, maker, seed, following, stop)
                    else:
                        future = submit_packed(pool, make_batch, maker, seed, following, stop)
                except BrokenExecutor as err:  # refused once a worker has died: the batches
                    broken = err               # submitted before it may be finished, write them
                    break
                pending.append((following, stop, future))
                following = stop
            if not pending:
                if broken is not None:  # every batch in flight was finished
                    raise _died(noun, following, broken) from broken
                done = True
                return
            first, stop, future = pending.popleft()
            try:
                items, cpu, failed = future.result()
            except BrokenExecutor as err:  # the first batch the dead worker took down
                raise _died(noun, first, err) from err
            except Exception as err:  # noqa: BLE001 - whatever the worker raised, said in one line
                raise worker_failed(err, f"making {noun} from number {first + 1}") from err
            yield from items
            if failed is not None:
                raise RunError(_failed(failed, noun, seed))
            cost = cpu / (stop - first)
            per_item = cost if per_item is None else (per_item + cost) / 2
            size = _batch_size(per_item, end - following, jobs)
    finally:
        # Finished: the workers are idle, wait for them to go. Stopped early (| head, an
        # error, a worker gone): drop what is queued and go now.
        pool.shutdown(wait=done, cancel_futures=not done)


def _batch_size(per_item: float, left: int, jobs: int) -> int:
    """The next batch's size: about BATCH_SECONDS of work at ``per_item`` seconds an item,
    and small enough near the end (``left`` items not yet handed out) that every worker
    still has some of the rest."""
    return max(1, min(BATCH_MAX, int(BATCH_SECONDS / max(per_item, 1e-6)), -(-left // (2 * jobs))))


def _died(noun: str, first: int, err: BaseException) -> Exception:
    from referee.jobs.parallel import RunError

    return RunError(f"a worker process died while making {noun} ({err or type(err).__name__}): "
                    f"none was made from number {first + 1} on; run again, or with --jobs 1")


def _failed(err: MakeError, noun: str, seed: int) -> str:
    return f"making {noun} number {err.index + 1} (--seed {seed}) failed: {err.why}"


def produce_game(game: Game[Any, Any, Any, Any], count: int, seed: int, rules: str | None = None,
                 jobs: int | None = None,
                 start: int = 0, **options: object) -> Generator[Made, None, None]:
    """A game's self-play on every core, from Python: ``count`` items from number
    ``start`` as :func:`produce` yields them (ValueError for options the game refuses,
    before any is made)."""
    spec = game.selfplay
    if spec is None:
        raise LookupError(f"{game.name} has no self-play")
    maker = spec.prepare(rules or game.default_rules, **options)
    return produce(maker, count, seed, jobs, spec.noun, start)

