"""Pitboss in the players' languages (issue 12 item 4).

- the message type: English unchanged, the template and arguments kept (pickled too),
  said again from a catalog, recursively, with plurals, English when a translation is
  broken;
- the language: ``--lang`` and the locale (gettext's order), the names people write for it;
- the catalogs: the template is what extraction finds today (its messages, and the files
  they are in, which every catalog names as the template does); every language translates
  every message, with the same placeholders, nothing fuzzy; each ``.mo`` is what
  ``pybabel compile`` makes of its ``.po``;
- the rule texts beside the spec: every rule in every language, and the rulebook (text and
  HTML) shows each rule's id, source and that language's text;
- the command line and the replay page in a language; rule ids and JSON keys never change.

The catalogs and rule texts are the translators'; until theirs are merged the tests that
need them fail (that is what they are for).
"""

from __future__ import annotations

import io
import json
import pickle
import re
import string
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from click.testing import CliRunner

from referee import i18n, spec
from referee.engines.message import J, M, N, R, T, said
from referee.i18n import catalogs
from referee.jobs import registry, rulebook

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = i18n.LANGUAGES[1:]


def _fields(text: str) -> set[str]:
    """The placeholders of a brace template (``{who}``, ``{n:,}``: who, n)."""
    out = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is not None:
            out.add(re.split(r"[.\[]", name, maxsplit=1)[0])
    return out


def _read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def _msgids(cat: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}


# ------------------------------------------------------------------ the message type


def test_a_message_is_its_english_sentence_and_keeps_how_it_was_made() -> None:
    m = T("{who} does not hold {card}", who=T("player {name}", name="1"), card="KS")
    assert m == "player 1 does not hold KS" and isinstance(m, str)
    assert m.msgid == "{who} does not hold {card}" and m.args["card"] == "KS"
    assert f"[{m}]" == "[player 1 does not hold KS]" and json.dumps({"m": m}) == '{"m": "player 1 does not hold KS"}'
    assert N("{n} card", "{n} cards", 1) == "1 card" and N("{n} card", "{n} cards", 3) == "3 cards"
    assert J("; ", [T("a {x}", x=1), "b"]) == "a 1; b"
    assert T("{{ literal }} {x}", x=2) == "{ literal } 2"
    assert M("kept {as} is") == "kept {as} is"
    assert said(ValueError(m)) is m and said(ValueError("plain")) == "plain"


def test_a_message_survives_pickling_with_its_template() -> None:
    m = N("{who} owes {n} card", "{who} owes {n} cards", 2, who=T("player {name}", name="B"))
    back = pickle.loads(pickle.dumps(m))
    assert back == m and back.msgid == m.msgid and back.plural == m.plural and back.n == 2
    assert isinstance(back.args["who"], T) and back.args["who"].msgid == "player {name}"


def _fake_catalog(monkeypatch, lang: str, entries: dict, plural: str = "nplurals=2; plural=(n != 1);") -> None:
    cat = Catalog(locale=None)
    cat._set_mime_headers([("Plural-Forms", plural), ("Content-Type", "text/plain; charset=utf-8")])
    for msgid, msgstr in entries.items():
        cat.add(msgid, msgstr)
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    import gettext

    translations = gettext.GNUTranslations(buf)
    real = i18n.catalog
    monkeypatch.setattr(i18n, "catalog", lambda code: translations if code == lang else real(code))


