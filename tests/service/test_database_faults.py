"""The database goes away under a running ``pitboss serve`` and comes back: PostgreSQL
stopped and started again; SQLite on a filesystem that fills up, then has room again.

While the database cannot commit, moves and table creation answer 503 with Retry-After
(never 500), ``/healthz`` answers 503 saying why, and no client is told anything false:
every move answered 200 is stored, and (SQLite, whose failed commit is rolled back) no
move answered otherwise is. Once the database is back the service carries on by itself:
moves, creation and listings answer again, bots and clocks play on.

The full disk is a real one where this process may mount a tmpfs (root with the right
to mount, as the session and CI's container run): a real ``pitboss serve`` with its
database on it. Where it may not, the same checks run in process with a connection that
fails its commits as a full disk does (SQLite rolls the transaction back, the COMMIT
raises ``database or disk is full``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import httpx
import pytest
from helpers import auth
from pg import LocalPostgres

MOVES_SQL = "SELECT table_id, ply, stored FROM live_moves"


class Players:
    """Threads playing the human seats of some tables as fast as answers come, every
    POST noted (table, ply sent, move, status, Retry-After)."""

    def __init__(self, client_factory, tables: list[tuple[str, dict[str, str]]]):
        self.factory, self.tables = client_factory, tables
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.posts: list[tuple[str, int, str, int, str | None]] = []
        self.threads = [threading.Thread(target=self._play, args=t, daemon=True) for t in tables]

    def __enter__(self) -> Players:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(30)

    def statuses(self) -> list[int]:
        with self.lock:
            return [p[3] for p in self.posts]

    def _play(self, table: str, tokens: dict[str, str]) -> None:
        with self.factory() as c:
            while not self.stop.is_set():
                moved = False
                for tok in tokens.values():
                    got = c.get(f"/v1/tables/{table}/view", headers=auth(tok))
                    if got.status_code != 200:
                        assert got.status_code == 503, got.text
                        time.sleep(0.05)
                        continue
                    mine = got.json()
                    if mine["status"] == "finished" or not mine["legal"]:
                        continue
                    move = mine["legal"][len(mine["legal"]) // 2]
                    r = c.post(f"/v1/tables/{table}/moves", headers=auth(tok), json={"move": move, "ply": mine["ply"]})
                    with self.lock:
                        self.posts.append((table, mine["ply"], move, r.status_code, r.headers.get("retry-after")))
                    moved = True
                    if r.status_code != 200:
                        time.sleep(0.05)
                    break
                if not moved:
                    time.sleep(0.01)


def _tables(c) -> tuple[list[tuple[str, dict[str, str]]], str, str]:
    """Human tables (a Caravan game, a long Daifugo match), an all-bot Daifugo match, and
    a clocked one whose human never moves (its clock passes for it)."""
    def new(body):
        r = c.post("/v1/tables", json=body)
        assert r.status_code == 201, r.text
        doc = r.json()
        return doc["id"], {s["name"]: s["token"] for s in doc["seats"] if not s["bot"]}

    humans = [new({"game": "caravan", "seats": ["Ann", "Bob"], "seed": 1}),
              new({"game": "daifugo", "seats": ["A", "B", "C", "D"], "rounds": 100, "seed": 3})]
    bots, _ = new({"game": "daifugo", "seats": ["A", "B", "C", "D"], "rounds": 100, "seed": 1,
                   "bots": {n: "random" for n in "ABCD"}})
    clocked, _ = new({"game": "daifugo", "seats": ["A", "B", "C", "D"], "rounds": 100, "seed": 2,
                      "bots": {n: "random" for n in "BCD"}, "clock": {"move_seconds": 0.1}})
    return humans, bots, clocked


def _until(what, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("not in time")


def _ply(c, table: str) -> float:
    """The table's ply (infinite once finished: it has played on)."""
    r = c.get(f"/v1/tables/{table}")
    if r.status_code != 200:
        return -1
    return float("inf") if r.json()["status"] == "finished" else r.json()["ply"]


def _while_down(c, humans) -> None:
    """What the service answers while its database cannot commit."""
    health = c.get("/healthz")
    assert health.status_code == 503 and health.headers["retry-after"], health.text
    assert health.json()["ok"] is False and health.json()["database"]["writable"] is False
    r = c.post("/v1/tables", json={"game": "caravan", "seats": ["Cy", "Di"]})
    assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1, r.text
    assert "unavailable" in r.json()["error"]


