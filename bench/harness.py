"""What the validation benchmarks share: timing ``pitboss validate`` on a file, the
yardstick (python-chess reading PGN), and the cache of generated inputs.

The yardstick: random legal chess games (uniform random moves until the game ends or
``max_plies``) are written as PGN; ``chess.pgn.read_game`` then reads them back, which
parses every SAN move and checks its legality. The figure is moves/s, best of ``repeat``
runs.
"""

from __future__ import annotations

import io
import os
import random
import sys
import time
from pathlib import Path


def time_validation(path: str, repeat: int) -> tuple[float, int, int, int]:
    """Best wall-clock time of ``repeat`` validations of a file, streamed as ``pitboss
    validate`` does, with the records, moves and invalid records counted."""
    from referee.jobs.validate import validate_file

    best = float("inf")
    records = moves = invalid = 0
    for _ in range(repeat):
        start = time.perf_counter()
        records = moves = invalid = 0
        for report in validate_file(path):
            records += 1
            moves += report.plies
            invalid += not report.valid
        best = min(best, time.perf_counter() - start)
    return best, records, moves, invalid


def random_pgn(count: int, seed: int, max_plies: int) -> str:
    import chess
    import chess.pgn

    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        while not board.is_game_over() and board.ply() < max_plies:
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
        game.headers["Result"] = board.result(claim_draw=False) if board.is_game_over() else "*"
        games.append(str(game))
    return "\n\n".join(games) + "\n"


def read_pgn(text: str, repeat: int) -> tuple[float, int, int]:
    """Best time of ``repeat`` reads of all games, with the games and moves read."""
    import chess.pgn

    best = float("inf")
    games = moves = 0
    for _ in range(repeat):
        start = time.perf_counter()
        games = moves = 0
        handle = io.StringIO(text)
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            if game.errors:
                raise SystemExit(f"python-chess found errors in its own game: {game.errors}")
            games += 1
            moves += sum(1 for _ in game.mainline_moves())
        best = min(best, time.perf_counter() - start)
    return best, games, moves


def chess_moves_per_second(games: int, seed: int, max_plies: int, repeat: int) -> float:
    """Generate, read, print the figure and return it."""
    try:
        import chess  # noqa: F401
    except ImportError:
        sys.exit("python-chess is missing: pip install -e '.[bench]'")
    seconds, read, moves = read_pgn(random_pgn(games, seed, max_plies), repeat)
    rate = moves / seconds
    print(f"python-chess read_game: {read} random games, {moves} moves in {seconds:.2f} s "
          f"(best of {repeat}): {rate:,.0f} moves/s")
    return rate


def common_options(parser) -> None:
    """The options every validation benchmark takes: the yardstick's size, repeats, seed."""
    parser.add_argument("--chess-games", type=int, default=1_000, help="random chess games for python-chess")
    parser.add_argument("--chess-plies", type=int, default=300, help="longest random chess game, in plies")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is reported")
    parser.add_argument("--seed", type=int, default=2026)


def machine() -> str:
    import platform

    return f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def cache_file(name: str) -> Path:
    """Where generated inputs are kept between runs (PITBOSS_BENCH_CACHE, or ~/.cache)."""
    root = Path(os.environ.get("PITBOSS_BENCH_CACHE", Path.home() / ".cache" / "pitboss-bench"))
    root.mkdir(parents=True, exist_ok=True)
    return root / name
