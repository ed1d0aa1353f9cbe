"""The citable rules of spec/: every rule and ruling as an entry with a stable id.

Each file of ``spec/`` is TOML holding ``[[rule]]`` tables::

    [[rule]]
    id = "caravan.number.same-value"
    title = "No two number cards of one value in a row"
    text = "..."                      # the rule in the project's own words
    rulesets = ["holotape", "fnv"]    # the rule sets (or presets) it belongs to; ["*"]: all
    options = []                      # Daifugo: the option toggles that bring it in
    source = "Caravan holotape, RULES ¶4"  # the clause it rests on
    kind = "rule"                     # or "ruling": decided where the source is silent

Files are one per game (the rules shared by its rule sets) and one per game and rule set
(``caravan-holotape.toml``), plus ``notation.toml`` for what any record can break; a
game's files are found by its name (``<game>.toml``, ``<game>-*.toml``). A game's main
file also names the *topics* its rules are grouped by in the rulebook (the middle part of
their ids: ``caravan.deck.size`` is about the deck), as a table of headings::

    [topics]
    deck = "deck"

The rules in other languages stand beside them: ``spec/i18n/<lang>/<name>.toml`` for each
``spec/<name>.toml``, ``[[rule]]`` tables with only ``id``, ``title``, ``text`` and, for a
ruling, ``source`` (the language's words for that rule; its source's citations stay as the
English entry writes them, only the words that explain them translated; everything else is
the English entry's), and the topics' headings in a ``[topics]`` table. :func:`translated`
gives a rule in a language, English where the language has no text for it.

A game kept outside the package (one the test suite registers) keeps its spec files, and
their ``i18n/`` folder, in its own folder: :func:`include` adds it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from referee.notation.screen import flow
from referee.resources import data_dir

#: A rule's ``rulesets`` that says it belongs to every rule set of every game (what any
#: record can break).
EVERY = "*"


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str
    rulesets: tuple[str, ...]
    source: str
    kind: str = "rule"
    options: tuple[str, ...] = ()
    file: str = field(default="", compare=False)

    def applies_to(self, rule_set: str) -> bool:
        """Does the rule belong to ``rule_set`` (a rule set's or preset's name)?"""
        return rule_set in self.rulesets or EVERY in self.rulesets


#: Folders holding spec files beside spec/ (:func:`include`).
_included: list[Path] = []


def include(folder: Path) -> None:
    """Read the spec files of ``folder`` (and its ``i18n/<lang>/``) too."""
    if folder not in _included:
        _included.append(folder)
        for cached in (catalog, translations, _documents):
            cached.cache_clear()


def folders() -> list[Path]:
    """Where spec files are: spec/, then the folders included."""
    return [data_dir("spec"), *_included]


def _files() -> list[Path]:
    return [p for folder in folders() for p in sorted(folder.glob("*.toml"))]


@cache
def _documents(folder: Path) -> dict[str, dict[str, object]]:
    """Each spec file of ``folder`` as read, by file name."""
    out = {}
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as f:
            out[path.name] = tomllib.load(f)
    return out


@cache
def catalog() -> dict[str, Rule]:
    """Every rule of spec/, by id. Raises on a duplicate id or a malformed entry."""
    rules: dict[str, Rule] = {}
    for path in _files():
        with path.open("rb") as f:
            doc = tomllib.load(f)
        for entry in doc.get("rule", []):
            rule = Rule(
                id=entry["id"],
                title=entry["title"],
                text=flow(entry["text"]),
                rulesets=tuple(entry["rulesets"]),
                source=entry["source"],
                kind=entry.get("kind", "rule"),
                options=tuple(entry.get("options", ())),
                file=path.name,
            )
            if rule.id in rules:
                raise ValueError(f"rule id {rule.id} is defined twice ({rules[rule.id].file}, {path.name})")
            if rule.kind not in ("rule", "ruling"):
                raise ValueError(f"rule {rule.id}: kind must be 'rule' or 'ruling'")
            rules[rule.id] = rule
    return rules


def translation_dirs(lang: str) -> list[Path]:
    """The folders of the rules' texts in ``lang``: ``i18n/<lang>/`` beside each spec folder."""
    return [folder / "i18n" / lang for folder in folders()]


@cache
def translations(lang: str) -> dict[str, tuple[str, str, str]]:
    """The rules' titles, texts and sources in ``lang`` (spec/i18n/<lang>/), by id: (title,
    text, source), an empty source where the entry gives none (its citation then stands as
    the English entry has it); empty for English or a language without a folder. A
    malformed file raises ValueError."""
    found: dict[str, tuple[str, str, str]] = {}
    if lang == "en":
        return found
    for path in [p for folder in translation_dirs(lang) for p in sorted(folder.glob("*.toml"))]:
        with path.open("rb") as f:
            doc = tomllib.load(f)
        for entry in doc.get("rule", []):
            extra = set(entry) - {"id", "title", "text", "source"}
            if "id" not in entry or extra:
                raise ValueError(f"{path}: a translated rule has only id, title, text and source "
                                 f"({entry.get('id', '?')}: {', '.join(sorted(extra)) or 'no id'})")
            found[entry["id"]] = (" ".join(str(entry.get("title", "")).split()), flow(str(entry.get("text", ""))),
                                  flow(str(entry.get("source", ""))))
    return found


def translated(rule: Rule, lang: str) -> Rule:
    """``rule`` with its title, text and source in ``lang`` where that language has them
    (each on its own: a missing one stays English)."""
    words = translations(lang).get(rule.id)
    if words is None:
        return rule
    title, text, source = words
    return replace(rule, title=title or rule.title, text=text or rule.text, source=source or rule.source)


def rule(rule_id: str) -> Rule:
    return catalog()[rule_id]


def ids(prefix: str = "") -> set[str]:
    return {r for r in catalog() if r.startswith(prefix)}


def topics(file: str, lang: str = "en") -> dict[str, str]:
    """The topics a spec file (by name: a game's main file) groups its rules by, each with
    its heading in ``lang`` (English where the language has none)."""
    headings: dict[str, str] = {}
    for folder in folders():
        doc = _documents(folder).get(file)
        if doc is None:
            continue
        headings.update(_topic_table(doc, folder / file))
        if lang != "en":
            said = _documents(folder / "i18n" / lang).get(file)
            if said is not None:
                headings.update((k, v) for k, v in _topic_table(said, folder / "i18n" / lang / file).items()
                                if k in headings and v)
    return headings


def _topic_table(doc: dict[str, object], path: Path) -> dict[str, str]:
    table = doc.get("topics", {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise ValueError(f"{path}: [topics] maps each topic to its heading, a string")
    return {str(k): " ".join(str(v).split()) for k, v in table.items()}
