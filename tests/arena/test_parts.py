"""The arena's schedule, statistics, entrants and contest tables, each on its own."""

from __future__ import annotations

import itertools
import sys
import math
from collections import Counter
from pathlib import Path

import pytest

from referee.arena import schedule, sprt, stats
from referee.arena.entrants import EntrantError, parse
from referee.jobs.validate import validate_file

from .conftest import arena, contest_client, entrants_args, standings

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def _counts(sc: schedule.Schedule, n: int) -> tuple[Counter, Counter]:
    pairs: Counter = Counter()
    seats: Counter = Counter()
    for t in sc.tables:
        for a, b in itertools.combinations(sorted(t.seats), 2):
            pairs[a, b] += 1
        for s, e in enumerate(t.seats):
            seats[e, s] += 1
    return pairs, seats


@pytest.mark.parametrize("n, size, games", [(6, 2, 10), (6, 5, 25), (7, 3, 45), (4, 4, 8)])
def test_a_whole_round_robin_is_balanced(n: int, size: int, games: int) -> None:
    sc = schedule.build(n, size, games, seed=3)
    pairs, seats = _counts(sc, n)
    assert len(pairs) == n * (n - 1) // 2 and len(set(pairs.values())) == 1
    assert len(seats) == n * size and len(set(seats.values())) == 1
    assert sc.balance["pairs"][0] == sc.balance["pairs"][1] and sc.balance["seats"][0] == sc.balance["seats"][1]
    assert min(sc.balance["tables"]) >= games
    assert sc == schedule.build(n, size, games, seed=3)  # the same from the same seed
    assert [t.seed for t in sc.tables] != [t.seed for t in schedule.build(n, size, games, seed=4).tables]


def test_duplicate_blocks_replay_one_deal_in_every_rotation() -> None:
    sc = schedule.build(5, 5, 10, seed=1, duplicate=True)
    by_block: dict[int, list[schedule.Slot]] = {}
    for t in sc.tables:
        by_block.setdefault(t.block, []).append(t)
    for tables in by_block.values():
        assert len({t.seed for t in tables}) == 1 and len(tables) == 5
        assert {t.seats[s] for t in tables for s in range(5)} == set(tables[0].seats)
        assert all(len({t.seats[s] for t in tables}) == 5 for s in range(5))  # everyone in every seat once
    assert len({t.seed for t in sc.tables}) == len(by_block)
    plain = schedule.build(5, 5, 10, seed=1)
    assert len({t.seed for t in plain.tables}) == len(plain.tables)


