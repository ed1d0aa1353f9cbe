"""``pitboss validate --jobs N``: every core, the same output.

The parent reads each file, cuts it into records (the splitter is about 1 % of the work)
and hands them to worker processes in batches; a contest-server log is one unit (its games
are chained: a worker validates the whole file). Reports come back in input order, file by
file and record by record, so what is printed is byte for byte what one process prints.
At most a few batches per worker are in flight: memory stays flat however long the input.

A pool is started only when there is more than one unit of work: a small file is judged
in the parent, as with ``--jobs 1``.
"""

from __future__ import annotations

import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from referee.jobs.report import GameReport
from referee.jobs.validate import (
    Choices,
    judge_chunk,
    sniff,
    split,
    validate_file,
    validate_lines,
)
from referee.notation.records import Chunk, RecordFile, open_text

if TYPE_CHECKING:  # the pool's modules are slow to import: only when a pool starts
    from concurrent.futures import Future, ProcessPoolExecutor

#: A batch is cut when it holds this many records or this many characters of text.
BATCH_RECORDS = 200
BATCH_CHARS = 256 * 1024
#: Units in flight per worker (what bounds memory).
IN_FLIGHT_PER_JOB = 3


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, not the machine's count)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


class RunError(Exception):
    """What stops a run (exit status 2), after the reports of everything before it."""


@dataclass(frozen=True)
class Unread:
    """An input that could not be read, in its place in the stream of reports (the run
    goes on with the next input)."""

    path: str
    error: OSError


# ------------------------------------------------------------------ the work, in a worker

def _quiet_worker() -> None:
    # Ctrl-C is the parent's to handle; workers stop when the pool is shut down (and a
    # parent that held its signals while forking them does not hold theirs).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def call_packed(data: bytes) -> Any:
    """Run a call :func:`submit_packed` packed (in a worker)."""
    fn, args = pickle.loads(data)
    return fn(*args)


def judge_batch(file: str, items: list[tuple[Chunk, int]], settings: Choices | None = None) -> list[GameReport]:
    return [judge_chunk(chunk, file, index, settings) for chunk, index in items]


def validate_whole(path: str, settings: Choices | None = None) -> tuple[list[GameReport], OSError | None]:
    """Every report of one file (a contest log), and the read error that stopped it."""
    reports: list[GameReport] = []
    try:
        for report in validate_file(path, settings=settings):
            reports.append(report)
    except OSError as err:
        return reports, err
    return reports, None


# ------------------------------------------------------------------ units, in the parent

@dataclass
class _Unit:
    path: str
    #: "batch" (records judged in a worker), "whole" (a file judged in a worker), "here"
    #: (judged in the parent, streamed: a contest log on standard input), "error".
    kind: str
    file: str = ""
    items: list[tuple[Chunk, int]] = field(default_factory=list)
    fractions: list[float | None] = field(default_factory=list)
    stream: Iterator[GameReport] | None = None
    error: OSError | None = None
    future: Future | None = None

    def run_here(self, settings: Choices | None) -> Any:
        if self.kind == "batch":
            return judge_batch(self.file, self.items, settings)
        if self.kind == "whole":
            return validate_whole(self.path, settings)
        return None


def _units(paths: Iterable[str], stdin: TextIO | None, batch_records: int,
           settings: Choices | None) -> Generator[_Unit, None, None]:
    for path in paths:
        name = "<stdin>" if path == "-" else path
        try:
            handle = open_text(path, stdin)
        except OSError as err:
            yield _Unit(path, "error", error=err)
            continue
        size = None if path == "-" else _size(path)
        try:
            stream, reader = sniff(handle)
            if reader is not None:
                if path == "-":
                    yield _Unit(path, "here", stream=validate_lines(stream, name, settings))
                else:
                    yield _Unit(path, "whole")
                continue
            unit = _Unit(path, "batch", file=name)
            chars = 0
            for index, chunk in enumerate(split(stream), start=1):
                unit.items.append((chunk, index))
                unit.fractions.append(_fraction(handle, size))
                chars += len(chunk.text)
                if len(unit.items) >= batch_records or chars >= BATCH_CHARS:
                    yield unit
                    unit, chars = _Unit(path, "batch", file=name), 0
            if unit.items:
                yield unit
        except OSError as err:
            yield _Unit(path, "error", error=err)
            continue
        finally:
            if path != "-":
                handle.close()


def _size(path: str) -> int | None:
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def _fraction(handle: RecordFile | TextIO, size: int | None) -> float | None:
    if isinstance(handle, RecordFile):
        return handle.fraction()
    try:
        return handle.buffer.tell() / size if size else None
    except (AttributeError, OSError, ValueError):
        return None


def _warm(units: Iterable[_Unit], settings: Choices | None) -> None:
    """Judge, once and to nowhere, the first record of each game among ``units`` before the
    workers are forked: they then start with that game's modules imported and its parsers
    built (paid once instead of once per worker)."""
    seen: set[str | None] = set()
    for unit in units:
        for chunk, index in unit.items[:1]:
            if chunk.game not in seen:
                seen.add(chunk.game)
                judge_chunk(chunk, unit.file, index, settings)


@contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held (delivered on leaving): around the first submits to a
    pool, which fork its workers, so that a signal arriving meanwhile is not lost."""
    stopping = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def start_pool(jobs: int) -> ProcessPoolExecutor:
    """Worker processes; forked where the platform can (they start with the parsers and
    engines already loaded), else spawned."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_quiet_worker)


