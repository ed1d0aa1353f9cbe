"""What hostile or careless clients cost ``pitboss serve``: memory, file descriptors, time.

Each scenario starts a real ``pitboss serve`` (a subprocess on a free loopback port, SQLite
in a temporary folder) and measures it from outside: its resident memory from
``/proc/PID/status`` (sampled every 50 ms, the peak reported), what its clients saw.

- ``readers``: an 8-seat Daifugo table of bots (100 rounds: busy, a long history), N
  WebSocket readers that never read a byte (seats and spectators in turn), and two that
  read everything (a seat and a spectator), which must get every event, in order.
- ``validate``: ``POST /v1/validate`` with a body of 570,000 tag lines (7.9 MB), alone and
  three at once; then ``pitboss validate`` on a 9.7 MB record of tag lines (the child's
  peak RSS from ``wait4``).
- ``tables``: tables created as fast as one client can (10,000 asked for); what was
  created and refused, the memory it cost, and the time a restart on that database takes
  to answer ``/healthz``.
- ``stalls``: connections that stop mid-header or mid-body, N of them; how many are still
  open after the wait; and with the server's open-file limit at 1,024, whether
  ``/healthz`` still answers with 1,100 such connections open.

``--repo`` runs another checkout (e.g. a worktree of the commit before a change, for a
before/after figure from the same reproduction)::

    python bench/serve_faults.py readers --readers 200
    python bench/serve_faults.py validate
    python bench/serve_faults.py tables --count 10000
    python bench/serve_faults.py stalls --count 4000 --wait 60
    python bench/serve_faults.py all --repo /tmp/before
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ the server

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``pitboss serve`` from checkout ``repo`` on database ``db``; ``nofile``: its
    open-file limit (soft and hard)."""

    def __init__(self, repo: Path, db: str, *extra: str, nofile: int | None = None):
        self.repo, self.db, self.extra, self.nofile = repo, db, extra, nofile
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.started_in = 0.0

    def start(self, timeout: float = 120) -> Server:
        env = dict(os.environ, PYTHONPATH=str(self.repo))
        limit = self.nofile

        def limits() -> None:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        t0 = time.monotonic()
        # what the server says goes to a file (a pipe nobody reads would stall it)
        self.log = self.db + ".log"
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--db",
                                          self.db, *self.extra], cwd=self.repo, env=env, preexec_fn=limits,
                                         stdout=subprocess.DEVNULL, stderr=log)
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(Path(self.log).read_text()[-3000:])
            if self.healthy(1):
                self.started_in = time.monotonic() - t0
                return self
            time.sleep(0.02)
        raise RuntimeError("pitboss serve did not come up")

    def healthy(self, timeout: float = 5) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/healthz", timeout=timeout) as r:
                return r.status == 200
        except (OSError, urllib.error.URLError):
            return False

    def rss(self) -> float:
        """Resident memory now, in MB."""
        assert self.proc is not None
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Peak:
    """The server's peak RSS while the ``with`` block runs (sampled every 50 ms)."""

    def __init__(self, server: Server):
        self.server = server
        self.peak = 0.0
        #: Seconds into the block when the peak was seen.
        self.at = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        start = time.monotonic()
        while not self._stop.is_set():
            rss = self.server.rss()
            if rss > self.peak:
                self.peak = rss
                self.at = time.monotonic() - start
            self._stop.wait(0.05)

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.server.rss())


