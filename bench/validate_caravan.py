"""Benchmark: how fast ``pitboss validate`` judges Caravan records, beside python-chess.

What it measures, in one run on this machine:

1. Pitboss: N self-play games (random legal play, decks known, both rule sets alternating)
   are written to a temporary CVN file; then the file is validated the way
   ``pitboss validate`` does it (streamed: split, parse with the Lark grammar, replay every
   move through the engine, check the result). Figures: records/s and moves/s, best of
   --repeat runs, wall clock (time.perf_counter), generation excluded.
2. python-chess: random legal chess games read back with ``chess.pgn.read_game``, which
   parses every SAN move and checks its legality (bench/harness.py). Figure:
   moves/s, best of --repeat.
3. The ratio of the two moves/s (target >= 1.0).
4. Memory: peak traced allocation (tracemalloc) while validating the first tenth of the
   file and while validating all of it: streaming keeps the two about equal.

Run: python bench/validate_caravan.py [--games 10000] [--repeat 3]
Needs the bench extra: pip install -e '.[bench]'
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from itertools import islice

from harness import (
    cache_file,
    chess_moves_per_second,
    common_options,
    machine,
    time_validation,
)

from referee.games.caravan.selfplay import caravan_games
from referee.jobs.validate import validate_file


def write_games(path: str, count: int, seed: int) -> int:
    moves = 0
    with open(path, "w", encoding="utf-8") as out:
        half = count // 2
        for rules, n, s in (("holotape", half, seed), ("fnv", count - half, seed + 1)):
            for game in caravan_games(n, s, rules, "random", draws=False):
                out.write(game.text())
                out.write("\n")
                moves += len(game.moves)
    return moves


def peak_memory(path: str, records: int | None) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    for _ in islice(validate_file(path), records):
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="Caravan self-play games to validate")
    common_options(parser)
    args = parser.parse_args()

    print(machine())
    path = str(cache_file(f"caravan-{args.games}-{args.seed}.cvn"))
    if os.path.exists(path):
        print(f"games: {path} (kept from an earlier run; delete it to generate anew)")
    else:
        t = time.perf_counter()
        total_moves = write_games(path + ".part", args.games, args.seed)
        os.replace(path + ".part", path)
        print(f"generated {args.games} Caravan games, {total_moves} moves, {os.path.getsize(path) / 1e6:.1f} MB "
              f"in {time.perf_counter() - t:.1f} s into {path} (not timed below)")
    seconds, records, moves, invalid = time_validation(path, args.repeat)
    if invalid:
        sys.exit(f"error: {invalid} self-play records were judged invalid")
    pitboss_rate = moves / seconds
    print(f"pitboss validate: {records} records, {moves} moves in {seconds:.2f} s (best of {args.repeat}): "
          f"{records / seconds:,.0f} records/s, {pitboss_rate:,.0f} moves/s")

    tenth = max(records // 10, 1)
    small, full = peak_memory(path, tenth), peak_memory(path, None)
    print(f"peak traced memory: {small / 1e6:.2f} MB for the first {tenth} records, "
          f"{full / 1e6:.2f} MB for all {records} (ratio {full / small:.2f}; flat = streaming)")

    chess_rate = chess_moves_per_second(args.chess_games, args.seed, args.chess_plies, args.repeat)
    print(f"ratio pitboss/python-chess moves/s: {pitboss_rate / chess_rate:.2f} (target >= 1.0)")


if __name__ == "__main__":
    main()
