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
        assert result.exit_code == 0, result.output
        assert re.fullmatch(r"pitboss \S+\n(compiled engines: .+\n)?", result.output), result.output
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
        questions = r"(reach|fewest|forced-win|out|unbeatable|forced-out)"
        assert not re.search(r"pitboss solve [^\n]*-q " + questions, text), text[:200]


def test_color_auto_always_never(tmp_path: Path) -> None:
    args = ["validate", str(ILLEGAL)]
    assert "\x1b[" in runner.invoke(app, [*args, "--color", "always"]).output
    assert "\x1b[" not in runner.invoke(app, [*args, "--color", "never"]).output
    assert "\x1b[" not in runner.invoke(app, args).output  # not a terminal
    assert "\x1b[" in runner.invoke(app, args, env={"FORCE_COLOR": "1"}).output
    assert "\x1b[" not in runner.invoke(app, args, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).output
    assert "\x1b[" in runner.invoke(app, [*args, "--color", "always"], env={"NO_COLOR": "1"}).output


# ---------------------------------------------------------------- validate's reports

WARNED = ('[Game "Caravan"]\n[Table "A: 4S; B: 7D; C: 9C; D: 10H; E: 8S; F: 6D"]\n[Hand1 "5S 2C"]\n[Hand2 "?"]\n'
          '[ToMove "1"]\n[Phase "main"]\n\n5. 5S>A *\n')


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
    result = runner.invoke(app, ["validate", "-v", "--rules", "fnv", str(ILLEGAL)])
    assert result.exit_code == 0 and "(caravan, fnv," in result.output
    daifugo = runner.invoke(app, ["validate", "-r", "classic -spade3 -eight-cut", str(EXAMPLES / "daifugo.dfn")])
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
        marks = ("[Game", "<!DOCTYPE html", "<svg")
        assert any(mark in result.output[:400] for mark in marks), (args, result.output[:80])
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
    from referee.notation.screen import width as display_width
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


# ---------------------------------------------------------------- quiet when all is well

def test_validate_prints_findings_and_the_summary_and_v_lists_every_record(tmp_path: Path) -> None:
    valid = str(EXAMPLES / "caravan.cvn")
    quiet = runner.invoke(app, ["validate", valid])
    assert quiet.exit_code == 0 and quiet.output == "2 games: 2 valid, 0 invalid; 0 errors, 0 warnings\n"
    verbose = runner.invoke(app, ["validate", "-v", valid])
    assert [line.endswith(": valid") for line in verbose.output.splitlines()] == [True, True, False]
    warned = tmp_path / "warned.cvn"
    warned.write_text(WARNED, encoding="utf-8")
    both = runner.invoke(app, ["validate", valid, str(warned), str(ILLEGAL)])
    lines = both.output.splitlines()
    assert both.exit_code == 1 and not any(line.startswith(valid) for line in lines)
    assert sum("warning [notation.move-number]" in line for line in lines) == 1
    assert sum(": INVALID (1 error)" in line for line in lines) == 1
    only_invalid = runner.invoke(app, ["validate", "-q", valid, str(warned), str(ILLEGAL)])
    assert "warning [" not in only_invalid.output and "error [" in only_invalid.output
    clash = runner.invoke(app, ["validate", "-q", "-v", valid])
    assert clash.exit_code == 2 and "--quiet and --verbose" in clash.output


def test_the_summary_writes_every_count_alike(capsys) -> None:
    from referee.commands.validate import print_summary
    from referee.jobs.validate import Summary

    print_summary(Summary(games=1160, valid=1159, invalid=1001, errors=1234, warnings=1), False, False)
    assert capsys.readouterr().out == "1,160 games: 1,159 valid, 1,001 invalid; 1,234 errors, 1 warning\n"


def test_no_records_is_a_warning_and_its_own_exit_status(tmp_path: Path) -> None:
    (tmp_path / "none").mkdir()
    (tmp_path / "empty.cvn").write_text("\n\n", encoding="utf-8")
    valid = str(EXAMPLES / "caravan.cvn")
    result = runner.invoke(app, ["validate", str(tmp_path / "none"), str(tmp_path / "empty.cvn"), valid])
    assert result.exit_code == 3, result.output
    assert result.stderr.splitlines() == [f"pitboss: {tmp_path / 'none'}: no records: nothing to validate",
                                          f"pitboss: {tmp_path / 'empty.cvn'}: no records: nothing to validate"]
    doc = json.loads(runner.invoke(app, ["validate", "--json", str(tmp_path / "none")]).stdout)
    assert doc["summary"]["games"] == 0 and doc["warnings"] == [f"{tmp_path / 'none'}: no records: nothing to validate"]
    assert runner.invoke(app, ["validate", str(tmp_path / "none"), str(ILLEGAL)]).exit_code == 1
    assert runner.invoke(app, ["validate", str(tmp_path / "none"), "missing.cvn"]).exit_code == 2
    assert runner.invoke(app, ["validate", "-"], input="").exit_code == 3
    assert "3 nothing to validate" in " ".join(runner.invoke(app, ["validate", "--help"]).output.split())
    assert "warnings" not in json.loads(runner.invoke(app, ["validate", "--json", valid]).stdout)


