"""The ``pitboss`` command line: the face of the referee.

Exit status (every command): 0 all good; 1 at least one record invalid; 2 the command
itself could not run (bad option, missing file).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from contextlib import contextmanager
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
        "rule sets, annotate and explain disputed moves, draw positions, answer puzzles, and "
        "generate random legal games. Each command's --help has examples.\n\n"
        "\b\nExamples:\n"
        "  pitboss validate games.cvn\n"
        "  pitboss validate --json contest.log | jq .summary\n"
        "  pitboss annotate game.cvn\n"
        "  pitboss show match.dfn --html replay.html\n"
        "  pitboss solve puzzle.cvn -q reach --caravan A --within 3\n"
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


@contextmanager
def _output(path: Path | None):
    """Standard output, or a file written whole: into a temporary file beside it, renamed
    into place only when the command got that far (no half-written file is left)."""
    if path is None:
        yield sys.stdout
        return
    try:
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".part", delete=False)
    except OSError as err:
        _fail(f"cannot write {path}: {err.strerror or err}")
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(handle.name, 0o666 & ~umask)  # as open() would have made it
    try:
        with handle:
            yield handle
        os.replace(handle.name, path)
    except BaseException:
        os.unlink(handle.name)
        raise


def _write_file(path: Path, text: str) -> None:
    with _output(path) as out:
        out.write(text)


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
        if path != "-" and Path(path).is_dir():
            _fail(f"{path} is a folder; name its files (e.g. {Path(path) / '*.cvn'})")
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
                    about = ", ".join(x for x in (report.game or "unknown game", report.rules,
                                                  report.knowledge and f"knowledge: {report.knowledge}") if x)
                    typer.echo(f"{report.file}: game {report.index} ({about}, {report.plies} moves): {verdict}")
            except BrokenPipeError:
                # whoever read the output stopped reading (| head): stop quietly
                sys.stdout = open(os.devnull, "w")
                raise typer.Exit(0 if summary.invalid == 0 else 1)
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
    from referee.games.caravan.selfplay import caravan_games

    with _output(output) as out:
        for i, game in enumerate(caravan_games(games, seed, rules.value, player.value, draws)):
            if i:
                out.write("\n")
            out.write(game.text())


class DaifugoRules(str, Enum):
    seed = "seed"
    uecda = "uecda"


@selfplay_app.command("daifugo")
def selfplay_daifugo(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many matches.")] = 10,
    players: Annotated[int, typer.Option("--players", "-p", min=3, max=8, help="Players per match, 3 to 8 (uecda: 5).")] = 5,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Random seed: the same seed gives the same matches.")] = 1,
    rules: Annotated[DaifugoRules, typer.Option("--rules", "-r", help="Preset.")] = DaifugoRules.seed,
    options: Annotated[str, typer.Option("--options", help='Toggles on top of the preset, as in the Options tag: "+eight-cut -revolution stairs-revolution=4 exchange=choice".')] = "",
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds per match.")] = 3,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of standard output.")] = None,
) -> None:
    """Random legal, complete Daifugo matches as DFN: each round's deal, exchange, every
    move and the finishing order."""
    from referee.games.daifugo.selfplay import daifugo_matches

    try:
        matches = daifugo_matches(games, seed, players, rules.value, options, rounds)
        first = next(matches)
    except ValueError as err:
        _fail(str(err))
    with _output(output) as out:
        out.write(first.text())
        for match in matches:
            out.write("\n")
            out.write(match.text())


# ------------------------------------------------------------------ annotate, explain, show


def _use_color(no_color: bool) -> bool:
    return not no_color and "NO_COLOR" not in os.environ and sys.stdout.isatty()


def _need_file(path: str) -> None:
    if path != "-" and not Path(path).is_file():
        _fail(f"no such file: {path}")


@app.command()
def annotate(
    files: Annotated[list[str], typer.Argument(help="CVN or DFN record files; - reads standard input.", metavar="FILE...")],
    rules: Annotated[Optional[list[str]], typer.Option("--rules", "-r", help="Compare each record's own rule set only with these (repeat or comma-separate): holotape, fnv (Caravan); seed, uecda (Daifugo). Default: every rule set of the game, and for Daifugo the record's options each toggled.", metavar="R")] = None,
    explain_all: Annotated[bool, typer.Option("--explain-all", help="Also comment every legal move with the ids of the rules that allowed it.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document: every record's moves with their verdict under each rule set, and the annotated text.")] = False,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the annotated records (or the JSON) to this file instead of standard output.")] = None,
    analyse: Annotated[bool, typer.Option("--analyse", help="Also analyse every legal move with the solver (slow: up to about 2 s a move): the mover's best outcome after it, in an 'analysis: ...' comment (Caravan, mover's hand and deck known: forced win within --depth own turns, each caravan's fewest moves into 21-26 within --within; Daifugo: fewest plays out). Marks, on moves without a glyph of their own: ?? a forced win thrown away; ? a sale made impossible (Caravan) or a play that brings the mover no nearer going out (Daifugo).")] = False,
    depth: Annotated[int, typer.Option("--depth", help="With --analyse: own turns for the Caravan forced-win search.", min=1)] = 2,
    within: Annotated[int, typer.Option("--within", help="With --analyse: own moves for bringing a Caravan caravan into 21-26.", min=0)] = 3,
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
    an "analysis" object; ?? marks a move that threw away a forced win, ? one that made a
    sale impossible (Caravan) or a play that wasted a turn toward going out (Daifugo).

    Exit status: 0 every record valid under its own rules, 1 some invalid, 2 could not run.
    """
    from referee.jobs.annotate import NotAnnotatable, annotate_file, check_wanted

    for path in files:
        _need_file(path)
    try:
        wanted = check_wanted(rules or [])
    except ValueError as err:
        _fail(str(err))
    if output is not None and any(f != "-" and Path(f).resolve() == output.resolve() for f in files):
        _fail(f"{output} is also an input: write the annotated records to another file")
    counts = {"records": 0, "valid": 0, "invalid": 0, "disputed": 0, "illegal": 0, "ruling_dependent": 0}
    records_json = []
    try:
        with _output(output) as out:
            for path in files:
                if analyse:
                    from referee.jobs.analyse import Limits, analyse_file

                    records = analyse_file(path, wanted, explain_all, Limits(depth=depth, within=within))
                else:
                    records = annotate_file(path, wanted, explain_all)
                for item in records:
                    a = item.annotated if analyse else item
                    report = a.timeline.report
                    counts["valid" if report.valid else "invalid"] += 1
                    counts["disputed"] += sum(1 for n in a.notes if n.disputed)
                    counts["illegal"] += sum(1 for n in a.notes if not n.step.legal)
                    counts["ruling_dependent"] += sum(1 for n in a.notes if n.rulings)
                    if a.unchanged:
                        typer.echo(f"pitboss: {report.file}:{a.timeline.chunk.line}: record {report.index} written "
                                   f"back unchanged: {a.unchanged}", err=True)
                    if as_json:
                        records_json.append(item.to_json())
                    else:
                        out.write(("\n" if counts["records"] else "") + a.text.rstrip("\n") + "\n")
                    counts["records"] += 1
            if as_json:
                out.write(json.dumps({"summary": counts, "records": records_json}, ensure_ascii=False) + "\n")
    except NotAnnotatable as err:
        _fail(str(err))
    except BrokenPipeError:
        raise  # the reader of the output went away (| head): click ends quietly
    except OSError as err:
        _fail(f"cannot read {err.filename or ''}: {err.strerror or err}")
    if output is not None:
        n = counts["records"]
        typer.echo(f"{output}: {n} record{'s' * (n != 1)} annotated ({counts['illegal']} illegal, "
                   f"{counts['disputed']} disputed, {counts['ruling_dependent']} by a ruling); "
                   f"{counts['invalid']} invalid")
    raise typer.Exit(1 if counts["invalid"] else 0)


