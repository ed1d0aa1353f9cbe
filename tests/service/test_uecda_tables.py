"""Contest tables (``pitboss serve --uecda``) on each database the service runs on: the
table is stored as it plays, its reports with it, and a new service on the same database
has it, record and all (the fuller tests: tests/games/daifugo/test_uecda_web.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from referee.games.daifugo.uecda import server as listener
from referee.games.daifugo.uecda.contest.client import Client
from referee.jobs.validate import validate_text
from referee.service.app import create_app
from tests.games.daifugo.test_uecda_web import _start, _until


def _finished(client: TestClient) -> list[dict[str, Any]]:
    return [t for t in client.get("/v1/tables").json()["tables"] if t["status"] == "finished"]


def test_a_contest_table_is_stored_and_read_back(db_url: str, tmp_path: Path) -> None:
    said: list[str] = []
    with TestClient(create_app(db_url)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        task = client.portal.start_task_soon(  # type: ignore[union-attr]
            lambda: listener.serve(hub, "127.0.0.1", 0, announce=said.append, uecda_games=2, uecda_seed=3,
                                   uecda_timeout=30.0, uecda_logs=str(tmp_path / "logs")))
        _until(lambda: said, 10)
        port = int(said[0].rsplit(":", 1)[1])
        clients = [Client("127.0.0.1", port, n, seed=i, illegal=0.1) for i, n in enumerate(["a", "b", "c", "d", "e"])]
        clients[2] = Client("127.0.0.1", port, "c", seed=2, misbehave="echo", at=1)
        for t in _start(clients):
            t.join(60)
        (row,) = _until(lambda: _finished(client))
        record = client.get(f"/v1/tables/{row['id']}/record").text
        view = client.get(f"/v1/tables/{row['id']}").json()
        task.cancel()
    (log,) = (tmp_path / "logs").glob("*.log")
    assert record == log.read_text(encoding="latin-1") and all(r.valid for r in validate_text(record))
    assert [(r["player"], r["kind"]) for r in view["reports"]] == [(2, "extra-cells")]
    with TestClient(create_app(db_url)) as again:
        assert again.get(f"/v1/tables/{row['id']}/record").text == record
        assert again.get(f"/v1/tables/{row['id']}").json() == view
        assert _finished(again) == [row]
