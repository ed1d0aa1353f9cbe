"""``pitboss convert``: a file in another notation (a contest log as its game's records, or
records as another format they can be written in)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn

import click

from referee.jobs import registry
from referee.jobs.game import Foreign, Game
from referee.notation.records import open_text

from .base import Argument, Command, done, fail, integer
from .output import need_file, write_file, writing


def writable() -> dict[str, tuple[Game, Foreign]]:
    """The formats records can be written in besides their notation: name -> (game, format)."""
    return {f.name: (g, f) for g in registry.games() for f in g.foreign if f.writes}


@click.command("convert", cls=Command)
@click.argument("file", cls=Argument, metavar="FILE",
                help="A file in a format Pitboss reads (a UEC contest-server log, ...); - reads standard input.")
@click.option("--to", metavar="FORMAT",
              help="What to write: for a contest log its game's notation (the default); for records another "
                   "format they can be written in ("
                   + ", ".join(f"{name}: {g.notation.name} records" for name, (g, _) in writable().items()) + ").")
@click.option("--game", "-g", type=integer(min=1),
              help="Which record of the file, where the target holds one (default: the only one).")
@click.option("--output", "-o", type=click.Path(path_type=Path), metavar="PATH",
              help="Write to this file (written whole or not at all) instead of standard output.")
def command(file: str, to: str | None, game: int | None, output: Path | None) -> None:
    """Write a file in another notation: a UEC contest-server log as DFN (each game a
    round of a match, the exchange the log leaves out as the referee infers it), or a
    record as another format it can be written in (a uecda DFN match as a contest log).
    The result validates with the input's verdicts; what the target cannot state is left
    out, saying why.

    Examples:

      pitboss convert contest.log -o contest.dfn

      pitboss convert contest.log | pitboss validate -

      pitboss convert match.dfn --to uecda-log -o match.log

    Exit status: 0 converted, 1 converted with something left out (each said: games of
    a log, a log's RANDOM_SEED line), 2 could not run (nothing is written).
    """
    from referee.jobs.validate import sniff

    need_file(file)
    name = "<stdin>" if file == "-" else file
    try:
        handle = open_text(file)
    except OSError as err:
        fail(f"cannot read {file}: {err.strerror or err}")
    try:
        stream, foreign = sniff(handle)
        if foreign is None:
            convert_records(stream, name, to, game, output)
        owner = next(g for g in registry.games() if foreign in g.foreign)
        if foreign.convert is None:
            fail(f"{name} is {foreign.title}, which Pitboss cannot write in another notation")
        if to is not None and to.strip().lower() != owner.notation.name.lower():
            fail(f"{name} is {foreign.title}: it can be written in {owner.notation.name}, not {to}")
        left_out = 0
        with writing(output) as out:
            for piece in foreign.converted(stream, name):
                left_out += piece.startswith("; ")
                out.write(piece)
    finally:
        if file != "-":
            handle.close()
    if output is not None:
        click.echo(f"{output}: {name} as {owner.notation.name}"
                   + (f", {left_out} game(s) left out" if left_out else ""))
    elif left_out:
        click.echo(f"pitboss: {left_out} game(s) of {name} left out (see the ; comments)", err=True)
    done(1 if left_out else 0)


def convert_records(stream: Iterable[str], name: str, to: str | None, record: int | None,
                    output: Path | None) -> NoReturn:
    """Records in a game's own notation, written in the format ``to`` names; ends the command."""
    targets = writable()
    said = ", ".join(f"{t} ({g.notation.name} records)" for t, (g, _) in targets.items()) or "none"
    if to is None:
        fail(f"{name} holds records in a game's own notation; say what to write with --to: {said}")
    target = targets.get(to.strip().lower())
    if target is None:
        fail(f"{name}: records can be written as {said}, not {to}")
    try:
        text = target[1].written(stream, name, record)
    except ValueError as err:
        fail(str(err))
    if output is None:
        sys.stdout.write(text)
    else:
        write_file(output, text)
        click.echo(f"{output}: {name} as {target[1].title}")
    for note in text.notes:  # what the format could not hold, each in a sentence
        click.echo(f"pitboss: {note}", err=True)
    done(1 if text.notes else 0)
