"""The move limit at the service's live tables: a game the rules have not ended stops at
the table's limit as a valid record with [Termination "move limit"] and the result *,
which validate reports as stopped there. Daifugo rounds end by their rules (pitboss prove
proves it), so a Daifugo table refuses the field."""

from __future__ import annotations

from helpers import auth, create, play_out

from referee.jobs.validate import validate_text


def test_a_caravan_table_stops_at_its_move_limit(client):
    table_id, tokens = create(client, rules="fnv", seed=5, move_limit=7)
    view = play_out(client, table_id, tokens)
    assert view["status"] == "finished" and view["ply"] == 7
    assert view["result"]["score"] == "*" and view["result"]["end"] == "move limit"
    record = client.get(f"/v1/tables/{table_id}/record").text
    assert '[Termination "move limit"]' in record and '[Result "*"]' in record
    [report] = validate_text(record)
    assert report.valid and report.plies == 7 and report.details["stopped"] == "move limit"
    # the table takes no move past the limit
    mine = client.get(f"/v1/tables/{table_id}/view", headers=auth(tokens["Ann"])).json()
    assert mine["legal"] == []


def test_move_limit_is_checked_and_refused_where_the_rules_end_every_game(client):
    for bad in (0, -3, "9", True):
        r = client.post("/v1/tables", json={"game": "caravan", "seats": ["Ann", "Bob"], "move_limit": bad})
        assert r.status_code == 422, (bad, r.text)
    r = client.post("/v1/tables", json={"game": "daifugo", "seats": ["Aki", "Ben", "Chie", "Dai"], "move_limit": 50})
    assert r.status_code == 422 and "move_limit" in r.json()["error"]
