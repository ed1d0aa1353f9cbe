"""Benchmark of ``pitboss serve``: N concurrent tables driven over loopback.

The server runs as ``pitboss serve`` (a subprocess, durable commits on: SQLite WAL with
``synchronous=FULL``, or PostgreSQL with its default ``fsync=on``). The load generator is
bounded: each table is one coroutine on one keep-alive connection, playing its human
seats (both Caravan seats) as fast as the answers come: GET the mover's view, POST one
of its legal moves with the ply. When a table finishes, a new one takes its place, so N
stay in play. Each level runs for ``--seconds``.

Printed per level: acknowledged moves/s, p50 and p99 latency of the acknowledged POSTs,
the server's CPU seconds and its resident memory with the number of finished tables so
far (memory must stay flat as finished tables pile up). The machine's fsync rate (4 KiB
write + fsync, in the database's folder) is measured in the same run and printed beside:
one fsync per move would cap the moves/s there; group commit is what gets past it.

    python bench/serve.py                         # SQLite and PostgreSQL, 1 10 100 500 tables
    python bench/serve.py --levels 100 --seconds 10 --backends sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def fsync_rate(folder: str, seconds: float = 1.0, sync=os.fsync) -> float:
    """fsyncs (or ``sync`` calls: ``os.fdatasync``, what a WAL append costs) per second of
    a 4 KiB write in ``folder``."""
    path = os.path.join(folder, "fsync-probe")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    block = os.urandom(4096)
    n = 0
    start = time.perf_counter()
    try:
        while time.perf_counter() - start < seconds:
            os.pwrite(fd, block, (n % 64) * 4096)
            sync(fd)
            n += 1
    finally:
        os.close(fd)
        os.unlink(path)
    return n / (time.perf_counter() - start)


class Conn:
    """A minimal HTTP/1.1 keep-alive client (the load generator must cost the server's
    two cores as little as possible)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, dict]:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        assert self.writer is not None and self.reader is not None
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        payload = await self.reader.readexactly(length) if length else b""
        return status, json.loads(payload) if payload else {}

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _table(conn: Conn, rng: random.Random) -> tuple[str, dict[str, str]]:
    status, doc = await conn.request("POST", "/v1/tables", body={
        "game": "caravan", "seats": ["Ann", "Bob"], "seed": rng.randrange(2**40)})
    assert status == 201, doc
    return doc["id"], {s["name"]: s["token"] for s in doc["seats"]}


async def drive(host: str, port: int, tables: int, seconds: float, seed: int) -> dict:
    rng = random.Random(seed)
    latencies: list[float] = []
    finished = 0
    stop_at = 0.0

    async def one(k: int) -> None:
        nonlocal finished
        conn = Conn(host, port)
        await conn.open()
        try:
            table_id, tokens = await _table(conn, rng)
            to_move = "Ann"
            while time.perf_counter() < stop_at:
                status, view = await conn.request("GET", f"/v1/tables/{table_id}/view", tokens[to_move])
                if view.get("status") == "finished":
                    finished += 1
                    table_id, tokens = await _table(conn, rng)
                    to_move = "Ann"
                    continue
                if not view.get("legal"):
                    to_move = view["to_move"]
                    continue
                move = rng.choice(view["legal"])
                t0 = time.perf_counter()
                status, answer = await conn.request("POST", f"/v1/tables/{table_id}/moves", tokens[to_move],
                                                    {"move": move, "ply": view["ply"]})
                if status == 200:
                    latencies.append(time.perf_counter() - t0)
                    to_move = "Bob" if to_move == "Ann" else "Ann"
                    if answer["status"] == "finished":
                        finished += 1
                        table_id, tokens = await _table(conn, rng)
                        to_move = "Ann"
                else:
                    raise RuntimeError(f"move answered {status}: {answer}")
        finally:
            conn.close()

    # tables are set up before the clock starts, then all play for ``seconds``
    stop_at = time.perf_counter() + 3600
    start = time.perf_counter()
    stop_at = start + seconds
    await asyncio.gather(*(one(k) for k in range(tables)))
    wall = time.perf_counter() - start
    return {"moves": len(latencies), "wall": wall, "latencies": latencies, "finished": finished}


