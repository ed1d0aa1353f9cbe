"""``pitboss selfplay GAME``: random legal, complete games; one command per game that can
play itself, its options as the game's self-play declares them (``Game.selfplay``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from referee.jobs import registry
from referee.jobs.game import Game, Option, SelfPlay
from referee.jobs.selfplay import Made

from .base import Choice, Command, Group, default_shown, fail, integer
from .output import Progress, writing
from .options import RuleSetChoice


def game_option(option: Option) -> click.Option:
    """``--NAME`` as the game declares it: a switch, a choice or a value."""
    if isinstance(option.default, bool):
        flag = f"--{option.name}/--no-{option.name}" if option.negatable else f"--{option.name}"
        return click.Option([flag, option.keyword], is_flag=True, default=option.default, help=option.help)
    if option.choices:
        return click.Option([f"--{option.name}", option.keyword], type=Choice(option.choices),
                            default=option.default, help=option.help)
    value = integer(option.min, option.max) if isinstance(option.default, int) else click.STRING
    return click.Option([f"--{option.name}", option.keyword], type=value, default=option.default,
                        show_default=default_shown(option.default), help=option.help)


def params(game: Game, spec: SelfPlay) -> list[click.Parameter]:
    """The command's options, in the order its help lists them."""
    return [
        click.Option(["--games", "-n"], type=integer(min=1), default=10, help=f"How many {spec.noun}."),
        click.Option(["--seed", "-s"], type=click.INT, default=1,
                     help=f"Random seed: the same seed gives the same {spec.noun} (whatever --jobs)."),
        click.Option(["--rules", "-r"], type=RuleSetChoice(game),
                     default=game.default_rules, help=f"Rule set: {', '.join(game.rule_sets)}."),
        *(game_option(option) for option in spec.options),
        click.Option(["--output", "-o"], type=click.Path(path_type=Path),
                     help="Write to this file instead of standard output; an existing directory receives one file "
                          "per record that fills a file of its own (a contest log)."),
        click.Option(["--jobs", "-j"], type=integer(min=1), metavar="N",
                     help=f"Processes to generate on (default: every core available); the output does not depend "
                          f"on it: each of the {spec.noun} is made from the seed and its number alone."),
    ]


def play(spec: SelfPlay) -> Callable[..., None]:
    """The command's work for a game's self-play: generate, write, show progress."""
    def run(games: int, seed: int, rules: str, output: Path | None, jobs: int | None, **options: Any) -> None:
        from referee.jobs.parallel import RunError
        from referee.jobs.selfplay import produce

        try:
            maker = spec.prepare(rules.lower(), **options)
        except ValueError as err:
            fail(str(err))
        to_folder = output is not None and output.is_dir()
        if maker.whole_file and not to_folder and games > 1:
            fail(f"each of the {games} {spec.noun} is a file of its own: give --output an existing directory")
        progress = Progress(enabled=True)
        stream = produce(maker, games, seed, jobs, spec.noun)
        try:
            if maker.whole_file and to_folder:
                assert output is not None
                write_files(stream, output, games, progress)
            else:
                write_one(stream, output, games, progress, str(output) if output is not None else spec.noun)
        except RunError as err:
            progress.done()
            fail(str(err))
        finally:
            stream.close()  # stopped early (| head, Ctrl-C): the workers are let go at once
            progress.done()
    return run


def write_files(stream: Iterator[Made], folder: Path, games: int, progress: Progress) -> None:
    """Each item into a file of its own in ``folder``, as it names it."""
    made = moves = 0
    for item in stream:
        assert item.file_name is not None  # a whole-file maker's items name their file
        with writing(folder / item.file_name) as out:
            out.write(item.text)
        made, moves = made + 1, moves + item.counts["moves"]
        progress.update(str(folder), made / games, made, moves)


def write_one(stream: Iterator[Made], output: Path | None, games: int, progress: Progress, label: str) -> None:
    """The items one after another, a blank line between, to ``output`` (or standard output)."""
    made = moves = 0
    with writing(output) as out:
        for item in stream:
            if made:
                out.write("\n")
            out.write(item.text)
            made, moves = made + 1, moves + item.counts["moves"]
            progress.update(label, made / games, made, moves)


def game_command(game: Game, spec: SelfPlay) -> Command:
    return Command(game.name, params=params(game, spec), callback=play(spec), help=spec.help)


command = Group("selfplay", no_args_is_help=True,
                help="Write random legal, complete games (for tests, benchmarks and your own tools).",
                commands=[game_command(g, g.selfplay) for g in registry.games() if g.selfplay is not None])
