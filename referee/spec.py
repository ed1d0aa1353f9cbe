"""The citable rules of spec/: every rule and ruling as an entry with a stable id.

Each file of ``spec/`` is TOML holding ``[[rule]]`` tables::

    [[rule]]
    id = "caravan.number.same-value"
    title = "No two number cards of one value in a row"
    text = "..."                      # the rule in the project's own words
    rulesets = ["holotape", "fnv"]    # the rule sets (or presets) it belongs to
    options = []                      # Daifugo: the option toggles that bring it in
    source = "rulings.md, Caravan 5"  # the clause it rests on
    kind = "rule"                     # or "ruling": decided where the source is silent

Files are one per game (the rules shared by its rule sets) and one per game and rule set
(``caravan-holotape.toml``), plus ``notation.toml`` for what any record can break.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache

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
                text=" ".join(entry["text"].split()),
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


def rule(rule_id: str) -> Rule:
    return catalog()[rule_id]


def ids(prefix: str = "") -> set[str]:
    return {r for r in catalog() if r.startswith(prefix)}
