"""Event readers that do not keep up: each reader's backlog is bounded in bytes, a reader
past it (or whose socket takes nothing for its timeout) is closed with 4408 and, if it
does not take even that, cut off; move events carry the reader's view without the
history of moves, so that they stay small however long the table runs; the readers that
keep up get every event, in order, and the history they rebuild is the table's.

Real sockets on loopback against a real ``pitboss serve``: raw WebSocket clients that
never read a byte, beside ones that read everything."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time

import httpx
import pytest

from referee.service import views
from referee.service.store import open_store
from referee.service.tables import TableHub

SEATS = ["Aki", "Ben", "Chie", "Dai", "Eri", "Fumi", "Gen", "Hana"]
BUSY = {"game": "daifugo", "seats": SEATS, "rounds": 100, "seed": 7, "bots": {n: "random" for n in SEATS}}


# ------------------------------------------------------------------ in the hub

def test_a_backlog_is_bounded_in_bytes_and_an_observer_past_it_is_dropped(tmp_path):
    async def work() -> None:
        store = open_store(str(tmp_path / "b.db"))
        hub = TableHub(store)
        try:
            table, _ = await hub.create(dict(BUSY))
            limit = 64 * 1024
            idle = views.observe(table, 0, limit)
            dropped = []
            idle.on_drop = lambda: dropped.append(table.match.ply)
            keen = views.observe(table, None, limit)
            got = []
            most = 0
            while table.match.ply < 600:
                most = max(most, idle.queue.nbytes)
                while not keen.queue.empty():
                    got.append(keen.queue.get_nowait())
                await asyncio.sleep(0.005)
            hub.close()
            assert most <= limit and idle.dropped and len(dropped) == 1 and idle not in table.observers
            assert idle.queue.nbytes == 0 and idle.queue.empty()  # what it held is let go at once
            assert keen in table.observers and not keen.dropped
            # the keen one got every move, each without the history, whose new entry is its move
            plies = [e["ply"] for e in got]
            assert plies == list(range(1, len(plies) + 1)) and len(plies) >= 500
            assert all("moves" not in e["view"] and e["view"]["ply"] == e["ply"] for e in got)
            rebuilt = [e["move"] for e in got if e["move"] is not None]
            assert rebuilt == hub.view(table, None)["moves"][:len(rebuilt)]
            # and an event stays small however long the history grows
            assert len(got[-1].text) < 4 * len(got[0].text) < 8_000
        finally:
            hub.close()
            store.close()

    asyncio.run(work())


# ------------------------------------------------------------------ over real sockets

def _handshake(path: str, port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()


def _idle(port: int, path: str) -> socket.socket:
    """A WebSocket client that never reads (a small receive buffer: the server's buffers,
    not the kernel's, are what fills)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(_handshake(path, port))
    return s


class Reader:
    """A WebSocket client that reads everything (and answers pings): the messages (parsed
    when asked: reading costs the client little), and the close code it got (None: the
    connection just ended)."""

    def __init__(self, port: int, path: str, rcvbuf: int | None = None):
        self.port, self.path, self.rcvbuf = port, path, rcvbuf
        self.raw: list[bytes] = []
        self.closed: int | None = None
        self.done = False
        self.paused = False

    @property
    def messages(self) -> list[dict]:
        return [json.loads(m) for m in self.raw]

    async def run(self, stop: asyncio.Event) -> None:
        sock = socket.socket()
        if self.rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 24)
        writer.write(_handshake(self.path, self.port))
        await reader.readuntil(b"\r\n\r\n")
        try:
            while not stop.is_set():
                if self.paused:  # the socket is not read meanwhile (asyncio would read ahead)
                    writer.transport.pause_reading()
                    while self.paused:
                        await asyncio.sleep(0.05)
                    writer.transport.resume_reading()
                head = await reader.readexactly(2)
                opcode, length = head[0] & 0x0F, head[1] & 0x7F
                if length == 126:
                    length = int.from_bytes(await reader.readexactly(2), "big")
                elif length == 127:
                    length = int.from_bytes(await reader.readexactly(8), "big")
                payload = await reader.readexactly(length)
                if opcode == 8:
                    self.closed = int.from_bytes(payload[:2], "big")
                    break
                if opcode == 9:
                    mask = os.urandom(4)
                    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                    writer.write(bytes([0x8A, 0x80 | length]) + mask + masked)
                elif opcode == 1:
                    self.raw.append(payload)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.done = True
            writer.close()


def _rss(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _closed_by_server(s: socket.socket) -> bool:
    """Has the server ended the connection? Read what it sent before (the kernel may still
    be handing it over) until the end, or until it sends nothing for half a second."""
    s.settimeout(0.5)
    try:
        while s.recv(1 << 20):
            pass
        return True
    except TimeoutError:
        return False
    except OSError:
        return True


def _watch(readers: list[Reader], seconds: float, during=None, until=None) -> None:
    """Run ``readers`` for at most ``seconds``, or until they are all done, or ``until()``;
    ``during()`` is called (on a thread) every tenth of a second meanwhile."""
    async def main() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(r.run(stop)) for r in readers]
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not all(r.done for r in readers) and not (until and until()):
            if during is not None:
                await asyncio.to_thread(during)
            await asyncio.sleep(0.1)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