def test_a_gauntlet_seats_its_challenger_everywhere() -> None:
    sc = schedule.build(5, 2, 4, seed=1, mode="gauntlet")
    assert all(0 in t.seats for t in sc.tables)
    assert Counter(t.seats.index(0) for t in sc.tables) == {0: len(sc.tables) // 2, 1: len(sc.tables) // 2}


def test_points_and_intervals() -> None:
    assert stats.event_points([0, 1]) == [1.0, 0.0]
    assert stats.event_points([2, 0, 1, 1]) == [0.0, 3.0, 1.5, 1.5]
    mean, lo, hi = stats.interval([1, 0, 1, 1, 0, 1, 1, 1])
    assert lo < mean < hi and mean == 0.75


@pytest.mark.parametrize("counts, elo0, elo1, llr", [
    # fastchess's own tests (app/tests/sprt_test.cpp, the logistic model): W, L, D ...
    ({"1": 21404, "0": 21184, "1/2": 40708}, 0.5, 2.5, -1.57),
    ({"1": 57433, "0": 57030, "1/2": 106593}, 0, 2, -2.59),
    # ... and game pairs: LL, LD, WL + DD, WD, WW
    ({"0": 223, "1/4": 9863, "1/2": 20279 + 1000, "3/4": 10037, "1": 246}, 0.5, 2.5, -3.07),
    ({"0": 871, "1/4": 26175, "1/2": 55003 + 980, "3/4": 26678, "1": 821}, 0, 2, -4.98),
])
def test_the_sprt_log_likelihood_ratio_is_fastchess_s(counts: dict, elo0: float, elo1: float, llr: float) -> None:
    from fractions import Fraction

    got = sprt.Sprt(elo0, elo1).llr({Fraction(k): v for k, v in counts.items()})
    assert got == pytest.approx(llr, abs=0.005)


def test_sprt_decides_both_ways_and_waits_when_it_cannot_tell() -> None:
    from fractions import Fraction

    test = sprt.Sprt(0, 50)
    wins = [sprt.Sample(Fraction(s), 1, i) for i, s in enumerate([1, 1, Fraction(1, 2), 1] * 20)]
    strong = sprt.run(test, wins)
    assert strong["decided"] and strong["accept"] == "H1"
    even = sprt.run(test, [sprt.Sample(Fraction(i % 2), 1, i) for i in range(800)])
    assert even["decided"] and even["accept"] == "H0"
    assert not sprt.run(test, [sprt.Sample(Fraction(i % 2), 1, i) for i in range(6)])["decided"]
    # a run of one result is never certainty: each win adds at most log(s1 / s0), a game's
    # or a pair's alike, so a pair of wins tells no more than one win
    one = sprt.run(test, wins[:1])["llr"]
    pair = sprt.run(test, [sprt.Sample(Fraction(1), 2, 0)])["llr"]
    assert one == pytest.approx(pair, rel=1e-2)
    assert one == pytest.approx(math.log(sprt.expected(50) / sprt.expected(0)), rel=1e-2)


def test_duplicate_blocks_are_one_sample_each() -> None:
    from referee.arena.table import TableResult

    results = [TableResult(n, ["a", "b"] if n % 2 == 0 else ["b", "a"], [[0, 1]], "", "") for n in range(6)]
    blocks = {n: n // 2 for n in range(6)}
    paired = sprt.samples(results, blocks, "a", "b", duplicate=True)
    assert [(str(s.score), s.games, s.table) for s in paired] == [("1/2", 2, 1), ("1/2", 2, 3), ("1/2", 2, 5)]
    single = sprt.samples(results, blocks, "a", "b", duplicate=False)
    assert [str(s.score) for s in single] == ["1", "0", "1", "0", "1", "0"]


def test_entrant_specs() -> None:
    e = parse("c1=uecda:./client -n c1")
    assert e.command("127.0.0.1", 4242) == "./client -n c1 -h 127.0.0.1 -p 4242"
    assert parse("c=uecda:run --to {host}:{port}").command("::1", 9) == "run --to ::1:9"
    assert parse("x=stdio:python3 bot.py").command() == "python3 bot.py"
    with pytest.raises(EntrantError):
        parse("nospec")


def test_contest_clients_round_robin(tmp_path: Path) -> None:
    """Six contest clients (the tests' Python client, different seeds) at contest tables
    of five, dealt from a contest log: every log valid, every client at every table it was
    scheduled for, each table's first game the log's deal (by seat), the schedule as
    balanced as six tables allow."""
    out = tmp_path / "c"
    sample = SHARED / "fixtures" / "uecda-sample.log"
    clients = [contest_client(f"c{i}", i) for i in range(6)]
    done = arena("daifugo", "--rounds", "2", "--games", "5", *entrants_args(clients), "--concurrency", "2",
                 "--positions", str(sample), "--out", str(out), "--no-replays")
    assert done.returncode == 0, done.stderr
    doc = standings(out)
    assert {e["name"] for e in doc["entrants"]} == {f"c{i}" for i in range(6)}
    assert all(e["games"] == 10 and e["incidents"] == 0 for e in doc["entrants"])
    assert doc["tournament"]["balance"] == {"pairs": [4, 4], "seats": [1, 1], "tables": [5, 5]}
    logs = sorted((out / "games").glob("*.log"))
    assert len(logs) == doc["tournament"]["tables"] == 6
    deals = _deals_by_seat(sample)
    for number, log in enumerate(logs):
        reports = list(validate_file(str(log)))
        assert len(reports) == 2 and all(r.valid for r in reports)
        assert _deals_by_seat(log)[0] == deals[number]


def _deals_by_seat(log: Path) -> list[list[tuple]]:
    from referee.games.daifugo.uecda.notation.log import read_log

    games = read_log(log.read_text(encoding="latin-1").splitlines(True))
    return [[tuple(sorted(game.hands[p])) for p in game.seats] for game in games]


@pytest.mark.slow
def test_a_whole_contest_round_robin_is_balanced(tmp_path: Path) -> None:
    out = tmp_path / "c"
    clients = [contest_client(f"c{i}", i) for i in range(6)]
    done = arena("daifugo", "--games", "25", *entrants_args(clients), "--concurrency", "2", "--out", str(out),
                 "--no-replays", timeout=900)
    assert done.returncode == 0, done.stderr
    doc = standings(out)
    assert doc["tournament"]["balance"] == {"pairs": [20, 20], "seats": [5, 5], "tables": [25, 25]}
    for log in (out / "games").glob("*.log"):
        assert all(r.valid for r in validate_file(str(log)))


def test_positions_start_the_tables(tmp_path: Path) -> None:
    """Contest-log deals start Daifugo tables (uecda rules, built-in players): each
    record's first round is the log's game's deal."""
    log = SHARED / "fixtures" / "uecda-sample.log"
    out = tmp_path / "p"
    names = ["a=bot:random", "b=bot:greedy", "c=bot:search", "d=bot:random", "e=bot:greedy"]
    done = arena("daifugo", "-r", "uecda", "--positions", str(log), "--games", "5", "--duplicate",
                 *entrants_args(names), "--out", str(out), "--no-replays")
    assert done.returncode == 0, done.stderr
    from referee.arena.parts import parts

    deals = parts("daifugo")[1].starts(str(log))
    records = sorted((out / "games").glob("*.dfn"))
    first = records[0].read_text(encoding="utf-8")
    assert all(r.valid for rec in records for r in validate_file(str(rec)))
    hands = [line.split('"')[1] for line in first.splitlines() if line.startswith("[Hand.")][:5]
    assert sorted(hands) == sorted(deals[0]["hands"])


@pytest.mark.slow
def test_a_contest_client_that_never_connects_is_replaced_and_reported(tmp_path: Path) -> None:
    """A client that exits at once: a silent stand-in takes its seat (its turns pass), the
    table is played, the incident is the client's, the log valid."""
    out = tmp_path / "late"
    clients = [contest_client(f"c{i}", i) for i in range(4)]
    clients.append(f"gone=uecda:{sys.executable} -c 'import sys; sys.exit(3)'")
    done = arena("daifugo", "--rounds", "2", "--games", "1", *entrants_args(clients), "--out", str(out),
                 "--no-replays", "--time-limit", "2")
    assert done.returncode == 0, done.stderr
    doc = standings(out)
    by = {e["name"]: e for e in doc["entrants"]}
    assert by["gone"]["incident_kinds"] == {"crash": 1} and all(by[f"c{i}"]["incidents"] == 0 for i in range(4))
    assert by["gone"]["points"] == 0 and doc["games"] == 2
    (log,) = (out / "games").glob("*.log")
    assert all(r.valid for r in validate_file(str(log)))


def test_the_command_teaches() -> None:
    """``pitboss arena --help``: examples for every game the arena plays and each protocol
    a game's listener speaks, the exit statuses, --json."""
    from click.testing import CliRunner

    from cli import app
    from referee.jobs import registry

    result = CliRunner().invoke(app, ["arena", "--help"])
    assert result.exit_code == 0
    text = result.output
    assert "Exit status: 0" in text and "--json" in text and "--resume" in text
    for game in registry.games():
        if game.players is not None and game.live is not None:
            assert f"pitboss arena {game.name} -e r=bot:random" in text
        for listener in (found for found in game.listeners if found.held is not None):
            assert f"a={listener.name}:./client" in text
