"""The ``pitboss`` command line: the face of the referee.

Exit status (every command): 0 all good; 1 at least one record invalid; 2 the command
itself could not run (bad option, missing file).
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer

from referee import i18n
from referee.engines.message import J, M, N, T, said
from referee.i18n import tr
from referee.jobs import registry
from referee.jobs.solve.ask import question_names, question_options
from referee.jobs.validate import Summary, expand_inputs
from referee.notation.records import NotText, caret_line, open_text, visible


def _app_help() -> str:
    titles = " and ".join(g.title for g in registry.games())
    formats = _formats_text()
    examples = [e for g in registry.games() for e in g.examples]
    return (f"The rules referee for {titles}.\n\n"
            f"Validate recorded games ({formats}) against named rule sets, annotate and explain "
            "disputed moves, draw positions, answer puzzles, and generate random legal games. Each "
            "command's --help has examples.\n\n\b\nExamples:\n" + "\n".join(f"  {e}" for e in examples))


def _formats_text() -> str:
    return ", ".join([f"{g.notation.name} records" for g in registry.games()]
                     + [f.title.removeprefix("a ") + "s" for g in registry.games() for f in g.foreign])


def _rule_sets_text() -> str:
    return "; ".join(f"{g.title}: {', '.join(g.rule_sets)}" for g in registry.games())


def _conventional_help() -> None:
    """Help as command-line tools write it, whatever typer's own habits: typer 0.29 writes
    a required argument as ``{FILE}`` and adds its Python type (``FILE <list[str]>``);
    here a required argument is ``FILE``, an optional one ``[FILE]``, a repeated one
    ``FILE...``, with no Python types. (The typer range pyproject allows is the one these
    tests render: tests/test_conventions.py.)"""
    core = typer.core
    argument = getattr(core, "TyperArgument", None)
    if argument is None:
        return

    def usage_name(self) -> str:
        name = (self.metavar or (self.name or "").upper()).removesuffix("...")
        if self.nargs != 1:
            name += "..."
        return name if self.required else f"[{name}]"

    def help_name(self) -> str:
        name = self.metavar or (self.name or "").upper()
        return name if name.endswith("...") or self.nargs == 1 else name + "..."

    if hasattr(argument, "_usage_display_name"):
        argument._usage_display_name = usage_name
    if hasattr(argument, "_rich_display_name"):
        argument._rich_display_name = help_name
    if hasattr(argument, "display_type_rich"):
        argument.display_type_rich = lambda self, ctx: None
    option = getattr(core, "TyperOption", None)
    if option is None or not hasattr(option, "display_type_rich") or not hasattr(option, "display_type"):
        return
    names = {"int": "INTEGER", "int range": "INTEGER", "float": "FLOAT", "float range": "FLOAT", "str": "TEXT",
             "path": "PATH"}

    def option_value(self, ctx) -> str | None:
        """``--output PATH``, ``--color [auto|always|never]``, not ``<path>``, ``<int range>``."""
        if self.metavar is not None:
            return self.metavar
        label = str(self.display_type(ctx)).strip("<>")
        label = f"[{label}]" if "|" in label else names.get(label, label.upper())
        return label + "..." if self.nargs != 1 else label

    option.display_type_rich = option_value


_conventional_help()


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("pitboss")
        except PackageNotFoundError:  # run from a checkout that was never installed
            number = "unknown (not installed)"
        typer.echo(f"pitboss {number}")
        from referee.compiled.finder import current_groups

        if compiled := current_groups():  # python -m referee.compiled build
            typer.echo(f"compiled engines: {', '.join(compiled)}")
        raise typer.Exit(0)


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM ends a run as Ctrl-C does: output files half written are removed."""
    raise SystemExit(128 + signum)


