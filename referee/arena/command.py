"""``pitboss arena``: the command line of the arena (``python -m referee.arena`` runs it
on its own)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from referee.arena import entrants as ent
from referee.arena.schedule import MODES, PERMUTATIONS
from referee.arena.table import POLICIES
from referee.arena.tournament import ArenaError, Settings


def _entrants(values: tuple[str, ...]) -> list[ent.Entrant]:
    try:
        return [ent.parse(v) for v in values]
    except ent.EntrantError as err:
        raise click.UsageError(str(err)) from None


@click.command("arena", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("game", required=False)
@click.option("--entrant", "-e", "entrant_specs", multiple=True, metavar="NAME=SPEC",
              help="An entrant: NAME=bot:STYLE (random, greedy, search), NAME=stdio:COMMAND (a program speaking "
                   f"the arena's line protocol, docs/arena.md) or NAME={ent.CONTEST}:COMMAND (a contest client; "
                   "{host} and {port} in COMMAND are replaced, else -h HOST -p PORT is added). Repeat it.")
@click.option("--rules", "-r", help="The rule set (default: the game's).")
@click.option("--options", default="", help='Option toggles on top of the rule set, as the Options tag writes them.')
@click.option("--rounds", type=click.IntRange(1), default=1, show_default=True,
              help="Rounds per table, in a game played in rounds (a contest table's games).")
@click.option("--games", "-n", type=click.IntRange(1), default=10, show_default=True,
              help="Tables each entrant sits at, at least (with --sprt: at most).")
@click.option("--gauntlet", is_flag=True, help="The first entrant against the others (default: a round robin).")
@click.option("--table-size", type=click.IntRange(2),
              help="Seats per table, where the rules allow several (default: five where allowed, as at a contest).")
@click.option("--duplicate", is_flag=True,
              help="Replay each deal with the table's entrants rotated through the seats.")
@click.option("--permutations", type=click.Choice(PERMUTATIONS), default="rotations", show_default=True,
              help="With --duplicate: the seat orders each deal is replayed in.")
@click.option("--positions", type=click.Path(dir_okay=False), metavar="FILE",
              help="Start the tables from the decks or deals of these records (or contest log), in turn.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds the schedule and every deal.")
@click.option("--time-limit", type=float, default=5.0, show_default=True, help="Seconds a bot has for a move.")
@click.option("--game-time-limit", type=float, help="Seconds a bot has for all its moves at a table.")
@click.option("--on-incident", type=click.Choice(POLICIES), default="pass", show_default=True,
              help="A late, illegal, garbled or missing move: pass (what the rules do with a seat out of time: a "
                   "pass where the game has one, else a forfeit) or forfeit (the seat gives up the table).")
@click.option("--sprt", nargs=2, type=float, metavar="ELO0 ELO1",
              help="Test two entrants: stop once H0 (ELO0) or H1 (ELO1) is accepted (alpha = beta = 0.05).")
@click.option("--concurrency", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="Tables played at once (worker processes).")
@click.option("--dask", metavar="ADDRESS", help="Play the tables as tasks on this Dask scheduler.")
@click.option("--out", "-o", type=click.Path(file_okay=False), metavar="DIR", help="Where the records, "
              "standings.json and report.html go (default: arena-SEED).")
@click.option("--resume", type=click.Path(file_okay=False, exists=True), metavar="DIR",
              help="Finish the tournament in DIR (its settings are DIR/arena.json).")
@click.option("--no-replays", is_flag=True, help="Write no replay page per game.")
@click.option("--json", "as_json", is_flag=True, help="Print standings.json instead of the table.")
def command(game: str | None, entrant_specs: tuple[str, ...], rules: str | None, options: str, rounds: int,
            games: int, gauntlet: bool, table_size: int | None, duplicate: bool, permutations: str,
            positions: str | None, seed: int, time_limit: float, game_time_limit: float | None, on_incident: str,
            sprt: tuple[float, float] | None, concurrency: int, dask: str | None, out: str | None,
            resume: str | None, no_replays: bool, as_json: bool) -> None:
    """Run a tournament of bots, every move refereed: standings with points per game and a
    rating (each with its 95 % interval), head to head, think times and incidents; every
    game's record (valid under pitboss validate), a replay page for each and a report.

    Examples:

      pitboss arena caravan -e r=bot:random -e g=bot:greedy -e s=bot:search --games 20

      pitboss arena daifugo -r uecda --rounds 10 -e a=uecda:./client -e b=uecda:./client ...

      pitboss arena caravan -e mine=stdio:'python3 bot.py' -e g=bot:greedy --sprt 0 50 --duplicate

      pitboss arena --resume arena-0

    Exit status: 0 done; 1 a record did not validate or a table could not be played; 2
    could not run.
    """
    from referee.arena import main
    from referee.arena.report import text_table
    from referee.jobs import registry

    settings = None
    if resume is None:
        if not game or not entrant_specs:
            raise click.UsageError("give the GAME and its entrants (--entrant NAME=SPEC ...), or --resume DIR")
        kind = registry.find(game)
        if kind is None:
            raise click.UsageError(f"GAME is one of {', '.join(registry.names())}, not {game}")
        settings = Settings(kind.name, _entrants(entrant_specs), rules or kind.default_rules, options, rounds, games,
                            MODES[1] if gauntlet else MODES[0], duplicate, permutations, seed, table_size, time_limit,
                            game_time_limit, on_incident, [], sprt)
        if positions:
            from referee.arena.positions import read_positions

            try:
                settings.starts = read_positions(kind, Path(positions), settings.rules)
            except (OSError, ValueError) as err:
                raise click.UsageError(f"--positions {positions}: {err}") from None
    elif game or entrant_specs:
        raise click.UsageError("--resume DIR takes the tournament's settings from DIR: give no GAME or entrants")
    folder = Path(resume or out or f"arena-{seed}")
    def write(text: str) -> None:
        sys.stderr.write(text)
        sys.stderr.flush()
    try:
        doc = main.run(settings, folder, resume=resume is not None, concurrency=concurrency, dask=dask,
                       progress=write if sys.stderr.isatty() and not as_json else None, replays=not no_replays)
    except ArenaError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False))
    else:
        click.echo(text_table(doc), nl=False)
        click.echo(f"{folder}/report.html, {folder}/standings.json")
    sys.exit(1 if doc["invalid_records"] or doc["errors"] else 0)
