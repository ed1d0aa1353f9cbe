"""``pitboss solve``: answer a question about a position. Its common options, then every
game's question options (``Solver.options``), declared by the games as data."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NoReturn

import click

from referee import i18n
from referee.engines.message import T, said
from referee.i18n import tr
from referee.jobs import registry
from referee.jobs.questions import QuestionOption
from referee.jobs.solve.ask import question_names, question_options

from .base import Argument, Choice, Command, done, fail, integer, kind, real
from .findings import print_finding
from .options import LANG_HELP, check_settings, rule_sets_text, rules_setting, speak, with_warnings
from .output import need_file

if TYPE_CHECKING:
    from referee.jobs.solve.positions import PositionError

METHODS = ("auto", "z3", "search")


def help_text() -> str:
    """The command's help: what it answers, and each game's questions with an example."""
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


def question_option(name: str, declared: list[QuestionOption]) -> click.Option:
    """``--NAME``, as the games that ask it declare it (their helps joined)."""
    first = declared[0]
    return click.Option([f"--{name}"] + ([first.short] if first.short else []),
                        type=kind(first.type, first.min, first.max), metavar=first.metavar,
                        help=" ".join(o.help for o in declared))


def params() -> list[click.Parameter]:
    """The command's arguments and options, in the order its help lists them."""
    common: list[click.Parameter] = [
        Argument(["file"], metavar="FILE",
                 help="A record file holding the position (a record, or a start position); - reads standard input."),
        click.Option(["--question", "-Q"], type=Choice(question_names(), case_sensitive=False), required=True,
                     help="What to ask (see the list above)."),
        click.Option(["--game", "-g"], type=integer(min=1), default=1, help="Which record of the file (from 1)."),
        click.Option(["--ply", "-p"], type=integer(min=0),
                     help="Solve the position after this many moves (0: the start; within the round in games played "
                          "in rounds). Default: after every move of the record."),
        click.Option(["--round", "round_no"], type=integer(min=1),
                     help="In games played in rounds: the round (default: the first when --ply is given, else the "
                          "last)."),
    ]
    asked = [question_option(name, declared) for name, declared in question_options().items()]
    return common + asked + [
        click.Option(["--method", "-m"], type=Choice(METHODS, case_sensitive=False), default="auto",
                     help="auto: the search finds the answer (the faster method) and z3 proves a no; z3 or search: "
                          "that one alone."),
        click.Option(["--timeout", "-t"], type=real(min=0.001), default=10.0, metavar="SECONDS",
                     help="Give up after this many seconds: the answer is then 'unknown after N s'."),
        click.Option(["--certify"], is_flag=True,
                     help="Prove every unsat answer of the z3 model again with cvc5 from the same SMT-LIB text; the "
                          "answer lists the solvers that agreed, and a disagreement is an error."),
        click.Option(["--json", "as_json"], is_flag=True,
                     help='Print one JSON document: {"question", "answer", "witness", "reason", "stats": {"time", '
                          '"solver_calls", "nodes"}} and more.'),
        click.Option(["--rules", "-r"], multiple=True, metavar="SETTING",
                     help=f"Solve under this setting instead of the record's own (as validate --rules: "
                          f"{rule_sets_text()})."),
        click.Option(["--lang"], metavar="LANG", help=LANG_HELP),
    ]


def solve(file: str, question: str, game: int, ply: int | None, round_no: int | None, method: str, timeout: float,
          certify: bool, as_json: bool, rules: tuple[str, ...], lang: str | None, **given: Any) -> None:
    """The position, the question asked of it, the answer printed."""
    from referee.jobs.solve import QuestionError
    from referee.jobs.solve.ask import Options, ask
    from referee.jobs.solve.positions import PositionError, UsageError, load_position

    speak(lang)
    need_file(file)
    settings = rules_setting(rules)
    try:
        position = load_position(file, game, ply, round_no, settings)
    except UsageError as err:
        fail(said(err))
    except OSError as err:
        fail(T("cannot read {name}: {why}", name=file, why=err.strerror or err))
    except PositionError as err:
        invalid(err, question, as_json)
    from referee.jobs.solve.smt import Disagreement

    wrong_game(check_settings(rules), position.game, file)
    options = Options(method=method, timeout=timeout, **given)
    options.certify = certify
    try:
        answer = ask(position, question, options)
    except QuestionError as err:
        fail(said(err))
    except Disagreement as err:
        fail(str(err))
    if as_json:
        doc = answer.to_json()
        doc["position"] = {"file": position.timeline.report.file, "game": position.timeline.report.index,
                           "kind": position.game, "rules": position.rules, "round": position.round,
                           "ply": position.ply}
        click.echo(json.dumps(i18n.localize(with_warnings(doc)), ensure_ascii=False))
    else:
        click.echo(tr(T("position: {position}", position=position.describe())))
        for line in answer.text:
            click.echo(line)
        stats = answer.stats
        click.echo(f"({answer.method or 'search'}: {stats.time * 1000:.1f} ms, {stats.nodes} nodes, "
                   f"{stats.solver_calls} solver call{'s' if stats.solver_calls != 1 else ''})")
    done(0)


def wrong_game(texts: dict[str, str], game: str, file: str) -> None:
    """A --rules setting given for another game than the position's stops the command (the
    position would be judged under its own, not the one asked for)."""
    if texts and game not in texts:
        name, text = next(iter(texts.items()))
        fail(T("--rules {text} is a {game} setting, but {file} holds a {other} record", text=repr(text),
               game=registry.game(name).title, file=file, other=registry.game(game).title))


def invalid(err: PositionError, question: str, as_json: bool) -> NoReturn:
    """The position asked about is not valid: its findings (or a JSON answer saying so); exit 1."""
    report = err.report
    if as_json:
        doc = {"question": question, "answer": None, "witness": None,
               "reason": T("invalid position: {why}", why=said(err)), "stats": None, "game": report.to_json()}
        click.echo(json.dumps(i18n.localize(with_warnings(doc)), ensure_ascii=False))
    else:
        for finding in err.findings:
            print_finding(report, finding, "error")
        click.echo(tr(T("{file}: game {index}: invalid position: {why}", file=report.file, index=report.index,
                        why=said(err))))
    done(1)


command = Command("solve", params=params(), callback=solve, help=help_text())
