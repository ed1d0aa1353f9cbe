"""Seating at ``pitboss serve --uecda`` under hostile connections, on loopback.

The listener runs in this process; the connections are opened from threads here. Three
scenarios, each on a fresh listener:

- ``idle``: N connections that never send a byte, then one client that sends its profile
  at once: how long it waits for its player number (its own handshake takes
  milliseconds; an idle connection's, the protocol's two seconds).
- ``idle-then-five``: N idle connections, then five good clients at once: how many of
  the eleven connects time out, each good client's wait, and how the five are seated.
- ``resets-then-five``: N connections closed with a reset as soon as they connect, then
  five good clients one after another: the tables made and where the five sit.

Printed: one line per scenario, and a JSON line with every figure.

    python bench/uecda_seating.py
    python bench/uecda_seating.py --idle 30 --resets 100 --connect-timeout 10
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from referee.games.daifugo.uecda.contest import config as C  # noqa: E402
from referee.games.daifugo.uecda.contest import protocol as P  # noqa: E402
from referee.games.daifugo.uecda.server import ContestServer, Settings  # noqa: E402

GOOD = 5


def _connect(port: int, timeout: float) -> socket.socket | None:
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=timeout)
    except OSError:
        return None


def _many(port: int, n: int, timeout: float) -> list[socket.socket | None]:
    """``n`` connections opened at once (each from its own thread)."""
    out: list[socket.socket | None] = [None] * n

    def one(i: int) -> None:
        out[i] = _connect(port, timeout)
    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _close(socks: list[socket.socket | None]) -> None:
    for sock in socks:
        if sock is not None:
            sock.close()


class Good:
    """A client that sends its profile at once and reads its player number."""

    def __init__(self, port: int, name: str, connect_timeout: float, wait: float):
        self.port, self.name, self.connect_timeout, self.wait = port, name, connect_timeout, wait
        self.number: int | None = None
        self.seconds: float | None = None
        self.failed = ""
        self.sock: socket.socket | None = None

    def run(self) -> None:
        start = time.perf_counter()
        self.sock = _connect(self.port, self.connect_timeout)
        if self.sock is None:
            self.failed = "connect timed out"
            return
        profile = [0] * P.CELLS
        profile[0] = P.PROTOCOL_2007
        for i, ch in enumerate(self.name.encode("latin-1")):
            profile[P.COLUMNS + i] = ch
        try:
            self.sock.sendall(P.encode_table(profile))
            self.sock.settimeout(self.wait)
            got = b""
            while len(got) < 4:
                chunk = self.sock.recv(4 - len(got))
                if not chunk:
                    self.failed = "closed"
                    return
                got += chunk
        except OSError as err:
            self.failed = type(err).__name__
            return
        self.number = struct.unpack(">i", got)[0]
        self.seconds = time.perf_counter() - start


@contextmanager
def _listener() -> Iterator[ContestServer]:
    """A fresh listener (one game a table, a second to answer) writing into a fresh folder,
    removed once its tables (idle seats' too) have played out."""
    folder = tempfile.mkdtemp()
    server = ContestServer("127.0.0.1", 0, Settings(C.load(games=1), 7, 1.0, Path(folder)))
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.join(120)
        shutil.rmtree(folder, ignore_errors=True)


def _seating(server: ContestServer, names: list[str]) -> dict:
    """Where the good clients sit: the tables holding any, and each one's good names."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        tables = [[s.name for s in t.seats] for t in list(server.tables)]
        good = [[n for n in seats if n in names] for seats in tables]
        if sum(len(g) for g in good) + len([s for s in server.waiting if s.name in names]) >= len(names):
            break
        time.sleep(0.05)
    return {"tables": len(tables), "tables_with_good": sum(1 for g in good if g),
            "good_per_table": [len(g) for g in good if g],
            "dropped_at_good_tables": sum(1 for t in list(server.tables) if any(s.name in names for s in t.seats)
                                          for s in t.seats if s.dropped),
            "good_waiting": sorted(s.name for s in server.waiting
                                   if s.name in names and not any(s.name in g for g in good))}


def idle(n: int, connect_timeout: float) -> dict:
    with _listener() as server:
        idle = _many(server.port, n, connect_timeout)
        client = Good(server.port, "good", connect_timeout, 120)
        client.run()
        _close(idle + [client.sock])
        return {"idle": n, "idle_connect_failed": idle.count(None), "number": client.number,
                "seconds": client.seconds, "failed": client.failed}


def idle_then_five(n: int, connect_timeout: float) -> dict:
    with _listener() as server:
        idle = _many(server.port, n, connect_timeout)
        clients = [Good(server.port, f"good{i}", connect_timeout, 120) for i in range(GOOD)]
        threads = [threading.Thread(target=c.run) for c in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        figures = {"idle": n, "idle_connect_failed": idle.count(None),
                   "good_connect_failed": sum(1 for c in clients if c.failed == "connect timed out"),
                   "good_failed": [c.failed for c in clients if c.failed],
                   "good_seconds": [round(c.seconds, 3) if c.seconds is not None else None for c in clients],
                   **_seating(server, [c.name for c in clients if not c.failed])}
        _close(idle + [c.sock for c in clients])
        return figures


def resets_then_five(n: int, connect_timeout: float) -> dict:
    with _listener() as server:
        failed = 0
        for _ in range(n):
            sock = _connect(server.port, connect_timeout)
            if sock is None:
                failed += 1
                continue
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        clients = [Good(server.port, f"good{i}", connect_timeout, 30) for i in range(GOOD)]
        for c in clients:
            c.run()
        figures = {"resets": n, "reset_connect_failed": failed,
                   "good_failed": [c.failed for c in clients if c.failed],
                   "good_numbers": [c.number for c in clients],
                   **_seating(server, [c.name for c in clients if not c.failed])}
        _close([c.sock for c in clients])
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=20, help="idle connections before the one good client")
    parser.add_argument("--idle-five", type=int, default=30, help="idle connections before the five good clients")
    parser.add_argument("--resets", type=int, default=100, help="connections reset before the five good clients")
    parser.add_argument("--connect-timeout", type=float, default=10.0, help="seconds a connect may take")
    args = parser.parse_args()
    figures = {
        "idle": idle(args.idle, args.connect_timeout),
        "idle_then_five": idle_then_five(args.idle_five, args.connect_timeout),
        "resets_then_five": resets_then_five(args.resets, args.connect_timeout),
    }
    a, b, c = figures["idle"], figures["idle_then_five"], figures["resets_then_five"]
    if a["seconds"] is None:
        print(f"{a['idle']} idle, then one client: it {a['failed']}")
    else:
        print(f"{a['idle']} idle, then one client: player number {a['number']} after {a['seconds'] * 1000:.1f} ms")
    print(f"{b['idle']} idle, then five: {b['idle_connect_failed'] + b['good_connect_failed']} connects timed out "
          f"({b['good_connect_failed']} of the five); their waits {b['good_seconds']} s; seated at "
          f"{b['tables_with_good']} table(s) {b['good_per_table']}, {b['dropped_at_good_tables']} dropped seat(s) "
          f"beside them, {len(b['good_waiting'])} still waiting")
    print(f"{c['resets']} resets, then five: {c['tables']} table(s) made; the five at {c['tables_with_good']} "
          f"{c['good_per_table']}, {c['dropped_at_good_tables']} dropped seat(s) beside them, numbers "
          f"{c['good_numbers']}, {len(c['good_waiting'])} still waiting")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
