"""A hypothesis state machine over the live service: create, join (a seat's or a
spectator's event stream), legal moves, illegal moves, stale plies, bad tokens, restarts
and reconnects, on SQLite (and a shorter run on PostgreSQL).

Invariants: no seat's messages ever name a card in another seat's hand at that moment
(Daifugo's single deck makes this exact; the public history of moves is checked apart:
it is the acknowledged moves, in order, with exchange cards as ``?``); every acknowledged
move is stored, in order; every finished table's record validates.
"""

from __future__ import annotations

import json
import re
import secrets

import pytest
from helpers import auth, record_valid
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

CARD = re.compile(r"(?<![0-9A-Za-z(])(?:10|[2-9AJQK])[SHDC](?![0-9A-Za-z])")
ALL = [f"{r}{s}" for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def cards_named(doc) -> set[str]:
    """Every card a message names, outside the public record: the history of moves and
    the description of the play on the table (a sequence ``10D-QD`` names its ends)."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("moves", "move", "combination")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return set(CARD.findall(json.dumps(strip(doc))))


class LiveMachine(RuleBasedStateMachine):
    #: A fresh, empty database for each run of the machine (its URL).
    fresh = staticmethod(lambda: "")

    def __init__(self):
        super().__init__()
        from starlette.testclient import TestClient

        from referee.service.app import create_app

        db = self.fresh()
        self._make = lambda: TestClient(create_app(db, rate=1e6, burst=1e6))
        self.client = self._make().__enter__()
        self.tables: dict[str, dict] = {}
        self.sockets: dict[tuple[str, str | None], dict] = {}

    tables_b = Bundle("tables")

    def teardown(self):
        for sock in self.sockets.values():
            sock["ws"].__exit__(None, None, None)
        self.client.__exit__(None, None, None)

    # ------------------------------------------------------------------ helpers

    def hands(self, table_id: str) -> dict[str, set[str]]:
        t = self.tables[table_id]
        return {name: set(self.client.get(f"/v1/tables/{table_id}/view", headers=auth(tok)).json()["hand"])
                for name, tok in t["tokens"].items()}

    def check_secret(self, table_id: str, reader: str | None, doc) -> None:
        hands = self.hands(table_id)
        others = set().union(*(h for name, h in hands.items() if name != reader))
        leaked = cards_named(doc) & others
        assert not leaked, f"{reader or 'a spectator'} was told {leaked}, held by others"

    def drain(self, table_id: str) -> None:
        """Read what every open stream of this table has been sent since, and check it."""
        view = self.client.get(f"/v1/tables/{table_id}").json()
        for (tid, reader), sock in self.sockets.items():
            if tid != table_id:
                continue
            while sock["ply"] < view["ply"]:
                m = sock["ws"].receive_json()
                assert m["type"] == "move" and m["ply"] == sock["ply"] + 1 and m["view"]["ply"] == m["ply"]
                sock["ply"] = m["ply"]
                if m["ply"] == view["ply"]:
                    self.check_secret(table_id, reader, m)
            if view["status"] == "finished" and not sock["ended"]:
                assert sock["ws"].receive_json()["type"] == "end"
                sock["ended"] = True

    def mover(self, table_id: str):
        for name, tok in self.tables[table_id]["tokens"].items():
            mine = self.client.get(f"/v1/tables/{table_id}/view", headers=auth(tok)).json()
            if mine["legal"]:
                return name, tok, mine
        return None

    # ------------------------------------------------------------------ rules

    @initialize(target=tables_b)
    def first_table(self):
        return self._create(3, "classic", 1, 1)

    @rule(target=tables_b, players=st.integers(3, 5), preset=st.sampled_from(["classic", "uecda"]),
          rounds=st.integers(1, 2), seed=st.integers(0, 2**32))
    def create(self, players, preset, rounds, seed):
        return self._create(players, preset, rounds, seed)

    def _create(self, players, preset, rounds, seed):
        if preset == "uecda":
            players = 5
        names = ["Aki", "Ben", "Chie", "Dai", "Eri"][:players]
        r = self.client.post("/v1/tables", json={"game": "daifugo", "rules": preset, "seats": names,
                                                 "rounds": rounds, "seed": seed})
        assert r.status_code == 201
        doc = r.json()
        self.tables[doc["id"]] = {"tokens": {s["name"]: s["token"] for s in doc["seats"]}, "acked": {}}
        return doc["id"]

    @rule(table=tables_b, who=st.integers(0, 5))
    def join(self, table, who):
        names = list(self.tables[table]["tokens"])
        reader = names[who] if who < len(names) else None
        key = (table, reader)
        if key in self.sockets:
            return
        url = f"/v1/tables/{table}/events" + (f"?token={self.tables[table]['tokens'][reader]}" if reader else "")
        ws = self.client.websocket_connect(url)
        ws.__enter__()
        first = ws.receive_json()
        assert first["type"] == "view" and first.get("seat") == reader
        self.check_secret(table, reader, first)
        ended = False
        if first["status"] == "finished":
            assert ws.receive_json()["type"] == "end"
            ended = True
        self.sockets[key] = {"ws": ws, "ply": first["ply"], "ended": ended}

    @rule(table=tables_b, data=st.data(), count=st.integers(1, 40))
    def legal_moves(self, table, data, count):
        for _ in range(count):
            found = self.mover(table)
            if found is None:
                break
            name, tok, mine = found
            self.check_secret(table, name, mine)
            move = data.draw(st.sampled_from(mine["legal"]))
            r = self.client.post(f"/v1/tables/{table}/moves", headers=auth(tok),
                                 json={"move": move, "ply": mine["ply"]})
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["accepted"] and body["ply"] == mine["ply"] + 1
            hidden = "?" * len(move.split(":")[1].split()) if "->" in move else ""
            public = move if "->" not in move else move.split(":")[0] + ": " + " ".join(hidden)
            self.tables[table]["acked"][body["ply"]] = public
            self.drain(table)

    @rule(table=tables_b, data=st.data())
    def illegal_move(self, table, data):
        found = self.mover(table)
        if found is None:
            return
        name, tok, mine = found
        card = data.draw(st.sampled_from([c for c in ALL if c not in mine["hand"]]))
        r = self.client.post(f"/v1/tables/{table}/moves", headers=auth(tok), json={"move": f"{name}: {card}"})
        body = r.json()
        assert cards_named(body) <= {card} | set(mine["hand"])
        if r.status_code == 200:
            assert body["counted_as"] == "pass" and body["accepted"] is False and body["rule"]
            self.tables[table]["acked"][body["ply"]] = f"{name}: pass"
        else:
            assert r.status_code == 422 and body["accepted"] is False and body["ply"] == mine["ply"]
        self.drain(table)

    @rule(table=tables_b)
    def stale_ply(self, table):
        found = self.mover(table)
        if found is None:
            return
        name, tok, mine = found
        r = self.client.post(f"/v1/tables/{table}/moves", headers=auth(tok),
                             json={"move": mine["legal"][0], "ply": mine["ply"] - 1})
        assert r.status_code == 409
        assert self.client.get(f"/v1/tables/{table}").json()["ply"] == mine["ply"]

    @rule(table=tables_b)
    def bad_token(self, table):
        r = self.client.post(f"/v1/tables/{table}/moves", headers=auth(secrets.token_urlsafe(24)),
                             json={"move": "Aki: pass"})
        assert r.status_code == 401
        assert self.client.get(f"/v1/tables/{table}/view", headers=auth("x")).status_code == 401

    @precondition(lambda self: self.sockets or self.tables)
    @rule()
    def restart(self):
        for sock in self.sockets.values():
            sock["ws"].__exit__(None, None, None)
        self.sockets.clear()
        self.client.__exit__(None, None, None)
        self.client = self._make().__enter__()

    @precondition(lambda self: self.sockets)
    @rule(data=st.data())
    def reconnect(self, data):
        key = data.draw(st.sampled_from(sorted(self.sockets, key=str)))
        self.sockets.pop(key)["ws"].__exit__(None, None, None)
        table, who = key
        names = list(self.tables[table]["tokens"])
        self.join(table, names.index(who) if who else 9)
        assert self.sockets[key]["ply"] == self.client.get(f"/v1/tables/{table}").json()["ply"]

    # ------------------------------------------------------------------ invariants

    @invariant()
    def acknowledged_moves_stored_in_order(self):
        for table_id, t in self.tables.items():
            view = self.client.get(f"/v1/tables/{table_id}").json()
            assert view["ply"] == len(view["moves"])
            for ply, public in t["acked"].items():
                assert view["moves"][ply - 1] == public
            assert all(m.split(": ", 1)[1].replace("?", "").strip() == "" for m in view["moves"] if "->" in m)
            if view["status"] == "finished" and not t.get("validated"):
                assert record_valid(self.client.get(f"/v1/tables/{table_id}/record").text)
                t["validated"] = True


def _run(fresh, examples: int, steps: int) -> None:
    machine = type("Machine", (LiveMachine,), {"fresh": staticmethod(fresh)})
    machine.TestCase.settings = settings(max_examples=examples, stateful_step_count=steps, deadline=None,
                                         suppress_health_check=list(HealthCheck))
    machine.TestCase("runTest").runTest()


def _sqlite(folder):
    counter = iter(range(10**9))
    return lambda: str(folder / f"state-{next(counter)}.db")


def _postgres(server_url: str):
    """The same database, emptied for each run (creating one per run would be slow)."""
    from conftest import fresh_postgres

    url = fresh_postgres(server_url)

    def fresh() -> str:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            exists = conn.execute("SELECT to_regclass('live_moves') IS NOT NULL").fetchone()[0]
            if exists:
                conn.execute("TRUNCATE live_tables, live_moves")
        return url

    return fresh


def test_live_service_state_machine_sqlite(tmp_path):
    _run(_sqlite(tmp_path), 8, 30)


def test_live_service_state_machine_postgresql(postgres_server):
    _run(_postgres(postgres_server), 3, 20)


@pytest.mark.slow
def test_live_service_state_machine_long(tmp_path):
    _run(_sqlite(tmp_path), 100, 60)
