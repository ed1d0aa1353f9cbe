"""``pitboss serve --uecda``: the contest protocol server against the real server's
recordings (every server byte of every ordinary transcript, and its log), against clients
that misbehave as in the recorded runs (the table finishes, the others' games are valid),
and against five bounded client processes playing many games (the log validates)."""

from __future__ import annotations

import json
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from referee.games.daifugo.uecda.contest import config as C
from referee.games.daifugo.uecda.contest import protocol as P
from referee.games.daifugo.uecda.contest.client import Client
from referee.games.daifugo.uecda.server import ContestServer, Settings
from referee.jobs.validate import validate_file
from tests.conftest import fixtures_dir
from tests.games.daifugo import uecda_wire

ORDINARY = ("default-seed20261201-a", "default-seed20261201-b", "11back-5tobi-6revers-seed20261203",
            "allpass-20pass-rule-seed777")
ROOT = Path(__file__).resolve().parents[3]


def _run(name: str) -> Path:
    return fixtures_dir() / "uecda-wire" / name


def _server(tmp_path: Path, config: C.ContestConfig, seed: int, timeout: float = 5.0, tables: int = 1,
            port: int = 0) -> ContestServer:
    server = ContestServer("127.0.0.1", port, Settings(config, seed, timeout, tmp_path / "logs", max_tables=tables))
    server.start()
    return server


@pytest.mark.parametrize("name", ORDINARY)
def test_an_ordinary_transcript_replays_byte_for_byte(tmp_path: Path, name: str) -> None:
    run = _run(name)
    header, conns = uecda_wire.load(run / "transcript.jsonl.gz")
    server = _server(tmp_path, C.load(run / "tndhms.cfg"), int(header["meta"]["seed"]))
    try:
        outcomes = uecda_wire.replay(server.port, conns, timeout=120)
        assert server.join(30)
    finally:
        server.stop()
    for conn, out in zip(conns, outcomes):
        assert not out.mismatches, out.mismatches
        assert out.compared == sum(1 for m in conn.messages if m["dir"] == "s2c")
        assert out.closed, f"connection {conn.conn} was not closed at the end of the match"
    table = server.tables[0]
    assert table.incidents == []
    # The log: the contest server's, line for line, but for the port it names (ours).
    ours = table.log_path.read_text(encoding="latin-1").splitlines()  # type: ignore[union-attr]
    theirs = (run / "server.log").read_text(encoding="latin-1").splitlines()
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if b.startswith("%-----%GAME_PORT%"):
            assert a == f"%-----%GAME_PORT% {server.port}"
        else:
            assert a == b


def _free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_a_seeded_run_on_the_contest_port_writes_the_transcript_log_exactly(tmp_path: Path) -> None:
    """On the contest's port the log is the recorded one byte for byte, GAME_PORT
    included (on another port only that line differs: the test above)."""
    if not _free(42485):
        pytest.skip("port 42485 is in use here; the line-for-line comparison above still ran")
    run = _run("default-seed20261201-a")
    header, conns = uecda_wire.load(run / "transcript.jsonl.gz")
    server = _server(tmp_path, C.load(run / "tndhms.cfg"), int(header["meta"]["seed"]), port=42485)
    try:
        uecda_wire.replay(server.port, conns, timeout=120)
        assert server.join(30)
    finally:
        server.stop()
    assert server.tables[0].log_path.read_bytes() == (run / "server.log").read_bytes()  # type: ignore[union-attr]


# ------------------------------------------------------------------ misbehaving clients

MISBEHAVIOUR = {  # mode -> the incident reported (None: none, the client is served)
    "close": "disconnect", "stall": "stall", "short": "short", "long": "long", "garbage": "malformed",
    "overflow": "malformed", "echo": "extra-cells", "badversion": "bad-version", "silent": None,
}


def _table_of_clients(tmp_path: Path, clients: list[Client], config: C.ContestConfig, seed: int,
                      timeout: float) -> ContestServer:
    server = _server(tmp_path, config, seed, timeout)
    for c in clients:
        c.port = server.port
    threads = []
    try:
        for c in clients:  # in order: player numbers are handshake order
            t = threading.Thread(target=c.run, daemon=True)
            t.start()
            threads.append(t)
            deadline = time.monotonic() + 5
            while len(server.waiting) + 5 * len(server.tables) < len(threads) and time.monotonic() < deadline:
                time.sleep(0.005)
        assert server.join(120), "the table did not finish"
        for t in threads:
            t.join(30)
    finally:
        server.stop()
    return server


