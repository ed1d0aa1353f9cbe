"""Benchmark: every core and a cluster.

1. ``pitboss validate -q --jobs 1`` against ``--jobs 2`` (the command itself, as a user
   runs it) on the Caravan and Daifugo benchmark inputs together, alternating round by
   round; the figure is wall time (what more cores buy), with the CPU time of the
   command and its workers beside it. Printed: moves/s for each and the per-round
   speed-up (min/median/max). On a machine other sessions are loading the speed-up is
   bounded by the cores left idle: the load average is printed with the machine line.
   Then the same on inputs ``--large`` times as large (generated once, cached): the
   command's start-up, the same for one process and two, weighs a tenth there less.
2. The same inputs cut into files, validated on a ``dask.distributed`` LocalCluster of
   one worker process and of two (one thread each, on loopback), alternating round by
   round after a warm-up run each: games/s and the per-round speed-up.

Run: python bench/parallel.py [--rounds 3] [--caravan 2000] [--daifugo 300] [--files 8] [--large 4]
"""

from __future__ import annotations

import argparse
import sys
import time

from harness import (
    Series,
    all_valid,
    cache_file,
    cached,
    local_cluster,
    machine,
    pitboss_argv,
    run_child,
    timed,
    write_caravan,
    write_daifugo,
)

from referee.jobs.validate import split
from referee.notation.records import open_text


def bench_inputs(args) -> tuple[list[str], int, int]:
    cv, cv_counts = cached(f"caravan-{args.caravan}-{args.seed}.cvn",
                           lambda p: write_caravan(p, args.caravan, args.seed))
    df, df_counts = cached(f"daifugo-{args.daifugo}-3-{args.seed}.dfn",
                           lambda p: write_daifugo(p, args.daifugo, args.seed, 3))
    return [cv, df], cv_counts["records"] + df_counts["records"], cv_counts["moves"] + df_counts["moves"]