def test_a_message_is_said_again_from_the_catalog_recursively_with_plurals(monkeypatch) -> None:
    _fake_catalog(monkeypatch, "fr", {
        "{who} does not hold {card}": "{who} n'a pas {card}",
        "player {name}": "le joueur {name}",
        ("{n} card", "{n} cards"): ("{n} carte", "{n} cartes"),
        "broken {who}": "cassé {nobody}",
        "spades": "piques",
    })
    m = T("{who} does not hold {card}", who=T("player {name}", name="1"), card="KS")
    assert i18n.tr(m, "fr") == "le joueur 1 n'a pas KS"
    assert i18n.tr(N("{n} card", "{n} cards", 1), "fr") == "1 carte"
    assert i18n.tr(N("{n} card", "{n} cards", 2), "fr") == "2 cartes"
    assert i18n.tr(J(", ", [T("spades"), "KS"]), "fr") == "piques, KS"
    assert i18n.tr(T("broken {who}", who="x"), "fr") == "broken x"  # a translation that does not fit: English
    assert i18n.tr(T("not in the catalog {x}", x=1), "fr") == "not in the catalog 1"
    assert i18n.tr("a plain str", "fr") == "a plain str" and i18n.tr(m, "en") is m
    doc = {"message": m, "list": [m], "rule": "caravan.hand.possession", "n": 3}
    assert i18n.localize(doc, "fr") == {"message": "le joueur 1 n'a pas KS", "list": ["le joueur 1 n'a pas KS"],
                                        "rule": "caravan.hand.possession", "n": 3}
    with i18n.speaking("fr"):
        assert i18n.tr(m) == "le joueur 1 n'a pas KS"
        assert i18n.Text({"s": M("spades")})["s"] == "piques"
    assert i18n.current() == "en"


def test_a_rule_title_inside_a_message_comes_from_the_rule_texts(monkeypatch) -> None:
    rule = spec.rule("caravan.hand.possession")
    monkeypatch.setattr(spec, "translations", lambda lang: {rule.id: ("TITRE", "TEXTE", "")} if lang == "fr" else {})
    m = T("[{rule}] {title}", rule=rule.id, title=R(rule.id, rule.title))
    assert m == f"[{rule.id}] {rule.title}"
    assert i18n.tr(m, "fr") == f"[{rule.id}] TITRE"


# ------------------------------------------------------------------ the language


@pytest.mark.parametrize("tag, lang", [
    ("ja", "ja"), ("ja_JP.UTF-8", "ja"), ("ja-JP", "ja"), ("fr_FR@euro", "fr"), ("fr-CA", "fr"),
    ("hu_HU.utf8", "hu"), ("en_GB.UTF-8", "en"), ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"),
    ("zh", "zh_Hans"), ("zh-CN", "zh_Hans"), ("zh_CN.UTF-8", "zh_Hans"), ("zh-Hans", "zh_Hans"), ("zh_SG", "zh_Hans"),
    ("zh-TW", "zh_Hant"), ("zh_TW.Big5", "zh_Hant"), ("zh-HK", "zh_Hant"), ("zh-Hant", "zh_Hant"),
    ("zh_Hant_TW", "zh_Hant"), ("zh-MO", "zh_Hant"), ("de_DE.UTF-8", None), ("", None), ("xx", None),
])
def test_language_names_as_people_write_them(tag: str, lang: str | None) -> None:
    assert i18n.normalize(tag) == lang


def test_the_locale_in_gettexts_order() -> None:
    env = i18n.from_environment
    assert env({}) == "en"
    assert env({"LANG": "ja_JP.UTF-8"}) == "ja"
    assert env({"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}) == "fr"
    assert env({"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LC_ALL": "hu_HU.UTF-8"}) == "hu"
    assert env({"LANG": "ja_JP.UTF-8", "LC_ALL": "hu_HU.UTF-8", "LANGUAGE": "zh_TW:zh_CN"}) == "zh_Hant"
    assert env({"LANGUAGE": "de:fr:ja"}) == "fr"  # the first of the list Pitboss speaks
    assert env({"LANG": "de_DE.UTF-8"}) == "en"
    assert env({"LANGUAGE": "", "LANG": "ja_JP.UTF-8"}) == "ja"  # an empty variable is not set
    assert i18n.resolve("zh-TW") == ("zh_Hant", None)
    lang, warning = i18n.resolve("klingon")
    assert lang == "en" and warning is not None and "klingon" in warning and "ja" in warning
    assert i18n.resolve(None, {"LANG": "fr_FR.UTF-8"}) == ("fr", None)


# ------------------------------------------------------------------ the catalogs


DOMAINS = {d.name: d for d in catalogs.domains()}
CATALOGS = [(d.name, lang) for d in DOMAINS.values() for lang in d.languages]


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_template_is_current(tmp_path: Path, domain: str) -> None:
    """Re-extracting finds the very msgids of each domain's template (run
    ``python -m referee.i18n.catalogs extract`` after marking messages)."""
    (command,) = catalogs.commands("extract", only=domain)
    out = tmp_path / "fresh.pot"
    command[command.index("-o") + 1] = str(out)
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), *command[1:]], cwd=ROOT, check=True, capture_output=True)
    pot = DOMAINS[domain].template
    fresh, committed = _msgids(_read(out)), _msgids(_read(pot))
    assert sorted(fresh - committed) == [], f"marked but not in {pot.name}: re-extract"
    assert sorted(committed - fresh) == [], f"in {pot.name} but no longer marked: re-extract"
    moved = sorted(k for k, where in _locations(_read(out)).items() if _locations(_read(pot)).get(k) != where)
    assert moved == [], f"{pot.name} places these in files they have left: re-extract ({moved[:5]})"