@app.command()
def explain(
    file: Annotated[str, typer.Argument(help="A CVN or DFN record file; - reads standard input.", metavar="FILE")],
    ply: Annotated[int, typer.Option("--ply", "-p", min=1, help="The move to explain, counted from 1 as validate counts it (within the round for Daifugo).")],
    game: Annotated[int, typer.Option("--game", "-g", min=1, help="Which record of the file (from 1).")] = 1,
    round_no: Annotated[Optional[int], typer.Option("--round", min=1, help="Daifugo: the round (default: the first).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document: the position, and each rule set's verdict with every rule checked.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text even on a terminal.")] = False,
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
    from referee.notation.records import open_text

    _need_file(file)
    name = "<stdin>" if file == "-" else file
    try:
        with open_text(file) as handle:
            ex = explain_move(handle, name, ply, game, round_no)
    except (ExplainError, ContestLog) as err:
        _fail(str(err))
    except OSError as err:
        _fail(f"cannot read {file}: {err.strerror or err}")
    if as_json:
        typer.echo(json.dumps(ex.to_json(), ensure_ascii=False))
    else:
        sys.stdout.write(explanation_text(ex, _use_color(no_color)))
    raise typer.Exit(0 if ex.note.step.legal else 1)


@app.command()
def show(
    file: Annotated[str, typer.Argument(help="A CVN or DFN record file; - reads standard input.", metavar="FILE")],
    game: Annotated[int, typer.Option("--game", "-g", min=1, help="Which record of the file (from 1).")] = 1,
    ply: Annotated[Optional[int], typer.Option("--ply", "-p", min=0, help="Show the position after this many moves (0: the start; within the round for Daifugo). Default: the last position.")] = None,
    round_no: Annotated[Optional[int], typer.Option("--round", min=1, help="Daifugo: the round (default: the first when --ply is given, else the last).")] = None,
    svg: Annotated[Optional[str], typer.Option("--svg", help="Write the position as an SVG picture to this path (- for standard output).", metavar="PATH")] = None,
    html: Annotated[Optional[Path], typer.Option("--html", help="Write one self-contained HTML page that replays the whole record move by move with its annotations (no network needed).", metavar="PATH")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text even on a terminal (colour is used only on a terminal, and never with NO_COLOR set).")] = False,
) -> None:
    """Draw a position: the six caravans with attached face cards, values, direction, suit
    and lanes; or the Daifugo table, hands, trick, titles and revolution.

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
    from referee.notation.records import open_text

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
        _fail(str(err))
    except OSError as err:
        _fail(f"cannot read {file}: {err.strerror or err}")
    if chosen is None:
        _fail(f"{name} has no record {game}")
    annotated = annotate_timeline(chosen)
    frames = frames_of(annotated)
    try:
        frame = select(frames, ply, round_no)
    except LookupError as err:
        _fail(f"{name}, record {game}: {err}")
    if svg is not None:
        picture = render_svg(frame)
        if svg == "-":
            sys.stdout.write(picture)
        else:
            _write_file(Path(svg), picture)
            typer.echo(f"{svg}: {frame.title}")
    if html is not None:
        report = chosen.report
        verdict = "valid" if report.valid else f"invalid: [{report.errors[0].rule}] {report.errors[0].message}"
        page = replay_page(frames, f"{Path(name).name}, game {game} ({report.game}, {annotated.variants[0].label if annotated.variants else report.rules})",
                           f"{len(frames)} positions · {verdict}")
        _write_file(html, page)
        typer.echo(f"{html}: {len(frames)} positions")
    if svg is None and html is None:
        sys.stdout.write(render_text(frame, _use_color(no_color)))
    raise typer.Exit(0 if chosen.report.valid else 1)


# ------------------------------------------------------------------ solve


class SolveQuestion(str, Enum):
    reach = "reach"
    fewest = "fewest"
    forced_win = "forced-win"
    out = "out"
    unbeatable = "unbeatable"
    forced_out = "forced-out"


class SolveMethod(str, Enum):
    auto = "auto"
    z3 = "z3"
    search = "search"


@app.command()
def solve(
    file: Annotated[str, typer.Argument(help="A CVN or DFN file holding the position (a record, or a [Table] position); - reads standard input.", metavar="FILE")],
    question: Annotated[SolveQuestion, typer.Option("--question", "-q", help="What to ask (see the list above).", case_sensitive=False)],
    game: Annotated[int, typer.Option("--game", "-g", min=1, help="Which record of the file (from 1).")] = 1,
    ply: Annotated[Optional[int], typer.Option("--ply", "-p", min=0, help="Solve the position after this many moves (0: the start; within the round for Daifugo). Default: after every move of the record.")] = None,
    round_no: Annotated[Optional[int], typer.Option("--round", min=1, help="Daifugo: the round (default: the first when --ply is given, else the last).")] = None,
    caravan: Annotated[Optional[str], typer.Option("--caravan", "-c", help="reach, fewest: the caravan to bring into 21-26 (A-F); its owner moves.", metavar="X")] = None,
    lane: Annotated[Optional[str], typer.Option("--lane", "-l", help="fewest: the lane to win for the side to move (A/D, B/E, C/F).", metavar="X/Y")] = None,
    within: Annotated[Optional[int], typer.Option("--within", "-k", min=0, help="reach, fewest: at most this many own moves (default 3 for reach, 6 for fewest).", metavar="K")] = None,
    cards: Annotated[Optional[str], typer.Option("--cards", help="reach, fewest: hand (the known hand only) or hand+deck (also the known deck, in draw order; default). unbeatable: unseen (every card the player cannot see, pooled; default) or hands (each other player's own hand).", metavar="WHICH")] = None,
    depth: Annotated[Optional[int], typer.Option("--depth", "-d", min=1, help="forced-win: own turns (default 2). forced-out: the most own plays (default: the hand's size).", metavar="N")] = None,
    play: Annotated[Optional[str], typer.Option("--play", help='unbeatable: the play to judge, e.g. "5S 5C" (default: the play on the table).', metavar="CARDS")] = None,
    player: Annotated[Optional[str], typer.Option("--player", help="out, unbeatable, forced-out: the player, by name as in [Players] (default: the player to move; for unbeatable without --play, whoever made the play on the table).", metavar="NAME")] = None,
    method: Annotated[SolveMethod, typer.Option("--method", "-m", help="auto: the faster method finds the answer and z3 proves a no (see bench/solve.py); z3 or search: that one alone.", case_sensitive=False)] = SolveMethod.auto,
    timeout: Annotated[float, typer.Option("--timeout", "-t", min=0.001, help="Give up after this many seconds: the answer is then 'unknown after N s'.", metavar="SECONDS")] = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help='Print one JSON document: {"question", "answer", "witness", "reason", "stats": {"time", "solver_calls", "nodes"}} and more.')] = False,
) -> None:
    """Answer a question about a position: yes with a witness the engine has replayed and
    confirmed, no with the reason in words (from z3's unsat core or the exhaustive search),
    or unknown when --timeout runs out.

    Questions (--question), each with an example:

    \b
      reach       Caravan: can caravan X get into 21-26 within K of its owner's
                  own moves (the opponent passing)? The shortest line, or why
                  none exists.
                  pitboss solve puzzle.cvn -q reach --caravan A --within 3

    \b
      fewest      Caravan: the fewest own moves to sell caravan X, or to win
                  lane X/Y for the side to move (the opponent passing).
                  pitboss solve puzzle.cvn -q fewest --lane B/E --within 6

    \b
      forced-win  Caravan, both hands and decks known: can the side to move
                  force a win within N own turns? A first move (the whole
                  strategy in --json), or a reply to every try.
                  pitboss solve game.cvn --ply 40 -q forced-win --depth 2

    \b
      out         Daifugo: the fewest plays that empty this player's hand if
                  nobody ever beats them, and one split of the hand.
                  pitboss solve puzzle.dfn -q out --player Aki

    \b
      unbeatable  Daifugo: is this play unbeatable by any combination of the cards
                  this player cannot see? yes, or no and every play that beats it.
                  pitboss solve puzzle.dfn -q unbeatable --play "2S 2H"

    \b
      forced-out  Daifugo, all hands known: can this player go out first
                  whatever the others do? A strategy, or a reply to every try.
                  pitboss solve puzzle.dfn -q forced-out --player Aki

    The rule set is the record's own ([Rules], [Options]). Exit status: 0 answered (yes, no
    or unknown); 1 the position itself is invalid (its findings are printed as validate
    prints them); 2 could not run (bad option, missing file, a question the position
    cannot be asked).
    """
    from referee.jobs.solve import QuestionError
    from referee.jobs.solve.ask import Options, ask
    from referee.jobs.solve.positions import PositionError, UsageError, load_position

    _need_file(file)
    try:
        position = load_position(file, game, ply, round_no)
    except UsageError as err:
        _fail(str(err))
    except OSError as err:
        _fail(f"cannot read {file}: {err.strerror or err}")
    except PositionError as err:
        report = err.report
        if as_json:
            typer.echo(json.dumps({"question": question.value, "answer": None, "witness": None,
                                   "reason": f"invalid position: {err}", "stats": None,
                                   "game": report.to_json()}, ensure_ascii=False))
        else:
            for finding in err.findings:
                _print_finding(report, finding, "error")
            typer.echo(f"{report.file}: game {report.index}: invalid position: {err}")
        raise typer.Exit(1)
    options = Options(caravan=caravan, lane=lane, within=within, cards=cards, depth=depth, play=play,
                      player=player, method=method.value, timeout=timeout)
    try:
        answer = ask(position, question.value, options)
    except QuestionError as err:
        _fail(str(err))
    if as_json:
        doc = answer.to_json()
        doc["position"] = {"file": position.timeline.report.file, "game": position.timeline.report.index,
                           "kind": position.game, "rules": position.rules, "round": position.round,
                           "ply": position.ply}
        typer.echo(json.dumps(doc, ensure_ascii=False))
    else:
        typer.echo(f"position: {position.describe()}")
        for line in answer.text:
            typer.echo(line)
        stats = answer.stats
        typer.echo(f"({answer.method or 'search'}: {stats.time * 1000:.1f} ms, {stats.nodes} nodes, "
                   f"{stats.solver_calls} solver call{'s' if stats.solver_calls != 1 else ''})")
    raise typer.Exit(0)


# ------------------------------------------------------------------ serve


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="HTTP port (0: any free port).")] = 8000,
    db: Annotated[str, typer.Option("--db", help="Database: a SQLite file path, or postgresql://... (created or migrated on start).", metavar="PATH_OR_URL")] = "pitboss.db",
    uecda: Annotated[Optional[int], typer.Option("--uecda", min=1, max=65535, help="Also listen for the UEC contest protocol on this port (42485 is the contest's).", metavar="PORT")] = None,
    rate: Annotated[float, typer.Option("--rate", min=0.1, help="Requests per second allowed per seat token (bursts up to twice that).")] = 200.0,
) -> None:
    """Run the live referee: tables over HTTP and WebSocket, every move judged by the
    engines, committed to the database before it is answered.

    Serves until SIGINT or SIGTERM, then finishes the requests in flight and exits 0.

    Examples:

      pitboss serve

      pitboss serve --port 8080 --db postgresql://localhost/pitboss
    """
    from referee.service.app import serve as run

    extra = []
    if uecda is not None:
        try:
            from referee.service.uecda import server as uecda_server
        except ImportError:
            _fail("--uecda: the contest protocol is not available in this build")
        extra.append(lambda hub: uecda_server.serve(hub, host, uecda))
    try:
        code = run(host, port, db, rate=rate, burst=2 * rate, announce=typer.echo, extra_servers=extra)
    except (OSError, RuntimeError) as err:
        _fail(f"cannot serve: {err}")
    raise typer.Exit(code)


if __name__ == "__main__":  # pragma: no cover
    app()