def split_into(paths: list[str], parts: int) -> list[str]:
    """The records of the files dealt into ``parts`` files per input, in order (cached)."""
    out = []
    for path in paths:
        suffix = path.rsplit(".", 1)[1]
        names = [cache_file(f"{path.rsplit('/', 1)[1]}.part{i + 1}of{parts}.{suffix}") for i in range(parts)]
        if not all(n.exists() for n in names):
            with open_text(path) as handle:
                chunks = [c.text for c in split(handle)]
            per = -(-len(chunks) // parts)
            for i, name in enumerate(names):
                name.write_text("".join(chunks[i * per:(i + 1) * per]), encoding="utf-8")
        out.extend(str(n) for n in names)
    return out


def bench_jobs(files: list[str], records: int, moves: int, rounds: int, estimate: bool = True) -> float:
    print(f"\n--jobs 1 vs --jobs 2: pitboss validate -q of {records} records, {moves:,} moves "
          f"(the two inputs above), wall time")
    walls = {1: Series("1"), 2: Series("2")}
    cpus = {1: Series("1"), 2: Series("2")}
    speedup = Series("speed-up")
    for n in range(1, rounds + 1):
        for jobs in (1, 2):
            t, done = run_child(pitboss_argv("validate", "-q", "--jobs", str(jobs), *files))
            if not all_valid(done, records):
                sys.exit(f"error: validate --jobs {jobs} said {done.stdout[-200:]!r} {done.stderr[-300:]!r}")
            walls[jobs].add(t.wall)
            cpus[jobs].add(t.cpu)
        speedup.add(walls[1].values[-1] / walls[2].values[-1])
        print(f"  round {n}: --jobs 1 {walls[1].values[-1]:.2f} s ({cpus[1].values[-1]:.2f} s CPU), "
              f"--jobs 2 {walls[2].values[-1]:.2f} s ({cpus[2].values[-1]:.2f} s CPU): {speedup.values[-1]:.2f}x")
    for jobs in (1, 2):
        print(f"  --jobs {jobs}: {moves / walls[jobs].median:,.0f} moves/s wall, "
              f"{records / walls[jobs].median:,.0f} records/s (median {walls[jobs].median:.2f} s; "
              f"CPU {cpus[jobs].median:.2f} s)")
    print(f"  speed-up --jobs 2 over --jobs 1, per round (wall): {speedup.spread()}")
    if estimate:
        idle = idle_core_estimate(files, rounds)
        print(f"  on two idle cores (from each process's CPU time, in this process): {idle.spread()}x "
              f"(--jobs 1's CPU time over the busier of the parent and the workers' average)")
    if _autogroup():
        print("  (this kernel shares the CPU between sessions, not processes (sched_autogroup): while other "
              "sessions keep the cores busy, more processes in one session get no more CPU, and the wall "
              "speed-up says only how busy the machine was)")
    return speedup.median


def _autogroup() -> bool:
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as f:
            return f.read().strip() == "1"
    except OSError:
        return False


def idle_core_estimate(files: list[str], rounds: int) -> Series:
    """What --jobs 2 would take on two cores of its own: the same validation in this
    process, the parent's CPU time and the workers' (summed over them, split evenly: the
    batches are handed out as workers free up), against --jobs 1's CPU time, per round."""
    import multiprocessing
    import resource

    from referee.jobs.parallel import validate_paths

    def workers_cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    ratio = Series("idle")
    sum(1 for _ in validate_paths(files, jobs=1))  # warm-up: parsers and modules loaded
    for _ in range(rounds):
        one, _ = timed(lambda: sum(1 for _ in validate_paths(files, jobs=1)))
        before = workers_cpu()
        two, _ = timed(lambda: sum(1 for _ in validate_paths(files, jobs=2)))
        for child in multiprocessing.active_children():  # reaped, so their CPU time is counted
            child.join()
        workers = workers_cpu() - before
        ratio.add(one.cpu / max(two.cpu, workers / 2))
    return ratio


def bench_dask(files: list[str], records: int, rounds: int) -> float | None:
    try:
        from distributed import Client
    except ImportError:
        print("\nDask: dask.distributed is not installed (pip install -e '.[dask]'): skipped")
        return None
    from referee.jobs.cluster import validate_on_dask

    print(f"\nDask LocalCluster, 1 worker vs 2 workers (processes, 1 thread each, loopback): "
          f"{len(files)} files, {records} records, wall time")
    clusters = {w: local_cluster(w) for w in (1, 2)}
    clients = {w: Client(c) for w, c in clusters.items()}
    try:
        def run(w: int) -> float:
            start = time.perf_counter()
            seen = sum(1 for r in validate_on_dask(clients[w], files) if r.valid)
            if seen != records:
                sys.exit(f"error: the cluster judged {seen} of {records} records valid")
            return time.perf_counter() - start

        for w in (1, 2):
            run(w)  # warm-up: the workers import Pitboss on their first file
        rates = {1: Series("1"), 2: Series("2")}
        speedup = Series("speed-up")
        for n in range(1, rounds + 1):
            for w in (1, 2):
                rates[w].add(records / run(w))
            speedup.add(rates[2].values[-1] / rates[1].values[-1])
            print(f"  round {n}: 1 worker {rates[1].values[-1]:,.0f} games/s, 2 workers "
                  f"{rates[2].values[-1]:,.0f} games/s: {speedup.values[-1]:.2f}x")
        for w in (1, 2):
            print(f"  {w} worker{'s' * (w > 1)}: {rates[w].median:,.0f} games/s (median)")
        print(f"  speed-up 2 workers over 1, per round: {speedup.spread()}")
        return speedup.median
    finally:
        import logging

        logging.getLogger("distributed").setLevel(logging.ERROR)  # closing talks at INFO otherwise
        for w in (1, 2):
            clients[w].close()
            clusters[w].close()


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--caravan", type=int, default=2_000, help="Caravan self-play games")
    parser.add_argument("--daifugo", type=int, default=300, help="Daifugo self-play matches (3 rounds)")
    parser.add_argument("--files", type=int, default=8, help="files per input for the cluster")
    parser.add_argument("--large", type=int, default=4,
                        help="--jobs 1 vs 2 again on inputs this many times as large (1: not)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    print("== every core (--jobs) and a cluster (--dask)")
    print(machine())
    files, records, moves = bench_inputs(args)
    jobs = bench_jobs(files, records, moves, args.rounds)
    large = None
    if args.large > 1:
        # The command's own start (0.2-0.3 s, the same with one process or two) is a tenth
        # of the run above; on inputs a few times larger what more cores buy shows plainly.
        big = argparse.Namespace(**{**vars(args), "caravan": args.caravan * args.large,
                                    "daifugo": args.daifugo * args.large})
        big_files, big_records, big_moves = bench_inputs(big)
        print(f"\n(the same on inputs {args.large}x as large)", end="")
        large = bench_jobs(big_files, big_records, big_moves, args.rounds, estimate=False)
    dask = bench_dask(split_into(files, args.files), records, args.rounds)
    return {"jobs_speedup": jobs, "jobs_speedup_large": large, "dask_speedup": dask}


if __name__ == "__main__":
    main()
