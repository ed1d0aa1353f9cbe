"""The hook for other protocols (``pitboss serve --NAME PORT``): a protocol package is
found, its options reach the command line, and through the hub it creates a table,
submits moves and observes them like the HTTP API does."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO
from helpers import auth

FAKE_INIT = 'CLI_OPTIONS = [("fake-rounds", int, 1, "Rounds per table.")]\n'
FAKE_SERVER = '''
async def serve(hub, host, port, **options):
    table, tokens = await hub.create({"game": "daifugo", "seats": ["A", "B", "C"], "rounds": options["fake_rounds"]})
    hub.started = (table, tokens)
'''


def test_a_protocol_package_is_found_and_its_options_declared(tmp_path, monkeypatch):
    import referee.service as service
    from referee.service import protocols

    package = tmp_path / "fakeproto"
    package.mkdir()
    (package / "__init__.py").write_text(FAKE_INIT)
    (package / "server.py").write_text(FAKE_SERVER)
    monkeypatch.setattr(service, "__path__", list(service.__path__) + [str(tmp_path)])
    assert "fakeproto" in protocols.names()
    assert protocols.cli_options("fakeproto") == [("fake-rounds", int, 1, "Rounds per table.")]
    assert callable(protocols.server("fakeproto").serve)


def test_no_protocol_no_flag():
    done = subprocess.run([sys.executable, "-m", "cli", "serve", "--nonesuch", "1"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--nonesuch" in done.stderr


def test_through_the_hub_a_protocol_creates_submits_and_observes(tmp_path):
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(str(tmp_path / "p.db"))) as client:
        hub = client.app.state.hub
        table, tokens = client.portal.call(hub.create, {"game": "daifugo", "seats": ["A", "B", "C"], "seed": 4})
        observer = hub.observe(table, 1)
        mover = table.match.movers()[0]
        move = table.match.legal(mover)[-1]
        answer = client.portal.call(hub.submit, table.id, mover, move)
        assert answer.status == 200 and answer.body["ply"] == 1
        event = observer.queue.get_nowait()
        assert event["type"] == "move" and event["ply"] == 1 and event["view"]["seat"] == "B"
        # the same table is a table of the HTTP API
        assert client.get(f"/v1/tables/{table.id}").json()["moves"] == [move]
        assert client.get(f"/v1/tables/{table.id}/view", headers=auth(tokens[1])).json()["seat"] == "B"
