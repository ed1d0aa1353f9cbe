"""Every rule cites a source a player can look up, and nothing that ships names a file that
does not ship.

- each spec entry's ``source`` names a public source (the Caravan holotape, in English or
  its French release; the nv-rs reimplementation of the game's engine; the 2005 PTT post on
  大貧民; the contest server tndhms 0.29 or its later revision; the Pitboss notation) or says
  that it is a Pitboss ruling; an entry of kind "ruling" always says so;
- every clause a source cites exists in the text it names (the primary sources are in
  ``../shared/sources``: the holotape's sections, paragraphs, numbered items and card
  entries; the French release's sections and card entries; the PTT post's headings);
- no file that ships (referee/, pitboss/, cli.py, spec/, grammar/, docs/, README.md) names a
  document that does not ship, nor an issue. The wheel itself is grepped in
  tests/test_packaging.py.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from referee import i18n, spec

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT.parent / "shared" / "sources"

#: The names a source may cite (one of them at least).
CITABLE = ("Caravan holotape", "nv-rs crates/", "nv-rs docs/", "PTT post (2005)", "tndhms 0.29 ",
           "UEC contest server, later revision", "Pitboss notation", "Pitboss ruling")

#: What nothing that ships may name: the project's working documents, which do not ship,
#: and its issues. (``notation.md`` alone is the working copy; the shipped one is
#: docs/notation.md, cited as "Pitboss notation".)
UNSHIPPED = re.compile(r"rulings\.md|service\.md|uecda-server\.md|uecda-protocol\.md|shared/|\bissue [0-9]"
                       r"|\.\./shared|fixtures/", re.IGNORECASE)

SHIPPED = ("referee", "pitboss", "cli.py", "spec", "grammar", "docs", "README.md")


def _shipped_rules() -> list[spec.Rule]:
    """The rules of the spec files that ship (spec/), not those of a game the test suite
    registers from its own folder."""
    return [r for r in spec.catalog().values() if (ROOT / "spec" / r.file).is_file()]


def _source_text(opening: str) -> str:
    """The primary source that opens with ``opening`` (found by its text: the French release
    and the Hungarian retelling have each been filed under the other's name)."""
    for path in sorted(SOURCES.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        if text.lstrip().startswith(opening):
            return text
    reason = f"no primary source opening with {opening!r} at {SOURCES} (shared/sources beside the repository)"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def test_every_source_cites_a_public_source_and_nothing_else() -> None:
    bad = {}
    for rule in _shipped_rules():
        if not any(name in rule.source for name in CITABLE):
            bad[rule.id] = f"cites nothing a player can look up: {rule.source}"
        elif UNSHIPPED.search(rule.source) or re.search(r"(?<!docs/)notation\.md", rule.source):
            bad[rule.id] = f"names a document that does not ship: {rule.source}"
    assert bad == {}


def test_every_ruling_says_it_is_one_and_why() -> None:
    bad = [r.id for r in _shipped_rules()
           if r.kind == "ruling" and not re.search(r"Pitboss ruling\b.{12,}", r.source)]
    assert bad == []


def _holotape_english() -> dict[str, list[str]]:
    """The English original's sections, each as its paragraphs (a numbered item belongs to
    the paragraph before it)."""
    text = _source_text("Caravan游戏规则说明").split("英文原文", 1)[1]
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line in ("BUILDING A DECK", "RULES", "CARD VALUES", "WINNING"):
            current = sections[line] = []
        elif current is not None and re.match(r"\d+\. ", line) and current:
            current[-1] += "\n" + line
        elif current is not None and line.isascii():
            current.append(line)
    return sections


def _citations(prefix: str) -> list[tuple[str, str]]:
    """(rule id, what follows ``prefix, `` up to the next ';') for every citation of
    ``prefix`` in a source."""
    out = []
    for rule in _shipped_rules():
        for part in rule.source.split(";"):
            at = part.find(prefix + ", ")
            if at >= 0:
                out.append((rule.id, part[at + len(prefix) + 2:].strip()))
    return out


def test_the_holotape_clauses_cited_exist() -> None:
    sections = _holotape_english()
    assert [len(sections[s]) for s in ("BUILDING A DECK", "RULES", "WINNING")] == [1, 4, 1]
    entries = {p.split(":", 1)[0] for p in sections["CARD VALUES"]}
    assert entries == {"Joker", "Ace", "2-10", "Jack", "Queen", "King"}
    cited = _citations("Caravan holotape")
    assert len(cited) > 20
    for rule_id, clause in cited:
        found = re.findall(r"(BUILDING A DECK|RULES|CARD VALUES|WINNING)((?: ¶\d| and ¶\d|,? items? [\d-]+(?: and \d)?"
                           r"|, (?:Joker|Ace|2-10|Jack|Queen|King)(?:(?:,| and) (?:Joker|Ace|2-10|Jack|Queen|King))*)*)",
                           clause)
        assert found, f"{rule_id}: no section of the holotape in {clause!r}"
        for section, detail in found:
            for n in re.findall(r"¶(\d)", detail):
                assert 1 <= int(n) <= len(sections[section]), f"{rule_id}: {section} has no ¶{n}"
            items = re.findall(r"^\d+\. ", "\n".join(sections[section]), re.MULTILINE)
            for n in re.findall(r"\d", " ".join(re.findall(r"items? [\d-]+(?: and \d)?", detail))):
                assert 1 <= int(n) <= len(items), f"{rule_id}: {section} has no item {n}"
            for entry in re.findall(r"Joker|Ace|2-10|Jack|Queen|King", detail):
                assert section == "CARD VALUES" and entry in entries, f"{rule_id}: {section} has no {entry}"


def test_the_french_release_clauses_cited_exist() -> None:
    text = _source_text("Comment jouer au Caravan")
    headings = {line.strip() for line in text.splitlines() if line.strip() and line.strip() == line.strip().upper()
                and len(line.strip()) > 3}
    entries = {line.split(" ", 1)[0] for line in text.split("VALEUR DES CARTES", 1)[1].splitlines() if line.strip()}
    cited = _citations("Caravan holotape (fr)")
    assert len(cited) > 8
    for rule_id, clause in cited:
        section = next((h for h in headings if clause.startswith(h)), None)
        assert section, f"{rule_id}: no section of the French release in {clause!r}"
        entry = clause[len(section):].strip(" ,").split(" ")[0]
        if entry.startswith("¶"):
            assert section == "RÈGLES" and 1 <= int(entry[1:]) <= 4, f"{rule_id}: {clause!r}"
        elif entry:
            assert entry in entries, f"{rule_id}: the French release's {section} has no entry {entry!r}"


def test_the_ptt_post_headings_cited_exist() -> None:
    post = _source_text("Re: [問題] 有關故事中的遊戲")
    cited = [r for r in _shipped_rules() if "PTT post (2005)" in r.source]
    assert len(cited) > 25
    for rule in cited:
        for words in re.findall(r"[\u3400-\u9fff][\u3400-\u9fff0-9 ]*[\u3400-\u9fff0-9]|[\u3400-\u9fff]", rule.source):
            assert words in post, f"{rule.id}: the PTT post has no {words!r}"


def test_nothing_that_ships_names_a_file_that_does_not_ship() -> None:
    bad = []
    for top in SHIPPED:
        path = ROOT / top
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        for file in files:
            if "__pycache__" in file.parts:
                continue
            text = file.read_bytes().decode("utf-8", errors="replace")
            for match in UNSHIPPED.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                bad.append(f"{file.relative_to(ROOT)}:{line}: {match.group(0)}")
            if re.search(r"\bis the contract\b", text):
                bad.append(f"{file.relative_to(ROOT)}: calls a working document the contract")
    assert bad == []


#: What a source cites, which a translation keeps as it is (only the words that explain
#: the citation are translated).
CITATION = re.compile(r"Caravan holotape(?: \(fr\))?, [A-Z][A-Z' ]*[A-Z](?:, (?:Joker|Ace|2-10|Jack|Queen|King))?(?: ¶\d)?"
                      r"|RULES ¶\d|PTT post \(2005\)|nv-rs \S+[a-z]|tndhms 0\.29 \S+\.c|UEC contest server"
                      r"|Pitboss notation, section \d|\w+::\w+|\b[a-z]+_[a-z_]+\b|Deck[12]\b"
                      r"|\b(?:caravan|daifugo|notation)\.[a-z0-9.-]*[a-z0-9]"
                      r"|[\u3400-\u9fff][\u3400-\u9fff0-9: ]*[\u3400-\u9fff0-9]|[\u3400-\u9fff]")


@pytest.mark.parametrize("lang", i18n.LANGUAGES[1:])
def test_every_ruling_says_why_in_every_language_and_cites_as_the_english_does(lang: str) -> None:
    """A ruling's source explains a gap in the reader's language: every language translates
    it, keeping each citation (clause, file, function, heading, rule id) as written."""
    translated = spec.translations(lang)
    bad = []
    for rule in _shipped_rules():
        source = translated.get(rule.id, ("", "", ""))[2]
        if rule.kind == "ruling" and not source:
            bad.append(f"{rule.id}: no {lang} source")
        if not source:
            continue
        kept = [c for c in CITATION.findall(rule.source) if c not in source]
        if kept or "Pitboss" not in source or source == rule.source:
            bad.append(f"{rule.id}: the {lang} source loses {kept or 'Pitboss'}: {source}")
    assert bad == []
