"""Benchmark: a contest season, ``pitboss validate`` of 10^5 generated contest games.

The season: ``--games`` games played at UEC contest tables by self-play
(``pitboss selfplay daifugo -r uecda --format uecda-log``: the contest server's seed seats,
deals and chains the games, random players submit), written as the contest server's logs,
``--per-log`` games per log (the server's GAME_NUMBER; 1000 is its default), each log a
file of its own. They are generated once by the parallel self-play (``--jobs`` processes;
the same logs for any number), and cached (PITBOSS_BENCH_CACHE); the generation's wall
time and the CPU time of its processes are printed (and remembered beside the cache, so a
later run shows them). ``--generate-only`` stops there (to time the generation alone).

Then ``pitboss validate -q --jobs N`` (the command, as a user runs it; a contest log is one
unit: its games are chained) validates a tenth of the logs and then all of them, expecting
every game valid: wall time, the CPU time of the command and its workers, and the peak
resident memory of the largest of those processes (ru_maxrss). Printed: games/s,
moves/s, and the extrapolation to 10^6 games (time from the measured rate; memory stays
what it is, validation streams).

Run: python bench/season.py [--games 100000] [--per-log 1000] [--revision 2018] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from harness import all_valid, cache_file, machine, pitboss_argv, run_child

from referee.jobs.parallel import available_cores


def season(games: int, per_log: int, revision: str, seed: int, jobs: int) -> tuple[list[str], list[dict]]:
    folder = cache_file(f"season-logs-{games}-{per_log}-{revision}-{seed}")
    folder.mkdir(exist_ok=True)
    logs = -(-games // per_log)
    paths = [str(folder / f"table{i + 1:04}.log") for i in range(logs)]
    meta = folder / "generated.json"
    if meta.exists() and all(os.path.exists(p) and os.path.exists(p + ".json") for p in paths):
        print(f"  season: {folder} (kept from an earlier run; delete it to generate anew)")
        print_generation(json.loads(meta.read_text()), "it was generated")
    else:
        print(f"  generating {logs} contest logs ({per_log} games each, revision {revision}) with "
              f"pitboss's parallel self-play on {jobs} processes into {folder}...", flush=True)
        record = generate(paths, games, per_log, revision, seed, jobs)
        meta.write_text(json.dumps(record))
        print_generation(record, "generated")
    return paths, [json.loads(Path(p + ".json").read_text()) for p in paths]


def generate(paths: list[str], games: int, per_log: int, revision: str, seed: int, jobs: int) -> dict:
    """The logs, as ``pitboss selfplay daifugo -r uecda --format uecda-log --rounds PER_LOG
    --jobs JOBS`` makes them (log ``i`` from the seed and ``i`` alone; a last, shorter log
    is log number ``len(paths) - 1`` of its own size), each with its counts beside it:
    wall time, the CPU time of this process and its workers."""
    from harness import cpu_with_workers

    from referee.jobs import registry
    from referee.jobs.selfplay import produce_game

    daifugo = registry.game("daifugo")
    full, rest = divmod(games, per_log)
    parts = [(0, full, per_log)] + ([(full, 1, rest)] if rest else [])
    c0, w0 = cpu_with_workers(), time.perf_counter()
    made = 0
    for start, count, size in parts:
        for log in produce_game(daifugo, count, seed, "uecda", jobs, start, format="uecda-log", rounds=size,
                                revision=revision):
            path = paths[log.index]
            with open(path + ".part", "w", encoding="latin-1", newline="\n") as out:
                out.write(log.text)
            os.replace(path + ".part", path)
            Path(path + ".json").write_text(json.dumps(log.counts))
            made += log.counts["games"]
            if sys.stderr.isatty():
                sys.stderr.write(f"\r  {log.index + 1}/{len(paths)} logs\x1b[K")
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    return {"logs": len(paths), "games": made, "wall": time.perf_counter() - w0, "cpu": cpu_with_workers() - c0,
            "jobs": jobs}


def print_generation(record: dict, verb: str) -> None:
    games, wall, cpu = record["games"], record["wall"], record["cpu"]
    print(f"  {verb}: {record['logs']} logs, {games:,} games in {wall:.1f} s wall on {record['jobs']} processes, "
          f"{cpu:.1f} s CPU: {games / wall:,.0f} games/s wall, {games / cpu:,.0f} games/s per core (CPU); "
          f"10^6 games: about {cpu * 1e6 / games / 60:.0f} CPU minutes")


def run(paths: list[str], counts: list[dict], jobs: int) -> dict:
    games = sum(c["games"] for c in counts)
    moves = sum(c["moves"] for c in counts)
    t, done = run_child(pitboss_argv("validate", "-q", "--jobs", str(jobs), *paths))
    if not all_valid(done, games):
        sys.exit(f"error: validate said {done.stdout[-300:]!r} {done.stderr[-300:]!r}")
    peak = t.peak_mb
    print(f"  {len(paths)} logs, {games:,} games, {moves:,} moves: {t.wall:.1f} s wall, {t.cpu:.1f} s CPU, "
          f"{games / t.wall:,.0f} games/s, {moves / t.wall:,.0f} moves/s (wall), {games / t.cpu:,.0f} games/s "
          f"per core (CPU); peak memory {peak:.0f} MB (largest process)")
    return {"games": games, "moves": moves, "wall": t.wall, "cpu": t.cpu, "peak_mb": peak}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="contest games in the season")
    parser.add_argument("--per-log", type=int, default=1000, help="games per contest log (GAME_NUMBER)")
    parser.add_argument("--revision", default="2018", choices=("2018", "later"), help="the contest server's")
    parser.add_argument("--jobs", type=int, default=available_cores(),
                        help="processes generating, and validate --jobs")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--generate-only", action="store_true", help="make (or find) the season, validate nothing")
    args = parser.parse_args(argv)
    print(f"== a season: pitboss validate -q --jobs {args.jobs} of {args.games:,} self-played contest games "
          f"(UEC contest-server logs, revision {args.revision})")
    print(machine())
    paths, counts = season(args.games, args.per_log, args.revision, args.seed, args.jobs)
    if args.generate_only:
        return {}
    tenth = max(len(paths) // 10, 1)
    small = run(paths[:tenth], counts[:tenth], args.jobs)
    full = run(paths, counts, args.jobs)
    scale = 1_000_000 / full["games"]
    print(f"  a tenth took {small['wall']:.1f} s, the whole {full['wall']:.1f} s "
          f"({full['wall'] / small['wall']:.1f}x for {full['games'] / small['games']:.1f}x the games); "
          f"peak memory {small['peak_mb']:.0f} MB then {full['peak_mb']:.0f} MB (flat: streamed)")
    print(f"  extrapolated to 10^6 games: {full['wall'] * scale / 60:.0f} min wall on this machine with "
          f"--jobs {args.jobs} ({full['cpu'] * scale / 3600:.1f} CPU hours; on a Dask cluster of k such cores "
          f"about {full['cpu'] * scale / 60:.0f}/k min), memory as above")
    return {"small": small, "full": full}


if __name__ == "__main__":
    main()