def _locations(cat: Catalog) -> dict[str, list[str]]:
    """The files each message's location comments (``#: file:line``) name, by msgid (not
    the lines, which every edit above a message moves: a file it has left is what misleads
    a translator)."""
    return {(m.id if isinstance(m.id, str) else m.id[0]): sorted({f for f, _ in m.locations}) for m in cat if m.id}


@pytest.mark.parametrize("domain,lang", CATALOGS)
def test_each_catalog_places_its_messages_where_the_template_does(domain: str, lang: str) -> None:
    """A translator's location comments are the template's (``python -m referee.i18n.catalogs
    update`` after extracting): none names a file the message has left."""
    template = _locations(_read(DOMAINS[domain].template))
    said = _locations(_read(DOMAINS[domain].catalog(lang)))
    stale = sorted(k for k, where in said.items() if template.get(k, where) != where)
    assert stale == [], f"{domain}, {lang}: run python -m referee.i18n.catalogs update ({stale[:5]})"


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_template_babel_reads_as_a_percent_format(domain: str) -> None:
    """A msgid Babel flags python-format gets its %-sequences checked at compile time: the
    notation's %-----% belongs in an argument."""
    flagged = [m.id for m in _read(DOMAINS[domain].template) if m.id and "python-format" in m.flags]
    assert flagged == []


@pytest.mark.parametrize("domain,lang", CATALOGS)
def test_every_message_is_translated_with_its_placeholders(domain: str, lang: str) -> None:
    po = DOMAINS[domain].catalog(lang)
    assert po.is_file(), f"{lang}: no catalog at {po}"
    cat = _read(po)
    have = {(m.id if isinstance(m.id, str) else m.id[0]): m for m in cat if m.id}
    problems = []
    for template in _read(DOMAINS[domain].template):
        if not template.id:
            continue
        key = template.id if isinstance(template.id, str) else template.id[0]
        m = have.get(key)
        strings = [] if m is None else ([m.string] if isinstance(m.string, str) else list(m.string))
        if m is None or not strings or not all(strings):
            problems.append(f"untranslated: {key!r}")
            continue
        if m.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        wanted = _fields(key)
        if isinstance(template.id, tuple):
            wanted |= _fields(template.id[1])
        for s in strings:
            if _fields(s) != wanted:
                problems.append(f"placeholders {sorted(_fields(s))} instead of {sorted(wanted)}: {key!r} -> {s!r}")
    assert problems == [], f"{domain}, {lang}: {len(problems)} problems, e.g. " + "\n".join(problems[:15])


@pytest.mark.parametrize("domain,lang", CATALOGS)
def test_each_compiled_catalog_is_what_pybabel_compile_makes_of_its_po(domain: str, lang: str) -> None:
    po, mo = DOMAINS[domain].catalog(lang), DOMAINS[domain].catalog(lang, ".mo")
    assert po.is_file() and mo.is_file(), f"{lang}: run python -m referee.i18n.catalogs compile"
    buf = io.BytesIO()
    write_mo(buf, _read(po))
    assert mo.read_bytes() == buf.getvalue(), f"{lang}: {mo.name} is stale: python -m referee.i18n.catalogs compile"


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_domains_messages_are_said_from_its_own_catalog(domain: str) -> None:
    """The catalogs of every domain are read together: a message that only one domain
    holds is said in the language from that domain's catalog."""
    others = set().union(*(_msgids(_read(d.template)) for d in DOMAINS.values() if d.name != domain))
    for lang in DOMAINS[domain].languages:
        cat = _read(DOMAINS[domain].catalog(lang))
        own = [m for m in cat if m.id and isinstance(m.id, str) and m.id not in others and m.string]
        assert own, f"{domain} has no message of its own in {lang}"
        for m in own:
            assert i18n.gettext_(m.id, lang) == m.string, (domain, lang, m.id)