@pytest.mark.parametrize("mode", list(MISBEHAVIOUR))
def test_a_misbehaving_client_does_not_stop_the_table(tmp_path: Path, mode: str) -> None:
    config = C.load(_run("malformed-garbage-seed4242") / "tndhms.cfg", games=3)
    clients = [Client("127.0.0.1", 0, f"p{i}", seed=i, illegal=0.05) for i in range(5)]
    clients[2] = Client("127.0.0.1", 0, "bad", seed=2, misbehave=mode, at=2, deadline=60)
    server = _table_of_clients(tmp_path, clients, config, 4242, timeout=0.5)
    table = server.tables[0]
    assert table.games_done == 3
    kinds = [(i.player, i.kind) for i in table.incidents]
    want = MISBEHAVIOUR[mode]
    if want is None:
        assert kinds == [] and table.seats[2].protocol == P.PROTOCOL_2006
        assert table.seats[2].name == "Player 3" and clients[2].stats.ended == "match over"
    else:
        assert (2, want) in kinds, kinds
        assert all(p == 2 for p, _ in kinds), kinds
    for c in clients[:2] + clients[3:]:
        assert c.stats.ended == "match over" and c.stats.games == 3
    reports = list(validate_file(table.log_path))  # type: ignore[arg-type]
    assert len(reports) == 3 and all(r.valid for r in reports), [(r.index, r.errors[:1]) for r in reports]
    record = json.loads(table.log_path.with_suffix(".json").read_text())  # type: ignore[union-attr]
    assert [(i["player"], i["kind"]) for i in record["incidents"]] == kinds


def test_more_than_five_connections_start_the_next_table(tmp_path: Path) -> None:
    config = C.ContestConfig(games=2)
    server = ContestServer("127.0.0.1", 0, Settings(config, 7, 5.0, tmp_path / "logs", max_tables=2))
    server.start()
    clients = [Client("127.0.0.1", server.port, f"c{i}", seed=i) for i in range(10)]
    threads = [threading.Thread(target=c.run, daemon=True) for c in clients]
    try:
        for t in threads:
            t.start()
            time.sleep(0.02)
        assert server.join(60)
    finally:
        server.stop()
    assert len(server.tables) == 2 and all(t.games_done == 2 for t in server.tables)
    assert sorted(n for c in clients for n in c.stats.numbers) == sorted(list(range(5)) * 2)
    for table in server.tables:
        assert all(r.valid for r in validate_file(table.log_path))  # type: ignore[arg-type]


# ------------------------------------------------------------------ many games, real processes


