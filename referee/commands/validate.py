"""``pitboss validate``: replay records against their rule sets and report what is wrong."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import click

from referee import i18n
from referee.engines.message import J, M, N, T
from referee.i18n import tr
from referee.jobs.report import GameReport
from referee.jobs.validate import Summary, expand_inputs
from referee.notation.records import NotText, visible

from .base import Argument, Choice, Command, done, fail, integer
from .findings import github, paint, print_finding
from .options import (
    check_settings,
    color_option,
    color_wanted,
    formats_text,
    lang_option,
    rule_sets_text,
    rules_setting,
    speak,
    unmet_settings,
    warn,
    with_warnings,
)
from .output import Progress

FORMATS = ("text", "json", "github")


@click.command("validate", cls=Command)
@click.argument("files", cls=Argument, nargs=-1, required=True, metavar="FILE...",
                help=f"Record files ({formats_text()}; gzip, bzip2 or xz compressed too), folders (searched "
                     "recursively for them), FIFOs and process substitutions; - reads standard input.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document: a summary and every game's errors and warnings (as --format json).")
@click.option("--format", "-f", "output_format", type=Choice(FORMATS, case_sensitive=False), default="text",
              help="text (default), json (one document, as --json) or github (GitHub Actions annotations: "
                   "::error file=...,line=...,col=...).")
@click.option("--quiet", "-q", is_flag=True,
              help="Print only invalid games (with --strict, warned ones too) and the summary.")
@click.option("--verbose", "-v", is_flag=True,
              help="List every record with its verdict, valid ones too (by default only records with findings).")
@click.option("--statistics", is_flag=True, help="Also count the findings per rule id (in the summary).")
@click.option("--strict", is_flag=True, help="Warnings fail too: exit 1 when any record has a warning.")
@click.option("--rules", "-r", multiple=True, metavar="SETTING",
              help="Judge every record of a game under this setting instead of its own (its [Rules] tag, and "
                   f"[Options] where the game has options): a rule set ({rule_sets_text()}) with any option "
                   "toggles, as the record would write them. Repeat it for another game. Whole-file formats "
                   "(contest logs) keep their own.")
@color_option("Colour the verdicts: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always "
              "or never.")
@click.option("--jobs", "-j", type=integer(min=1), metavar="N",
              help="Processes to validate on (default: every core available); the output is the same for any "
                   "number.")
@click.option("--dask", metavar="SCHEDULER",
              help="Validate on a Dask cluster (the scheduler's address, e.g. tcp://10.0.0.1:8786): each file is "
                   "one task; output as on one machine. Needs pip install 'pitboss[dask]'.")
@lang_option()
def command(files: tuple[str, ...], as_json: bool, output_format: str, quiet: bool, verbose: bool, statistics: bool,
            strict: bool, rules: tuple[str, ...], color: str, jobs: int | None, dask: str | None,
            lang: str | None) -> None:
    """Replay every record against its rule set and report each illegal move, bad tag,
    syntax error and wrong result, with file, line, column, ply, player and rule id.

    Each finding is printed with its line and a caret under the column, then its record's
    verdict; then a summary. When all is well that is all: -v lists every record, -q only
    the invalid ones.

    The rule set comes from each record's [Rules] tag (and [Options], where its game has
    options), or from --rules; see `pitboss --help` for each game's. A record's first
    illegal move ends its replay; the next record is read as if nothing had happened. A
    file that cannot be read (missing, binary) is reported and the others are still
    validated. Lines and columns count from 1 (columns in characters); a line holds at
    most 100,000 characters and a record 10,000,000 (a longer one is reported, not read).

    Examples:

      pitboss validate games.cvn contest/ --statistics

      pitboss validate --format github records/

      pitboss validate --rules SETTING --strict games.cvn.gz

    Exit status: 0 all valid, 1 some invalid (or, with --strict, some warned), 2 could
    not run (a bad option, or some input could not be read), 3 nothing to validate (an
    input held no records: a warning says which).
    """
    speak(lang)
    if quiet and verbose:
        fail(T("--quiet and --verbose: choose one"))
    fmt = "json" if as_json else output_format
    settings = rules_setting(rules)
    from referee.jobs.parallel import validate_paths

    origins = [(given, list(expand_inputs([given]))) for given in files]
    inputs = [path for _, paths in origins for path in paths]
    if dask is not None:
        if jobs is not None:
            fail(T("--jobs and --dask: choose one (on a cluster the workers are the jobs)"))
        from referee.jobs.cluster import validate_on_dask

        stream: Iterator[tuple[Any, float | None]] = (
            (item, None) for item in validate_on_dask(dask, inputs, settings=settings))
    else:
        stream = validate_paths(inputs, jobs, settings=settings)
    run = Run(fmt, "quiet" if quiet else "verbose" if verbose else "findings", strict,
              fmt == "text" and color_wanted(color))
    run.report_all(stream)
    unmet_settings(check_settings(rules), run.games_met)
    empty = run.empty_inputs(origins)
    summary = run.summary
    if fmt == "json":
        click.echo(json.dumps(i18n.localize(with_warnings({"summary": summary.to_json(statistics),
                                                           "games": run.games_json})), ensure_ascii=False))
    else:
        print_summary(summary, statistics, strict)
    done(2 if summary.unread else 1 if summary.failed(strict) else 3 if empty else 0)


@dataclass
class Run:
    """A validate run: how it prints (``fmt``; ``level``: quiet, findings or verbose) and
    what it has seen."""

    fmt: str
    level: str
    strict: bool
    painted: bool
    summary: Summary = field(default_factory=Summary)
    games_json: list[Any] = field(default_factory=list)
    #: Records read per file (as the reports name it).
    records_in: Counter[str] = field(default_factory=Counter)
    #: The games of the records read.
    games_met: set[str | None] = field(default_factory=set)

    def shown(self, report: GameReport) -> bool:
        """Is this record printed (text output)?"""
        if self.level == "verbose":
            return True
        if self.level == "quiet":
            return not report.valid or (self.strict and bool(report.warnings))
        return bool(report.errors or report.warnings)

    def report_all(self, stream: Iterator[tuple[Any, float | None]]) -> None:
        """Each report of ``stream`` counted and printed as the run prints, inputs that
        could not be read said on standard error."""
        from referee.jobs.parallel import RunError, Unread

        summary = self.summary
        progress = Progress(enabled=self.fmt != "github")
        try:
            for report, fraction in stream:
                if isinstance(report, Unread):
                    progress.done()
                    unread(report, summary)
                    continue
                summary.add(report)
                self.records_in[report.file] += 1
                self.games_met.add(report.game)
                progress.update(visible(report.file), fraction, summary.games, summary.plies)
                if self.fmt == "json":
                    self.games_json.append(i18n.localize(report.to_json()))
                elif self.fmt == "github":
                    for kind, findings in (("error", report.errors), ("warning", report.warnings)):
                        for finding in findings:
                            click.echo(github(kind, report, finding))
                elif self.shown(report):
                    progress.done()
                    self.print_report(report)
        except BrokenPipeError:
            # whoever read the output stopped reading (| head): stop quietly
            sys.stdout = open(os.devnull, "w")
            done(0 if not summary.failed(self.strict) else 1)
        except RunError as err:
            progress.done()
            fail(str(err))
        finally:
            progress.done()

    def print_report(self, report: GameReport) -> None:
        for finding in report.errors:
            print_finding(report, finding, "error", self.painted)
        for finding in report.warnings:
            print_finding(report, finding, "warning", self.painted)
        click.echo(verdict_line(report, self.painted), color=self.painted or None)

    def empty_inputs(self, origins: list[tuple[str, list[str]]]) -> bool:
        """A warning for each input given that held no records (a folder with no record
        files, a file with none in it); were there any?"""
        unread_names = {name for name, _ in self.summary.unread}
        empty = False
        for given, paths in origins:
            names = ["<stdin>" if path == "-" else path for path in paths]
            if not any(self.records_in[n] or n in unread_names for n in names):
                warn(T("{input}: no records: nothing to validate", input=visible(given)))
                empty = True
        return empty


def unread(report: Any, summary: Summary) -> None:
    """An input that could not be read: counted, and said on standard error."""
    name = "<stdin>" if report.path == "-" else report.path
    err = report.error
    why = str(err) if isinstance(err, NotText) else (
        T("no such file") if isinstance(err, FileNotFoundError) else err.strerror or str(err))
    summary.unread.append((name, why))
    message = why if isinstance(err, NotText) else T("cannot read {name}: {why}", name=name, why=why)
    click.echo(f"pitboss: {visible(tr(message))}", err=True)


#: How much of a record's cards is known, as the verdict line says it (JSON keeps the word).
KNOWLEDGE = {"moves": T("moves"), "partial": T("partial"), "full": T("full")}


def verdict_line(report: GameReport, painted: bool) -> str:
    """A record's verdict line: its file, number, game, rules and moves, valid or not."""
    n, w = len(report.errors), len(report.warnings)
    if report.valid:
        valid = paint(tr(T("valid")), painted, "valid")
        verdict = tr(N("{valid} ({n} warning)", "{valid} ({n} warnings)", w, valid=valid)) if w else valid
    else:
        invalid = paint(tr(T("INVALID")), painted, "INVALID")
        errors = N("{n} error", "{n} errors", n)
        verdict = tr(T("{invalid} ({errors}), {warnings}", invalid=invalid, errors=errors,
                       warnings=N("{n} warning", "{n} warnings", w)) if w
                     else T("{invalid} ({errors})", invalid=invalid, errors=errors))
    knowledge = report.knowledge and T("knowledge: {knowledge}",
                                       knowledge=KNOWLEDGE.get(report.knowledge, report.knowledge))
    about = J(", ", [x for x in (report.game or T("unknown game"), report.rules, knowledge) if x])
    moves = N("{n} move", "{n} moves", report.plies)
    if report.details.get("stopped") == "move limit":  # a game Pitboss ran, stopped at its move limit
        moves = T("{moves}, stopped at the move limit", moves=moves)
    return tr(T("{file}: game {index} ({about}, {moves}): {verdict}", file=visible(report.file), index=report.index,
                about=visible(tr(about)), moves=moves, verdict=verdict))


