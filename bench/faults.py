"""``pitboss serve`` under faults and hostile input, measured: how many answers of each
status a busy server gives while its database goes away and comes back, and whether
anything a client was told is false.

Each scenario starts a real ``pitboss serve`` on loopback (``--repo`` picks the checkout
whose code it runs, so that two versions are measured by the same script), plays tables
over HTTP from threads (every POST of a move recorded: table, ply, move, status), does
something to the database, then reads the database itself to reconcile what every
client was told with what is stored:

- ``pg``: PostgreSQL stopped for ``--outage`` seconds and started again under load;
- ``disk``: SQLite on a 16 MiB tmpfs filled to 256 KiB free, then the space freed
  (needs root, as mounting does);
- ``inputs``: the hostile bodies, cursors and names (one request each);
- ``race``: clients that move with the ply of the view they read right after a move
  (Daifugo with exchanges, ``exchange=choice``), counting their 409s.

    python bench/faults.py                      # every scenario, this checkout
    python bench/faults.py --only pg --repo ../other-checkout
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests" / "service"))
from pg import LocalPostgres, free_port  # noqa: E402


class Serve:
    """``pitboss serve`` from checkout ``repo`` on a free loopback port."""

    def __init__(self, repo: Path, db: str):
        self.repo, self.db = repo, db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(repo))
        self.process = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--db", db,
                                         "--rate", "100000"], cwd=repo, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"pitboss serve exited: {self.process.stderr.read()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError("pitboss serve did not come up")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


class Log:
    """What each client was told, by phase, and when."""

    def __init__(self) -> None:
        self.phase = "before"
        self.back = 0.0  # when the database was usable again (monotonic)
        self.lock = threading.Lock()
        self.posts: list[tuple[str, str, int, str, str]] = []  # phase, table, ply, move, status
        self.probes: dict[tuple[str, str], collections.Counter] = collections.defaultdict(collections.Counter)
        self.timeline: list[tuple[float, str, str]] = []  # when, what, status
        self.bot_plies: list[tuple[float, int]] = []  # when, the bot table's ply

    def post(self, table: str, ply: int, move: str, status: str) -> None:
        with self.lock:
            self.posts.append((self.phase, table, ply, move, status))
            self.timeline.append((time.monotonic(), "moves", status))

    def probe(self, what: str, status: str) -> None:
        with self.lock:
            self.probes[(self.phase, what)][status] += 1
            self.timeline.append((time.monotonic(), what, status))

    def recovery(self) -> dict[str, str]:
        """For each kind of request: seconds from the database's return to its first 2xx,
        and how many non-2xx answers came after that first one."""
        out = {}
        for what in ("moves", "list", "create", "view", "index", "healthz"):
            after = [(t, s) for t, w, s in self.timeline if w == what and t >= self.back]
            first = next((t for t, s in after if s[0] == "2"), None)
            if first is None:
                out[what] = "never"
                continue
            later = sum(1 for t, s in after if t > first and s[0] != "2")
            out[what] = f"{first - self.back:.2f} s" + (f" (then {later} non-2xx)" if later else "")
        plies = [(t, p) for t, p in self.bot_plies if t >= self.back]
        moved = next((t for t, p in plies if plies and p > plies[0][1]), None)
        out["bots"] = "never" if moved is None else f"{moved - self.back:.2f} s"
        return out


def _status(call) -> tuple[str, httpx.Response | None]:
    try:
        r = call()
        return str(r.status_code), r
    except httpx.HTTPError as err:
        return type(err).__name__, None


def player(base: str, table: str, tokens: dict[str, str], log: Log, stop: threading.Event) -> None:
    """Plays the human seats of a table as fast as answers come; every POST logged."""
    with httpx.Client(base_url=base, timeout=10) as c:
        while not stop.is_set():
            moved = False
            for tok in tokens.values():
                status, r = _status(lambda: c.get(f"/v1/tables/{table}/view",
                                                  headers={"Authorization": f"Bearer {tok}"}))
                if r is None or status != "200":
                    time.sleep(0.02)
                    continue
                mine = r.json()
                if mine["status"] == "finished":
                    return
                if not mine["legal"]:
                    continue
                move = random.choice(mine["legal"])
                status, _ = _status(lambda: c.post(f"/v1/tables/{table}/moves", json={"move": move, "ply": mine["ply"]},
                                                   headers={"Authorization": f"Bearer {tok}"}))
                log.post(table, mine["ply"], move, status)
                moved = True
                if status[0] != "2":
                    time.sleep(0.02)
                break
            if not moved:
                time.sleep(0.005)


def prober(base: str, watch: str, log: Log, stop: threading.Event) -> None:
    """Health, listing, creation and a public view, five times a second."""
    with httpx.Client(base_url=base, timeout=10) as c:
        while not stop.is_set():
            log.probe("healthz", _status(lambda: c.get("/healthz"))[0])
            log.probe("list", _status(lambda: c.get("/v1/tables"))[0])
            log.probe("index", _status(lambda: c.get("/"))[0])
            status, r = _status(lambda: c.get(f"/v1/tables/{watch}"))
            log.probe("view", status)
            if r is not None and status == "200":
                with log.lock:
                    log.bot_plies.append((time.monotonic(), r.json()["ply"]))
            log.probe("create", _status(lambda: c.post("/v1/tables", json={"game": "caravan", "seats": ["P", "Q"]}))[0])
            time.sleep(0.2)


def new_table(base: str, body: dict) -> tuple[str, dict[str, str]]:
    doc = httpx.post(base + "/v1/tables", json=body, timeout=30).json()
    return doc["id"], {s["name"]: s["token"] for s in doc["seats"] if not s["bot"]}


def ply_of(base: str, table: str) -> int | None:
    status, r = _status(lambda: httpx.get(f"{base}/v1/tables/{table}", timeout=5))
    return r.json()["ply"] if r is not None and status == "200" else None


def stored_moves(db: str) -> dict[tuple[str, int], str]:
    """Every stored move, read from the database itself: (table, ply) -> stored text."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db) as conn:
            rows = conn.execute("SELECT table_id, ply, stored FROM live_moves").fetchall()
    else:
        with contextlib.closing(sqlite3.connect(db, timeout=30)) as conn:
            rows = conn.execute("SELECT table_id, ply, stored FROM live_moves").fetchall()
    return {(t, p): s for t, p, s in rows}


