"""The options several commands share (``--lang``, ``--color``, ``--rules``), how each is
declared and what it means, and the texts their helps share (the formats read, each
game's rule sets)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO, TypeVar

import click

from referee import i18n
from referee.engines.message import said
from referee.i18n import tr
from referee.jobs import registry

from .base import fail

F = TypeVar("F", bound=Callable[..., Any])


def formats_text() -> str:
    """What the readers read, as the helps list it ("CVN records, ..., UEC contest-server logs")."""
    return ", ".join([f"{g.notation} records" for g in registry.games()]
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
    is said so, and English spoken."""
    if lang is None:
        return
    chosen, warning = i18n.resolve(lang)
    if warning is not None:
        click.echo(f"pitboss: {tr(warning)}", err=True)
    i18n.use(chosen)


# ------------------------------------------------------------------ --color

COLORS = ("auto", "always", "never")


def color_option(help: str) -> Callable[[F], F]:
    """``--color [auto|always|never]``."""
    return click.option("--color", type=click.Choice(COLORS, case_sensitive=False), default="auto", help=help)


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

def rules_setting(values: Sequence[str] | None) -> dict:
    """``--rules`` as given (repeated, one per game) -> each game's setting; a setting that
    does not parse stops the command."""
    from referee.jobs.validate import parse_settings

    try:
        return parse_settings(values or ())
    except ValueError as err:
        fail(said(err))
