"""Benchmark of ``pitboss serve``: N concurrent tables driven over loopback.

The server runs as ``pitboss serve`` (a subprocess, durable commits on: SQLite WAL with
``synchronous=FULL``, or PostgreSQL with its default ``fsync=on``). The load generator is
bounded: each table is one coroutine on one keep-alive connection, playing its human
seats (both Caravan seats) as fast as the answers come: GET the mover's view, POST one
of its legal moves with the ply. When a table finishes, a new one takes its place, so N
stay in play. Each level runs for ``--seconds``.

Printed per level: acknowledged moves/s, p50 and p99 latency of the acknowledged POSTs,
the server's CPU time per acknowledged move (all its threads, user + system: what decides
whether a rate fits on one core, whatever else runs on the machine) and the generator's,
moves per database transaction (group commit), resident memory. The machine's fsync rate
(4 KiB write + fsync, in the database's folder) is measured in the same run and printed
beside: one commit per move would cap the moves/s there; group commit is what gets past
it. Then a memory run: the server's resident memory and Python heap (allocated blocks,
from /healthz) against the number of finished tables, which must stay flat.

The whole matrix (both backends, 1 10 100 500 tables, the memory run) takes under two
minutes on an idle machine:

    python bench/serve.py                         # SQLite and PostgreSQL, 1 10 100 500 tables
    python bench/serve.py --levels 100 --seconds 10 --backends sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
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
    """A minimal HTTP/1.1 keep-alive client: requests written from prebuilt heads, answers
    read with one ``readuntil`` and one ``readexactly`` (the load generator shares the
    machine's two cores with the server: it must cost as little as it can)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    @staticmethod
    def head(method: str, path: str, token: str | None = None, json_body: bool = False) -> bytes:
        """A request's head up to its Content-Length value (the body's length follows)."""
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\n"
        if json_body:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        return (head + "Content-Length: ").encode()

    async def send(self, head: bytes, data: bytes = b"") -> tuple[int, bytes]:
        assert self.writer is not None and self.reader is not None
        self.writer.write(b"%s%d\r\n\r\n%s" % (head, len(data), data))
        raw = await self.reader.readuntil(b"\r\n\r\n")
        status = int(raw[9:12])
        at = raw.lower().find(b"content-length:")
        length = int(raw[at + 15:raw.index(b"\r\n", at)]) if at >= 0 else 0
        return status, await self.reader.readexactly(length) if length else b""

    async def request(self, method: str, path: str, token: str | None = None,
                      body: dict | None = None) -> tuple[int, dict]:
        data = b"" if body is None else json.dumps(body).encode()
        status, payload = await self.send(self.head(method, path, token, body is not None), data)
        return status, json.loads(payload) if payload else {}

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Seat:
    __slots__ = ("view", "move")

    def __init__(self, table_id: str, token: str):
        self.view = Conn.head("GET", f"/v1/tables/{table_id}/view", token)
        self.move = Conn.head("POST", f"/v1/tables/{table_id}/moves", token, json_body=True)


async def _table(conn: Conn, rng: random.Random) -> list[Seat]:
    status, doc = await conn.request("POST", "/v1/tables", body={
        "game": "caravan", "seats": ["Ann", "Bob"], "seed": rng.randrange(2**40)})
    assert status == 201, doc
    return [Seat(doc["id"], s["token"]) for s in doc["seats"]]


class Load:
    """What the generator saw in the measured window."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.finished = 0
        self.measuring = False


async def drive(host: str, port: int, tables: int, seconds: float, seed: int, on_start=None,
                warmup: float = 0.5, finish: bool = False, pace: float = 0.0) -> dict:
    """``tables`` tables in play for ``seconds`` (after ``warmup`` seconds unmeasured);
    each table is one coroutine on one keep-alive connection playing both seats: GET the
    mover's view, POST one of its legal moves with the ply; a finished table is replaced.
    ``on_start()`` is called when the measured window opens (CPU snapshots). ``pace``:
    moves per second offered at most, all tables together (0: as fast as answers come).
    ``finish``:
    when the time is up, each table is played to its end (none is left unfinished)."""
    rng = random.Random(seed)
    load = Load()
    loop = asyncio.get_running_loop()
    stop_at = float("inf")
    ready = asyncio.Event()
    go = asyncio.Event()
    pending = tables
    slot = 0.0

    async def paced() -> None:
        nonlocal slot
        t = loop.time()
        slot = max(slot + 1 / pace, t)
        if slot > t:
            await asyncio.sleep(slot - t)

    async def one() -> None:
        nonlocal pending
        conn = Conn(host, port)
        await conn.open()
        try:
            seats = await _table(conn, rng)
            pending -= 1
            if pending == 0:
                ready.set()
            await go.wait()
            mover = 0
            while True:
                if loop.time() >= stop_at and not finish:
                    break
                seat = seats[mover]
                status, raw = await conn.send(seat.view)
                view = json.loads(raw)
                if view["status"] == "finished":
                    if load.measuring or finish:
                        load.finished += 1
                    if loop.time() >= stop_at:
                        break
                    seats, mover = await _table(conn, rng), 0
                    continue
                legal = view["legal"]
                if not legal:
                    mover = 1 - mover
                    continue
                data = b'{"move":%s,"ply":%d}' % (json.dumps(rng.choice(legal)).encode(), view["ply"])
                if pace:
                    await paced()
                t0 = time.perf_counter()
                status, raw = await conn.send(seat.move, data)
                if status != 200:
                    raise RuntimeError(f"move answered {status}: {raw[:300]!r}")
                if load.measuring:
                    load.latencies.append(time.perf_counter() - t0)
                mover = 1 - mover
                if b'"status":"finished"' in raw:
                    if load.measuring or finish:
                        load.finished += 1
                    if loop.time() >= stop_at:
                        break
                    seats, mover = await _table(conn, rng), 0
        finally:
            conn.close()

    # every table is set up first; then all play: ``warmup`` seconds unmeasured, then ``seconds``
    players = [loop.create_task(one()) for _ in range(tables)]
    await ready.wait()
    go.set()
    await asyncio.sleep(warmup)
    if on_start is not None:
        on_start()
    load.measuring = True
    start = loop.time()
    stop_at = start + seconds
    await asyncio.sleep(seconds)
    load.measuring = False
    wall = loop.time() - start
    await asyncio.gather(*players)
    return {"moves": len(load.latencies), "wall": wall, "latencies": load.latencies, "finished": load.finished}


def run(coro):
    """The generator's own event loop: uvloop where installed (cheaper per request)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


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


def _health(port: int) -> dict:
    import urllib.request

    return json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30).read())


