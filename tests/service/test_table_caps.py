"""Creating tables is capped: unfinished tables in all (``--max-tables``: 503) and per
client address (``--max-tables-per-client``: 429), both with ``Retry-After``; a table
that finishes frees its place. Real clients on two loopback addresses against a real
``pitboss serve``."""

from __future__ import annotations

import time

import httpx
import pytest
from conftest import Server

BOTS = ["Aki", "Ben", "Chie", "Dai"]
QUICK = {"game": "daifugo", "seats": BOTS, "rounds": 1, "seed": 3, "bots": {n: "random" for n in BOTS}}
HUMANS = {"game": "caravan", "seats": ["Ann", "Bob"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(str(tmp_path_factory.mktemp("caps") / "c.db"), "--max-tables", "5", "--max-tables-per-client", "3")
    yield s.start()
    s.kill()


def _client(server, address: str) -> httpx.Client:
    return httpx.Client(base_url=server.url, transport=httpx.HTTPTransport(local_address=address), timeout=30)


def test_tables_are_capped_per_client_and_in_all(server):
    one, two = _client(server, "127.0.0.1"), _client(server, "127.0.0.2")
    with one, two:
        # a table of bots finishes by itself, and then no longer counts for its creator
        quick = two.post("/v1/tables", json=QUICK)
        assert quick.status_code == 201
        deadline = time.monotonic() + 60
        while two.get(f"/v1/tables/{quick.json()['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' table did not finish"
            time.sleep(0.1)
        assert [two.post("/v1/tables", json=HUMANS).status_code for _ in range(3)] == [201, 201, 201]
        refused = two.post("/v1/tables", json=HUMANS)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
        assert "limit" in refused.json()["error"]
        # another address has its own count, up to the service's limit of 5 unfinished in all
        assert [one.post("/v1/tables", json=HUMANS).status_code for _ in range(2)] == [201, 201]
        full = one.post("/v1/tables", json=HUMANS)
        assert full.status_code == 503 and int(full.headers["Retry-After"]) > 0
        # what was refused was not stored: the list holds the six created
        assert len(one.get("/v1/tables").json()["tables"]) == 6


# ------------------------------------------------------------------ idle tables leave memory

def test_an_idle_table_leaves_memory_and_comes_back_as_it_was(tmp_path):
    import asyncio

    from referee.service.caps import TableCaps
    from referee.service.store import open_store
    from referee.service.tables import TableHub

    store = open_store(str(tmp_path / "idle.db"))

    async def work() -> None:
        hub = TableHub(store, TableCaps(total=3, per_client=2, idle=60.0))
        try:
            idle, _ = await hub.create(dict(HUMANS, seed=5), "10.0.0.1")
            first = hub.view(idle, 0)["legal"][0]
            answer = await hub.submit(idle.id, 0, first, 0)
            assert answer.status == 200
            watched, _ = await hub.create(dict(HUMANS, seed=6), "10.0.0.1")
            clocked, _ = await hub.create(dict(HUMANS, seed=7, clock={"move_seconds": 3600}), "10.0.0.2")
            reader = hub.observe(watched, None)
            for table in (idle, watched, clocked):
                table.last_at -= 120  # idle past the limit
            # at the cap, a creation sweeps first: the idle table leaves, the others stay
            fourth, _ = await hub.create(dict(HUMANS, seed=8), "10.0.0.1")
            assert idle.id not in hub.tables and {watched.id, clocked.id, fourth.id} <= set(hub.tables)
            assert hub.created_by["10.0.0.1"] == 2
            back = await hub.get(idle.id)
            assert back is not None and back is not idle and back.match.ply == 1
            assert hub.view(back, 1)["legal"] == hub.view(idle, 1)["legal"]
            assert (await hub.submit(idle.id, 1, hub.view(back, 1)["legal"][0], 1)).status == 200
            hub.unobserve(watched, reader)
        finally:
            hub.close()

    try:
        asyncio.run(work())
    finally:
        store.close()
