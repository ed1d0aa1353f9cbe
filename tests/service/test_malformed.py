"""Malformed input of any kind is a 4xx (never a 500, never a hang), and changes nothing."""

from __future__ import annotations

import json

import pytest
from helpers import auth, create
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MOVE_TEXT = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"\A(?:10|[2-9AJQKTajqk]|J|JK|X)?[SHDC♠♥♦♣x]?(?:>[A-Ga-g][0-9]{0,3})?(?: \+[0-9A-Z]{1,3})?\Z"),
    st.from_regex(r"\A(?:Ann|Bob|Aki|Ben|Chie|Nobody)?(?: ?-> ?(?:Ben|Aki|Zed))?: "
                  r"?(?:pass|(?:JK\(?[<>]?[0-9A-Z]{0,2}[SHDCX]?\)?|[2-9AJQKT][SHDC])(?: [2-9AJQKT][SHDC]){0,4})?\Z"),
    st.sampled_from(["discard", "discard 99Z", "disband", "disband Z", "KS>D0", "KS>D99", "QS>A1", "JK>A0",
                     "Aki: JK(", "Aki: JK()", "Aki: JK(<3)", "Aki: JK(>2X)", "Aki:", ":", "Aki -> : 3S", "\x00",
                     "Aki: 3S 3S 3S 3S 3S 3S", "7H>A\n8H>B", "1. 7H>A"]),
)


@pytest.fixture(scope="module")
def sqlite_client(tmp_path_factory):
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(str(tmp_path_factory.mktemp("m") / "m.db"), rate=1e6, burst=1e6)) as c:
        yield c


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=MOVE_TEXT, game=st.sampled_from(["caravan", "daifugo"]))
def test_any_move_text_is_answered_4xx_or_200(sqlite_client, text, game):
    c = sqlite_client
    key = f"_table_{game}"
    if not hasattr(c, key):
        setattr(c, key, create(c, game=game, seed=1))
    table_id, tokens = getattr(c, key)
    view = c.get(f"/v1/tables/{table_id}").json()
    token = tokens[view["to_move"]] if view["to_move"] else next(iter(tokens.values()))
    r = c.post(f"/v1/tables/{table_id}/moves", headers=auth(token), json={"move": text})
    assert r.status_code in (200, 400, 403, 409, 422), (text, r.status_code, r.text)
    if r.status_code != 200:
        assert c.get(f"/v1/tables/{table_id}").json()["ply"] == view["ply"]


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                   max_size=4),
                       max_leaves=12)
FIELDS = st.fixed_dictionaries({}, optional={
    "game": st.sampled_from(["caravan", "daifugo", "Caravan", "go"]) | JSONISH,
    "rules": st.sampled_from(["holotape", "fnv", "classic", "uecda"]) | JSONISH,
    "options": st.sampled_from(["", "+eight-cut", "exchange=none", "stairs-revolution=2"]) | JSONISH,
    "seats": st.lists(st.sampled_from(["Ann", "Bob", "Aki", "a b", "", "x:y"]), max_size=9) | JSONISH,
    "bots": JSONISH, "decks": JSONISH, "rounds": JSONISH, "seed": JSONISH, "clock": JSONISH,
})


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=FIELDS | JSONISH)
def test_any_creation_body_is_answered_201_or_4xx(sqlite_client, body):
    r = sqlite_client.post("/v1/tables", content=json.dumps(body), headers={"Content-Type": "application/json"})
    assert r.status_code in (201, 400, 422), (body, r.status_code, r.text)
    if r.status_code != 201:
        assert "error" in r.json()


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.binary(max_size=300), path=st.sampled_from(["/v1/validate", "/v1/annotate", "/v1/solve",
                                                          "/v1/tables", "/v1/tables/x/moves"]))
def test_any_bytes_to_any_endpoint_are_answered_without_a_500(sqlite_client, body, path):
    r = sqlite_client.post(path, content=body, headers=auth("t"))
    assert r.status_code < 500, (body, path, r.text)
