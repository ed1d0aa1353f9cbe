"""The ``pitboss`` command line: the face of the referee. The program is put together here;
each command is a module of ``referee.commands``.

Exit status (every command): 0 all good; 1 at least one record invalid; 2 the command
itself could not run (bad option, missing file); validate's 3: nothing to validate.
"""

from __future__ import annotations

from importlib import import_module

import click

from referee import i18n
from referee.commands import completion
from referee.commands.base import Group, done
from referee.commands.options import formats_text
from referee.jobs import registry


def _help() -> str:
    titles = " and ".join(g.title for g in registry.games())
    examples = [e for g in registry.games() for e in g.examples]
    return (f"The rules referee for {titles}.\n\n"
            f"Validate recorded games ({formats_text()}) against named rule sets, annotate and explain "
            "disputed moves, draw positions, answer puzzles, and generate random legal games. Each "
            "command's --help has examples.\n\n\b\nExamples:\n" + "\n".join(f"  {e}" for e in examples))


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("pitboss")
    except PackageNotFoundError:  # run from a checkout that was never installed
        number = "unknown (not installed)"
    click.echo(f"pitboss {number}")
    from referee.compiled.finder import current_groups

    if compiled := current_groups():  # python -m referee.compiled build
        click.echo(f"compiled engines: {', '.join(compiled)}")
    done(0)


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM ends a run as Ctrl-C does: output files half written are removed."""
    raise SystemExit(128 + signum)


@click.group("pitboss", cls=Group, help=_help(), no_args_is_help=True,
             context_settings={"help_option_names": ["-h", "--help"], "show_default": True})
@click.option("--version", "-V", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Print the version and exit.")
@click.pass_context
def app(ctx: click.Context) -> None:
    import signal

    signal.signal(signal.SIGTERM, _terminated)
    # Speak the locale's language unless a command's --lang says otherwise; as the command
    # ends, the language before it again (the program may be run in-process, as by tests).
    before = i18n.current()
    i18n.use(i18n.from_environment())
    ctx.call_on_close(lambda: i18n.use(before))


app.params += completion.options()


def _command(name: str) -> click.Command:
    """The command of module ``referee.commands.<name>``."""
    command: click.Command = import_module(f"referee.commands.{name}").command
    return command


# The commands, in the order --help lists them; a new command is its module and a name here.
COMMANDS = ("validate", "annotate", "explain", "disputes", "show", "rules", "convert", "solve", "prove", "serve",
            "selfplay", "arena")
for _name in COMMANDS:
    app.add_command(_command(_name))

if __name__ == "__main__":  # pragma: no cover
    app()
