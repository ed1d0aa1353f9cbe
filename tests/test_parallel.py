"""``validate --jobs N``: the same reports, in the same order, as one process; bounded
read-ahead; an unreadable file reported in its place, as one process reports it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.jobs import parallel
from referee.jobs.parallel import Unread, available_cores, validate_paths

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"


def golden_files() -> list[str]:
    return [str(p) for p in sorted(GOLDEN.rglob("*")) if p.suffix in (".cvn", ".dfn", ".log")]


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, timeout=300)


@pytest.mark.parametrize("fmt", [[], ["--json"]], ids=["text", "json"])
def test_every_golden_file_prints_the_same_on_two_processes(fmt):
    files = golden_files()
    one = _cli("validate", "--jobs", "1", *fmt, *files)
    two = _cli("validate", "--jobs", "2", *fmt, *files)
    assert one.returncode == two.returncode == 1  # the goldens hold invalid records
    assert one.stderr == two.stderr == b""
    assert two.stdout == one.stdout
    assert len(one.stdout) > 10_000


def _big_file(tmp_path: Path) -> Path:
    """Every golden Caravan and Daifugo record, several times over, in one file."""
    parts = [p.read_text(encoding="utf-8") for p in sorted(GOLDEN.rglob("*")) if p.suffix in (".cvn", ".dfn")]
    big = tmp_path / "big.dfn"
    big.write_text("\n".join(parts * 3), encoding="utf-8")
    return big


def _as_json(stream) -> list[tuple[dict, float | None]]:
    return [(report.to_json(), fraction) for report, fraction in stream]


def test_records_of_one_file_are_judged_in_batches_in_order(tmp_path):
    big = str(_big_file(tmp_path))
    one = _as_json(validate_paths([big], jobs=1))
    assert len(one) > 300
    for batch in (1, 7, 1000):
        assert _as_json(validate_paths([big], jobs=2, batch_records=batch)) == one
    # the reports' sources (shown under the caret) travel back from the workers too
    sources = [f.source for r, _ in validate_paths([big], jobs=2, batch_records=5) for f in r.errors]
    assert sources == [f.source for r, _ in validate_paths([big], jobs=1) for f in r.errors]
    assert any(sources)


def test_read_ahead_is_bounded(tmp_path, monkeypatch):
    """Only a few batches per worker are read ahead of what has been yielded."""
    big = str(_big_file(tmp_path))
    read = 0
    real = parallel.split

    def counting(lines):
        nonlocal read
        for chunk in real(lines):
            read += 1
            yield chunk

    monkeypatch.setattr(parallel, "split", counting)
    stream = validate_paths([big], jobs=2, batch_records=4)
    next(stream)
    ahead = read
    stream.close()
    assert 4 < ahead <= 2 * parallel.IN_FLIGHT_PER_JOB * 4 + 4


def test_an_unreadable_file_is_reported_in_its_place_and_the_run_goes_on(tmp_path):
    good = str(GOLDEN / "caravan" / "deck.cvn")
    missing = str(tmp_path / "gone.cvn")
    for jobs in (1, 2):
        seen = []
        for item, _ in validate_paths([good, good, missing, good], jobs=jobs):
            seen.append(("unread", item.path) if isinstance(item, Unread) else item.to_json())
        one = _as_json_reports([good])
        assert seen == one + one + [("unread", missing)] + one


def _as_json_reports(files: list[str]) -> list[dict]:
    return [r.to_json() for r, _ in validate_paths(files, jobs=1)]


def test_a_contest_log_is_one_unit(contest_logs):
    logs = [str(p) for p in sorted(contest_logs.glob("*.log"))]
    one = _as_json(validate_paths(logs + logs, jobs=1))
    two = _as_json(validate_paths(logs + logs, jobs=2, batch_records=1))
    assert [r for r, _ in two] == [r for r, _ in one]
    assert len(one) > 10


def test_standard_input_is_read_once(tmp_path):
    big = _big_file(tmp_path)
    with open(big, encoding="utf-8") as one_in:
        one = [r.to_json() for r, _ in validate_paths(["-"], jobs=1, stdin=one_in)]
    with open(big, encoding="utf-8") as two_in:
        two = [r.to_json() for r, _ in validate_paths(["-"], jobs=2, stdin=two_in, batch_records=9)]
    assert one == two and one[0]["file"] == "<stdin>"


def test_default_is_every_available_core():
    assert available_cores() >= 1
    assert available_cores() <= (os.cpu_count() or 1)


def test_a_worker_that_dies_is_a_clear_error(tmp_path):
    import multiprocessing
    import signal

    from referee.jobs.parallel import RunError

    big = str(_big_file(tmp_path))
    stream = validate_paths([big], jobs=2, batch_records=2)
    next(stream)
    workers = multiprocessing.active_children()
    assert workers
    for w in workers:
        os.kill(w.pid, signal.SIGKILL)
    with pytest.raises(RunError, match="a worker process died"):
        for _ in stream:
            pass


def test_jobs_and_dask_together_are_refused():
    from click.testing import CliRunner

    from cli import app

    result = CliRunner().invoke(app, ["validate", "--jobs", "2", "--dask", "tcp://127.0.0.1:1",
                                      str(GOLDEN / "caravan" / "deck.cvn")])
    assert result.exit_code == 2
    assert "--jobs and --dask: choose one" in result.output


# ------------------------------------------------------------------ --rules on every process

def every_setting() -> list[list[str]]:
    """``--rules`` texts, one per game per run: every rule set of both games, and each
    Daifugo preset with every one of its options toggled (as annotate toggles them; a
    third of them in each run), and the toggles a contest log's header states together."""
    from referee.games.daifugo import engine as df
    from referee.games.daifugo import settings as daifugo
    from referee.games.daifugo.notation.dfn import options_text

    texts = ["classic", "uecda", "classic -revolution stairs-revolution=5",
             "uecda -revolution -sequences -eight-cut -suit-lock +eleven-back +six-reverse exchange=none "
             "trick-end=all-but-one"]
    for preset, base in df.PRESETS.items():
        toggled = [(name, daifugo.flipped(base, name)) for name in df.OPTIONS]
        for part in range(3):
            texts.append(f"{preset} {options_text(df.ruleset(preset, dict(toggled[part::3])))}")
    caravan = ["holotape", "fnv"]
    return [[caravan[i % 2], text] for i, text in enumerate(texts)]


