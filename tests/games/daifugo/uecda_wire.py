"""Replaying a uecda-wire transcript (shared/fixtures/uecda-wire/README.md, "Replaying one
as a test") against a server: each connection's client bytes sent as recorded, each server
message read and compared with the recorded bytes."""

from __future__ import annotations

import gzip
import json
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Connection:
    conn: int
    messages: list[dict] = field(default_factory=list)
    #: The client closed its side before the server did (it was killed, or quit).
    client_quit: bool = False
    _eof_seen: bool = False


def load(path: Path) -> tuple[dict, list[Connection]]:
    header: dict = {}
    conns: dict[int, Connection] = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec["type"] == "header":
                header = rec
            elif rec["type"] == "msg":
                conns.setdefault(rec["conn"], Connection(rec["conn"])).messages.append(rec)
            elif rec["type"] == "event" and rec.get("event") == "eof" and rec["conn"] in conns:
                c = conns[rec["conn"]]
                if not c._eof_seen:
                    c.client_quit = rec.get("dir") == "c2s"
                    c._eof_seen = True
    for c in conns.values():
        c.messages.sort(key=lambda m: m["i"])
    return header, [conns[k] for k in sorted(conns)]


def _recv(sock: socket.socket, n: int, deadline: float) -> bytes:
    got = bytearray()
    while len(got) < n:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(n - len(got))
        except TimeoutError:
            break
        if not chunk:
            break
        got += chunk
    return bytes(got)


@dataclass
class Outcome:
    conn: int
    mismatches: list[str] = field(default_factory=list)
    compared: int = 0
    closed: bool = False


def replay(port: int, conns: list[Connection], timeout: float = 60.0,
           expect: Callable[[dict, bytes], bytes] | None = None) -> list[Outcome]:
    """Connect in order (each after the previous has its player number), then run every
    connection on its own thread; the outcome of each: mismatching messages (the first few),
    how many server messages were compared, whether the server closed it at the end.
    ``expect(message, recorded bytes)``: the bytes expected instead (a server that does
    better than the recorded one)."""
    deadline = time.monotonic() + timeout
    outcomes = [Outcome(c.conn) for c in conns]
    socks: list[socket.socket] = []
    starts: list[int] = []
    for c, out in zip(conns, outcomes):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        socks.append(s)
        i = 0
        for m in c.messages:  # up to and including the player number
            i += 1
            _step(s, m, out, deadline, expect)
            if m["kind"] == "player_number":
                break
        starts.append(i)

    def run(k: int) -> None:
        s, c, out = socks[k], conns[k], outcomes[k]
        for m in c.messages[starts[k]:]:
            if not _step(s, m, out, deadline, expect):
                return
        if c.client_quit:  # as the recorded client did
            s.shutdown(socket.SHUT_RDWR)
            return
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            out.closed = s.recv(1) == b""
        except OSError:
            out.closed = True

    threads = [threading.Thread(target=run, args=(k,), daemon=True) for k in range(len(conns))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(0.01, deadline - time.monotonic()))
    for s in socks:
        s.close()
    return outcomes


def _step(s: socket.socket, m: dict, out: Outcome, deadline: float,
          expect: Callable[[dict, bytes], bytes] | None = None) -> bool:
    data = bytes.fromhex(m["hex"])
    if m["dir"] == "c2s":
        try:
            s.sendall(data)
        except OSError:
            out.mismatches.append(f"conn {out.conn} message {m['i']}: the server had closed the connection")
            return False
        return True
    if expect is not None:
        data = expect(m, data)
    got = _recv(s, len(data), deadline)
    out.compared += 1
    if got != data:
        if len(out.mismatches) < 3:
            what = cell_diff(data, got) if len(data) == 480 else f"{data.hex()} != {got.hex()}"
            out.mismatches.append(f"conn {out.conn} message {m['i']} ({m['kind']}, game {m['game']}): "
                                  f"cells differ [row, column, recorded, ours]: {what}")
        return len(got) == len(data)
    return True


def cell_diff(expected: bytes, got: bytes) -> list[tuple[int, int, int, int]]:
    """[row, column, expected, got] of the cells where two 480-byte tables differ."""
    a, b = struct.unpack(">120i", expected), struct.unpack(">120i", got.ljust(480, b"\0"))
    return [(i // 15, i % 15, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]


def without_echo(message: dict, data: bytes) -> bytes:
    """A server table with the cells the contest server echoes from a client's submission
    ([5][8..14] and row 7) zeroed: what a server that echoes nothing sends."""
    if message["dir"] != "s2c" or len(data) != 480 or message.get("byte_order") == "little":
        return data
    cells = list(struct.unpack(">120i", data))
    for i in list(range(5 * 15 + 8, 6 * 15)) + list(range(7 * 15, 8 * 15)):
        cells[i] = 0
    return struct.pack(">120i", *cells)