def reconcile(log: Log, stored: dict[tuple[str, int], str]) -> dict[str, int]:
    """Acknowledged moves missing from the database, and moves stored although their client
    was told otherwise (by status)."""
    out: collections.Counter = collections.Counter({"acknowledged": 0, "acknowledged but lost": 0,
                                                    "answered 5xx but stored": 0})
    acked = {(table, ply) for _phase, table, ply, _m, status in log.posts if status == "200"}
    for _phase, table, ply, move, status in log.posts:
        there = stored.get((table, ply + 1)) == move
        if status == "200":
            out["acknowledged"] += 1
            out["acknowledged but lost"] += not there
        elif there and (table, ply) not in acked:  # not the same move sent again and acknowledged
            out[f"answered {status} but stored"] += 1
            out["answered 5xx but stored"] += status[0] == "5"
    return dict(out)


def summary(log: Log) -> None:
    by_phase: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for phase, _t, _p, _m, status in log.posts:
        by_phase[phase][status] += 1
    for phase, counts in by_phase.items():
        print(f"  moves {phase:>8}: {dict(counts)}")
    for (phase, what), counts in sorted(log.probes.items()):
        print(f"  {what:>8} {phase:>8}: {dict(counts)}")


def load(base: str, tables: int) -> tuple[list[tuple[str, dict[str, str]]], str, str]:
    """Human tables, an all-bot table and a clocked table whose one human never moves."""
    humans = [new_table(base, {"game": "caravan", "seats": ["Ann", "Bob"]}) for _ in range(tables - 1)]
    humans.append(new_table(base, {"game": "daifugo", "seats": ["A", "B", "C", "D"], "rounds": 100}))
    bots, _ = new_table(base, {"game": "daifugo", "seats": ["A", "B", "C", "D"], "rounds": 100,
                               "bots": {n: "random" for n in "ABCD"}})
    clocked, _ = new_table(base, {"game": "daifugo", "seats": ["A", "B", "C", "D"], "rounds": 100,
                                  "bots": {n: "random" for n in "BCD"}, "clock": {"move_seconds": 0.2}})
    return humans, bots, clocked


