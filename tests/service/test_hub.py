"""The hub (``referee/service/tables.py``) on a real store, SQLite and PostgreSQL: views
built once per ply and reader, events' JSON built once per reader, the ``waiting``
status, a Caravan forfeit on time (no ply), and each of them across a restart."""

from __future__ import annotations

import asyncio
import json

from helpers import auth, create, record_valid

from referee.service.store import open_store
from referee.service.tables import TableHub
from referee.service.views import Event


def _run(db_url, work):
    """``work(hub)`` on a hub over ``db_url``; returns what it returns."""
    store = open_store(db_url)

    async def main():
        hub = TableHub(store)
        await hub.resume()
        try:
            return await work(hub)
        finally:
            hub.close()

    try:
        return asyncio.run(main())
    finally:
        store.close()


def _counting_legal(table) -> list[int]:
    """Count the calls of the table's ``legal`` (the engines' legal moves)."""
    calls = []
    legal = table.match.legal

    def counted(seat):
        calls.append(seat)
        return legal(seat)

    table.match.legal = counted
    return calls


def test_views_and_legal_are_built_once_per_ply_and_reader(db_url):
    async def work(hub):
        table, _ = await hub.create({"game": "caravan", "seats": ["Ann", "Bob"], "seed": 11})
        calls = _counting_legal(table)
        first = hub.view_text(table, 0)
        assert hub.view_text(table, 0) is first and hub.view(table, 0)["legal"]
        hub.view(table, None)
        hub.view(table, None)
        assert table.views_built == 2 and calls == [0]
        # a caller's copy is its own: changing it changes no one else's view
        mine = hub.view(table, 0)
        mine["status"] = "changed"
        assert hub.view(table, 0)["status"] != "changed"
        # observers: one message per reader, built once, the same JSON for every observer of it
        seats = [hub.observe(table, 0), hub.observe(table, 0), hub.observe(table, 1), hub.observe(table, None)]
        move = hub.view(table, 0)["legal"][0]
        answer = await hub.submit(table.id, 0, move, ply=0)
        assert answer.status == 200 and answer.body["ply"] == 1
        got = [obs.queue.get_nowait() for obs in seats]
        assert all(isinstance(m, Event) for m in got)
        assert got[0] is got[1] and got[0] is not got[2]
        for message, reader in zip(got, (0, 0, 1, None)):
            assert dict(message) == json.loads(message.text)
            # the reader's view without the history of moves, whose new entry is the event's move
            whole = hub.view(table, reader)
            assert message["ply"] == 1 and message["view"] == {k: v for k, v in whole.items() if k != "moves"}
            assert whole["moves"] == [message["move"]]
        # Ann's own draw goes to Ann only
        assert ("drawn" in got[0]) == (answer.body.get("drawn") is not None) and "drawn" not in got[2]
        # each reader's view was built once for the move (Bob's, the public, Ann's), Bob's
        # legal once, and asking again builds nothing
        assert table.views_built == 5 and calls[0] == 0 and sorted(calls[1:]) == [0, 1]  # observers: a set
        hub.view(table, 1)
        assert table.views_built == 5 and len(calls) == 3
        return table.id

    _run(db_url, work)


