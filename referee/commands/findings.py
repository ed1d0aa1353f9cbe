"""How a finding is printed: ``file:line:column: error [rule] sentence (context)`` with the
line and a caret under the column, or as a GitHub Actions annotation."""

from __future__ import annotations

from typing import Any

import click

from referee.engines.message import J, T
from referee.i18n import tr
from referee.jobs import registry
from referee.jobs.report import GameReport
from referee.notation.records import Finding, caret_line, visible

STYLES: dict[str, dict[str, Any]] = {"error": {"fg": "red", "bold": True}, "warning": {"fg": "yellow", "bold": True},
                                     "valid": {"fg": "green"}, "INVALID": {"fg": "red", "bold": True}}


def paint(word: str, color: bool, style: str | None = None) -> str:
    """``word`` in its colour (its style's, by default the word's own) when colouring."""
    return click.style(word, **STYLES[style or word]) if color else word


def where(report: GameReport, finding: Finding) -> str:
    parts = [visible(report.file)]
    if finding.line is not None:
        parts.append(str(finding.line))
        if finding.column is not None:
            parts.append(str(finding.column))
    return ":".join(parts)


def print_finding(report: GameReport, finding: Finding, kind: str, color: bool = False) -> None:
    """A finding of ``kind`` (error, warning) of a record's report, with its source line."""
    # "file:line:column: error [rule]" stays as tools read it; the sentence and its context
    # are in the language spoken.
    context = [T("game {n}", n=report.index)]
    if finding.round is not None:
        context.append(T("round {n}", n=finding.round))
    if finding.ply is not None:
        context.append(T("ply {n}", n=finding.ply))
    if finding.player is not None:
        player = visible(finding.player)
        game = registry.find(report.game)
        context.append(T("player {number}", number=player) if game is not None and game.numbered_players
                       else T("player {name}", name=player))
    if finding.move:
        context.append(T("move {move}", move=visible(finding.move)))
    click.echo(f"{where(report, finding)}: {paint(kind, color)} [{finding.rule}] {visible(tr(finding.message))} "
               f"({tr(J(', ', context))})", color=color or None)
    if finding.source:
        for line in caret_line(finding.source, finding.column).split("\n"):
            click.echo(f"    {line}")


def github(kind: str, report: GameReport, finding: Finding) -> str:
    """A finding as a GitHub Actions workflow command (an annotation on the file)."""
    def data(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    def prop(text: str) -> str:
        return data(text).replace(":", "%3A").replace(",", "%2C")

    props = [f"file={prop(report.file)}"]
    if finding.line is not None:
        props.append(f"line={finding.line}")
        if finding.column is not None:
            props.append(f"col={finding.column}")
    props.append(f"title={prop(finding.rule)}")
    context = [T("game {n}", n=report.index)]
    if finding.round is not None:
        context.append(T("round {n}", n=finding.round))
    if finding.ply is not None:
        context.append(T("ply {n}", n=finding.ply))
    return f"::{kind} {','.join(props)}::{data(tr(finding.message))} ({data(tr(J(', ', context)))})"
