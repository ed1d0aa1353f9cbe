"""Durable storage of live tables: SQLite (embedded, the default) or PostgreSQL.

One schema for both, created or migrated on start. Writes go through one writer thread
that commits the writes waiting at that moment in one transaction (group commit): a move
is acknowledged only once its transaction is committed (SQLite in WAL mode with
``synchronous=FULL``; a PostgreSQL commit), and concurrent tables share the fsync.

Each move is a row keyed by (table, ply): a second server on the same database that
tries to store a move at a ply already taken gets :class:`Conflict`, never a second row.
"""

from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = 2

#: Migrations: version -> statements (the same SQL for both databases).
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE IF NOT EXISTS live_tables (
            id TEXT PRIMARY KEY,
            created DOUBLE PRECISION NOT NULL,
            game TEXT NOT NULL,
            rules TEXT NOT NULL,
            setup TEXT NOT NULL,
            seats TEXT NOT NULL,
            tokens TEXT NOT NULL,
            clock DOUBLE PRECISION,
            status TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS live_tables_created ON live_tables (created, id)",
        """CREATE TABLE IF NOT EXISTS live_moves (
            table_id TEXT NOT NULL,
            ply INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            stored TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, ply)
        )""",
    ),
    # the seats whose token has been used (a table is ``waiting`` until its human seats are taken)
    2: ("ALTER TABLE live_tables ADD COLUMN claimed TEXT NOT NULL DEFAULT '[]'",),
}


class Conflict(Exception):
    """A write that another writer got to first (a move at a ply already stored)."""


@dataclass
class TableRow:
    id: str
    created: float
    game: str
    rules: str
    setup: dict[str, Any]
    #: [{"name", "bot"}] in seat order.
    seats: list[dict[str, Any]]
    #: sha256 hex of each seat's token, in seat order.
    tokens: list[str]
    clock: float | None
    status: str
    #: The seats whose token has been used, in the order they were first used.
    claimed: list[int] = field(default_factory=list)


@dataclass
class MoveRow:
    ply: int
    seat: int
    stored: str
    at: float


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