def request(url: str, method: str = "GET", body: bytes | None = None, timeout: float = 300,
            headers: dict | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


# ------------------------------------------------------------------ readers that never read

def _handshake(path: str, port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()


def _pong(payload: bytes) -> bytes:
    """A client's (masked) pong frame answering a ping with ``payload`` (under 126 bytes)."""
    mask = os.urandom(4)
    return bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def _frames(reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
    """The server's WebSocket messages (text), then the close code (an int) or None;
    pings are answered, as every WebSocket client library does."""
    await reader.readuntil(b"\r\n\r\n")
    while True:
        try:
            head = await reader.readexactly(2)
        except (asyncio.IncompleteReadError, ConnectionError):
            yield None
            return
        opcode, length = head[0] & 0x0F, head[1] & 0x7F
        if length == 126:
            length = int.from_bytes(await reader.readexactly(2), "big")
        elif length == 127:
            length = int.from_bytes(await reader.readexactly(8), "big")
        payload = await reader.readexactly(length)
        if opcode == 8:
            yield int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            return
        if opcode == 1:
            yield payload.decode()
        elif opcode == 9:
            writer.write(_pong(payload))


async def _good_reader(port: int, path: str, seen: dict) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24)
    writer.write(_handshake(path, port))
    plies: list[int] = []
    seen["plies"] = plies
    async for message in _frames(reader, writer):
        if not isinstance(message, str):
            seen["closed"] = message
            break
        doc = json.loads(message)
        seen["types"][doc["type"]] = seen["types"].get(doc["type"], 0) + 1
        if doc["type"] == "move":
            plies.append(doc["ply"])
        if doc["type"] == "end":
            break
    writer.close()


def readers(repo: Path, count: int, seconds: float, folder: str, extra: list[str]) -> dict:
    server = Server(repo, os.path.join(folder, "readers.db"), "--rate", "100000", *extra).start()
    try:
        seats = ["Aki", "Ben", "Chie", "Dai", "Eri", "Fumi", "Gen", "Hana"]
        body = {"game": "daifugo", "seats": seats, "rounds": 100, "seed": 7, "bots": {n: "random" for n in seats}}
        status, raw = request(server.url + "/v1/tables", "POST", json.dumps(body).encode(),
                              headers={"Content-Type": "application/json"})
        assert status == 201, raw
        doc = json.loads(raw)
        table = doc["id"]
        paths = [f"/v1/tables/{table}/events?token={s['token']}" for s in doc["seats"]] + [f"/v1/tables/{table}/events"]
        rss0 = server.rss()
        idle: list[socket.socket] = []
        for i in range(count):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(_handshake(paths[i % len(paths)], server.port))
            idle.append(s)
        good = {p: {"types": {}} for p in (paths[0], paths[-1])}
        ply_at = [0]

        async def watch() -> None:
            tasks = [asyncio.create_task(_good_reader(server.port, p, good[p])) for p in good]
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not all(t.done() for t in tasks):
                await asyncio.sleep(0.5)
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        with Peak(server) as peak:
            asyncio.run(watch())
            status, raw = request(server.url + f"/v1/tables/{table}")
            ply_at[0] = json.loads(raw)["ply"]
            time.sleep(6)  # a reader dropped last has 5 s to take its close before it is cut
            health = json.loads(request(server.url + "/healthz")[1])
        still_open = sum(1 for s in idle if _open(s))
        for s in idle:
            s.close()
        out = {"readers": count, "moves": ply_at[0], "rss_start": rss0, "rss_peak": peak.peak, "peak_at_s": peak.at,
               "idle_still_open": still_open, "healthz_readers": health.get("readers")}
        for p, seen in good.items():
            plies = seen.get("plies", [])
            kind = "seat" if "token=" in p else "spectator"
            out[f"{kind}_events"] = len(plies)
            out[f"{kind}_in_order"] = plies == list(range(plies[0], plies[0] + len(plies))) if plies else False
            out[f"{kind}_closed"] = seen.get("closed")
        return out
    finally:
        server.stop()


def _open(s: socket.socket) -> bool:
    """Is the server's side of ``s`` still open (nothing read but data: no EOF, no reset)?"""
    s.setblocking(False)
    try:
        while True:
            data = s.recv(1 << 20)
            if not data:
                return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.setblocking(True)


# ------------------------------------------------------------------ /v1/validate and the CLI

def tag_lines(size: int) -> str:
    """A record of tag lines, ``size`` characters or a little more."""
    lines = ['[Game "Caravan"]\n']
    n, total = 0, len(lines[0])
    while total < size:
        line = f'[T{n:06d} "v"]\n'
        lines.append(line)
        total += len(line)
        n += 1
    return "".join(lines)


def validate(repo: Path, folder: str, extra: list[str]) -> dict:
    body = tag_lines(7_900_000).encode()
    out: dict = {"body_mb": len(body) / 1e6, "body_lines": body.count(b"\n")}
    server = Server(repo, os.path.join(folder, "validate.db"), *extra).start()
    try:
        out["rss_start"] = server.rss()
        with Peak(server) as peak:
            status, _ = request(server.url + "/v1/validate", "POST", body)
        out["one_status"], out["one_peak"] = status, peak.peak
        statuses: list[int] = []
        with Peak(server) as peak:
            threads = [threading.Thread(target=lambda: statuses.append(
                request(server.url + "/v1/validate", "POST", body)[0])) for _ in range(3)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        out["three_statuses"], out["three_peak"] = sorted(statuses), peak.peak
    finally:
        server.stop()
    path = os.path.join(folder, "tags.cvn")
    Path(path).write_text(tag_lines(9_700_000), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(repo))
    child = subprocess.Popen([sys.executable, "-m", "cli", "validate", "--json", path], cwd=repo, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, code, usage = os.wait4(child.pid, 0)
    out["cli_mb"] = os.path.getsize(path) / 1e6
    out["cli_exit"] = os.waitstatus_to_exitcode(code)
    out["cli_peak"] = usage.ru_maxrss / 1024
    return out


# ------------------------------------------------------------------ creating tables

def tables(repo: Path, count: int, folder: str, extra: list[str]) -> dict:
    db = os.path.join(folder, "tables.db")
    server = Server(repo, db, *extra).start()
    out: dict = {"asked": count, "first_start_s": server.started_in}
    try:
        rss0 = server.rss()
        statuses: dict[int, int] = {}
        refusal = None
        body = json.dumps({"game": "caravan", "seats": ["Ann", "Bob"]}).encode()
        conn = _Keepalive(server.port)
        t0 = time.monotonic()
        for _ in range(count):
            status, raw = conn.post("/v1/tables", body)
            statuses[status] = statuses.get(status, 0) + 1
            if status != 201 and refusal is None:
                refusal = raw.decode()[:200]
        out["seconds"] = time.monotonic() - t0
        conn.close()
        out["statuses"] = statuses
        out["refusal"] = refusal
        out["rss_added"] = server.rss() - rss0
    finally:
        server.stop()
    again = Server(repo, db, *extra).start()
    try:
        out["restart_s"] = again.started_in
        out["restart_rss"] = again.rss()
    finally:
        again.stop()
    return out


class _Keepalive:
    """One keep-alive HTTP/1.1 connection (what a client creating tables in a loop uses)."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.file = self.sock.makefile("rb")

    def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        self.sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        status = int(self.file.readline().split()[1])
        length = 0
        while True:
            line = self.file.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return status, self.file.read(length)

    def close(self) -> None:
        self.file.close()
        self.sock.close()


# ------------------------------------------------------------------ stalled requests

def _stall(port: int, i: int) -> socket.socket | None:
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        return None
    if i % 2:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # mid-header
    else:
        s.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n[Game ")  # mid-body
    return s


def stalls(repo: Path, count: int, wait: float, folder: str, extra: list[str]) -> dict:
    out: dict = {"stalled": count, "wait_s": wait}
    server = Server(repo, os.path.join(folder, "stalls.db"), *extra).start()
    try:
        socks = [s for s in (_stall(server.port, i) for i in range(count)) if s is not None]
        out["connected"] = len(socks)
        out["healthz_during"] = server.healthy(10)
        time.sleep(wait)
        out["still_open"] = sum(1 for s in socks if _open(s))
        for s in socks:
            s.close()
    finally:
        server.stop()
    server = Server(repo, os.path.join(folder, "stalls2.db"), *extra, nofile=1024).start()
    try:
        socks = [s for s in (_stall(server.port, i) for i in range(1100)) if s is not None]
        time.sleep(1)
        out["nofile_1024_connected"] = len(socks)
        out["nofile_1024_healthz"] = server.healthy(10)
        for s in socks:
            s.close()
    finally:
        server.stop()
    return out


# ------------------------------------------------------------------ main

def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=["readers", "validate", "tables", "stalls", "all"])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout to run (default: this one)")
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=45.0, help="readers: how long the table is watched")
    parser.add_argument("--count", type=int, default=None, help="tables: how many to ask for; stalls: how many")
    parser.add_argument("--wait", type=float, default=60.0, help="stalls: how long before counting the open ones")
    parser.add_argument("--serve", default="", help="extra options for pitboss serve (one string)")
    args = parser.parse_args(argv)
    extra = args.serve.split()
    with tempfile.TemporaryDirectory(prefix="pitboss-faults-") as folder:
        wanted = ["readers", "validate", "tables", "stalls"] if args.scenario == "all" else [args.scenario]
        for name in wanted:
            if name == "readers":
                result = readers(args.repo, args.readers, args.seconds, folder, extra)
            elif name == "validate":
                result = validate(args.repo, folder, extra)
            elif name == "tables":
                result = tables(args.repo, args.count or 10_000, folder, extra)
            else:
                result = stalls(args.repo, args.count or 4_000, args.wait, folder, extra)
            print(json.dumps({name: result}, default=str), flush=True)


if __name__ == "__main__":
    main()
