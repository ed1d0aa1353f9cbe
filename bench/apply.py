"""Benchmark: the Daifugo engine's ``apply`` replaying recorded rounds, one table after
another (as ``validate`` reads a file) against interleaved (one move of each table in
turn, as the live service serves many tables at once).

The rounds are generated once (random players, the seed and uecda presets alternating,
5 players; the moves kept, not timed); each replay applies every recorded move from its
round's first state. Timed in CPU time (``process_time``), per round of the benchmark
both orders, alternating which goes first; printed: us per apply (medians) and the
interleaved/sequential ratio per round (min/median/max). The two orders apply the same
moves to the same states, so the ratio is the price of switching tables.

Run: python bench/apply.py [--rounds 5] [--tables 40] [--seed 7] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from harness import machine  # first: it sets the engines' mode (pure Python unless PITBOSS_COMPILED says)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.games.daifugo import engine as D  # noqa: E402
from referee.games.daifugo.selfplay import NAMES, deal  # noqa: E402


def record(tables: int, seed: int) -> list[tuple[object, list[object]]]:
    """``tables`` rounds: each its first state and its moves."""
    rng = random.Random(seed)
    out = []
    for t in range(tables):
        rules = D.ruleset("classic" if t % 2 == 0 else "uecda", {})
        seats = tuple(range(5))
        hands = deal(rng, rules, 5, list(range(5)))
        state = first = D.new_round(rules, hands, seats, None, 1, NAMES[:5])
        moves = []
        while not state.over:
            move = D.random_move(state, rng, 0.25)
            moves.append(move)
            state = D.apply(state, move)
        out.append((first, moves))
    return out


def sequential(rounds: list[tuple[object, list[object]]]) -> int:
    apply = D.apply
    count = 0
    for first, moves in rounds:
        state = first
        for move in moves:
            state = apply(state, move)
        count += len(moves)
    return count


def interleaved(rounds: list[tuple[object, list[object]]]) -> int:
    apply = D.apply
    states = [first for first, _ in rounds]
    longest = max(len(moves) for _, moves in rounds)
    count = 0
    for i in range(longest):
        for t, (_, moves) in enumerate(rounds):
            if i < len(moves):
                states[t] = apply(states[t], moves[i])
                count += 1
    return count


def timed(work, rounds, repeat: int) -> float:
    """CPU seconds per apply over ``repeat`` replays."""
    start = time.process_time()
    count = 0
    for _ in range(repeat):
        count += work(rounds)
    return (time.process_time() - start) / count


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5, help="replays of every table per timing")
    args = parser.parse_args(argv)
    rounds = record(args.tables, args.seed)
    moves = sum(len(m) for _, m in rounds)
    sequential(rounds)  # warm the engine's caches alike for both
    seq: list[float] = []
    inter: list[float] = []
    for r in range(args.rounds):
        order = [(sequential, seq), (interleaved, inter)]
        for work, into in (order if r % 2 == 0 else order[::-1]):
            into.append(timed(work, rounds, args.repeat))
    ratios = sorted(i / s for i, s in zip(inter, seq))
    result = {"tables": args.tables, "moves": moves,
              "sequential_us": statistics.median(seq) * 1e6, "interleaved_us": statistics.median(inter) * 1e6,
              "ratio": (ratios[0], statistics.median(ratios), ratios[-1])}
    print("== daifugo apply: replayed tables one after another vs interleaved")
    print(machine())
    print(f"daifugo apply, {args.tables} tables, {moves} moves, x{args.repeat}, {args.rounds} rounds, CPU time:")
    print(f"  sequential   {result['sequential_us']:.2f} us/apply")
    print(f"  interleaved  {result['interleaved_us']:.2f} us/apply")
    print("  interleaved/sequential per round: min %.2f  median %.2f  max %.2f" % result["ratio"])
    return result


if __name__ == "__main__":
    main()