app = typer.Typer(
    name="pitboss",
    help=_app_help(),
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
selfplay_app = typer.Typer(
    help="Write random legal, complete games (for tests, benchmarks and your own tools).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(selfplay_app, name="selfplay")


@app.callback()
def _main(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", "-V", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """The rules referee."""
    import signal

    signal.signal(signal.SIGTERM, _terminated)
    # Speak the locale's language unless a command's --lang says otherwise; as the command
    # ends, the language before it again (the program may be run in-process, as by tests).
    before = i18n.current()
    i18n.use(i18n.from_environment())
    ctx.call_on_close(lambda: i18n.use(before))


_LANG_HELP = ("The language to speak (" + ", ".join(f"{code}: {name}" for code, name in i18n.NAMES.items())
              + "); default: the locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). English where a text is "
              "missing; rule ids, notation and JSON keys are never translated.")


def _speak(lang: str | None) -> None:
    """Speak ``--lang`` (when given; else the locale's, already chosen); an unknown language
    is said so, and English spoken."""
    if lang is None:
        return
    chosen, warning = i18n.resolve(lang)
    if warning is not None:
        typer.echo(f"pitboss: {tr(warning)}", err=True)
    i18n.use(chosen)


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


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


def _color_wanted(color: Color, stream=None) -> bool:
    """Colour or not: --color always/never decide; auto colours a terminal, unless NO_COLOR
    is set (and not empty), or FORCE_COLOR is (and not empty or 0) also when not a
    terminal (https://no-color.org, https://force-color.org)."""
    if color is Color.always:
        return True
    if color is Color.never:
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    return (stream or sys.stdout).isatty()


@contextmanager
def _output(path: Path | str | None):
    """Standard output (no path, or ``-``), or a file written whole: into a temporary file
    beside it, renamed into place only when the command got that far (no half-written
    file is left, also when interrupted: Ctrl-C or SIGTERM)."""
    if path is None or str(path) == "-":
        try:
            yield sys.stdout
            sys.stdout.flush()
        except BrokenPipeError:  # the reader stopped reading (| head): stop quietly
            sys.stdout = open(os.devnull, "w")
            raise typer.Exit(0) from None
        return
    import signal

    path = Path(path)
    # Ctrl-C or SIGTERM between making the temporary file and being ready to remove it
    # would leave it behind: they wait (blocked) until the cleanup below is in place.
    stopping = {signal.SIGINT, signal.SIGTERM}
    unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
    try:
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".part", delete=False)
    except OSError as err:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        _fail(T("cannot write {path}: {why}", path=path, why=err.strerror or err))
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(handle.name, 0o666 & ~umask)  # as open() would have made it
        with handle:
            yield handle
        os.replace(handle.name, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(handle.name)
        raise


def _write_file(path: Path | str, text: str) -> None:
    with _output(path) as out:
        out.write(text)


def _fail(message: str) -> NoReturn:
    typer.echo(f"pitboss: {tr(message)}", err=True)
    raise typer.Exit(2)


def _where(report, finding) -> str:
    parts = [visible(report.file)]
    if finding.line is not None:
        parts.append(str(finding.line))
        if finding.column is not None:
            parts.append(str(finding.column))
    return ":".join(parts)


_STYLES: dict[str, dict[str, Any]] = {"error": {"fg": "red", "bold": True}, "warning": {"fg": "yellow", "bold": True},
           "valid": {"fg": "green"}, "INVALID": {"fg": "red", "bold": True}}


def _paint(word: str, color: bool, style: str | None = None) -> str:
    return typer.style(word, **_STYLES[style or word]) if color else word


#: How much of a record's cards is known, as the verdict line says it (JSON keeps the word).
_KNOWLEDGE = {"moves": T("moves"), "partial": T("partial"), "full": T("full")}


def _print_finding(report, finding, kind: str, color: bool = False) -> None:
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
    typer.echo(f"{_where(report, finding)}: {_paint(kind, color)} [{finding.rule}] {visible(tr(finding.message))} "
               f"({tr(J(', ', context))})", color=color or None)
    if finding.source:
        for line in caret_line(finding.source, finding.column).split("\n"):
            typer.echo(f"    {line}")


def _github(kind: str, report, finding) -> str:
    """A finding as a GitHub Actions workflow command (an annotation on the file)."""
    def prop(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A").replace(":", "%3A").replace(",", "%2C")

    def data(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    props = [f"file={prop(report.file)}"]
    if finding.line is not None:
        props.append(f"line={finding.line}")
        if finding.column is not None:
            props.append(f"col={finding.column}")
    props.append(f"title={prop(finding.rule)}")
    where = [T("game {n}", n=report.index)]
    if finding.round is not None:
        where.append(T("round {n}", n=finding.round))
    if finding.ply is not None:
        where.append(T("ply {n}", n=finding.ply))
    return f"::{kind} {','.join(props)}::{data(tr(finding.message))} ({data(tr(J(', ', where)))})"


class Format(str, Enum):
    text = "text"
    json = "json"
    github = "github"


def _rules_option(values: list[str] | None) -> dict:
    from referee.jobs.validate import parse_settings

    try:
        return parse_settings(values or ())
    except ValueError as err:
        _fail(said(err))
    return {}


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help=f"Record files ({_formats_text()}; gzip, bzip2 or xz compressed too), folders (searched recursively for them), FIFOs and process substitutions; - reads standard input.", metavar="FILE...")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document: a summary and every game's errors and warnings (as --format json).")] = False,
    output_format: Annotated[Format, typer.Option("--format", "-f", help="text (default), json (one document, as --json) or github (GitHub Actions annotations: ::error file=...,line=...,col=...).", case_sensitive=False)] = Format.text,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only invalid games and the summary.")] = False,
    statistics: Annotated[bool, typer.Option("--statistics", help="Also count the findings per rule id (in the summary).")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too: exit 1 when any record has a warning.")] = False,
    rules: Annotated[Optional[list[str]], typer.Option("--rules", "-r", help=f"Judge every record of a game under this setting instead of its own (its [Rules] tag, and [Options] where the game has options): a rule set ({_rule_sets_text()}) with any option toggles, as the record would write them. Repeat it for another game. Whole-file formats (contest logs) keep their own.", metavar="SETTING")] = None,
    color: Annotated[Color, typer.Option("--color", help="Colour the verdicts: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never.", case_sensitive=False)] = Color.auto,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, metavar="N", help="Processes to validate on (default: every core available); the output is the same for any number.")] = None,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="SCHEDULER", help="Validate on a Dask cluster (the scheduler's address, e.g. tcp://10.0.0.1:8786): each file is one task; output as on one machine. Needs pip install 'pitboss[dask]'.")] = None,
    lang: Annotated[Optional[str], typer.Option("--lang", help=_LANG_HELP, metavar="LANG")] = None,
) -> None:
    """Replay every record against its rule set and report each illegal move, bad tag,
    syntax error and wrong result, with file, line, column, ply, player and rule id.

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
    not run (a bad option, or some input could not be read).
    """
    _speak(lang)
    fmt = Format.json if as_json else output_format
    settings = _rules_option(rules)
    paint = fmt is Format.text and _color_wanted(color)
    from referee.jobs.parallel import RunError, Unread, validate_paths

    inputs = expand_inputs(files)
    if dask is not None:
        if jobs is not None:
            _fail(T("--jobs and --dask: choose one (on a cluster the workers are the jobs)"))
        from referee.jobs.cluster import validate_on_dask

        stream: Iterator[tuple[Any, float | None]] = (
            (item, None) for item in validate_on_dask(dask, inputs, settings=settings))
    else:
        stream = validate_paths(inputs, jobs, settings=settings)
    summary = Summary()
    games_json = []
    progress = Progress(enabled=fmt is not Format.github)
    try:
        try:
            for report, fraction in stream:
                if isinstance(report, Unread):
                    progress.done()
                    name = "<stdin>" if report.path == "-" else report.path
                    err = report.error
                    why = str(err) if isinstance(err, NotText) else (
                        T("no such file") if isinstance(err, FileNotFoundError) else err.strerror or str(err))
                    summary.unread.append((name, why))
                    message = why if isinstance(err, NotText) else T("cannot read {name}: {why}", name=name, why=why)
                    typer.echo(f"pitboss: {visible(tr(message))}", err=True)
                    continue
                summary.add(report)
                progress.update(visible(report.file), fraction, summary.games, summary.plies)
                if fmt is Format.json:
                    games_json.append(i18n.localize(report.to_json()))
                    continue
                if fmt is Format.github:
                    for kind, findings in (("error", report.errors), ("warning", report.warnings)):
                        for finding in findings:
                            typer.echo(_github(kind, report, finding))
                    continue
                if quiet and report.valid and not (strict and report.warnings):
                    continue
                progress.done()
                for finding in report.errors:
                    _print_finding(report, finding, "error", paint)
                for finding in report.warnings:
                    _print_finding(report, finding, "warning", paint)
                typer.echo(_verdict_line(report, paint), color=paint or None)
        except BrokenPipeError:
            # whoever read the output stopped reading (| head): stop quietly
            sys.stdout = open(os.devnull, "w")
            raise typer.Exit(0 if not summary.failed(strict) else 1)
        except RunError as err:
            progress.done()
            _fail(str(err))
    finally:
        progress.done()
    if fmt is Format.json:
        typer.echo(json.dumps(i18n.localize({"summary": summary.to_json(statistics), "games": games_json}),
                              ensure_ascii=False))
    else:
        _print_summary(summary, statistics, strict)
    raise typer.Exit(2 if summary.unread else 1 if summary.failed(strict) else 0)


def _verdict_line(report, paint: bool) -> str:
    """A record's verdict line: its file, number, game, rules and moves, valid or not."""
    n, w = len(report.errors), len(report.warnings)
    if report.valid:
        valid = _paint(tr(T("valid")), paint, "valid")
        verdict = tr(N("{valid} ({n} warning)", "{valid} ({n} warnings)", w, valid=valid)) if w else valid
    else:
        invalid = _paint(tr(T("INVALID")), paint, "INVALID")
        errors = N("{n} error", "{n} errors", n)
        verdict = tr(T("{invalid} ({errors}), {warnings}", invalid=invalid, errors=errors,
                       warnings=N("{n} warning", "{n} warnings", w)) if w
                     else T("{invalid} ({errors})", invalid=invalid, errors=errors))
    about = J(", ", [x for x in (report.game or T("unknown game"), report.rules,
                                 report.knowledge and T("knowledge: {knowledge}", knowledge=_KNOWLEDGE.get(report.knowledge, report.knowledge))) if x])
    moves = N("{n} move", "{n} moves", report.plies)
    return tr(T("{file}: game {index} ({about}, {moves}): {verdict}", file=visible(report.file), index=report.index,
                about=visible(tr(about)), moves=moves, verdict=verdict))


#: The summary line, by what it has to say beyond the counts.
_SUMMARY = {
    (False, False): M("{games}: {valid} valid, {invalid} invalid; {errors}, {warnings}"),
    (True, False): M("{games}: {valid} valid, {invalid} invalid; {errors}, {warnings} "
                     "(--strict: {warned} with warnings fail)"),
    (False, True): M("{games}: {valid} valid, {invalid} invalid; {errors}, {warnings}; {unread} not read"),
    (True, True): M("{games}: {valid} valid, {invalid} invalid; {errors}, {warnings} "
                    "(--strict: {warned} with warnings fail); {unread} not read"),
}


def _print_summary(summary: Summary, statistics: bool, strict: bool) -> None:
    def errors(n: int) -> T:
        return N("{n:,} error", "{n:,} errors", n)

    def warnings(n: int) -> T:
        return N("{n:,} warning", "{n:,} warnings", n)

    template = _SUMMARY[(bool(strict and summary.warned), bool(summary.unread))]
    typer.echo(tr(T(template, games=N("{n:,} game", "{n:,} games", summary.games), valid=summary.valid,
                    invalid=summary.invalid, errors=errors(summary.errors), warnings=warnings(summary.warnings),
                    warned=N("{n:,} valid game", "{n:,} valid games", summary.warned),
                    unread=N("{n:,} input", "{n:,} inputs", len(summary.unread)))))
    if statistics and summary.by_rule:
        typer.echo(tr(T("findings by rule:")))
        for rule, (e, w) in sorted(summary.by_rule.items(), key=lambda kv: (-sum(kv[1]), kv[0])):
            kinds = J(", ", [x for x in (e and errors(e), w and warnings(w)) if x])
            typer.echo(f"  {sum((e, w)):>7,}  {rule}  ({tr(kinds)})")


def _choices(name: str, values: Sequence[str]) -> type[Enum]:
    """A choice among ``values`` for an option (typer takes choices as an Enum)."""
    return Enum(name, {v: v for v in values}, type=str)  # type: ignore[return-value]


def _selfplay_command(game) -> None:
    """``pitboss selfplay GAME``, its options as the game's self-play declares them."""
    spec = game.selfplay
    keyword = inspect.Parameter.KEYWORD_ONLY
    params = [
        inspect.Parameter("games", keyword, default=10, annotation=Annotated[
            int, typer.Option("--games", "-n", min=1, help=f"How many {spec.noun}.")]),
        inspect.Parameter("seed", keyword, default=1, annotation=Annotated[
            int, typer.Option("--seed", "-s", help=f"Random seed: the same seed gives the same {spec.noun} (whatever --jobs).")]),
        inspect.Parameter("rules", keyword, default=game.default_rules, annotation=Annotated[
            _choices(f"{game.name}-rules", game.rule_sets),
            typer.Option("--rules", "-r", help=f"Rule set: {', '.join(game.rule_sets)}.", case_sensitive=False)]),
    ]
    for option in spec.options:
        if isinstance(option.default, bool):
            flag = f"--{option.name}/--no-{option.name}" if option.negatable else f"--{option.name}"
            info = typer.Option(flag, help=option.help)
        elif option.choices:
            kind = _choices(f"{game.name}-{option.name}", option.choices)
            params.append(inspect.Parameter(option.keyword, keyword, default=option.default, annotation=Annotated[
                kind, typer.Option(f"--{option.name}", help=option.help)]))
            continue
        else:
            info = typer.Option(f"--{option.name}", help=option.help, min=option.min, max=option.max)
        params.append(inspect.Parameter(option.keyword, keyword, default=option.default,
                                        annotation=Annotated[type(option.default), info]))
    params.append(inspect.Parameter("output", keyword, default=None, annotation=Annotated[
        Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of standard output; "
                                     "an existing directory receives one file per record that fills a file "
                                     "of its own (a contest log).")]))
    params.append(inspect.Parameter("jobs", keyword, default=None, annotation=Annotated[
        Optional[int], typer.Option("--jobs", "-j", min=1, metavar="N", help=f"Processes to generate on (default: "
                                    f"every core available); the output does not depend on it: each of the "
                                    f"{spec.noun} is made from the seed and its number alone.")]))

    def command(games: int, seed: int, rules: str, output: Optional[Path], jobs: Optional[int], **options) -> None:
        from referee.jobs.parallel import RunError
        from referee.jobs.selfplay import produce

        options = {k: getattr(v, "value", v) for k, v in options.items()}
        try:
            maker = spec.prepare(getattr(rules, "value", rules).lower(), **options)
        except ValueError as err:
            _fail(str(err))
        to_folder = output is not None and output.is_dir()
        if maker.whole_file and not to_folder and games > 1:
            _fail(f"each of the {games} {spec.noun} is a file of its own: give --output an existing directory")
        progress = Progress(enabled=True)
        label = str(output) if output is not None else spec.noun
        made = moves = 0
        stream = produce(maker, games, seed, jobs, spec.noun)
        try:
            if maker.whole_file and to_folder:
                assert output is not None
                for item in stream:
                    assert item.file_name is not None  # a whole-file maker's items name their file
                    with _output(output / item.file_name) as out:
                        out.write(item.text)
                    made, moves = made + 1, moves + item.counts["moves"]
                    progress.update(label, made / games, made, moves)
                return
            with _output(output) as out:
                for item in stream:
                    if made:
                        out.write("\n")
                    out.write(item.text)
                    made, moves = made + 1, moves + item.counts["moves"]
                    progress.update(label, made / games, made, moves)
        except RunError as err:
            progress.done()
            _fail(str(err))
        finally:
            stream.close()  # stopped early (| head, Ctrl-C): the workers are let go at once
            progress.done()

    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__doc__ = spec.help
    selfplay_app.command(game.name)(command)


for _game in registry.games():
    if _game.selfplay is not None:
        _selfplay_command(_game)


# ------------------------------------------------------------------ annotate, explain, show


def _use_color(no_color: bool, color: Color = Color.auto) -> bool:
    return not no_color and _color_wanted(color)


def _need_file(path: str) -> None:
    """A FILE argument that names something readable (a file, a FIFO, /dev/stdin, a
    process substitution), or - ; else a clear error (exit 2)."""
    if path == "-":
        return
    target = Path(path)
    if target.is_dir():
        _fail(T("{path} is a folder; this command takes one record file", path=path))
    if not target.exists():
        _fail(T("no such file: {path}", path=path))


@app.command()
def annotate(
    files: Annotated[list[str], typer.Argument(help="Record files; - reads standard input.", metavar="FILE...")],
    rules: Annotated[Optional[list[str]], typer.Option("--rules", "-r", help=f"Compare each record's own setting only with these (repeat, or comma-separate): a rule set and, where the game has options, toggles as its Options tag writes them, e.g. 'seed +spade3 -eight-cut'. Rule sets: {_rule_sets_text()}. Default: the game's other rule sets, and every single option toggled that changes some verdict.", metavar="SETTING")] = None,
    explain_all: Annotated[bool, typer.Option("--explain-all", help="Also comment every legal move with the ids of the rules that allowed it.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document: every record's moves with their verdict under each rule set, and the annotated text.")] = False,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the annotated records (or the JSON) to this file instead of standard output.")] = None,
    analyse: Annotated[bool, typer.Option("--analyse", help="Also analyse every legal move with the solver (slow: up to about 2 s a move): the mover's best outcome after it, in an 'analysis: ...' comment, and a mark (?? or ?) on a move that threw some of it away, where the move has no glyph of its own. " + " ".join(f"{g.title}: {g.analyser.summary}" for g in registry.games() if g.analyser is not None))] = False,
    depth: Annotated[int, typer.Option("--depth", help="With --analyse: own turns searched for a forced win.", min=1)] = 2,
    within: Annotated[int, typer.Option("--within", help="With --analyse: own moves searched for each goal within reach.", min=0)] = 3,
    lang: Annotated[Optional[str], typer.Option("--lang", help=_LANG_HELP, metavar="LANG")] = None,
) -> None:
    """Write the records back, each move that matters with a { } comment saying why.

    Every move is judged in its position under each rule set of the game. A comment goes on
    every illegal move (rule id and sentence), every disputed move (the rule sets disagree:
    how each rules it, with rule ids) and every move that is legal by a ruling rather than
    by the written rules. The output is a valid record again: `pitboss validate` reads it
    with the same verdicts, and annotating it again replaces these comments.

    Examples:

      pitboss annotate game.cvn

      pitboss annotate --explain-all -o annotated.cvn game.cvn

      pitboss annotate --json match.dfn | jq '.records[].moves[] | select(.disputed)'

      pitboss annotate --analyse --depth 2 --within 3 game.cvn

    With --analyse each analysed move also gets an "analysis: ..." comment and, in --json,
    an "analysis" object; ?? marks a move that threw away a forced win, ? one that threw
    away something less (each game's analysis is in --analyse above).

    Exit status: 0 every record valid under its own rules, 1 some invalid, 2 could not run.
    """
    from referee.jobs.annotate import NotAnnotatable, annotate_file, parse_wanted

    _speak(lang)
    for path in files:
        _need_file(path)
    try:
        wanted = parse_wanted(rules or [])
    except ValueError as err:
        _fail(said(err))
    if output is not None and str(output) != "-" and any(f != "-" and Path(f).resolve() == output.resolve() for f in files):
        _fail(T("{output} is also an input: write the annotated records to another file", output=output))
    counts = {"records": 0, "valid": 0, "invalid": 0, "disputed": 0, "illegal": 0, "ruling_dependent": 0}
    records_json = []
    try:
        with _output(output) as out:
            for path in files:
                records: Iterator[Any]
                if analyse:
                    from referee.jobs.analyse import Limits, analyse_file

                    records = analyse_file(path, wanted, explain_all, Limits(depth=depth, within=within))
                else:
                    records = annotate_file(path, wanted, explain_all)
                for item in records:
                    a: Any = getattr(item, "annotated", item)  # an analysed record carries its annotation
                    report = a.timeline.report
                    counts["valid" if report.valid else "invalid"] += 1
                    counts["disputed"] += sum(1 for n in a.notes if n.disputed)
                    counts["illegal"] += sum(1 for n in a.notes if not n.step.legal)
                    counts["ruling_dependent"] += sum(1 for n in a.notes if n.rulings)
                    if a.unchanged:
                        typer.echo("pitboss: " + tr(T("{file}:{line}: record {index} written back unchanged: {why}",
                                                      file=report.file, line=a.timeline.chunk.line,
                                                      index=report.index, why=a.unchanged)), err=True)
                    if as_json:
                        records_json.append(i18n.localize(item.to_json()))
                    else:
                        out.write(("\n" if counts["records"] else "") + a.text.rstrip("\n") + "\n")
                    counts["records"] += 1
            if as_json:
                out.write(json.dumps({"summary": counts, "records": records_json}, ensure_ascii=False) + "\n")
    except NotAnnotatable as err:
        _fail(said(err))
    except BrokenPipeError:
        raise  # the reader of the output went away (| head): click ends quietly
    except OSError as err:
        _fail(T("cannot read {name}: {why}", name=err.filename or "", why=err.strerror or err))
    if output is not None and str(output) != "-":
        typer.echo(tr(N("{output}: {n} record annotated ({illegal} illegal, {disputed} disputed, {ruling} by a "
                        "ruling); {invalid} invalid",
                        "{output}: {n} records annotated ({illegal} illegal, {disputed} disputed, {ruling} by a "
                        "ruling); {invalid} invalid", counts["records"], output=output, illegal=counts["illegal"],
                        disputed=counts["disputed"], ruling=counts["ruling_dependent"], invalid=counts["invalid"])))
    raise typer.Exit(1 if counts["invalid"] else 0)


@app.command()
def explain(
    file: Annotated[str, typer.Argument(help="A record file; - reads standard input.", metavar="FILE")],
    ply: Annotated[int, typer.Option("--ply", "-p", min=1, help="The move to explain, counted from 1 as validate counts it (within the round, in games played in rounds).")],
    game: Annotated[int, typer.Option("--game", "-g", min=1, help="Which record of the file (from 1).")] = 1,
    round_no: Annotated[Optional[int], typer.Option("--round", min=1, help="In games played in rounds: the round (default: the first).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document: the position, and each rule set's verdict with every rule checked.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text even on a terminal (as --color never).", hidden=True)] = False,
    color: Annotated[Color, typer.Option("--color", help="Colour: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never.", case_sensitive=False)] = Color.auto,
    lang: Annotated[Optional[str], typer.Option("--lang", help=_LANG_HELP, metavar="LANG")] = None,
) -> None:
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

    _speak(lang)
    _need_file(file)
    name = "<stdin>" if file == "-" else file
    try:
        with open_text(file) as handle:
            ex = explain_move(handle, name, ply, game, round_no)
    except (ExplainError, ContestLog) as err:
        _fail(said(err))
    except OSError as err:
        _fail(T("cannot read {name}: {why}", name=file, why=err.strerror or err))
    if as_json:
        typer.echo(json.dumps(i18n.localize(ex.to_json()), ensure_ascii=False))
    else:
        sys.stdout.write(explanation_text(ex, _use_color(no_color, color)))
    raise typer.Exit(0 if ex.note.step.legal else 1)


@app.command()
def show(
    file: Annotated[str, typer.Argument(help="A record file; - reads standard input.", metavar="FILE")],
    game: Annotated[int, typer.Option("--game", "-g", min=1, help="Which record of the file (from 1).")] = 1,
    ply: Annotated[Optional[int], typer.Option("--ply", "-p", min=0, help="Show the position after this many moves (0: the start; within the round, in games played in rounds). Default: the last position.")] = None,
    round_no: Annotated[Optional[int], typer.Option("--round", min=1, help="In games played in rounds: the round (default: the first when --ply is given, else the last).")] = None,
    svg: Annotated[Optional[str], typer.Option("--svg", help="Write the position as an SVG picture to this path (- for standard output).", metavar="PATH")] = None,
    html: Annotated[Optional[str], typer.Option("--html", help="Write one self-contained HTML page that replays the whole record move by move with its annotations (no network needed) to this path (- for standard output).", metavar="PATH")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text even on a terminal (as --color never).", hidden=True)] = False,
    color: Annotated[Color, typer.Option("--color", help="Colour: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never.", case_sensitive=False)] = Color.auto,
    as_json: Annotated[bool, typer.Option("--json", help='Print one JSON document: the record\'s verdict, the position shown ({"round", "ply", "move", "player", "illegal", ...}) and its drawing as text.')] = False,
    lang: Annotated[Optional[str], typer.Option("--lang", help=_LANG_HELP, metavar="LANG")] = None,
) -> None:
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
    from referee.jobs.render.html import replay_page
    from referee.jobs.render.svg import render as render_svg
    from referee.jobs.render.text import render as render_text
    from referee.jobs.timeline import ContestLog, timelines

    _speak(lang)
    _need_file(file)
    name = "<stdin>" if file == "-" else file
    chosen = None
    try:
        with open_text(file) as handle:
            for timeline in timelines(handle, name):
                if timeline.report.index == game:
                    chosen = timeline
                    break
    except ContestLog as err:
        _fail(said(err))
    except OSError as err:
        _fail(T("cannot read {name}: {why}", name=file, why=err.strerror or err))
    if chosen is None:
        _fail(T("{file} has no record {game}", file=name, game=game))
    annotated = annotate_timeline(chosen)
    frames = frames_of(annotated)
    try:
        frame = select(frames, ply, round_no)
    except LookupError as err:
        _fail(T("{file}, record {game}: {error}", file=name, game=game, error=said(err)))
    if svg == "-" and html == "-":
        _fail(T("--svg - and --html - would both write to standard output: give one a file"))
    if svg is not None:
        _write_file(svg, render_svg(frame))
        if svg != "-":
            typer.echo(f"{svg}: {frame.title}", err=html == "-" or as_json)  # the title is in the language
    if html is not None:
        report = chosen.report
        verdict = (T("valid") if report.valid
                   else T("invalid: {message} (rule {rule})", message=tr(report.errors[0].message).rstrip(".。"),
                          rule=report.errors[0].rule))
        rules_label = annotated.variants[0].label if annotated.variants else report.rules
        page = replay_page(frames, tr(T("{file}, game {game} ({kind}, {rules})", file=Path(name).name, game=game,
                                        kind=report.game, rules=rules_label)),
                           tr(N("{n} position · {verdict}", "{n} positions · {verdict}", len(frames), verdict=verdict)))
        _write_file(html, page)
        if html != "-":
            typer.echo(tr(N("{file}: {n} position", "{file}: {n} positions", len(frames), file=html)),
                       err=svg == "-" or as_json)
    if as_json:
        if "-" in (svg, html):
            _fail(T("--json writes to standard output: give --svg and --html a file"))
        doc = {"record": chosen.report.to_json(), "positions": len(frames), "position": frame.to_json(),
               "text": render_text(frame, False)}
        typer.echo(json.dumps(i18n.localize(doc), ensure_ascii=False))
    elif svg is None and html is None:
        sys.stdout.write(render_text(frame, _use_color(no_color, color)))
    raise typer.Exit(0 if chosen.report.valid else 1)


# ------------------------------------------------------------------ rules


@app.command()
def rules(
    game: Annotated[Optional[str], typer.Argument(help="The game (default: every game): " + ", ".join(registry.names()) + ".", metavar="[GAME]")] = None,
    rule_set: Annotated[Optional[str], typer.Option("--rules", "-r", help="Only this rule set's rules (needs GAME).", metavar="R")] = None,
    html: Annotated[Optional[Path], typer.Option("--html", help="Write the rulebook as one self-contained HTML page (each rule at #its-id).", metavar="PATH")] = None,
    lang: Annotated[Optional[str], typer.Option("--lang", help=_LANG_HELP, metavar="LANG")] = None,
) -> None:
    """The rulebook: every rule and ruling Pitboss applies, with its id (as validate,
    annotate and explain cite it), text, the rule sets and options it belongs to and its
    source; and where the rule sets differ, side by side.

    Examples:

      pitboss rules caravan

      pitboss rules daifugo --rules uecda

      pitboss rules --html rules.html

    Exit status: 0 written, 2 could not run (an unknown game or rule set).
    """
    from referee.jobs import registry
    from referee.jobs.rulebook import book
    from referee.jobs.rulebook import html as rulebook_html
    from referee.jobs.rulebook import text as rulebook_text

    _speak(lang)
    if game is not None and registry.find(game) is None:
        _fail(T("no game {game}: the games are {games}", game=repr(game), games=", ".join(registry.names())))
    if rule_set is not None and game is None:
        _fail(T("--rules needs a GAME: rule sets belong to a game"))
    chosen = [registry.game(game)] if game is not None else list(registry.games())
    try:
        books = [book(g, rule_set.strip().lower() if rule_set else None) for g in chosen]
    except ValueError as err:
        _fail(said(err))
    if html is not None:
        _write_file(html, rulebook_html(books))
        typer.echo(tr(N("{file}: {n} rule", "{file}: {n} rules", sum(len(b.rules) for b in books), file=html)))
    else:
        sys.stdout.write(rulebook_text(books))


# ------------------------------------------------------------------ convert


def _writable() -> dict[str, tuple]:
    """The formats records can be written in besides their notation: name -> (game, format)."""
    return {f.name: (g, f) for g in registry.games() for f in g.foreign if f.writes}


def _convert_records(stream, name: str, to: Optional[str], record: Optional[int], output: Optional[Path]) -> None:
    targets = _writable()
    said = ", ".join(f"{t} ({g.notation.name} records)" for t, (g, _) in targets.items()) or "none"
    if to is None:
        _fail(f"{name} holds records in a game's own notation; say what to write with --to: {said}")
    target = targets.get(to.strip().lower())
    if target is None:
        _fail(f"{name}: records can be written as {said}, not {to}")
    try:
        text = target[1].written(stream, name, record)
    except ValueError as err:
        _fail(str(err))
    if output is None:
        sys.stdout.write(text)
    else:
        _write_file(output, text)
        typer.echo(f"{output}: {name} as {target[1].title}")
    raise typer.Exit(0)


@app.command()
def convert(
    file: Annotated[str, typer.Argument(help="A file in a format Pitboss reads (a UEC contest-server log, ...); - reads standard input.", metavar="FILE")],
    to: Annotated[Optional[str], typer.Option("--to", help="What to write: for a contest log its game's notation (the default); for records another format they can be written in (" + ", ".join(f"{f.name}: {g.notation.name} records" for g in registry.games() for f in g.foreign if f.writes) + ").", metavar="FORMAT")] = None,
    game: Annotated[Optional[int], typer.Option("--game", "-g", min=1, help="Which record of the file, where the target holds one (default: the only one).")] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file (written whole or not at all) instead of standard output.", metavar="PATH")] = None,
) -> None:
    """Write a file in another notation: a UEC contest-server log as DFN (each game a
    round of a match, the exchange the log leaves out as the referee infers it), or a
    record as another format it can be written in (a uecda DFN match as a contest log).
    The result validates with the input's verdicts; what the target cannot state is left
    out, saying why.

    Examples:

      pitboss convert contest.log -o contest.dfn

      pitboss convert contest.log | pitboss validate -

      pitboss convert match.dfn --to uecda-log -o match.log

    Exit status: 0 converted, 1 converted with games left out, 2 could not run.
    """
    from referee.jobs.registry import games
    from referee.jobs.validate import sniff
    from referee.notation.records import open_text

    _need_file(file)
    name = "<stdin>" if file == "-" else file
    try:
        handle = open_text(file)
    except OSError as err:
        _fail(f"cannot read {file}: {err.strerror or err}")
    try:
        stream, foreign = sniff(handle)
        if foreign is None:
            _convert_records(stream, name, to, game, output)
            return
        owner = next(g for g in games() if foreign in g.foreign)
        if foreign.convert is None:
            _fail(f"{name} is {foreign.title}, which Pitboss cannot write in another notation")
        if to is not None and to.strip().lower() != owner.notation.name.lower():
            _fail(f"{name} is {foreign.title}: it can be written in {owner.notation.name}, not {to}")
        left_out = 0
        with _output(output) as out:
            for piece in foreign.converted(stream, name):
                left_out += piece.startswith("; ")
                out.write(piece)
    finally:
        if file != "-":
            handle.close()
    if output is not None:
        typer.echo(f"{output}: {name} as {owner.notation.name}" + (f", {left_out} game(s) left out" if left_out else ""))
    elif left_out:
        typer.echo(f"pitboss: {left_out} game(s) of {name} left out (see the ; comments)", err=True)
    raise typer.Exit(1 if left_out else 0)


# ------------------------------------------------------------------ solve


class SolveMethod(str, Enum):
    auto = "auto"
    z3 = "z3"
    search = "search"


def _solve_help() -> str:
    lines = ["Answer a question about a position: yes with a witness the engine has replayed and",
             "confirmed, no with the reason in words (from z3's unsat core or the exhaustive search),",
             "or unknown when --timeout runs out.", "", "Questions (--question), each with an example:"]
    for g in registry.games():
        for q in g.solver.questions if g.solver is not None else ():
            lines += ["", "\b", f"  {q.name:<11} {g.title}: {q.summary}", f"  {'':<11} {q.example}"]
    lines += ["", "The rule set is the record's own. Exit status: 0 answered (yes, no or unknown); 1 the",
              "position itself is invalid (its findings are printed as validate prints them); 2 could",
              "not run (bad option, missing file, a question the position cannot be asked)."]
    return "\n".join(lines)


def _solve_command() -> None:
    """``pitboss solve``: the common options, then every game's question options."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    P = inspect.Parameter
    params = [
        P("file", P.POSITIONAL_OR_KEYWORD, annotation=Annotated[str, typer.Argument(
            help="A record file holding the position (a record, or a start position); - reads standard input.",
            metavar="FILE")]),
        P("question", keyword, annotation=Annotated[_choices("question", question_names()), typer.Option(
            "--question", "-Q", help="What to ask (see the list above).", case_sensitive=False)]),
        P("game", keyword, default=1, annotation=Annotated[int, typer.Option(
            "--game", "-g", min=1, help="Which record of the file (from 1).")]),
        P("ply", keyword, default=None, annotation=Annotated[Optional[int], typer.Option(
            "--ply", "-p", min=0, help="Solve the position after this many moves (0: the start; within the round "
            "in games played in rounds). Default: after every move of the record.")]),
        P("round_no", keyword, default=None, annotation=Annotated[Optional[int], typer.Option(
            "--round", min=1, help="In games played in rounds: the round (default: the first when --ply is "
            "given, else the last).")]),
    ]
    for name, declared in question_options().items():
        first = declared[0]
        flags = [f"--{name}"] + ([first.short] if first.short else [])
        params.append(P(name, keyword, default=None, annotation=Annotated[Optional[first.type], typer.Option(
            *flags, help=" ".join(o.help for o in declared), metavar=first.metavar, min=first.min,
            max=first.max)]))
    params += [
        P("method", keyword, default=SolveMethod.auto, annotation=Annotated[SolveMethod, typer.Option(
            "--method", "-m", help="auto: the faster method finds the answer and z3 proves a no (see "
            "bench/solve.py); z3 or search: that one alone.", case_sensitive=False)]),
        P("timeout", keyword, default=10.0, annotation=Annotated[float, typer.Option(
            "--timeout", "-t", min=0.001, help="Give up after this many seconds: the answer is then 'unknown "
            "after N s'.", metavar="SECONDS")]),
        P("as_json", keyword, default=False, annotation=Annotated[bool, typer.Option(
            "--json", help='Print one JSON document: {"question", "answer", "witness", "reason", "stats": '
            '{"time", "solver_calls", "nodes"}} and more.')]),
        P("rules", keyword, default=None, annotation=Annotated[Optional[list[str]], typer.Option(
            "--rules", "-r", help=f"Solve under this setting instead of the record's own (as validate --rules: "
            f"{_rule_sets_text()}).", metavar="SETTING")]),
        P("lang", keyword, default=None, annotation=Annotated[Optional[str], typer.Option(
            "--lang", help=_LANG_HELP, metavar="LANG")]),
    ]
    solve.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    solve.__doc__ = _solve_help()
    app.command()(solve)


def solve(file: str, question, game: int, ply: Optional[int], round_no: Optional[int], method, timeout: float,
          as_json: bool, rules: Optional[list[str]] = None, lang: Optional[str] = None, **given) -> None:
    from referee.jobs.solve import QuestionError
    from referee.jobs.solve.ask import Options, ask
    from referee.jobs.solve.positions import PositionError, UsageError, load_position

    _speak(lang)
    _need_file(file)
    try:
        position = load_position(file, game, ply, round_no, _rules_option(rules))
    except UsageError as err:
        _fail(said(err))
    except OSError as err:
        _fail(T("cannot read {name}: {why}", name=file, why=err.strerror or err))
    except PositionError as err:
        report = err.report
        if as_json:
            typer.echo(json.dumps(i18n.localize({"question": question.value, "answer": None, "witness": None,
                                                 "reason": T("invalid position: {why}", why=said(err)), "stats": None,
                                                 "game": report.to_json()}), ensure_ascii=False))
        else:
            for finding in err.findings:
                _print_finding(report, finding, "error")
            typer.echo(tr(T("{file}: game {index}: invalid position: {why}", file=report.file, index=report.index,
                            why=said(err))))
        raise typer.Exit(1)
    options = Options(method=method.value, timeout=timeout, **given)
    try:
        answer = ask(position, question.value, options)
    except QuestionError as err:
        _fail(said(err))
    if as_json:
        doc = answer.to_json()
        doc["position"] = {"file": position.timeline.report.file, "game": position.timeline.report.index,
                           "kind": position.game, "rules": position.rules, "round": position.round,
                           "ply": position.ply}
        typer.echo(json.dumps(i18n.localize(doc), ensure_ascii=False))
    else:
        typer.echo(tr(T("position: {position}", position=position.describe())))
        for line in answer.text:
            typer.echo(line)
        stats = answer.stats
        typer.echo(f"({answer.method or 'search'}: {stats.time * 1000:.1f} ms, {stats.nodes} nodes, "
                   f"{stats.solver_calls} solver call{'s' if stats.solver_calls != 1 else ''})")
    raise typer.Exit(0)


_solve_command()


# ------------------------------------------------------------------ serve


def _serve_command() -> None:
    """``pitboss serve``: its own options, then one ``--NAME PORT`` (and that protocol's
    options) per protocol package of ``referee/service`` (see referee.service.protocols)."""
    from referee.service import protocols

    P = inspect.Parameter
    keyword = P.KEYWORD_ONLY
    params = [
        P("host", keyword, default="127.0.0.1", annotation=Annotated[str, typer.Option(
            "--host", help="Address to listen on (loopback by default).")]),
        P("port", keyword, default=8000, annotation=Annotated[int, typer.Option(
            "--port", min=0, max=65535, help="HTTP port (0: any free port).")]),
        P("db", keyword, default="pitboss.db", annotation=Annotated[str, typer.Option(
            "--db", help="Database: a SQLite file path, or postgresql://... (created or migrated on start).",
            metavar="PATH_OR_URL")]),
        P("rate", keyword, default=200.0, annotation=Annotated[float, typer.Option(
            "--rate", min=0.1, help="Requests per second allowed per seat token (bursts up to twice that).")]),
    ]
    for name in protocols.names():
        params.append(P(name, keyword, default=None, annotation=Annotated[Optional[int], typer.Option(
            f"--{name}", min=1, max=65535, metavar="PORT",
            help=f"Also listen for the {name} protocol on this port.")]))
        for flag, kind, default, help_text in protocols.cli_options(name):
            params.append(P(flag.replace("-", "_"), keyword, default=default, annotation=Annotated[
                Optional[kind] if default is None else kind, typer.Option(f"--{flag}", help=help_text)]))
    serve.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    app.command()(serve)


def serve(host: str, port: int, db: str, rate: float, **given) -> None:
    """Run the live referee: tables over HTTP and WebSocket, every move judged by the
    engines, committed to the database before it is answered.

    Serves until SIGINT or SIGTERM, then finishes the requests in flight and exits 0.
    The API is described at /openapi.json and /docs; / lists the tables in a browser.

    Examples:

      pitboss serve

      pitboss serve --port 8080 --db postgresql://localhost/pitboss
    """
    from referee.service import protocols
    from referee.service.app import serve as run

    i18n.use("en")  # the service answers every client alike: its API speaks English
    extra = []
    for name in protocols.names():
        if given.get(name) is None:
            continue
        options = {flag.replace("-", "_"): given.get(flag.replace("-", "_"))
                   for flag, *_ in protocols.cli_options(name)}
        module = protocols.server(name)
        extra.append(lambda hub, module=module, at=given[name], options=options:
                     module.serve(hub, host, at, **options))
    try:
        code = run(host, port, db, rate=rate, burst=2 * rate, announce=typer.echo, extra_servers=extra)
    except (OSError, RuntimeError) as err:
        _fail(f"cannot serve: {err}")
    raise typer.Exit(code)


_serve_command()

if __name__ == "__main__":  # pragma: no cover
    app()
