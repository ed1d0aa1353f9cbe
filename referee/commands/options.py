"""The options several commands share (``--lang``, ``--color``, ``--rules``), how each is
declared and what it means, and the texts their helps share (the formats read, each
game's rule sets)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO, TypeVar

import click

from referee import i18n
from referee.engines.message import J, T, said, suggested
from referee.i18n import tr
from referee.jobs import registry

from .base import Choice, fail

F = TypeVar("F", bound=Callable[..., Any])


def named_rule_set(game: registry.SomeGame, name: str) -> str:
    """The rule set ``name`` names in ``game``: itself, or, for another name of one of its
    rule sets (an older name the game's settings still read), that rule set; a name the game
    does not know is given back as it is (lower case) for the caller to refuse."""
    name = name.strip().lower()
    if name in game.rule_sets:
        return name
    settings = game.settings.get()
    try:
        named = settings.label(settings.parse(name))
    except ValueError:
        return name
    return named if named in game.rule_sets else name


class RuleSetChoice(Choice):
    """One of a game's rule sets, read as :func:`named_rule_set` reads it."""

    def __init__(self, game: registry.SomeGame) -> None:
        super().__init__(game.rule_sets, case_sensitive=False)
        self.game = game

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(named_rule_set(self.game, value) if isinstance(value, str) else value, param, ctx)


def formats_text() -> str:
    """What the readers read, as the helps list it ("CVN records, ..., UEC contest-server logs")."""
    return ", ".join([f"{g.notation.name} records" for g in registry.games()]
                     + [f.title.removeprefix("a ") + "s" for g in registry.games() for f in g.foreign])


def rule_sets_text() -> str:
    """Each game's rule sets, as the helps list them ("Caravan: holotape, fnv; ...")."""
    return "; ".join(f"{g.title}: {', '.join(g.rule_sets)}" for g in registry.games())


# ------------------------------------------------------------------ --lang

LANG_HELP = ("The language to speak (" + ", ".join(f"{code}: {name}" for code, name in i18n.NAMES.items())
             + "); default: the locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). English where a text is "
             "missing; rule ids, notation and JSON keys are never translated.")


def lang_option() -> Callable[[F], F]:
    """``--lang LANG``."""
    return click.option("--lang", metavar="LANG", help=LANG_HELP)


def speak(lang: str | None) -> None:
    """Speak ``--lang`` (when given; else the locale's, already chosen); an unknown language
    is a warning (with the closest the program speaks), and English spoken."""
    if lang is None:
        return
    chosen, warning = i18n.resolve(lang)
    if warning is not None:
        warn(suggested(warning, lang, i18n.LANGUAGES, cutoff=0.5))
    i18n.use(chosen)


# ------------------------------------------------------------------ warnings

#: Where a command's warnings are kept for its --json document (in the click context's meta).
WARNINGS = "pitboss.warnings"


def warn(message: str) -> None:
    """A warning: said on standard error now, and kept for the command's --json document."""
    text = tr(message)
    click.echo(f"pitboss: {text}", err=True)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta.setdefault(WARNINGS, []).append(text)


def with_warnings(doc: dict[str, Any]) -> dict[str, Any]:
    """A --json document, with ``"warnings"`` (what was said on standard error as a warning)
    when there were any."""
    ctx = click.get_current_context(silent=True)
    said_before = ctx.meta.get(WARNINGS) if ctx is not None else None
    return {**doc, "warnings": list(said_before)} if said_before else doc


# ------------------------------------------------------------------ --color

COLORS = ("auto", "always", "never")


def color_option(help: str) -> Callable[[F], F]:
    """``--color [auto|always|never]``."""
    return click.option("--color", type=Choice(COLORS, case_sensitive=False), default="auto", help=help)


def no_color_option() -> Callable[[F], F]:
    """``--no-color`` (hidden): as ``--color never``."""
    return click.option("--no-color", is_flag=True, hidden=True,
                        help="Plain text even on a terminal (as --color never).")


def color_wanted(color: str, stream: TextIO | None = None) -> bool:
    """Colour or not: --color always/never decide; auto colours a terminal, unless NO_COLOR
    is set (and not empty), or FORCE_COLOR is (and not empty or 0) also when not a
    terminal (https://no-color.org, https://force-color.org)."""
    if color == "always":
        return True
    if color == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    return (stream or sys.stdout).isatty()


def use_color(no_color: bool, color: str = "auto") -> bool:
    return not no_color and color_wanted(color)


# ------------------------------------------------------------------ --rules

def games_of(text: str) -> list[registry.SomeGame]:
    """The games that take ``text`` as a setting."""
    out = []
    for game in registry.games():
        try:
            game.settings.get().parse(text)
        except ValueError:
            continue
        out.append(game)
    return out


def setting_error(text: str) -> str:
    """Why no game takes ``text`` as a setting: the reasons of the games whose rule set its
    first word names (the others are not about it); where none does, the rule sets closest
    to that word."""
    first = text.split()[0] if text.split() else ""
    owners = games_of(first) if first else []
    if not owners:
        sets = [r for g in registry.games() for r in g.rule_sets]
        return suggested(T("--rules {text}: no game has a rule set {name} (rule sets: {sets})", text=repr(text),
                           name=repr(first), sets=rule_sets_text()), first, sets)
    reasons = []
    for game in owners:
        try:
            game.settings.get().parse(text)
        except ValueError as err:
            reasons.append(said(err))
    return T("--rules {text}: {reasons}", text=repr(text), reasons=J("; ", reasons))


def check_settings(texts: Sequence[str]) -> dict[str, str]:
    """Each game's text among ``texts`` (game name -> text); a text no game takes stops the
    command, saying why."""
    out = {}
    for text in texts:
        owners = games_of(text)
        if not owners:
            fail(setting_error(text))
        out.update({g.name: text for g in owners})
    return out


def rules_setting(values: Sequence[str] | None) -> dict[str, Any]:
    """``--rules`` as given (repeated, one per game) -> each game's setting; a setting that
    does not parse stops the command."""
    from referee.jobs.validate import parse_settings

    check_settings(values or ())
    try:
        return parse_settings(values or ())
    except ValueError as err:
        fail(said(err))


def unmet_settings(texts: dict[str, str], met: Iterable[str | None]) -> None:
    """A warning for each setting whose game had no record among those read (``met``: the
    games of the records read), when records of other games were."""
    games = {g for g in met if g is not None and registry.find(g) is not None}
    titles = [g.title for g in registry.games() if g.name in games]
    for name, text in texts.items():
        if games and name not in games:
            warn(T("--rules {text} is a {game} setting and met no {game} record, only {games} ones",
                   text=repr(text), game=registry.game(name).title, games=J(", ", titles)))