def submit_packed(pool: ProcessPoolExecutor, fn: Callable[..., Any], *args: Any) -> Future:
    """``pool.submit(fn, *args)``, the call pickled here first: what cannot be sent to a
    worker (a setting that does not pickle) is a :class:`RunError` of this call, never an
    error in the pool's feeder thread, which leaves a pool that waits for ever."""
    try:
        data = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as err:  # noqa: BLE001 - PicklingError, TypeError, AttributeError, ...
        raise RunError(f"the work cannot be sent to a worker process ({type(err).__name__}: {err}); "
                       "run with --jobs 1") from err
    return pool.submit(call_packed, data)


def worker_failed(err: BaseException, what: str) -> RunError:
    """The one-line error for a call that raised in a worker process."""
    return RunError(f"{what} failed in a worker process ({type(err).__name__}: {err}); run again with --jobs 1")


def validate_paths(paths: Iterable[str], jobs: int | None = None, stdin: TextIO | None = None,
                   batch_records: int = BATCH_RECORDS, settings: Choices | None = None,
                   ) -> Iterator[tuple[GameReport | Unread, float | None]]:
    """Each record's report of each file, in input order, with how far through its file
    the reader is (None for standard input), validated on ``jobs`` processes (default:
    the cores available), records sent to the workers ``batch_records`` at a time, judged
    under ``settings`` (``validate.parse_settings``) where given. A file that cannot be
    read is an :class:`Unread` in its place, and the run goes on."""
    jobs = available_cores() if jobs is None else jobs
    if jobs <= 1:
        yield from _serial(paths, stdin, settings)
        return
    units = _units(paths, stdin, batch_records, settings)
    pending: deque[_Unit] = deque()
    pool: ProcessPoolExecutor | None = None
    limit = jobs * IN_FLIGHT_PER_JOB
    exhausted = False
    broken: tuple[type[BaseException], ...] = ()  # what a pool raises when a worker dies
    done = False

    def submit(unit: _Unit) -> None:
        assert pool is not None
        try:
            _submit(unit)
        except broken as err:  # the pool is refused new work once a worker died
            raise RunError(f"a worker process died before {unit.path} was judged ({err}); "
                           "run again, or with --jobs 1") from err

    def _submit(unit: _Unit) -> None:
        assert pool is not None
        if unit.kind == "batch":
            unit.future = submit_packed(pool, judge_batch, unit.file, unit.items, settings)
            unit.items = []  # the worker has its copy; keep memory to what is in flight
        elif unit.kind == "whole":
            unit.future = submit_packed(pool, validate_whole, unit.path, settings)

    try:
        while True:
            # Read ahead until enough is in flight; a unit judged here (standard input)
            # or an unreadable file ends the read-ahead until it is reached.
            while not exhausted and len(pending) < limit and not (pending and pending[-1].kind in ("here", "error")):
                unit = next(units, None)
                if unit is None:
                    exhausted = True
                    break
                pending.append(unit)
                if pool is None and len(pending) > 1:
                    _warm(pending, settings)
                    pool = start_pool(jobs)
                    from concurrent.futures import BrokenExecutor

                    broken = (BrokenExecutor,)
                    with signals_held():  # these submits fork the workers
                        for earlier in pending:
                            submit(earlier)
                elif pool is not None:
                    submit(unit)
            if not pending:
                done = True
                return
            yield from _delivered(pending.popleft(), settings, broken)
    finally:
        units.close()
        if pool is not None:
            # At the end the workers are idle: wait for them to go (leaving them to the
            # interpreter's exit races its pipes). Stopped early (| head, an error): drop
            # what is queued and go now.
            pool.shutdown(wait=done, cancel_futures=not done)


def _delivered(unit: _Unit, settings: Choices | None,
               broken: tuple[type[BaseException], ...]) -> Iterator[tuple[GameReport | Unread, float | None]]:
    """A unit's reports, in order, once its turn has come: an unreadable file's
    :class:`Unread`, standard input's as it is read, a worker's as it sent them."""
    if unit.kind == "error":
        assert unit.error is not None
        yield Unread(unit.path, unit.error), None
        return
    if unit.kind == "here":
        assert unit.stream is not None
        for report in unit.stream:
            yield report, None
        return
    try:
        result = unit.future.result() if unit.future is not None else unit.run_here(settings)
    except broken as err:
        raise RunError(f"a worker process died while validating {unit.path} ({err}); "
                       "run again, or with --jobs 1") from err
    except Exception as err:  # noqa: BLE001 - whatever the worker raised, said in one line
        raise worker_failed(err, f"validating {unit.path}") from err
    if unit.kind == "batch":
        yield from zip(result, unit.fractions)
        return
    reports, error = result
    for report in reports:
        yield report, 1.0
    if error is not None:
        yield Unread(unit.path, error), None


def _serial(paths: Iterable[str], stdin: TextIO | None,
            settings: Choices | None) -> Iterator[tuple[GameReport | Unread, float | None]]:
    """One process, streamed, record by record (``--jobs 1``)."""
    for path in paths:
        name = "<stdin>" if path == "-" else path
        try:
            handle = open_text(path, stdin)
        except OSError as err:
            yield Unread(path, err), None
            continue
        size = None if path == "-" else _size(path)
        try:
            for report in validate_lines(handle, name, settings):
                yield report, _fraction(handle, size)
        except OSError as err:
            yield Unread(path, err), None
        finally:
            if path != "-":
                handle.close()
