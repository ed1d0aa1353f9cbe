"""``pitboss convert`` both ways closes, for every option a contest log's header states and
both revisions of the server: a log written as DFN and back is the log the server wrote,
byte for byte; a uecda DFN match written as a log and back holds the same games (deal,
seats, exchange, every move, result); a converted log's header is the server's, line by
line; an invalid record is never written as a log; and what convert writes, a contest
table takes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import fixtures_dir

from cli import app
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import options_text
from referee.games.daifugo.selfplay import contest_logs, daifugo_matches
from referee.games.daifugo.uecda.contest.config import ContestConfig, with_options
from referee.games.daifugo.uecda.convert import convert_log, write_records
from referee.games.daifugo.uecda.log_referee import header_flags, log_rules
from referee.games.daifugo.uecda.notation import log as ul
from referee.games.daifugo.uecda.record_log import Unwritable
from referee.jobs.timeline import timelines

runner = CliRunner()

#: Every option a log's header states, alone and all together (the revision is the other).
OPTIONS = ["", "-revolution", "-sequences", "-eight-cut", "-suit-lock", "+eleven-back", "+six-reverse",
           "exchange=none", "-revolution -sequences -eight-cut -suit-lock +eleven-back +six-reverse exchange=none"]
REVISIONS = {"2018": "", "later": "trick-end=all-but-one"}


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _one_record(log: str, file: str = "table.log") -> str:
    converted = [c for c in convert_log(_lines(log), file) if c.text]
    assert len(converted) == 1 and not any(c.skipped for c in converted)
    return converted[0].text


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o or "preset")
def test_a_log_written_as_dfn_and_back_is_the_log_byte_for_byte(options: str, revision: str) -> None:
    log = next(contest_logs(1, seed=11, options=options, games=6, revision=revision)).text()
    back = write_records("uecda-log", _lines(_one_record(log)), "table.dfn")
    assert back == log
    assert back.notes == ()  # the DFN carried the header's RANDOM_SEED and the rest


def _header_and_games(text: str, games: int) -> tuple[list[str], list[str]]:
    lines = _lines(text)
    header = [line for line in lines if line.startswith("%-----%") and "%TIME_END%" not in line
              and "%TOTAL_POINT%" not in line]
    body = [line for line in lines if not line.startswith("%-----%") and int(line[1:6]) < games]
    return header, body


@pytest.mark.parametrize("fixture", ["uecda-sample.log", "uecda-11back-6revers-sample.log",
                                     "uecda-later-revision-sample.log"])
def test_a_real_logs_first_record_comes_back_as_the_server_wrote_it(fixture: str) -> None:
    """The first block of titles (a DFN record) written back: the server's header (its
    GAME_NUMBER the record's games), and every line of those games as the server wrote it."""
    path = fixtures_dir() / fixture
    with open(path, encoding="utf-8") as handle:
        first = next(c for c in convert_log(handle, fixture) if c.text)  # reads no further than that block
    back = write_records("uecda-log", _lines(first.text), "real.dfn")
    games = len(first.rounds)
    assert back.notes == () and games >= 40
    real_header, real_games = _header_and_games(path.read_text(encoding="utf-8"), games)
    header, written_games = _header_and_games(back, games)
    assert header == [f"%-----%GAME_NUMBER% {games}\n" if "%GAME_NUMBER%" in line else line for line in real_header]
    assert written_games == real_games


def _position(state: df.State) -> df.State:
    """What a position is, whatever order a record lists hands in (and the table's joker
    readings, which a log and a record may spell differently for the same play)."""
    return state._replace(rules=None, events=(), table=None, hands=tuple(tuple(sorted(h)) for h in state.hands),
                          dealt=tuple(tuple(sorted(h)) for h in state.dealt))


def _games(dfn: str) -> list[tuple]:
    """A record's games: each round's hands as dealt, seats, the exchange (its gifts),
    every other move (its player, cards, whether it was rejected, and the position it
    leaves), the finishing order."""
    (timeline,) = list(timelines(_lines(dfn), "match.dfn"))
    assert timeline.report.valid
    rounds = []
    for segment, read in zip(timeline.segments, timeline.record.rounds):
        gifts, moves = [], []
        for step in segment.steps:
            move = step.entry.move
            if isinstance(move, df.Give):
                gifts.append((move.giver, move.receiver, tuple(sorted(move.cards))))
            else:
                cards = tuple(sorted(move.cards)) if isinstance(move, df.Play) else ()
                moves.append((move.player, cards, step.rejected, _position(step.after)))
        start = segment.start
        rounds.append((tuple(tuple(sorted(h)) for h in start.hands), start.seats, sorted(gifts), moves, read.finish))
    return rounds


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("options", OPTIONS[::2], ids=lambda o: o or "preset")
def test_a_dfn_match_written_as_a_log_and_back_holds_the_same_games(options: str, revision: str) -> None:
    match = next(daifugo_matches(1, seed=3, rules="uecda", options=f"{options} {REVISIONS[revision]}",
                                 rounds=4)).text()
    log = write_records("uecda-log", _lines(match), "match.dfn")
    assert len(log.notes) == 1 and "RANDOM_SEED" in log.notes[0]  # self-played deals have no server seed
    back = _one_record(log)
    assert _games(back) == _games(match)
    assert write_records("uecda-log", _lines(back), "back.dfn") == log


