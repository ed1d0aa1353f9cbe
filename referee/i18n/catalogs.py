"""Keeping the catalogs: extract the templates, update the languages' catalogs, compile them.

``python -m referee.i18n.catalogs extract``  re-extracts each domain's template
    (``pybabel extract -F babel.cfg ...``: the keywords ``T``, ``N:1,2`` and ``M``):
    ``referee/locale/pitboss.pot`` from everything but the games, and
    ``referee/locale/<game>.pot`` from each game's folder;
``python -m referee.i18n.catalogs update``   merges each template into its ``.po`` files
    (``pybabel update``: new messages empty, changed ones fuzzy, gone ones dropped);
``python -m referee.i18n.catalogs compile``  compiles every ``.po`` into the ``.mo``
    beside it (``pybabel compile``), what the program reads;
``python -m referee.i18n.catalogs init LANG`` starts a new language's ``.po`` files.

Each is the plain ``pybabel`` command (printed before it runs), so a translator may as
well type those. Babel is needed here only, never at run time. A game kept outside the
package (``Game.home``) keeps its template and catalogs in its own ``locale/`` folder.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from referee.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from referee.jobs import registry

ROOT = LOCALE_DIR.parent.parent


@dataclass(frozen=True)
class Domain:
    """One domain's messages: where they are extracted from and where its catalogs are."""

    name: str
    #: What extraction reads (relative to the repository's root).
    sources: tuple[str, ...]
    #: The folder of its template and of its catalogs (``<lang>/LC_MESSAGES/<name>.po``).
    locale: Path
    #: The languages it is translated into.
    languages: tuple[str, ...]
    #: Folders extraction leaves out (by name).
    ignore: tuple[str, ...] = (".*", "_*")

    @property
    def template(self) -> Path:
        return self.locale / f"{self.name}.pot"

    def catalog(self, lang: str, suffix: str = ".po") -> Path:
        return self.locale / lang / "LC_MESSAGES" / f"{self.name}{suffix}"


def domains() -> list[Domain]:
    """``pitboss`` (everything but the games), then each registered game's."""
    games_dir = LOCALE_DIR.parent / "games"
    out = [Domain(DOMAIN, ("referee", "cli.py"), LOCALE_DIR, LANGUAGES[1:], (".*", "_*", games_dir.name))]
    for game in registry.games():
        source = game.home if game.home is not None else games_dir / game.name
        locale = game.home / "locale" if game.home is not None else LOCALE_DIR
        out.append(Domain(game.name, (_relative(source),), locale, game.languages))
    return out


def _relative(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def commands(action: str, lang: str | None = None, only: str | None = None) -> list[list[str]]:
    """The pybabel command lines of an action (run from the repository's root), for every
    domain or the one named ``only``."""
    out: list[list[str]] = []
    for domain in domains():
        if only is None or domain.name == only:
            out += _commands(domain, action, lang)
    if action not in ("extract", "update", "compile", "init"):
        raise SystemExit(f"unknown action {action!r}: extract, update, compile or init LANG")
    return out


def _commands(domain: Domain, action: str, lang: str | None) -> list[list[str]]:
    pot, locale = _relative(domain.template), _relative(domain.locale)
    languages = [lang] if lang else list(domain.languages)
    if action == "extract":
        return [["pybabel", "extract", "-F", "babel.cfg", "-o", pot, "--project=pitboss",
                 "--copyright-holder=Pitboss contributors", "--add-comments=TRANSLATORS:",
                 "--version=0.1.0", "--sort-by-file", "--width=100", "--ignore-dirs", " ".join(domain.ignore),
                 *domain.sources]]
    if action == "update":
        return [["pybabel", "update", "-i", pot, "-d", locale, "-D", domain.name, "-l", lang_,
                 "--width=100", "--no-fuzzy-matching", "--ignore-obsolete"]
                for lang_ in languages]
    if action == "compile":
        return [["pybabel", "compile", "-d", locale, "-D", domain.name, "-l", lang_, "--statistics"]
                for lang_ in languages if domain.catalog(lang_).exists()]
    if action == "init":
        if not lang:
            raise SystemExit("init needs a language: python -m referee.i18n.catalogs init LANG")
        return [["pybabel", "init", "-i", pot, "-d", locale, "-D", domain.name, "-l", lang, "--width=100"]]
    return []


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    action, lang = argv[0], (argv[1] if len(argv) > 1 else None)
    pybabel = Path(sys.executable).with_name("pybabel")
    for command in commands(action, lang):
        print(" ".join(command), flush=True)
        program = [str(pybabel) if pybabel.exists() else command[0], *command[1:]]
        done = subprocess.run(program, cwd=ROOT)
        if done.returncode:
            return done.returncode
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
