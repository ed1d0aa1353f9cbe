"""Benchmark: self-play, moves generated per second for each game, beside the baseline.

The baseline is commit 253a86c, the last commit before issue 13's work (its self-play
listed every legal move and wrote a message for every candidate it discarded). Its tree
is unpacked once (``git archive``, into the bench cache) and imported in a child process;
this checkout's self-play runs in a child process too, the same script, so the two are
timed alike. Round by round, each generates the same workload and writes it as text to
nowhere, as ``pitboss selfplay`` writes it:

- Caravan: ``--caravan`` games per round, random players, the holotape and fnv rule sets
  alternating;
- Daifugo: ``--daifugo`` 5-player matches of 3 rounds, the seed and uecda presets
  alternating.

Timed in CPU time (each child's own ``process_time`` around the generation, so start-up
and imports are left out; wall time beside it). The ratio now/baseline is taken within
each round, so the load of a shared machine cancels out; printed: moves/s (medians), and
min/median/max of the per-round ratios. The same seed gives different games in the two
trees (the players draw differently), so each side's moves are its own count.

``--compiled`` adds a third column: this checkout with the engines compiled by mypyc
(``python -m referee.compiled build``, the same source; built once into the per-user cache,
loaded only while the sources are unchanged) and run with ``PITBOSS_COMPILED=1``, so a
missing or stale build fails instead of measuring pure Python; the pure column runs with
``PITBOSS_COMPILED=0``. Printed beside the others: compiled/baseline and compiled/pure per
round.

Last, ``pitboss selfplay GAME --jobs 1`` against ``--jobs 2`` (the command, as a user runs
it, ``--jobs-caravan`` games / ``--jobs-daifugo`` matches, alternating round by round):
wall-clock moves/s, since the point is using both cores (CPU time of the command and its
workers beside it), the two outputs checked byte for byte the same.

Run: python bench/selfplay.py [--caravan 200] [--daifugo 20] [--rounds 3] [--no-baseline] [--compiled]
     [--jobs-caravan 2000] [--jobs-daifugo 200]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from harness import ROOT, Series, cache_file, machine, pitboss_argv, run_child

BASELINE = "253a86c"

#: The child: generate, time, print {"moves": ..., "cpu": ..., "wall": ...}. The baseline
#: and this checkout name their generators differently; both are asked the same thing.
CHILD = r"""
import json, os, sys, time
root, game, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, root)
import importlib
def compiled_check(engine):
    if os.environ.get("PITBOSS_COMPILED") == "1":
        from referee.compiled import loader
        assert loader.is_compiled(sys.modules[engine]), engine + " is not compiled"
def load(*names):
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError(names)
if game == "caravan":
    mod = load("referee.games.caravan.selfplay", "referee.jobs.caravan_selfplay")
    assert mod.__file__.startswith(root), mod.__file__
    compiled_check("referee.games.caravan.engine.play")
    def work():
        moves = 0
        half = count // 2
        for rules, n, s in (("holotape", half, seed), ("fnv", count - half, seed + 1)):
            for g in mod.caravan_games(n, s, rules, "random", draws=False):
                g.text()
                moves += len(g.moves)
        return moves
else:
    mod = load("referee.games.daifugo.selfplay", "referee.jobs.daifugo_selfplay")
    assert mod.__file__.startswith(root), mod.__file__
    compiled_check("referee.games.daifugo.engine.play")
    def work():
        moves = 0
        half = count // 2
        for rules, n, s in (("classic", half, seed), ("uecda", count - half, seed + 1)):
            for m in mod.daifugo_matches(n, s, 5, rules, "", 3):
                m.text()
                moves += m.plies
        return moves