def run_outage(repo: Path, db: str, outage, tables: int, after: float) -> None:
    """Play, do ``outage()`` (it returns when the database is back), play ``after`` seconds."""
    server = Serve(repo, db)
    log, stop = Log(), threading.Event()
    try:
        humans, bots, clocked = load(server.url, tables)
        threads = [threading.Thread(target=player, args=(server.url, t, toks, log, stop), daemon=True)
                   for t, toks in humans]
        threads.append(threading.Thread(target=prober, args=(server.url, bots, log, stop), daemon=True))
        for t in threads:
            t.start()
        time.sleep(2)
        log.phase = "during"
        outage()
        log.back = time.monotonic()
        plies = {name: ply_of(server.url, t) for name, t in (("bots", bots), ("clocked", clocked))}
        log.phase = "after"
        time.sleep(after)
        late = {name: ply_of(server.url, t) for name, t in (("bots", bots), ("clocked", clocked))}
        stop.set()
        for t in threads:
            t.join(15)
        summary(log)
        print(f"  plies right after the outage {plies}, {after:.0f} s later {late}")
        print(f"  from the database's return to the first 2xx: {log.recovery()}")
        fives = sum(1 for _t, _w, s in log.timeline if s[0] == "5")
        print(f"  5xx answers in all: {fives} (moves {sum(1 for p in log.posts if p[4][0] == '5')})")
        print(f"  reconciled with the database: {reconcile(log, stored_moves(db))}")
    finally:
        stop.set()
        server.stop()


def scenario_pg(repo: Path, outage: float, tables: int, after: float) -> None:
    print(f"\nPostgreSQL stopped for {outage} s under load ({tables} tables), then {after:.0f} s more:")
    local = LocalPostgres()
    url = local.start()
    try:
        import psycopg

        name = "faults_" + str(os.getpid())
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        db = url.rsplit("/", 1)[0] + "/" + name

        def outage_() -> None:
            local.halt()
            time.sleep(outage)
            local.resume()

        run_outage(repo, db, outage_, tables, after)
    finally:
        local.stop()