def test_waiting_until_every_human_seat_is_taken(db_url):
    async def first(hub):
        table, _ = await hub.create({"game": "caravan", "seats": ["Ann", "Bob"], "seed": 3})
        assert table.status == "waiting" and hub.view(table, None)["status"] == "waiting"
        hub.claim(table, 1)
        assert table.status == "waiting"
        # all bots, or a bot beside the one human who took a seat: no wait
        bots, _ = await hub.create({"game": "caravan", "seats": ["Cy", "Di"], "bots": {"Cy": "random", "Di": "random"}})
        assert bots.status != "waiting"
        return table.id

    table_id = _run(db_url, first)

    async def second(hub):  # after a restart: still waiting, Bob's seat still taken
        table = await hub.get(table_id)
        assert table.status == "waiting" and table.row.claimed == [1]
        hub.claim(table, 0)
        assert table.status == "playing" and hub.view(table, 0)["status"] == "playing"
        rows = await hub.page(10, None)
        assert {r.id: hub.summary(r)["status"] for r in rows}[table_id] == "playing"

    _run(db_url, second)

    async def third(hub):
        rows = await hub.page(10, None)
        assert {r.id: r.status for r in rows}[table_id] == "playing"
        # the first move ends the wait too, even with a seat not taken
        table, _ = await hub.create({"game": "caravan", "seats": ["Eve", "Fay"], "seed": 5})
        answer = await hub.submit(table.id, 0, hub.view(table, 0)["legal"][0])
        assert answer.body["status"] == "playing" and table.status == "playing"
        return table.id

    moved = _run(db_url, third)

    async def fourth(hub):
        rows = await hub.page(10, None)
        assert {r.id: r.status for r in rows}[moved] == "playing"
        assert (await hub.get(moved)).status == "playing"

    _run(db_url, fourth)


def test_the_api_shows_waiting_until_the_seats_are_taken(client):
    table_id, tokens = create(client)
    assert client.get("/v1/tables").json()["tables"][0]["status"] == "waiting"
    with client.websocket_connect(f"/v1/tables/{table_id}/events?token={tokens['Bob']}") as ws:
        assert ws.receive_json()["status"] == "waiting"
    client.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Ann"]))
    assert client.get(f"/v1/tables/{table_id}").json()["status"] == "playing"
    assert client.get("/v1/tables").json()["tables"][0]["status"] == "playing"


def test_a_caravan_forfeit_on_time_is_no_ply(db_url):
    async def first(hub):
        table, _ = await hub.create({"game": "caravan", "seats": ["Ann", "Bob"], "seed": 9,
                                     "clock": {"move_seconds": 3600}})
        for seat in (0, 1):
            answer = await hub.submit(table.id, seat, hub.view(table, seat)["legal"][0], ply=seat)
            assert answer.status == 200
        watcher = hub.observe(table, None)
        await hub.driver.time_up(table, table.match.ply)  # Ann's hour is up
        view = hub.view(table, None)
        assert view["status"] == "finished" and view["ply"] == 2 and len(view["moves"]) == 2
        assert view["result"]["end"] == "forfeit" and view["result"]["winner"] == "Bob"
        event = watcher.queue.get_nowait()
        assert event["ply"] == 2 and event["move"] is None and event["view"]["status"] == "finished"
        assert watcher.queue.get_nowait()["type"] == "end"
        record = table.match.record()
        assert '[Termination "forfeit"]' in record and record_valid(record)
        return table.id, record

    table_id, record = _run(db_url, first)

    async def second(hub):  # read back from the database: the same table, the same record
        table = await hub.get(table_id)
        assert table.finished and table.match.ply == 2 and table.match.record() == record

    _run(db_url, second)


def test_the_rate_limiter_forgets_refilled_buckets(monkeypatch):
    """One bucket per seat ever used was the service's memory growth per finished table."""
    from referee.service import context

    clock = [1000.0]
    monkeypatch.setattr(context.time, "monotonic", lambda: clock[0])
    limits = context.Limits(rate=10.0, burst=20.0)
    for table in range(500):
        assert limits.allow(f"t{table}/0") and limits.allow(f"t{table}/1")
    assert len(limits.buckets) == 1000
    for _ in range(25):  # one seat keeps playing (its bucket drains), the others are done
        limits.allow("t0/0")
    assert not limits.allow("t0/0")
    clock[0] += 1.0  # not yet a sweep: t0/0 has refilled 10 of 20
    assert limits.allow("t0/0") and len(limits.buckets) == 1000
    clock[0] += 1.5  # a sweep: every bucket is full again and dropped; t0/0 comes back as it is used
    assert limits.allow("t0/0")
    assert set(limits.buckets) == {"t0/0"} and limits.buckets["t0/0"][0] == 19
