"""``pitboss arena GAME --entrant NAME=SPEC ...``: a tournament of bots, every move
refereed (:mod:`referee.arena`); or ``pitboss arena --resume DIR`` to finish one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from referee.arena.parts import playable
from referee.arena.schedule import MODES, PERMUTATIONS
from referee.arena.table import POLICIES
from referee.jobs import registry

from .base import Argument, Command, done, fail, integer, real
from .options import named_rule_set


def _games() -> list[str]:
    """The games the arena plays: those with built-in players and live tables."""
    return list(playable())


def _protocols() -> str:
    named = [f"{listener.name} ({game.title})" for game in registry.games() for listener in game.listeners
             if listener.held is not None]
    return ", ".join(named) or "none here"


def _examples() -> list[str]:
    """Command lines for the games the arena plays, from the registry."""
    out = []
    for name in _games():
        out.append(f"  pitboss arena {name} -e r=bot:random -e g=bot:greedy -e s=bot:search --games 40 --concurrency 2")
    first = next(iter(_games()), "GAME")
    out += [f"  pitboss arena {first} -e mine=stdio:'python3 bot.py' -e g=bot:greedy --sprt 0 50 --duplicate "
            "--json | jq .sprt",
            f"  pitboss arena {first} --positions FILE --duplicate -e ...   (every table from the file's deals)"]
    for game in registry.games():
        for listener in (found for found in game.listeners if found.held is not None):
            out.append(f"  pitboss arena {game.name} -e a={listener.name}:./client -e b={listener.name}:./client ... "
                       "(a table's worth or more)")
    out.append("  pitboss arena --resume arena-0          (after a crash or kill -9: the same standings)")
    return out


def help_text() -> str:
    return "\n".join([
        "Run a tournament of bots, every move refereed by the game's engine: standings with points",
        "per game and a rating (each with its 95 % interval), a head-to-head crosstable, think times",
        "and incidents; every game's record (valid under pitboss validate), a replay page for each,",
        "DIR/standings.json and DIR/report.html. docs/arena.md has the line protocol and the details.",
        "",
        "An entrant is NAME=SPEC: bot:STYLE (a built-in player: random, greedy, search),",
        "stdio:COMMAND (a program speaking the arena's line protocol: one JSON view in, one move out)",
        f"or PROTOCOL:COMMAND (a client of a protocol a game's listener speaks: {_protocols()};",
        "{host} and {port} in COMMAND are replaced, else -h HOST -p PORT is added).",
        "",
        "\b",
        "Examples:",
        *_examples(),
        "",
        "Exit status: 0 the tournament was played and every record is valid; 1 a record did not",
        "validate or a table could not be played (standings.json lists them); 2 could not run (bad",
        "option, unknown style or protocol, a folder that already holds a tournament).",
    ])


def params() -> list[click.Parameter]:
    return [
        Argument(["game"], required=False, type=click.Choice(_games(), case_sensitive=False),
                 help="The game (not with --resume)."),
        click.Option(["--entrant", "-e", "entrant_specs"], multiple=True, metavar="NAME=SPEC",
                     help="An entrant (repeat it): NAME=bot:STYLE, NAME=stdio:COMMAND or NAME=PROTOCOL:COMMAND."),
        click.Option(["--rules", "-r"], help="The rule set (default: the game's first)."),
        click.Option(["--options"], default="", show_default=False,
                     help="Option toggles on top of the rule set, as the Options tag writes them."),
        click.Option(["--games", "-n"], type=integer(min=1), default=10,
                     help="Tables each entrant sits at, at least (with --sprt: at most)."),
        click.Option(["--rounds"], type=integer(min=1), default=1,
                     help="Rounds per table in a game played in rounds (each round counts as a game); a protocol "
                          "table's games."),
        click.Option(["--gauntlet"], is_flag=True,
                     help="The first entrant against the others (default: a round robin)."),
        click.Option(["--table-size"], type=integer(min=2),
                     help="Seats per table where the rules allow several (default: five where allowed)."),
        click.Option(["--duplicate"], is_flag=True,
                     help="Replay each deal with the table's entrants permuted through the seats."),
        click.Option(["--permutations"], type=click.Choice(PERMUTATIONS), default="rotations",
                     help="With --duplicate: the seat orders each deal is replayed in."),
        click.Option(["--positions"], type=click.Path(dir_okay=False), metavar="FILE",
                     help="Start the tables from the positions in FILE, in turn: the decks or first deals of its "
                          "records, or the deals of a log the game reads (docs/arena.md)."),
        click.Option(["--seed"], type=integer(), default=0, help="Seeds the schedule and every deal."),
        click.Option(["--time-limit"], type=real(min=0.001), default=5.0, metavar="SECONDS",
                     help="Seconds a bot has for a move."),
        click.Option(["--game-time-limit"], type=real(min=0.001), metavar="SECONDS",
                     help="Seconds a bot has for all its moves at a table."),
        click.Option(["--on-incident"], type=click.Choice(POLICIES), default="pass",
                     help="A late, illegal, garbled or missing move: pass (what the rules make of a seat out of "
                          "time: a pass where the game has one, else a forfeit) or forfeit (the seat gives up)."),
        click.Option(["--sprt"], nargs=2, type=real(), metavar="ELO0 ELO1",
                     help="Test two entrants: stop once H0 (ELO0) or H1 (ELO1) is accepted (alpha = beta = 0.05; "
                          "with --duplicate, each block of tables on one deal is one sample)."),
        click.Option(["--concurrency"], type=integer(min=1), default=1, metavar="N",
                     help="Tables played at once (worker processes)."),
        click.Option(["--dask"], metavar="ADDRESS", help="Play the tables as tasks on this Dask scheduler."),
        click.Option(["--out"], type=click.Path(file_okay=False), metavar="DIR",
                     help="Where everything goes (default: arena-SEED)."),
        click.Option(["--resume"], type=click.Path(file_okay=False, exists=True), metavar="DIR",
                     help="Finish the tournament in DIR (its settings are DIR/arena.json)."),
        click.Option(["--no-replays"], is_flag=True, help="Write no replay page per game."),
        click.Option(["--json", "as_json"], is_flag=True,
                     help="Print standings.json (entrants, crosstable, sprt, incidents, tournament) instead of the "
                          "table."),
    ]


def arena(game: str | None, entrant_specs: tuple[str, ...], rules: str | None, options: str, games: int,
          rounds: int, gauntlet: bool, table_size: int | None, duplicate: bool, permutations: str,
          positions: str | None, seed: int, time_limit: float, game_time_limit: float | None, on_incident: str,
          sprt: tuple[float, float] | None, concurrency: int, dask: str | None, out: str | None,
          resume: str | None, no_replays: bool, as_json: bool) -> None:
    from referee.arena import entrants as ent
    from referee.arena import main
    from referee.arena.report import text_table
    from referee.arena.tournament import ArenaError, Settings
    from referee.jobs.parallel import RunError

    settings = None
    if resume is None:
        if not game or not entrant_specs:
            fail("give the GAME and its entrants (--entrant NAME=SPEC ...), or --resume DIR")
        kind = registry.game(game.lower())
        try:
            field = [ent.parse(v) for v in entrant_specs]
        except ent.EntrantError as err:
            fail(str(err))
        settings = Settings(kind.name, field, named_rule_set(kind, rules) if rules else kind.default_rules, options,
                            rounds, games,
                            MODES[1] if gauntlet else MODES[0], duplicate, permutations, seed, table_size,
                            time_limit, game_time_limit, on_incident, [], sprt)
        if positions:
            settings.starts = _positions(kind.name, positions)
    elif game or entrant_specs:
        fail("--resume DIR takes the tournament's settings from DIR: give no GAME or entrants")
    folder = Path(resume or out or f"arena-{seed}")
    live = sys.stderr.isatty() and not as_json
    try:
        doc = main.run(settings, folder, resume=resume is not None, concurrency=concurrency, dask=dask,
                       progress=_write if live else None, replays=not no_replays)
    except (ArenaError, RunError) as err:  # RunError: the Dask cluster cannot be reached or has no workers
        fail(str(err))
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False))
    else:
        click.echo(text_table(doc), nl=False)
        click.echo(f"{folder}/report.html, {folder}/standings.json")
    done(1 if doc["invalid_records"] or doc["errors"] else 0)


def _positions(game: str, path: str) -> list[dict[str, object]]:
    from referee.arena.positions import read_positions

    try:
        return read_positions(game, Path(path))
    except OSError as err:
        fail(f"--positions {path}: {err.strerror or err}")
    except ValueError as err:
        fail(f"--positions {path}: {err}")


def _write(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


command = Command("arena", params=params(), callback=arena, help=help_text())
