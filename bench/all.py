"""Every benchmark in one run, one after the other, each printing its figures:

1. startup.py   start-up time beside python3 -c pass (--help, validate of a small file);
2. validate.py  validate moves/s on one core for both games, CPU and wall, beside
                python-chess and pgn-extract on the same number of moves, per-round
                ratios in CPU time (min/median/max);
3. parallel.py  --jobs 1 vs --jobs 2, and a Dask LocalCluster of 1 and 2 workers;
4. selfplay.py  self-play moves/s per game, and apply.py: Daifugo's apply on tables
                replayed one after another vs interleaved;
5. solve.py     the forced-win search at depths 1-4, p50/p95/max, and Daifugo's forced
                out (--positions N adds the reach queries);
6. season.py    only with --season: validate of 10^5 generated contest games (the
                generation, once, takes a while; then cached).

Run: python bench/all.py [--quick] [--season]
"""

from __future__ import annotations

import argparse
import time

import apply
import parallel
import season
import selfplay
import solve
import startup
import validate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small inputs and few rounds (a smoke run)")
    parser.add_argument("--season", action="store_true", help="also the season benchmark")
    parser.add_argument("--positions", type=int, default=0, help="reach queries for solve.py (0: none)")
    args = parser.parse_args()
    quick = args.quick
    sizes = ["--caravan", "200", "--daifugo", "20"] if quick else []
    start = time.perf_counter()
    startup.main(["--rounds", "3" if quick else "10"])
    print()
    validate.main([*sizes, "--rounds", "2" if quick else "5"])
    print()
    parallel.main([*sizes, "--rounds", "1" if quick else "3", *(["--large", "1"] if quick else [])])
    print()
    selfplay.main(["--rounds", "1", "--jobs-caravan", "400", "--jobs-daifugo", "40"] if quick else [])
    print()
    apply.main(["--rounds", "2", "--tables", "20"] if quick else [])
    print()
    solve.main(["--positions", str(args.positions), "--wins", "4" if quick else "30",
                "--depths", "1,2" if quick else "1,2,3,4", "--outs", "4" if quick else "30"])
    if args.season:
        print()
        season.main(["--games", "1000", "--per-log", "100"] if quick else [])
    print(f"\nall benchmarks: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
