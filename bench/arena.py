"""``pitboss arena`` throughput: games per second with --concurrency 1 and 2 and on a
Dask LocalCluster of two workers, and the share of a table's time spent in the arena
itself (the live match judging every move, the views, the records) against the time in
the bots (their think time).

Three fields: Caravan and Daifugo (tables of five, three rounds) between built-in random
players (the cheapest bots: what is left is the arena), and Caravan between line-protocol
bots (the tests' bot, a Python process per seat: the protocol's cost, process starts
included in the arena's share).

    python bench/arena.py [--tables N]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import ROOT, local_cluster, machine  # noqa: E402

sys.path.insert(0, str(ROOT))
from referee.arena.entrants import parse  # noqa: E402
from referee.arena.main import run  # noqa: E402
from referee.arena.tournament import Settings  # noqa: E402

BOT = ROOT / "tests" / "arena" / "linebot.py"


def fields(tables: int) -> list[tuple[str, Settings]]:
    rnd = [parse(f"r{i}=bot:random") for i in range(5)]
    line = [parse(f"l{i}=stdio:{sys.executable} {BOT} --seed {i}") for i in range(2)]
    return [
        ("caravan, bot:random", Settings("caravan", rnd[:2], "holotape", games=tables)),
        ("daifugo, 5 x bot:random, 3 rounds", Settings("daifugo", rnd, "seed", rounds=3, games=tables)),
        ("caravan, 2 x stdio", Settings("caravan", line, "holotape", games=max(2, tables // 4))),
    ]


def measure(name: str, settings: Settings, concurrency: int, dask: object = None) -> dict:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        doc = run(settings, Path(d) / "t", concurrency=concurrency, dask=dask, replays=False)
        wall = time.perf_counter() - t0
        lines = [json.loads(x) for x in (Path(d) / "t" / "journal.jsonl").read_text().splitlines()]
    table_wall = sum(x["wall"] for x in lines)
    think = sum(sum(t) for x in lines for t in x["think"])
    return {"field": name, "concurrency": "dask" if dask is not None else concurrency, "tables": len(lines),
            "games": doc["games"], "seconds": wall, "games_per_s": doc["games"] / wall,
            "arena_share": 1 - think / table_wall if table_wall else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="tables each random player sits at")
    args = parser.parse_args()
    print(machine())
    rows = []
    for name, settings in fields(args.tables):
        for concurrency in (1, 2):
            rows.append(measure(name, settings, concurrency))
        from distributed import Client

        with local_cluster(2) as cluster, Client(cluster) as client:
            rows.append(measure(name, settings, 2, dask=client))
    print(f"{'field':36} {'run':>6} {'tables':>6} {'games':>6} {'s':>7} {'games/s':>8} {'arena share':>11}")
    for r in rows:
        share = "-" if r["arena_share"] is None else f"{100 * r['arena_share']:.0f} %"
        print(f"{r['field']:36} {str(r['concurrency']):>6} {r['tables']:>6} {r['games']:>6} {r['seconds']:>7.2f} "
              f"{r['games_per_s']:>8.1f} {share:>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