def _keys(text: str) -> list[str]:
    return [line.split("%")[2] for line in _lines(text) if line.startswith("%-----%")]


@pytest.mark.parametrize("revision,fixture", [("2018", "uecda-sample.log"), ("later",
                                                                             "uecda-later-revision-sample.log")])
def test_a_converted_log_has_every_header_line_the_server_writes(revision: str, fixture: str) -> None:
    match = next(daifugo_matches(1, seed=8, rules="uecda", options=REVISIONS[revision], rounds=2)).text()
    log = write_records("uecda-log", _lines(match), "match.dfn")
    real = (fixtures_dir() / fixture).read_text(encoding="utf-8")
    assert _keys(log) == [k for k in _keys(real) if k != "RANDOM_SEED"]  # no seed drew these deals
    flags = dict(line.rstrip("\n").split("% ", 1) for line in _lines(log) if line.startswith("%-----%"))
    assert flags["%-----%FLASH_MIBUN_NUMBER"] == "100" and flags["%-----%WINDOW_TYPE"] == "CONSOLE"
    cards = next(line for line in _lines(log) if "%palyer_cards%" in line)
    assert cards.startswith("%00000%palyer_cards% S") or cards.startswith("%00000%palyer_cards% H")
    assert cards.endswith(" \n") and "  " not in cards
    play = next(line for line in _lines(log) if "%play%" in line)
    assert play.startswith("%00000%play%  ") and not play.endswith(" \n")
    carried = write_records("uecda-log", _lines(_one_record(next(contest_logs(1, 4, games=2,
                                                                              revision=revision)).text())),
                            "table.dfn")
    assert _keys(carried) == _keys(real)


def _mutated(match: str, tag: str, value: str) -> str:
    first = match.index(f"[{tag} ")
    end = match.index("\n", first)
    return match[:first] + f'[{tag} "{value}"]' + match[end:]


def test_an_invalid_record_is_refused_never_written_as_a_valid_log(tmp_path: Path) -> None:
    match = next(daifugo_matches(1, seed=3, rules="uecda", rounds=3)).text()
    (timeline,) = list(timelines(_lines(match), "m.dfn"))
    names = timeline.record.players
    finish = timeline.record.rounds[0].finish
    order = timeline.record.rounds[0].order
    wrong_finish = " ".join(names[p] for p in (finish[1], finish[0], *finish[2:]))
    wrong_order = " ".join(names[p] for p in (order[1], order[0], *order[2:]))  # two seats swapped
    for tag, value in (("Finish", wrong_finish), ("Order", wrong_order)):
        bad = tmp_path / f"{tag}.dfn"
        bad.write_text(_mutated(match, tag, value), encoding="utf-8")
        out = tmp_path / f"{tag}.log"
        result = runner.invoke(app, ["convert", str(bad), "--to", "uecda-log", "-o", str(out)])
        assert result.exit_code == 2 and "is invalid" in result.output and "cannot hold an invalid record" \
            in result.output, (tag, result.output)
        assert not out.exists()


@pytest.mark.parametrize("revision", REVISIONS)
def test_what_convert_writes_a_contest_table_takes(revision: str) -> None:
    """The Options of a record converted from a log, for every flag the header states, are
    options a contest table (selfplay --format uecda-log, serve --uecda) takes, to the same
    rules; so are the words that come to the same rules (-revolution -stairs-revolution)."""
    for options in OPTIONS:
        rules = df.ruleset("uecda", dict(_toggles(f"{options} {REVISIONS[revision]}")))
        flags, said_revision = header_flags(rules)
        assert said_revision == revision and log_rules(ul.LogHeader(flags=flags, revision=revision)) is rules
        table = with_options(ContestConfig(), options_text(rules))
        assert table.rules() is rules and table.revision == revision
    assert with_options(ContestConfig(), "-revolution -stairs-revolution").rules() is df.ruleset(
        "uecda", {"revolution": False})
    for unstated in ("stairs-revolution=4", "-spade3", "exchange=weakest", "trick-end=others"):
        with pytest.raises(ValueError, match=f"^{unstated} cannot be stated in a contest-server log"):
            header_flags(df.ruleset("uecda", dict(_toggles(unstated))))
    match = next(daifugo_matches(1, seed=1, rules="uecda", options="-revolution stairs-revolution=4", rounds=1)).text()
    assert '[Options "-revolution"]' in match
    write_records("uecda-log", _lines(match), "m.dfn")  # -revolution alone: no length beside it to refuse
    with pytest.raises(Unwritable, match=r"record 1: stairs-revolution=4 cannot be stated"):
        write_records("uecda-log", _lines(match.replace('"-revolution"', '"stairs-revolution=4"')), "m.dfn")


def _toggles(text: str):
    from referee.games.daifugo.notation.dfn import toggle

    return [toggle(word) for word in text.split()]
