"""Shell completion: ``--show-completion`` prints the script click makes for the shell in
use (``$SHELL``: bash, zsh, fish), ``--install-completion`` writes it where that shell
reads it and has the shell's start-up file load it."""

from __future__ import annotations

import os
from pathlib import Path

import click
from click.shell_completion import get_completion_class

from .base import done, fail


def shell_name() -> str:
    """The shell in use, by ``$SHELL`` (``/bin/bash`` -> ``bash``)."""
    return Path(os.environ.get("SHELL", "")).name


def script(ctx: click.Context, shell: str) -> str:
    """The completion script for ``shell``, for the program ``ctx`` belongs to."""
    root = ctx.find_root()
    prog_name = root.info_name or "pitboss"
    complete_var = "_{}_COMPLETE".format(prog_name.replace("-", "_").upper())
    completer = get_completion_class(shell)
    if completer is None:
        fail(f"no shell completion for {shell or 'this shell'} (bash, zsh and fish have it); "
             "set SHELL to one of them")
    return completer(root.command, {}, prog_name, complete_var).source()


#: Where each shell reads a completion script, and what its start-up file needs to read it.
PLACES: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    "bash": ("~/.bash_completions/{prog}.sh", "~/.bashrc", ("source '{path}'",)),
    "zsh": ("~/.zfunc/_{prog}", "~/.zshrc", ("fpath+=~/.zfunc", "autoload -Uz compinit", "compinit")),
    "fish": ("~/.config/fish/completions/{prog}.fish", None, ()),
}


def install(ctx: click.Context) -> tuple[str, Path]:
    """The completion script for the shell in use, written where it reads it: the shell and
    the script's path."""
    shell = shell_name()
    text = script(ctx, shell)
    if shell not in PLACES:
        fail(f"cannot install completion for {shell}: print it with --show-completion and install it by hand")
    place, rc, lines = PLACES[shell]
    path = Path(place.format(prog=ctx.find_root().info_name or "pitboss")).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    if rc is not None:
        rc_path = Path(rc).expanduser()
        have = rc_path.read_text(encoding="utf-8") if rc_path.is_file() else ""
        wanted = [line.format(path=path) for line in lines]
        missing = [line for line in wanted if line not in have.splitlines()]
        if missing:
            with rc_path.open("a", encoding="utf-8") as rc_file:
                rc_file.write(("\n" if have and not have.endswith("\n") else "") + "\n".join(missing) + "\n")
    return shell, path


def show_callback(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(script(ctx, shell_name()))
        done(0)


def install_callback(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        shell, path = install(ctx)
        click.secho(f"{shell} completion installed in {path}", fg="green")
        click.echo("Completion will take effect once you restart the terminal")
        done(0)


def options() -> list[click.Option]:
    """``--install-completion`` and ``--show-completion``, for the program's top level."""
    return [
        click.Option(["--install-completion"], is_flag=True, expose_value=False, is_eager=True,
                     callback=install_callback, help="Install completion for the current shell."),
        click.Option(["--show-completion"], is_flag=True, expose_value=False, is_eager=True,
                     callback=show_callback,
                     help="Show completion for the current shell, to copy it or customize the installation."),
    ]
