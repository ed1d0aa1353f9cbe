"""Tournaments run as a user runs them (``pitboss arena``): line-protocol bots that hang,
exit and cheat, built-in players, both games; every record validated; killed with SIGKILL and resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from referee.jobs.validate import validate_file

from .conftest import ROOT, arena, entrants_args, field, standings, without_times

GAMES = {
    "caravan": ["caravan", "-r", "fnv", "--games", "2"],
    "daifugo": ["daifugo", "--table-size", "4", "--rounds", "2", "--games", "2"],
}


def _common(out: Path) -> list[str]:
    return ["--time-limit", "0.4", "--seed", "7", "--concurrency", "2", "--out", str(out), "--no-replays"]


def _check(folder: Path) -> dict:
    doc = standings(folder)
    by_name = {e["name"]: e for e in doc["entrants"]}
    # the hang and the exit are reported against the entrants that did them, and only them
    assert by_name["hang"]["incident_kinds"].get("timeout", 0) >= 1
    assert by_name["quit"]["incident_kinds"].get("crash", 0) >= 1
    assert set(by_name["l4"]["incident_kinds"]) <= {"illegal", "garbage"} and by_name["l4"]["incidents"] >= 1
    for name in ("l1", "l2", "l3", "g", "r"):
        assert by_name[name]["incidents"] == 0, by_name[name]
    assert all(i["entrant"] in ("hang", "quit", "l4") for i in doc["incidents"])
    # every entrant played, every table finished, every record is valid
    assert all(e["games"] >= 2 for e in doc["entrants"]) and not doc["errors"]
    records = sorted((folder / "games").glob("table-*"))
    assert len(records) == doc["tournament"]["tables"] and records
    for record in records:
        reports = list(validate_file(str(record)))
        assert reports and all(r.valid for r in reports), (record, [r.errors for r in reports])
    return doc


@pytest.mark.parametrize("game", ["caravan", pytest.param("daifugo", marks=pytest.mark.slow)])
def test_a_tournament_survives_its_bots_and_a_kill(tmp_path: Path, game: str) -> None:
    whole = tmp_path / "whole"
    done = arena(*GAMES[game], *entrants_args(field()), *_common(whole))
    assert done.returncode == 0, done.stderr
    assert "hang" in done.stdout and "incident" in done.stdout
    reference = _check(whole)

    cut = tmp_path / "cut"
    proc = subprocess.Popen([sys.executable, "-m", "cli", "arena", *GAMES[game], *entrants_args(field()),
                             *_common(cut)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    journal = cut / "journal.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) >= 2:
            break
        time.sleep(0.02)
    killed = proc.poll() is None
    if killed:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert killed, "the tournament ended before it could be killed"
    assert not (cut / "standings.json").exists()
    resumed = arena("--resume", str(cut), "--concurrency", "2", "--no-replays")
    assert resumed.returncode == 0, resumed.stderr
    assert without_times(_check(cut)) == without_times(reference)


def test_daifugo_incidents_pass_and_the_tournament_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "df"
    done = arena(*GAMES["daifugo"], *entrants_args(field()), *_common(out))
    assert done.returncode == 0, done.stderr
    doc = _check(out)
    # the seat out of time passes (the rules' answer), and its bot plays on afterwards
    hang = next(i for i in doc["incidents"] if i["entrant"] == "hang")
    assert hang["consequence"].endswith("pass")
    assert doc["entrants"][0]["rating_interval"][0] < doc["entrants"][0]["rating"]


def _in_process(*args: str) -> Result:
    """The command run in this process (what a refusal needs: no table is played)."""
    from cli import app

    return CliRunner().invoke(app, ["arena", *args])


def test_a_second_run_into_the_same_folder_is_refused(tmp_path: Path) -> None:
    args = ["caravan", "-e", "a=bot:random", "-e", "b=bot:greedy", "--games", "1", "--out", str(tmp_path / "t"),
            "--no-replays"]
    assert _in_process(*args).exit_code == 0
    again = _in_process(*args)
    assert again.exit_code == 2 and "--resume" in again.stderr


@pytest.mark.parametrize("args, said", [
    (["caravan", "-e", "a=bot:random", "-e", "b=bot:wizard"], "no built-in player 'wizard'"),
    (["caravan", "-e", "a=bot:random", "-e", "a=bot:greedy"], "given twice"),
    (["caravan", "-e", "bad name=bot:random", "-e", "b=bot:greedy"], "entrant name"),
    (["caravan", "-e", "a=telnet:x", "-e", "b=bot:greedy"], "SPEC is"),
    (["daifugo", "--table-size", "9", "-e", "a=bot:random", "-e", "b=bot:greedy"], "seats"),
    (["caravan", "-e", "a=bot:random"], "at least 2 entrants"),
    (["chess", "-e", "a=bot:random", "-e", "b=bot:greedy"], "'chess' is not one of"),
])
def test_bad_tournaments_are_refused_with_a_reason(tmp_path: Path, args: list[str], said: str) -> None:
    done = _in_process(*args, "--out", str(tmp_path / "x"))
    assert done.exit_code == 2
    assert said in done.stderr, done.stderr
