"""Benchmark: how fast ``pitboss validate`` judges Daifugo records, beside python-chess.

What it measures, in one run on this machine:

1. Pitboss: N self-play 5-player matches (random legal play, --rounds rounds each, the two
   presets alternating: seed, and uecda with its contest options) are written as DFN to a
   cache file (generation is slow and not timed: kept between runs). The file is then
   validated the way ``pitboss validate`` does it (streamed: split, parse with the Lark
   grammar, check every deal and exchange, replay every move through the engine, check
   the finishing order). Figures: records/s, moves/s (every action: plays, passes,
   exchanges) and plays/s (card plays only), best of --repeat runs, wall clock.
2. python-chess reading random PGN games (bench/harness.py): moves/s.
3. The ratio of the two moves/s, and of plays/s to chess moves/s (target >= 1.0).

Run: python bench/validate_daifugo.py [--matches 10000] [--repeat 3]
Needs the bench extra: pip install -e '.[bench]'
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from harness import (
    cache_file,
    chess_moves_per_second,
    common_options,
    machine,
    time_validation,
)

from referee.games.daifugo import engine as df
from referee.games.daifugo.selfplay import daifugo_matches

PRESETS = (("seed", ""), ("uecda", ""))


def write_matches(path: str, count: int, seed: int, rounds: int) -> dict:
    moves = plays = 0
    with open(path, "w", encoding="utf-8") as out:
        half = count // 2
        for (rules, options), n, s in ((PRESETS[0], half, seed), (PRESETS[1], count - half, seed + 1)):
            for i, match in enumerate(daifugo_matches(n, s, 5, rules, options, rounds)):
                out.write(match.text())
                out.write("\n")
                moves += match.plies
                plays += sum(1 for _, round_moves in match.rounds for m in round_moves if isinstance(m, df.Play))
                if sys.stderr.isatty() and i % 100 == 0:
                    sys.stderr.write(f"\rgenerating {rules}: {i}/{n}\x1b[K")
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    return {"matches": count, "moves": moves, "plays": plays}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=10_000, help="5-player self-play matches to validate")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per match")
    common_options(parser)
    args = parser.parse_args()

    print(machine())
    path = str(cache_file(f"daifugo-{args.matches}-{args.rounds}-{args.seed}.dfn"))
    counts_path = path + ".json"
    if os.path.exists(path) and os.path.exists(counts_path):
        with open(counts_path, encoding="utf-8") as f:
            counts = json.load(f)
        print(f"matches: {path} (kept from an earlier run; delete it to generate anew)")
    else:
        t = time.perf_counter()
        counts = write_matches(path + ".part", args.matches, args.seed, args.rounds)
        os.replace(path + ".part", path)
        with open(counts_path, "w", encoding="utf-8") as f:
            json.dump(counts, f)
        print(f"generated {args.matches} matches ({args.rounds} rounds, 5 players), {counts['moves']} moves, "
              f"{os.path.getsize(path) / 1e6:.1f} MB in {time.perf_counter() - t:.1f} s into {path} (not timed)")

    seconds, records, moves, invalid = time_validation(path, args.repeat)
    if invalid:
        sys.exit(f"error: {invalid} self-play records were judged invalid")
    if moves != counts["moves"]:
        sys.exit(f"error: validated {moves} moves, the file holds {counts['moves']}")
    move_rate, play_rate = moves / seconds, counts["plays"] / seconds
    print(f"pitboss validate: {records} matches, {moves} moves ({counts['plays']} card plays) in {seconds:.2f} s "
          f"(best of {args.repeat}): {records / seconds:,.0f} matches/s, {move_rate:,.0f} moves/s, "
          f"{play_rate:,.0f} plays/s")

    chess_rate = chess_moves_per_second(args.chess_games, args.seed, args.chess_plies, args.repeat)
    print(f"ratio pitboss/python-chess moves/s: {move_rate / chess_rate:.2f} (target >= 1.0); "
          f"card plays only: {play_rate / chess_rate:.2f}")


if __name__ == "__main__":
    main()
