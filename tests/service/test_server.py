"""``pitboss serve`` as a real uvicorn server on loopback: start, play over HTTP and
WebSocket, reconnect, stop on SIGTERM (exit 0), restart on the same database, and two
servers on one database."""

from __future__ import annotations

import json
import signal

import httpx
import websocket
from helpers import auth, record_valid


def _play(base: str, table_id: str, tokens: dict, moves: int, another_server: bool = False) -> int:
    """Play up to ``moves`` moves with the ply of each view read; every one is accepted,
    but where ``another_server`` on the same database moved since (its move is news to
    this one: 409, and this server reads the table back)."""
    played = 0
    with httpx.Client(base_url=base, timeout=30) as c:
        while played < moves:
            view = c.get(f"/v1/tables/{table_id}").json()
            if view["status"] == "finished":
                break
            for name, token in tokens.items():
                mine = c.get(f"/v1/tables/{table_id}/view", headers=auth(token)).json()
                if mine["legal"]:
                    r = c.post(f"/v1/tables/{table_id}/moves", headers=auth(token),
                               json={"move": mine["legal"][0], "ply": mine["ply"]})
                    if r.status_code == 200:
                        played += 1
                    else:
                        assert another_server and r.status_code == 409, r.text
                    break
    return played


def test_serve_plays_streams_stops_and_resumes(db_url, server_factory):
    server = server_factory(db_url)
    with httpx.Client(base_url=server.url, timeout=30) as c:
        assert c.get("/openapi.json").json()["openapi"].startswith("3.")
        doc = c.post("/v1/tables", json={"game": "caravan", "seats": ["Ann", "Bob"], "seed": 42}).json()
    table_id = doc["id"]
    tokens = {s["name"]: s["token"] for s in doc["seats"]}
    ws_url = server.url.replace("http", "ws") + f"/v1/tables/{table_id}/events?token={tokens['Ann']}"
    ws = websocket.create_connection(ws_url, timeout=30)
    first = json.loads(ws.recv())
    assert first["type"] == "view" and first["seat"] == "Ann" and len(first["hand"]) == 8
    assert _play(server.url, table_id, tokens, 5) == 5
    events = [json.loads(ws.recv()) for _ in range(5)]
    assert [e["ply"] for e in events] == [1, 2, 3, 4, 5] and all(e["type"] == "move" for e in events)
    ws.close()
    # reconnect: a fresh view first
    ws = websocket.create_connection(ws_url, timeout=30)
    again = json.loads(ws.recv())
    assert again["type"] == "view" and again["ply"] == 5
    ws.close()
    # SIGTERM: finishes what is in flight, exits 0
    assert server.stop() == 0
    out = server.process.stdout.read()
    assert f"http://127.0.0.1:{server.port}" in out
    # a restart on the same database: the table, its moves and its tokens are there
    server = server_factory(db_url)
    with httpx.Client(base_url=server.url, timeout=30) as c:
        view = c.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Bob"])).json()
        assert view["ply"] == 5 and view["seat"] == "Bob"
    _play(server.url, table_id, tokens, 10_000)
    with httpx.Client(base_url=server.url, timeout=30) as c:
        assert c.get(f"/v1/tables/{table_id}").json()["status"] == "finished"
        assert record_valid(c.get(f"/v1/tables/{table_id}/record").text)
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(30) == 0


def test_two_servers_on_one_database_do_not_corrupt_it(db_url, server_factory):
    a = server_factory(db_url)
    b = server_factory(db_url)
    with httpx.Client(base_url=a.url, timeout=30) as c:
        doc = c.post("/v1/tables", json={"game": "daifugo", "seats": ["Aki", "Ben", "Chie"], "seed": 3}).json()
    table_id = doc["id"]
    tokens = {s["name"]: s["token"] for s in doc["seats"]}
    # moves through both servers in turn; each server's stale picture gets a 409, never a fork
    for _ in range(6):
        _play(a.url, table_id, tokens, 3, another_server=True)
        _play(b.url, table_id, tokens, 3, another_server=True)
    a.kill()
    b.kill()
    c = server_factory(db_url)
    with httpx.Client(base_url=c.url, timeout=30) as client:
        view = client.get(f"/v1/tables/{table_id}").json()
        assert view["ply"] == len(view["moves"]) >= 12
    _play(c.url, table_id, tokens, 10_000)
    with httpx.Client(base_url=c.url, timeout=30) as client:
        assert record_valid(client.get(f"/v1/tables/{table_id}/record").text)