def _processes(tmp_path: Path, games: int, revision: str = "2018", options: str = "") -> Path:
    config = C.load(None, options=options, games=games, revision=revision)
    server = _server(tmp_path, config, seed=20261201, timeout=10)
    procs = []
    try:
        for i in range(5):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "referee.games.daifugo.uecda.contest.client", "--port", str(server.port),
                 "--name", f"py{i}",
                 "--seed", str(i), "--illegal", "0.05", "--deadline", "600"], cwd=ROOT,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
            deadline = time.monotonic() + 10
            while len(server.waiting) + 5 * len(server.tables) <= i and time.monotonic() < deadline:
                time.sleep(0.005)
        assert server.join(900)
        outputs = [p.communicate(timeout=60)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        server.stop()
    assert all(p.returncode == 0 for p in procs), outputs
    table = server.tables[0]
    assert table.games_done == games and table.incidents == []
    return table.log_path  # type: ignore[return-value]


def _valid(log: Path, games: int) -> None:
    reports = list(validate_file(log))
    assert len(reports) == games
    assert all(r.valid for r in reports), [(r.index, r.errors[:1]) for r in reports if not r.valid][:3]
    assert any(r.warnings for r in reports), "some submissions were illegal, and rejected"


def test_five_client_processes_play_a_sample_of_games(tmp_path: Path) -> None:
    _valid(_processes(tmp_path, 50), 50)


def test_the_later_revision_and_no_sequences(tmp_path: Path) -> None:
    log = _processes(tmp_path, 20, revision="later", options="-sequences")
    text = log.read_text(encoding="latin-1")
    assert text.startswith("%-----%hostname% ") and "%-----%RULE_KAIDAN% NO" in text and "%-----%TIME_END%" in text
    _valid(log, 20)


@pytest.mark.slow
def test_five_client_processes_play_a_thousand_games(tmp_path: Path) -> None:
    _valid(_processes(tmp_path, 1000), 1000)


# ------------------------------------------------------------------ settings and messages


def test_a_config_file_and_options() -> None:
    text = (_run("11back-5tobi-6revers-seed20261203") / "tndhms.cfg").read_text()
    config = C.read_config(text)
    assert config.flags["RULE_11BACK"] and config.flags["RULE_6REVERS"] and config.games == 10
    rules = C.with_options(config, "-eleven-back -sequences trick-end=all-but-one").rules()
    assert not rules.eleven_back and rules.six_reverse and not rules.sequences and rules.trick_end == "all-but-one"
    for bad in ("+miyako-ochi", "stairs-revolution=4", "trick-end=others", "exchange=weakest", "+nonsense", "x"):
        with pytest.raises(C.ConfigError):
            C.with_options(config, bad)
    with pytest.raises(C.ConfigError):
        C.read_config("GAME_NUMBER many\n")
    with pytest.raises(C.ConfigError):
        C.load(None, revision="2019")


def test_protocol_2006_sends_host_order_and_negative_values() -> None:
    cells = [0] * P.CELLS
    cells[P.cell(5, 1)] = -2
    assert struct.unpack("<120i", P.encode_table(cells, P.PROTOCOL_2006))[P.cell(5, 1)] == -2
    assert struct.unpack(">120i", P.encode_table(cells))[P.cell(5, 1)] == 0
    assert P.encode_int(2, P.PROTOCOL_2006) == b"\x02\x00\x00\x00"
    assert P.log_code(2, [7] + [0] * 74) == "2SxEE"
    assert P.log_code(1, [0] * 60 + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]) == "1JxEE"


def test_a_client_killed_mid_match(tmp_path: Path) -> None:
    """Run disconnect-kill9: a client process killed with SIGKILL in the middle of the
    match. The contest server spins at its next answer; ours reports it and plays on."""
    config = C.load(_run("disconnect-kill9-seed20261202") / "tndhms.cfg", games=6)
    server = _server(tmp_path, config, 20261202, timeout=2.0)
    clients = [Client("127.0.0.1", server.port, f"p{i}", seed=i) for i in range(5)]
    threads: list[threading.Thread] = []
    victim = None
    try:
        for i in range(5):
            if i == 2:
                victim = subprocess.Popen([sys.executable, "-m", "referee.games.daifugo.uecda.contest.client", "--port",
                                           str(server.port), "--name", "p2", "--seed", "2"], cwd=ROOT,
                                          stdout=subprocess.DEVNULL)
            else:
                threads.append(threading.Thread(target=clients[i].run, daemon=True))
                threads[-1].start()
            deadline = time.monotonic() + 10
            while len(server.waiting) + 5 * len(server.tables) <= i and time.monotonic() < deadline:
                time.sleep(0.005)
        deadline = time.monotonic() + 30
        while not (server.tables and server.tables[0].games_done >= 2) and time.monotonic() < deadline:
            time.sleep(0.005)
        assert victim is not None
        victim.kill()
        victim.wait(10)
        assert server.join(60)
        for t in threads:
            t.join(30)
    finally:
        if victim is not None and victim.poll() is None:
            victim.kill()
        server.stop()
    table = server.tables[0]
    assert table.games_done == 6
    assert [(i.player, i.kind) for i in table.incidents] == [(2, "disconnect")]
    assert all(clients[i].stats.ended == "match over" for i in (0, 1, 3, 4))
    assert all(r.valid for r in validate_file(table.log_path))  # type: ignore[arg-type]


