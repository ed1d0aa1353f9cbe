"""Benchmark of ``pitboss serve --uecda``: five contest clients on loopback through the
protocol server.

The server runs in this process (its listener and table threads, TCP_NODELAY on every
connection, the contest's log written); the five clients are separate processes
(``python -m referee.games.daifugo.uecda.contest.client``: random plays, 5% deliberately
illegal submissions). Printed: games/s and turns/s (a turn is one submission, one entry of
the log's play lines) in wall-clock time, and the server's CPU time (turns per CPU
second): once the listener alone, once with its tables fed into the HTTP service's table
hub (SQLite, every ply stored and made the hub's, as ``pitboss serve --uecda`` does), and
with ``--spectators N`` once more with N readers of the table's events.

The anchor, in the same run: the same message pattern with no game in it, five loopback
connections that exchange per turn what the protocol does (five 480-byte tables, one
submission, one int, five tables, five ints) between a plain Python loop and five client
processes; its turns/s
is the ceiling this machine and Python put on any server of this protocol. The contest's
own server does about 3,000 turns/s on loopback with TCP_NODELAY (uecda-protocol.md,
section 1: 1,000 games in 13 s).

    python bench/serve_uecda.py                 # 1,000 games
    python bench/serve_uecda.py --games 200 --spectators 1
"""

from __future__ import annotations

import argparse
import json
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from referee.games.daifugo.uecda import contest  # noqa: E402
from referee.games.daifugo.uecda.server import GAME, ContestServer, Settings  # noqa: E402

TABLE, INT = 480, 4


def _turns(log: Path) -> int:
    turns = 0
    for line in log.read_text(encoding="latin-1").splitlines():
        if line[7:13] == "play% ":
            turns += len(line[13:].split())
    return turns


class _Service:
    """The HTTP service's side, in this process: a table hub on a SQLite database in a
    fresh folder, its event loop in a thread, fed by the listener's tables (hub.py)."""

    def __init__(self, folder: Path):
        import asyncio
        import threading

        from referee.games.daifugo.uecda.hub import Bridge
        from referee.service.store import open_store
        from referee.service.tables import TableHub

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.store = open_store(str(folder / "pitboss.db"))
        self.hub = TableHub(self.store)
        self.bridge = Bridge(self.hub, GAME, self.loop)
        self.watching = False
        self.watcher: Any = None

    def watch(self, spectators: int) -> None:
        """``spectators`` readers of every table's events, each message JSON-encoded as
        the WebSocket sends it (what a spectator costs the service, without the network)."""
        import asyncio

        async def follow(table) -> None:
            obs = self.hub.observe(table, None)
            while True:
                message = await obs.queue.get()
                json.dumps(message)
                if message["type"] == "end":
                    return

        async def attach() -> None:  # runs until close()
            seen: set[str] = set()
            while self.watching:
                for table in list(self.hub.tables.values()):
                    if table.id not in seen:
                        seen.add(table.id)
                        for _ in range(spectators):
                            self.loop.create_task(follow(table))
                await asyncio.sleep(0.001)

        if spectators:
            self.watching = True
            self.watcher = asyncio.run_coroutine_threadsafe(attach(), self.loop)

    def settle(self) -> int:
        """Wait until every ply is in the service; the plies it holds."""
        while self.bridge.tasks:
            time.sleep(0.01)
        return sum(t.match.ply for t in list(self.hub.tables.values()) + list(self.hub.finished.values()))

    def close(self) -> None:
        if self.watcher is not None:
            self.watching = False
            self.watcher.result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.store.close()


def run_server(games: int, seed: int, timeout: float, service: bool = False, spectators: int = 0) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(contest.load(games=games), seed, timeout, Path(tmp), max_tables=1)
        hub = _Service(Path(tmp)) if service else None
        if hub is not None:
            hub.watch(spectators)
        server = ContestServer("127.0.0.1", 0, settings, observer=hub.bridge.feed if hub is not None else None)
        port = server.start()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        children0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        procs = []
        try:
            for i in range(contest.PLAYERS):
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "referee.games.daifugo.uecda.contest.client", "--port", str(port),
                     "--name", f"b{i}", "--seed", str(i), "--illegal", "0.05", "--deadline", "3600"],
                    cwd=REPO, stdout=subprocess.DEVNULL))
                while len(server.waiting) + contest.PLAYERS * len(server.tables) <= i:
                    time.sleep(0.002)
            if not server.join(3600):
                raise SystemExit("the table did not finish")
            for p in procs:
                p.wait(60)
            plies = hub.settle() if hub is not None else None
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
            server.stop()
            if hub is not None:
                hub.close()
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        table = server.tables[0]
        turns = _turns(table.log_path)
        return {"games": table.games_done, "turns": turns, "seconds": round(wall, 3),
                "games_per_s": round(table.games_done / wall, 1), "turns_per_s": round(turns / wall),
                "server_cpu_s": round(cpu, 3), "server_cpu_ms_per_1000_turns": round(1000 * cpu / turns * 1000, 1),
                "turns_per_server_cpu_s": round(turns / cpu), "service_plies": plies,
                "clients_cpu_s": round(children.ru_utime + children.ru_stime - children0.ru_utime
                                       - children0.ru_stime, 3),
                "incidents": len(table.incidents)}


