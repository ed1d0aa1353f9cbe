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
import os
import subprocess
import sys
import tempfile

from harness import ROOT, Series, machine, pitboss_argv, run_child

COMMANDS = {
    "python3 -c pass": [sys.executable, "-c", "pass"],
    "pitboss --help": pitboss_argv("--help"),
    "pitboss validate examples/caravan.cvn": pitboss_argv("validate", str(ROOT / "examples" / "caravan.cvn")),
}


def compiled_hook_cost(rounds: int) -> dict[str, float]:
    """What ``import referee`` spends on the compiled engines' hook (the ``referee.compiled``
    package and its loader) when nothing is built: their cumulative import time, in ms."""
    out = {}
    with tempfile.TemporaryDirectory() as empty:
        for label, bytecode in (("pyc", ""), ("source", "1")):
            env = {**os.environ, "PITBOSS_CACHE_DIR": empty, "PITBOSS_COMPILED": ""}
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env.pop("PYTHONPYCACHEPREFIX", None)
            if bytecode:  # no .pyc read or written: every module compiled from its source
                env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONPYCACHEPREFIX=os.path.join(empty, "no-pyc"))
            series = Series(label)
            for _ in range(rounds + 1):
                done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import referee"], cwd=ROOT, env=env,
                                      capture_output=True, text=True)
                # the loader's cumulative time holds its package's (imported on the way)
                times = [int(line.split("|")[1]) for line in done.stderr.splitlines()
                         if line.split("|")[-1].strip() == "referee.compiled.loader"]
                series.add(sum(times) / 1000)
            series.values.pop(0)  # the first run writes the .pyc files
            out[label] = series.median
    return out


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
    hook = compiled_hook_cost(args.rounds)
    print(f"  the compiled engines' import hook with nothing built (referee.compiled, imported by referee/__init__.py; "
          f"python -X importtime, median of {args.rounds}): {hook['pyc']:.2f} ms from .pyc, {hook['source']:.2f} ms "
          f"compiled from source (PYTHONDONTWRITEBYTECODE=1, nothing cached)")
    figures["compiled_hook_ms"] = hook
    print("  (a start is one process on one core: on an idle machine its wall time is its CPU time;"
          " on a loaded one the wall time is mostly waiting for a core)")
    return figures


if __name__ == "__main__":
    main()