def _proc_stats(pid: int) -> tuple[float, float]:
    """(CPU seconds, resident MiB) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    rss = 0.0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    return cpu, rss


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", db,
                             "--rate", "100000"], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    import urllib.request

    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode()[-2000:])  # type: ignore[union-attr]
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def bench_backend(name: str, make_db, levels: list[int], seconds: float, folder: str) -> None:
    fsyncs, datasyncs = fsync_rate(folder), fsync_rate(folder, sync=os.fdatasync)
    print(f"\n{name}: durable commits on; this machine, measured now in {folder}: fsync {fsyncs:,.0f}/s, "
          f"fdatasync {datasyncs:,.0f}/s (one per move would cap moves/s there)")
    print(f"{'tables':>7} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'server CPU s':>13} {'RSS MiB':>8} "
          f"{'finished':>9} {'commits':>8}  (commits: database transactions, each many moves)")
    for n in levels:
        db = make_db()
        proc, port = start_server(db)
        try:
            cpu0, _ = _proc_stats(proc.pid)
            result = asyncio.run(drive("127.0.0.1", port, n, seconds, seed=n))
            cpu1, rss = _proc_stats(proc.pid)
            import urllib.request

            health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10).read())
            result["commits"] = health.get("commits", 0)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
        lat = result["latencies"]
        rate = result["moves"] / result["wall"]
        print(f"{n:>7} {rate:>9,.0f} {pct(lat, .5) * 1000:>8.1f} {pct(lat, .99) * 1000:>8.1f} "
              f"{cpu1 - cpu0:>13.2f} {rss:>8.1f} {result['finished']:>9} {result['commits']:>8}", flush=True)


def memory_run(make_db, tables: int, rounds: int, seconds: float) -> None:
    """Resident memory of the server as finished tables pile up (it must stay flat)."""
    db = make_db()
    proc, port = start_server(db)
    print(f"\nmemory with finished tables piling up ({tables} tables in play; SQLite's page cache, at most "
          f"2 MiB a connection, fills as the database grows):")
    print(f"{'finished':>9} {'RSS MiB':>8}")
    total = 0
    try:
        for r in range(rounds):
            result = asyncio.run(drive("127.0.0.1", port, tables, seconds, seed=1000 + r))
            total += result["finished"]
            print(f"{total:>9} {_proc_stats(proc.pid)[1]:>8.1f}", flush=True)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 10, 100, 500])
    parser.add_argument("--seconds", type=float, default=5.0, help="load time per level")
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--postgres", help="a postgresql:// URL to use (default: start a throw-away server)")
    parser.add_argument("--memory-rounds", type=int, default=6,
                        help="load periods of the memory run (10 tables in play, finished ones replaced)")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="pitboss-bench-serve-")
    print(f"pitboss serve benchmark · {os.cpu_count()} CPUs · python {sys.version.split()[0]} · "
          f"{args.seconds:g} s per level")
    counter = iter(range(10**6))
    if "sqlite" in args.backends:
        bench_backend("SQLite", lambda: os.path.join(work, f"bench-{next(counter)}.db"), args.levels, args.seconds, work)
        if args.memory_rounds:
            memory_run(lambda: os.path.join(work, f"bench-{next(counter)}.db"), 10, args.memory_rounds, args.seconds)
    if "postgresql" in args.backends:
        local = None
        url = args.postgres
        if url is None:
            sys.path.insert(0, str(REPO / "tests" / "service"))
            from pg import LocalPostgres

            local = LocalPostgres()
            url = local.start()
            pg_folder = str(local.dir)
        else:
            pg_folder = work
        try:
            import psycopg

            def make_pg() -> str:
                name = f"bench_{next(counter)}_{os.getpid()}"
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"CREATE DATABASE {name}")
                return url.rsplit("/", 1)[0] + "/" + name

            bench_backend("PostgreSQL", make_pg, args.levels, args.seconds, pg_folder)
            if args.memory_rounds:
                memory_run(make_pg, 10, args.memory_rounds, args.seconds)
        finally:
            if local is not None:
                local.stop()


if __name__ == "__main__":
    main()
