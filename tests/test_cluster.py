"""``validate --dask``: on a LocalCluster of two worker processes, the same reports in the
same order as one process, and a worker killed mid-run costs nothing but time."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from distributed import Client, LocalCluster

from referee.jobs.cluster import ClusterError, run_files, validate_on_dask
from referee.jobs.parallel import Unread, validate_paths

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as c:
        yield c


def golden_files() -> list[str]:
    return [str(p) for p in sorted(GOLDEN.rglob("*")) if p.suffix in (".cvn", ".dfn", ".log")]


def _serial(files: list[str]) -> list[dict]:
    return [r.to_json() for r, _ in validate_paths(files, jobs=1)]


def test_golden_files_give_the_same_reports_on_the_cluster(client):
    files = golden_files()
    assert [r.to_json() for r in validate_on_dask(client, files)] == _serial(files)


@pytest.mark.parametrize("fmt", [[], ["--json"]], ids=["text", "json"])
def test_the_command_line_prints_the_same_through_a_scheduler(client, fmt):
    files = golden_files()

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "cli", "validate", *fmt, *args, *files], cwd=ROOT,
                              capture_output=True, timeout=300)

    here, there = cli("--jobs", "1"), cli("--dask", client.scheduler.address)
    assert there.returncode == here.returncode == 1
    assert there.stdout == here.stdout and b"game 1" in here.stdout


def test_a_worker_killed_mid_run_is_survived(client, tmp_path):
    parts = [p.read_text(encoding="utf-8") for p in sorted(GOLDEN.rglob("*")) if p.suffix in (".cvn", ".dfn")]
    files = []
    for i in range(3):  # each about a third of a second of work
        f = tmp_path / f"part{i}.dfn"
        f.write_text("\n".join(parts * 2), encoding="utf-8")
        files.append(str(f))
    pids = client.run(os.getpid)
    results: list = []
    failure: list = []

    def consume():
        try:
            results.extend(run_files(client, files, in_flight=4))
        except Exception as err:
            failure.append(err)

    runner = threading.Thread(target=consume)
    runner.start()
    deadline = time.monotonic() + 60
    while True:
        busy = {w: keys for w, keys in client.processing().items() if keys}
        if busy or time.monotonic() > deadline:
            break
        time.sleep(0.005)
    assert busy, "no worker took a file"
    victim, keys = next(iter(busy.items()))
    os.kill(pids[victim], signal.SIGKILL)
    runner.join(120)
    assert not runner.is_alive() and not failure
    assert [r.to_json() for _, reports, _, _ in results for r in reports] == _serial(files)
    killed = {files[int(str(k).rsplit("-", 1)[1])] for k in keys}
    assert killed
    for name, _, worker, _ in results:
        if name in killed:
            assert worker != victim  # judged again on a live worker


def test_an_unreadable_file_is_reported_in_its_place_and_the_run_goes_on(client, tmp_path):
    good = str(GOLDEN / "caravan" / "deck.cvn")
    missing = str(tmp_path / "gone.cvn")
    seen = [("unread", x.path) if isinstance(x, Unread) else x.to_json()
            for x in validate_on_dask(client, [good, missing, good])]
    assert seen == _serial([good]) + [("unread", missing)] + _serial([good])


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch):
    from referee.jobs import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
        list(validate_on_dask("tcp://127.0.0.1:9", [str(GOLDEN / "caravan" / "deck.cvn")]))


def test_every_setting_is_judged_the_same_on_the_cluster(client, tmp_path):
    """--rules on the cluster: each rule set of both games and each Daifugo option toggled,
    the same reports as one process gives."""
    from referee.jobs.validate import parse_settings
    from tests.test_parallel import every_setting, setting_inputs

    inputs = setting_inputs()
    records = [p for p in inputs if not p.endswith(".log")]
    files = [str(tmp_path / f"part{i}.dfn") for i in range(2)]
    for i, name in enumerate(files):  # two tasks of records, and the log
        Path(name).write_text("\n".join(Path(p).read_text(encoding="utf-8") for p in records[i::2]), encoding="utf-8")
    files += [p for p in inputs if p.endswith(".log")]
    for texts in every_setting():
        settings = parse_settings(texts)
        one = [r.to_json() for r, _ in validate_paths(files, jobs=1, settings=settings)]
        assert [r.to_json() for r in validate_on_dask(client, files, settings=settings)] == one, texts


def test_the_command_line_prints_the_same_with_rules_everywhere(client):
    """Byte for byte: --rules for both games, on one process, two, and the cluster."""
    from tests.test_parallel import setting_inputs

    files = setting_inputs()
    rules = ["--rules", "fnv", "--rules", "uecda -revolution +eleven-back exchange=none"]

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "cli", "validate", *rules, *args, *files], cwd=ROOT,
                              capture_output=True, timeout=300)

    one, two, there = cli("--jobs", "1"), cli("--jobs", "2"), cli("--dask", client.scheduler.address)
    assert one.returncode == two.returncode == there.returncode == 1
    assert one.stderr == two.stderr == there.stderr == b""
    assert two.stdout == one.stdout and there.stdout == one.stdout and b"fnv" in one.stdout


def test_a_cluster_without_workers_is_an_error_not_a_wait_for_ever(monkeypatch, tmp_path) -> None:
    """Workers that cannot start (or cannot import Pitboss) leave the scheduler alone: the
    run says so once the grace is over, for validate and for the arena alike."""
    from referee.arena.entrants import parse
    from referee.arena.main import run
    from referee.arena.tournament import Settings
    from referee.jobs import cluster

    monkeypatch.setattr(cluster, "NO_WORKER_GRACE", 0.5)
    monkeypatch.setattr(cluster, "WORKER_CHECK", 0.1)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as empty, Client(empty) as none:
        with pytest.raises(ClusterError, match="no worker"):
            list(validate_on_dask(none, golden_files()[:2]))
        field = [parse("a=bot:random"), parse("b=bot:random")]
        with pytest.raises(ClusterError, match="no worker"):
            run(Settings("caravan", field, "fnv", games=1, seed=5), tmp_path, dask=none,
                replays=False)
