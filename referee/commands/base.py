"""How a command is built on click (its public API only): help as command-line tools write
it, and the one way a command gives up.

The help lists a command's arguments (with their help) above its options; a required
argument is written ``FILE``, an optional one ``[FILE]``, a repeated one ``FILE...``; an
option's value by its kind (``INTEGER``, ``FLOAT``, ``TEXT``, ``PATH``, ``[a|b|c]``) or its
own name (``--jobs N``), its default and bounds beside its help (``[default: 10;
x>=1]``), and a misspelled choice is answered with the closest. A group lists its
commands in the order they were added.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import get_close_matches
from typing import Any, NoReturn

import click

from referee.i18n import tr


class Argument(click.Argument):
    """A positional argument with a help text (click's have none), listed under
    "Arguments:" in its command's help."""

    def __init__(self, param_decls: Sequence[str], *, help: str = "", **attrs: Any) -> None:
        super().__init__(param_decls, **attrs)
        self.help = help

    def help_record(self, ctx: click.Context) -> tuple[str, str]:
        return self.make_metavar(ctx), (self.help or "") + ("  [required]" if self.required else "")


class Command(click.Command):
    """A command whose help has an "Arguments:" section before its "Options:"."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.format_usage(ctx, formatter)
        self.format_help_text(ctx, formatter)
        arguments = [p.help_record(ctx) for p in self.get_params(ctx) if isinstance(p, Argument)]
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        self.format_options(ctx, formatter)
        self.format_epilog(ctx, formatter)


class Group(click.Group):
    """A group of commands, listed in its help in the order they were added (not sorted);
    its commands and subgroups are built as :class:`Command` and :class:`Group`."""

    command_class = Command
    group_class = type  # a subgroup is a Group too

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


class Choice(click.Choice):
    """A choice among names; a misspelled one is answered with the closest (difflib)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as err:
            close = get_close_matches(str(value).lower(), [str(c).lower() for c in self.choices], n=3, cutoff=0.6)
            if not close:
                raise
            self.fail(f"{err.message} Did you mean {' or '.join(repr(c) for c in close)}?", param, ctx)


class Integer(click.IntRange):
    """A whole number within bounds, written ``INTEGER`` in the help (the bounds beside it)."""

    name = "integer"


class Real(click.FloatRange):
    """A number within bounds, written ``FLOAT`` in the help (the bounds beside it)."""

    name = "float"


def integer(min: int | None = None, max: int | None = None) -> click.ParamType:
    """A whole number, within ``min`` and ``max`` where given."""
    return click.INT if min is None and max is None else Integer(min, max)


def real(min: float | None = None, max: float | None = None) -> click.ParamType:
    """A number, within ``min`` and ``max`` where given."""
    return click.FLOAT if min is None and max is None else Real(min, max)


def kind(python_type: type, min: int | None = None, max: int | None = None) -> click.ParamType:
    """The value type for an option a game declares by its Python type (``int``, ``float``,
    ``str``)."""
    if python_type is int:
        return integer(min, max)
    if python_type is float:
        return real(min, max)
    return click.STRING


def default_shown(default: object) -> bool | None:
    """Whether an option's help shows its default: not when it is empty (an empty text
    says nothing); else as the program does (it shows them)."""
    return False if default == "" else None


def fail(message: str) -> NoReturn:
    """Say why the command cannot run (a message in the language spoken), and exit 2."""
    click.echo(f"pitboss: {tr(message)}", err=True)
    raise click.exceptions.Exit(2)


def done(code: int) -> NoReturn:
    """End the command with this exit status."""
    raise click.exceptions.Exit(code)
