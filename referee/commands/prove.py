"""``pitboss prove``: certificates that a game's rules, under a setting, have a property
(every game ends, values are bounded, no player is stuck, every trick ends, one result,
card conservation): proved, refuted with a witness record, or unknown."""

from __future__ import annotations

import json

import click

from referee import i18n
from referee.engines.message import T
from referee.jobs import registry

from .base import Argument, Command, done, fail, real
from .options import lang_option, speak


@click.command("prove", cls=Command)
@click.argument("words", cls=Argument, nargs=-1, metavar="[GAME] [PROPERTY]...",
                help="The game (default: every game) and the properties (default: all of the game's: termination, "
                     "value-bound, no-stuck, trick-ends, one-result, conservation).")
@click.option("--rules", "-r", "setting", metavar="SETTING",
              help="Only this setting (needs GAME): a rule set, or a preset with options as validate --rules "
                   "takes them. Default: every rule set, and for games with options each preset with each "
                   "single option toggled.")
@click.option("--timeout", "-t", type=real(min=0.001), default=300.0, metavar="SECONDS", show_default=True,
              help="Give up on a property after this many seconds: its verdict is then unknown.")
@click.option("--certify", is_flag=True,
              help="Prove every unsat answer again with a second solver (cvc5) from the same SMT-LIB text; a "
                   "disagreement is an error showing both answers.")
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON object per setting, one a line: {"game", "setting", "properties": [{"name", '
                   '"verdict", "bound", "method", "assumptions", "seconds", "witness", "reason", "rests_on", '
                   '"solvers", "example"}]}.')
@lang_option()
def command(words: tuple[str, ...], setting: str | None, timeout: float, certify: bool, as_json: bool,
            lang: str | None) -> None:
    """Prove what the rules guarantee for every game played under a setting, or refute it
    with a witness record that validate accepts under that setting. See docs/prove.md.

    Examples:

      pitboss prove caravan --rules fnv termination

      pitboss prove daifugo --rules uecda --json

      pitboss prove --certify

    Exit status: 0 every property proved, 1 one refuted or unknown, 2 could not run.
    """
    from referee.jobs.prove import ProveError, exit_status, prove, text

    speak(lang)
    game = None
    properties = list(words)
    if properties and registry.find(properties[0]) is not None:
        game = properties.pop(0)
    if setting is not None and game is None:
        fail(T("--rules needs a GAME: rule sets belong to a game"))
    try:
        reports = prove(game, setting, properties, timeout, certify)
    except (ProveError, ValueError) as err:
        fail(str(err))
    if as_json:
        for report in reports:
            click.echo(json.dumps(i18n.localize(report.to_json()), ensure_ascii=False))
    else:
        click.echo(text(reports), nl=False)
    done(exit_status(reports))
