"""Schemathesis (``--checks all``) against a real ``pitboss serve`` on loopback, on a clean
database or while PostgreSQL goes away and comes back, and what the server answered:
requests, answers by status, 5xx by operation (read from schemathesis' HAR report), and
schemathesis' own verdict.

    python bench/schema_faults.py --max-time 300                     # SQLite, clean
    python bench/schema_faults.py --db pg --outage 2 --every 15      # PostgreSQL, stopped 2 s every 15 s
    python bench/schema_faults.py --repo ../other-checkout           # another version's server

schemathesis is not a dependency of Pitboss (``pip install schemathesis``); its settings are
``bench/schemathesis.toml``'s. While the database is out, 503 (with Retry-After) is the
documented answer; ``--outage`` adds 503 to the statuses positive data may be answered with,
so that what schemathesis reports is what else went wrong.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "bench"))
sys.path.insert(0, str(HERE / "tests" / "service"))
from faults import Serve  # noqa: E402
from pg import LocalPostgres  # noqa: E402


def _config(folder: Path, outage: bool) -> Path:
    """bench/schemathesis.toml, with 503 among the accepted answers during outages (and
    so not a server error: the 5xx that remain are the ones that should not be)."""
    text = (HERE / "bench" / "schemathesis.toml").read_text()
    if outage:
        text = text.replace('"429"]', '"429", "503"]')
        text += '\n[checks.not_a_server_error]\nexpected-statuses = ["2xx", "3xx", "4xx", "503"]\n'
    path = folder / "schemathesis.toml"
    path.write_text(text)
    return path


def _outages(local: LocalPostgres, seconds: float, every: float, stop: threading.Event, count: list[int]) -> None:
    while not stop.wait(every):
        local.halt()
        time.sleep(seconds)
        local.resume()
        count[0] += 1


def _tally(har: Path) -> None:
    entries = json.loads(har.read_text())["log"]["entries"]
    statuses: collections.Counter = collections.Counter()
    fives: collections.Counter = collections.Counter()
    bare = 0  # 503 answers without Retry-After
    for entry in entries:
        status = entry["response"]["status"]
        statuses[status] += 1
        if status == 503:
            bare += not any(h["name"].lower() == "retry-after" for h in entry["response"]["headers"])
        if 500 <= status < 600:
            path = entry["request"]["url"].split("127.0.0.1", 1)[-1].split("?")[0]
            fives[(entry["request"]["method"], status, path[:70])] += 1
    print(f"requests: {len(entries)}; by status: {dict(sorted(statuses.items()))}")
    print(f"5xx: {sum(fives.values())} (not 503: {sum(n for k, n in fives.items() if k[1] != 503)}; "
          f"503 without Retry-After: {bare})")
    for (method, status, path), n in fives.most_common(15):
        print(f"  {n:6} {status} {method} {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=HERE, help="the checkout whose pitboss serve runs")
    parser.add_argument("--db", choices=["sqlite", "pg"], default="sqlite")
    parser.add_argument("--max-time", type=int, default=300, help="schemathesis' time budget, seconds")
    parser.add_argument("--outage", type=float, default=0.0, help="seconds PostgreSQL is stopped each time")
    parser.add_argument("--every", type=float, default=15.0, help="seconds between outages")
    parser.add_argument("--workers", default="1")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.outage and args.db != "pg":
        parser.error("--outage stops PostgreSQL: use --db pg")
    schemathesis = shutil.which("schemathesis") or str(Path(sys.executable).parent / "schemathesis")
    folder = Path(tempfile.mkdtemp(prefix="pitboss-schema-"))
    local = None
    stop, count = threading.Event(), [0]
    try:
        if args.db == "pg":
            local = LocalPostgres()
            db = local.start()
        else:
            db = str(folder / "p.db")
        server = Serve(args.repo.resolve(), db)
        outages = None
        if args.outage:
            outages = threading.Thread(target=_outages, args=(local, args.outage, args.every, stop, count),
                                       daemon=True)
            outages.start()
        try:
            started = time.monotonic()
            done = subprocess.run(
                [schemathesis, "--config-file", str(_config(folder, bool(args.outage))), "run",
                 server.url + "/openapi.json", "--checks", "all", "--max-time", str(args.max_time),
                 "--workers", args.workers, "--seed", str(args.seed), "--report", "har",
                 "--report-har-path", str(folder / "run.har")],
                capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
            took = time.monotonic() - started
        finally:
            stop.set()
            if outages is not None:
                outages.join(60)
            alive = server.process.poll() is None
            server.stop()
        print(f"schemathesis --checks all, {args.db}"
              + (f", PostgreSQL stopped {args.outage} s every {args.every} s ({count[0]} times)" if args.outage
                 else ", clean") + f": {took:.0f} s, exit {done.returncode}, server alive at the end: {alive}")
        lines = [line for line in done.stdout.splitlines() if line.strip()]
        errors = next((i for i, line in enumerate(lines) if line.startswith("=") and "ERRORS" in line), len(lines))
        shown = lines[errors:errors + 12] + lines[-25:] if errors < len(lines) else lines[-25:]
        print("\n".join("  | " + line[:200] for line in dict.fromkeys(shown)))
        _tally(folder / "run.har")
    finally:
        if local is not None:
            local.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
