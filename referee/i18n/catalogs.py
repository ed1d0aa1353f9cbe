"""Keeping the catalogs: extract the template, update the languages' catalogs, compile them.

``python -m referee.i18n.catalogs extract``  re-extracts ``referee/locale/pitboss.pot``
    (``pybabel extract -F babel.cfg ...``: the keywords ``T``, ``N:1,2`` and ``M``);
``python -m referee.i18n.catalogs update``   merges the template into every ``.po``
    (``pybabel update``: new messages empty, changed ones fuzzy);
``python -m referee.i18n.catalogs compile``  compiles every ``.po`` into the ``.mo``
    beside it (``pybabel compile``), what the program reads;
``python -m referee.i18n.catalogs init LANG`` starts a new language's ``.po``.

Each is the plain ``pybabel`` command (printed before it runs), so a translator may as
well type those. Babel is needed here only, never at run time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from referee.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = LOCALE_DIR.parent.parent
POT = LOCALE_DIR / f"{DOMAIN}.pot"


def commands(action: str, lang: str | None = None) -> list[list[str]]:
    """The pybabel command lines of an action (run from the repository's root)."""
    pot = str(POT.relative_to(ROOT))
    locale = str(LOCALE_DIR.relative_to(ROOT))
    if action == "extract":
        return [["pybabel", "extract", "-F", "babel.cfg", "-o", pot, "--project=pitboss",
                 "--copyright-holder=Pitboss contributors", "--add-comments=TRANSLATORS:",
                 "--version=0.1.0", "--sort-by-file", "--width=100", "."]]
    if action == "update":
        return [["pybabel", "update", "-i", pot, "-d", locale, "-D", DOMAIN, "-l", lang_,
                 "--width=100", "--no-fuzzy-matching"]
                for lang_ in ([lang] if lang else LANGUAGES[1:])]
    if action == "compile":
        return [["pybabel", "compile", "-d", locale, "-D", DOMAIN, "-l", lang_, "--statistics"]
                for lang_ in ([lang] if lang else LANGUAGES[1:])
                if (LOCALE_DIR / lang_ / "LC_MESSAGES" / f"{DOMAIN}.po").exists()]
    if action == "init":
        if not lang:
            raise SystemExit("init needs a language: python -m referee.i18n.catalogs init LANG")
        return [["pybabel", "init", "-i", pot, "-d", locale, "-D", DOMAIN, "-l", lang, "--width=100"]]
    raise SystemExit(f"unknown action {action!r}: extract, update, compile or init LANG")


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
