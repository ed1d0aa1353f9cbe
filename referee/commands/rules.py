"""``pitboss rules``: the rulebook, as text or one HTML page."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from referee.engines.message import N, T, said, suggested
from referee.i18n import tr
from referee.jobs import registry
from referee.notation.screen import columns

from .base import Argument, Command, fail
from .options import lang_option, named_rule_set, speak
from .output import write_file


@click.command("rules", cls=Command)
@click.argument("game", cls=Argument, required=False, metavar="[GAME]",
                help="The game (default: every game): " + ", ".join(registry.names()) + ".")
@click.option("--rules", "-r", "rule_set", metavar="R", help="Only this rule set's rules (needs GAME).")
@click.option("--html", type=click.Path(path_type=Path), metavar="PATH",
              help="Write the rulebook as one self-contained HTML page (each rule at #its-id).")
@lang_option()
def command(game: str | None, rule_set: str | None, html: Path | None, lang: str | None) -> None:
    """The rulebook: every rule and ruling Pitboss applies, with its id (as validate,
    annotate and explain cite it), text, the rule sets and options it belongs to and its
    source; and where the rule sets differ, side by side.

    Examples:

      pitboss rules caravan

      pitboss rules daifugo --rules uecda

      pitboss rules --html rules.html

    Exit status: 0 written, 2 could not run (an unknown game or rule set).
    """
    from referee.jobs.rulebook import book
    from referee.jobs.rulebook import html as rulebook_html
    from referee.jobs.rulebook import text as rulebook_text

    speak(lang)
    if game is not None and registry.find(game) is None:
        fail(suggested(T("no game {game}: the games are {games}", game=repr(game), games=", ".join(registry.names())),
                       game, registry.names()))
    if rule_set is not None and game is None:
        fail(T("--rules needs a GAME: rule sets belong to a game"))
    chosen = [registry.game(game)] if game is not None else list(registry.games())
    try:
        books = [book(g, named_rule_set(g, rule_set) if rule_set else None) for g in chosen]
    except ValueError as err:
        fail(suggested(said(err), rule_set or "", [r for g in chosen for r in g.rule_sets]))
    if html is not None:
        write_file(html, rulebook_html(books))
        click.echo(tr(N("{file}: {n} rule", "{file}: {n} rules", sum(len(b.rules) for b in books), file=html)))
    else:
        sys.stdout.write(rulebook_text(books, columns()))