def test_the_catalogs_ship_in_the_package() -> None:
    """The wheel takes all of referee/ (pyproject: only-include), the catalogs with it, and
    spec/ (with spec/i18n) as referee/_data/spec."""
    text = (ROOT / "pyproject.toml").read_text()
    wheel = tomllib.loads(text)["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert "referee" in wheel["only-include"] and wheel["force-include"]["spec"] == "referee/_data/spec"
    assert i18n.LOCALE_DIR == ROOT / "referee" / "locale" and all(
        d.template.is_file() for d in DOMAINS.values() if d.locale == i18n.LOCALE_DIR)
    assert "babel" in " ".join(tomllib.loads(text)["project"]["dependencies"])


# ------------------------------------------------------------------ the rule texts


def _spec_files() -> list[tuple[Path, str, tuple[str, ...]]]:
    """Every spec file (its folder, its name) and the languages it is translated into: the
    shared ones (notation.toml) into every language, a game's into the game's."""
    games = registry.games()
    owned = {(g.spec_dir, f): g.languages for g in games for f in g.spec_files}
    shared = [(folder, p.name) for folder in spec.folders() for p in sorted(folder.glob("*.toml"))]
    return [(folder, name, owned.get((folder, name), tuple(TRANSLATED))) for folder, name in shared]


RULE_TEXTS = [(folder, name, lang) for folder, name, langs in _spec_files() for lang in langs]


@pytest.mark.parametrize("folder,name,lang", RULE_TEXTS, ids=lambda x: x.name if isinstance(x, Path) else str(x))
def test_every_rule_has_its_text_in_every_language(folder: Path, name: str, lang: str) -> None:
    problems = []
    english = tomllib.loads((folder / name).read_text(encoding="utf-8"))
    path = folder / "i18n" / lang / name
    assert path.is_file(), f"missing {path}"
    said = tomllib.loads(path.read_text(encoding="utf-8"))
    entries = said.get("rule", [])
    by_id = {e.get("id"): e for e in entries}
    kinds = {r["id"]: r.get("kind", "rule") for r in english["rule"]}
    for e in entries:
        if set(e) - {"id", "title", "text", "source"}:
            problems.append(f"{name}: {e.get('id')} has more than id, title, text, source")
        if "source" in e and kinds.get(e.get("id")) != "ruling":
            problems.append(f"{name}: {e.get('id')} translates a source, and only a ruling's says why")
    for rule in english["rule"]:
        e = by_id.get(rule["id"])
        if e is None or not str(e.get("title", "")).strip() or not str(e.get("text", "")).strip():
            problems.append(f"{name}: no title and text for {rule['id']}")
    extra = set(by_id) - {r["id"] for r in english["rule"]}
    if extra:
        problems.append(f"{name}: ids the spec does not have: {sorted(extra)}")
    topics = said.get("topics", {})
    if set(topics) != set(english.get("topics", {})) or not all(str(v).strip() for v in topics.values()):
        problems.append(f"{name}: [topics] is not its spec's, each with a heading")
    assert problems == [], f"{lang}: " + "; ".join(problems[:20])


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_rulebook_topic_has_its_heading(lang: str) -> None:
    """The rulebook groups a game's rules by topic under the headings of its spec (in the
    language spoken: the rule texts' test holds each translation's [topics] complete)."""
    for game in registry.games():
        headings = spec.topics(f"{game.name}.toml", lang)
        for rule in rulebook.game_rules(game):
            topic = rulebook.topic_of(rule, game)
            assert topic == "notation" or topic in headings, f"{rule.id}: topic {topic!r} has no heading"
        with i18n.speaking(lang):
            shown = [heading for heading, _ in rulebook.book(game).topics]
            records = rulebook.TEXT["notation"]
        assert set(shown) <= set(headings.values()) | {records}


def _book(lang: str) -> tuple[str, str]:
    with i18n.speaking(lang):
        books = [rulebook.book(g) for g in registry.games()]
        return rulebook.text(books, width=10_000), rulebook.html(books)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_rule_is_in_the_rulebook_with_its_source_in_every_language(lang: str) -> None:
    """Text and HTML: each spec id with its source, its title and its text in the language
    (English for English; the translation for the others: no rule left in English)."""
    from xml.sax.saxutils import escape

    text, html = _book(lang)
    translations = spec.translations(lang)
    untranslated = {f for g in registry.games() if lang not in g.languages for f in g.spec_files}
    missing = []
    for rule in spec.catalog().values():
        shown = spec.translated(rule, lang)
        if lang != "en" and rule.id not in translations and rule.file not in untranslated:
            missing.append(f"{rule.id}: no {lang} text")
        assert f"[{rule.id}]" in text, f"{lang}: {rule.id} is not in the text rulebook"
        assert f'id="{rule.id}"' in html, f"{lang}: {rule.id} is not in the HTML rulebook"
        assert shown.source in text and escape(shown.source) in html, f"{lang}: {rule.id}'s source is missing"
        assert f"[{rule.id}] {shown.title}" in text
        assert " ".join(shown.text.split()[:3]) in " ".join(text.split())
        assert escape(shown.text) in html and escape(shown.title) in html
    assert missing == []
    assert f'<html lang="{i18n.BCP47[lang]}">' in html


# ------------------------------------------------------------------ the command line


def _run(*args: str, env: dict[str, str] | None = None):
    from cli import app

    return CliRunner().invoke(app, list(args), env=env)


ILLEGAL = str(ROOT / "examples" / "illegal.cvn")


def _finding_messages() -> list:
    from referee.jobs.validate import validate_file

    return [f.message for r in validate_file(ILLEGAL) for f in r.errors]


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_lang_says_the_findings_in_that_language(lang: str) -> None:
    (message,) = _finding_messages()
    said_there = i18n.tr(message, lang)
    assert said_there != message, f"{lang}: the catalog does not translate {message.msgid!r}"
    done = _run("validate", "--lang", lang, ILLEGAL)
    assert done.exit_code == 1
    assert said_there in done.output and str(message) not in done.output
    assert "[caravan.number.direction]" in done.output and "2C>A" in done.output  # ids and moves as they are


def test_the_locale_chooses_the_language_and_lang_overrides_it() -> None:
    (message,) = _finding_messages()
    french, japanese = i18n.tr(message, "fr"), i18n.tr(message, "ja")
    done = _run("validate", ILLEGAL, env={"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR.UTF-8"})
    assert french in done.output
    done = _run("validate", "--lang", "ja", ILLEGAL, env={"LANGUAGE": "", "LANG": "fr_FR.UTF-8"})
    assert japanese in done.output and french not in done.output
    assert i18n.current() == "en"  # the command's language ends with it


def test_an_unknown_language_speaks_english_with_a_warning() -> None:
    done = _run("validate", "--lang", "tlh", ILLEGAL)
    assert done.exit_code == 1
    assert "unknown language 'tlh'" in done.output and str(_finding_messages()[0]) in done.output


def _keys(doc) -> object:
    if isinstance(doc, dict):
        return {k: _keys(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_keys(v) for v in doc]
    return type(doc).__name__


@pytest.mark.parametrize("command", [["validate", "--json", ILLEGAL], ["explain", "--json", "--ply", "3", ILLEGAL],
                                     ["annotate", "--json", ILLEGAL]])
def test_json_keys_and_rule_ids_are_the_same_in_every_language(command: list[str]) -> None:
    english = json.loads(_run(*command).stdout)
    for lang in TRANSLATED:
        done = _run(*command, "--lang", lang)
        doc = json.loads(done.stdout)
        assert _keys(doc) == _keys(english), lang
        ids = re.findall(r"[a-z]+(?:\.[a-z0-9-]+){2,}", json.dumps(english))
        assert sorted(ids) == sorted(re.findall(r"[a-z]+(?:\.[a-z0-9-]+){2,}", json.dumps(doc, ensure_ascii=False)))


def test_every_command_that_speaks_takes_lang() -> None:
    for command in ("validate", "annotate", "explain", "show", "rules", "solve"):
        assert "--lang" in _run(command, "--help").output, command


@pytest.mark.parametrize("lang", ["ja", "zh_Hant", "fr"])
def test_the_rulebook_and_explain_in_a_language(lang: str) -> None:
    rule = spec.rule("caravan.number.direction")
    shown = spec.translated(rule, lang)
    done = _run("rules", "caravan", "--lang", lang)
    from referee.notation.screen import flow  # the lines as the screen's width wrapped them, joined back

    assert done.exit_code == 0 and f"[{rule.id}] {shown.title}" in flow(done.output)
    done = _run("explain", "--ply", "3", "--lang", lang, ILLEGAL)
    assert rule.id in done.output and shown.title in flow(done.output)
    assert i18n.tr(_finding_messages()[0], lang) in flow(done.output)


def test_annotate_writes_its_comments_in_the_language() -> None:
    from referee.notation.screen import flow as flat  # wrapped at spaces and between wide characters

    english = _run("annotate", ILLEGAL).stdout
    japanese = _run("annotate", "--lang", "ja", ILLEGAL).stdout
    assert "illegal under holotape: [caravan.number.direction]" in flat(english)
    assert "[caravan.number.direction]" in japanese and "illegal under" not in flat(japanese)
    assert flat(i18n.tr(_finding_messages()[0], "ja")) in flat(japanese)
    # The record is still the record: it validates with the same verdicts.
    from referee.jobs.validate import validate_text

    assert [[f.rule for f in r.errors] for r in validate_text(japanese)] == [["caravan.number.direction"]]


@pytest.mark.parametrize("lang", ["ja", "hu"])
def test_the_replay_page_in_a_language(tmp_path: Path, lang: str) -> None:
    from referee.jobs.render.frames import TEXT as FRAME_TEXT
    from referee.jobs.render.html import TEXT as PAGE_TEXT

    page = tmp_path / "replay.html"
    done = _run("show", ILLEGAL, "--html", str(page), "--lang", lang)
    assert done.exit_code == 1
    html = page.read_text(encoding="utf-8")
    assert f'<html lang="{i18n.BCP47[lang]}">' in html
    with i18n.speaking(lang):
        moves, illegal = PAGE_TEXT["moves"], FRAME_TEXT["ply_illegal"]
        rule_title = spec.translated(spec.rule("caravan.number.direction"), lang).title
    assert moves != PAGE_TEXT.english()["moves"], f"{lang}: the page's texts are not translated"
    assert f"<h2>{moves}</h2>" in html
    assert json.dumps(illegal, ensure_ascii=False)[1:-1] in html.replace("\\u003c", "<")
    assert json.dumps(rule_title, ensure_ascii=False)[1:-1] in html


def test_every_finding_and_comment_of_the_golden_records_can_be_translated() -> None:
    """Every sentence a player reads about the golden records and the examples (validate's
    findings, annotate's comments) is a message, not a bare English str."""
    from referee.jobs.annotate import annotate_file
    from referee.jobs.validate import validate_file

    whole = {e for g in registry.games() for f in g.foreign for e in f.extensions}
    endings = whole | {e for g in registry.games() for e in g.notation.extensions}
    paths = sorted(p for p in (ROOT / "tests" / "golden").rglob("*.*") if p.suffix in endings)
    paths += sorted((ROOT / "examples").iterdir())
    bare = set()
    for path in paths:
        for report in validate_file(path):
            bare |= {f"{path.name}: {f.message}" for f in report.errors + report.warnings
                     if not isinstance(f.message, T)}
        if path.suffix not in whole:
            for a in annotate_file(str(path)):
                comments = [c for n in a.notes for c in n.comments] + a.record_comments
                bare |= {f"{path.name}: {c}" for c in comments if not isinstance(c, T)}
    assert len(paths) > 20 and sorted(bare) == []


def test_a_list_inside_a_message_says_each_item_once() -> None:
    """The ambiguous joker's readings, as the English message always listed them: sorted,
    each once (a message made of parts, J, keeps that)."""
    from referee.jobs.validate import validate_file

    (message,) = [f.message for r in validate_file(ROOT / "tests/golden/daifugo/joker-two-jokers.dfn")
                  for f in r.errors if f.rule == "daifugo.joker.ambiguous"]
    readings = str(message).split("(", 1)[1].split(")", 1)[0].split(", ")
    assert readings == sorted(set(readings)) and "a group of 2 10s" in readings
