"""The Daifugo referee on DFN records: whole matches, the error contract (line, column,
ply within the round, round, player, move, rule), what ends a replay, snapshots, uecda
rejections, and the ``selfplay daifugo`` command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import app
from referee import spec
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import read_daifugo
from referee.games.daifugo.selfplay import daifugo_matches
from referee.jobs import registry
from referee.jobs.replay import cite
from referee.jobs.validate import split, validate_text

runner = CliRunner()


def one(text: str):
    (report,) = validate_text(text, "t.dfn")
    return report


def match_text(seed: int = 1, players: int = 4, rules: str = "seed", options: str = "", rounds: int = 3) -> str:
    (match,) = daifugo_matches(1, seed, players, rules, options, rounds)
    return match.text()


def where(text: str, needle: str, start: int = 0) -> tuple[int, int]:
    """(line, column) of the first ``needle`` at or after offset ``start``."""
    at = text.index(needle, start)
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


# ---------------------------------------------------------------- whole matches


def test_a_match_of_several_rounds_validates():
    text = match_text(players=5, rounds=4)
    report = one(text)
    assert report.valid and report.warnings == []
    assert report.game == "daifugo" and report.rules == "classic" and report.knowledge == "full"
    assert report.plies == sum(len(r.moves) for r in read(text).rounds)
    assert text.count('[Round "') == 4


def read(text: str):
    (chunk,) = split(text.splitlines(keepends=True))
    return read_daifugo(chunk)


def test_a_wrong_finish_is_reported_at_its_tag_and_ends_the_replay():
    text = match_text(seed=2, rounds=3)
    second = text.index('[Round "2"]')
    finish = re.compile(r'\[Finish "([^"]*)"\]').search(text, second)
    names = finish.group(1).split()
    names[0], names[1] = names[1], names[0]
    altered = text[:finish.start(1)] + " ".join(names) + text[finish.end(1):]
    # round 3 is broken too (its first move by the wrong player), but the replay never gets there
    third = read(altered).rounds[2].moves[0]
    lines = altered.splitlines(keepends=True)
    line = lines[third.line - 1]
    other = next(n for n in read(altered).players if n != third.player)
    lines[third.line - 1] = line[:third.column - 1] + other + line[third.column - 1 + len(third.player):]
    altered = "".join(lines)
    report = one(altered)
    (error,) = report.errors
    assert (error.rule, error.round) == ("daifugo.result.finish", 2)
    line, column = where(altered, '"', finish.start())
    assert (error.line, error.column) == (line, column + 1)


def test_an_illegal_move_carries_round_ply_player_and_move():
    text = match_text(seed=3, players=3, rounds=2)
    rnd = read(text).rounds[1]
    entry = next(e for e in rnd.moves if type(e.move).__name__ == "Play")
    ply = rnd.moves.index(entry) + 1
    # the same player plays a card nobody holds twice: the joker a second time
    lines = text.splitlines(keepends=True)
    line = lines[entry.line - 1]
    head = entry.player + ": "
    body_at = entry.column - 1 + len(head)
    lines[entry.line - 1] = line[:body_at] + "JK JK JK " + line[body_at:]
    report = one("".join(lines))
    (error,) = report.errors
    assert error.rule in ("daifugo.hand.possession", "daifugo.combo.invalid", "daifugo.joker.ambiguous")
    assert (error.line, error.column, error.ply, error.round, error.player) == (
        entry.line, entry.column, ply, 2, entry.player)
    assert error.move.startswith(entry.player + ": JK JK JK")


def test_plies_count_the_exchange_within_each_round():
    text = match_text(seed=4, players=4, rounds=2)
    rnd = read(text).rounds[1]
    gifts = [e for e in rnd.moves if " -> " in e.text]
    assert len(gifts) == 4 and rnd.moves[:4] == gifts
    # the first play of round 2 by the wrong player: ply 5
    first_play = rnd.moves[4]
    wrong = next(n for n in read(text).players if n != first_play.player)
    lines = text.splitlines(keepends=True)
    line = lines[first_play.line - 1]
    lines[first_play.line - 1] = (line[:first_play.column - 1] + wrong
                                  + line[first_play.column - 1 + len(first_play.player):])
    (error,) = one("".join(lines)).errors
    assert (error.ply, error.round, error.player) == (5, 2, wrong)
    assert error.rule in ("daifugo.turn.order", "daifugo.pass.sat-out")
    assert f"{first_play.player}'s turn" in error.message


def test_a_card_dealt_twice_in_a_later_round():
    text = match_text(seed=5, players=3, rounds=3)
    third = text.index('[Round "3"]')
    hand = re.compile(r'\[Hand\.(\w+) "(\S+) (\S+)').search(text, third)
    altered = text[:hand.start(3)] + hand.group(2) + text[hand.end(3):]
    errors = one(altered).errors
    assert [e.rule for e in errors] == ["daifugo.deal.duplicate", "daifugo.deal.missing"]
    assert (errors[0].line, errors[0].column, errors[0].round) == (*where(altered, hand.group(2), hand.start(3)), 3)


def test_rounds_must_finish_and_count_up():
    text = match_text(seed=6, players=3, rounds=2)
    second = text.index('[Round "2"]')
    first_moves_end = text.rindex("\n\n", 0, second)
    cut = text[:first_moves_end].rsplit("  ", 1)[0] + text[first_moves_end:]
    # with its Finish tag, the unfinished round is a wrong finishing order
    assert [e.rule for e in one(cut).errors] == ["daifugo.result.finish"]
    # without, the next round cannot start
    cut = re.sub(r'\[Finish "[^"]*"\]\n', "", cut, count=1)
    report = one(cut)
    assert [(e.rule, e.round) for e in report.errors] == [("daifugo.round.end", 2)]
    assert "round 1 is not over" in report.errors[0].message
    report = one(text.replace('[Round "2"]', '[Round "3"]'))
    assert [(e.rule, e.round) for e in report.errors] == [("notation.tag.value", 3)]


def test_snapshot_tag_problems():
    base = ('[Game "Daifugo"]\n[Players "A B C"]\n[Hand.A "3S 9D"]\n[Hand.B "4H 5C"]\n[Hand.C "7S 10S"]\n'
            '{EXTRA}\nA: pass\n')
    cases = {
        '[Table "B: 5S"]\n[ToMove "A"]\n[Revolution "perhaps"]': "notation.tag.value",
        '[Table "B: 5S"]': "notation.tag.value",  # no ToMove
        '[Table "B: 5S 7C"]\n[ToMove "A"]': "daifugo.combo.invalid",
        '[Table "Q: 5S"]\n[ToMove "A"]': "notation.tag.value",
        '[Table "B: 5S"]\n[ToMove "A"]\n[Passed "A"]': "daifugo.turn.order",
        '[Table "B: 5S"]\n[ToMove "A"]\n[Out "C"]': "daifugo.turn.finished",
        '[Table "B: 5S"]\n[ToMove "A"]\n[Lock "S X"]': "notation.tag.value",
        '[Table "B: 3S"]\n[ToMove "A"]': "daifugo.deal.duplicate",
    }
    for extra, rule in cases.items():
        report = one(base.replace("{EXTRA}", extra))
        assert [e.rule for e in report.errors] == [rule], (extra, report.errors)
        assert report.errors[0].line is not None
    assert one(base.replace("{EXTRA}", '[Table "B: 5S"]\n[ToMove "A"]')).valid


def test_a_missing_hand():
    report = one('[Game "Daifugo"]\n[Players "A B C"]\n\n[Round "1"]\n[Hand.A "3S"]\n[Hand.B "4S"]\n\nA: 3S\n')
    assert [(e.rule, e.line, e.round) for e in report.errors] == [("notation.tag.value", 4, 1)]
    assert "Hand.C" in report.errors[0].message


def test_uecda_rejections_are_warnings_and_the_replay_goes_on():
    # a possession rejection on an otherwise legal record
    doc = ('[Game "Daifugo"]\n[Rules "uecda"]\n[Players "A B C D E"]\n[Hand.A "3S 9D"]\n[Hand.B "4H 5C"]\n'
           '[Hand.C "7H 10S"]\n[Hand.D "JD QD"]\n[Hand.E "KC AH"]\n[ToMove "A"]\n\n'
           'A: 3S  B: 6C  C: 7H  D: JD  E: KC  A: pass  C: pass  D: pass  E: pass\n')
    report = one(doc)
    assert report.valid
    (warning,) = report.warnings
    assert (warning.rule, warning.ply, warning.player, warning.move) == ("daifugo.hand.possession", 2, "B", "B: 6C")
    assert (warning.line, warning.column) == (11, 8)
    # out of turn is an error under uecda too
    report = one(doc.replace("C: 7H  D: JD", "D: JD  C: 7H"))
    assert [(e.rule, e.ply) for e in report.errors] == [("daifugo.turn.order", 3)]


def test_cite_lists_the_rules_the_moves_set_off():
    text = match_text(seed=8, players=4, options="+eight-cut", rounds=2)
    (chunk,) = split(text.splitlines(keepends=True))
    kind = registry.game("daifugo")
    cited = cite(kind, kind.notation.read(chunk, "t.dfn", 1))
    assert {"daifugo.round.end", "daifugo.lead.first-round", "daifugo.lead.later-rounds"} <= cited
    assert cited <= spec.ids("daifugo.")


# ---------------------------------------------------------------- the command line


def test_selfplay_is_deterministic_and_valid(tmp_path: Path):
    out = tmp_path / "m.dfn"
    args = ["selfplay", "daifugo", "-n", "3", "--players", "6", "-s", "9", "--options", "+eight-cut +suit-lock",
            "--rounds", "2", "-o", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    first = out.read_text()
    assert runner.invoke(app, args).exit_code == 0
    assert out.read_text() == first
    assert first.count('[Game "Daifugo"]') == 3 and first.count('[Round "2"]') == 3
    assert '[Options "+eight-cut +suit-lock"]' in first
    result = runner.invoke(app, ["validate", "--json", str(out)])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["summary"] == {"games": 3, "valid": 3, "invalid": 0, "errors": 0, "warnings": 0}
    assert doc["games"][0]["game"] == "daifugo" and doc["games"][0]["rules"] == "classic"


@pytest.mark.parametrize("args", [["--players", "9"], ["--players", "2"], ["-r", "uecda", "--players", "4"],
                                  ["--options", "+bogus"],
                                  ["--options", "exchange=most"], ["--rounds", "0"]])
def test_selfplay_rejects_bad_options(args: list[str]):
    result = runner.invoke(app, ["selfplay", "daifugo", "-n", "1", *args])
    assert result.exit_code == 2


def test_selfplay_refuses_a_player_count_in_the_engines_words():
    """The player-count rule is the engine's (daifugo.deal.players): self-play says what it says."""
    said = df.check_players(df.ruleset("uecda"), 4)
    assert said is not None
    result = runner.invoke(app, ["selfplay", "daifugo", "-n", "1", "-r", "uecda", "--players", "4", "--jobs", "2"])
    assert result.exit_code == 2
    assert said.message in " ".join(result.output.split())


def test_selfplay_writes_to_standard_output():
    result = runner.invoke(app, ["selfplay", "daifugo", "-n", "2", "--players", "3", "-r", "classic", "--rounds", "1"])
    assert result.exit_code == 0
    assert result.output.count('[Game "Daifugo"]') == 2
    assert all(r.valid for r in validate_text(result.output))


def test_validate_exit_status_for_an_invalid_record(tmp_path: Path):
    path = tmp_path / "bad.dfn"
    path.write_text('[Game "Daifugo"]\n[Players "A B C"]\n[Hand.A "3S"]\n[Hand.B "4S"]\n[Hand.C "5S"]\n'
                    '[ToMove "A"]\n\nB: 4S\n', encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "daifugo.turn.order" in result.output and "it is A's turn" in result.output