class Store(ABC):
    """The database: ``open_store(url)`` picks the backend (each subclass says how to
    connect and what a conflicting write looks like)."""

    kind = "sqlite"
    #: How many waiting writes one transaction takes at most.
    BATCH = 1000

    def __init__(self) -> None:
        self._queue: queue.Queue[_Unit | None] = queue.Queue()
        self._writer: threading.Thread | None = None
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

    def _begin(self, conn) -> None:
        pass

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        conn = self._connect()
        try:
            self._migrate(conn)
        finally:
            conn.close()
        self._read = self._connect()
        self._read_lock = threading.Lock()
        self._writer = threading.Thread(target=self._write_loop, name="pitboss-store-writer", daemon=True)
        self._writer.start()

    def close(self) -> None:
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join()
            self._writer = None
            self._read.close()

    def _migrate(self, conn) -> None:
        cur = conn.cursor()
        self._begin(conn)
        self._lock_schema(cur)
        cur.execute("CREATE TABLE IF NOT EXISTS pitboss_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        cur.execute(self._sql("SELECT value FROM pitboss_meta WHERE key = ?"), ("schema_version",))
        row = cur.fetchone()
        version = int(row[0]) if row else 0
        if version > SCHEMA_VERSION:
            conn.rollback()
            raise RuntimeError(f"the database has schema version {version}, newer than this pitboss "
                               f"({SCHEMA_VERSION}); upgrade pitboss")
        for v in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[v]:
                cur.execute(statement)
        if version == 0:
            cur.execute(self._sql("INSERT INTO pitboss_meta (key, value) VALUES (?, ?)"),
                        ("schema_version", str(SCHEMA_VERSION)))
        elif version < SCHEMA_VERSION:
            cur.execute(self._sql("UPDATE pitboss_meta SET value = ? WHERE key = ?"),
                        (str(SCHEMA_VERSION), "schema_version"))
        conn.commit()

    def _lock_schema(self, cur) -> None:
        pass

    # ------------------------------------------------------------------ writes

    def _write_loop(self) -> None:
        conn = self._connect()
        try:
            while True:
                first = self._queue.get()
                if first is None:
                    return
                units = [first]
                stop = False
                while len(units) < self.BATCH:
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is None:
                        stop = True
                        break
                    units.append(nxt)
                try:
                    self._commit(conn, units)
                except Exception as err:  # the connection broke: fail these writes, connect again
                    _settle_units(units, [err] * len(units))
                    try:
                        conn.close()
                    except Exception:
                        pass
                    conn = self._connect()
                if stop:
                    return
        finally:
            conn.close()

    def _commit(self, conn, units: list[_Unit]) -> None:
        """One transaction for all these writes. First without savepoints (a savepoint per
        write is three more statements per move, and a conflict is rare: only a second
        server on the same database makes one); when a write fails, the transaction is
        rolled back and done again with a savepoint per write, so that one write's
        conflict sinks none of the others."""
        try:
            try:
                self._begin(conn)
                cur = conn.cursor()
                for statement, params in self._merged(units):
                    cur.execute(statement, params)
                results: list[BaseException | None] = [None] * len(units)
            except Exception:
                conn.rollback()
                results = self._each_in_savepoint(conn, units)
            conn.commit()
        except Exception as err:
            try:
                conn.rollback()
            except Exception:
                pass
            _settle_units(units, [err] * len(units))
            return
        self.commits += 1
        self.batched += len(units)
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

    _multis: dict[tuple[str, int], str] = {}

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
        """Commit these statements (one unit: all or nothing); returns once committed."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queue.put(_Unit(statements, fut, loop))
        await fut

    # ------------------------------------------------------------------ the service's writes

    @staticmethod
    def insert_table(row: TableRow) -> list[tuple[str, tuple]]:
        return [("INSERT INTO live_tables (id, created, game, rules, setup, seats, tokens, clock, status, claimed) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (row.id, row.created, row.game, row.rules, json.dumps(row.setup), json.dumps(row.seats),
                  json.dumps(row.tokens), row.clock, row.status, json.dumps(row.claimed)))]

    @staticmethod
    def update_claimed(table_id: str, claimed: list[int], status: str) -> list[tuple[str, tuple[Any, ...]]]:
        return [("UPDATE live_tables SET claimed = ?, status = ? WHERE id = ?",
                 (json.dumps(claimed), status, table_id))]

    @staticmethod
    def insert_move(table_id: str, move: MoveRow, status: str | None = None) -> list[tuple[str, tuple[Any, ...]]]:
        out: list[tuple[str, tuple[Any, ...]]] = [("INSERT INTO live_moves (table_id, ply, seat, stored, at) VALUES "
                                                   "(?, ?, ?, ?, ?)",
                (table_id, move.ply, move.seat, move.stored, move.at))]
        if status is not None:
            out.append(("UPDATE live_tables SET status = ? WHERE id = ?", (status, table_id)))
        return out

    @staticmethod
    def update_table(table_id: str, setup: dict[str, Any] | None = None,
                     status: str | None = None) -> list[tuple[str, tuple[Any, ...]]]:
        out: list[tuple[str, tuple[Any, ...]]] = []
        if setup is not None:
            out.append(("UPDATE live_tables SET setup = ? WHERE id = ?", (json.dumps(setup), table_id)))
        if status is not None:
            out.append(("UPDATE live_tables SET status = ? WHERE id = ?", (status, table_id)))
        return out

    # ------------------------------------------------------------------ reads

    def _query(self, statement: str, params: tuple = ()) -> list[tuple]:
        with self._read_lock:
            cur = self._read.cursor()
            cur.execute(self._sql(statement), params)
            rows = cur.fetchall()
            self._read.commit()  # end the read transaction: the next read sees new commits
            return rows

    @staticmethod
    def _table(row: tuple) -> TableRow:
        return TableRow(row[0], row[1], row[2], row[3], json.loads(row[4]), json.loads(row[5]),
                        json.loads(row[6]), row[7], row[8], json.loads(row[9]))

    _COLUMNS = "id, created, game, rules, setup, seats, tokens, clock, status, claimed"

    def table(self, table_id: str) -> TableRow | None:
        rows = self._query(f"SELECT {self._COLUMNS} FROM live_tables WHERE id = ?", (table_id,))
        return self._table(rows[0]) if rows else None

    def moves(self, table_id: str) -> list[MoveRow]:
        rows = self._query("SELECT ply, seat, stored, at FROM live_moves WHERE table_id = ? ORDER BY ply",
                           (table_id,))
        return [MoveRow(*r) for r in rows]

    def unfinished(self) -> list[str]:
        return [r[0] for r in self._query("SELECT id FROM live_tables WHERE status NOT IN (?, ?) ORDER BY created",
                                          ("finished", "interrupted"))]

    def page(self, limit: int, before: tuple[float, str] | None) -> list[TableRow]:
        """Tables newest first; ``before`` (created, id) continues after that table."""
        if before is None:
            rows = self._query(f"SELECT {self._COLUMNS} FROM live_tables ORDER BY created DESC, id DESC LIMIT ?",
                               (limit,))
        else:
            rows = self._query(f"SELECT {self._COLUMNS} FROM live_tables WHERE created < ? OR "
                               f"(created = ? AND id < ?) ORDER BY created DESC, id DESC LIMIT ?",
                               (before[0], before[0], before[1], limit))
        return [self._table(r) for r in rows]


class SQLiteStore(Store):
    kind = "sqlite"

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _connect(self):
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA busy_timeout=30000")
        return _SQLiteConn(conn)

    def _begin(self, conn) -> None:
        conn.begin()

    def _is_conflict(self, err: Exception) -> bool:
        return isinstance(err, sqlite3.IntegrityError)


class _SQLiteConn:
    """sqlite3 in autocommit mode with explicit BEGIN IMMEDIATE (a writer takes the lock
    at once, so two servers never deadlock upgrading a read lock)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self.open = False

    def begin(self) -> None:
        if not self.open:
            self.conn.execute("BEGIN IMMEDIATE")
            self.open = True

    def cursor(self):
        return self.conn.cursor()

    def commit(self) -> None:
        if self.open:
            self.conn.execute("COMMIT")
            self.open = False

    def rollback(self) -> None:
        if self.open:
            self.conn.execute("ROLLBACK")
            self.open = False

    def close(self) -> None:
        self.conn.close()


class PostgresStore(Store):
    kind = "postgresql"

    def __init__(self, url: str):
        super().__init__()
        self.url = url

    def _connect(self):
        import psycopg

        return psycopg.connect(self.url, autocommit=False)

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s")

    def _lock_schema(self, cur) -> None:
        # two servers starting together migrate one after the other
        cur.execute("SELECT pg_advisory_xact_lock(4242001)")

    def _is_conflict(self, err: Exception) -> bool:
        import psycopg

        return isinstance(err, psycopg.errors.UniqueViolation)


def open_store(url: str) -> Store:
    """``postgresql://...`` (or ``postgres://``): PostgreSQL; anything else: a SQLite file."""
    if url.startswith(("postgresql://", "postgres://")):
        store: Store = PostgresStore(url)
    else:
        store = SQLiteStore(url)
    store.start()
    return store


def now() -> float:
    return time.time()
