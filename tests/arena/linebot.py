"""A line-protocol bot for the arena's tests (docs/arena.md): it answers hello with
ready, then plays a random legal move from each view (seeded by --seed and the table's
hello), and with --hang-at N sleeps for ever on its Nth move, with --exit-at N exits
there, with --garbage-at N / --illegal-at N answers garbage or an illegal move there
(each only in the first start of the bot at a table)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    for flag in ("--seed", "--hang-at", "--exit-at", "--garbage-at", "--illegal-at"):
        parser.add_argument(flag, type=int, default=0)
    parser.add_argument("--name", default="linebot")
    args = parser.parse_args()
    hello = json.loads(sys.stdin.readline())
    assert hello["type"] == "hello" and hello["protocol"] == 1, hello
    first = hello["restart"] == 0
    rng = random.Random(f"{args.seed}/{hello['seed']}/{hello['restart']}")
    print(json.dumps({"type": "ready", "name": args.name, "protocol": 1}), flush=True)
    moves = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "end":
            return 0
        assert message["type"] == "view" and message["legal"], message
        moves += 1
        if first and moves == args.hang_at:
            parent = os.getppid()
            while os.getppid() == parent:  # for ever, unless the arena itself is gone
                time.sleep(0.2)
            return 4
        if first and moves == args.exit_at:
            return 3
        if first and moves == args.garbage_at:
            print("\x00\x01 not a move", flush=True)
            continue
        if first and moves == args.illegal_at:
            print(message["legal"][0].split(":")[0] + ": 3S 3S 3S 3S 3S" if ":" in message["legal"][0]
                  else "KS>A9", flush=True)
            continue
        print(rng.choice(message["legal"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
