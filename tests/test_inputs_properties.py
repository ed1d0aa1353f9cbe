"""Issue 11's properties of the readers, by hypothesis:

* any bytes put between two valid records leave both read and judged as when alone;
* the Python API and the command line agree on every input;
* every line and column reported exists in the input.

The default run takes a sample (PITBOSS_EXAMPLES, default 300, shared out below);
``pytest -m slow`` runs ten times as many. tests/fuzz_readers.py runs the same inputs
in bulk and prints the totals per reader.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import app
from referee.jobs.validate import validate_file, validate_text
from referee.notation.records import MAX_LINE, NotText, text_lines

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("PITBOSS_EXAMPLES", "300"))
runner = CliRunner()

#: Valid records of each reader (a Caravan start position and a complete Daifugo match).
CARAVAN = ('[Game "Caravan"]\n[Table "A: 4S; B: 7D; C: 9C; D: 10H; E: 8S; F: 6D"]\n[Hand1 "5S 2C"]\n'
           '[Hand2 "?"]\n[ToMove "1"]\n[Phase "main"]\n\n1. 5S>A *\n')
ILLEGAL = (ROOT / "examples" / "illegal.cvn").read_text(encoding="utf-8")
DAIFUGO = (ROOT / "examples" / "daifugo.dfn").read_text(encoding="utf-8").rstrip("\n") + " *\n"
RECORDS = [CARAVAN, ILLEGAL, DAIFUGO]

#: Text that looks like records: the pieces the readers react to, and any character.
PIECES = st.sampled_from(["[Game \"Caravan\"]", "[Game \"Daifugo\"]", "[Rules \"fnv\"]", "{", "}",
                          ";", "\n", "\r\n", "\r", "\ufeff", "\x0b", "\x0c", "\u2028", "\x85", "\x1c", "\t", " ",
                          "1.", "5S>A", "discard", "Aki:", "pass", "*", "\"", "[", "]", "大富豪", "\x1b[2J", "\x00"])
JUNK_TEXT = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=20).map("".join)
JUNK_BYTES = st.one_of(st.binary(max_size=60), JUNK_TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")))


def judged(reports) -> list[tuple]:
    """What a record's verdict is, minus where it stands (its line numbers move)."""
    return [(r.game, r.rules, r.valid, r.plies, [(f.rule, f.ply, f.player, f.move) for f in r.errors],
             [(f.rule, f.ply) for f in r.warnings]) for r in reports]


def alone(text: str) -> list[tuple]:
    return judged(validate_text(text))


def check_places(data: bytes, reports) -> None:
    """Every line and column reported is in the input (as the readers count lines)."""
    lines = text_lines(data.decode("utf-8", errors="replace"))
    for r in reports:
        for f in r.errors + r.warnings:
            if f.line is None:
                continue
            assert 1 <= f.line <= max(len(lines), 1), (f, len(lines))
            if f.column is not None and lines:
                line = lines[f.line - 1].rstrip("\n").lstrip("\ufeff")
                length = len(line) if f.rule != "notation.limit" else MAX_LINE
                assert 1 <= f.column <= length + 1, (f, lines[f.line - 1])


@settings(max_examples=max(EXAMPLES // 3, 60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.sampled_from(RECORDS), second=st.sampled_from(RECORDS), junk=JUNK_BYTES)
def test_bytes_between_two_records_leave_both_as_alone(tmp_path_factory, first: str, second: str, junk: bytes) -> None:
    data = first.encode() + b"\n" + junk + b"\n\n" + second.encode()
    path = tmp_path_factory.mktemp("between") / "file.txt"
    path.write_bytes(data)
    reports = list(validate_file(path))
    assert judged(reports[:1]) == alone(first)
    assert judged(reports[-1:]) == alone(second)
    check_places(data, reports)


@settings(max_examples=max(EXAMPLES // 3, 60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(JUNK_BYTES, st.tuples(st.sampled_from(RECORDS), JUNK_TEXT).map(
    lambda t: (t[0][: len(t[0]) // 2] + t[1] + t[0][len(t[0]) // 2:]).encode("utf-8", "surrogatepass"))))
def test_the_api_and_the_command_line_agree(tmp_path_factory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("agree") / "input.cvn"
    path.write_bytes(data)
    result = runner.invoke(app, ["validate", "--json", str(path)])
    try:
        api = [r.to_json() for r in validate_file(path)]
    except NotText as err:  # binary data: refused alike, in one line
        assert result.exit_code == 2 and f"pitboss: {err}" in result.output
        return
    text_api = [r.to_json() for r in validate_text(data.decode("utf-8", errors="replace"), str(path))]
    assert result.exit_code in (0, 1, 3), result.output  # 3: no records in it (nothing to validate)
    cli = json.loads(result.stdout)["games"]
    assert cli == api == text_api
    check_places(data, validate_file(path))


@pytest.mark.slow
@settings(max_examples=EXAMPLES * 10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.sampled_from(RECORDS), second=st.sampled_from(RECORDS), junk=JUNK_BYTES)
def test_bytes_between_two_records_long_run(tmp_path_factory, first: str, second: str, junk: bytes) -> None:
    test_bytes_between_two_records_leave_both_as_alone.hypothesis.inner_test(tmp_path_factory, first, second, junk)
