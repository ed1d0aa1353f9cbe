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