def setting_inputs() -> list[str]:
    """Records of both games (the goldens of the options and of what the rule sets
    dispute) and a contest log."""
    return [*map(str, sorted(GOLDEN.glob("caravan/disputed-*.cvn"))), *map(str,
                                                                           sorted(GOLDEN.glob("daifugo/option-*.dfn"))),
            *map(str, sorted(GOLDEN.glob("daifugo/uecda-*.dfn"))), str(GOLDEN / "daifugo" / "uecda-log-11back.log")]


def test_every_setting_is_plain_data_that_unpickles_as_itself():
    """Rule sets and options pickle (compiled engines too: CI's second run) and come back as
    the very rule set the engine knows, so what a worker remembers per rule set is kept."""
    import dataclasses
    import pickle

    from referee.jobs.validate import parse_settings

    for texts in every_setting():
        for game, setting in parse_settings(texts).items():
            back = pickle.loads(pickle.dumps(setting))
            assert back is setting, (game, texts)
            assert dataclasses.is_dataclass(setting)
            assert not any(callable(getattr(setting, f.name)) for f in dataclasses.fields(setting)), \
                "a function among a setting's fields"


def test_every_setting_is_judged_the_same_on_two_processes():
    from referee.jobs.validate import parse_settings

    files = setting_inputs()
    runs = every_setting()
    toggled = {word.lstrip("+-").partition("=")[0] for _, text in runs for word in text.split()[1:]}
    from referee.games.daifugo import engine as df

    assert toggled == set(df.OPTIONS)  # every option of the game, in some run
    for texts in runs:
        settings = parse_settings(texts)
        one = _as_json(validate_paths(files, jobs=1, settings=settings))
        assert _as_json(validate_paths(files, jobs=2, batch_records=8, settings=settings)) == one, texts


#: Runs ``pitboss`` with a worker that dies (``die``) or raises (``raise``) on its first record.
FAILING_WORKER = """
import os, sys
from referee.jobs import parallel
parent, real = os.getpid(), parallel.judge_chunk
def judge(*args):
    if os.getpid() != parent:
        if sys.argv[1] == "die":
            os._exit(9)
        raise RuntimeError("judging failed here")
    return real(*args)
parallel.judge_chunk = judge
from cli import app
app(prog_name="pitboss", args=sys.argv[2:])
"""


@pytest.mark.parametrize("how", ["die", "raise"])
def test_a_failing_worker_is_one_line_and_exit_2(how):
    """Whatever a worker does, with or without --rules: one line on standard error, exit 2,
    and no wait for ever."""
    files = setting_inputs()
    done = subprocess.run([sys.executable, "-c", FAILING_WORKER, how, "validate", "--jobs", "2", "--rules", "fnv",
                           "--rules", "uecda -revolution", *files], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pitboss: "), done.stderr
    assert ("a worker process died" if how == "die" else "RuntimeError: judging failed here") in lines[0]


def _unpickled_in_a_worker() -> None:
    raise RuntimeError("this setting cannot be rebuilt here")


class _Unbuildable:
    """A setting that pickles, and fails when a worker unpickles it."""

    def __reduce__(self):
        return _unpickled_in_a_worker, ()


def test_settings_that_cannot_be_sent_or_rebuilt_are_a_run_error_not_a_hang(tmp_path):
    from referee.jobs.parallel import RunError

    big = str(_big_file(tmp_path))
    with pytest.raises(RunError, match="cannot be sent to a worker process"):
        list(validate_paths([big], jobs=2, batch_records=5, settings={"elsewhere": lambda: None}))
    with pytest.raises(RunError, match="failed in a worker process .*cannot be rebuilt here"):
        list(validate_paths([big], jobs=2, batch_records=5, settings={"elsewhere": _Unbuildable()}))