def test_the_listener_on_its_own(tmp_path: Path) -> None:
    """python -m referee.games.daifugo.uecda: the options, a table, the log, a clean exit."""
    port_probe = socket.socket()
    port_probe.bind(("127.0.0.1", 0))
    port = port_probe.getsockname()[1]
    port_probe.close()
    proc = subprocess.Popen([sys.executable, "-m", "referee.games.daifugo.uecda", "--uecda", str(port), "--uecda-games",
                             "2", "--uecda-seed", "5", "--uecda-options", "+eleven-back", "--tables", "1",
                             "--uecda-logs", str(tmp_path / "logs")], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert "listening on" in proc.stdout.readline()
        clients = [Client("127.0.0.1", port, f"s{i}", seed=i) for i in range(5)]
        threads = [threading.Thread(target=c.run, daemon=True) for c in clients]
        for t in threads:
            t.start()
            time.sleep(0.05)
        for t in threads:
            t.join(60)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    (log,) = (tmp_path / "logs").glob("*.log")
    assert "%-----%RULE_11BACK% YES" in log.read_text() and "%-----%RANDOM_SEED% 5" in log.read_text()
    assert all(r.valid for r in validate_file(log))
    bad = subprocess.run([sys.executable, "-m", "referee.games.daifugo.uecda", "--uecda-options", "+miyako-ochi"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "miyako-ochi" in bad.stderr


def test_the_service_runs_the_listener_with_its_command_line_options(tmp_path: Path) -> None:
    """How ``pitboss serve --uecda PORT`` runs it (referee.jobs.listener): the game's
    listener's options as keywords to ``server.serve(host, address, port, **options)``, a
    coroutine that listens until it is cancelled."""
    import asyncio

    from referee.games.daifugo.uecda import server as listener
    from referee.jobs import registry

    (uecda,) = registry.game("daifugo").listeners
    assert uecda.name == "uecda" and uecda.serve() is listener.serve
    flags = [option.flag for option in uecda.options]
    assert flags == [f"uecda-{k}" for k in ("config", "games", "seed", "options", "timeout", "revision", "logs",
                                                        "positions")]
    options = uecda.given({})
    options.update(uecda_games=2, uecda_seed=11, uecda_logs=str(tmp_path / "logs"), uecda_options="-eight-cut")
    said: list[str] = []

    async def main() -> None:
        task = asyncio.create_task(listener.serve(None, "127.0.0.1", 0, announce=said.append, **options))
        while not said:
            await asyncio.sleep(0.01)
        port = int(said[0].rsplit(":", 1)[1])
        clients = [Client("127.0.0.1", port, f"h{i}", seed=i) for i in range(5)]
        for c in clients:
            await asyncio.to_thread(lambda c=c: threading.Thread(target=c.run, daemon=True).start())
            await asyncio.sleep(0.05)
        while not list((tmp_path / "logs").glob("*.json")):
            await asyncio.sleep(0.05)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

    asyncio.run(asyncio.wait_for(main(), 120))
    (log,) = (tmp_path / "logs").glob("*.log")
    assert "%-----%RULE_8GIRI% NO" in log.read_text() and all(r.valid for r in validate_file(log))
    with pytest.raises(ValueError):
        listener.settings_from({"uecda_timeout": 0})


def _replayed(tmp_path: Path, name: str, expect=None, timeout: float = 5.0):
    run = _run(name)
    header, conns = uecda_wire.load(run / "transcript.jsonl.gz")
    server = _server(tmp_path, C.load(run / "tndhms.cfg"), int(header["meta"]["seed"]), timeout=timeout)
    try:
        outcomes = uecda_wire.replay(server.port, conns, timeout=60, expect=expect)
        assert server.join(30)
    finally:
        server.stop()
    return run, conns, outcomes, server.tables[0]


@pytest.mark.parametrize("name, incident", [("malformed-garbage-seed4242", "malformed"),
                                            ("malformed-silent-seed4242", None),
                                            ("malformed-echo-seed4242", "extra-cells")])
def test_a_recorded_misbehaviour_the_server_survives_replays_exactly(tmp_path: Path, name: str,
                                                                     incident: str | None) -> None:
    """garbage (the value 7: rejected, a pass), silent (no profile: protocol 20060, host
    byte order, ``Player 3``), echo (numbers outside the card rows): the contest server
    plays on, and so do we, with the same bytes; but we echo nothing, so where it copied
    the client's cells into everyone's tables we send zeros."""
    expect = uecda_wire.without_echo if "echo" in name else None
    run, conns, outcomes, table = _replayed(tmp_path, name, expect)
    for conn, out in zip(conns, outcomes):
        assert not out.mismatches, out.mismatches
        assert out.compared == sum(1 for m in conn.messages if m["dir"] == "s2c") and out.closed
    assert [(i.player, i.kind) for i in table.incidents] == ([(2, incident)] if incident else [])
    ours = table.log_path.read_text(encoding="latin-1").splitlines()
    theirs = (run / "server.log").read_text(encoding="latin-1").splitlines()
    assert [a for a, b in zip(ours, theirs) if a != b] == [f"%-----%GAME_PORT% {table.config.port}"]
    assert all(r.valid for r in validate_file(table.log_path))


def test_the_overflow_that_crashed_the_contest_server(tmp_path: Path) -> None:
    """75 card cells of 1: the contest server answered 8 and died of a buffer overflow
    (its transcript stops there). Up to that point every byte is the same; ours reports the
    submission, rejects it (a pass) and would play on."""
    _, conns, outcomes, table = _replayed(tmp_path, "malformed-overflow-seed4242", timeout=0.5)
    for conn, out in zip(conns, outcomes):
        assert not out.mismatches, out.mismatches
        assert out.compared == sum(1 for m in conn.messages if m["dir"] == "s2c")
    assert table.incidents[0].player == 2 and table.incidents[0].kind == "malformed"


def test_the_long_message_that_desynchronised_the_contest_server(tmp_path: Path) -> None:
    """500 bytes for a 480-byte table: the contest server judged every later submission of
    that client one turn late. Ours reports the extra bytes and drops the seat (its turns
    pass): until then every byte is the same; the client's connection is then closed."""
    _, conns, outcomes, table = _replayed(tmp_path, "malformed-long-seed4242", timeout=0.5)
    assert [(i.player, i.kind) for i in table.incidents][:1] == [(2, "long")]
    bad = conns[2]
    long_at = next(m["i"] for m in bad.messages if m["dir"] == "c2s" and m.get("unsolicited"))
    first_wrong = outcomes[2].mismatches[0]
    assert int(first_wrong.split("message ")[1].split(" ")[0].rstrip(":")) > long_at
    for k in (0, 1, 3, 4):  # the others saw the same bytes up to the first turn after the long one
        assert outcomes[k].compared > 0


@pytest.mark.parametrize("name, incident", [("malformed-stall-seed4242", "stall"),
                                            ("malformed-badversion-seed4242", "bad-version"),
                                            ("disconnect-kill9-seed20261202", "disconnect")])
def test_a_recorded_hang_is_the_same_until_the_contest_server_stops(tmp_path: Path, name: str, incident: str) -> None:
    """stall (the contest server waits for ever), badversion (it never answers that client
    and spins at its first turn), kill9 (it spins at the next answer): every byte it did
    send, ours sends too; where it stopped, ours reports the client and plays on."""
    _, conns, outcomes, table = _replayed(tmp_path, name, timeout=0.5)
    for conn, out in zip(conns, outcomes):
        assert not out.mismatches, out.mismatches
        assert out.compared == sum(1 for m in conn.messages if m["dir"] == "s2c")
    assert (table.incidents[0].player, table.incidents[0].kind) == (2, incident)


def test_the_c_library_generator_end_to_end(tmp_path: Path) -> None:
    """RAND_TYPE ISO_NORMAL (the server's default): glibc's rand draws the seats and
    deals; the log says RAND_TYPE 0 and validate re-derives them with the same generator
    (a hand changed in the log is then caught)."""
    config = C.read_config("RAND_TYPE\tISO_NORMAL\nGAME_NUMBER\t4\nRULE_SEKIGAE_NUM\t2\n")
    clients = [Client("127.0.0.1", 0, f"g{i}", seed=i) for i in range(5)]
    server = _table_of_clients(tmp_path, clients, config, 31337, timeout=5)
    log = server.tables[0].log_path
    text = log.read_text(encoding="latin-1")
    assert "%-----%RAND_TYPE% 0" in text
    assert all(r.valid for r in validate_file(log))
    lines = text.splitlines(keepends=True)
    i = next(k for k, line in enumerate(lines) if line.startswith("%00002%palyer_cards%"))
    head, hands = lines[i].split("% ", 1)
    first, second, *rest = hands.split(" ")
    lines[i] = f"{head}% {' '.join([second, first, *rest])}"  # two players' hands swapped
    altered = tmp_path / "altered.log"
    altered.write_text("".join(lines), encoding="latin-1")
    reports = list(validate_file(altered))
    assert [f.rule for f in reports[2].errors] == ["daifugo.deal.seed"]
