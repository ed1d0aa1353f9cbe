"""The ``pitboss`` command line: the face of the referee.

Exit status (every command): 0 all good; 1 at least one record invalid; 2 the command
itself could not run (bad option, missing file).
"""

from __future__ import annotations

import json
import os
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from referee.jobs.validate import Summary, validate_lines
from referee.notation.records import caret_line, open_text

app = typer.Typer(
    name="pitboss",
    help=(
        "The rules referee for Caravan and Daifugo.\n\n"
        "Validate recorded games (CVN and DFN records, UEC contest-server logs) against named "
        "rule sets, and generate random legal games.\n\n"
        "Examples:\n\n"
        "  pitboss validate games.cvn\n\n"
        "  pitboss validate --json contest.log | jq .summary\n\n"
        "  pitboss selfplay caravan --games 100 --rules fnv > random.cvn"
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)
selfplay_app = typer.Typer(
    help="Write random legal, complete games (for tests, benchmarks and your own tools).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(selfplay_app, name="selfplay")


class Progress:
    """A progress bar on standard error, only when it is a terminal and the run is long
    (how far through the current file, by bytes read, and records so far)."""

    WIDTH = 24

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, file: str, fraction: float | None, games: int, plies: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < 0.5 or now - self.last < 0.1:
            return
        self.last = now
        rate = games / max(now - self.start, 1e-9)
        if fraction is None:
            bar = ""
        else:
            filled = int(self.WIDTH * min(fraction, 1.0))
            bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {100 * min(fraction, 1.0):3.0f}% "
        sys.stderr.write(f"\r{bar}{file}: {games} records, {plies} moves, {rate:,.0f} records/s\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def _reports(path: str):
    """Each record's report of a file, with how far through the file (by bytes) the reader
    is; the fraction is None for standard input."""
    handle = open_text(path)
    size = None if path == "-" else os.path.getsize(path)
    try:
        for report in validate_lines(handle, "<stdin>" if path == "-" else path):
            try:
                fraction = handle.buffer.tell() / size if size else None
            except (AttributeError, OSError, ValueError):
                fraction = None
            yield report, fraction
    finally:
        if path != "-":
            handle.close()


def _fail(message: str) -> None:
    typer.echo(f"pitboss: {message}", err=True)
    raise typer.Exit(2)


def _where(report, finding) -> str:
    parts = [report.file]
    if finding.line is not None:
        parts.append(str(finding.line))
        if finding.column is not None:
            parts.append(str(finding.column))
    return ":".join(parts)


def _print_finding(report, finding, kind: str) -> None:
    context = [f"game {report.index}"]
    if finding.round is not None:
        context.append(f"round {finding.round}")
    if finding.ply is not None:
        context.append(f"ply {finding.ply}")
    if finding.player is not None:
        context.append(f"player {finding.player}")
    if finding.move:
        context.append(f"move {finding.move}")
    typer.echo(f"{_where(report, finding)}: {kind} [{finding.rule}] {finding.message} ({', '.join(context)})")
    if finding.source is not None:
        for line in caret_line(finding.source, finding.column).splitlines():
            typer.echo(f"    {line}")


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help="Record files (CVN, DFN, or UEC contest logs); - reads standard input.", metavar="FILE...")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document: a summary and every game's errors and warnings.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only invalid games and the summary.")] = False,
) -> None:
    """Replay every record against its rule set and report each illegal move, bad tag,
    syntax error and wrong result, with file, line, column, ply, player and rule id.

    The rule set comes from each record's [Rules] tag (Caravan: holotape or fnv; Daifugo:
    seed or uecda, with [Options]). A record's first illegal move ends its replay; the next
    record is read as if nothing had happened. Exit status: 0 all valid, 1 some invalid,
    2 could not run (e.g. a missing file).
    """
    for path in files:
        if path != "-" and not Path(path).is_file():
            _fail(f"no such file: {path}")
    summary = Summary()
    games_json = []
    progress = Progress(enabled=True)
    try:
        for path in files:
            try:
                for report, fraction in _reports(path):
                    summary.add(report)
                    progress.update(report.file, fraction, summary.games, summary.plies)
                    if as_json:
                        games_json.append(report.to_json())
                        continue
                    if quiet and report.valid:
                        continue
                    progress.done()
                    for finding in report.errors:
                        _print_finding(report, finding, "error")
                    for finding in report.warnings:
                        _print_finding(report, finding, "warning")
                    verdict = "valid" if report.valid else f"INVALID ({len(report.errors)} error{'s' * (len(report.errors) != 1)})"
                    about = ", ".join(x for x in (report.game, report.rules, report.knowledge and f"knowledge: {report.knowledge}") if x)
                    typer.echo(f"{report.file}: game {report.index} ({about}, {report.plies} moves): {verdict}")
            except OSError as err:
                progress.done()
                _fail(f"cannot read {path}: {err.strerror or err}")
    finally:
        progress.done()
    if as_json:
        typer.echo(json.dumps({"summary": summary.to_json(), "games": games_json}, ensure_ascii=False))
    else:
        typer.echo(f"{summary.games} game{'s' * (summary.games != 1)}: {summary.valid} valid, {summary.invalid} invalid")
    raise typer.Exit(0 if summary.invalid == 0 else 1)


class CaravanRules(str, Enum):
    holotape = "holotape"
    fnv = "fnv"


class CaravanPlayer(str, Enum):
    random = "random"
    greedy = "greedy"
    mixed = "mixed"


@selfplay_app.command("caravan")
def selfplay_caravan(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 10,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Random seed: the same seed gives the same games.")] = 1,
    rules: Annotated[CaravanRules, typer.Option("--rules", "-r", help="Rule set.")] = CaravanRules.holotape,
    player: Annotated[CaravanPlayer, typer.Option("--player", "-p", help="random: uniform legal moves; greedy: prefers moves that win lanes; mixed: either, per side.")] = CaravanPlayer.random,
    draws: Annotated[bool, typer.Option("--draws/--no-draws", help="Write each drawn card (+9D) after its move.")] = False,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of standard output.")] = None,
) -> None:
    """Random legal, complete Caravan games as CVN, with both decks (random legal decks)."""
    from referee.jobs.caravan_selfplay import caravan_games

    out = open(output, "w", encoding="utf-8") if output else sys.stdout
    try:
        for i, game in enumerate(caravan_games(games, seed, rules.value, player.value, draws)):
            if i:
                out.write("\n")
            out.write(game.text())
    finally:
        if output:
            out.close()


def main() -> None:  # pragma: no cover - the console script calls app directly
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
