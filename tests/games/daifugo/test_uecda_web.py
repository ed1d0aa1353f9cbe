"""Contest tables in the HTTP service (``pitboss serve --uecda``): a table of five TCP
connections is a table of the service like any other. Through the ASGI test client (the
listener run in the app's own event loop) and through a real ``pitboss serve`` with real
clients on loopback: the table is listed while it plays, a spectator's WebSocket follows
it and never sees a card before it is public, its record is the contest's log and
validates as the log file does, names are the clients' own (spaces, repeats), a
misbehaving client's report is on the table, a restart keeps a finished table and shows
a cut one as interrupted, and the page draws it in Chromium."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.games.daifugo.uecda.contest.client import Client
from referee.jobs.validate import validate_file, validate_text

ROOT = Path(__file__).resolve().parents[3]
NAMES = ["my bot", "my bot", "p2", "Ünï", "p4"]
CARD = re.compile(r"(?<![\w\[])(?:10|[2-9JQKA])[SHDC](?![\w\]])|\bJK\b")


class Gated(Client):
    """A client that waits for ``gate`` before the first table it sends in game ``game``
    (a gift or a submission), so that a test can look at the table while it plays (the
    earlier games ended and logged)."""

    def __init__(self, *args: Any, gate: threading.Event | None = None, game: int = 2, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.gate, self.gate_game = gate, game

    def send_table(self, cells: list[int]) -> None:
        if self.gate is not None and self.stats.games == self.gate_game:
            self.gate.wait(120)
            self.gate = None
        super().send_table(cells)


def _clients(port: int, gate: threading.Event | None = None, misbehave: str = "", names=NAMES) -> list[Client]:
    out: list[Client] = [Gated("127.0.0.1", port, name, seed=i, illegal=0.05, gate=gate if i == 0 else None)
                         for i, name in enumerate(names)]
    if misbehave:
        out[3] = Client("127.0.0.1", port, names[3], seed=3, misbehave=misbehave, at=2, deadline=120)
    return out


def _start(clients: list[Client]) -> list[threading.Thread]:
    """The clients one after another, each once it has its player number (players are
    numbered in connection order)."""
    threads = []
    for c in clients:
        t = threading.Thread(target=c.run, daemon=True)
        t.start()
        threads.append(t)
        deadline = time.monotonic() + 10
        while not c.stats.numbers and t.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)
    return threads


def _until(check, timeout: float = 60.0, every: float = 0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError("not in time")


def _verdicts(reports) -> list[tuple[bool, list[str], list[str]]]:
    return [(r.valid, [f.rule for f in r.errors], [f.rule for f in r.warnings]) for r in reports]


# ------------------------------------------------------------------ through the ASGI test client


@pytest.fixture
def service(tmp_path: Path):
    """The app on a fresh database, with the contest listener run in its event loop."""
    from starlette.testclient import TestClient

    from referee.games.daifugo.uecda import server as listener
    from referee.service.app import create_app

    def run(**options: Any):
        said: list[str] = []
        client = TestClient(create_app(str(tmp_path / "pitboss.db")))
        client.__enter__()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        options = {"uecda_games": 3, "uecda_seed": 20261201, "uecda_timeout": 30.0,
                   "uecda_logs": str(tmp_path / "logs"), **options}
        task = client.portal.start_task_soon(  # type: ignore[union-attr]
            lambda: listener.serve(hub, "127.0.0.1", 0, announce=said.append, **options))
        _until(lambda: said, 10)
        started.append((client, task))
        return client, int(said[0].rsplit(":", 1)[1])

    started: list[tuple[Any, Any]] = []
    yield run
    for client, task in started:
        task.cancel()
        client.__exit__(None, None, None)


def _listed(client) -> list[dict]:
    return client.get("/v1/tables").json()["tables"]


def test_a_contest_table_is_listed_watched_and_recorded(service, tmp_path: Path) -> None:
    client, port = service()
    first_game, second_game = threading.Event(), threading.Event()
    clients = _clients(port, names=NAMES)
    clients[0] = Gated("127.0.0.1", port, NAMES[0], seed=0, illegal=0.05, gate=first_game, game=1)
    clients[1] = Gated("127.0.0.1", port, NAMES[1], seed=1, illegal=0.3, gate=second_game, game=2)
    threads = _start(clients)
    try:
        # listed while it plays, with the clients' own names
        (row,) = _until(lambda: _listed(client))
        assert row["game"] == "daifugo" and row["rules"] == "uecda" and row["seats"] == NAMES
        assert row["status"] == "playing"
        page = client.get("/").text
        assert f"/tables/{row['id']}" in page and "my bot, my bot, p2, Ünï, p4" in page
        view = client.get(f"/v1/tables/{row['id']}").json()
        assert view["status"] == "playing" and [s["name"] for s in view["seats"]] == NAMES
        assert "hand" not in view and "seed" not in json.dumps(view)
        # a spectator follows it to the end; every card a message names must have been
        # played in public before (the moves so far; a gift's cards are "?")
        with client.websocket_connect(f"/v1/tables/{row['id']}/events") as ws:
            m = ws.receive_json()
            assert m["type"] == "view" and m["status"] == "playing"
            game_one = list(m["moves"])  # the moves of game 1 so far, then as they come
            first_game.set()
            seen_public: set[str] = set()
            plies = [m["ply"]]
            record_mid_match = None
            while True:
                view = m if m["type"] == "view" else m.get("view") or {}
                for move in view.get("moves", []) + ([m["move"]] if m.get("move") else []):
                    assert " -> " not in move or set(move.split(": ")[1].split()) == {"?"}, move
                    seen_public.update(CARD.findall(move))
                leaked = set(_cards(m)) - seen_public
                assert not leaked, (m, leaked)
                if m["type"] == "end":
                    break
                if m["type"] == "move" and m["view"]["round"] == 1:
                    game_one.append(m["move"])
                if record_mid_match is None and view.get("contest", {}).get("games_done") == 1:
                    # game 1 is over and game 2 waits for a client: the record before the end
                    record_mid_match = client.get(f"/v1/tables/{row['id']}/record").text
                    second_game.set()
                m = ws.receive_json()
                if m["type"] == "move":
                    assert m["ply"] == plies[-1] + 1 and m["view"]["ply"] == m["ply"]
                    plies.append(m["ply"])
        for t in threads:
            t.join(60)
    finally:
        first_game.set()
        second_game.set()
    # the record before the end: the contest's log with no hand, no gift, no seed, and a
    # rejected submission as the pass it counted as (its cards may be the client's own)
    assert record_mid_match is not None
    assert record_mid_match.startswith("%-----%palyer_name% my bot my bot p2 Ünï p4\n")
    assert "palyer_cards" not in record_mid_match and "RANDOM_SEED" not in record_mid_match
    (played,) = [line for line in record_mid_match.splitlines() if line.startswith("%00000%play% ")]
    entries = played.split()[1:]
    assert len(entries) == len(game_one)
    assert [len(e) == 3 for e in entries] == [text.endswith(": pass") for text in game_one]
    (log,) = (tmp_path / "logs").glob("*.log")
    (logged,) = [line for line in log.read_text(encoding="latin-1").splitlines() if line.startswith("%00000%play% ")]
    assert entries != logged.split()[1:], "some submissions of game 1 were rejected: the log has their cards"
    assert all(c.stats.ended == "match over" for c in clients)
    view = client.get(f"/v1/tables/{row['id']}").json()
    assert view["status"] == "finished" and view["contest"]["games_done"] == 3 and len(view["result"]["rounds"]) == 3
    assert view["ply"] == plies[-1]
    # its record is the log the table wrote, with the same verdicts
    record = client.get(f"/v1/tables/{row['id']}/record").text
    assert record == log.read_text(encoding="latin-1")
    assert _verdicts(validate_text(record)) == _verdicts(validate_file(log))
    assert all(valid for valid, _, _ in _verdicts(validate_file(log)))
    # "my bot my bot p2 Ünï p4" is seven words: read as five names, and said so
    assert "notation.tag.value" in _verdicts(validate_file(log))[0][2]
    # read back from the database (the plies played again through the same flow), it is the same
    client.app.state.hub.finished.clear()  # type: ignore[attr-defined]
    assert client.get(f"/v1/tables/{row['id']}/record").text == record
    again = client.get(f"/v1/tables/{row['id']}").json()
    assert again == view
    # the service's validate job takes it too
    answer = client.post("/v1/validate", content=record.encode()).json()
    assert "valid" in json.dumps(answer)
    # nobody plays it over HTTP
    assert client.post(f"/v1/tables/{row['id']}/moves", json={"move": "p2: pass"}).status_code == 401
    assert client.get(f"/v1/tables/{row['id']}/picture").status_code == 200


def _cards(message: dict) -> list[str]:
    """Every card named anywhere in a message (texts and lists)."""
    found: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str):
            found.extend(CARD.findall(value))
    walk(message)
    return found


def test_a_later_revision_table_records_its_extra_lines(service, tmp_path: Path) -> None:
    """The later revision's log (hostname, TIME_START, change_cards, points, TIME_END,
    TOTAL_POINT) is the record too, also when read back from the database."""
    client, port = service(uecda_revision="later", uecda_games=2)
    for t in _start(_clients(port, names=["a", "b", "c", "d", "e"])):
        t.join(60)
    (row,) = _until(lambda: [t for t in _listed(client) if t["status"] == "finished"])
    record = client.get(f"/v1/tables/{row['id']}/record").text
    (log,) = (tmp_path / "logs").glob("*.log")
    assert record == log.read_text(encoding="latin-1")
    assert "%-----%TIME_END% " in record and "%00001%change_cards% " in record
    client.app.state.hub.finished.clear()  # type: ignore[attr-defined]
    assert client.get(f"/v1/tables/{row['id']}/record").text == record
    assert all(r.valid for r in validate_text(record))


def test_a_stored_ply_that_does_not_replay_shows_the_table_interrupted(service, tmp_path: Path) -> None:
    """A database whose plies no longer replay (written by a version whose rules differ)
    does not keep the service from starting: that table is interrupted where they stop."""
    import sqlite3

    from starlette.testclient import TestClient

    from referee.service.app import create_app

    client, port = service(uecda_games=2)
    for t in _start(_clients(port, names=["a", "b", "c", "d", "e"])):
        t.join(60)
    (row,) = _until(lambda: [t for t in _listed(client) if t["status"] == "finished"])
    plies = client.get(f"/v1/tables/{row['id']}").json()["ply"]
    db = sqlite3.connect(tmp_path / "pitboss.db")
    with db:
        db.execute("UPDATE live_moves SET stored = 'turn 999:1' WHERE table_id = ? AND ply = ?", (row["id"], plies - 3))
    db.close()
    with TestClient(create_app(str(tmp_path / "pitboss.db"))) as again:
        view = again.get(f"/v1/tables/{row['id']}").json()
        assert view["status"] == "interrupted" and view["ply"] == plies
        assert f"stored ply {plies - 3} " in view["contest"]["replay_error"]
        record = again.get(f"/v1/tables/{row['id']}/record").text
        assert record.count("%result%") == 1  # the games before it


def test_a_table_the_service_cannot_take_plays_on(service, tmp_path: Path, monkeypatch) -> None:
    """The clients never wait for the service: when it fails to take a table (here its
    database refuses), the table plays to its end and writes its log all the same."""
    client, port = service(uecda_games=2)
    hub = client.app.state.hub  # type: ignore[attr-defined]

    async def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("the database is gone")
    monkeypatch.setattr(hub, "adopt", refuse)
    clients = _clients(port, names=["a", "b", "c", "d", "e"])
    for t in _start(clients):
        t.join(60)
    assert all(c.stats.ended == "match over" for c in clients)
    (log,) = _until(lambda: list((tmp_path / "logs").glob("*.json"))) and list((tmp_path / "logs").glob("*.log"))
    assert all(r.valid for r in validate_file(log)) and _listed(client) == []


@pytest.mark.parametrize("mode, kind", [("close", "disconnect"), ("stall", "stall"), ("garbage", "malformed")])
def test_a_misbehaving_clients_report_is_on_the_table(service, mode: str, kind: str) -> None:
    client, port = service(uecda_timeout=0.5, uecda_games=2)
    clients = _clients(port, misbehave=mode, names=["a", "b", "c", "bad one", "e"])
    threads = _start(clients)
    for t in threads:
        t.join(60)
    (row,) = _until(lambda: [t for t in _listed(client) if t["status"] == "finished"])
    view = client.get(f"/v1/tables/{row['id']}").json()
    reports = view["reports"]
    assert [(r["player"], r["name"], r["kind"]) for r in reports][:1] == [(3, "bad one", kind)]
    assert reports[0]["message"] and reports[0]["game"] == 1
    assert bool(view["seats"][3]["dropped"]) == (mode != "garbage")
    assert not any(s["dropped"] for i, s in enumerate(view["seats"]) if i != 3)
    assert all(clients[i].stats.ended == "match over" for i in (0, 1, 2, 4))
    record = client.get(f"/v1/tables/{row['id']}/record").text
    assert all(r.valid for r in validate_text(record))


# ------------------------------------------------------------------ a real pitboss serve


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Serve:
    """``pitboss serve --uecda`` in a process of its own, on loopback."""

    def __init__(self, tmp_path: Path, *extra: str):
        self.port, self.uecda = _free_port(), _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--db", str(tmp_path / "pitboss.db"),
             "--uecda", str(self.uecda), "--uecda-logs", str(tmp_path / "logs"), *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        for line in self.process.stdout:  # the HTTP service, then the listener, say so
            if "contest protocol: listening" in line:
                break
        _until(self._up, 30, 0.05)

    def _up(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"pitboss serve exited: {self.process.stderr.read()[-2000:]}")  # type: ignore[union-attr]
        try:
            return httpx.get(self.url + "/healthz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=30)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


def test_a_restart_keeps_a_finished_contest_table_and_shows_a_cut_one_interrupted(tmp_path: Path) -> None:
    server = Serve(tmp_path, "--uecda-games", "3", "--uecda-seed", "7", "--uecda-timeout", "60")
    gate = threading.Event()
    try:
        done = _clients(server.uecda, names=["a", "b", "c", "d", "e"], misbehave="garbage")
        for t in _start(done):
            t.join(60)
        first = _until(lambda: [t for t in server.get("/v1/tables").json()["tables"] if t["status"] == "finished"])[0]
        # a second table, stopped in its second game: the first ended and is stored
        cut = [Gated("127.0.0.1", server.uecda, n, seed=i, gate=gate if i == 0 else None)
               for i, n in enumerate(["v", "w", "x", "y", "z"])]
        _start(cut)
        second = _until(lambda: [t for t in server.get("/v1/tables").json()["tables"] if t["id"] != first["id"]])[0]

        def stored_as_written() -> bool:  # the table waits for the gate: every game it wrote is in the service
            (log,) = (tmp_path / "logs").glob("*-table2.log")
            written = log.read_text(encoding="latin-1").count("%result%")
            return written >= 1 and server.get(f"/v1/tables/{second['id']}").json()["contest"]["games_done"] == written
        _until(stored_as_written)
        server.kill()
        gate.set()
        restarted = Serve(tmp_path)
        try:
            tables = {t["id"]: t for t in restarted.get("/v1/tables").json()["tables"]}
            assert tables[first["id"]]["status"] == "finished" and tables[second["id"]]["status"] == "interrupted"
            logs = {json.loads(p.read_text())["table"]: p.with_suffix(".log")
                    for p in (tmp_path / "logs").glob("*.json")}
            assert restarted.get(f"/v1/tables/{first['id']}/record").text == logs[1].read_text(encoding="latin-1")
            reports = restarted.get(f"/v1/tables/{first['id']}").json()["reports"]
            assert [(r["player"], r["kind"]) for r in reports] == [(3, "malformed")]  # stored with the table
            view = restarted.get(f"/v1/tables/{second['id']}").json()
            assert view["status"] == "interrupted" and 1 <= view["contest"]["games_done"] < 3
            record = restarted.get(f"/v1/tables/{second['id']}/record").text
            (log2,) = [p for p in (tmp_path / "logs").glob("*-table2.log")]
            assert record == log2.read_text(encoding="latin-1")  # what the table wrote before it was cut
            assert _verdicts(validate_text(record)) == _verdicts(validate_file(log2))
            assert "interrupted" in restarted.get("/").text
        finally:
            restarted.kill()
    finally:
        gate.set()
        server.kill()


def test_the_page_draws_a_contest_table_live(tmp_path: Path) -> None:
    from cdp import find_chromium, in_ci, require_browser_reason

    reason = require_browser_reason()
    if reason is not None:
        if in_ci():
            pytest.fail(f"the page test needs a headless browser: {reason}")
        pytest.skip(f"the page test needs a headless browser: {reason}")
    from cdp import Browser

    server = Serve(tmp_path, "--uecda-games", "2", "--uecda-seed", "11", "--uecda-timeout", "60")
    gate = threading.Event()
    try:
        clients = _clients(server.uecda, gate, misbehave="garbage")
        threads = _start(clients)
        (row,) = _until(lambda: server.get("/v1/tables").json()["tables"])
        with Browser(find_chromium()) as browser:
            page = browser.page()
            page.goto(server.url + "/")
            assert page.eval(f"document.querySelector('a[href=\"/tables/{row['id']}\"]') !== null")
            page.goto(f"{server.url}/tables/{row['id']}")
            page.until("document.querySelector('#picture svg') !== null", 30)
            status = page.eval("document.getElementById('status').textContent")
            assert "spectator" in status and "contest table 1, game 2 of 2" in status
            assert page.eval("document.getElementById('mine').hidden") is True
            gate.set()
            page.until("document.getElementById('result').textContent", 60)
            assert "malformed" in page.eval("document.getElementById('reports').textContent")
            assert "Ünï" in page.eval("document.getElementById('picture').textContent")
            assert page.eval("document.getElementById('moves').textContent")
            assert page.errors == [], page.errors
        for t in threads:
            t.join(60)
    finally:
        gate.set()
        server.kill()


@pytest.mark.parametrize("games", [30, pytest.param(1000, marks=pytest.mark.slow)])
def test_five_client_processes_play_many_games_through_the_service(service, tmp_path: Path, games: int) -> None:
    """Five bounded client processes (random plays, some illegal) through the service:
    every ply stored, the record the log, valid under uecda."""
    client, port = service(uecda_games=games)
    procs = []
    try:
        for i in range(5):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "referee.games.daifugo.uecda.contest.client", "--port", str(port), "--name",
                 f"py {i}", "--seed", str(i), "--illegal", "0.05", "--deadline", "900"], cwd=ROOT,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        outputs = [p.communicate(timeout=900)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert all(p.returncode == 0 for p in procs), outputs
    (row,) = _until(lambda: [t for t in _listed(client) if t["status"] == "finished"])
    view = client.get(f"/v1/tables/{row['id']}").json()
    assert view["contest"]["games_done"] == games and sorted(row["seats"]) == [f"py {i}" for i in range(5)]
    record = client.get(f"/v1/tables/{row['id']}/record").text
    (log,) = (tmp_path / "logs").glob("*.log")
    assert record == log.read_text(encoding="latin-1")
    reports = validate_text(record)
    assert len(reports) == games and all(r.valid for r in reports)