def run_anchor(turns: int) -> dict:
    """The protocol's message pattern with no game: per turn five tables out, one table
    in, one int out, five tables out, five ints out, on five loopback connections."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    procs = [subprocess.Popen([sys.executable, __file__, "--anchor-client", str(port), str(k), str(turns)])
             for k in range(5)]
    socks = []
    for _ in procs:
        c, _ = listener.accept()
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        k = c.recv(1)[0]
        socks.append((k, c))
    socks = [c for _, c in sorted(socks)]
    table, word = bytes(TABLE), bytes(INT)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for turn in range(turns):
        for c in socks:
            c.sendall(table)
        mover = socks[turn % 5]
        _recv(mover, TABLE)
        mover.sendall(word)
        for c in socks:
            c.sendall(table)
        for c in socks:
            c.sendall(word)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    for c in socks:
        c.close()
    for p in procs:
        p.wait(60)
    listener.close()
    return {"turns": turns, "seconds": round(wall, 3), "turns_per_s": round(turns / wall),
            "server_cpu_s": round(cpu, 3)}


def anchor_client(port: int, k: int, turns: int) -> None:
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.sendall(bytes([k]))
    try:
        for turn in range(turns):
            _recv(s, TABLE)
            if turn % 5 == k:
                s.sendall(bytes(TABLE))
                _recv(s, INT)
            _recv(s, TABLE)
            _recv(s, INT)
    except (ConnectionError, OSError):
        pass
    finally:
        s.close()


def _recv(s: socket.socket, n: int) -> bytes:
    got = bytearray()
    while len(got) < n:
        chunk = s.recv(n - len(got))
        if not chunk:
            raise ConnectionError("closed")
        got += chunk
    return bytes(got)


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--anchor-client":
        anchor_client(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--spectators", type=int, default=0,
                        help="also run through the service with this many spectators of the table's events")
    args = parser.parse_args()
    ours = run_server(args.games, args.seed, args.timeout)
    served = run_server(args.games, args.seed, args.timeout, service=True)
    watched = (run_server(args.games, args.seed, args.timeout, service=True, spectators=args.spectators)
               if args.spectators else None)
    anchor = run_anchor(min(ours["turns"], 20000))
    figures = {"pitboss": ours, "pitboss_with_service": served, "pitboss_watched": watched,
               "anchor_message_pattern": anchor,
               "contest_server_reported_turns_per_s": 3000}
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    runs = [("pitboss serve --uecda (the listener alone)", ours),
            ("pitboss serve --uecda (tables in the HTTP service, SQLite)", served)]
    if watched is not None:
        runs.append((f"pitboss serve --uecda (in the service, {args.spectators} spectator(s) of the events)", watched))
    for label, run in runs:
        print(f"{label}: {run['games']} games, {run['turns']} turns in {run['seconds']} s: "
              f"{run['games_per_s']} games/s, {run['turns_per_s']} turns/s; server CPU {run['server_cpu_s']} s "
              f"({run['turns_per_server_cpu_s']} turns per CPU second, {run['server_cpu_ms_per_1000_turns']} ms "
              f"per 1,000 turns), clients CPU {run['clients_cpu_s']} s, {run['incidents']} incidents"
              + (f", {run['service_plies']} plies stored" if run["service_plies"] is not None else ""))
    print(f"anchor (the same messages, no game, same run): {anchor['turns']} turns in {anchor['seconds']} s: "
          f"{anchor['turns_per_s']} turns/s")
    print("the contest server (uecda-protocol.md, TCP_NODELAY): about 3,000 turns/s")


if __name__ == "__main__":
    main()
