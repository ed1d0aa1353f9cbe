"""``pitboss annotate``: write the records back, each move that matters commented."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click

from referee import i18n
from referee.engines.message import N, T, said
from referee.i18n import tr
from referee.jobs import registry

from .base import Argument, Command, done, fail, integer
from .options import check_settings, lang_option, rule_sets_text, speak, unmet_settings, with_warnings
from .output import need_file, writing

if TYPE_CHECKING:
    from referee.jobs.analyse import Analysed
    from referee.jobs.annotate import Annotated


@click.command("annotate", cls=Command)
@click.argument("files", cls=Argument, nargs=-1, required=True, metavar="FILE...",
                help="Record files; - reads standard input.")
@click.option("--rules", "-r", multiple=True, metavar="SETTING",
              help="Compare each record's own setting only with these (repeat, or comma-separate): a rule set "
                   "and, where the game has options, toggles after it as its Options tag writes them (+spade3 "
                   f"-eight-cut). Rule sets: {rule_sets_text()}. Default: the game's other rule sets (where they "
                   "seat the players), and each option the record's Options tag sets, toggled, where that "
                   "changes some verdict; see --compare.")
@click.option("--compare", type=click.Choice(["record", "all"]), default="record", show_default=True,
              help="Without --rules, which options are toggled: those the record's Options tag sets (record), or "
                   "every single option of the game (all), each kept where it changes some verdict.")
@click.option("--explain-all", is_flag=True,
              help="Also comment every legal move with the ids of the rules that allowed it.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document: every record's moves with their verdict under each rule set, and "
                   "the annotated text.")
@click.option("--output", "-o", type=click.Path(path_type=Path),
              help="Write the annotated records (or the JSON) to this file instead of standard output.")
@click.option("--analyse", is_flag=True,
              help="Also analyse every legal move with the solver (slow: up to about 2 s a move): the mover's best "
                   "outcome after it, in an 'analysis: ...' comment, and a mark (?? or ?) on a move that threw "
                   "some of it away, where the move has no glyph of its own. "
                   + " ".join(f"{g.title}: {g.analyser.summary}" for g in registry.games() if g.analyser is not None))
@click.option("--depth", type=integer(min=1), default=2, help="With --analyse: own turns searched for a forced win.")
@click.option("--within", type=integer(min=0), default=3,
              help="With --analyse: own moves searched for each goal within reach.")
@lang_option()
def command(files: tuple[str, ...], rules: tuple[str, ...], compare: str, explain_all: bool, as_json: bool,
            output: Path | None, analyse: bool, depth: int, within: int, lang: str | None) -> None:
    """Write the records back, each move that matters with a { } comment saying why.

    Every move is judged in its position under each rule set of the game. A comment goes on
    every illegal move (rule id and sentence), every disputed move (the rule sets disagree:
    how each rules it, with rule ids) and every move that is legal by a ruling rather than
    by the written rules. The output is a valid record again: `pitboss validate` reads it
    with the same verdicts, and annotating it again replaces these comments.

    Examples:

      pitboss annotate game.cvn

      pitboss annotate --explain-all -o annotated.cvn game.cvn

      pitboss annotate --compare all match.dfn

      pitboss annotate --json match.dfn | jq '.records[].moves[] | select(.disputed)'

      pitboss annotate --analyse --depth 2 --within 3 game.cvn

    With --analyse each analysed move also gets an "analysis: ..." comment and, in --json,
    an "analysis" object; ?? marks a move that threw away a forced win, ? one that threw
    away something less (each game's analysis is in --analyse above).

    Exit status: 0 every record valid under its own rules, 1 some invalid, 2 could not run.
    """
    from referee.jobs.annotate import NotAnnotatable, parse_wanted

    speak(lang)
    for path in files:
        need_file(path)
    texts = check_settings([w.strip() for item in rules for w in item.split(",") if w.strip()])
    try:
        wanted = parse_wanted(list(rules))
    except ValueError as err:
        fail(said(err))
    if output is not None and str(output) != "-" and any(f != "-" and Path(f).resolve() == output.resolve()
                                                         for f in files):
        fail(T("{output} is also an input: write the annotated records to another file", output=output))
    counts = {"records": 0, "valid": 0, "invalid": 0, "disputed": 0, "illegal": 0, "ruling_dependent": 0}
    try:
        with writing(output) as out:
            write_annotated(out, files, wanted, texts, counts, explain_all=explain_all, as_json=as_json,
                            analysis=(depth, within) if analyse else None, compare_all=compare == "all")
    except NotAnnotatable as err:
        fail(said(err))
    except BrokenPipeError:
        raise  # the reader of the output went away (| head): click ends quietly
    except OSError as err:
        fail(T("cannot read {name}: {why}", name=err.filename or "", why=err.strerror or err))
    if output is not None and str(output) != "-":
        click.echo(tr(N("{output}: {n} record annotated ({illegal} illegal, {disputed} disputed, {ruling} by a "
                        "ruling); {invalid} invalid",
                        "{output}: {n} records annotated ({illegal} illegal, {disputed} disputed, {ruling} by a "
                        "ruling); {invalid} invalid", counts["records"], output=output, illegal=counts["illegal"],
                        disputed=counts["disputed"], ruling=counts["ruling_dependent"], invalid=counts["invalid"])))
    done(1 if counts["invalid"] else 0)


def write_annotated(out: IO[str], files: tuple[str, ...], wanted: list[str], texts: dict[str, str],
                    counts: dict[str, int], *, explain_all: bool, as_json: bool,
                    analysis: tuple[int, int] | None, compare_all: bool = False) -> None:
    """Every record of ``files`` annotated (and analysed to ``analysis``'s depth and
    within, when given) onto ``out``, as text or one JSON document; ``counts`` counted, a
    setting of ``texts`` (game -> --rules text) that met no record of its game said."""
    from referee.jobs.annotate import Annotated, annotate_file

    records_json = []
    games = set()
    for path in files:
        records: Iterator[Annotated] | Iterator[Analysed]
        if analysis is not None:
            from referee.jobs.analyse import Limits, analyse_file

            records = analyse_file(path, wanted, explain_all, Limits(depth=analysis[0], within=analysis[1]),
                                   compare_all=compare_all)
        else:
            records = annotate_file(path, wanted, explain_all, compare_all=compare_all)
        for item in records:
            a = item if isinstance(item, Annotated) else item.annotated  # an analysed record carries its annotation
            report = a.timeline.report
            games.add(report.game)
            counts["valid" if report.valid else "invalid"] += 1
            counts["disputed"] += sum(1 for n in a.notes if n.disputed)
            counts["illegal"] += sum(1 for n in a.notes if not n.step.legal)
            counts["ruling_dependent"] += sum(1 for n in a.notes if n.rulings)
            if a.unchanged:
                click.echo("pitboss: " + tr(T("{file}:{line}: record {index} written back unchanged: {why}",
                                              file=report.file, line=a.timeline.chunk.line,
                                              index=report.index, why=a.unchanged)), err=True)
            if as_json:
                records_json.append(i18n.localize(item.to_json()))
            else:
                out.write(("\n" if counts["records"] else "") + a.text.rstrip("\n") + "\n")
            counts["records"] += 1
    unmet_settings(texts, games)
    if as_json:
        out.write(json.dumps(with_warnings({"summary": counts, "records": records_json}), ensure_ascii=False) + "\n")