#: The summary line, by what it has to say beyond the counts.
SUMMARY = {
    (False, False): M("{games}: {valid} valid, {invalid} invalid; {errors}, {warnings}"),
    (True, False): M("{games}: {valid} valid, {invalid} invalid; {errors}, {warnings} "
                     "(--strict: {warned} with warnings fail)"),
    (False, True): M("{games}: {valid} valid, {invalid} invalid; {errors}, {warnings}; {unread} not read"),
    (True, True): M("{games}: {valid} valid, {invalid} invalid; {errors}, {warnings} "
                    "(--strict: {warned} with warnings fail); {unread} not read"),
}


def print_summary(summary: Summary, statistics: bool, strict: bool) -> None:
    def errors(n: int) -> T:
        return N("{n:,} error", "{n:,} errors", n)

    def warnings(n: int) -> T:
        return N("{n:,} warning", "{n:,} warnings", n)

    template = SUMMARY[(bool(strict and summary.warned), bool(summary.unread))]
    click.echo(tr(T(template, games=N("{n:,} game", "{n:,} games", summary.games), valid=f"{summary.valid:,}",
                    invalid=f"{summary.invalid:,}", errors=errors(summary.errors), warnings=warnings(summary.warnings),
                    warned=N("{n:,} valid game", "{n:,} valid games", summary.warned),
                    unread=N("{n:,} input", "{n:,} inputs", len(summary.unread)))))
    if statistics and summary.by_rule:
        click.echo(tr(T("findings by rule:")))
        for rule, (e, w) in sorted(summary.by_rule.items(), key=lambda kv: (-sum(kv[1]), kv[0])):
            kinds = J(", ", [x for x in (e and errors(e), w and warnings(w)) if x])
            click.echo(f"  {sum((e, w)):>7,}  {rule}  ({tr(kinds)})")
