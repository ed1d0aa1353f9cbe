"""``pitboss show``: a position drawn as its game lays out the table (text, SVG, or a
replay page of the whole record)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from referee import i18n
from referee.engines.message import N, T, said
from referee.i18n import tr
from referee.notation.records import open_text
from referee.notation.screen import columns, fit

from .base import Argument, Command, done, fail, integer
from .options import color_option, lang_option, no_color_option, speak, use_color, with_warnings
from .output import need_file, write_file

if TYPE_CHECKING:
    from referee.jobs.annotate import Annotated
    from referee.jobs.render.frames import Frame
    from referee.jobs.timeline import Timeline


@click.command("show", cls=Command)
@click.argument("file", cls=Argument, metavar="FILE", help="A record file; - reads standard input.")
@click.option("--game", "-g", type=integer(min=1), default=1, help="Which record of the file (from 1).")
@click.option("--ply", "-p", type=integer(min=0),
              help="Show the position after this many moves (0: the start; within the round, in games played in "
                   "rounds). Default: the last position.")
@click.option("--round", "round_no", type=integer(min=1),
              help="In games played in rounds: the round (default: the first when --ply is given, else the last).")
@click.option("--svg", metavar="PATH",
              help="Write the position as an SVG picture to this path (- for standard output).")
@click.option("--html", metavar="PATH",
              help="Write one self-contained HTML page that replays the whole record move by move with its "
                   "annotations (no network needed) to this path (- for standard output).")
@no_color_option()
@color_option("Colour: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never.")
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON document: the record\'s verdict, the position shown ({"round", "ply", "move", '
                   '"player", "illegal", ...}) and its drawing as text.')
@lang_option()
def command(file: str, game: int, ply: int | None, round_no: int | None, svg: str | None, html: str | None,
            no_color: bool, color: str, as_json: bool, lang: str | None) -> None:
    """Draw a position as its game lays out the table: what lies face up, each hand where
    the record knows it, and the state of play.

    Examples:

      pitboss show game.cvn --ply 12

      pitboss show game.cvn --svg position.svg --ply 12

      pitboss show match.dfn --html replay.html

    Exit status: 0 the record is valid, 1 it is not (the position is still drawn, up to
    its first illegal move), 2 could not run.
    """
    from referee.jobs.annotate import annotate_timeline
    from referee.jobs.render.frames import frames_of, select
    from referee.jobs.render.svg import render as render_svg
    from referee.jobs.render.text import render as render_text

    speak(lang)
    need_file(file)
    name = "<stdin>" if file == "-" else file
    chosen = record(file, name, game)
    annotated = annotate_timeline(chosen)
    try:
        frames = frames_of(annotated)
    except LookupError as err:  # nothing to draw it with (a record of no game Pitboss knows)
        errors = chosen.report.errors
        fail(T("{file}, record {game}: {error}", file=name, game=game,
               error=tr(errors[0].message) if errors else said(err)))
    try:
        frame = select(frames, ply, round_no)
    except LookupError as err:
        fail(T("{file}, record {game}: {error}", file=name, game=game, error=said(err)))
    if svg == "-" and html == "-":
        fail(T("--svg - and --html - would both write to standard output: give one a file"))
    if svg is not None:
        write_file(svg, render_svg(frame))
        if svg != "-":
            click.echo(f"{svg}: {frame.title}", err=html == "-" or as_json)  # the title is in the language
    if html is not None:
        write_replay(html, chosen, annotated, frames, name, game, quiet=svg == "-" or as_json)
    if as_json:
        if "-" in (svg, html):
            fail(T("--json writes to standard output: give --svg and --html a file"))
        doc = {"record": chosen.report.to_json(), "positions": len(frames), "position": frame.to_json(),
               "text": render_text(frame, False)}
        click.echo(json.dumps(i18n.localize(with_warnings(doc)), ensure_ascii=False))
    elif svg is None and html is None:
        sys.stdout.write(fit(render_text(frame, use_color(no_color, color)), columns()))
    done(0 if chosen.report.valid else 1)


def record(file: str, name: str, game: int) -> Timeline:
    """Record ``game`` of ``file`` (named ``name``), replayed; or the reason it cannot be."""
    from referee.jobs.timeline import ContestLog, timelines

    try:
        with open_text(file) as handle:
            for timeline in timelines(handle, name):
                if timeline.report.index == game:
                    return timeline
    except ContestLog as err:
        fail(said(err))
    except OSError as err:
        fail(T("cannot read {name}: {why}", name=file, why=err.strerror or err))
    fail(T("{file} has no record {game}", file=name, game=game))


def write_replay(html: str, chosen: Timeline, annotated: Annotated, frames: list[Frame], name: str, game: int,
                 quiet: bool) -> None:
    """The replay page of the whole record to ``html`` (saying so on standard error when
    ``quiet``, where standard output carries something else)."""
    from referee.jobs.render.html import replay_page

    report = chosen.report
    verdict = (T("valid") if report.valid
               else T("invalid: {message} (rule {rule})", message=tr(report.errors[0].message).rstrip(".。"),
                      rule=report.errors[0].rule))
    rules_label = annotated.variants[0].label if annotated.variants else report.rules
    page = replay_page(frames, tr(T("{file}, game {game} ({kind}, {rules})", file=Path(name).name, game=game,
                                    kind=report.game, rules=rules_label)),
                       tr(N("{n} position · {verdict}", "{n} positions · {verdict}", len(frames), verdict=verdict)))
    write_file(html, page)
    if html != "-":
        click.echo(tr(N("{file}: {n} position", "{file}: {n} positions", len(frames), file=html)), err=quiet)
