"""Seating at the contest port under hostile connections (real sockets on loopback): the
handshakes run side by side, each with its own deadline, and only a connection that
completed its handshake takes a player number, so connections that stay idle or reset
never hold up, take the place of, or split the clients that do."""

from __future__ import annotations

import socket
import struct
import threading
import time
from pathlib import Path

from referee.games.daifugo.uecda.contest import config as C
from referee.games.daifugo.uecda.contest import protocol as P
from referee.games.daifugo.uecda.contest.client import Client
from referee.games.daifugo.uecda.server import ContestServer, Settings


def _server(tmp_path: Path, tables: int = 1) -> ContestServer:
    server = ContestServer("127.0.0.1", 0, Settings(C.load(games=1), 7, 2.0, tmp_path / "logs", max_tables=tables))
    server.start()
    return server


def _idle(port: int, n: int) -> list[socket.socket]:
    return [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(n)]


def _reset(sock: socket.socket) -> None:
    """Close with a reset (RST), as a client that crashed or a port scanner does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _heard(sock: socket.socket) -> bool:
    """Has the server sent anything on this connection yet?"""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return False
    finally:
        sock.setblocking(True)


def _clients(port: int, names: list[str], seed: int = 0) -> list[Client]:
    return [Client("127.0.0.1", port, name, seed=seed + i, deadline=60) for i, name in enumerate(names)]


def _one_by_one(clients: list[Client]) -> list[threading.Thread]:
    """Each client started once the one before has its player number (or gave up)."""
    threads = []
    for client in clients:
        threads.append(threading.Thread(target=client.run, daemon=True))
        threads[-1].start()
        deadline = time.monotonic() + 10
        while not client.stats.numbers and not client.stats.ended and time.monotonic() < deadline:
            time.sleep(0.005)
    return threads


def _played(server: ContestServer, threads: list[threading.Thread]) -> None:
    assert server.join(60), "the table did not finish"
    for t in threads:
        t.join(30)


def test_idle_connections_do_not_hold_up_a_client_that_sends_its_profile(tmp_path: Path) -> None:
    server = _server(tmp_path)
    try:
        idle = _idle(server.port, 20)
        # each idle connection has its own 2-second wait for a profile; the client that
        # sent one is answered at once, while every idle one is still waiting
        first = _clients(server.port, ["first"])
        threads = _one_by_one(first)
        assert first[0].stats.numbers == [0], first[0].stats
        assert not any(_heard(s) for s in idle)
        for s in idle:  # gone before their wait ended: never seated
            _reset(s)
        others = _clients(server.port, [f"p{i}" for i in range(1, 5)], seed=1)
        _played(server, threads + _one_by_one(others))
    finally:
        server.stop()
    (table,) = server.tables
    assert [s.name for s in table.seats] == ["first", "p1", "p2", "p3", "p4"]
    assert [c.stats.numbers for c in first + others] == [[0], [1], [2], [3], [4]]
    assert table.incidents == [] and all(c.stats.ended == "match over" for c in first + others)


def test_connections_that_reset_or_stop_mid_profile_are_never_seated(tmp_path: Path) -> None:
    server = _server(tmp_path, tables=2)
    try:
        half = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        half.sendall(bytes(100))  # part of a profile, then nothing
        for _ in range(100):
            _reset(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        clients = _clients(server.port, [f"good{i}" for i in range(5)])
        threads = _one_by_one(clients)
        # past its wait, the half-sent profile is closed unanswered
        assert half.recv(4) == b"" and server.waiting == []
        half.close()
        assert len(server.tables) == 1
        for t in threads:
            t.join(30)
    finally:
        server.stop()
    (table,) = server.tables
    assert [s.name for s in table.seats] == [f"good{i}" for i in range(5)]
    assert table.incidents == [] and all(c.stats.ended == "match over" for c in clients)


def test_a_seated_client_that_leaves_before_its_table_starts_gives_its_number_back(tmp_path: Path) -> None:
    """Numbers go to handshakes as they complete; one whose connection is gone before the
    fifth arrives is taken back and given to the next, so the table is five live clients."""
    server = _server(tmp_path)
    try:
        clients = _clients(server.port, ["c0", "c1"])
        threads = _one_by_one(clients)
        leaver = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        leaver.sendall(P.encode_table([P.PROTOCOL_2007] + [0] * (P.CELLS - 1)))
        assert struct.unpack(">i", leaver.recv(4)) == (2,)
        _reset(leaver)
        deadline = time.monotonic() + 10
        while len(server.waiting) != 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        more = _clients(server.port, ["c2", "c3", "c4"], seed=2)
        _played(server, threads + _one_by_one(more))
    finally:
        server.stop()
    (table,) = server.tables
    assert [c.stats.numbers for c in clients + more] == [[0], [1], [2], [3], [4]]
    assert [s.name for s in table.seats] == [f"c{i}" for i in range(5)] and table.incidents == []
