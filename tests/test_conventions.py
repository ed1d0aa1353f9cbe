"""The command line's conventions, inputs, outputs and limits (through click's runner, or
a real process where the shell's own plumbing is the point)."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
ILLEGAL = EXAMPLES / "illegal.cvn"
runner = CliRunner()


def pitboss(*args: str, **kw) -> subprocess.CompletedProcess:
    """The command as a user runs it (a real process: pipes, FIFOs, signals)."""
    return subprocess.run([sys.executable, "-m", "pitboss", *args], capture_output=True, cwd=ROOT,
                          timeout=120, **kw)


def commands() -> dict:
    """Every command by its path (``selfplay caravan``)."""
    out: dict = {}

    def walk(cmd, path: str) -> None:
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                walk(sub, f"{path} {name}".strip())
        else:
            out[path] = cmd
    walk(app, "")
    return out


# ---------------------------------------------------------------- conventions

def test_version_and_short_help() -> None:
    for flag in ("--version", "-V"):
        result = runner.invoke(app, [flag])
        assert result.exit_code == 0 and re.fullmatch(r"pitboss \S+\n(compiled engines: .+\n)?", result.output), result.output
    for args in (["-h"], ["validate", "-h"], ["solve", "-h"], ["selfplay", "-h"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and "Usage:" in result.output, args


def test_shell_completion_is_offered() -> None:
    result = runner.invoke(app, ["--help"])
    assert "--install-completion" in result.output and "--show-completion" in result.output


def test_shell_completion_installs_and_completes(tmp_path: Path) -> None:
    """The script is the shell's own (by $SHELL), installed once however often asked, and
    the program answers it: commands, and the options the games declare."""
    env = {"HOME": str(tmp_path), "SHELL": "/bin/bash"}
    shown = runner.invoke(app, ["--show-completion"], env=env)
    assert shown.exit_code == 0 and "_PITBOSS_COMPLETE" in shown.output and "complete " in shown.output
    for _ in range(2):
        installed = runner.invoke(app, ["--install-completion"], env=env)
        assert installed.exit_code == 0 and "bash completion installed in" in installed.output, installed.output
    script = tmp_path / ".bash_completions" / "pitboss.sh"
    assert script.read_text().strip() == shown.output.strip()
    assert (tmp_path / ".bashrc").read_text().count(f"source '{script}'") == 1
    zsh = runner.invoke(app, ["--install-completion"], env={**env, "SHELL": "/usr/bin/zsh"})
    assert zsh.exit_code == 0 and (tmp_path / ".zfunc" / "_pitboss").is_file()
    unknown = runner.invoke(app, ["--show-completion"], env={**env, "SHELL": "/bin/tcsh"})
    assert unknown.exit_code == 2 and "tcsh" in unknown.output
    for words, expected in (("pitboss sol", "plain,solve"), ("pitboss solve --cara", "plain,--caravan")):
        done = runner.invoke(app, [], prog_name="pitboss", env={
            "_PITBOSS_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)})
        assert done.exit_code == 0 and expected in done.output.splitlines(), done.output


def test_one_meaning_per_short_option() -> None:
    meaning: dict[str, set[str]] = {}
    for cmd in commands().values():
        for param in cmd.params:
            if getattr(param, "param_type_name", "") != "option":
                continue
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in param.opts + param.secondary_opts if re.fullmatch(r"-[A-Za-z]", o)):
                meaning.setdefault(short, set()).update(longs)
    clashes = {s: m for s, m in meaning.items() if len(m) > 1}
    assert not clashes, clashes
    assert meaning["-q"] == {"--quiet"} and meaning["-Q"] == {"--question"}


@pytest.mark.parametrize("path", sorted(commands()), ids=lambda p: p or "pitboss")
def test_help_reads_well(path: str) -> None:
    result = runner.invoke(app, [*path.split(), "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    text = result.output
    assert not re.search(r"<(list|str|int|float|bool|path)\b[^>]*>", text), text
    assert not re.search(r"\{[A-Za-z_.]+\}", text.split("\n\n")[0]), text  # usage: FILE, not {FILE}
    usage = text.splitlines()[0]
    assert usage.startswith("Usage: pitboss"), usage


def test_examples_in_help_and_docs_use_the_short_options_as_they_are() -> None:
    from referee.jobs import registry

    texts = [e for g in registry.games() for e in g.examples]
    texts += [(ROOT / f).read_text(encoding="utf-8") for f in ("README.md", "docs/solve.md", "docs/api.md")]
    for text in texts:
        assert not re.search(r"pitboss solve [^\n]*-q (reach|fewest|forced-win|out|unbeatable|forced-out)", text), text[:200]


def test_color_auto_always_never(tmp_path: Path) -> None:
    args = ["validate", str(ILLEGAL)]
    assert "\x1b[" in runner.invoke(app, [*args, "--color", "always"]).output
    assert "\x1b[" not in runner.invoke(app, [*args, "--color", "never"]).output
    assert "\x1b[" not in runner.invoke(app, args).output  # not a terminal
    assert "\x1b[" in runner.invoke(app, args, env={"FORCE_COLOR": "1"}).output
    assert "\x1b[" not in runner.invoke(app, args, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).output
    assert "\x1b[" in runner.invoke(app, [*args, "--color", "always"], env={"NO_COLOR": "1"}).output


# ---------------------------------------------------------------- validate's reports

WARNED = '[Game "Caravan"]\n[Table "A: 4S; B: 7D; C: 9C; D: 10H; E: 8S; F: 6D"]\n[Hand1 "5S 2C"]\n[Hand2 "?"]\n[ToMove "1"]\n[Phase "main"]\n\n5. 5S>A *\n'


def test_github_format_annotates_each_finding() -> None:
    result = runner.invoke(app, ["validate", "--format", "github", str(ILLEGAL)])
    assert result.exit_code == 1
    line = result.output.splitlines()[0]
    assert line.startswith(f"::error file={ILLEGAL},line=13,col=23,title=caravan.number.direction::caravan A is")


def test_warnings_counted_statistics_and_strict(tmp_path: Path) -> None:
    path = tmp_path / "warned.cvn"
    path.write_text(WARNED, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), str(ILLEGAL), "--statistics"])
    assert result.exit_code == 1
    assert "2 games: 1 valid, 1 invalid; 1 error, 1 warning" in result.output
    assert re.search(r"^\s+1  notation\.move-number  \(1 warning\)$", result.output, re.M)
    assert runner.invoke(app, ["validate", str(path)]).exit_code == 0
    strict = runner.invoke(app, ["validate", "--strict", "-q", str(path)])
    assert strict.exit_code == 1 and "warning [notation.move-number]" in strict.output
    doc = json.loads(runner.invoke(app, ["validate", "--json", "--statistics", str(path)]).output)
    assert doc["summary"]["warnings"] == 1
    assert doc["summary"]["statistics"] == {"notation.move-number": {"errors": 0, "warnings": 1}}


def test_rules_judges_under_another_setting() -> None:
    assert runner.invoke(app, ["validate", str(ILLEGAL)]).exit_code == 1
    result = runner.invoke(app, ["validate", "--rules", "fnv", str(ILLEGAL)])
    assert result.exit_code == 0 and "(caravan, fnv," in result.output
    daifugo = runner.invoke(app, ["validate", "-r", "seed -spade3 -eight-cut", str(EXAMPLES / "daifugo.dfn")])
    assert daifugo.exit_code == 1  # the match leans on its eight-cuts
    bad = runner.invoke(app, ["validate", "--rules", "nonsense", str(ILLEGAL)])
    assert bad.exit_code == 2 and "nonsense" in bad.output
    solved = runner.invoke(app, ["solve", str(ILLEGAL), "-Q", "reach", "-c", "A", "-k", "1", "--rules", "fnv"])
    assert solved.exit_code == 0 and "(caravan, fnv)" in solved.output


# ---------------------------------------------------------------- inputs

def test_missing_file_is_reported_and_the_others_validated() -> None:
    result = runner.invoke(app, ["validate", "no-such.cvn", str(EXAMPLES / "caravan.cvn")])
    assert result.exit_code == 2
    assert "pitboss: cannot read no-such.cvn: no such file" in result.output
    assert "2 games: 2 valid, 0 invalid" in result.output and "1 input not read" in result.output


def test_folders_are_read_recursively(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "one.cvn").write_bytes(ILLEGAL.read_bytes())
    (tmp_path / "a" / "two.dfn").write_bytes((EXAMPLES / "daifugo.dfn").read_bytes())
    (tmp_path / "a" / "notes.txt").write_text("not a record")
    doc = json.loads(runner.invoke(app, ["validate", "--json", str(tmp_path)]).output)
    assert [g["file"] for g in doc["games"]] == [str(tmp_path / "a" / "b" / "one.cvn"), str(tmp_path / "a" / "two.dfn")]


@pytest.mark.parametrize("kind", ["gz", "bz2", "xz"])
def test_compressed_records_are_read(tmp_path: Path, kind: str) -> None:
    pack = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[kind]
    path = tmp_path / f"illegal.cvn.{kind}"
    path.write_bytes(pack(ILLEGAL.read_bytes()))
    plain = json.loads(runner.invoke(app, ["validate", "--json", str(ILLEGAL)]).output)
    packed = json.loads(runner.invoke(app, ["validate", "--json", str(path)]).output)
    assert packed["games"][0]["errors"] == plain["games"][0]["errors"]
    cut = tmp_path / f"cut.cvn.{kind}"
    cut.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    result = runner.invoke(app, ["validate", str(cut)])
    assert result.exit_code == 2 and "cut short or corrupt" in result.output and "Traceback" not in result.output


def test_binary_input_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "picture.cvn"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    result = pitboss("validate", str(path), str(ILLEGAL))
    err = result.stderr.decode()
    assert result.returncode == 2 and err.count("\n") == 1 and "binary data" in err
    assert b"\x1a" not in result.stdout and b"game 1 (caravan, holotape" in result.stdout


def test_stdin_fifo_and_process_substitution(tmp_path: Path) -> None:
    data = ILLEGAL.read_bytes()
    for args in (["validate", "/dev/stdin"], ["validate", "-"], ["show", "/dev/stdin"], ["explain", "--ply", "3", "-"]):
        result = pitboss(*args, input=data)
        assert result.returncode == 1, (args, result.stderr)
    fifo = tmp_path / "records.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(data))
    writer.start()
    result = pitboss("validate", str(fifo))
    writer.join()
    assert result.returncode == 1 and b"error [caravan.number.direction]" in result.stdout, result.stderr
    shell = subprocess.run(["bash", "-c", f'"{sys.executable}" -m pitboss validate <(cat "{ILLEGAL}")'],
                           capture_output=True, cwd=ROOT, timeout=120)
    assert shell.returncode == 1 and b"error [caravan.number.direction]" in shell.stdout, shell.stderr


# ---------------------------------------------------------------- outputs

def test_dash_is_standard_output_for_every_output_option(tmp_path: Path) -> None:
    for args in (["selfplay", "caravan", "-n", "1", "-o", "-"], ["annotate", "-o", "-", str(ILLEGAL)],
                 ["show", "--html", "-", str(ILLEGAL)], ["show", "--svg", "-", str(ILLEGAL)]):
        result = runner.invoke(app, args)
        assert result.exit_code in (0, 1), (args, result.output)
        assert any(mark in result.output[:400] for mark in ("[Game", "<!DOCTYPE html", "<svg")), (args, result.output[:80])
    assert not (ROOT / "-").exists() and not list(Path.cwd().glob("-"))


def test_show_json() -> None:
    result = runner.invoke(app, ["show", "--json", "--ply", "2", str(ILLEGAL)])
    doc = json.loads(result.output)
    assert doc["record"]["valid"] is False and doc["position"]["ply"] == 2
    assert doc["position"]["move"] == "discard 5C" and "A" in doc["text"]


def test_selfplay_into_head_is_quiet() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "pitboss", "selfplay", "caravan", "-n", "3000"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0 and err == b"", err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_output_file_leaves_nothing(tmp_path: Path, sig: int) -> None:
    out = tmp_path / "many.cvn"
    proc = subprocess.Popen([sys.executable, "-m", "pitboss", "selfplay", "caravan", "-n", "100000", "-o", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(12000):  # until the temporary file exists (bounded: two minutes)
        if list(tmp_path.glob(".many.cvn.*")) or proc.poll() is not None:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "selfplay ended before it could be interrupted"
    proc.send_signal(sig)
    proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert list(tmp_path.iterdir()) == []


def test_wide_characters_keep_the_caret_in_place(tmp_path: Path) -> None:
    text = (EXAMPLES / "daifugo.dfn").read_text(encoding="utf-8").replace("Aki", "大富豪").replace(
        "Ben: AC JK(AS)", "Ben: AC JX")
    path = tmp_path / "wide.dfn"
    path.write_text(text, encoding="utf-8")
    out = runner.invoke(app, ["validate", str(path)]).output.splitlines()
    at = next(i for i, line in enumerate(out) if "error [" in line)
    column = int(out[at].split(":")[2])
    source, caret = out[at + 1][4:], out[at + 2][4:]
    assert source[column - 1:].startswith("JX")
    from referee.notation.records import display_width
    assert caret.index("^") == display_width(source[: column - 1])


# ---------------------------------------------------------------- solve's limits

def test_within_and_depth_have_documented_maxima() -> None:
    path = str(ROOT / "tests" / "golden" / "puzzles" / "caravan-lines.cvn")
    for args in (["-Q", "reach", "-c", "A", "--within", "31"], ["-Q", "forced-win", "--depth", "31"]):
        result = runner.invoke(app, ["solve", path, *args])
        assert result.exit_code == 2 and "30" in result.output, result.output
    assert "at most 30" in runner.invoke(app, ["solve", "--help"], terminal_width=200).output
    import pitboss as api
    from referee.jobs.solve import QuestionError
    with pytest.raises(QuestionError, match="maximum, 30"):
        api.solve(path, "reach", caravan="A", within=200, method="z3", timeout=1)


def test_z3_model_building_honours_the_timeout_and_says_the_time_taken() -> None:
    import pitboss as api

    path = ROOT / "tests" / "golden" / "puzzles" / "caravan-lines.cvn"
    answer = api.solve(path, "reach", caravan="A", within=30, method="z3", timeout=0.05)
    assert answer.answer == "unknown"
    took = float(re.match(r"unknown after (\d+\.\d+) s \(--timeout 0\.05 s\)$", answer.reason).group(1))
    assert took == pytest.approx(answer.stats.time, abs=0.006)
    assert answer.stats.time >= 0.05


def test_stats_are_true_after_a_timeout() -> None:
    import pitboss as api
    from referee.games.caravan.selfplay import caravan_games

    game = next(caravan_games(1, 5, "holotape", "random", True))
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"pitboss-stats-{os.getpid()}.cvn"
    path.write_text(game.text(), encoding="utf-8")
    try:
        answer = api.solve(path, "forced-win", ply=20, depth=6, timeout=0.05)
    finally:
        path.unlink()
    assert answer.answer == "unknown" and answer.stats.nodes > 0
