"""``pitboss convert``: a contest log written as DFN validates with the log's own verdicts
(errors and warnings, by rule, game and ply), on the real logs and on logs of games
played here; and the tools that replay records take a contest log directly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import fixtures_dir
from test_uecda_log import _server_log

from cli import app
from referee.games.daifugo.uecda.convert import convert_log
from referee.games.daifugo.uecda.log_referee import validate_log
from referee.jobs.validate import validate_text

runner = CliRunner()
Verdicts = dict[int, tuple[list, list]]


def _key(findings, offset: int = 0) -> list:
    return sorted((f.rule, None if f.ply is None else f.ply - offset) for f in findings)


def log_verdicts(text: str) -> Verdicts:
    return {r.index: (_key(r.errors), _key(r.warnings))
            for r in validate_log(text.splitlines(keepends=True), "contest.log")}


def converted_verdicts(text: str) -> tuple[Verdicts, list[str]]:
    """Each log game's verdict as the DFN referee gives it on the converted record (its
    round's findings; DFN counts the exchange gifts as moves, the log does not)."""
    out: Verdicts = {}
    skipped: list[str] = []
    for converted in convert_log(text.splitlines(keepends=True), "contest.log"):
        skipped += converted.skipped
        if not converted.text:
            continue
        (report,) = validate_text(converted.text, "contest.dfn")
        for number, rnd in enumerate(converted.rounds, start=1):
            errors = [f for f in report.errors if f.round == number]
            warnings = [f for f in report.warnings if f.round == number]
            out[rnd.game] = (_key(errors, rnd.gifts), _key(warnings, rnd.gifts))
        assert all(f.round is not None and 1 <= f.round <= len(converted.rounds)
                   for f in report.errors + report.warnings), "a finding outside the converted rounds"
    return out, skipped


def _same(text: str) -> tuple[Verdicts, list[str]]:
    want = log_verdicts(text)
    got, skipped = converted_verdicts(text)
    assert len(got) + len(skipped) == len(want)
    assert {g: v for g, v in want.items() if g in got} == got
    return want, skipped


def test_every_fixture_log_converts_with_the_same_verdicts_or_says_why() -> None:
    for path in sorted(fixtures_dir().glob("*.log")):
        text = path.read_text(encoding="utf-8", errors="replace")
        want, skipped = _same(text)
        # A game left out is one the log reader could not read: nothing is guessed.
        for why in skipped:
            assert why.startswith("game ") and "was not converted" in why, why
        invalid_unread = [g for g, (errors, _) in want.items() if errors]
        assert len(skipped) <= len(invalid_unread), path.name
        if path.name in ("uecda-sample.log", "uecda-11back-6revers-sample.log"):
            assert skipped == []  # every game of these logs is written
            assert sum(len(w) for _, w in want.values()) > 0  # and the rejections are among the verdicts


@pytest.mark.parametrize("name", ["uecda-log-11back.log", "uecda-log-titles.log"])
def test_golden_logs_convert_with_the_same_verdicts(name: str) -> None:
    text = (Path(__file__).parents[2] / "golden" / "daifugo" / name).read_text(encoding="utf-8")
    want, skipped = _same(text)
    for why in skipped:  # only a game the log referee finds invalid is left out
        assert "was not converted" in why
    assert len(skipped) <= sum(1 for errors, _ in want.values() if errors)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("lowest", [True, False], ids=["lowest-gifts", "any-gifts"])
def test_self_played_logs_convert_with_the_same_verdicts(seed: int, lowest: bool) -> None:
    text = _server_log(seed=seed, games=12, lowest=lowest)
    want, skipped = _same(text)
    assert skipped == [] and len(want) == 12


def test_a_broken_game_keeps_its_verdict_and_later_titles_are_not_guessed() -> None:
    text = _server_log(seed=9, games=6, lowest=True)
    lines = text.splitlines(keepends=True)
    # Game 3's play line: its first entry by the wrong player.
    at = next(i for i, line in enumerate(lines) if line.startswith("%00002%play%"))
    first = lines[at].split()[1]
    wrong = str((int(first[0]) + 1) % 5) + first[1:]
    lines[at] = lines[at].replace(first, wrong, 1)
    text = "".join(lines)
    want, skipped = _same(text)
    assert want[3][0]  # the log referee finds the error
    assert skipped and all("titles" in why for why in skipped)


