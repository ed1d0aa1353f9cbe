"""What the benchmarks share: CPU-time clocks, rounds run side by side, the yardsticks
(python-chess and pgn-extract reading the same number of chess moves), and the cache of
generated inputs.

On a shared machine wall-clock figures taken minutes apart mean little (the load of the
moment decides them), so every comparison here is made round by round: in each round
Pitboss and each yardstick run one after the other on the same number of moves, each
timed in CPU time (the child's CPU time for pgn-extract, a separate process), and the
ratio is taken within the round. Printed: the median moves/s of each, and the
min/median/max of the per-round ratios.
"""

from __future__ import annotations

import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: The benchmarks measure the engines as written (pure Python), whatever the compiled-engines
#: cache holds (README "Compiled engines"), unless PITBOSS_COMPILED is set: children inherit it.
os.environ.setdefault("PITBOSS_COMPILED", "0")


# ------------------------------------------------------------------ clocks


@dataclass
class Timing:
    cpu: float
    wall: float
    #: Peak resident memory (MB) of the largest process of a child run (the child or
    #: one of its waited-for workers); None for work done in this process.
    peak_mb: float | None = None


def timed(work: Callable[[], object]) -> tuple[Timing, object]:
    """Run ``work`` in this process: its CPU time (this process only) and wall time."""
    c0, w0 = time.process_time(), time.perf_counter()
    result = work()
    return Timing(time.process_time() - c0, time.perf_counter() - w0), result


def run_child(argv: list[str], **kwargs) -> tuple[Timing, subprocess.CompletedProcess]:
    """Run a command: the CPU time it and its waited-for children used (from wait4, so
    exactly this run's), wall time, and peak memory."""
    kwargs.setdefault("cwd", ROOT)  # python -m cli: this checkout's
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        w0 = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, **kwargs)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - w0
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        done = subprocess.CompletedProcess(argv, child.returncode, out.read(), err.read())
    return Timing(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024), done


def pitboss_argv(*args: str) -> list[str]:
    """The pitboss command of this checkout (not whatever `pitboss` is on PATH)."""
    return [sys.executable, "-m", "cli", *args]


# ------------------------------------------------------------------ statistics


@dataclass
class Series:
    name: str
    values: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.values.append(value)

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def spread(self, fmt: str = "{:.2f}") -> str:
        v = self.values
        return f"min {fmt.format(min(v))}, median {fmt.format(statistics.median(v))}, max {fmt.format(max(v))}"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def machine() -> str:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        cores = os.cpu_count() or 1
    try:
        load = " load average %.1f %.1f %.1f," % os.getloadavg()
    except OSError:  # pragma: no cover
        load = ""
    engines = {"0": "pure Python"}.get(os.environ["PITBOSS_COMPILED"],
                                       f"PITBOSS_COMPILED={os.environ['PITBOSS_COMPILED']}")
    return (f"machine: {platform.machine()}, {cores} cores,{load} Python {platform.python_version()} "
            f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}); engines: {engines}")


# ------------------------------------------------------------------ the cache of inputs


def cache_file(name: str) -> Path:
    """Where generated inputs are kept between runs (PITBOSS_BENCH_CACHE, or ~/.cache)."""
    root = Path(os.environ.get("PITBOSS_BENCH_CACHE", Path.home() / ".cache" / "pitboss-bench"))
    root.mkdir(parents=True, exist_ok=True)
    return root / name


def cached(name: str, make: Callable[[str], dict]) -> tuple[str, dict]:
    """A generated input and its counts (a JSON file beside it), made once: ``make``
    writes the file at the path it is given and returns the counts."""
    path = cache_file(name)
    counts_path = path.with_name(path.name + ".json")
    if path.exists() and counts_path.exists():
        counts = json.loads(counts_path.read_text())
        print(f"  input: {path} (kept from an earlier run; delete it to generate anew)")
        return str(path), counts
    part = str(path) + ".part"
    c0, w0 = cpu_with_workers(), time.perf_counter()
    counts = make(part)
    os.replace(part, path)
    counts_path.write_text(json.dumps(counts))
    by = f", by pitboss's self-play on {counts['jobs']} processes" if "jobs" in counts else ""
    print(f"  input: generated {path} ({os.path.getsize(path) / 1e6:.1f} MB) in "
          f"{time.perf_counter() - w0:.1f} s wall, {cpu_with_workers() - c0:.1f} s CPU (this process and its "
          f"workers){by} (not timed below)")
    return str(path), counts


