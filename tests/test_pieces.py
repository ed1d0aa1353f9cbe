"""referee/notation/pieces.py: a terminal's pattern with its pieces captured is the
grammar's own pattern (as Lark compiles it) plus named groups, nothing else."""

from __future__ import annotations

import re

import pytest

from referee.notation import grammar, pieces

GROUP = re.compile(r"\(\?P<(\w+)>")


@pytest.mark.parametrize(("name", "terminal"), [("cvn", "MOVES"), ("cvn", "TAGS"), ("cvn", "RESULT"),
                                                ("dfn", "MOVES"), ("dfn", "TAG")])
def test_without_captures_the_pattern_is_larks(name: str, terminal: str) -> None:
    compiled = grammar.load(name).get_terminal(terminal).pattern.to_regexp()
    assert pieces.capturing(name, terminal, ()).pattern == compiled


def test_captures_only_add_groups() -> None:
    captured = pieces.capturing("cvn", "_ITEM", ("MOVE_NUMBER", "_PLACE", "_DISCARD", "_DISBAND", "_DRAW",
                                                    "_NOTES"))
    assert set(captured.groupindex) == {"MOVE_NUMBER", "PLACE", "DISCARD", "DISBAND", "DRAW", "NOTES"}
    moves = grammar.load("cvn").get_terminal("MOVES").pattern.to_regexp()
    run = re.compile(f"(?:{captured.pattern})+")
    for text in ("1. 7H>A +9D !? 8S>D 2... KS>D2 $12\n", "10H>b1!!", "disband A +2C", "12.", "7H>A7>B",
                 "discard  jk ?", "QD>A1 ?! !", "7H>", "1.7H>A", "JK>F10 "):
        whole = re.fullmatch(moves, text)
        assert (run.fullmatch(text) is None) == (whole is None), text
        if whole:
            m = captured.match(text)
            assert m is not None and any(m[g] for g in ("PLACE", "DISCARD", "DISBAND", "MOVE_NUMBER"))


def test_a_piece_named_twice_or_never_is_refused() -> None:
    with pytest.raises(ValueError, match="more than once"):
        pieces.capturing("cvn", "MOVE", ("_CARD",))
    with pytest.raises(ValueError, match="does not refer"):
        pieces.capturing("cvn", "_DRAW", ("_LETTER",))


def test_patterns_come_from_the_cache_and_a_changed_grammar_is_built_anew(tmp_path, monkeypatch) -> None:
    """A derived pattern is kept in the parsers' cache (grammar.derived), read back without
    loading a grammar, and built anew when a grammar file changes (another digest)."""
    monkeypatch.setenv("PITBOSS_CACHE_DIR", str(tmp_path))
    built = pieces.capturing("cvn", "_DRAW", ("_CARD",)).pattern
    stored = [f for f in tmp_path.rglob("pieces-*") if f.read_bytes().decode("utf-8") == built]
    assert stored, "the pattern is kept in the cache"
    with monkeypatch.context() as m:
        m.setattr(pieces, "_capturing", lambda *a: pytest.fail("rebuilt although cached"))
        assert pieces.capturing("cvn", "_DRAW", ("_CARD",)).pattern == built  # read back
    calls = []
    real = pieces._capturing
    monkeypatch.setattr(grammar, "_grammar_digest", lambda: "a changed grammar")
    monkeypatch.setattr(pieces, "_capturing", lambda *a: calls.append(a) or real(*a))
    assert pieces.capturing("cvn", "_DRAW", ("_CARD",)).pattern == built
    assert calls, "a changed grammar is built anew"