def test_convert_command(tmp_path: Path) -> None:
    log = fixtures_dir() / "uecda-11back-6revers-sample.log"
    out = tmp_path / "log.dfn"
    result = runner.invoke(app, ["convert", str(log), "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith('[Game "Daifugo"]\n[Rules "uecda"]\n[Options "+eleven-back +six-reverse"]')
    result = runner.invoke(app, ["validate", "--json", str(out)])
    data = json.loads(result.stdout)
    assert data["summary"]["invalid"] == 0
    result = runner.invoke(app, ["convert", str(log), "--to", "cvn"])
    assert result.exit_code == 2 and "can be written in DFN, not cvn" in result.output
    result = runner.invoke(app, ["convert", str(Path(__file__).parents[3] / "examples" / "daifugo.dfn")])
    assert result.exit_code == 2 and "say what to write with --to: uecda-log" in result.output


def _first_games(path: Path, games: int) -> str:
    """A real log cut to its header and its first games."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    keep = [line for line in lines if line.startswith("%-----%")
            or (line[:1] == "%" and line[1:6].isdigit() and int(line[1:6]) < games)]
    return "".join(keep)


def test_show_annotate_and_explain_take_a_contest_log(tmp_path: Path) -> None:
    log = str(tmp_path / "first-games.log")
    Path(log).write_text(_first_games(fixtures_dir() / "uecda-sample.log", 4), encoding="utf-8")
    result = runner.invoke(app, ["show", log, "--round", "2", "--ply", "4", "--no-color"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Daifugo · uecda · round 2, ply 4: ")
    result = runner.invoke(app, ["show", log, "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r.html").stat().st_size < 400_000
    result = runner.invoke(app, ["annotate", log])
    assert result.exit_code == 0, result.output
    assert result.output.startswith('[Game "Daifugo"]') and "{ ruling: [daifugo.lead.diamond3-free]" in result.output
    played = tmp_path / "played.log"
    played.write_text(_server_log(seed=1, games=3, lowest=True), encoding="utf-8")
    result = runner.invoke(app, ["annotate", str(played)])
    assert result.exit_code == 0, result.output
    assert "rejected under uecda, counted as a pass" in result.output
    result = runner.invoke(app, ["explain", log, "--round", "1", "--ply", "1"])
    assert result.exit_code == 0, result.output
    assert "round 1, ply 1" in result.output


def test_solve_takes_a_contest_log(tmp_path: Path) -> None:
    log = str(tmp_path / "first-games.log")
    Path(log).write_text(_first_games(fixtures_dir() / "uecda-sample.log", 3), encoding="utf-8")
    result = runner.invoke(app, ["solve", log, "--round", "2", "--ply", "10", "-Q", "out", "--player", "p1"])
    assert result.exit_code == 0, result.output
    assert "round 2, after 10 moves" in result.output and "confirmed" in result.output


# ---------------------------------------------------------------- DFN to a contest log


def _dfn_verdicts(text: str) -> Verdicts:
    """A one-record DFN match's verdicts by round, plies counted as the log counts them
    (without the exchange moves)."""
    from referee.jobs.timeline import timelines

    (timeline,) = list(timelines(text.splitlines(keepends=True), "match.dfn"))
    gifts = {seg.round: sum(1 for s in seg.steps if s.entry.move.__class__.__name__ == "Give")
             for seg in timeline.segments}
    report = timeline.report
    out: Verdicts = {}
    for number in gifts:
        errors = [f for f in report.errors if f.round == number]
        warnings = [f for f in report.warnings if f.round == number]
        out[number] = (_key(errors, gifts[number]), _key(warnings, gifts[number]))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_a_uecda_match_written_as_a_log_keeps_its_verdicts(seed: int) -> None:
    from referee.games.daifugo.selfplay import daifugo_matches
    from referee.games.daifugo.uecda.convert import write_records

    match = next(daifugo_matches(1, seed=seed, rules="uecda", rounds=6)).text()
    log = write_records("uecda-log", match.splitlines(keepends=True), "match.dfn")
    assert log.startswith("%-----%palyer_name% ")
    assert log_verdicts(log) == _dfn_verdicts(match)


@pytest.mark.parametrize("lowest", [True, False], ids=["lowest-gifts", "any-gifts"])
def test_a_log_round_trips_through_dfn(lowest: bool) -> None:
    from referee.games.daifugo.uecda.convert import write_records

    text = _server_log(seed=5, games=8, lowest=lowest)
    (converted,) = list(convert_log(text.splitlines(keepends=True), "played.log"))
    back = write_records("uecda-log", converted.text.splitlines(keepends=True), "played.dfn")
    assert log_verdicts(back) == log_verdicts(text)
    assert any(w for _, w in log_verdicts(back).values())  # the rejections made the trip


def test_what_a_log_cannot_hold_is_refused_saying_why(tmp_path: Path) -> None:
    root = Path(__file__).parents[3]
    cases = [
        (root / "examples" / "daifugo.dfn", "holds uecda games, not classic"),
        (root / "examples" / "caravan.cvn", "holds 2 records"),
        (root / "examples" / "illegal.cvn", "is a Caravan record"),
    ]
    for path, message in cases:
        result = runner.invoke(app, ["convert", str(path), "--to", "uecda-log"])
        assert result.exit_code == 2 and message in result.output, (path.name, result.output)
    result = runner.invoke(app, ["convert", str(root / "examples" / "daifugo.dfn")])
    assert result.exit_code == 2 and "--to: uecda-log (DFN records)" in result.output
    from referee.games.daifugo.selfplay import daifugo_matches

    match = tmp_path / "m.dfn"
    text = next(daifugo_matches(1, seed=2, rules="uecda", options="+miyako-ochi", rounds=2)).text()
    match.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["convert", str(match), "--to", "uecda-log"])
    assert result.exit_code == 2 and "+miyako-ochi cannot be stated in a contest-server log" in result.output


def test_convert_writes_a_match_as_a_log(tmp_path: Path) -> None:
    from referee.games.daifugo.selfplay import daifugo_matches

    match = tmp_path / "m.dfn"
    match.write_text(next(daifugo_matches(1, seed=4, rules="uecda", rounds=3)).text(), encoding="utf-8")
    out = tmp_path / "m.log"
    result = runner.invoke(app, ["convert", str(match), "--to", "uecda-log", "-o", str(out)])
    # self-played deals come from no RANDOM_SEED of the server's: that line is left out, saying so
    assert result.exit_code == 1 and "the log has no RANDOM_SEED line" in result.output, result.output
    result = runner.invoke(app, ["validate", str(out)])
    assert result.exit_code == 0 and "3 games: 3 valid" in result.output, result.output
