"""Benchmark: a contest season, ``pitboss validate`` of 10^5 generated contest games.

The season: ``--games`` games played at UEC contest tables by self-play
(``pitboss selfplay daifugo -r uecda --format uecda-log``: the contest server's seed seats,
deals and chains the games, random players submit), written as the contest server's logs,
``--per-log`` games per log (the server's GAME_NUMBER; 1000 is its default), each log a
file of its own. They are generated once, on every core (``--jobs`` processes, one log at a
time each), and cached (PITBOSS_BENCH_CACHE); the generation's wall time and the CPU time
of its processes are printed (and remembered beside the cache, so a later run shows them).

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
from multiprocessing import Pool
from pathlib import Path

from harness import all_valid, cache_file, machine, pitboss_argv, run_child


def make_log(job: tuple[str, int, int, str]) -> dict:
    """One contest log at ``path`` (``seed`` picks its RANDOM_SEED): its counts, and the
    CPU time it took this process."""
    path, games, seed, revision = job
    c0 = time.process_time()
    from referee.games.daifugo.selfplay import contest_logs

    (log,) = contest_logs(1, seed, "", games, revision)
    with open(path + ".part", "w", encoding="latin-1", newline="\n") as out:
        out.write(log.text())
    os.replace(path + ".part", path)
    counts = {"games": log.games, "moves": log.plies, "plays": log.plays, "random_seed": log.seed}
    Path(path + ".json").write_text(json.dumps(counts))
    return {**counts, "cpu": time.process_time() - c0}


def season(games: int, per_log: int, revision: str, seed: int, jobs: int) -> tuple[list[str], list[dict]]:
    folder = cache_file(f"season-logs-{games}-{per_log}-{revision}-{seed}")
    folder.mkdir(exist_ok=True)
    logs = -(-games // per_log)
    paths = [str(folder / f"table{i + 1:04}.log") for i in range(logs)]
    sizes = [min(per_log, games - i * per_log) for i in range(logs)]
    todo = [(p, n, seed * 100_000 + i, revision) for i, (p, n) in enumerate(zip(paths, sizes, strict=True))
            if not (os.path.exists(p) and os.path.exists(p + ".json"))]
    meta = folder / "generated.json"
    if todo:
        print(f"  generating {len(todo)} of {logs} contest logs ({per_log} games each, revision {revision}) "
              f"on {jobs} processes into {folder}...", flush=True)
        w0 = time.perf_counter()
        cpu = 0.0
        with Pool(jobs) as pool:
            for n, done in enumerate(pool.imap_unordered(make_log, todo), 1):
                cpu += done["cpu"]
                if sys.stderr.isatty():
                    sys.stderr.write(f"\r  {n}/{len(todo)} logs\x1b[K")
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
        wall = time.perf_counter() - w0
        made = sum(n for _, n, _, _ in todo)
        record = {"logs": len(todo), "games": made, "wall": wall, "cpu": cpu, "jobs": jobs}
        if len(todo) == logs:
            meta.write_text(json.dumps(record))
        print_generation(record, "generated")
    elif meta.exists():
        print(f"  season: {folder} (kept from an earlier run; delete it to generate anew)")
        print_generation(json.loads(meta.read_text()), "it was generated")
    else:
        print(f"  season: {folder} (kept from an earlier run)")
    return paths, [json.loads(Path(p + ".json").read_text()) for p in paths]


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
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes generating, and validate --jobs")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    print(f"== a season: pitboss validate -q --jobs {args.jobs} of {args.games:,} self-played contest games "
          f"(UEC contest-server logs, revision {args.revision})")
    print(machine())
    paths, counts = season(args.games, args.per_log, args.revision, args.seed, args.jobs)
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
