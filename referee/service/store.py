"""Durable storage of live tables: SQLite (embedded, the default) or PostgreSQL.

One schema for both, created or migrated on start. Writes go through one writer thread
that commits the writes waiting at that moment in one transaction (group commit,
:mod:`referee.service.writer`): a move is acknowledged only once its transaction is
committed (SQLite in WAL mode with ``synchronous=FULL``; a PostgreSQL commit), and
concurrent tables share the fsync.

Each move is a row keyed by (table, ply): a second server on the same database that
tries to store a move at a ply already taken gets :class:`Conflict`, never a second row.

When the database cannot be used (a lost PostgreSQL connection, a full disk, an I/O
error), a write or read fails with :class:`Unavailable` and nothing is acknowledged; the
store connects again by itself, with back-off, and says how the database is
(``health``; ``check()`` commits a probe when nothing was committed lately).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from referee.service.writer import Backoff, Conflict, GroupWriter, Unavailable, close_quietly

__all__ = ["Conflict", "MoveRow", "Store", "TableRow", "Unavailable", "now", "open_store"]

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


class Store(GroupWriter):
    """The database: ``open_store(url)`` picks the backend (each subclass says how to
    connect and what a conflicting write looks like)."""

    kind = "sqlite"

    def __init__(self) -> None:
        super().__init__()
        self._read: Any = None
        self._read_lock = threading.Lock()
        self._read_backoff = Backoff()
        self._read_lost = 0.0

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        conn = self._connect()
        try:
            self._migrate(conn)
        finally:
            conn.close()
        self._read = self._connect()
        self.start_writer()

    def close(self) -> None:
        if self.stop_writer():
            with self._read_lock:
                close_quietly(self._read)
                self._read = None

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
        """Rows of one read, on the read connection (connected again once when it was
        lost; :class:`Unavailable` when that fails too, or failed a moment ago)."""
        with self._read_lock:
            for attempt in (0, 1):
                try:
                    if self._read is None:
                        wait = self._read_backoff.wait()
                        # within the back-off, unless the writer has committed since the read failed
                        if wait > 0 and not (self.health.writable and self.health.committed > self._read_lost):
                            raise Unavailable("the database is unavailable for reading", wait)
                        self._read = self._connect()
                    cur = self._read.cursor()
                    cur.execute(self._sql(statement), params)
                    rows = cur.fetchall()
                    self._read.commit()  # end the read transaction: the next read sees new commits
                    self._read_backoff.reset()
                    return rows
                except Exception as err:
                    if isinstance(err, Unavailable) or not self._is_lost(err):
                        raise
                    close_quietly(self._read)
                    self._read = None
                    if attempt:
                        self._read_backoff.failed()
                        self._read_lost = time.monotonic()
                        raise Unavailable(f"the database is unavailable: {err}", self._read_backoff.delay) from err
            raise AssertionError("unreachable")

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

    #: SQLite's primary result codes that say the database cannot be used now, rather
    #: than that the statement is wrong: BUSY, LOCKED, NOMEM, READONLY, IOERR, CORRUPT,
    #: FULL, CANTOPEN, PROTOCOL, NOTADB (https://sqlite.org/rescode.html).
    LOST = frozenset({5, 6, 7, 8, 10, 11, 13, 14, 15, 26})

    def _is_lost(self, err: Exception) -> bool:
        code = getattr(err, "sqlite_errorcode", None)
        return isinstance(err, sqlite3.DatabaseError) and code is not None and code & 0xFF in self.LOST


class _SQLiteConn:
    """sqlite3 in autocommit mode with explicit BEGIN IMMEDIATE (a writer takes the lock
    at once, so two servers never deadlock upgrading a read lock).

    Whether a transaction is open is SQLite's own word (``in_transaction``), never a flag
    kept here: a COMMIT that fails on a full disk may already have been rolled back by
    SQLite, and one that fails otherwise may not."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def begin(self) -> None:
        if self.conn.in_transaction:  # what a failed commit left open: none of it is wanted
            self.conn.execute("ROLLBACK")
        self.conn.execute("BEGIN IMMEDIATE")

    def cursor(self):
        return self.conn.cursor()

    def commit(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("COMMIT")

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def close(self) -> None:
        self.conn.close()


class PostgresStore(Store):
    kind = "postgresql"

    def __init__(self, url: str):
        super().__init__()
        self.url = url

    def _connect(self):
        import psycopg

        # a server that does not answer is given up in seconds, not at the TCP timeout
        return psycopg.connect(self.url, autocommit=False, connect_timeout=5, keepalives=1,
                               keepalives_idle=10, keepalives_interval=3, keepalives_count=3)

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s")

    def _lock_schema(self, cur) -> None:
        # two servers starting together migrate one after the other
        cur.execute("SELECT pg_advisory_xact_lock(4242001)")

    def _is_conflict(self, err: Exception) -> bool:
        import psycopg

        return isinstance(err, psycopg.errors.UniqueViolation)

    def _is_lost(self, err: Exception) -> bool:
        import psycopg

        # the connection lost or refused, the server shutting down, its disk full
        return isinstance(err, (psycopg.OperationalError, psycopg.InterfaceError))


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
