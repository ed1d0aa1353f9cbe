"""Highcard through the command line: validate, show and the rulebook run on a game that
lives in the test suite, and its French comes from its own catalog."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cli import app

GOLDEN = Path(__file__).parent / "golden"


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_validate_judges_its_records() -> None:
    done = _run("validate", str(GOLDEN))
    assert done.exit_code == 1, done.output
    assert "[highcard.play.follow-suit] player 2 must follow suit" in done.output
    assert "8 games: 3 valid, 5 invalid" in done.output
    french = _run("validate", "--lang", "fr", str(GOLDEN / "suited.hcn"))
    assert "le joueur 2 doit fournir" in french.output


def test_show_draws_its_positions(tmp_path: Path) -> None:
    done = _run("show", "--ply", "2", str(GOLDEN / "classic.hcn"))
    assert done.exit_code == 0, done.output
    assert "Highcard · classic · ply 2: KD" in done.output and "tricks 1-0" in done.output
    page = tmp_path / "replay.html"
    assert _run("show", "--html", str(page), str(GOLDEN / "classic.hcn")).exit_code == 0
    assert "PitbossDraw.games.highcard" in page.read_text(encoding="utf-8")


def test_the_rulebook_has_its_rules_and_topics() -> None:
    done = _run("rules", "highcard")
    assert done.exit_code == 0, done.output
    assert "Highcard: the rulebook" in done.output and "[highcard.play.follow-suit] Follow suit" in done.output
    assert "suited: the second card follows suit when it can" in done.output
    french = _run("rules", "highcard", "--lang", "fr")
    assert "[highcard.play.follow-suit] Fournir" in french.output and "pli" in french.output
