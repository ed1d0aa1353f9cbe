"""The citable rules of spec/: every rule and ruling as an entry with a stable id.

Each file of ``spec/`` is TOML holding ``[[rule]]`` tables::

    [[rule]]
    id = "caravan.number.same-value"
    title = "No two number cards of one value in a row"
    text = "..."                      # the rule in the project's own words
    rulesets = ["holotape", "fnv"]    # the rule sets (or presets) it belongs to
    options = []                      # Daifugo: the option toggles that bring it in
    source = "Caravan holotape, RULES ¶4"  # the clause it rests on
    kind = "rule"                     # or "ruling": decided where the source is silent

Files are one per game (the rules shared by its rule sets) and one per game and rule set
(``caravan-holotape.toml``), plus ``notation.toml`` for what any record can break.

The rules in other languages stand beside them: ``spec/i18n/<lang>/<name>.toml`` for each
``spec/<name>.toml``, ``[[rule]]`` tables with only ``id``, ``title``, ``text`` and, for a
ruling, ``source`` (the language's words for that rule; its source's citations stay as the
English entry writes them, only the words that explain them translated; everything else is
the English entry's). :func:`translated`
gives a rule in a language, English where the language has no text for it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from referee.notation.screen import flow
from referee.resources import data_dir


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


@cache
def catalog() -> dict[str, Rule]:
    """Every rule of spec/, by id. Raises on a duplicate id or a malformed entry."""
    rules: dict[str, Rule] = {}
    for path in sorted(data_dir("spec").glob("*.toml")):
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


def translation_dir(lang: str) -> Path:
    return data_dir("spec") / "i18n" / lang


@cache
def translations(lang: str) -> dict[str, tuple[str, str, str]]:
    """The rules' titles, texts and sources in ``lang`` (spec/i18n/<lang>/), by id: (title,
    text, source), an empty source where the entry gives none (its citation then stands as
    the English entry has it); empty for English or a language without a folder. A
    malformed file raises ValueError."""
    found: dict[str, tuple[str, str, str]] = {}
    folder = translation_dir(lang)
    if lang == "en" or not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.toml")):
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
