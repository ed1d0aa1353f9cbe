"""Benchmark: a contest season, ``pitboss validate`` of 10^5 generated contest games.

The season: ``--files`` files of 5-player Daifugo matches under the contest server's
rules (the ``uecda`` preset), ``--rounds`` games (rounds: one deal each, chained within
the match) per match, enough matches for ``--games`` games in all; generated once by
self-play on every core and cached (PITBOSS_BENCH_CACHE). The UEC contest-server log
writer is not in the repository yet, so the games are written as DFN matches: each
match, like a contest log, is judged as one chain of games.

Then ``pitboss validate -q --jobs N`` (the command, as a user runs it) validates a tenth
of the files and then all of them: wall time, the CPU time of the command and its
workers, and the peak resident memory of the largest of those processes (ru_maxrss).
Printed: games/s, moves/s, and the extrapolation to 10^6 games (time from the measured
rate; memory stays what it is, validation streams).

Run: python bench/season.py [--games 100000] [--files 100] [--rounds 5] [--jobs 2]
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


def make_file(job: tuple[str, int, int, int]) -> dict:
    path, matches, rounds, seed = job
    from referee.games.daifugo import engine as df
    from referee.games.daifugo.selfplay import daifugo_matches

    moves = plays = 0
    with open(path + ".part", "w", encoding="utf-8") as out:
        for match in daifugo_matches(matches, seed, 5, "uecda", "", rounds):
            out.write(match.text())
            out.write("\n")
            moves += match.plies
            plays += sum(1 for _, round_moves in match.rounds for m in round_moves if isinstance(m, df.Play))
    os.replace(path + ".part", path)
    counts = {"matches": matches, "games": matches * rounds, "moves": moves, "plays": plays}
    Path(path + ".json").write_text(json.dumps(counts))
    return counts


def season(games: int, files: int, rounds: int, seed: int, jobs: int, distinct: int) -> tuple[list[str], list[dict]]:
    folder = cache_file(f"season-{games}-{files}-{rounds}-{seed}")
    folder.mkdir(exist_ok=True)
    matches = -(-games // (files * rounds))
    made = [str(folder / f"day{i + 1:03}.dfn") for i in range(min(distinct, files))]
    paths = [made[i % len(made)] for i in range(files)]
    todo = [(p, matches, rounds, seed * 1000 + i) for i, p in enumerate(made)
            if not (os.path.exists(p) and os.path.exists(p + ".json"))]
    if todo:
        start = time.perf_counter()
        print(f"  generating {len(todo)} of {len(made)} files ({matches} matches x {rounds} games each) "
              f"on {jobs} processes into {folder} (not timed below)...", flush=True)
        with Pool(jobs) as pool:
            for n, _ in enumerate(pool.imap_unordered(make_file, todo), 1):
                if sys.stderr.isatty():
                    sys.stderr.write(f"\r  {n}/{len(todo)} files\x1b[K")
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
        print(f"  generated in {time.perf_counter() - start:.0f} s wall")
    else:
        print(f"  season: {folder} (kept from an earlier run; delete it to generate anew)")
    if len(made) < files:
        print(f"  {len(made)} distinct files, each validated {files / len(made):g} times over to make the season "
              f"(--distinct {len(made)}: generating all {files} takes longer than validating them)")
    return paths, [json.loads(Path(p + ".json").read_text()) for p in paths]


def run(paths: list[str], counts: list[dict], jobs: int) -> dict:
    games = sum(c["games"] for c in counts)
    moves = sum(c["moves"] for c in counts)
    records = sum(c["matches"] for c in counts)
    t, done = run_child(pitboss_argv("validate", "-q", "--jobs", str(jobs), *paths))
    if not all_valid(done, records):
        sys.exit(f"error: validate said {done.stdout[-300:]!r} {done.stderr[-300:]!r}")
    peak = t.peak_mb
    print(f"  {len(paths)} files, {records:,} matches, {games:,} games, {moves:,} moves: {t.wall:.1f} s wall, "
          f"{t.cpu:.1f} s CPU, {games / t.wall:,.0f} games/s, {moves / t.wall:,.0f} moves/s (wall); "
          f"peak memory {peak:.0f} MB (largest process)")
    return {"games": games, "moves": moves, "wall": t.wall, "cpu": t.cpu, "peak_mb": peak}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="contest games (rounds) in the season")
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5, help="games per match")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="validate --jobs")
    parser.add_argument("--distinct", type=int, default=None,
                        help="generate only this many distinct files and repeat them (default: all --files)")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    print(f"== a season: pitboss validate -q --jobs {args.jobs} of {args.games:,} generated contest games")
    print(machine())
    paths, counts = season(args.games, args.files, args.rounds, args.seed, args.jobs, args.distinct or args.files)
    tenth = max(len(paths) // 10, 1)  # (the first tenth: distinct files)
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
