"""Benchmark: self-play, moves generated per second for each game.

Caravan: random players, both rule sets alternating; Daifugo: 5-player matches of 3
rounds, the seed and uecda presets alternating. Each game's generator runs ``--rounds``
times in this process (the games built and written as text, as ``pitboss selfplay``
writes them, to nowhere); CPU and wall time; printed: the medians, and each round.

Run: python bench/selfplay.py [--caravan 200] [--daifugo 20] [--rounds 3]
"""

from __future__ import annotations

import argparse

from harness import Series, machine, timed


def caravan(count: int, seed: int) -> int:
    from referee.games.caravan.selfplay import caravan_games

    moves = 0
    half = count // 2
    for rules, n, s in (("holotape", half, seed), ("fnv", count - half, seed + 1)):
        for game in caravan_games(n, s, rules, "random", draws=False):
            game.text()
            moves += len(game.moves)
    return moves


def daifugo(count: int, seed: int) -> int:
    from referee.games.daifugo.selfplay import daifugo_matches

    moves = 0
    half = count // 2
    for rules, n, s in (("seed", half, seed), ("uecda", count - half, seed + 1)):
        for match in daifugo_matches(n, s, 5, rules, "", 3):
            match.text()
            moves += match.plies
    return moves


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--caravan", type=int, default=200, help="Caravan games per round")
    parser.add_argument("--daifugo", type=int, default=20, help="Daifugo matches per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    print("== self-play: moves generated per second")
    print(machine())
    out = {}
    for name, make, count, unit in (("caravan", caravan, args.caravan, "games"),
                                    ("daifugo", daifugo, args.daifugo, "matches")):
        cpu, wall = Series("cpu"), Series("wall")
        for n in range(args.rounds):
            t, moves = timed(lambda: make(count, args.seed + n))
            cpu.add(moves / t.cpu)
            wall.add(moves / t.wall)
            print(f"  {name} round {n + 1}: {count} {unit}, {moves:,} moves: {cpu.values[-1]:,.0f} moves/s CPU")
        print(f"  {name}: {cpu.median:,.0f} moves/s CPU, {wall.median:,.0f} moves/s wall (medians)")
        out[name] = cpu.median
    return out


if __name__ == "__main__":
    main()