def _cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def bench_backend(name: str, make_db, levels: list[int], seconds: float, folder: str,
                  pace: float = 0.0) -> list[dict]:
    fsyncs, datasyncs = fsync_rate(folder), fsync_rate(folder, sync=os.fdatasync)
    if pace:
        name = f"{name}, {pace:,.0f} moves/s offered"
    print(f"\n{name}: durable commits on; this machine, measured now in {folder}: fsync {fsyncs:,.0f}/s, "
          f"fdatasync {datasyncs:,.0f}/s (one commit per move would cap moves/s there)")
    print(f"{'tables':>7} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'server CPU':>11} {'gen CPU':>8} "
          f"{'moves/commit':>13} {'RSS MiB':>8}")
    print(f"{'':>7} {'':>9} {'':>8} {'':>8} {'ms/move':>11} {'ms/move':>8}")
    rows = []
    for n in levels:
        db = make_db()
        proc, port = start_server(db)
        try:
            marks: dict[str, float] = {}

            def window_opens() -> None:
                marks["server"] = _proc_stats(proc.pid)[0]
                marks["gen"] = _cpu_self()
                marks["commits"], marks["writes"] = _counts(port)

            result = run(drive("127.0.0.1", port, n, seconds, seed=n, on_start=window_opens, pace=pace))
            cpu1, rss = _proc_stats(proc.pid)
            gen1 = _cpu_self()
            commits, writes = _counts(port)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
        lat = result["latencies"]
        moves = max(1, result["moves"])
        row = {"backend": name, "tables": n, "rate": result["moves"] / result["wall"],
               "p50": pct(lat, .5) * 1000, "p99": pct(lat, .99) * 1000,
               # the window's CPU includes the tail of the last moves in flight: close enough
               "server_ms": (cpu1 - marks["server"]) * 1000 / moves,
               "gen_ms": (gen1 - marks["gen"]) * 1000 / moves,
               "per_commit": (writes - marks["writes"]) / max(1, commits - marks["commits"]), "rss": rss,
               "fsync": fsyncs}
        rows.append(row)
        print(f"{n:>7} {row['rate']:>9,.0f} {row['p50']:>8.1f} {row['p99']:>8.1f} {row['server_ms']:>11.3f} "
              f"{row['gen_ms']:>8.3f} {row['per_commit']:>13.1f} {rss:>8.1f}", flush=True)
    return rows


