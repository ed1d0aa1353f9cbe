"""Reading every real contest log right: the later revision's lines, a name with a space,
a log cut short (uecda/notation/log.py)."""

from __future__ import annotations

from pathlib import Path

from referee.games.daifugo.uecda.notation import log as ul
from referee.jobs.validate import validate_text
from tests.conftest import fixtures_dir


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def test_the_later_revision_reads_with_no_syntax_error() -> None:
    path = fixtures_dir() / "uecda-later-revision-sample.log"
    games = list(ul.read_log(_lines(path), str(path)))
    assert len(games) == 1000
    syntax = [f for g in games for f in g.errors if f.rule == "notation.syntax"]
    assert not syntax, syntax[:3]
    assert all(g.header.later for g in games)  # type: ignore[union-attr]
    first, second, last = games[0], games[1], games[-1]
    assert first.changes == [] and first.points is not None and first.points.values == (2, 4, 5, 3, 1)
    assert second.changes is not None and [(c.giver, c.receiver, c.text) for c in second.changes] == [
        (4, 2, "42S2J3EE"), (0, 1, "01C2EE"), (2, 4, "24S3D4EE"), (1, 0, "10H4EE")]
    assert last.total is not None and last.total.values == (3118, 3017, 2958, 2993, 2914)
    assert first.header.names == ("c0", "c1", "c3", "c4", "c2")  # type: ignore[union-attr]
    assert not any(g.cut_short for g in games)


def test_the_2018_logs_are_not_the_later_revision() -> None:
    path = fixtures_dir() / "uecda-sample.log"
    game = next(ul.read_log(_lines(path)))
    assert game.header is not None and game.header.revision == "2018" and game.changes is None


def test_a_name_with_a_space() -> None:
    path = fixtures_dir() / "uecda-wire" / "malformed-silent-seed4242" / "server.log"
    reports = validate_text(path.read_text(encoding="utf-8"), str(path))
    assert len(reports) == 3 and all(r.valid for r in reports), [r.errors[:1] for r in reports]
    game = next(ul.read_log(_lines(path)))
    assert game.header is not None and game.header.names == ("p0", "p1", "Player 3", "p3", "p4")
    assert ul.names_of("a Player 2 b c d".split()) == ("a", "Player 2", "b", "c", "d")
    assert ul.names_of("Player 1 Player 2 Player 3 Player 4 Player 5".split())[4] == "Player 5"
    # Five words are five names, whatever they say.
    assert ul.names_of("Player 1 x y z".split()) == ("Player", "1", "x", "y", "z")


def test_a_log_that_stops_after_its_header_is_cut_short() -> None:
    path = fixtures_dir() / "uecda-wire" / "malformed-stall-seed4242" / "server.log"
    reports = validate_text(path.read_text(encoding="utf-8"), str(path))
    assert len(reports) == 1 and not reports[0].valid
    assert [f.rule for f in reports[0].errors] == ["daifugo.log.cut-short"]


def test_a_log_that_stops_mid_game_is_cut_short() -> None:
    path = fixtures_dir() / "uecda-wire" / "disconnect-kill9-seed20261202" / "server.log"
    reports = validate_text(path.read_text(encoding="utf-8"), str(path))
    assert [r.valid for r in reports] == [True] * 12 + [False]
    assert [f.rule for f in reports[-1].errors] == ["daifugo.log.cut-short"]


def test_a_later_revision_log_without_its_end_is_cut_short() -> None:
    path = fixtures_dir() / "uecda-later-revision-sample.log"
    lines = _lines(path)
    end = next(i for i, line in enumerate(lines) if line.startswith("%00002%"))
    games = list(ul.read_log(lines[:end]))
    assert len(games) == 2 and games[-1].cut_short and not games[0].cut_short
    assert "TIME_END" in games[-1].errors[-1].message