def scenario_disk(repo: Path, tables: int, seconds: float, free_kib: int) -> None:
    print(f"\nSQLite on a 16 MiB tmpfs filled to {free_kib} KiB free for {seconds:.0f} s, then freed "
          f"({tables} tables):")
    mount = Path(tempfile.mkdtemp(prefix="pitboss-full-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)], check=True)
    try:
        db = str(mount / "pitboss.db")
        filler = mount / "filler"

        def outage_() -> None:
            free = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
            with open(filler, "wb") as f:
                with contextlib.suppress(OSError):
                    f.write(b"\0" * max(0, free - free_kib * 1024))
            time.sleep(seconds)
            filler.unlink()

        run_outage(repo, db, outage_, tables, seconds)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


INPUTS = [
    ("POST", "/v1/tables", {"game": "caravan", "seats": ["\udc00", "Bob"]}),
    ("GET", "/v1/tables", None),
    ("GET", "/", None),
    ("POST", "/v1/tables", "DEEP"),
    ("POST", "/v1/solve", "DEEP"),
    ("GET", "/v1/tables?cursor=" + "W" + "9" * 400, None),
    ("GET", "/v1/tables?cursor=CURSOR400", None),
    ("GET", "/v1/tables?cursor=CURSORDEEP", None),
    ("POST", "/v1/tables", {"game": "\udc00", "seats": ["A", "B"]}),
    ("POST", "/v1/tables", {"game": "caravan", "seats": ["A", "B"], "bots": {"\udc00": "random"}}),
    ("POST", "/v1/solve", {"record": "\udc00", "question": "reach"}),
    ("POST", "/v1/tables", {"game": "caravan", "seats": ["Ann\n[Result \"1-0\"]", "Bob"]}),
    ("POST", "/v1/tables", {"game": "caravan", "seats": []}),
    ("DELETE", "/v1/tables", None),
    ("POST", "/v1/annotate?explain_all=null", "TEXT"),
    ("GET", "/v1/tables/ID/events", None),
]


def _cursor(text: str) -> str:
    import base64

    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def scenario_inputs(repo: Path) -> None:
    print("\nHostile input, one request each (status, and what it left behind):")
    folder = tempfile.mkdtemp(prefix="pitboss-inputs-")
    server = Serve(repo, str(Path(folder) / "p.db"))
    try:
        table, tokens = new_table(server.url, {"game": "caravan", "seats": ["Ann", "Bob"]})
        deep = "[" * 5000 + "]" * 5000
        for method, path, body in INPUTS:
            path = path.replace("CURSOR400", _cursor(f'[{"9" * 400}, "x"]')).replace(
                "CURSORDEEP", _cursor("[" * 3000 + "]" * 3000)).replace("ID", table)
            kwargs: dict = {}
            if body == "DEEP":
                kwargs["content"] = deep
            elif body == "TEXT":
                kwargs["content"] = "[Game \"Caravan\"]\n\n1. 7H>A *\n"
            elif body is not None:
                kwargs["content"] = json.dumps(body)
            status, r = _status(lambda: httpx.request(method, server.url + path, timeout=30, **kwargs))
            extra = ""
            if r is not None and status == "405":
                extra = f" Allow: {r.headers.get('allow')}"
            if r is not None and status == "201":
                doc = r.json()
                rec = httpx.get(f"{server.url}/v1/tables/{doc['id']}/record", timeout=10)
                injected = "[Result \"1-0\"]" in rec.text
                extra = f" record {rec.status_code}" + (" holds an injected Result tag" if injected else "")
            print(f"  {method:6} {path[:60]!s:60} {str(body)[:40]!s:40} -> {status}{extra}")
        for path in ("/v1/tables", "/"):
            print(f"  then GET {path}: {_status(lambda: httpx.get(server.url + path, timeout=10))[0]}")
    finally:
        server.stop()


def scenario_race(repo: Path, tables: int) -> None:
    print(f"\nNaive clients (move with the ply of the view read right after the last answer), {tables} tables:")
    folder = tempfile.mkdtemp(prefix="pitboss-race-")
    server = Serve(repo, str(Path(folder) / "p.db"))
    counts: collections.Counter = collections.Counter()
    try:
        for i, options in enumerate(["", "exchange=choice"] * (tables // 2)):
            table, tokens = new_table(server.url, {"game": "daifugo", "seats": ["A", "B", "C", "D", "E"],
                                                   "rounds": 3, "seed": i, "options": options})
            with httpx.Client(base_url=server.url, timeout=10) as c:
                for _ in range(5000):
                    views = {n: c.get(f"/v1/tables/{table}/view", headers={"Authorization": f"Bearer {t}"}).json()
                             for n, t in tokens.items()}
                    if next(iter(views.values()))["status"] == "finished":
                        break
                    # every seat that may move sends its move from the view it read (a
                    # simultaneous exchange: all of them at once)
                    for name, mine in views.items():
                        if mine["legal"]:
                            r = c.post(f"/v1/tables/{table}/moves", json={"move": mine["legal"][0], "ply": mine["ply"]},
                                       headers={"Authorization": f"Bearer {tokens[name]}"})
                            counts[(options or "default", r.status_code)] += 1
        for key, n in sorted(counts.items()):
            print(f"  {key[0]:>16}: {n} answered {key[1]}")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=HERE, help="the checkout whose pitboss serve runs")
    parser.add_argument("--only", nargs="+", default=["pg", "disk", "inputs", "race"])
    parser.add_argument("--outage", type=float, default=0.8, help="seconds PostgreSQL is down")
    parser.add_argument("--after", type=float, default=13.0, help="seconds of play after the database is back")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--free-kib", type=int, default=0, help="what the full disk leaves free")
    args = parser.parse_args()
    repo = args.repo.resolve()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True)
    print(f"pitboss serve from {repo} ({commit.stdout.strip()})")
    if "pg" in args.only:
        scenario_pg(repo, args.outage, args.tables, args.after)
    if "disk" in args.only:
        scenario_disk(repo, args.tables, args.after, args.free_kib)
    if "inputs" in args.only:
        scenario_inputs(repo)
    if "race" in args.only:
        scenario_race(repo, 4)


if __name__ == "__main__":
    main()
