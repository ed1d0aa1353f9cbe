"""Every endpoint and every error answer of service.md, through the ASGI test client, on
SQLite and on PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

import json
import time

from helpers import auth, create, play_out, record_valid

CARAVAN_DECK = " ".join(f"{r}{s}" for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                                            "K"))


def test_health_openapi_docs_and_pages(client):
    assert client.get("/healthz").status_code == 200
    spec = client.get("/openapi.json").json()
    for path in ("/v1/tables", "/v1/tables/{id}", "/v1/tables/{id}/view", "/v1/tables/{id}/moves",
                 "/v1/tables/{id}/events", "/v1/tables/{id}/record", "/v1/validate", "/v1/annotate", "/v1/solve"):
        assert path in spec["paths"]
    assert "openapi.json" in client.get("/docs").text
    table_id, _ = create(client)
    assert table_id in client.get("/").text
    page = client.get(f"/tables/{table_id}")
    assert page.status_code == 200 and "WebSocket" in page.text
    assert client.get("/tables/nope").status_code == 404
    assert client.get("/no/such/page").status_code == 404


def test_create_answers_seats_with_tokens_and_the_views_hide_hands(client):
    r = client.post("/v1/tables", json={"game": "caravan", "seats": ["Ann", "Bob"], "seed": 7,
                                        "decks": {"Ann": CARAVAN_DECK}})
    assert r.status_code == 201
    doc = r.json()
    assert set(doc) >= {"id", "game", "rules", "options", "seats", "url"}
    assert doc["rules"] == "holotape" and [s["name"] for s in doc["seats"]] == ["Ann", "Bob"]
    assert all(len(s["token"]) >= 24 for s in doc["seats"])
    public = client.get(f"/v1/tables/{doc['id']}").json()
    # nobody has taken a seat yet (used its token): the table waits
    assert public["status"] == "waiting" and public["ply"] == 0 and public["to_move"] == "Ann"
    assert "hand" not in public and "legal" not in public
    assert all("token" not in json.dumps(s) for s in public["seats"])
    mine = client.get(f"/v1/tables/{doc['id']}/view", headers=auth(doc["seats"][0]["token"])).json()
    assert mine["seat"] == "Ann" and mine["hand"] == CARAVAN_DECK.split()[:8] and mine["deck_left"] == 44
    assert mine["legal"] and all(m.endswith((">A", ">B", ">C")) for m in mine["legal"])
    theirs = client.get(f"/v1/tables/{doc['id']}/view", headers=auth(doc["seats"][1]["token"])).json()
    assert theirs["legal"] == [] and len(theirs["hand"]) == 8
    assert mine["status"] == "waiting" and theirs["status"] == "playing"  # Bob's view took the last seat
    assert client.get(f"/v1/tables/{doc['id']}").json()["status"] == "playing"
    # the seed and the decks are nowhere in the public view or the unfinished record
    text = json.dumps(public) + client.get(f"/v1/tables/{doc['id']}/record").text
    assert "Seed" not in text and "Deck1" not in text and '"seed"' not in text


def test_bad_creation_bodies(client):
    cases = [
        (b"{", 400), (b"[1]", 400), (json.dumps({"game": "chess", "seats": ["a", "b"]}).encode(), 422),
        (json.dumps({"game": "caravan"}).encode(), 422),
        (json.dumps({"game": "caravan", "seats": ["a", "a"]}).encode(), 422),
        (json.dumps({"game": "caravan", "seats": ["a", "b", "c"]}).encode(), 422),
        (json.dumps({"game": "caravan", "seats": ["a", "b"], "rules": "poker"}).encode(), 422),
        (json.dumps({"game": "caravan", "seats": ["a", "b"], "decks": {"a": "7H 7H"}}).encode(), 422),
        (json.dumps({"game": "caravan", "seats": ["a", "b"], "decks": {"a": "XX"}}).encode(), 422),
        (json.dumps({"game": "daifugo", "seats": ["a", "b"]}).encode(), 422),
        (json.dumps({"game": "daifugo", "seats": ["a", "b", "c"], "options": "+nonsense"}).encode(), 422),
        (json.dumps({"game": "daifugo", "seats": ["a", "b", "c"], "rounds": 0}).encode(), 422),
        (json.dumps({"game": "daifugo", "seats": ["a", "b", "c"], "bots": {"z": "random"}}).encode(), 422),
        (json.dumps({"game": "daifugo", "seats": ["a", "b", "c"], "seed": "x"}).encode(), 422),
        (json.dumps({"game": "daifugo", "seats": ["a", "b", "c"], "clock": {"move_seconds": -1}}).encode(), 422),
        (json.dumps({"game": "daifugo", "seats": ["a", "b", "c"], "colour": "red"}).encode(), 422),
        (b"\xff\xfe", 400),
        (b'{"game": "caravan", "seats": ["' + b"a" * 70_000 + b'"]}', 413),
    ]
    for body, status in cases:
        r = client.post("/v1/tables", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == status, (body[:80], r.status_code, r.text)
        assert "error" in r.json()


def test_listing_newest_first_with_a_cursor(client, monkeypatch):
    import referee.service.endpoints as endpoints

    ids = [create(client)[0] for _ in range(4)]
    first = client.get("/v1/tables").json()
    assert [t["id"] for t in first["tables"]][:4] == ids[::-1]
    assert first["next"] is None
    assert set(first["tables"][0]) >= {"id", "game", "rules", "seats", "status"}
    monkeypatch.setattr(endpoints, "PAGE_SIZE", 3)
    page1 = client.get("/v1/tables").json()
    assert len(page1["tables"]) == 3 and page1["next"]
    page2 = client.get("/v1/tables", params={"cursor": page1["next"]}).json()
    assert [t["id"] for t in page1["tables"] + page2["tables"]] == ids[::-1]
    assert client.get("/v1/tables", params={"cursor": "!!"}).status_code == 400


def test_moves_and_every_error_answer(client):
    table_id, tokens = create(client, seed=11)
    ann, bob = tokens["Ann"], tokens["Bob"]
    url = f"/v1/tables/{table_id}/moves"
    legal = client.get(f"/v1/tables/{table_id}/view", headers=auth(ann)).json()["legal"]
    # 401: no token, unknown token, another table's token
    assert client.post(url, json={"move": legal[0]}).status_code == 401
    assert client.post(url, json={"move": legal[0]}, headers=auth("nope")).status_code == 401
    _, other = create(client)
    assert client.post(url, json={"move": legal[0]}, headers=auth(other["Ann"])).status_code == 401
    assert client.get(f"/v1/tables/{table_id}/view").status_code == 401
    # 404
    assert client.post("/v1/tables/nope/moves", json={"move": "7H>A"}, headers=auth(ann)).status_code == 404
    assert client.get("/v1/tables/nope").status_code == 404
    assert client.get("/v1/tables/nope/record").status_code == 404
    # 400: malformed bodies and moves
    for body in (b"", b"{", b"[]", b'{"move": 7}', b'{"move": "7H>A", "ply": "x"}', b'{"move": "7H>A", "x": 1}',
                 b'{"move": "flip the table"}', b'{"move": "7H>A +9D"}', b'{"move": "7H>A", "ply": true}'):
        r = client.post(url, content=body, headers=auth(ann))
        assert r.status_code == 400, (body, r.text)
    # 413
    assert client.post(url, content=b'{"move": "' + b"x" * 70_000 + b'"}', headers=auth(ann)).status_code == 413
    # 422: illegal (out of turn; a card not held), with a rule id; nothing changes
    r = client.post(url, json={"move": "disband A"}, headers=auth(bob))
    assert r.status_code == 422 and r.json()["accepted"] is False and r.json()["rule"]
    r = client.post(url, json={"move": "QS>A1"}, headers=auth(ann))
    assert r.status_code == 422 and r.json()["rule"].startswith("caravan.")
    assert client.get(f"/v1/tables/{table_id}").json()["ply"] == 0
    # 409: stale ply
    assert client.post(url, json={"move": legal[0], "ply": 5}, headers=auth(ann)).status_code == 409
    # 200, leniently written (lower case), with the ply
    r = client.post(url, json={"move": legal[0].lower(), "ply": 0}, headers=auth(ann))
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["accepted"] is True and doc["ply"] == 1 and doc["move"] == legal[0] and doc["status"] == "playing"
    assert "drawn" not in doc  # no draw during the opening
    # the same retry after a lost answer: 409, nothing played twice
    assert client.post(url, json={"move": legal[0], "ply": 0}, headers=auth(ann)).status_code == 409
    assert client.get(f"/v1/tables/{table_id}").json()["moves"] == [legal[0]]
    view = play_out(client, table_id, tokens)
    assert view["result"]["score"] in ("1-0", "0-1")
    # 409: finished
    assert client.post(url, json={"move": "disband A"}, headers=auth(ann)).status_code == 409
    record = client.get(f"/v1/tables/{table_id}/record")
    assert record.headers["content-type"].startswith("text/plain")
    assert "[Seed \"11\"]" in record.text and "[Deck1" in record.text and record_valid(record.text)


def test_caravan_draw_is_told_to_the_mover_only(client):
    table_id, tokens = create(client, seed=3)
    drawn = []
    with client.websocket_connect(f"/v1/tables/{table_id}/events") as spectator:
        assert spectator.receive_json()["type"] == "view"
        for _ in range(8):
            view = client.get(f"/v1/tables/{table_id}").json()
            name = view["to_move"]
            mine = client.get(f"/v1/tables/{table_id}/view", headers=auth(tokens[name])).json()
            r = client.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens[name]),
                            json={"move": mine["legal"][0], "ply": mine["ply"]}).json()
            event = spectator.receive_json()
            assert event["type"] == "move" and event["ply"] == r["ply"] and "drawn" not in event
            if "drawn" in r:
                drawn.append(r["drawn"])
                assert r["drawn"] in client.get(f"/v1/tables/{table_id}/view",
                                                headers=auth(tokens[name])).json()["hand"]
    assert drawn  # the opening is 6 placements; the 7th and 8th moves draw


def test_daifugo_line_naming_another_seat_is_403(client):
    table_id, tokens = create(client, game="daifugo", seed=5)
    view = client.get(f"/v1/tables/{table_id}").json()
    mover = view["to_move"]
    other = next(n for n in tokens if n != mover)
    legal = client.get(f"/v1/tables/{table_id}/view", headers=auth(tokens[mover])).json()["legal"]
    r = client.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens[other]), json={"move": legal[-1]})
    assert r.status_code == 403
    r = client.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens[other]), json={"move": f"{other}: 3S"})
    assert r.status_code == 422 and r.json()["rule"].startswith("daifugo.")
    r = client.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens[mover]), json={"move": "Nobody: pass"})
    assert r.status_code == 400
    assert client.get(f"/v1/tables/{table_id}").json()["ply"] == 0


def test_daifugo_match_with_exchange_hides_gifts_and_validates(client):
    table_id, tokens = create(client, game="daifugo", seats=["Aki", "Ben", "Chie", "Dai", "Eri"], rounds=2,
                              seed=21, options="exchange=choice")
    view = play_out(client, table_id, tokens)
    gifts = [m for m in view["moves"] if "->" in m]
    assert gifts and all(m.split(": ")[1].strip("? ") == "" for m in gifts)
    assert len(view["result"]["rounds"]) == 2
    assert view["ply"] == len(view["moves"])
    assert record_valid(client.get(f"/v1/tables/{table_id}/record").text)


def test_uecda_rejection_counts_as_a_pass(client):
    table_id, tokens = create(client, game="daifugo", rules="uecda", seats=["A", "B", "C", "D", "E"], seed=2)
    view = client.get(f"/v1/tables/{table_id}").json()
    mover = view["to_move"]
    mine = client.get(f"/v1/tables/{table_id}/view", headers=auth(tokens[mover])).json()
    held = set(mine["hand"])
    missing = next(c for c in ("2S", "2H", "2D", "2C", "AS", "AH") if c not in held)
    r = client.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens[mover]), json={"move": f"{mover}: {missing}"})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["accepted"] is False and doc["counted_as"] == "pass" and doc["rule"] and doc["ply"] == 1
    assert client.get(f"/v1/tables/{table_id}").json()["moves"] == [f"{mover}: pass"]
    play_out(client, table_id, tokens)
    assert record_valid(client.get(f"/v1/tables/{table_id}/record").text)


def test_bots_move_at_once_and_the_events_follow(client):
    table_id, tokens = create(client, game="daifugo", seed=8, bots={"Ben": "greedy", "Chie": "random", "Dai": "random"})
    with client.websocket_connect(f"/v1/tables/{table_id}/events?token={tokens['Aki']}") as ws:
        first = ws.receive_json()
        assert first["type"] == "view" and first["seat"] == "Aki" and "hand" in first
        assert [s["bot"] for s in first["seats"]] == [None, "greedy", "random", "random"]
        plies = []
        while True:
            view = client.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Aki"])).json()
            if view["status"] == "finished":
                break
            if view["legal"]:
                client.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens["Aki"]),
                            json={"move": view["legal"][0], "ply": view["ply"]})
            else:
                time.sleep(0.01)
        while True:
            m = ws.receive_json()
            if m["type"] == "end":
                assert m["result"]["rounds"]
                break
            assert m["type"] == "move" and m["view"]["ply"] == m["ply"]
            plies.append(m["ply"])
    assert plies == list(range(1, len(plies) + 1)) and plies[-1] == view["ply"]
    # a reconnecting client gets a fresh view first
    with client.websocket_connect(f"/v1/tables/{table_id}/events") as ws:
        again = ws.receive_json()
        assert again["type"] == "view" and again["ply"] == view["ply"] and "hand" not in again
        assert ws.receive_json()["type"] == "end"


def test_events_errors(client):
    from starlette.websockets import WebSocketDisconnect

    table_id, _ = create(client)
    for url in ("/v1/tables/nope/events", f"/v1/tables/{table_id}/events?token=bad"):
        try:
            with client.websocket_connect(url) as ws:
                ws.receive_json()
            raise AssertionError("connected")
        except WebSocketDisconnect as err:
            assert err.code in (4401, 4404)
    with client.websocket_connect(f"/v1/tables/{table_id}/events") as ws:
        ws.receive_json()
        ws.send_text("x" * 10_000)
        try:
            ws.receive_json()
            raise AssertionError("not closed")
        except WebSocketDisconnect as err:
            assert err.code == 1009


def test_clock_passes_or_forfeits(client):
    table_id, tokens = create(client, game="daifugo", seed=4, clock={"move_seconds": 0.2},
                              bots={"Ben": "random", "Chie": "random", "Dai": "random"})
    deadline = time.monotonic() + 60
    while client.get(f"/v1/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    record = client.get(f"/v1/tables/{table_id}/record").text
    assert record_valid(record)
    table_id, tokens = create(client, seed=4, clock={"move_seconds": 0.2})
    deadline = time.monotonic() + 60
    while client.get(f"/v1/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    view = client.get(f"/v1/tables/{table_id}").json()
    assert view["result"] == {"score": "0-1", "winner": "Bob", "end": "forfeit", "lanes": view["result"]["lanes"]}
    # the forfeit is no move: ply still counts the moves played (none), as the record does
    assert view["ply"] == 0 and view["moves"] == []
    record = client.get(f"/v1/tables/{table_id}/record").text
    assert '[Termination "forfeit"]' in record and record_valid(record)


def test_rate_limit_per_token(db_url):
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(db_url, rate=1, burst=3)) as c:
        table_id, tokens = create(c)
        codes = [c.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Ann"])).status_code for _ in range(6)]
        assert codes[:3] == [200, 200, 200] and codes[-1] == 429
        # another token has its own allowance
        assert c.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Bob"])).status_code == 200
        r = c.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens["Ann"]), json={"move": "disband A"})
        assert r.status_code == 429 and c.get(f"/v1/tables/{table_id}").json()["ply"] == 0


def test_picture_hides_what_the_reader_cannot_see(client):
    from referee.jobs.render.svg import shown_cards

    table_id, tokens = create(client, game="daifugo", seed=9)
    public = shown_cards(client.get(f"/v1/tables/{table_id}/picture").text)
    seats = client.get(f"/v1/tables/{table_id}").json()["seats"]
    # every hand face down: as many card backs as the seat holds, no card shown
    assert sorted(where for c, where in public if where.startswith("hand.")) == \
        sorted(f"hand.{s['name']}" for s in seats for _ in range(s["cards"]))
    assert {c for c, where in public if where.startswith("hand.")} == {"?"}
    mine = client.get(f"/v1/tables/{table_id}/picture", headers=auth(tokens["Aki"])).text
    hand = client.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Aki"])).json()["hand"]
    assert sorted(c for c, where in shown_cards(mine) if where == "hand.Aki") == sorted(hand)
    assert {c for c, where in shown_cards(mine) if where.startswith("hand.") and where != "hand.Aki"} == {"?"}
    assert client.get(f"/v1/tables/{table_id}/picture?token=bad").status_code == 401


SAMPLE = """[Game "Caravan"]
[Rules "holotape"]

