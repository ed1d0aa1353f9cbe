"""``pitboss arena`` throughput: games per second with --concurrency 1 and 2 and on a
Dask LocalCluster of two workers, and where the CPU time goes: the arena itself (the
live match judging every move, the views, the protocol, the records, the journal, the
standings) against the bots (the built-in players' moves, the bots' own processes).

Every figure but games per second is CPU time (on a shared machine wall-clock time says
how busy the others were): each table's process time and its bots' (measured where the
table is played), and this process's (the scheduling, records and standings; with
--concurrency 1 the tables too). The load average before and after each run is printed:
games per second are only as good as the machine was idle.

Four fields: Caravan and Daifugo (tables of five, three rounds) between built-in random
players (the cheapest bots: what is left is the arena), Caravan between line-protocol bots
(the tests' bot, a Python process per seat: the protocol's cost), and Daifugo between
built-in searching players (the players' cost dominates).

    python bench/arena.py [--tables N] [--fields caravan-random,...]

``python bench/arena.py sprt [--seeds 6] [--elo 0,50]``: how many games ``--sprt 0 50`` (or
other bounds) takes to decide,
with and without ``--duplicate``, for each matchup over several seeds (Caravan two at a
table; Daifugo tables of three, a random player filling the third seat).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
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


def fields(tables: int) -> dict[str, Settings]:
    rnd = [parse(f"r{i}=bot:random") for i in range(5)]
    line = [parse(f"l{i}=stdio:{sys.executable} {BOT} --seed {i}") for i in range(2)]
    search = [parse(f"s{i}=bot:search") for i in range(5)]
    return {
        "caravan-random": Settings("caravan", rnd[:2], "holotape", games=tables),
        "daifugo-random": Settings("daifugo", rnd, "classic", rounds=3, games=tables),
        "caravan-stdio": Settings("caravan", line, "holotape", games=max(2, tables // 4)),
        "daifugo-search": Settings("daifugo", search, "classic", rounds=3, games=max(5, tables // 4)),
    }


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(name: str, settings: Settings, concurrency: int, dask: object = None) -> dict:
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as d:
        t0, c0 = time.perf_counter(), _own_cpu()
        doc = run(settings, Path(d) / "t", concurrency=concurrency, dask=dask, replays=False)
        wall, own = time.perf_counter() - t0, _own_cpu() - c0
        lines = [json.loads(x) for x in (Path(d) / "t" / "journal.jsonl").read_text().splitlines()]
    tables = sum(x["cpu"] for x in lines)
    players = sum(x["players_cpu"] for x in lines)
    processes = sum(x["processes_cpu"] for x in lines)
    # with --concurrency 1 the tables ran in this process: its CPU holds theirs
    orchestration = own - tables if concurrency == 1 and dask is None else own
    arena = tables - players + orchestration
    bots = players + processes
    return {"field": name, "run": "dask" if dask is not None else f"-j {concurrency}", "tables": len(lines),
            "games": doc["games"], "wall": wall, "games_per_s": doc["games"] / wall, "cpu": arena + bots,
            "cpu_ms_per_game": 1000 * (arena + bots) / doc["games"], "arena_cpu": arena, "bots_cpu": bots,
            "arena_share": arena / (arena + bots), "load": [load, os.getloadavg()[0]]}


MATCHUPS = {
    "caravan greedy-random": ("caravan", "holotape", ["a=bot:greedy", "b=bot:random"], None),
    "caravan search-greedy": ("caravan", "holotape", ["a=bot:search", "b=bot:greedy"], None),
    "daifugo greedy-random": ("daifugo", "classic", ["a=bot:greedy", "b=bot:random", "f=bot:random"], 3),
    "daifugo search-greedy": ("daifugo", "classic", ["a=bot:search", "b=bot:greedy", "f=bot:random"], 3),
    # two of a kind: H0 is true, and the cards decide everything
    "caravan random-random": ("caravan", "holotape", ["a=bot:random", "b=bot:random"], None),
    "daifugo random-random": ("daifugo", "classic", ["a=bot:random", "b=bot:random", "f=bot:random"], 3),
}


def sprt_counts(seeds: int, most: int, concurrency: int, names: list[str],
                elo: tuple[float, float] = (0.0, 50.0), permutations: str = "rotations") -> list[dict]:
    """Games to a decision of --sprt ELO0 ELO1, per matchup, seed and --duplicate."""
    rows = []
    for name in names:
        game, rules, specs, size = MATCHUPS[name]
        for duplicate in (False, True):
            for seed in range(1, seeds + 1):
                settings = Settings(game, [parse(e) for e in specs], rules, games=most, seed=seed, size=size,
                                    duplicate=duplicate, sprt=elo, permutations=permutations)
                with tempfile.TemporaryDirectory() as d:
                    doc = run(settings, Path(d) / "t", concurrency=concurrency, replays=False)
                s = doc["sprt"]
                rows.append({"matchup": name, "duplicate": duplicate, "seed": seed, "games": s["games"],
                             "samples": s["samples"], "accept": s["accept"], "llr": round(s["llr"], 2),
                             "score": _score(doc)})
                print(json.dumps(rows[-1]), flush=True)
    return rows


def _score(doc: dict) -> float | None:
    cross = doc["crosstable"]["a"]["b"]
    return None if cross["score"] is None else round(cross["score"], 3)


def sprt_main(args: argparse.Namespace) -> int:
    import statistics

    print(machine())
    names = args.matchups.split(",") if args.matchups else list(MATCHUPS)
    low, high = (float(v) for v in args.elo.split(","))
    print(f"--sprt {low:g} {high:g}, --permutations {args.permutations} with --duplicate")
    rows = sprt_counts(args.seeds, args.most, args.concurrency, names, (low, high), args.permutations)
    print(f"{'matchup':24} {'duplicate':>9} {'games to decide, by seed':>40} {'median':>7} {'mean':>7} {'verdicts':>9}")
    for name in names:
        for duplicate in (False, True):
            mine = [r for r in rows if r["matchup"] == name and r["duplicate"] == duplicate]
            games = [r["games"] for r in mine]
            verdicts = "".join((r["accept"] or "-")[-1] for r in mine)
            print(f"{name:24} {'yes' if duplicate else 'no':>9} {' '.join(map(str, games)):>40} "
                  f"{statistics.median(games):>7.0f} {statistics.fmean(games):>7.1f} {verdicts:>9}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", choices=("throughput", "sprt"), default="throughput")
    parser.add_argument("--tables", type=int, default=40, help="tables each random player sits at")
    parser.add_argument("--fields", default=None, help="comma-separated fields (default: all)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    parser.add_argument("--seeds", type=int, default=6, help="sprt: seeds per matchup and setting")
    parser.add_argument("--most", type=int, default=2000, help="sprt: tables each entrant sits at, at most")
    parser.add_argument("-j", "--concurrency", type=int, default=1, help="sprt: tables at once")
    parser.add_argument("--elo", default="0,50", help="sprt: ELO0,ELO1 (default 0,50)")
    parser.add_argument("--permutations", default="rotations", choices=("rotations", "all"),
                        help="sprt: a duplicate block's seat orders")
    parser.add_argument("--matchups", default=None, help=f"sprt: comma-separated, of {', '.join(MATCHUPS)}")
    args = parser.parse_args()
    if args.mode == "sprt":
        return sprt_main(args)
    print(machine())
    chosen = fields(args.tables)
    names = args.fields.split(",") if args.fields else list(chosen)
    rows = []
    for name in names:
        settings = chosen[name]
        # a first small run imports what the tables and the standings need (a cost paid
        # once per process, not per game)
        measure(name, dataclasses.replace(settings, games=2), 1)
        for concurrency in (1, 2):
            rows.append(measure(name, settings, concurrency))
        from distributed import Client

        with local_cluster(2) as cluster, Client(cluster) as client:
            rows.append(measure(name, settings, 2, dask=client))
    print(f"{'field':16} {'run':>5} {'tables':>6} {'games':>6} {'wall s':>7} {'games/s':>8} {'CPU s':>7} "
          f"{'CPU ms/game':>11} {'arena':>6} {'bots':>6} {'load before/after':>17}")
    for r in rows:
        print(f"{r['field']:16} {r['run']:>5} {r['tables']:>6} {r['games']:>6} {r['wall']:>7.2f} "
              f"{r['games_per_s']:>8.1f} {r['cpu']:>7.2f} {r['cpu_ms_per_game']:>11.1f} "
              f"{100 * r['arena_share']:>5.0f}% {100 * (1 - r['arena_share']):>5.0f}% "
              f"{r['load'][0]:>8.1f}/{r['load'][1]:.1f}")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
