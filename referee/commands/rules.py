"""``pitboss rules``: the rulebook, as text or one HTML page."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from referee.engines.message import N, T, said, suggested
from referee.i18n import tr
from referee.jobs import registry
from referee.notation.screen import columns

from .base import Argument, Command, fail
from .options import lang_option, named_rule_set, speak
from .output import write_file

if TYPE_CHECKING:
    from referee.jobs.registry import SomeGame
    from referee.jobs.rulebook import Book


@click.command("rules", cls=Command)
@click.argument("game", cls=Argument, required=False, metavar="[GAME]",
                help="The game (default: every game): " + ", ".join(registry.names()) + ".")
@click.option("--rules", "-r", "rule_set", metavar="R", help="Only this rule set's rules (needs GAME).")
@click.option("--html", type=click.Path(path_type=Path), metavar="PATH",
              help="Write the rulebook as one self-contained HTML page (each rule at #its-id).")
@click.option("--proofs", is_flag=True,
              help="Add what each rule set shown guarantees (pitboss prove's verdicts: termination, bounds, "
                   "conservation, ...); takes some seconds.")
@click.option("--disputes", is_flag=True,
              help="Add each game's atlas of disputes: for each pair of rule sets and each option (and pair of "
                   "options), the classes of moves they rule differently, each with its shortest game "
                   "(with --html, a link to its replay page). pitboss disputes shows one comparison whole.")
@lang_option()
def command(game: str | None, rule_set: str | None, html: Path | None, proofs: bool, disputes: bool,
            lang: str | None) -> None:
    """The rulebook: every rule and ruling Pitboss applies, with its id (as validate,
    annotate and explain cite it), text, the rule sets and options it belongs to and its
    source; and where the rule sets differ, side by side.

    Examples:

      pitboss rules caravan

      pitboss rules daifugo --rules uecda

      pitboss rules --html rules.html

      pitboss rules daifugo --disputes

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
        write_file(html, rulebook_html(books, _atlas_html(html) if disputes else None))
        click.echo(tr(N("{file}: {n} rule", "{file}: {n} rules", sum(len(b.rules) for b in books), file=html)))
    else:
        guarantees = None
        if proofs:
            from referee.jobs.prove import games_with_proofs
            from referee.jobs.prove import guarantees as proved

            names = {g.name for g in games_with_proofs()}
            guarantees = {b.game.name: proved(b.game.name, b.rule_sets) for b in books if b.game.name in names}
        sys.stdout.write(rulebook_text(books, columns(), guarantees=guarantees))
        if disputes:
            sys.stdout.write(_atlas_text(chosen))


def _atlas_text(games: list[SomeGame]) -> str:
    """Each game's shipped atlas, one line per comparison."""
    from referee.jobs.disputes import atlas, report

    out: list[str] = []
    for game in games:
        shipped = atlas.shipped(game)
        if shipped is not None:
            out += ["", tr(T("{game}: where the settings disagree", game=game.title)), *report.atlas_lines(shipped)]
    return "\n".join(out) + "\n" if out else ""


def _atlas_html(target: Path) -> Callable[[Book], str]:
    """What follows a game's rules in the HTML rulebook: its atlas, each witness linked to
    its replay page (written beside the rulebook)."""
    from html import escape

    from referee.jobs.disputes import atlas, pages, report

    def after(b: Book) -> str:
        shipped = atlas.shipped(b.game)
        if shipped is None:
            return ""
        docs = shipped["comparisons"]
        link = pages.replays(b.game, docs, target)
        title = tr(T("{game}: where the settings disagree", game=b.game.title))
        return "\n".join([f'<h2 id="{escape(b.game.name)}-disputes">{escape(title)}</h2>',
                          *report.html_sections(docs, link)])

    return after