def cpu_with_workers() -> float:
    """CPU time of this process and of its children that ended (the self-play's workers
    are waited for when it finishes)."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def generation_jobs() -> int:
    """How many processes generate inputs: PITBOSS_BENCH_JOBS, else every core available."""
    from referee.jobs.parallel import available_cores

    return int(os.environ.get("PITBOSS_BENCH_JOBS") or available_cores())


# ------------------------------------------------------------------ generated records


def write_caravan(path: str, games: int, seed: int, jobs: int | None = None) -> dict:
    """Self-play Caravan games, both rule sets alternating halves, random players, made
    by ``pitboss selfplay``'s parallel self-play on ``jobs`` processes (the same games
    for any number)."""
    from referee.jobs import registry
    from referee.jobs.selfplay import produce_game

    jobs = jobs or generation_jobs()
    moves = 0
    with open(path, "w", encoding="utf-8") as out:
        half = games // 2
        for rules, n, s in (("holotape", half, seed), ("fnv", games - half, seed + 1)):
            for made in produce_game(registry.game("caravan"), n, s, rules, jobs, player="random", draws=False):
                out.write(made.text)
                out.write("\n")
                moves += made.counts["moves"]
    return {"records": games, "moves": moves, "plays": moves, "jobs": jobs}


def write_daifugo(path: str, matches: int, seed: int, rounds: int = 3, players: int = 5,
                  jobs: int | None = None) -> dict:
    """Self-play Daifugo matches, the two presets alternating halves, made on ``jobs``
    processes as ``write_caravan``."""
    from referee.jobs import registry
    from referee.jobs.selfplay import produce_game

    jobs = jobs or generation_jobs()
    moves = plays = 0
    with open(path, "w", encoding="utf-8") as out:
        half = matches // 2
        for rules, n, s in (("classic", half, seed), ("uecda", matches - half, seed + 1)):
            for made in produce_game(registry.game("daifugo"), n, s, rules, jobs,
                                     players=5 if rules == "uecda" else players, options="", rounds=rounds):
                out.write(made.text)
                out.write("\n")
                moves += made.counts["moves"]
                plays += made.counts["plays"]
    return {"records": matches, "rounds": matches * rounds, "moves": moves, "plays": plays, "jobs": jobs}


# ------------------------------------------------------------------ the chess yardsticks


def write_pgn(path: str, moves: int, seed: int, max_plies: int = 300) -> dict:
    """Random legal chess games (uniform random moves until the game ends or max_plies)
    until they hold at least ``moves`` moves."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    total = games = 0
    with open(path, "w", encoding="utf-8") as out:
        while total < moves:
            board = chess.Board()
            game = chess.pgn.Game()
            node = game
            while not board.is_game_over() and board.ply() < max_plies and total < moves:
                move = rng.choice(list(board.legal_moves))
                node = node.add_variation(move)
                board.push(move)
                total += 1
            game.headers["Result"] = board.result(claim_draw=False) if board.is_game_over() else "*"
            out.write(str(game) + "\n\n")
            games += 1
    return {"records": games, "moves": total}


def chess_available() -> bool:
    try:
        import chess.pgn  # noqa: F401
    except ImportError:
        return False
    return True


def read_pgn(path: str) -> int:
    """python-chess reads every game (parsing each SAN move and checking its legality):
    the moves read."""
    import chess.pgn

    moves = 0
    with open(path, encoding="utf-8") as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                return moves
            if game.errors:
                raise SystemExit(f"python-chess found errors in its own game: {game.errors}")
            moves += sum(1 for _ in game.mainline_moves())


def pgn_extract() -> str | None:
    """Debian's pgn-extract (it installs into /usr/games, often not on PATH)."""
    return shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games:/usr/local/games")


def run_pgn_extract(binary: str, path: str) -> Timing:
    """pgn-extract checks every move of every game (-r: report errors, write nothing)."""
    timing, done = run_child([binary, "-r", "-s", path])
    if done.returncode != 0 or b"rror" in done.stderr:
        raise SystemExit(f"pgn-extract failed on its own input: {done.stderr[:300]!r}")
    return timing


def validate_in_process(path: str) -> tuple[int, int, int]:
    """``pitboss validate --jobs 1`` in this process (streamed, record by record):
    records, moves, invalid records."""
    from referee.jobs.parallel import validate_paths

    records = moves = invalid = 0
    for report, _ in validate_paths([path], jobs=1):
        records += 1
        moves += report.plies
        invalid += not report.valid
    return records, moves, invalid


def rate(count: float, seconds: float) -> str:
    return f"{count / max(seconds, 1e-9):,.0f}"


def local_cluster(workers: int):
    """A dask.distributed LocalCluster of worker processes (one thread each), every
    server on loopback, quiet."""
    import logging

    from distributed import LocalCluster

    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                        silence_logs=logging.ERROR)


def all_valid(done: subprocess.CompletedProcess, records: int) -> bool:
    """Did ``pitboss validate -q`` exit 0 and count exactly ``records`` records, all valid?"""
    m = re.search(rb"([\d,]+) games?: ([\d,]+) valid, ([\d,]+) invalid", done.stdout)
    if done.returncode != 0 or m is None:
        return False
    games, valid, invalid = (int(x.replace(b",", b"")) for x in m.groups())
    return games == valid == records and invalid == 0
