"""The moves the rules make themselves (a gift the rules fix, a gift with one legal choice)
are made with the move that sets them off, in its commit, before it is answered: the
answer's ply and the next view include them, so a client that moves with the ply of the
view it read is never refused. Where several seats move at once (the exchange of
``exchange=choice``), a ply is stale only if a move since then changed what this seat may
do: two seats' gifts sent from the same view both stand. SQLite and PostgreSQL."""

from __future__ import annotations

from helpers import auth, create, record_valid

SEATS = ["Aki", "Ben", "Chie", "Dai", "Eri"]


def _views(client, table_id: str, tokens: dict[str, str]) -> dict[str, dict]:
    return {n: client.get(f"/v1/tables/{table_id}/view", headers=auth(t)).json() for n, t in tokens.items()}


def _move(client, table_id: str, token: str, move: str, ply: int):
    return client.post(f"/v1/tables/{table_id}/moves", headers=auth(token), json={"move": move, "ply": ply})


def test_a_client_that_moves_with_the_ply_it_read_is_never_refused(tmp_path):
    """Every seat reads its view, then every seat that may move sends its move with the ply
    of that view (in a simultaneous exchange, all of them): every move is answered 200, and
    each answer's ply is the table's next view's."""
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(str(tmp_path / "race.db"))) as client:
        for options in ("", "exchange=choice"):
            _naively(client, options)


def _naively(client, options: str) -> None:
    table_id, tokens = create(client, game="daifugo", seats=SEATS, rounds=2, seed=21, options=options)
    together = 0
    while True:
        views = _views(client, table_id, tokens)
        if views["Aki"]["status"] == "finished":
            break
        movers = [n for n, v in views.items() if v["legal"]]
        together += len(movers) > 1
        for name in movers:
            r = _move(client, table_id, tokens[name], views[name]["legal"][-1], views[name]["ply"])
            assert r.status_code == 200, (options, name, r.text)
            assert client.get(f"/v1/tables/{table_id}").json()["ply"] == r.json()["ply"]
    assert together >= 1 if options else together == 0, (options, together)
    assert record_valid(client.get(f"/v1/tables/{table_id}/record").text)


def _to_the_exchange(client, table_id: str, tokens: dict[str, str]) -> tuple[dict, int]:
    """Play until the round's end; the answer of the move that ended it, and the ply it was sent at."""
    while True:
        views = _views(client, table_id, tokens)
        name = next(n for n, v in views.items() if v["legal"])
        sent = views[name]["ply"]
        r = _move(client, table_id, tokens[name], views[name]["legal"][0], sent)
        assert r.status_code == 200, r.text
        if r.json()["ply"] > sent + 1:
            return r.json(), sent


def test_the_answer_and_the_next_view_include_the_gifts_the_rules_fix(client):
    table_id, tokens = create(client, game="daifugo", seats=SEATS, rounds=2, seed=21)
    with client.websocket_connect(f"/v1/tables/{table_id}/events") as ws:
        assert ws.receive_json()["type"] == "view"
        answer, sent = _to_the_exchange(client, table_id, tokens)
        view = client.get(f"/v1/tables/{table_id}").json()
        assert view["ply"] == answer["ply"] and view["round"] == 2
        gifts = view["moves"][sent + 1:]
        assert gifts and all("->" in m for m in gifts)  # the fixed gifts, made in the same commit
        # one event per ply, in order, each with its reader's view at that ply
        plies = []
        while not plies or plies[-1] < answer["ply"]:
            m = ws.receive_json()
            assert m["type"] == "move" and m["view"]["ply"] == m["ply"]
            plies.append(m["ply"])
        assert plies == list(range(plies[0], answer["ply"] + 1))


def test_a_ply_is_stale_only_if_this_seats_options_changed(db_url):
    """In the simultaneous exchange: a gift sent from the view both choosers read stands;
    the same seat's second gift from that view is stale (its own gift changed what it may
    do); and so after a restart (the table read back from the database)."""
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(db_url)) as c:
        table_id, tokens = create(c, game="daifugo", seats=SEATS, rounds=2, seed=21, options="exchange=choice")
        _to_the_exchange(c, table_id, tokens)
        views = _views(c, table_id, tokens)
        first, second = [n for n, v in views.items() if v["legal"]]
        ply = views[first]["ply"]
        assert _move(c, table_id, tokens[first], views[first]["legal"][0], ply).status_code == 200
        stale = _move(c, table_id, tokens[first], views[first]["legal"][1], ply)
        assert stale.status_code == 409 and stale.json()["ply"] > ply
    with TestClient(create_app(db_url)) as c:  # a restart: read back, the same answers
        assert _move(c, table_id, tokens[first], views[first]["legal"][1], ply).status_code == 409
        r = _move(c, table_id, tokens[second], views[second]["legal"][0], ply)
        assert r.status_code == 200, r.text
        # in play, one seat at a time: whoever moved, or is now to move, finds an older ply stale
        views = _views(c, table_id, tokens)
        mover = next(n for n, v in views.items() if v["legal"])
        before = views[mover]["ply"]
        assert _move(c, table_id, tokens[mover], views[mover]["legal"][0], before).status_code == 200
        assert _move(c, table_id, tokens[mover], views[mover]["legal"][0], before).status_code == 409
        after = _views(c, table_id, tokens)
        following = next(n for n, v in after.items() if v["legal"])
        assert _move(c, table_id, tokens[following], after[following]["legal"][0], before).status_code == 409
