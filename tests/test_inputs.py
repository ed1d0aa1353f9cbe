"""Issue 11, item 1: records never lose each other, lines are counted one way, carets are
safe and in the right place, and size limits are findings. Each test reproduces a failure
of the issue's list."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from referee.jobs.validate import validate_lines, validate_text
from referee.notation import records
from referee.notation.screen import width as display_width
from referee.notation.records import (
    MAX_LINE,
    Overlong,
    bounded_lines,
    caret_line,
    split_records,
    text_lines,
)

ROOT = Path(__file__).resolve().parents[1]
ILLEGAL = (ROOT / "examples" / "illegal.cvn").read_text(encoding="utf-8")
VALID = ('[Game "Caravan"]\n[Table "A: 4S; B: 7D; C: 9C; D: 10H; E: 8S; F: 6D"]\n[Hand1 "5S 2C"]\n[Hand2 "?"]\n'
         '[ToMove "1"]\n[Phase "main"]\n\n1. 5S>A *\n')


def verdicts(text: str) -> list[tuple]:
    return [(r.game, r.rules, r.valid, r.plies, [(f.rule, f.line, f.column) for f in r.errors])
            for r in validate_text(text)]


def test_an_unclosed_brace_does_not_swallow_the_records_after_it() -> None:
    broken = VALID.replace("1. 5S>A *", "1. 5S>A { never closed\n[Rules \"fnv\"] still a comment")
    reports = validate_text(broken + "\n" + VALID + "\n" + VALID)
    assert len(reports) == 3
    first, second, third = reports
    assert [(f.rule, f.line, f.column) for f in first.errors] == [("notation.comment.unclosed", 8, 9)]
    assert first.rules == "holotape"  # the tag inside the comment is not salvaged
    assert second.valid and third.valid
    assert (second.line, third.line) == (11, 20)


def test_a_stray_tag_after_a_broken_record_does_not_spoil_the_next() -> None:
    broken = '[Game "Caravan"]\n\n1. 5S>A 7X>B *\n\n[Rules "fnv"]\n\n'
    reports = validate_text(broken + VALID)
    assert [r.valid for r in reports] == [False, False, True]
    assert reports[1].errors[0].rule == "notation.tag.game"
    assert reports[2].rules == "holotape" and reports[2].plies == 1
    # tags right before the Game tag (no blank line) are still the record's own
    (joined,) = validate_text('[Event "x"]\n' + VALID)
    assert joined.valid


def test_a_bom_in_the_middle_of_a_file_changes_nothing() -> None:
    alone = verdicts(ILLEGAL) + verdicts(VALID)
    assert verdicts(ILLEGAL + "\ufeff" + VALID) == alone
    assert verdicts("\ufeff" + ILLEGAL + "\n\ufeff" + VALID)[1] == alone[1]


@pytest.mark.parametrize("brk", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_only_lf_crlf_and_cr_end_a_line(brk: str) -> None:
    text = VALID.replace("1. 5S>A *", f"1. 5S>A{brk} 2C>B *")  # 2C>B: not the mover's... still a move
    (report,) = validate_text(text)
    lines = text_lines(text)
    assert len(lines) == text.count("\n")
    for f in report.errors + report.warnings:
        assert 1 <= f.line <= len(lines)
        assert 1 <= f.column <= len(lines[f.line - 1])
        assert f.source == lines[f.line - 1].rstrip("\n")


def test_cr_and_crlf_count_as_the_readers_count() -> None:
    for end in ("\r\n", "\r"):
        text = ILLEGAL.replace("\n", end)
        assert verdicts(text) == verdicts(ILLEGAL)


def test_a_tag_without_a_space_is_reported_at_a_column_from_1() -> None:
    text = ('[Game "Daifugo"]\n[Players "Aki Ben Chie"]\n[Hand.Zed"KH"]\n[Hand.Aki"3S"]\n'
            '[Hand.Ben "4S"]\n[Hand.Chie "5S"]\n\nAki: 3S *\n')
    (report,) = validate_text(text)
    places = [(f.line, f.column) for f in report.errors if "Zed" in f.message]
    assert places == [(3, 2)]
    assert all(f.column is None or f.column >= 1 for f in report.errors + report.warnings)


def test_echoed_lines_show_control_characters_as_escapes() -> None:
    source = '1. 5S>A \x1b]0;pwned\x07 \x1b[2J\x1b[31mvalid\x1b[0m \u202e *'
    shown = caret_line(source, 9)
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\x1b]0;pwned\\x07" in shown and "\\u202e" in shown
    text, caret = shown.split("\n")
    assert caret.index("^") == text.index("\\x1b")


def test_the_caret_stands_under_wide_characters_column() -> None:
    source = '[Players "大富豪 Ben"] 7X'
    column = source.index("7X") + 1
    text, caret = caret_line(source, column).split("\n")
    assert caret.index("^") == len('[Players "') + 6 + len(' Ben"] ')  # 大富豪: six columns
    assert display_width("大富豪") == 6


def test_an_overlong_line_is_a_finding_and_never_held_whole() -> None:
    huge = "; " + "x" * (3 * MAX_LINE) + "\n"
    lines = list(bounded_lines(io.StringIO(VALID.replace("\n\n", "\n\n" + huge, 1) + "\n" + VALID)))
    assert max(len(x) for x in lines) <= MAX_LINE + 1
    assert any(isinstance(x, Overlong) and x.length == len(huge) - 1 for x in lines)
    first, second = validate_text(VALID.replace("\n\n", "\n\n" + huge, 1) + "\n" + VALID)
    assert [(f.rule, f.line) for f in first.errors] == [("notation.limit", 8)]
    assert second.valid


def test_a_record_over_the_size_limit_is_a_finding() -> None:
    movetext = "1. 5S>A { " + "long comment " * 100 + "}\n"
    big = VALID.replace("1. 5S>A *", movetext * 20 + "*")
    chunks = list(split_records(text_lines(big + "\n" + VALID), max_record=5_000))
    assert len(chunks) == 2
    assert [f.rule for f in chunks[0].findings] == ["notation.limit"]
    assert len(chunks[0].text) <= 5_000 and not chunks[1].findings


def test_limits_are_documented_where_the_rule_is() -> None:
    from referee import spec

    text = spec.catalog()["notation.limit"].text
    assert f"{records.MAX_LINE:,}" in text and f"{records.MAX_RECORD:,}" in text


EXAMPLES = {name: (ROOT / "examples" / name).read_text(encoding="utf-8") for name in ("caravan.cvn", "daifugo.dfn")}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
@pytest.mark.parametrize("long", ["x", '[Event "x', "{x", "; x", "1. 5S>A x"])
@pytest.mark.parametrize("stream", [False, True])
def test_a_line_over_the_limit_spoils_only_the_piece_that_holds_it(name: str, long: str, stream: bool) -> None:
    """Complete records, a blank line, then one line over the limit: every record before
    it is read as it is with a line just under the limit, and the piece that holds the
    long line (the one it joins with a shorter line: a record's movetext, or a piece of
    its own) is the one reported as not read."""
    def reports(length: int) -> list:
        line = long + "x" * (length - len(long) - 2) + ('"]' if long.startswith("[") else "xx")
        text = EXAMPLES[name].rstrip("\n") + "\n\n" + line + "\n"
        return validate_text(text) if not stream else list(validate_lines(bounded_lines(io.StringIO(text)), "<s>"))

    def verdict(r) -> tuple:
        return (r.game, r.line, r.plies, r.valid, [(f.rule, f.line) for f in r.errors])

    under, over = reports(MAX_LINE - 1_000), reports(MAX_LINE + 1)
    assert len(under) == len(over) and [r.line for r in under] == [r.line for r in over]
    long_line = EXAMPLES[name].rstrip("\n").count("\n") + 3
    holder = max(i for i, r in enumerate(under) if r.line <= long_line)
    for i, (u, o) in enumerate(zip(under, over)):
        if i == holder:
            assert [(f.rule, f.line) for f in o.errors] == [("notation.limit", long_line)]
        else:
            assert verdict(o) == verdict(u)
    assert any(r.valid for r in over[:holder]) or holder == 0
