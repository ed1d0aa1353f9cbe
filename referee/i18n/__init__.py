"""Pitboss in the players' languages: which language, its catalog, and saying a message in it.

Messages are made in English everywhere (``referee.engines.message``: a ``T`` is the English
sentence and remembers its template and arguments); a face says them in the chosen language
at the last moment, with :func:`tr` (one message), :func:`localize` (a JSON document: every
message in it) or a :class:`Text` table (the render and rulebook strings).

The catalogs are gettext's, made with Babel, one *domain* per game and one (``pitboss``)
for everything else, so that a game's messages are added and translated without touching
another's: the templates ``referee/locale/<domain>.pot``, one
``<lang>/LC_MESSAGES/<domain>.po`` per language and domain, and beside each the ``.mo``
that ``pybabel compile`` makes of it (committed, so that a fresh clone and a wheel work
without compiling; ``tests/test_i18n.py`` checks that each is exactly what ``pybabel
compile`` makes of its ``.po``). A message is looked up in ``pitboss`` first, then in the
games' domains. A game kept outside the package keeps its catalogs in its own folder
(:func:`include`). Only the standard library's ``gettext`` reads them, on the first
message said in that language.

The language: ``--lang`` or, without it, the locale (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, in gettext's order), told apart by :func:`normalize`
(``zh-CN``, ``zh_CN.UTF-8`` and ``zh-Hans`` are ``zh_Hans``; ``zh-TW``, ``zh-HK`` and
``zh-Hant`` are ``zh_Hant``; ``ja_JP.UTF-8`` is ``ja``). English where a text is missing.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from referee import spec
from referee.engines.message import RULE_TITLE, T

DOMAIN = "pitboss"
#: The languages Pitboss speaks, English first (the source language: no catalog).
LANGUAGES = ("en", "zh_Hans", "zh_Hant", "ja", "fr", "hu")
#: Each language's name in itself (``pitboss --help``, the docs).
NAMES = {"en": "English", "zh_Hans": "简体中文", "zh_Hant": "繁體中文", "ja": "日本語", "fr": "français",
         "hu": "magyar"}
#: The language of a document (HTML ``lang``): BCP 47.
BCP47 = {"en": "en", "zh_Hans": "zh-Hans", "zh_Hant": "zh-Hant", "ja": "ja", "fr": "fr", "hu": "hu"}

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_current: ContextVar[str] = ContextVar("pitboss_language", default="en")

_HANT_REGIONS = {"tw", "hk", "mo"}


def normalize(tag: str | None) -> str | None:
    """The language Pitboss speaks for a language tag or locale name (``ja``, ``ja_JP.UTF-8``,
    ``zh-Hant-TW``, ``fr_FR@euro``, ``C``), or None when it speaks none of it. ``C`` and
    ``POSIX`` are English."""
    if not tag:
        return None
    base = re.split(r"[.@]", tag.strip(), maxsplit=1)[0]
    if base.upper() in ("C", "POSIX"):
        return "en"
    parts = [p.lower() for p in re.split(r"[-_]", base) if p]
    if not parts:
        return None
    lang, rest = parts[0], parts[1:]
    if lang == "zh":
        if "hant" in rest or any(p in _HANT_REGIONS for p in rest):
            return "zh_Hant"
        return "zh_Hans"
    return lang if lang in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The locale's language, as gettext finds it: the first of ``LANGUAGE`` (a list, ``:``
    between entries: its first language Pitboss speaks), ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` that is set; English when none is or Pitboss speaks none of it."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            for entry in value.split(":"):
                found = normalize(entry)
                if found is not None:
                    return found
            return "en"
    return "en"


def resolve(lang: str | None, environ: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """The language to speak for ``--lang`` (None: the locale's) and a warning to show when
    ``lang`` names a language Pitboss does not speak (it speaks English then)."""
    if lang is None or lang == "":
        return from_environment(environ), None
    found = normalize(lang)
    if found is None:
        return "en", (f"unknown language {lang!r}: speaking English "
                      f"(languages: {', '.join(LANGUAGES)})")
    return found, None


def current() -> str:
    """The language spoken now (English unless :func:`use` or :func:`speaking` chose one)."""
    return _current.get()


def use(lang: str) -> None:
    """Speak ``lang`` (one of :data:`LANGUAGES`) from now on, in this context."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    _current.set(lang)


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the ``with`` block."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


#: Folders of catalogs beside referee/locale (:func:`include`).
_included: list[Path] = []


def include(folder: Path) -> None:
    """Read the catalogs of ``folder`` (``<lang>/LC_MESSAGES/<domain>.mo``) too."""
    if folder not in _included:
        _included.append(folder)
        catalog.cache_clear()


def locale_dirs() -> list[Path]:
    """Where catalogs are: referee/locale, then the folders included."""
    return [LOCALE_DIR, *_included]


def catalog_path(lang: str, suffix: str = ".mo", domain: str = DOMAIN, folder: Path = LOCALE_DIR) -> Path:
    return folder / lang / "LC_MESSAGES" / (domain + suffix)


def domains(folder: Path = LOCALE_DIR) -> list[str]:
    """The domains of a folder of catalogs (those with a template), ``pitboss`` first."""
    found = sorted(p.stem for p in folder.glob("*.pot"))
    return sorted(found, key=lambda d: d != DOMAIN)


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalogs of ``lang`` as one (read once): ``pitboss`` first, then each
    game's; English, or a language without catalogs, says every message as it is."""
    found: gettext.NullTranslations = gettext.NullTranslations()
    if lang == "en":
        return found
    chain: list[gettext.NullTranslations] = []
    for folder in locale_dirs():
        names = sorted((folder / lang / "LC_MESSAGES").glob("*.mo"), key=lambda p: (p.stem != DOMAIN, p.stem))
        for path in names:
            try:
                with path.open("rb") as f:
                    chain.append(gettext.GNUTranslations(f))
            except OSError:
                continue
    for later in chain[1:]:
        chain[0].add_fallback(later)
    return chain[0] if chain else found


def gettext_(text: str, lang: str | None = None) -> str:
    """A marked template (``M``) in the language: its translation, or itself."""
    lang = lang or _current.get()
    if lang == "en":
        return text
    return catalog(lang).gettext(text)


def tr(text: Any, lang: str | None = None) -> Any:
    """``text`` in the language (the current one by default): a message (``T``) is said
    again from its translated template and its arguments, translated the same way; anything
    else is returned as it is. A translation whose placeholders do not fit its arguments is
    not used (the English sentence is)."""
    if not isinstance(text, T):
        return text
    lang = lang or _current.get()
    if lang == "en":
        return text
    return _say(text, lang)


def _say(msg: T, lang: str) -> str:
    if msg.msgid == "":  # a list: each part in the language
        items = msg.args["items"]
        return str(msg.args["separator"]).join(_say(i, lang) if isinstance(i, T) else i for i in items)
    if msg.msgid == RULE_TITLE:
        rule = spec.catalog().get(msg.args["rule"])
        return spec.translated(rule, lang).title if rule is not None else str(msg)
    cat = catalog(lang)
    args = {k: _say(v, lang) if isinstance(v, T) else v for k, v in msg.args.items()}
    if msg.plural is not None:
        template = cat.ngettext(msg.msgid, msg.plural, msg.n or 0)
        args["n"] = msg.n
    else:
        template = cat.gettext(msg.msgid)
    try:
        return template.format(**args)
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(msg)


def localize(doc: Any, lang: str | None = None) -> Any:
    """A JSON document with every message in it said in the language (keys never are);
    the document itself when the language is English."""
    lang = lang or _current.get()
    if lang == "en":
        return doc
    def walk(x: Any) -> Any:
        if isinstance(x, T):
            return _say(x, lang)
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [walk(v) for v in x]
        return x

    return walk(doc)


class Text(Mapping[str, str]):
    """A table of marked templates (``M``), each read in the current language: a module's
    ``TEXT``. ``dict(table)`` is the table in the current language."""

    def __init__(self, entries: Mapping[str, str]):
        self._entries = dict(entries)

    def __getitem__(self, key: str) -> str:
        return gettext_(self._entries[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def english(self) -> dict[str, str]:
        """The table as written (the msgids)."""
        return dict(self._entries)