# ---------------------------------------------------------------- names misspelled, settings of another game

@pytest.mark.parametrize("args, said", [
    (["validate", "--rules", "fvn", str(ILLEGAL)], "(did you mean fnv?)"),
    (["validate", "--quite", str(ILLEGAL)], "Did you mean '--quiet'?"),
    (["valdate", str(ILLEGAL)], "Did you mean 'validate'?"),
    (["validate", "--format", "jsn", str(ILLEGAL)], "Did you mean 'json'?"),
    (["solve", str(ILLEGAL), "-Q", "rech"], "Did you mean 'reach'?"),
    (["rules", "cravan"], "(did you mean caravan?)"),
    (["selfplay", "daifugo", "-n", "1", "--options", "+eightcut"], "(did you mean eight-cut?)"),
], ids=["rule-set", "option", "command", "choice", "question", "game", "game-option"])
def test_a_misspelled_name_gets_the_closest(args: list[str], said: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and said in result.output, result.output


def test_an_option_of_a_game_is_said_as_that_games() -> None:
    result = runner.invoke(app, ["validate", "--rules", "classic +spade4", str(EXAMPLES / "daifugo.dfn")])
    message = result.stderr.removeprefix("pitboss: ")
    assert result.exit_code == 2 and message.startswith("--rules 'classic +spade4': unknown Daifugo option 'spade4'")
    assert "Caravan" not in message and "(did you mean spade3?)" in message


def test_a_setting_of_another_game_says_which_game_it_met() -> None:
    valid = str(EXAMPLES / "caravan.cvn")
    # (uecda: a name only Daifugo's settings read; the test suite's Highcard has a classic too)
    met = "--rules 'uecda' is a Daifugo setting and met no Daifugo record, only Caravan ones"
    for command in (["validate"], ["annotate"]):
        result = runner.invoke(app, [*command, "--rules", "uecda", valid])
        assert result.exit_code == 0 and result.stderr == f"pitboss: {met}\n", (command, result.output)
    doc = json.loads(runner.invoke(app, ["validate", "--json", "--rules", "uecda", valid]).stdout)
    assert doc["warnings"] == [met]
    solved = runner.invoke(app, ["solve", valid, "-Q", "reach", "-c", "A", "--rules", "classic"])
    assert solved.exit_code == 2
    assert solved.stderr == f"pitboss: --rules 'classic' is a Daifugo setting, but {valid} holds a Caravan record\n"


@pytest.mark.parametrize("command", [["validate"], ["annotate"], ["explain", "--ply", "1"], ["show"],
                                     ["solve", "-Q", "reach", "-c", "A", "-k", "1"]],
                         ids=lambda c: c[0])
def test_an_unknown_language_is_a_warning_also_in_json(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--json", "--lang", "fre", str(EXAMPLES / "caravan.cvn")])
    said = "unknown language 'fre': speaking English (languages: en, zh_Hans, zh_Hant, ja, fr, hu) (did you mean fr?)"
    assert result.exit_code == 0 and result.stderr == f"pitboss: {said}\n", result.output
    assert json.loads(result.stdout)["warnings"] == [said]


# ---------------------------------------------------------------- serve fails like a command

def _free_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path: Path) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        result = pitboss("serve", "--port", str(port), "--db", str(tmp_path / "t.db"))
        assert result.returncode == 2 and result.stdout == b""
        assert result.stderr.decode() == f"pitboss: cannot listen on 127.0.0.1:{port} (HTTP): Address already in use\n"
        listener = runner.invoke(app, ["serve", "--port", "0", "--uecda", str(port), "--db", str(tmp_path / "t.db")])
        assert listener.exit_code == 2
        assert listener.stderr == f"pitboss: cannot listen on 127.0.0.1:{port} (uecda): Address already in use\n"


def test_serve_with_a_database_it_cannot_open_says_which_in_one_line(tmp_path: Path) -> None:
    for db in (str(tmp_path / "missing" / "t.db"), str(tmp_path)):
        result = runner.invoke(app, ["serve", "--port", "0", "--db", db])
        assert result.exit_code == 2
        assert result.stderr == f"pitboss: cannot open the database {db}: unable to open database file\n"
    port = _free_port()
    result = runner.invoke(app, ["serve", "--port", "0", "--db", f"postgresql://ann:secret@127.0.0.1:{port}/pitboss"])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"pitboss: cannot open the database postgresql://ann:***@127.0.0.1:{port}/pitboss: "
                                    f"")
    assert "refused" in result.stderr and "secret" not in result.stderr