c0, w0 = time.process_time(), time.perf_counter()
moves = work()
print(json.dumps({"moves": moves, "cpu": time.process_time() - c0, "wall": time.perf_counter() - w0}))
"""


def baseline_tree() -> Path | None:
    """The baseline's files, unpacked once from this repository's history (None when the
    checkout has no history to take them from)."""
    folder = cache_file(f"baseline-{BASELINE}")
    if (folder / "referee").is_dir():
        return folder
    with tempfile.TemporaryFile() as archive:
        done = subprocess.run(["git", "-C", str(ROOT), "archive", BASELINE], stdout=archive,
                              stderr=subprocess.PIPE)
        if done.returncode != 0:
            print(f"baseline {BASELINE}: not in this checkout's history ({done.stderr.decode().strip()})")
            return None
        archive.seek(0)
        part = folder.with_name(folder.name + ".part")
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(part, filter="data")
        part.rename(folder)
    return folder


def compiled_build() -> bool:
    """Build the compiled engines with the build command (nothing is done when the current
    build exists); False, said why, when it cannot be made."""
    done = subprocess.run([sys.executable, "-m", "referee.compiled", "build"], cwd=ROOT,
                          capture_output=True, text=True)
    for line in (done.stdout + done.stderr).strip().splitlines():
        print(f"compiled: {line}")
    return done.returncode == 0


def generate(root: Path, game: str, count: int, seed: int, compiled: bool = False) -> dict:
    env = {**os.environ, "PITBOSS_COMPILED": "1" if compiled else "0"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), game, str(count), str(seed)],
                          capture_output=True, text=True, cwd=root, env=env)
    if done.returncode != 0:
        sys.exit(f"error: self-play in {root} failed: {done.stderr[-600:]}")
    return json.loads(done.stdout.splitlines()[-1])


def command_jobs(name: str, count: int, seed: int, rounds: int) -> float:
    """``pitboss selfplay NAME -n COUNT`` with ``--jobs 1`` and ``--jobs 2``, alternating:
    the median per-round speed-up in wall time."""
    from referee.jobs import registry
    from referee.jobs.selfplay import produce_game

    moves = sum(made.counts["moves"] for made in produce_game(registry.game(name), count, seed))
    walls = {1: Series("1"), 2: Series("2")}
    speedup = Series("speed-up")
    print(f"  {name}: pitboss selfplay {name} -n {count} --jobs 1 vs --jobs 2, {moves:,} moves (WALL time: "
          f"the point is using both cores; CPU time of the command and its workers beside it)")
    for n in range(1, rounds + 1):
        outputs, line = {}, []
        for jobs in (1, 2):
            t, done = run_child(pitboss_argv("selfplay", name, "-n", str(count), "--seed", str(seed), "--jobs",
                                             str(jobs)))
            if done.returncode != 0:
                sys.exit(f"error: selfplay --jobs {jobs} failed: {done.stderr[-300:]!r}")
            outputs[jobs] = done.stdout
            walls[jobs].add(moves / t.wall)
            line.append(f"--jobs {jobs} {moves / t.wall:,.0f} moves/s wall ({t.wall:.2f} s, {t.cpu:.2f} s CPU)")
        if outputs[1] != outputs[2]:
            sys.exit(f"error: selfplay {name} wrote different output with --jobs 1 and --jobs 2")
        speedup.add(walls[2].values[-1] / walls[1].values[-1])
        print(f"    round {n}: {', '.join(line)}: {speedup.values[-1]:.2f}x (output identical)")
    print(f"  {name}: --jobs 1 {walls[1].median:,.0f}, --jobs 2 {walls[2].median:,.0f} moves/s wall (medians); "
          f"speed-up per round (wall): {speedup.spread('{:.2f}x')} (bounded by the cores other work leaves idle: "
          f"see the load average above)")
    return speedup.median


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--caravan", type=int, default=200, help="Caravan games per round")
    parser.add_argument("--daifugo", type=int, default=20, help="Daifugo matches per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-baseline", action="store_true", help=f"leave out the baseline ({BASELINE})")
    parser.add_argument("--jobs-caravan", type=int, default=2000, help="Caravan games for --jobs 1 vs 2 (0: not)")
    parser.add_argument("--jobs-daifugo", type=int, default=200, help="Daifugo matches for --jobs 1 vs 2 (0: not)")
    parser.add_argument("--compiled", action="store_true",
                        help="add the engines compiled by mypyc (python -m referee.compiled build)")
    args = parser.parse_args(argv)
    print(f"== self-play: moves generated per second (CPU time), beside the baseline {BASELINE}")
    print(machine())
    base = None if args.no_baseline else baseline_tree()
    compiled = args.compiled and compiled_build()
    out = {}
    for name, count, unit in (("caravan", args.caravan, "games"), ("daifugo", args.daifugo, "matches")):
        cpu, wall, base_cpu, ratio = Series("cpu"), Series("wall"), Series("baseline"), Series("ratio")
        comp_cpu, comp_ratio, comp_pure = Series("compiled"), Series("compiled ratio"), Series("compiled/pure")
        for n in range(args.rounds):
            seed = args.seed + n
            now = generate(ROOT, name, count, seed)
            cpu.add(now["moves"] / now["cpu"])
            wall.add(now["moves"] / now["wall"])
            line = f"  {name} round {n + 1}: {count} {unit}, {now['moves']:,} moves: {cpu.values[-1]:,.0f} moves/s CPU"
            if base is not None:
                then = generate(base, name, count, seed)
                base_cpu.add(then["moves"] / then["cpu"])
                ratio.add(cpu.values[-1] / base_cpu.values[-1])
                line += (f"; baseline {then['moves']:,} moves: {base_cpu.values[-1]:,.0f} moves/s CPU; "
                         f"ratio {ratio.values[-1]:.1f}x")
            if compiled:
                got = generate(ROOT, name, count, seed, compiled=True)
                comp_cpu.add(got["moves"] / got["cpu"])
                comp_pure.add(comp_cpu.values[-1] / cpu.values[-1])
                line += f"; compiled {comp_cpu.values[-1]:,.0f} moves/s CPU ({comp_pure.values[-1]:.2f}x pure"
                if base is not None:
                    comp_ratio.add(comp_cpu.values[-1] / base_cpu.values[-1])
                    line += f", {comp_ratio.values[-1]:.1f}x baseline"
                line += ")"
            print(line)
        print(f"  {name}: {cpu.median:,.0f} moves/s CPU, {wall.median:,.0f} moves/s wall (medians)")
        if base is not None:
            print(f"  {name}: baseline {BASELINE} {base_cpu.median:,.0f} moves/s CPU; "
                  f"now/baseline per round (CPU): {ratio.spread('{:.1f}x')}")
        if comp_cpu.values:
            print(f"  {name}: engine compiled by mypyc: {comp_cpu.median:,.0f} moves/s CPU; compiled/pure per round "
                  f"(CPU): {comp_pure.spread('{:.2f}x')}"
                  + (f"; compiled/baseline per round (CPU): {comp_ratio.spread('{:.1f}x')}"
                     if comp_ratio.values else ""))
            out[f"{name}_compiled"] = comp_cpu.median
        out[name] = cpu.median
        out[f"{name}_ratio"] = ratio.median if base is not None else None
    for name, count in (("caravan", args.jobs_caravan), ("daifugo", args.jobs_daifugo)):
        if count:
            out[f"{name}_jobs2_speedup"] = command_jobs(name, count, args.seed, args.rounds)
    return out


if __name__ == "__main__":
    main()