def _after(c, humans, bots: str, clocked: str, players: Players) -> None:
    """The service carries on by itself once its database is back."""
    _until(lambda: c.get("/healthz").status_code == 200)
    assert c.post("/v1/tables", json={"game": "caravan", "seats": ["Cy", "Di"]}).status_code == 201
    _until(lambda: c.get("/v1/tables").status_code == 200, 5)  # reads too, within their back-off
    assert c.get("/").status_code == 200
    for table in (bots, clocked):  # bots and clocks play on by themselves
        start = _ply(c, table)
        _until(lambda: _ply(c, table) in (float("inf"), ) or _ply(c, table) > start + 3)
    served = len([s for s in players.statuses() if s == 200])
    _until(lambda: len([s for s in players.statuses() if s == 200]) > served + 5)


def _reconcile(players: Players, stored: dict[tuple[str, int], str], failed_commits_roll_back: bool) -> int:
    """Every move answered 200 is stored; no answer is a 500; (where a failed commit is
    rolled back) no move answered otherwise is stored. The moves answered 503 that are
    stored all the same (a lost connection during the commit): their count."""
    assert all(status in (200, 503) for _t, _p, _m, status, _r in players.posts), \
        sorted({p[3] for p in players.posts})
    assert all(retry for _t, _p, _m, status, retry in players.posts if status == 503)
    unsure = 0
    acked = {(table, ply) for table, ply, _m, status, _r in players.posts if status == 200}
    for table, ply, move, status, _retry in players.posts:
        there = stored.get((table, ply + 1)) == move
        if status == 200:
            assert there, (table, ply, move)
        elif there and (table, ply) not in acked:  # not the same move sent again and acknowledged
            unsure += 1
    if failed_commits_roll_back:
        assert unsure == 0
    return unsure


# ------------------------------------------------------------------ PostgreSQL


@pytest.fixture
def own_postgres():
    """A PostgreSQL cluster of this test's own, which it may stop and start."""
    try:
        local = LocalPostgres()
        url = local.start()
    except (RuntimeError, OSError, subprocess.SubprocessError) as err:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL to stop and start: {err}")
        pytest.skip(f"no PostgreSQL to stop and start: {err}")
    try:
        yield local, url
    finally:
        local.stop()


def test_postgresql_stopped_and_started_under_the_service(own_postgres, server_factory):
    import psycopg
    from conftest import fresh_postgres

    local, url = own_postgres
    db = fresh_postgres(url)
    server = server_factory(db)
    with httpx.Client(base_url=server.url, timeout=30) as c:
        humans, bots, clocked = _tables(c)
        with Players(lambda: httpx.Client(base_url=server.url, timeout=30), humans) as players:
            _until(lambda: players.statuses().count(200) > 5)
            local.halt()
            try:
                _until(lambda: 503 in players.statuses(), 15)
                _while_down(c, humans)
                time.sleep(1.0)  # a while down: bots and clocks meet it too
            finally:
                local.resume()
            _after(c, humans, bots, clocked, players)
    with psycopg.connect(db) as conn:
        stored = {(t, p): s for t, p, s in conn.execute(MOVES_SQL).fetchall()}
    _reconcile(players, stored, failed_commits_roll_back=False)
    assert c.is_closed and server.process.poll() is None


# ------------------------------------------------------------------ SQLite on a full disk


class _FailingCommits:
    """A sqlite3 connection whose COMMIT fails as on a full disk while ``when()``: SQLite
    rolls the transaction back, then the COMMIT raises ``database or disk is full``."""

    def __init__(self, conn, when):
        self.conn, self.when = conn, when

    def execute(self, sql, *args):
        if self.when() and sql.strip().upper() == "COMMIT":
            self.conn.execute("ROLLBACK")
            full = sqlite3.OperationalError("database or disk is full")
            full.sqlite_errorcode, full.sqlite_errorname = 13, "SQLITE_FULL"  # as SQLite says it
            raise full
        return self.conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def _fail_commits(monkeypatch, when) -> None:
    """Every SQLite connection the service opens from now on fails its commits while ``when()``."""
    from referee.service import store

    opened = store.SQLiteStore._connect

    def connect(self):
        conn = opened(self)
        conn.conn = _FailingCommits(conn.conn, when)
        return conn

    monkeypatch.setattr(store.SQLiteStore, "_connect", connect)


def _mount_tmpfs(folder: Path, size: str) -> bool:
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, timeout=30)
    return done.returncode == 0


class _FullDisk:
    """A filesystem that fills up: a real tmpfs (``real``), or, where none can be
    mounted, SQLite connections whose commits fail as on a full disk while ``full``."""

    def __init__(self, folder: Path, monkeypatch):
        self.folder = folder
        self.real = _mount_tmpfs(folder, "16m")
        self.full = False
        if not self.real:
            self._inject(monkeypatch)

    def _inject(self, monkeypatch) -> None:
        _fail_commits(monkeypatch, lambda: self.full)

    def fill(self) -> None:
        self.full = True
        if self.real:
            stat = os.statvfs(self.folder)
            with open(self.folder / "filler", "wb") as f, contextlib.suppress(OSError):
                f.write(b"\0" * (stat.f_bavail * stat.f_frsize))

    def free(self) -> None:
        self.full = False
        if self.real:
            (self.folder / "filler").unlink()

    def close(self) -> None:
        if self.real:
            subprocess.run(["umount", "-l", str(self.folder)], capture_output=True, timeout=30)


