"""Benchmark: how long the command takes to start, beside ``python3 -c pass``.

Each of the three commands runs ``--rounds`` times, interleaved (one of each per round),
as a child process; wall time (what a script calling pitboss per file waits) and the
child's CPU time. Printed: the median of each and how far the pitboss commands stand
from ``python3 -c pass`` in the same run. The validated file is small
(examples/caravan.cvn). Targets (issue 11): --help within 0.15 s of python3 -c pass,
validate of a small file within 0.35 s.

The first run after an install or a grammar change builds the parsers once into the
cache (see referee/notation/grammar.py); one warm-up run of each is not counted.

Run: python bench/startup.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import sys

from harness import ROOT, Series, machine, pitboss_argv, run_child

COMMANDS = {
    "python3 -c pass": [sys.executable, "-c", "pass"],
    "pitboss --help": pitboss_argv("--help"),
    "pitboss validate examples/caravan.cvn": pitboss_argv("validate", str(ROOT / "examples" / "caravan.cvn")),
}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args(argv)
    print("== start-up time (wall, per run; child CPU beside it)")
    print(machine())
    for argv_ in COMMANDS.values():  # warm-up: the parser cache and the page cache
        run_child(argv_)
    wall = {k: Series(k) for k in COMMANDS}
    cpu = {k: Series(k) for k in COMMANDS}
    for _ in range(args.rounds):
        for name, argv_ in COMMANDS.items():
            t, done = run_child(argv_)
            if done.returncode != 0:
                sys.exit(f"error: {name} exited {done.returncode}: {done.stderr[-300:]!r}")
            wall[name].add(t.wall)
            cpu[name].add(t.cpu)
    base = wall["python3 -c pass"].median
    for name in COMMANDS:
        extra = "" if name.startswith("python3") else f"  (+{wall[name].median - base:.3f} s over python3 -c pass)"
        print(f"  {name:<40} {wall[name].median:.3f} s wall, {cpu[name].median:.3f} s CPU{extra}")
    figures = {}
    for clock, series in (("wall", wall), ("CPU", cpu)):
        help_over = series["pitboss --help"].median - series["python3 -c pass"].median
        small = series["pitboss validate examples/caravan.cvn"].median
        print(f"  targets ({clock}): --help within 0.15 s of python3 -c pass: +{help_over:.3f} s "
              f"{'met' if help_over <= 0.15 else 'NOT met'}; validate within 0.35 s: {small:.3f} s "
              f"{'met' if small <= 0.35 else 'NOT met'}")
        figures[clock] = {"help_over": help_over, "validate": small}
    print("  (a start is one process on one core: on an idle machine its wall time is its CPU time;"
          " on a loaded one the wall time is mostly waiting for a core)")
    return figures


if __name__ == "__main__":
    main()
