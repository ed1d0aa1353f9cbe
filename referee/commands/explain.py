"""``pitboss explain``: one move, the rules that decided it and every rule set's verdict."""

from __future__ import annotations

import json
import sys

import click

from referee import i18n
from referee.engines.message import T, said
from referee.notation.records import open_text
from referee.notation.screen import columns, fit

from .base import Argument, Command, done, fail, integer
from .options import color_option, lang_option, no_color_option, speak, use_color, with_warnings
from .output import need_file


@click.command("explain", cls=Command)
@click.argument("file", cls=Argument, metavar="FILE", help="A record file; - reads standard input.")
@click.option("--ply", "-p", type=integer(min=1), required=True,
              help="The move to explain, counted from 1 as validate counts it (within the round, in games played "
                   "in rounds).")
@click.option("--game", "-g", type=integer(min=1), default=1, help="Which record of the file (from 1).")
@click.option("--round", "round_no", type=integer(min=1),
              help="In games played in rounds: the round (default: the first).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document: the position, and each rule set's verdict with every rule checked.")
@no_color_option()
@color_option("Colour: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never.")
@lang_option()
def command(file: str, ply: int, game: int, round_no: int | None, as_json: bool, no_color: bool, color: str,
            lang: str | None) -> None:
    """Explain one move: the position before it, each rule that decided it and the
    verdict under every rule set (the record's own first).

    Examples:

      pitboss explain game.cvn --ply 3

      pitboss explain match.dfn --round 2 --ply 14 --json

    Exit status: 0 the move is legal under the record's rules, 1 it is not, 2 could not run
    (no such file, record or move).
    """
    from referee.jobs.explain import ExplainError, explanation_text
    from referee.jobs.explain import explain as explain_move
    from referee.jobs.timeline import ContestLog

    speak(lang)
    need_file(file)
    name = "<stdin>" if file == "-" else file
    try:
        with open_text(file) as handle:
            ex = explain_move(handle, name, ply, game, round_no)
    except (ExplainError, ContestLog) as err:
        fail(said(err))
    except OSError as err:
        fail(T("cannot read {name}: {why}", name=file, why=err.strerror or err))
    if as_json:
        click.echo(json.dumps(i18n.localize(with_warnings(ex.to_json())), ensure_ascii=False))
    else:
        sys.stdout.write(fit(explanation_text(ex, use_color(no_color, color)), columns()))
    done(0 if ex.note.step.legal else 1)
