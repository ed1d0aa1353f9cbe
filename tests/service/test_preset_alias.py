"""The API's ``rules`` takes ``seed``, the older name of Daifugo's ``classic``, and a table
stored under that name (before ``classic`` had its name) resumes, is listed and records as
``classic``; every answer writes ``classic``."""

from __future__ import annotations

import json
import sqlite3

from helpers import auth, create, play_out, record_valid


def test_rules_seed_makes_a_classic_table(client):
    r = client.post("/v1/tables", json={"game": "daifugo", "rules": "seed", "options": "+spade3",
                                        "seats": ["Aki", "Ben", "Chie"], "seed": 5})
    assert r.status_code == 201, r.text
    doc = r.json()
    assert doc["rules"] == "classic" and doc["options"] == "+spade3"
    assert client.get(f"/v1/tables/{doc['id']}").json()["rules"] == "classic"


def test_a_table_stored_as_seed_resumes_as_classic(tmp_path):
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    db = str(tmp_path / "pitboss.db")
    with TestClient(create_app(db)) as c:
        table_id, tokens = create(c, game="daifugo", seats=["Aki", "Ben", "Chie"], seed=9)
    with sqlite3.connect(db) as conn:  # as a table created under the older name was stored
        (setup,) = conn.execute("SELECT setup FROM live_tables WHERE id = ?", (table_id,)).fetchone()
        old = {**json.loads(setup), "rules": "seed"}
        conn.execute("UPDATE live_tables SET rules = 'seed', setup = ? WHERE id = ?", (json.dumps(old), table_id))
    with TestClient(create_app(db)) as c:
        assert c.get(f"/v1/tables/{table_id}").json()["rules"] == "classic"
        listed = [t for t in c.get("/v1/tables").json()["tables"] if t["id"] == table_id]
        assert [t["rules"] for t in listed] == ["classic"]
        mine = c.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Aki"])).json()
        assert mine["seat"] == "Aki" and mine["hand"]
        view = play_out(c, table_id, tokens)
        assert view["status"] == "finished"
        record = c.get(f"/v1/tables/{table_id}/record").text
        assert '[Rules "classic"]' in record and record_valid(record)
