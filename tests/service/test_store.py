"""The store's own promises, beside the hub's: each backend writes its own SQL."""

from __future__ import annotations

import asyncio

from conftest import fresh_postgres

from referee.service.store import MoveRow, PostgresStore, SQLiteStore, Store, open_store


def test_each_backend_merges_inserts_in_its_own_placeholders(tmp_path, postgres_server):
    """A transaction of several moves is one multi-row INSERT, written with the backend's
    placeholders: PostgreSQL's, then SQLite's, in the same process (never the other's, which
    would cost the transaction a failed statement and a second try, one savepoint per write)."""
    insert = Store.insert_move("t", MoveRow(1, 0, "m", 0.0))[0][0]
    assert "%s" in PostgresStore("postgresql://x")._multi(insert, 3)
    assert "%s" not in SQLiteStore(str(tmp_path / "x.db"))._multi(insert, 3)
    stores = [open_store(fresh_postgres(postgres_server)), open_store(str(tmp_path / "s.db"))]
    try:
        for store in stores:
            statements = [s for ply in (1, 2, 3) for s in store.insert_move("t", MoveRow(ply, 0, f"m{ply}", 0.0))]
            asyncio.run(store.write(statements))
            assert [m.stored for m in store.moves("t")] == ["m1", "m2", "m3"]
    finally:
        for store in stores:
            store.close()
