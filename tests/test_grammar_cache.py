"""The compiled-parser cache: a cached parser reads exactly as a freshly built one, a
damaged or missing cache file is rebuilt, and the cache can be turned off."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.notation import grammar

GOLDEN = Path(__file__).parent / "golden"

build = grammar.load.__wrapped__  # the loader without the in-process memo


def _fresh(name: str):
    return grammar.Lark.open(str(grammar.data_dir("grammar") / f"{name}.lark"), parser="lalr", strict=True,
                             propagate_positions=True, maybe_placeholders=False)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PITBOSS_CACHE_DIR", str(tmp_path))
    yield tmp_path / "lark"
    grammar._grammar_digest.cache_clear()


TABLE = "A: 7H 9H(KS) 10S; B: ; C: 4C; D: 2C 5C(QD KH); E: 8S; F: 6H"


def _first_record(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    second = text.find("[Game", 10)
    return text if second < 0 else text[:second]


def test_cached_parser_reads_as_a_fresh_one(cache):
    text = _first_record(GOLDEN / "daifugo" / "turn-order.dfn")
    first = build("dfn")  # built and saved
    assert len(list(cache.glob("dfn-start-*.lark.pickle"))) == 1
    second = build("dfn")  # loaded from the file
    fresh = _fresh("dfn")
    assert second.parse(text) == first.parse(text) == fresh.parse(text)
    assert {t.name for t in second.terminals} == {t.name for t in fresh.terminals}


def test_cached_parser_keeps_its_transformer(cache):
    from referee.games.caravan.notation import cvn

    record = _first_record(GOLDEN / "caravan" / "opening.cvn")
    built = build("cvn", transformer=cvn._Build).parse(record)
    loaded = build("cvn", transformer=cvn._Build).parse(record)
    assert repr(built) == repr(loaded)
    assert type(loaded) is tuple  # the transformer ran, not a bare tree


def test_damaged_cache_file_is_rebuilt(cache):
    build("cvn_table")
    (saved,) = cache.glob("cvn_table-*.lark.pickle")
    saved.write_bytes(b"not a pickle")
    rebuilt = build("cvn_table")
    assert rebuilt.parse(TABLE) == _fresh("cvn_table").parse(TABLE)
    assert saved.read_bytes() != b"not a pickle"  # written again, whole
    assert not list(cache.glob("*.part"))


def test_changed_grammar_is_a_new_cache_file(cache, tmp_path, monkeypatch):
    source = grammar.data_dir("grammar")
    copy = tmp_path / "grammar"
    copy.mkdir()
    for f in source.glob("*.lark"):
        (copy / f.name).write_bytes(f.read_bytes())
    monkeypatch.setattr(grammar, "data_dir", lambda name: copy)
    grammar._grammar_digest.cache_clear()
    assert build("cvn_table").parse(TABLE)
    (before,) = cache.glob("cvn_table-*.lark.pickle")
    (copy / "cvn_table.lark").write_text((copy / "cvn_table.lark").read_text() + "\n// changed\n")
    grammar._grammar_digest.cache_clear()  # (a process reads the grammar files once)
    build("cvn_table")
    (after,) = cache.glob("cvn_table-*.lark.pickle")  # the stale one pruned
    assert after != before


def test_cache_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("PITBOSS_CACHE_DIR", "")
    assert grammar.cache_dir() is None
    assert build("cvn_table").parse(TABLE) == _fresh("cvn_table").parse(TABLE)
    assert not (tmp_path / "lark").exists()


def test_derived_text_is_computed_once_per_grammar(cache):
    calls = []

    def make():
        calls.append(1)
        return "text"

    assert grammar.derived("probe", "k", make) == "text"
    assert grammar.derived("probe", "k", make) == "text"
    assert calls == [1]
    assert len(list(cache.glob("probe-*.lark.txt"))) == 1


def test_captured_pieces_match_with_and_without_the_cache(cache, monkeypatch):
    from referee.notation import pieces

    built = pieces.capturing("cvn", "_PLACE", ("_CARD", "_LETTER", "_INDEX"))  # computed, saved
    again = pieces.capturing("cvn", "_PLACE", ("_CARD", "_LETTER", "_INDEX"))  # read back
    monkeypatch.setenv("PITBOSS_CACHE_DIR", "")
    fresh = pieces.capturing("cvn", "_PLACE", ("_CARD", "_LETTER", "_INDEX"))
    assert built.pattern == again.pattern == fresh.pattern
    assert fresh.fullmatch("KS>D2").group("CARD") == "KS"


def test_derived_text_keeps_every_character(cache):
    text = "a\rb\r\nc\n\ufeffd"
    assert grammar.derived("probe2", "k", lambda: text) == text
    assert grammar.derived("probe2", "k", lambda: "other") == text  # read back, unchanged
