"""Hostile requests are answered 4xx, never 500, and break nothing for anyone else: JSON
nested thousands deep, lone surrogates, cursors that are not the listing's, names that
would break a record; a table stored with such a name by an older server still lists.
And the answers the contract and the schema promise: 405 with Allow, 426 for a plain
request to the events, explain_all true or false."""

from __future__ import annotations

import base64
import json
import sqlite3
from contextlib import closing

import pytest
from helpers import auth, create, play_out, record_valid

DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
def sqlite_client(tmp_path):
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(str(tmp_path / "h.db"), rate=1e6, burst=1e6)) as c:
        c.db = str(tmp_path / "h.db")  # type: ignore[attr-defined]
        yield c


def _post(c, path: str, text: str, token: str | None = None):
    headers = {"Content-Type": "application/json", **(auth(token) if token else {})}
    return c.post(path, content=text.encode(), headers=headers)


def test_deep_json_and_lone_surrogates_are_400_and_store_nothing(sqlite_client):
    c = sqlite_client
    table_id, tokens = create(c)
    moves = f"/v1/tables/{table_id}/moves"
    for path, text in (("/v1/tables", DEEP), (moves, DEEP), ("/v1/solve", DEEP),
                       ("/v1/tables", '{"game": "caravan", "seats": ' + "[" * 40 + "]" * 40 + "}"),
                       ("/v1/tables", '{"game": "caravan", "seats": ["\\udc00", "Bob"]}'),
                       ("/v1/tables", '{"game": "\\udc00", "seats": ["Ann", "Bob"]}'),
                       ("/v1/tables", '{"game": "caravan", "seats": ["Ann", "Bob"], "bots": {"\\udc00": "random"}}'),
                       ("/v1/solve", '{"record": "\\udc00", "question": "reach"}'),
                       (moves, '{"move": "7H>A\\ud800"}')):
        r = _post(c, path, text, tokens["Ann"])
        assert r.status_code == 400, (path, text[:60], r.status_code, r.text)
        assert "error" in r.json()
    listing = c.get("/v1/tables")
    assert listing.status_code == 200 and [t["id"] for t in listing.json()["tables"]] == [table_id]
    assert c.get("/").status_code == 200
    # a record that is no text (control characters) is a question the job cannot ask: 422
    r = _post(c, "/v1/solve", json.dumps({"record": "\u0006hGe\u0003\U000ee11e", "question": "fewest"}))
    assert r.status_code == 422 and "<record>" in r.json()["error"]


def test_a_cursor_is_only_the_listings_own(sqlite_client):
    c = sqlite_client
    ids = [create(c)[0] for _ in range(3)]
    import referee.service.endpoints as endpoints

    old, endpoints.PAGE_SIZE = endpoints.PAGE_SIZE, 2
    try:
        first = c.get("/v1/tables").json()
        second = c.get("/v1/tables", params={"cursor": first["next"]}).json()
        assert [t["id"] for t in first["tables"] + second["tables"]] == ids[::-1]
    finally:
        endpoints.PAGE_SIZE = old

    def b64(text: str) -> str:
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    for cursor in ("", "!!", "W" + "9" * 400, b64(f'[{"9" * 400}, "x"]'), b64("[" * 3000 + "]" * 3000),
                   "1e999_ab", "1.5_XYZ", "1" * 17 + "_ab"):
        r = c.get("/v1/tables", params={"cursor": cursor})
        assert r.status_code == 400, (cursor[:40], r.text)


def test_names_that_would_break_a_record_are_422(sqlite_client):
    c = sqlite_client
    for name in ("Ann\nBob", 'Ann"', "Ann[", "Ann]", "(Ann)", "「Ann」", "Ann\u200b", "Ann\x1b", " Ann", "Ann ",
                 "", "x" * 33, "Ann\u2028", "Ann\tLee"):
        r = c.post("/v1/tables", json={"game": "caravan", "seats": [name, "Bob"]})
        assert r.status_code == 422, (name, r.text)
    assert c.post("/v1/tables", json={"game": "caravan", "seats": ["Ann", "Ann"]}).status_code == 422
    assert [t["id"] for t in c.get("/v1/tables").json()["tables"]] == []
    # letters of every script, spaces inside (where the game allows them), up to 32 characters
    table_id, tokens = create(c, seats=["Zoë Ångström", "アキ" * 16])
    view = play_out(c, table_id, tokens)
    assert view["status"] == "finished"
    record = c.get(f"/v1/tables/{table_id}/record").text
    assert "アキ" * 16 in record and record_valid(record)
    table_id, _ = create(c, game="daifugo", seats=["大富豪", "Ben", "Chie"])
    assert c.get(f"/v1/tables/{table_id}").json()["seats"][0]["name"] == "大富豪"