def _counts(port: int) -> tuple[float, float]:
    health = _health(port)
    return health.get("commits", 0), health.get("writes", 0)


def memory_run(make_db, tables: int, periods: int, seconds: float) -> None:
    """Resident memory and the Python heap's allocated blocks of the server as finished
    tables pile up (both must stay flat: a finished table leaves nothing behind)."""
    db = make_db()
    proc, port = start_server(db)
    print(f"\nmemory as finished tables pile up ({tables} tables in play, each finished one replaced; "
          f"SQLite's page cache, at most 2 MiB a connection, fills as the database grows):")
    print(f"{'finished':>9} {'RSS MiB':>8} {'Python blocks':>14} {'tables in memory':>17}  (every table in play "
          "is played to its end after each period)")
    total = 0
    try:
        for r in range(periods):
            result = run(drive("127.0.0.1", port, tables, seconds, seed=1000 + r, warmup=0, finish=True))
            total += result["finished"]
            health = _health(port).get("memory", {})
            print(f"{total:>9} {_proc_stats(proc.pid)[1]:>8.1f} {health.get('python_blocks', 0):>14,} "
                  f"{health.get('tables', 0):>17}", flush=True)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 10, 100, 500])
    parser.add_argument("--seconds", type=float, default=4.0, help="measured load time per level")
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--postgres", help="a postgresql:// URL to use (default: start a throw-away server)")
    parser.add_argument("--memory-periods", type=int, default=8,
                        help="load periods of the memory run (SQLite, 100 tables in play; 0: none)")
    parser.add_argument("--pace", type=float, default=2000.0,
                        help="moves/s offered in the paced run at 100 tables (the target's rate; 0: none)")
    parser.add_argument("--memory-seconds", type=float, default=2.5, help="length of one memory period")
    args = parser.parse_args(argv)
    work = tempfile.mkdtemp(prefix="pitboss-bench-serve-")
    began = time.monotonic()
    print(f"pitboss serve benchmark · {os.cpu_count()} CPUs · python {sys.version.split()[0]} · "
          f"{args.seconds:g} s measured per level (after 0.5 s of warm-up) · load: the loadavg is "
          f"{os.getloadavg()[0]:.1f} now")
    print("CPU per move: the server's (all its threads) and the generator's, user + system, over the "
          "measured window, per acknowledged move")
    counter = iter(range(10**6))
    rows: list[dict] = []
    if "sqlite" in args.backends:
        rows += bench_backend("SQLite", lambda: os.path.join(work, f"bench-{next(counter)}.db"), args.levels,
                              args.seconds, work)
        if args.pace:
            rows += bench_backend("SQLite", lambda: os.path.join(work, f"bench-{next(counter)}.db"), [100],
                                  args.seconds, work, pace=args.pace)
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

            rows += bench_backend("PostgreSQL", make_pg, args.levels, args.seconds, pg_folder)
            if args.pace:
                rows += bench_backend("PostgreSQL", make_pg, [100], args.seconds, pg_folder, pace=args.pace)
        finally:
            if local is not None:
                local.stop()
    if args.memory_periods and "sqlite" in args.backends:
        memory_run(lambda: os.path.join(work, f"bench-{next(counter)}.db"), 100, args.memory_periods,
                   args.memory_seconds)
    for row in rows:
        if row["tables"] == 100:
            # a paced run offers 2,000 moves/s: it meets the rate when it keeps up with it (within 1 %)
            ok = row["rate"] >= (1980 if "offered" in row["backend"] else 2000) and row["p99"] <= 50
            fits = 1000 / row["server_ms"] if row["server_ms"] else float("inf")
            print(f"\ntarget at 100 tables ({row['backend']}): >= 2,000 moves/s with p99 <= 50 ms: "
                  f"{'met' if ok else 'not met'} ({row['rate']:,.0f}/s, p99 {row['p99']:.1f} ms); the server's "
                  f"{row['server_ms']:.3f} ms CPU per move is {fits:,.0f} moves/s on one core")
    print(f"\nthe whole run: {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