def test_sqlite_on_a_disk_that_fills_up(tmp_path, monkeypatch, server_factory):
    folder = tmp_path / "disk"
    folder.mkdir()
    disk = _FullDisk(folder, monkeypatch)
    db = str(folder / "pitboss.db")
    try:
        if disk.real:  # a real pitboss serve on a real filesystem
            server = server_factory(db)
            factory = lambda: httpx.Client(base_url=server.url, timeout=30)  # noqa: E731
            _full_disk_run(disk, factory, db)
            assert server.process.poll() is None
        else:  # the same, in process, with commits that fail as on a full disk
            from starlette.testclient import TestClient

            from referee.service.app import create_app

            with TestClient(create_app(db)) as client:
                _full_disk_run(disk, lambda: contextlib.nullcontext(client), db)
    finally:
        disk.close()
    print(f"full disk: {'a real tmpfs' if disk.real else 'commits failing as on a full disk'}")


def _full_disk_run(disk: _FullDisk, factory, db: str) -> None:
    with factory() as c:
        humans, bots, clocked = _tables(c)
        with Players(factory, humans) as players:
            _until(lambda: players.statuses().count(200) > 5)
            disk.fill()
            try:
                # moves fail once the journal must grow: tables are created until the disk is full
                _until(lambda: 503 in players.statuses() or
                       c.post("/v1/tables", json={"game": "caravan", "seats": ["Cy", "Di"]}).status_code == 503, 60)
                _until(lambda: c.get("/healthz").status_code == 503, 30)
                _while_down(c, humans)
                time.sleep(0.5)
            finally:
                disk.free()
            _after(c, humans, bots, clocked, players)
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as conn:
        stored = {(t, p): s for t, p, s in conn.execute(MOVES_SQL).fetchall()}
    _reconcile(players, stored, failed_commits_roll_back=True)


def test_a_commit_sqlite_rolled_back_leaves_no_transaction_open(tmp_path, monkeypatch):
    """After a COMMIT that failed and that SQLite rolled back, the connection knows no
    transaction is open: the next write is a transaction of its own (BEGIN ... COMMIT),
    never statements run in autocommit, which would store a write whose client was told
    that it failed and then fail the COMMIT of the write after it."""
    from referee.service.store import SQLiteStore

    failing = {"on": False}
    _fail_commits(monkeypatch, lambda: failing["on"])
    store = SQLiteStore(str(tmp_path / "t.db"))
    conn = store._connect()
    conn.conn.conn.execute("CREATE TABLE t (x INTEGER)")
    conn.begin()
    conn.cursor().execute("INSERT INTO t VALUES (1)")
    failing["on"] = True
    with pytest.raises(sqlite3.OperationalError):
        conn.commit()
    failing["on"] = False
    with contextlib.suppress(sqlite3.Error):  # what the writer does after any failed commit
        conn.rollback()
    conn.begin()
    conn.cursor().execute("INSERT INTO t VALUES (2)")
    assert conn.conn.in_transaction  # a transaction of its own, not autocommit
    conn.commit()
    assert conn.conn.execute("SELECT x FROM t").fetchall() == [(2,)]
    conn.close()


def test_the_store_recovers_after_failed_commits(tmp_path, monkeypatch):
    """A write whose commit fails is Unavailable, the store says it cannot write, and once
    commits succeed again (its writer probes the database after a back-off) the same
    write commits once."""
    import asyncio

    from referee.service.store import Unavailable, open_store

    failing = {"on": False}
    _fail_commits(monkeypatch, lambda: failing["on"])
    store = open_store(str(tmp_path / "t.db"))
    statement = [("INSERT INTO pitboss_meta (key, value) VALUES (?, ?)", ("a", "1"))]

    async def main():
        failing["on"] = True
        with pytest.raises(Unavailable) as lost:
            await store.write(statement)
        assert lost.value.retry_after > 0 and store.health.writable is False
        assert not await store.check()
        failing["on"] = False
        await asyncio.sleep(1.2)  # the writer's back-off is at most half a second
        assert store.health.writable is True
        await store.write(statement)

    try:
        asyncio.run(main())
        assert store._query("SELECT value FROM pitboss_meta WHERE key = ?", ("a",)) == [("1",)]
    finally:
        store.close()