1. 7H>A 8S>D 2. 9C>B 10D>E *
"""


def test_stateless_jobs_answer_what_the_cli_prints(client, tmp_path):
    import subprocess
    import sys

    from conftest import REPO

    path = tmp_path / "g.cvn"
    path.write_text(SAMPLE)
    for endpoint, args in (("/v1/validate", ["validate", "--json"]), ("/v1/annotate", ["annotate", "--json"])):
        cli = subprocess.run([sys.executable, "-m", "cli", *args, str(path)], cwd=REPO, capture_output=True, text=True)
        expected = json.loads(cli.stdout)
        got = client.post(endpoint, content=SAMPLE).json()
        assert json.dumps(got, sort_keys=True).replace("<body>", str(path)).replace("<stdin>", str(path)) == \
            json.dumps(expected, sort_keys=True), endpoint
    r = client.post("/v1/solve", json={"record": SAMPLE, "question": "reach", "caravan": "A", "within": 3})
    assert r.status_code == 200 and r.json()["answer"] in ("yes", "no", "unknown")
    cli = subprocess.run([sys.executable, "-m", "cli", "solve", "--json", "-Q", "reach", "--caravan", "A",
                          "--within", "3", str(path)], cwd=REPO, capture_output=True, text=True)
    expected = json.loads(cli.stdout)
    assert r.json()["answer"] == expected["answer"] and r.json()["witness"] == expected["witness"]
    assert client.post("/v1/solve", json={"record": SAMPLE}).status_code == 422
    assert client.post("/v1/solve", json={"record": 5, "question": "reach"}).status_code == 400
    assert client.post("/v1/solve", json={"record": SAMPLE, "question": "out"}).status_code == 422
    assert client.post("/v1/solve", content=b"{").status_code == 400
    assert client.post("/v1/annotate?rules=poker", content=SAMPLE).status_code == 422
    assert client.post("/v1/validate", content=b"\xff").status_code == 400
    big = b"x" * (8 * 1024 * 1024 + 10)
    assert client.post("/v1/validate", content=big).status_code == 413


def test_restart_resumes_tables_tokens_and_bots(db_url):
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(db_url)) as c:
        table_id, tokens = create(c, game="daifugo", seed=12, bots={"Ben": "random", "Chie": "random"})
        for _ in range(3):
            view = c.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Aki"])).json()
            while not view["legal"]:
                mine = c.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Dai"])).json()
                if mine["legal"]:
                    c.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens["Dai"]), json={"move": mine["legal"][0]})
                else:  # the bots are thinking: poll politely, two views a round well under the
                    time.sleep(0.02)  # rate limit (a busy loop met it: 429, a view with no "legal")
                view = c.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Aki"])).json()
            c.post(f"/v1/tables/{table_id}/moves", headers=auth(tokens["Aki"]), json={"move": view["legal"][0]})
        before = c.get(f"/v1/tables/{table_id}").json()
    with TestClient(create_app(db_url)) as c:
        after = c.get(f"/v1/tables/{table_id}").json()
        # every move acknowledged before the restart is there, in order (a bot may have moved since)
        assert after["moves"][:len(before["moves"])] == before["moves"] and after["ply"] >= before["ply"]
        view = play_out(c, table_id, {"Aki": tokens["Aki"], "Dai": tokens["Dai"]})
        assert view["status"] == "finished"
        assert record_valid(c.get(f"/v1/tables/{table_id}/record").text)
