"""Self-played contest-server logs (``pitboss selfplay daifugo --format uecda-log``): every
generated log validates with no finding, seed checks and all, for both revisions of the
server and the options a table takes; a log changed in a place the server's record fixes
is caught there."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli import app
from referee.games.daifugo.selfplay import contest_logs, daifugo_matches
from referee.jobs.validate import validate_text


def _findings(text: str) -> list:
    reports = validate_text(text, "selfplay.log")
    return [f for r in reports for f in r.errors + r.warnings]


@pytest.mark.parametrize("revision,options", [("2018", ""), ("later", ""), ("2018", "+eleven-back +six-reverse"),
                                              ("later", "-sequences -revolution"), ("2018", "exchange=none")])
def test_selfplayed_logs_validate_with_no_finding(revision: str, options: str) -> None:
    for seed in (1, 2):
        for log in contest_logs(2, seed, options, 6, revision):
            reports = validate_text(log.text(), "selfplay.log")
            assert len(reports) == 6
            assert [f for r in reports for f in r.errors + r.warnings] == [], (seed, log.seed)
            assert sum(r.plies for r in reports) == log.plies


@pytest.mark.slow
def test_selfplayed_logs_validate_with_no_finding_many() -> None:
    for revision in ("2018", "later"):
        for log in contest_logs(6, 9, "", 120, revision):
            assert _findings(log.text()) == [], log.seed


def test_the_same_seed_gives_the_same_logs() -> None:
    assert [g.text() for g in contest_logs(2, 4, "", 3)] == [g.text() for g in contest_logs(2, 4, "", 3)]
    assert [g.text() for g in contest_logs(1, 4, "", 3)] != [g.text() for g in contest_logs(1, 5, "", 3)]


def _log_lines(revision: str = "2018") -> list[str]:
    (log,) = contest_logs(1, 3, "", 4, revision)
    return log.text().splitlines(keepends=True)


def _line_of(lines: list[str], key: str, game: int) -> int:
    tag = f"%{game:05d}%{key}%"
    return next(i for i, line in enumerate(lines) if line.startswith(tag))


@pytest.mark.parametrize("revision", ["2018", "later"])
def test_a_changed_deal_is_caught_on_its_line(revision: str) -> None:
    lines = _log_lines(revision)
    i = _line_of(lines, "palyer_cards", 2)
    head, hands = lines[i].split("% ", 1)
    first, second, *rest = hands.split(" ")
    # one card moved from the first player's hand to the second's: still a deck, not the seed's deal
    lines[i] = f"{head}% {first[2:]} {first[:2]}{second} {' '.join(rest)}"
    errors = [f for r in validate_text("".join(lines), "mutated.log") for f in r.errors]
    assert errors and errors[0].line == i + 1, errors
    assert errors[0].rule.startswith("daifugo.deal"), errors[0]


def test_a_changed_result_is_caught_on_its_line() -> None:
    lines = _log_lines()
    i = _line_of(lines, "result", 1)
    head, order = lines[i].rstrip("\n").split("% ", 1)
    lines[i] = f"{head}% {order[1]}{order[0]}{order[2:]}\n"
    errors = [f for r in validate_text("".join(lines), "mutated.log") for f in r.errors]
    assert errors and errors[0].line == i + 1, errors


def test_a_dropped_submission_is_caught() -> None:
    lines = _log_lines()
    i = _line_of(lines, "play", 0)
    head, entries = lines[i].split("% ", 1)
    words = entries.split()
    lines[i] = f"{head}%  {' '.join(words[:3] + words[4:])} \n"
    assert [f for r in validate_text("".join(lines), "mutated.log") for f in r.errors]


def test_the_command_writes_logs_that_validate(tmp_path) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["selfplay", "daifugo", "-r", "uecda", "--format", "uecda-log", "-n", "2",
                               "--rounds", "3", "--revision", "later", "-o", str(tmp_path)])
    assert done.exit_code == 0, done.output
    logs = sorted(tmp_path.glob("*.log"))
    assert len(logs) == 2
    for path in logs:
        assert _findings(path.read_text(encoding="latin-1")) == []
    done = runner.invoke(app, ["selfplay", "daifugo", "--format", "uecda-log", "-n", "1"])
    assert done.exit_code != 0 and "--rules uecda" in done.output
    done = runner.invoke(app, ["selfplay", "daifugo", "-r", "uecda", "--format", "uecda-log", "-n", "2"])
    assert done.exit_code != 0 and "directory" in done.output


def test_dfn_self_play_is_unchanged_by_the_new_format() -> None:
    (match,) = daifugo_matches(1, 3, 5, "uecda", "", 2)
    assert match.text().startswith('[Game "Daifugo"]')


def test_a_log_maker_builds_its_table_configuration_once(monkeypatch) -> None:
    """The contest configuration is built when the maker is, not once per log; the maker
    still travels to a worker (pickle) and makes the same logs there."""
    import pickle

    from referee.games.daifugo.selfplay import LogMaker
    from referee.games.daifugo.uecda.contest import config

    built = []
    real = config.with_options

    def counted(base, options):
        built.append(options)
        return real(base, options)

    monkeypatch.setattr(config, "with_options", counted)
    maker = LogMaker("+eleven-back", 2, "later")
    logs = [maker(8, i).text() for i in range(3)]
    assert built == ["+eleven-back"]
    travelled = pickle.loads(pickle.dumps(maker))
    assert [travelled(8, i).text() for i in range(3)] == logs
    assert travelled == maker
