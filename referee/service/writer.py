"""Group commit: the writes of a store go through one writer thread that commits the
writes waiting at that moment in one transaction, so that concurrent tables share one
fsync. A write is settled (its caller told) only once its transaction is committed or
has failed.

When the database cannot be used (the connection lost, the disk full, an I/O error), the
writes of that moment fail with :class:`Unavailable`; the writer drops its connection,
fails new writes at once while it waits (:class:`Backoff`), then connects again and
probes the database with a small commit of its own, until one succeeds. :attr:`health`
says how the database was last found. A write whose connection was lost during its
commit may or may not be stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any


class Conflict(Exception):
    """A write that another writer got to first (a move at a ply already stored)."""


class Unavailable(Exception):
    """The database cannot take this write or read now; ``retry_after``: seconds until
    the store tries again."""

    def __init__(self, message: str, retry_after: float = 1.0):
        super().__init__(message)
        self.retry_after = retry_after


class Backoff:
    """When to try a lost database again: ``first`` seconds after the first failure,
    twice as long after each further one, at most ``most``."""

    def __init__(self, first: float = 0.05, most: float = 0.5):
        self.first, self.most = first, most
        self.delay = 0.0
        self.at = 0.0

    def failed(self) -> None:
        self.delay = min(self.most, self.delay * 2 if self.delay else self.first)
        self.at = time.monotonic() + self.delay

    def reset(self) -> None:
        self.delay = 0.0
        self.at = 0.0

    def wait(self) -> float:
        """Seconds until the next try (0: now)."""
        return max(0.0, self.at - time.monotonic())


@dataclass
class Health:
    """The database as the store last found it."""

    writable: bool = True
    #: What went wrong, while it is not writable.
    error: str | None = None
    #: When it became what it is (time.time()).
    since: float = field(default_factory=lambda: time.time())
    #: When a commit last succeeded (time.monotonic()).
    committed: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"writable": self.writable, "error": self.error, "since": self.since}


class _Unit:
    """One write: its statements (all or nothing) and who waits for it: a
    ``concurrent.futures.Future`` (``submit``), or an asyncio future on ``loop`` (``write``)."""

    __slots__ = ("statements", "future", "loop")

    def __init__(self, statements: Sequence[tuple[str, tuple]], future: Any, loop: Any = None):
        self.statements = statements
        self.future = future
        self.loop = loop


def _settle(future: Any, error: BaseException | None) -> None:
    """Tell the waiting request how its write went (unless it stopped waiting: a request
    cancelled mid-commit must not stop the writer)."""
    if future.done():
        return
    try:
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
    except Exception:  # cancelled between the check and the call
        pass


def _settle_all(done: list[tuple[Any, BaseException | None]]) -> None:
    for future, error in done:
        _settle(future, error)


def _settle_units(units: Sequence[_Unit], results: Sequence[BaseException | None]) -> None:
    """Settle a transaction's writes: the asyncio ones in one call per event loop (one
    wake-up of the loop per transaction, not one per move), the others at once."""
    by_loop: dict[Any, list[tuple[Any, BaseException | None]]] = {}
    for unit, result in zip(units, results):
        if unit.loop is None:
            _settle(unit.future, result)
        else:
            by_loop.setdefault(unit.loop, []).append((unit.future, result))
    for loop, done in by_loop.items():
        try:
            loop.call_soon_threadsafe(_settle_all, done)
        except RuntimeError:  # that loop is closed: nobody waits any more
            pass


def close_quietly(conn: Any) -> None:
    """Close a connection that may already be broken."""
    if conn is not None:
        with contextlib.suppress(Exception):
            conn.close()


class GroupWriter(ABC):
    """The writer of a store; the backend says how to connect, begin, and what its errors mean."""

    #: How many waiting writes one transaction takes at most.
    BATCH = 1000

    def __init__(self) -> None:
        self._queue: queue.Queue[_Unit | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._write_backoff = Backoff()
        #: Multi-row INSERTs as this backend writes them, by (statement, rows).
        self._multis: dict[tuple[str, int], str] = {}
        self.health = Health()
        self.commits = 0
        self.batched = 0

    # ------------------------------------------------------------------ backend hooks

    @abstractmethod
    def _connect(self) -> Any:
        """A new connection to the backend's database."""

    def _sql(self, statement: str) -> str:
        return statement

    @abstractmethod
    def _is_conflict(self, err: Exception) -> bool:
        """Is this error another writer's row for the same (table, ply)?"""

    @abstractmethod
    def _is_lost(self, err: Exception) -> bool:
        """Does this error mean the database cannot be used now (the connection lost, the
        disk full, an I/O error), rather than a fault of the statement?"""

    def _begin(self, conn) -> None:
        pass

    def start_writer(self) -> None:
        self._writer = threading.Thread(target=self._write_loop, name="pitboss-store-writer", daemon=True)
        self._writer.start()

    def stop_writer(self) -> bool:
        """Commit what is queued, then stop the writer; False when it was not running."""
        if self._writer is None:
            return False
        self._queue.put(None)
        self._writer.join()
        self._writer = None
        return True

    def _write_loop(self) -> None:
        conn = None
        try:
            while True:
                units, stop = self._take()
                if units:
                    conn = self._write(conn, units)
                if stop:
                    return
        finally:
            close_quietly(conn)

    def _take(self) -> tuple[list[_Unit], bool]:
        """The writes waiting now (at most BATCH), and whether the store is closing. While
        the database is lost, a probe of it when its back-off is over and nothing came."""
        try:
            first = self._queue.get(timeout=None if self.health.writable else self._write_backoff.wait())
        except queue.Empty:
            return [self._probe(Future())], False
        if first is None:
            return [], True
        units = [first]
        while len(units) < self.BATCH:
            try:
                nxt = self._queue.get_nowait()
            except queue.Empty:
                break
            if nxt is None:
                return units, True
            units.append(nxt)
        return units, False

    def _write(self, conn: Any, units: list[_Unit]) -> Any:
        """Commit ``units`` on ``conn`` (connecting first where there is none); the
        connection to use next (None: lost, connect again after the back-off)."""
        wait = self._write_backoff.wait()
        if not self.health.writable and wait > 0:  # lost a moment ago: fail fast, try again later
            _settle_units(units, [Unavailable(f"the database is unavailable: {self.health.error}",
                                              wait)] * len(units))
            return conn
        try:
            if conn is None:
                conn = self._connect()
            self._commit(conn, units)
        except Exception as err:
            if not self._is_lost(err):  # a fault of these writes (a bug): they fail, nothing else
                _settle_units(units, [err] * len(units))
                return conn
            self._write_backoff.failed()
            self._lost(err)
            _settle_units(units, [Unavailable(f"the database is unavailable: {self.health.error}",
                                              self._write_backoff.delay)] * len(units))
            close_quietly(conn)
            return None
        self._write_backoff.reset()
        return conn

    def unavailable(self) -> Unavailable | None:
        """While the database is lost: what a write would fail with now (None: it is not lost)."""
        health = self.health
        if health.writable:
            return None
        return Unavailable(f"the database is unavailable: {health.error}", max(self._write_backoff.wait(), 0.05))

    def _lost(self, err: Exception) -> None:
        text = f"{type(err).__name__}: {err}".strip().splitlines()[0][:300]
        if self.health.writable or self.health.error != text:
            self.health = Health(False, text, committed=self.health.committed)

    def _committed(self) -> None:
        if not self.health.writable:
            self.health = Health(True, committed=time.monotonic())
        else:
            self.health.committed = time.monotonic()

    def _commit(self, conn, units: list[_Unit]) -> None:
        """One transaction for all these writes. First without savepoints (a savepoint per
        write is three more statements per move, and a conflict is rare: only a second
        server on the same database makes one); when a write fails, the transaction is
        rolled back and done again with a savepoint per write, so that one write's
        conflict sinks none of the others. A lost database raises (nothing is settled)."""
        try:
            try:
                self._begin(conn)
                cur = conn.cursor()
                for statement, params in self._merged(units):
                    cur.execute(statement, params)
                results: list[BaseException | None] = [None] * len(units)
            except Exception as err:
                if self._is_lost(err):
                    raise
                conn.rollback()
                results = self._each_in_savepoint(conn, units)
            conn.commit()
        except Exception:
            with contextlib.suppress(Exception):
                conn.rollback()
            raise
        self.commits += 1
        self.batched += len(units)
        self._committed()
        _settle_units(units, results)

    #: Rows one merged INSERT takes at most (SQLite allows 32,766 parameters a statement).
    MERGE = 500

    def _merged(self, units: list[_Unit]) -> list[tuple[str, tuple]]:
        """The transaction's statements in order, each run of the same ``INSERT ... VALUES
        (...)`` merged into one multi-row INSERT: a transaction of N moves is one statement,
        not N (N round trips to PostgreSQL; N hand-overs of the GIL between the writer and
        the event loop, each up to the interpreter's switch interval when the loop is busy)."""
        out: list[tuple[str, tuple]] = []
        run: list[tuple] = []
        current = ""

        def flush() -> None:
            if not run:
                return
            if len(run) == 1:
                out.append((self._sql(current), run[0]))
            else:
                out.append((self._multi(current, len(run)), tuple(v for params in run for v in params)))
            run.clear()

        for unit in units:
            for statement, params in unit.statements:
                if statement != current or len(run) >= self.MERGE or not self._mergeable(statement):
                    flush()
                    current = statement
                run.append(params)
        flush()
        return out

    @staticmethod
    def _mergeable(statement: str) -> bool:
        return statement.startswith("INSERT INTO ") and statement.endswith(")") and " VALUES (" in statement

    def _multi(self, statement: str, rows: int) -> str:
        key = (statement, rows)
        text = self._multis.get(key)
        if text is None:
            head, _, row = statement.partition(" VALUES ")
            text = self._sql(f"{head} VALUES {', '.join([row] * rows)}")
            if len(self._multis) < 4096:
                self._multis[key] = text
        return text

    def _each_in_savepoint(self, conn, units: list[_Unit]) -> list[BaseException | None]:
        results: list[BaseException | None] = []
        self._begin(conn)
        cur = conn.cursor()
        for i, unit in enumerate(units):
            cur.execute(f"SAVEPOINT u{i}")
            try:
                for statement, params in unit.statements:
                    cur.execute(self._sql(statement), params)
                cur.execute(f"RELEASE SAVEPOINT u{i}")
                results.append(None)
            except Exception as err:  # one unit's conflict must not sink the others
                if self._is_lost(err):
                    raise
                cur.execute(f"ROLLBACK TO SAVEPOINT u{i}")
                cur.execute(f"RELEASE SAVEPOINT u{i}")
                results.append(Conflict(str(err)) if self._is_conflict(err) else err)
        return results

    def submit(self, statements: Sequence[tuple[str, tuple]]) -> Future:
        """Queue these statements (one unit: all or nothing); the future is settled once
        they are committed (or failed)."""
        fut: Future = Future()
        self._queue.put(_Unit(statements, fut))
        return fut

    async def write(self, statements: Sequence[tuple[str, tuple]]) -> None:
        """Commit these statements (one unit: all or nothing); returns once committed.
        :class:`Unavailable` when the database cannot take it now."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queue.put(_Unit(statements, fut, loop))
        await fut

    #: A write that changes nothing the service reads: it tells whether the database commits.
    PROBE = ("INSERT INTO pitboss_meta (key, value) VALUES (?, ?) "
             "ON CONFLICT (key) DO UPDATE SET value = excluded.value")

    def _probe(self, future: Any, loop: Any = None) -> _Unit:
        return _Unit([(self.PROBE, ("heartbeat", repr(time.time())))], future, loop)

    async def check(self, fresh: float = 1.0, timeout: float = 5.0) -> bool:
        """Can the database commit? Yes when a commit succeeded in the last ``fresh``
        seconds; otherwise a probe is committed (or fails) to find out."""
        if self.health.writable and time.monotonic() - self.health.committed < fresh:
            return True
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queue.put(self._probe(fut, loop))
        try:
            await asyncio.wait_for(fut, timeout)
        except (Unavailable, TimeoutError):
            return False
        except Exception:  # noqa: BLE001 - a probe that fails for any reason: not writable
            return False
        return True
