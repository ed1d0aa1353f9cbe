"""Benchmark: how fast ``pitboss validate`` judges records on one core, beside
python-chess and pgn-extract on the same number of moves.

For each game (Caravan: self-play games, both rule sets, decks known; Daifugo: 5-player
self-play matches, the seed and uecda presets) an input is generated once (cached) and a
random chess PGN with the same number of moves is written beside it. Then, round by
round, each of the three reads its input, one after the other:

- Pitboss: the file validated as ``pitboss validate --jobs 1`` does it (streamed: split,
  parse with the Lark grammars, replay every move through the engine, check the result),
  in this process;
- python-chess: ``chess.pgn.read_game`` on every game (parses each SAN move, checks its
  legality), in this process;
- pgn-extract (C, Debian's package): ``pgn-extract -r`` (checks every move, writes
  nothing), a child process: its CPU time is the child's.

Each is timed in CPU time (and wall time, printed beside it); the ratios are taken within
each round, so the load of a shared machine cancels out. Printed: moves/s (median of the
rounds, CPU and wall), and min/median/max of the per-round ratios Pitboss/python-chess and
Pitboss/pgn-extract. Daifugo's moves count every action (plays, passes, exchanges); its
card plays alone are printed too.

Run: python bench/validate.py [--games caravan,daifugo] [--rounds 5] [--caravan 2000] [--daifugo 300]
Needs the bench extra: pip install -e '.[bench]'
"""

from __future__ import annotations

import argparse
import sys

from harness import (
    Series,
    cached,
    chess_available,
    machine,
    pgn_extract,
    read_pgn,
    run_pgn_extract,
    timed,
    validate_in_process,
    write_caravan,
    write_daifugo,
    write_pgn,
)


def inputs(game: str, args) -> tuple[str, dict]:
    if game == "caravan":
        return cached(f"caravan-{args.caravan}-{args.seed}.cvn", lambda p: write_caravan(p, args.caravan, args.seed))
    return cached(f"daifugo-{args.daifugo}-{args.rounds_per_match}-{args.seed}.dfn",
                  lambda p: write_daifugo(p, args.daifugo, args.seed, args.rounds_per_match))


def bench_game(game: str, args, extract: str | None) -> dict:
    print(f"\n{game.capitalize()}:")
    path, counts = inputs(game, args)
    moves = counts["moves"]
    pgn, pgn_counts = cached(f"chess-{moves}-{args.seed}.pgn", lambda p: write_pgn(p, moves, args.seed))
    cpu = {k: Series(k) for k in ("pitboss", "chess", "extract")}
    wall = {k: Series(k) for k in ("pitboss", "chess", "extract")}
    vs_chess, vs_extract = Series("vs python-chess"), Series("vs pgn-extract")
    for n in range(1, args.rounds + 1):
        t, (records, validated, invalid) = timed(lambda: validate_in_process(path))
        if invalid:
            sys.exit(f"error: {invalid} self-play records were judged invalid")
        if validated != moves:
            sys.exit(f"error: validated {validated} moves, the input holds {moves}")
        cpu["pitboss"].add(moves / t.cpu)
        wall["pitboss"].add(moves / t.wall)
        t, read = timed(lambda: read_pgn(pgn))
        assert read == pgn_counts["moves"]
        cpu["chess"].add(read / t.cpu)
        wall["chess"].add(read / t.wall)
        vs_chess.add(cpu["pitboss"].values[-1] / cpu["chess"].values[-1])
        line = (f"  round {n}: pitboss {cpu['pitboss'].values[-1]:,.0f} moves/s CPU, "
                f"python-chess {cpu['chess'].values[-1]:,.0f}")
        if extract:
            t = run_pgn_extract(extract, pgn)
            cpu["extract"].add(read / t.cpu)
            wall["extract"].add(read / t.wall)
            vs_extract.add(cpu["pitboss"].values[-1] / cpu["extract"].values[-1])
            line += f", pgn-extract {cpu['extract'].values[-1]:,.0f}"
        print(line)
    print(f"  pitboss validate: {records} records, {moves:,} moves"
          + (f" ({counts['plays']:,} card plays)" if game == "daifugo" else "")
          + f": {cpu['pitboss'].median:,.0f} moves/s CPU, {wall['pitboss'].median:,.0f} moves/s wall (medians)")
    if game == "daifugo":
        plays = counts["plays"] / moves
        print(f"    card plays only: {cpu['pitboss'].median * plays:,.0f} plays/s CPU")
    print(f"  python-chess read_game: {pgn_counts['records']} random games, {pgn_counts['moves']:,} moves: "
          f"{cpu['chess'].median:,.0f} moves/s CPU, {wall['chess'].median:,.0f} wall")
    if extract:
        print(f"  pgn-extract -r: the same games: {cpu['extract'].median:,.0f} moves/s CPU (child), "
              f"{wall['extract'].median:,.0f} wall")
    print(f"  ratio pitboss/python-chess, per round (CPU): {vs_chess.spread()}")
    if extract:
        print(f"  ratio pitboss/pgn-extract, per round (CPU): {vs_extract.spread('{:.3f}')}")
    return {"moves_per_s": cpu["pitboss"].median, "vs_chess": vs_chess.median,
            "vs_extract": vs_extract.median if extract else None}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="caravan,daifugo", help="which games, comma-separated")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (each runs all three once)")
    parser.add_argument("--caravan", type=int, default=2_000, help="Caravan self-play games")
    parser.add_argument("--daifugo", type=int, default=300, help="Daifugo self-play matches")
    parser.add_argument("--rounds-per-match", type=int, default=3, help="rounds per Daifugo match")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    print("== validate, one core, beside python-chess and pgn-extract (CPU time, per-round ratios)")
    print(machine())
    if not chess_available():
        sys.exit("python-chess is missing: pip install -e '.[bench]'")
    extract = pgn_extract()
    if extract is None:
        print("pgn-extract: not installed here (Debian: apt-get install pgn-extract); its column is left out")
    else:
        print(f"pgn-extract: {extract}")
    # the compiled grammars are loaded once, before the first timed round
    from referee.jobs import registry
    from referee.jobs.validate import validate_text

    for g in registry.games():
        validate_text(f'[Game "{g.title}"]\n*\n')
    return {game: bench_game(game, args, extract) for game in args.games.split(",")}


if __name__ == "__main__":
    main()
