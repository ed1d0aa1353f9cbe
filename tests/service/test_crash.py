"""Crash test: many tables moving at once, ``kill -9`` of the server at random moments,
a restart on the same database, again and again. Every acknowledged move is there, the
move in flight at the kill is there wholly or not at all (and a retry with its ply gets
409 or 200 accordingly), and every table plays on to a valid record. SQLite and PostgreSQL."""

from __future__ import annotations

import random
import threading
import time

import httpx
import pytest
from helpers import auth, record_valid


class Player(threading.Thread):
    """Plays one table's human seats as fast as the answers come, until told to stop or
    the server goes away; remembers what was acknowledged and what was in flight."""

    def __init__(self, base: str, table_id: str, tokens: dict[str, str], stop: threading.Event):
        super().__init__(daemon=True)
        self.base, self.table_id, self.tokens, self.stop = base, table_id, tokens, stop
        #: (the ply it was sent with, the answer's ply, the move): the move is one of those plies.
        self.acked: list[tuple[int, int, str]] = []
        self.in_flight: tuple[str, int, str] | None = None
        self.finished = False

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base, timeout=10) as c:
                while not self.stop.is_set():
                    view = c.get(f"/v1/tables/{self.table_id}").json()
                    if view["status"] == "finished":
                        self.finished = True
                        return
                    moved = False
                    for name, tok in self.tokens.items():
                        got = c.get(f"/v1/tables/{self.table_id}/view", headers=auth(tok))
                        if got.status_code == 429:  # polled too fast for the rate limit: wait below
                            continue
                        mine = got.json()
                        if not mine["legal"]:
                            continue
                        moved = True
                        move = mine["legal"][len(mine["legal"]) // 2]
                        self.in_flight = (name, mine["ply"], move)
                        r = c.post(f"/v1/tables/{self.table_id}/moves", headers=auth(tok),
                                   json={"move": move, "ply": mine["ply"]})
                        self.in_flight = None
                        assert r.status_code in (200, 429), r.text  # 429: not played, tried again
                        if r.status_code == 200:
                            self.acked.append((mine["ply"], r.json()["ply"], move))
                        break
                    if not moved:  # a bot or the other seat is to move: poll politely
                        time.sleep(0.01)
        except (httpx.HTTPError, ValueError):
            return  # the server was killed


def test_a_gift_is_shown_with_its_cards_hidden() -> None:
    assert shown("Chie -> Ben: ? ?", "Chie -> Ben: 3D 4C") and shown("7H>A", "7H>A")
    assert not shown("Chie -> Ben: ?", "Chie -> Ben: 3D 4C") and not shown("Aki: 3D", "Aki: 4D")


def shown(public: str, sent: str) -> bool:
    """Is ``public`` the public record's entry for the move ``sent``? The cards of an
    exchange gift are public as ``?`` (service.md, section 3): ``Chie -> Ben: ? ?``."""
    if public == sent:
        return True
    head, _, cards = sent.partition(":")
    return "->" in head and public == f"{head}: " + " ".join("?" for _ in cards.split())


def played(moves: list[str], acked: tuple[int, int, str]) -> bool:
    """Is the acknowledged move in the public record, between the ply it was sent with and
    the answer's (a bot's gift of the same exchange may come first; the gifts the rules fix
    come after)?"""
    sent, answered, move = acked
    return any(shown(m, move) for m in moves[sent:answered])


def _new_tables(base: str, rng: random.Random, count: int) -> list[tuple[str, dict]]:
    out = []
    with httpx.Client(base_url=base, timeout=30) as c:
        for i in range(count):
            if i % 2:
                body = {"game": "caravan", "seats": ["Ann", "Bob"], "seed": rng.randrange(10**9)}
            else:
                body = {"game": "daifugo", "seats": ["Aki", "Ben", "Chie", "Dai"], "rounds": 2,
                        "seed": rng.randrange(10**9), "bots": {"Dai": "random"}}
            doc = c.post("/v1/tables", json=body).json()
            out.append((doc["id"], {s["name"]: s["token"] for s in doc["seats"] if not s["bot"]}))
    return out


def crash_run(db: str, server_factory, tables: int, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    server = server_factory(db)
    made = _new_tables(server.url, rng, tables)
    acked: dict[str, list[tuple[int, int, str]]] = {t: [] for t, _ in made}
    for _ in range(kills):
        stop = threading.Event()
        players = [Player(server.url, t, toks, stop) for t, toks in made]
        for p in players:
            p.start()
        time.sleep(rng.uniform(0.3, 1.5))
        server.kill()  # SIGKILL: no shutdown of any kind
        for p in players:
            p.join(30)
        server = server_factory(db)
        with httpx.Client(base_url=server.url, timeout=30) as c:
            for p in players:
                acked[p.table_id] += p.acked
                view = c.get(f"/v1/tables/{p.table_id}").json()
                assert view["ply"] == len(view["moves"])
                for move in acked[p.table_id]:
                    assert played(view["moves"], move), (p.table_id, move)
                if p.in_flight is not None:
                    name, ply, move = p.in_flight
                    # wholly there, or not at all: nothing of this seat's since the ply it was sent with
                    later = view["moves"][ply:]
                    stored = any(shown(m, move) for m in later)
                    assert stored or not any(m.startswith(f"{name}:") or m.startswith(f"{name} ->") for m in later)
                    r = c.post(f"/v1/tables/{p.table_id}/moves", headers=auth(p.tokens[name]),
                               json={"move": move, "ply": ply})
                    if stored:  # the retry with its ply says which
                        assert r.status_code == 409, r.text
                    else:
                        assert r.status_code == 200, r.text
                        acked[p.table_id].append((ply, r.json()["ply"], move))
    # every table plays on to the end, to a valid record
    stop = threading.Event()
    players = [Player(server.url, t, toks, stop) for t, toks in made]
    for p in players:
        p.start()
    for p in players:
        p.join(300)
        assert p.finished, p.table_id
    with httpx.Client(base_url=server.url, timeout=30) as c:
        for t, _ in made:
            view = c.get(f"/v1/tables/{t}").json()
            for move in acked[t]:
                assert played(view["moves"], move), (t, move)
            assert record_valid(c.get(f"/v1/tables/{t}/record").text), t
    print(f"kill -9 on {db.split('://')[0] if '://' in db else 'sqlite'}: {kills} cycles, {tables} tables, "
          f"{sum(len(a) for a in acked.values())} acknowledged moves, 0 lost")


def test_kill_9_and_restart(db_url, server_factory):
    crash_run(db_url, server_factory, tables=8, kills=3, seed=1)


@pytest.mark.slow
def test_kill_9_and_restart_long(db_url, server_factory):
    crash_run(db_url, server_factory, tables=40, kills=15, seed=2)