def _never_reading(server, count: int, seconds: float, settle: float, slow: bool = False) -> dict:
    """A busy 8-seat table of bots, ``count`` WebSocket clients that never read (every
    seat's and spectators', in turn) and two that read everything: the server's memory
    stays under 150 MB, it cuts off every client that reads nothing, and the two that
    keep up get every event, in order, without the history, which they rebuild as the
    table's. ``slow``: one more client stops reading until it is dropped, then reads on:
    it gets the close (4408) after what was sent before it."""
    pid = server.process.pid
    with httpx.Client(base_url=server.url, timeout=30) as c:
        doc = c.post("/v1/tables", json=BUSY).json()
        paths = [f"/v1/tables/{doc['id']}/events?token={s['token']}" for s in doc["seats"]]
        paths.append(f"/v1/tables/{doc['id']}/events")
        idle = [_idle(server.port, paths[i % len(paths)]) for i in range(count)]
        keen = [Reader(server.port, paths[0]), Reader(server.port, paths[-1])]
        lagging = Reader(server.port, paths[1], rcvbuf=4096)
        lagging.paused = True
        peak = [0.0]

        def during() -> None:
            peak[0] = max(peak[0], _rss(pid))
            if slow and lagging.paused and c.get("/healthz").json()["readers"]["dropped"] > count:
                lagging.paused = False

        _watch(keen + ([lagging] if slow else []), seconds, during=during,
               until=(lambda: lagging.done and len(keen[0].raw) > 300) if slow else None)
        assert peak[0] < 150, f"{peak[0]:.0f} MB"
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline:  # (not reading from them: that would let a close out)
            health = c.get("/healthz").json()["readers"]
            if health["open"] == 0 and health["cut"] >= count:
                break
            time.sleep(0.2)
        moves = c.get(f"/v1/tables/{doc['id']}").json()["moves"]
        # a reader that comes back gets a fresh view first, the whole history in it
        again = Reader(server.port, paths[1])
        _watch([again], 0.3)
    assert all(_closed_by_server(s) for s in idle) and health["open"] == 0, health
    for reader in keen:
        first, events = reader.messages[0], [m for m in reader.messages if m["type"] == "move"]
        assert first["type"] == "view" and reader.closed is None and len(events) > 200, (reader.closed, health)
        assert [e["ply"] for e in events] == list(range(first["ply"] + 1, first["ply"] + len(events) + 1))
        assert first["moves"] + [e["move"] for e in events] == moves[:first["ply"] + len(events)]
        assert all("moves" not in e["view"] and e["view"]["ply"] == e["ply"] for e in events)
    if slow:
        assert lagging.closed == 4408 and lagging.messages[0]["type"] == "view"
    view = again.messages[0]
    assert view["type"] == "view" and view["seat"] == "Ben" and len(view["moves"]) == view["ply"] >= len(moves)
    for s in idle:
        s.close()
    return health


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_readers_that_never_read_are_dropped_and_cut_off(db_url, server_factory):
    server = server_factory(db_url, "--rate", "100000", "--reader-timeout", "2")
    health = _never_reading(server, 9, 20, settle=10, slow=True)
    assert health["dropped"] == 10 and health["cut"] == 9, health


@pytest.mark.slow
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_two_hundred_readers_that_never_read_hold_little_memory(db_url, server_factory):
    server = server_factory(db_url, "--rate", "100000")  # the default limits
    _never_reading(server, 200, 30, settle=40)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_page_rebuilds_the_history_from_the_events(db_url, server_factory):
    """The web page keeps the history of moves itself: the first view's, then each
    event's move (a Chromium watching a table of bots to its end)."""
    from cdp import Browser
    from test_page import _browser, _until

    executable = _browser()
    server = server_factory(db_url, "--rate", "100000")
    with httpx.Client(base_url=server.url, timeout=30) as c:
        doc = c.post("/v1/tables", json={"game": "daifugo", "seats": SEATS[:4], "seed": 3, "rounds": 3,
                                         "bots": {n: "greedy" for n in SEATS[1:4]}}).json()
        with Browser(executable) as browser:
            page = browser.page()
            page.goto(f"{server.url}/tables/{doc['id']}")
            _until(page, "document.body.dataset.status === 'waiting'")  # Aki has not come yet
            token = doc["seats"][0]["token"]
            while (view := c.get(f"/v1/tables/{doc['id']}/view", headers={"Authorization": f"Bearer {token}"}).json()
                   )["status"] != "finished":
                if view["legal"]:
                    c.post(f"/v1/tables/{doc['id']}/moves", headers={"Authorization": f"Bearer {token}"},
                           json={"move": view["legal"][-1], "ply": view["ply"]})
                else:
                    time.sleep(0.01)
            _until(page, "document.body.dataset.status === 'finished'")
            shown = page.eval("document.getElementById('moves').textContent").split("\n")
            assert page.errors == [], page.errors
        moves = c.get(f"/v1/tables/{doc['id']}").json()["moves"]
        assert shown == [f"{i}. {m}" for i, m in enumerate(moves, 1)] and len(shown) > 100
