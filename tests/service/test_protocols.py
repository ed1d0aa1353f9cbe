"""Other protocols beside HTTP (``pitboss serve --NAME PORT``): a game declares its
listeners in its contract (referee.jobs.listener); the command line offers their flags,
and the service starts what it is asked for, lending the listener its tables (adopt,
record, annotate) so that they are tables of the HTTP API too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from conftest import REPO
from helpers import auth

from referee.jobs import registry
from referee.jobs.listener import Listener, ListenerOption

#: A game of the tests' own: Daifugo's contract with a listener of its own, whose server
#: seats three players on a table through the service, plays one move, notes it and
#: stops the service.
FAKE_GAME = '''
import dataclasses
from referee.jobs import registry
from referee.jobs.listener import Listener, ListenerOption

GAME = dataclasses.replace(registry.game("daifugo"), name="fakegame", listeners=(
    Listener("fake-proto", "Also listen for the fake protocol.", "fakeserver",
             (ListenerOption("fake-proto-seed", int, 1, "Seed of each table."),
              ListenerOption("fake-proto-name", str, None, "First seat's name."))),))
'''
FAKE_SERVER = '''
import json, os, signal
from referee.jobs import registry

async def serve(host, address, port, *, announce=print, **options):
    live = registry.game("daifugo").live.get()
    seats = [options["fake_proto_name"] or "A", "B", "C"]
    setup = live.create({"seats": seats, "seed": options["fake_proto_seed"]})
    match = live.open(setup)
    table = await host.adopt("daifugo", setup, seats, match)
    mover = match.movers()[0]
    outcome = match.submit(mover, match.legal(mover)[-1])
    await host.record(table, [outcome])
    setup["noted"] = True
    await host.annotate(table, {"fake": "noted"})
    announce("fake: " + json.dumps({"address": address, "port": port, "table": table.id, "options": options}))
    os.kill(os.getpid(), signal.SIGTERM)
'''
DRIVER = '''
import sys
sys.path.insert(0, sys.argv[1])
from referee.jobs import registry
import fakegame
registry.register(fakegame.GAME)
import cli
cli.app(sys.argv[2:])
'''


def _pitboss(tmp_path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "fakegame.py").write_text(FAKE_GAME)
    (tmp_path / "fakeserver.py").write_text(FAKE_SERVER)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(DRIVER), str(tmp_path), *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_a_games_listener_is_offered_and_started_with_the_service_lending_its_tables(tmp_path):
    help_text = _pitboss(tmp_path, "serve", "--help").stdout
    assert "--fake-proto PORT" in help_text and "--fake-proto-seed" in help_text and "--fake-proto-name" in help_text
    db = tmp_path / "p.db"
    done = _pitboss(tmp_path, "serve", "--port", "0", "--db", str(db), "--fake-proto", "4321",
                    "--fake-proto-name", "Zed")
    assert done.returncode == 0, done.stderr
    (said,) = [line for line in done.stdout.splitlines() if line.startswith("fake: ")]
    started = json.loads(said.removeprefix("fake: "))
    assert started["address"] == "127.0.0.1" and started["port"] == 4321
    assert started["options"] == {"fake_proto_seed": 1, "fake_proto_name": "Zed"}

    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(str(db))) as client:
        table = client.get(f"/v1/tables/{started['table']}").json()
        assert [s["name"] for s in table["seats"]] == ["Zed", "B", "C"] and len(table["moves"]) == 1
        assert table["status"] == "playing"
    from referee.service.store import open_store

    store = open_store(str(db))
    try:
        assert store.table(started["table"]).setup["noted"] is True  # the set-up as the listener left it
    finally:
        store.close()


def test_every_games_listener_reaches_serve(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cli", "serve", "--help"], cwd=REPO, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "COLUMNS": "200"})
    listeners = [listener for game in registry.games() for listener in game.listeners]
    assert listeners, "a game offers a listener"
    for listener in listeners:
        assert f"--{listener.name} PORT" in done.stdout
        for option in listener.options:
            assert f"--{option.flag}" in done.stdout


def test_no_protocol_no_flag():
    done = subprocess.run([sys.executable, "-m", "cli", "serve", "--nonesuch", "1"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--nonesuch" in done.stderr


@pytest.mark.parametrize("name, flag", [("Fake", "Fake-x"), ("fake proto", "fake proto-x"), ("fake", "other-x"),
                                        ("fake", "fake-"), ("fake", "fake")])
def test_a_listener_is_named_as_a_flag_and_its_options_after_it(name, flag):
    with pytest.raises(ValueError):
        Listener(name, "help", "module", (ListenerOption(flag, int, 1, "help"),))


def test_a_listener_takes_its_options_by_key():
    listener = Listener("fake-proto", "help", "module", (ListenerOption("fake-proto-seed", int, 1, "help"),
                                                         ListenerOption("fake-proto-name", str, None, "help")))
    assert listener.key == "fake_proto"
    assert listener.given({"fake_proto_seed": 5, "other": 1}) == {"fake_proto_seed": 5, "fake_proto_name": None}


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