def test_a_table_stored_with_a_bad_name_still_lists(sqlite_client):
    """Tables an older server stored with a lone surrogate or a line break in a name: every
    listing, the page and the table itself answer (the name shown with U+FFFD)."""
    c = sqlite_client
    bad, _ = create(c)
    good, _ = create(c)
    with closing(sqlite3.connect(c.db)) as conn:
        conn.execute("UPDATE live_tables SET seats = ? WHERE id = ?",
                     ('[{"name": "\\udc00", "bot": null}, {"name": "Bob\\n[Result \\"1-0\\"]", "bot": null}]', bad))
        conn.commit()
    c.app.state.hub.tables.clear()  # as after a restart: read back from the database
    listing = c.get("/v1/tables")
    assert listing.status_code == 200
    seats = {t["id"]: t["seats"] for t in listing.json()["tables"]}
    assert seats[bad] == ["\ufffd", 'Bob\ufffd[Result "1-0"]'] and seats[good] == ["Ann", "Bob"]
    assert c.get("/").status_code == 200
    for path in (f"/v1/tables/{bad}", f"/v1/tables/{bad}/record", f"/tables/{bad}"):
        assert c.get(path).status_code == 200, path


def test_methods_events_and_flags_as_the_schema_says(sqlite_client):
    c = sqlite_client
    table_id, tokens = create(c)
    for method, path, allowed in (("DELETE", "/v1/tables", {"GET", "POST"}), ("PUT", f"/v1/tables/{table_id}", {"GET"}),
                                  ("GET", f"/v1/tables/{table_id}/moves", {"POST"}), ("TRACE", "/healthz", {"GET"}),
                                  ("PATCH", "/v1/solve", {"POST"})):
        r = c.request(method, path)
        assert r.status_code == 405, (method, path, r.text)
        assert allowed <= {m.strip() for m in r.headers["allow"].split(",")}, r.headers["allow"]
    r = c.get(f"/v1/tables/{table_id}/events")
    assert r.status_code == 426 and r.headers["upgrade"] == "websocket"
    assert c.get("/v1/tables/nope/events").status_code == 404
    text = '[Game "Caravan"]\n\n1. 7H>A *\n'
    for flag, status in (("null", 400), ("1", 400), ("yes", 400), ("true", 200), ("false", 200)):
        assert c.post(f"/v1/annotate?explain_all={flag}", content=text).status_code == status, flag
    for body in ({"move": "disband A", "ply": -1}, {"move": "disband A", "ply": 1.5}):
        assert c.post(f"/v1/tables/{table_id}/moves", json=body, headers=auth(tokens["Ann"])).status_code == 400
    # a whole number written 0.0 is 0; null is left out
    assert c.post(f"/v1/tables/{table_id}/moves", json={"move": "disband A", "ply": 0.0},
                  headers=auth(tokens["Ann"])).status_code == 422
    assert c.post("/v1/tables", json={"game": "caravan", "seats": ["A", "B"], "seed": 7.0, "rules": None,
                                      "bots": None, "clock": None}).status_code == 201
    spec = c.get("/openapi.json").json()
    new_table = spec["components"]["schemas"]["NewTable"]
    assert new_table["properties"]["seats"]["minItems"] == 1 and new_table["additionalProperties"] is False
    assert spec["components"]["schemas"]["Solve"]["additionalProperties"] is False
    cursor = next(p for p in spec["paths"]["/v1/tables"]["get"]["parameters"] if p["name"] == "cursor")
    assert cursor["schema"]["pattern"]
