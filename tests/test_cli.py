"""The command line as a user meets it: output, --json, exit codes, standard input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cli import app
from referee.jobs import registry

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_validate_example_is_valid() -> None:
    result = runner.invoke(app, ["validate", str(ROOT / "examples" / "caravan.cvn")])
    assert result.exit_code == 0, result.output
    assert "2 games: 2 valid, 0 invalid" in result.output


def test_validate_reports_the_illegal_move_with_a_caret() -> None:
    result = runner.invoke(app, ["validate", str(ROOT / "examples" / "illegal.cvn")])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith(f"{ROOT / 'examples' / 'illegal.cvn'}:13:23: error [caravan.number.direction]")
    assert "ply 3, player 1, move 2C>A" in first
    lines = result.output.splitlines()
    assert lines[1].strip() == "1. 4S>A discard 5C 2. 2C>A *"
    assert lines[2].index("^") == lines[1].index("2C>A")


def test_validate_json_contract() -> None:
    result = runner.invoke(app, ["validate", "--json", str(ROOT / "examples" / "illegal.cvn"),
                                 str(ROOT / "examples" / "caravan.cvn")])
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["summary"] == {"games": 3, "valid": 2, "invalid": 1, "errors": 1, "warnings": 0}
    game = doc["games"][0]
    for key in ("file", "index", "game", "rules", "valid", "errors", "warnings"):
        assert key in game
    assert game["game"] == "caravan" and game["rules"] == "holotape" and game["valid"] is False
    (error,) = game["errors"]
    assert error == {"line": 13, "column": 23, "ply": 3, "round": None, "player": "1", "move": "2C>A",
                     "rule": "caravan.number.direction", "message": error["message"]}
    assert [g["index"] for g in doc["games"]] == [1, 1, 2]


def test_missing_file_exits_2() -> None:
    result = runner.invoke(app, ["validate", "no-such-file.cvn"])
    assert result.exit_code == 2
    assert "no such file" in result.output


def test_bad_option_exits_2() -> None:
    result = runner.invoke(app, ["validate", "--no-such-option", "x"])
    assert result.exit_code == 2


def test_standard_input_and_console_script() -> None:
    text = (ROOT / "examples" / "illegal.cvn").read_bytes()
    proc = subprocess.run([sys.executable, "-m", "cli", "validate", "--json", "-"], input=text,
                          capture_output=True, cwd=ROOT)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["games"][0]["file"] == "<stdin>"
    assert doc["games"][0]["errors"][0]["rule"] == "caravan.number.direction"


def test_help_teaches() -> None:
    result = runner.invoke(app, ["validate", "--help"])
    assert result.exit_code == 0
    assert "--json" in result.output and "Exit status" in result.output


def test_selfplay_caravan_is_deterministic_and_valid(tmp_path: Path) -> None:
    out = tmp_path / "games.cvn"
    result = runner.invoke(app, ["selfplay", "caravan", "--games", "5", "--seed", "3", "--rules", "fnv",
                                 "--draws", "-o", str(out)])
    assert result.exit_code == 0, result.output
    again = runner.invoke(app, ["selfplay", "caravan", "--games", "5", "--seed", "3", "--rules", "fnv", "--draws"])
    assert again.output == out.read_text()
    checked = runner.invoke(app, ["validate", "--json", str(out)])
    assert checked.exit_code == 0
    assert json.loads(checked.output)["summary"] == {"games": 5, "valid": 5, "invalid": 0, "errors": 0, "warnings": 0}


def test_record_tools_take_a_contest_log(tmp_path: Path) -> None:
    """show, explain and solve read a contest log as its DFN conversion (pitboss convert);
    a log without a game says there is no record to take."""
    log = tmp_path / "contest.log"
    log.write_text("%-----%palyer_name% p0 p1 p2 p3 p4\n%-----%RULE_KAKUMEI% YES\n", encoding="utf-8")
    for args in (["show"], ["explain", "--ply", "1"], ["solve", "-Q", "out", "--player", "p0"]):
        result = runner.invoke(app, [*args, str(log)])
        assert result.exit_code == 2, (args, result.output)
        assert "no record 1" in result.output or "0 records" in result.output, (args, result.output)


def test_output_files_are_written_whole_or_not_at_all(tmp_path: Path) -> None:
    result = runner.invoke(app, ["selfplay", "caravan", "-n", "1", "-o", str(tmp_path / "missing" / "x.cvn")])
    assert result.exit_code == 2 and "cannot write" in result.output
    out = tmp_path / "annotated.cvn"
    import referee.jobs.annotate as annotate_module

    real = annotate_module.annotate_file

    def second_fails(path, *args, **kwargs):
        if path.endswith("daifugo.dfn"):
            raise OSError(5, "Input/output error", path)
        return real(path, *args, **kwargs)

    annotate_module.annotate_file = second_fails
    try:
        result = runner.invoke(app, ["annotate", "-o", str(out), str(ROOT / "examples" / "caravan.cvn"),
                                     str(ROOT / "examples" / "daifugo.dfn")])
    finally:
        annotate_module.annotate_file = real
    assert result.exit_code == 2 and "cannot read" in result.output
    assert not out.exists() and not list(tmp_path.glob(".annotated.cvn.*"))


def test_show_of_a_record_it_cannot_draw_says_why_in_one_line() -> None:
    path = ROOT / "tests" / "golden" / "daifugo" / "notation-tags.dfn"
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    known = ", ".join(g.title for g in registry.games())
    assert result.stderr == f"pitboss: {path}, record 1: unknown game 'daifugou'; pitboss knows {known}\n"
