"""Screen width done once (referee/notation/screen.py): every text output measures with
wcwidth and wraps at 80 columns, or the terminal's width when standard output is one, in
every language; Japanese and Chinese break between characters, never before a closing
mark nor after an opening one, and flowing the lines back gives the text again."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cli import app
from referee.jobs.validate import validate_text
from referee.notation import screen
from referee.notation.screen import NO_END, NO_START, flow, pieces, width, wrap, wrap_words

ROOT = Path(__file__).resolve().parents[1]
ANNOTATE = ROOT / "tests" / "golden" / "annotate"
runner = CliRunner()
CJK = ["ja", "zh_Hans", "zh_Hant"]


def _widest(text: str) -> int:
    return max(width(line) for line in text.splitlines())


# ------------------------------------------------------------------ the measure


def test_the_measure_is_wcwidths() -> None:
    assert width("大富豪") == 6 and width("ｶﾀｶﾅ") == 4 and width("KS>D2") == 5
    assert width("e\u0301") == 1  # a combining mark takes no column
    assert width("\x1b[31m3♥\x1b[0m") == 2  # a colour escape takes none
    assert screen.pad("大富豪", 8) == "大富豪  " and screen.pad("long text", 3) == "long text"


def test_a_line_breaks_between_wide_characters_but_not_at_closing_marks() -> None:
    assert pieces("大富豪です。") == ["大", "富", "豪", "で", "す。"]
    assert pieces("（大富豪）") == ["（大", "富", "豪）"]
    # narrow runs are never cut
    assert pieces("classic：合法") == ["classic：", "合", "法"] and pieces("KS>D2") == ["KS>D2"]
    lines = wrap("ジョーカーは場に出された1枚のカードとして、どのカードより強い。" * 3, 20)
    assert all(width(line) <= 20 for line in lines) and not any(line[0] in NO_START for line in lines)
    assert flow("\n".join(lines)) == "ジョーカーは場に出された1枚のカードとして、どのカードより強い。" * 3


WORD = st.text(st.sampled_from("大富豪貧民革命ジョーカ。、（）「」ーabcKS10>:"), min_size=1, max_size=9).filter(
    lambda w: w[0] not in NO_START and w[-1] not in NO_END)


@settings(max_examples=150, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=30), st.integers(20, 90), st.sampled_from(["", "  ", "    "]))
def test_wrapped_text_fits_and_flows_back(words: list[str], columns: int, indent: str) -> None:
    text = " ".join(words)
    lines = wrap(text, columns, indent)
    assert all(width(line) <= columns for line in lines)
    assert all(line.startswith(indent) or not line for line in lines)
    if all(width(p) <= columns - len(indent) for _, p in screen._paragraph_pieces(text)):  # no word cut by force
        assert flow("\n".join(line[len(indent):] for line in lines)) == text
        assert not any(line[len(indent):][:1] in NO_START for line in lines if line[len(indent):])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["KS>D2", "太郎:", "5H", "{ 反則：ジョーカーはこの場では出せない }", "{ illegal",
                                 "under", "classic }", "1."]), min_size=1, max_size=40), st.integers(20, 80))
@example(["KS>D2", "5H", "{ illegal", "1.", "太郎:"], 24)  # an unclosed comment runs on: its 太郎 may break
@example(["{ illegal", "classic }", "KS>D2", "5H", "1.", "太郎:"], 20)  # after the comment a name is whole
def test_movetext_breaks_only_inside_comments(words: list[str], columns: int) -> None:
    lines = wrap_words(words, columns)
    moves, inside = [], False  # the words outside every { } comment (one may run on, unclosed)
    for w in words:
        opens = w.startswith("{")
        if not (inside or opens):
            moves.append(w)
        if opens or inside:
            inside = not w.endswith("}")
    joined = " ".join(lines)
    for move in moves:
        assert move in joined  # a move or a player's name is never cut
    long = max(width(w) for w in words)
    assert all(width(line) <= max(columns, long) for line in lines)


def test_the_width_is_the_terminals_when_standard_output_is_one(monkeypatch) -> None:
    class Terminal:
        def isatty(self) -> bool:
            return True

    class Pipe:
        def isatty(self) -> bool:
            return False

    monkeypatch.setenv("COLUMNS", "123")
    assert screen.columns(Terminal()) == 123 and screen.columns(Pipe()) == 80
    monkeypatch.setenv("COLUMNS", "5")
    assert screen.columns(Terminal()) == screen.NARROWEST


def test_rules_on_a_terminal_wrap_at_its_width() -> None:
    """A real terminal (a pseudo-terminal 60 columns wide): the rulebook fits it."""
    main, secondary = pty.openpty()
    env = {**os.environ, "COLUMNS": "60", "LANGUAGE": "ja"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "rules", "caravan"], stdout=secondary,
                            stderr=subprocess.PIPE, env=env, cwd=ROOT)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(main)
    out = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    assert proc.returncode == 0 and "[caravan.number.direction]" in out
    assert _widest(out) <= 60 and _widest(out) > 50


# ------------------------------------------------------------------ the outputs


@pytest.mark.parametrize("lang", CJK)
def test_rules_fit_80_columns(lang: str) -> None:
    done = runner.invoke(app, ["rules", "--lang", lang])
    assert done.exit_code == 0
    assert _widest(done.output) <= 80 and done.output.count("\n") > 900


@pytest.mark.parametrize("lang", CJK)
def test_annotate_writes_no_line_over_80_columns(lang: str) -> None:
    """Each line annotate writes fits 80 columns; a line wider than that is one of the
    record's own, kept as written. The annotated record reads with the same verdicts."""
    for name in ("caravan-disputed.cvn", "daifugo-illegal.dfn", "daifugo-disputed.dfn"):
        source = (ANNOTATE / name).read_text(encoding="utf-8")
        done = runner.invoke(app, ["annotate", "--lang", lang, str(ANNOTATE / name)])
        assert done.exit_code in (0, 1), done.output
        own = set(source.splitlines())
        wide = [line for line in done.output.splitlines() if width(line) > 80 and line not in own]
        assert wide == [], f"{name}: {wide[:3]}"
        assert any(width(line) > 70 for line in done.output.splitlines() if line not in own)
        verdicts = [[f.rule for f in r.errors] for r in validate_text(source)]
        assert [[f.rule for f in r.errors] for r in validate_text(done.output)] == verdicts


@pytest.mark.parametrize("lang", CJK)
def test_explain_and_show_fit_80_columns(lang: str) -> None:
    explained = runner.invoke(app, ["explain", "--lang", lang, str(ANNOTATE / "daifugo-disputed.dfn"),
                                    "--round", "1", "--ply", "3"])
    shown = runner.invoke(app, ["show", "--lang", lang, str(ROOT / "examples" / "illegal.cvn"), "--ply", "2"])
    for done in (explained, shown):
        assert done.output.strip() and _widest(done.output) <= 80, done.output
