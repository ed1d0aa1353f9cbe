"""``pitboss disputes``: every class of disagreement between two settings, within a scope."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from referee import i18n
from referee.engines.message import N, T, said
from referee.i18n import tr
from referee.jobs import registry

from .base import Argument, Command, done, fail, integer, real
from .options import lang_option, rule_sets_text, speak
from .output import Progress



@click.command("disputes", cls=Command)
@click.argument("game", cls=Argument, metavar="GAME", help="The game: " + ", ".join(registry.names()) + ".")
@click.argument("settings", cls=Argument, nargs=-1, metavar="[SETTING_A SETTING_B]",
                help="Two settings as --rules takes them (a rule set and, where the game has options, toggles after "
                     f"it as its Options tag writes them: +spade3). Rule sets: {rule_sets_text()}. Without them: "
                     "the game's shipped atlas, every comparison it holds.")
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON document: {"game", "settings", "scope", "complete", "classes": [{"id", "kind", '
                   '"rules", "position", "move", "witness", "length", "verdicts", ...}]} (with no settings: '
                   '{"game", "comparisons": [...]}).')
@click.option("--html", type=click.Path(path_type=Path), metavar="PATH",
              help="Also write the classes as one self-contained HTML page, with each witness's replay page beside "
                   "it (PATH's name with -replays/ after it).")
@click.option("--scope", "parts", multiple=True, metavar="PART",
              help="Search only this part of the game's scope (repeat; the output names each part, and a part "
                   "that does not exist is said with the game's parts). Default: every part.")
@click.option("--depth", type=integer(min=0), metavar="N",
              help="Records of at most N moves in every part searched (default: each part's own length).")
@click.option("--timeout", type=real(min=0), metavar="SECONDS",
              help="Stop searching after this long; what was found is reported, marked incomplete.")
@click.option("--full/--brief", default=True, help="Show each class's witness record and position (--brief: one "
                                                   "line of verdicts each).")
@lang_option()
def command(game: str, settings: tuple[str, ...], as_json: bool, html: Path | None, parts: tuple[str, ...],
            depth: int | None, timeout: float | None, full: bool, lang: str | None) -> None:
    """Every class of disagreement between two settings of a game, within a stated scope.

    A class is a move one setting allows and the other does not (keyed by each side's
    verdict: legal, or the rule id it breaks), or a move both allow after which the
    positions differ in what the rules read (keyed by that component: direction, suit,
    trick, turn, revolution, titles, result, ...); at the start of a game, a set-up one
    rejects or start positions that differ. Each class comes with where it shows first and
    its shortest witness record within the scope (searched breadth first by length), which
    `pitboss validate --rules SETTING` replays with the verdicts given here.

    Examples:

      pitboss disputes caravan holotape fnv

      pitboss disputes daifugo classic 'classic +eight-cut' --json | jq '.classes[].id'

      pitboss disputes daifugo --brief

    Exit status: 0 the settings agree within the scope, 1 some class found, 2 could not run
    (or stopped at --timeout with none found).
    """
    from referee.jobs.disputes import atlas, compare, report

    speak(lang)
    kind = registry.find(game)
    if kind is None or not compare.has_part(kind):
        fail(T("no game {game} with a dispute scope: the games are {games}", game=repr(game),
               games=", ".join(g.name for g in registry.games() if compare.has_part(g))))
    if len(settings) not in (0, 2):
        fail(T("give two settings to compare, or none for the game's atlas"))
    known = compare.parts(kind)
    for name in parts:
        if name not in known:
            fail(T("{game} has no scope part {part}: its parts are {parts}", game=kind.title, part=repr(name),
                   parts=", ".join(known)))
    if not settings:
        shipped = atlas.shipped(kind)
        if shipped is None:
            fail(T("{game}'s atlas is missing: python -m referee.jobs.disputes.atlas --game {name} writes it",
                   game=kind.title, name=kind.name))
        docs = shipped["comparisons"]
        _write(kind, docs, as_json, html, full, {"game": kind.name, "comparisons": docs})
        done(1 if any(d["classes"] for d in docs) else 0)
    try:
        chosen = compare.two(kind, *settings)
    except ValueError as err:
        fail(said(err))
    shown = _Progress()
    found = compare.disputes(chosen, depth, timeout, parts or None, shown.searched)
    shown.done()
    doc = i18n.localize(found.to_json())
    _write(kind, [doc], as_json, html, full, doc)
    if found.classes:
        done(1)
    done(0 if found.complete else 2)


def _write(kind, docs: list, as_json: bool, html: Path | None, full: bool, whole: dict) -> None:
    from referee.jobs.disputes import pages, report

    if html is not None:
        title = tr(T("{game}: where the settings disagree", game=kind.title))
        written = pages.write(kind, docs, html, title)
        click.echo(tr(N("{file}: {n} witness replay", "{file}: {n} witness replays", written, file=html)),
                   err=as_json)
    if as_json:
        click.echo(json.dumps(whole, ensure_ascii=False))
    else:
        sys.stdout.write(report.text(docs, full))


class _Progress(Progress):
    """The search's progress on standard error, only on a terminal."""

    def __init__(self) -> None:
        super().__init__(enabled=True)

    def searched(self, part: str, depth: int, positions: int) -> None:
        if self.enabled:
            sys.stderr.write(f"\r{part}: {depth} moves, {positions:,} positions\x1b[K")
            sys.stderr.flush()
            self.shown = True



