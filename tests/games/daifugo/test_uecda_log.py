"""The UEC contest server's logs: the reader (card codes, positions, structure) and the
referee (the two real logs validate; altered copies are reported at the right game, entry
and rule; an exchange that is not the default client's is inferred)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from cli import app
from referee import spec
from referee.engines.base import JOKER, Card
from referee.games.daifugo import engine as D
from referee.games.daifugo.uecda.notation import log as ul
from referee.jobs.validate import validate_file, validate_text

SAMPLE = FIXTURES / "uecda-sample.log"
ELEVEN_BACK = FIXTURES / "uecda-11back-6revers-sample.log"

#: Tests of the real logs: they fail under CI when the logs are missing (conftest.py).
needs_fixtures = pytest.mark.usefixtures("contest_logs")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _replace(lines: list[str], line: int, column: int, old: str, new: str) -> list[str]:
    """A copy of ``lines`` with ``old`` at (line, column) replaced by ``new``."""
    text = lines[line - 1]
    assert text[column - 1:column - 1 + len(old)] == old, (text[column - 1:column - 1 + 30], old)
    out = list(lines)
    out[line - 1] = text[:column - 1] + new + text[column - 1 + len(old):]
    return out


def _validate(tmp_path: Path, lines: list[str]) -> list:
    path = tmp_path / "altered.log"
    path.write_text("".join(lines), encoding="utf-8")
    return list(validate_file(path))


def _only_error(reports: list, index: int):
    """The one invalid game is ``index``, with exactly one error: returned."""
    invalid = [r.index for r in reports if not r.valid]
    assert invalid == [index], invalid
    (error,) = reports[index - 1].errors
    assert error.rule in spec.catalog()
    return error


# ---------------------------------------------------------------- card codes


def test_card_codes_decode_as_the_server_prints_them():
    cards, stands = ul.decode_submission("SQLQ")
    assert cards == (Card(12, "S"), JOKER) and stands == (D.Stand("H", D.strength(Card(12, "H"))),)
    # x before the other cards of its row is column 0, after them column 14
    cards, stands = ul.decode_submission("MxD3D4")
    assert cards == (JOKER, Card(3, "D"), Card(4, "D")) and stands == (D.Stand("D", D.BELOW_3),)
    _, stands = ul.decode_submission("DKDAD2Mx")
    assert stands == (D.Stand("D", D.ABOVE_2),)
    # the joker row: the 5-card group
    cards, stands = ul.decode_submission("SJHJDJCJJJ")
    assert len(cards) == 5 and stands == (D.Stand("", D.JACK),)
    # a lone joker, a pass, a real card at column x (always rejected by the server)
    assert ul.decode_submission("Kx")[0] == (JOKER,)
    assert ul.decode_submission("") == ((), ())
    assert ul.decode_submission("Sx") is None
    assert ul.decode_hand("S3H4J3") == (Card(3, "S"), Card(4, "H"), JOKER)


def test_entries_encode_back_to_the_same_codes():
    for text in ("2S6S7S8EE", "3MxD3D4EE", "1SJHJDJCJJJEE", "0SQLQEE", "4EE", "1H8C8EE"):
        entry = ul.decode_entry(text, 1, 1)
        assert ul.entry_code(entry.move) == text
    assert ul.hand_code([JOKER, Card(2, "C"), Card(3, "S"), Card(1, "H")]) == "S3HAC2J3"


def test_every_entry_has_its_place():
    lines = ["%-----%palyer_name% p0 p1 p2 p3 p4\n", "%00000%mibun% 22222\n", "%00000%seat% 01234\n",
             "%00000%palyer_cards%  S3 H3 D3 C3 S4J3 \n", "%00000%play%  3D3EE 4S4EE 0EE\n",
             "%00000%result% 34012\n"]
    (game,) = ul.read_log(lines)
    assert [(e.text, e.line, e.column) for e in game.entries] == [("3D3EE", 5, 15), ("4S4EE", 5, 21), ("0EE", 5, 27)]
    assert (game.mibun.value, game.mibun.line, game.mibun.column) == ("22222", 2, 15)
    assert game.result.order == (3, 4, 0, 1, 2) and (game.result.line, game.result.column) == (6, 16)
    assert game.hand_places[4] == [(4, 35), (4, 37)]
    assert game.index == 1 and game.header.names == ("p0", "p1", "p2", "p3", "p4")


def test_structure_problems_are_findings_on_their_game():
    lines = _lines(SAMPLE)[:19] if SAMPLE.is_file() else ["%-----%palyer_name% p0 p1 p2 p3 p4\n"]
    broken = lines + ["%00000%mibun% 22222\n", "%00000%seat% 01234\n", "%00000%play%  3EE\n",
                      "%00000%palyer_cards% S3 H3 D3 C3 S4 \n", "%00001%mibun% 2222\n", "garbage line\n"]
    reports = validate_text("".join(broken), "broken.log")
    assert [r.index for r in reports] == [1, 2]
    assert all(not r.valid for r in reports)
    rules = [f.rule for r in reports for f in r.errors]
    assert set(rules) == {"notation.syntax", "daifugo.log.cut-short"}
    # The file stops inside its second game: that game is cut short, the first is not.
    assert [f.rule for f in reports[1].errors][-1] == "daifugo.log.cut-short"
    assert "daifugo.log.cut-short" not in [f.rule for f in reports[0].errors]
    first = reports[0].errors
    assert any("out of place" in f.message for f in first)
    assert any("has no play and result lines" in f.message for f in first)
    assert reports[1].errors[0].line == len(lines) + 5


# ---------------------------------------------------------------- the real logs


@needs_fixtures
@pytest.mark.parametrize("path, games", [(SAMPLE, 120), (ELEVEN_BACK, 40)])
def test_real_logs_validate_with_every_rejection_a_warning(path: Path, games: int):
    reports = list(validate_file(path))
    assert [r.index for r in reports] == list(range(1, games + 1))
    assert all(r.valid for r in reports), [(r.index, r.errors[:1]) for r in reports if not r.valid]
    warnings = [w for r in reports for w in r.warnings]
    assert warnings, "both logs hold submissions the server rejected"
    for w in warnings:
        assert w.rule in spec.catalog() and w.rule.startswith("daifugo.")
        assert w.player in ("p0", "p1", "p2", "p3", "p4") and w.move and w.move.endswith("EE")
        assert w.line and w.column and w.ply and w.round
        assert _lines(path)[w.line - 1][w.column - 1:].startswith(w.move)
    assert all(r.rules == "uecda" and r.game == "daifugo" for r in reports)
    assert sum(r.plies for r in reports) == sum(len(g.entries) for g in ul.read_log(_lines(path)))


@needs_fixtures
def test_the_command_line_reports_the_logs(tmp_path: Path):
    result = CliRunner().invoke(app, ["validate", "--json", str(SAMPLE), str(ELEVEN_BACK)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["summary"] == {"games": 160, "valid": 160, "invalid": 0, "errors": 0, "warnings": 175}
    assert sum(len(g["warnings"]) for g in doc["games"]) > 0


# ---------------------------------------------------------------- altered logs


@needs_fixtures
def test_an_entry_by_the_wrong_player(tmp_path: Path):
    lines = _lines(SAMPLE)
    game = list(ul.read_log(lines))[4]
    entry = game.entries[6]
    wrong = (entry.player + 2) % 5
    reports = _validate(tmp_path, _replace(lines, entry.line, entry.column, entry.text, f"{wrong}{entry.text[1:]}"))
    error = _only_error(reports, game.index)
    assert (error.line, error.column, error.ply, error.round) == (entry.line, entry.column, 7, game.index)
    assert error.rule in ("daifugo.turn.order", "daifugo.pass.sat-out", "daifugo.turn.finished")
    assert error.player == f"p{wrong}"
    assert f"p{entry.player}'s turn" in error.message


@needs_fixtures
def test_the_first_entry_by_the_wrong_player(tmp_path: Path):
    lines = _lines(SAMPLE)
    game = list(ul.read_log(lines))[1]  # an exchange game
    entry = game.entries[0]
    wrong = (entry.player + 1) % 5
    reports = _validate(tmp_path, _replace(lines, entry.line, entry.column, entry.text, f"{wrong}{entry.text[1:]}"))
    error = _only_error(reports, game.index)
    assert (error.rule, error.line, error.column, error.ply) == ("daifugo.turn.order", entry.line, entry.column, 1)


@needs_fixtures
def test_a_card_dealt_twice(tmp_path: Path):
    lines = _lines(SAMPLE)
    game = list(ul.read_log(lines))[10]
    # the second hand's first card becomes the first hand's first card
    first, second = game.hands[0][0], game.hands[1][0]
    line, column = game.hand_places[1][0]
    reports = _validate(tmp_path, _replace(lines, line, column, ul.card_code(second), ul.card_code(first)))
    invalid = [r.index for r in reports if not r.valid]
    assert invalid == [game.index]
    rules = [(f.rule, f.line, f.column) for f in reports[game.index - 1].errors]
    assert rules[0] == ("daifugo.deal.duplicate", line, column)
    assert rules[1][0] == "daifugo.deal.missing"
    assert str(second) in reports[game.index - 1].errors[1].message


@needs_fixtures
def test_a_wrong_result_line(tmp_path: Path):
    lines = _lines(SAMPLE)
    game = list(ul.read_log(lines))[20]
    old = game.result
    value = "".join(map(str, old.order))
    swapped = value[1] + value[0] + value[2:]
    reports = _validate(tmp_path, _replace(lines, old.line, old.column, value, swapped))
    error = _only_error(reports, game.index)
    assert (error.rule, error.line, error.column) == ("daifugo.result.finish", old.line, old.column)


@needs_fixtures
def test_a_next_game_whose_titles_do_not_follow(tmp_path: Path):
    lines = _lines(SAMPLE)
    game = list(ul.read_log(lines))[30]
    mibun = game.mibun
    swapped = mibun.value[1] + mibun.value[0] + mibun.value[2:]
    reports = _validate(tmp_path, _replace(lines, mibun.line, mibun.column, mibun.value, swapped))
    error = _only_error(reports, game.index)
    assert (error.rule, error.line, error.column) == ("daifugo.result.titles", mibun.line, mibun.column)


@needs_fixtures
def test_entries_after_the_games_end(tmp_path: Path):
    lines = _lines(SAMPLE)
    game = list(ul.read_log(lines))[40]
    last = game.entries[-1]
    extra = f" {game.result.order[-1]}EE"
    text = lines[last.line - 1].rstrip("\n").rstrip(" ")
    altered = list(lines)
    altered[last.line - 1] = text + extra + " \n"
    reports = _validate(tmp_path, altered)
    error = _only_error(reports, game.index)
    assert (error.rule, error.line, error.column, error.ply) == (
        "daifugo.end.game-over", last.line, len(text) + 2, len(game.entries) + 1)


def _unexplained(lines: list[str]):
    """An exchange game, one of the daihinmin's single plays, and a card the daifugo held
    after the server's move, did not give by the default choice and plays itself later:
    the daihinmin cannot have had it."""
    for game in ul.read_log(lines):
        if game.mibun.value == "22222":
            continue
        classes = [int(c) for c in game.mibun.value]
        daifugo, daihinmin = classes.index(0), classes.index(4)
        held = list(game.hands[daifugo]) + list(D.strongest_cards(game.hands[daihinmin], 2))
        lowest = D.weakest_cards([c for c in held if not c.is_joker], 2)
        kept = {c for e in game.entries if e.player == daifugo and isinstance(e.move, D.Play) for c in e.move.cards}
        cards = [c for c in held if c not in lowest and c in kept and not c.is_joker]
        singles = [e for e in game.entries if e.player == daihinmin and isinstance(e.move, D.Play)
                   and len(e.move.cards) == 1 and not e.move.cards[0].is_joker]
        if cards and singles:
            return game, singles[0], cards[0]
    raise AssertionError("no exchange game to alter")


@needs_fixtures
def test_an_exchange_no_choice_explains(tmp_path: Path):
    lines = _lines(SAMPLE)
    game, entry, card = _unexplained(lines)
    reports = _validate(tmp_path, _replace(lines, entry.line, entry.column, entry.text,
                                           f"{entry.player}{ul.card_code(card)}EE"))
    error = _only_error(reports, game.index)
    assert (error.rule, error.line, error.column) == ("daifugo.exchange.choice", entry.line, entry.column)
    assert "no legal choice could explain" in error.message


# ---------------------------------------------------------------- a server of our own


def _server_log(seed: int, games: int, lowest: bool) -> str:
    """A log as the contest server writes it, of random games played through the engine:
    random seats and dealers, random legal plays with some illegal submissions (rejected,
    counted as passes), and exchanges where the upper titles give the lowest cards
    (``lowest``) or random ones."""
    rng = random.Random(seed)
    rules = D.ruleset("uecda")
    out = ["%-----%palyer_name% p0 p1 p2 p3 p4\n", "%-----%RULE_CHANGE% YES\n",
           f"%-----%GAME_NUMBER% {games}\n", "%-----%FLASH_MIBUN_NUMBER% 100\n"]
    seats = tuple(rng.sample(range(5), 5))
    previous = None
    for n in range(games):
        cards = list(D.deck(rules, 5))
        rng.shuffle(cards)
        dealer = rng.randrange(5)
        hands: list[list[Card]] = [[] for _ in range(5)]
        for i, c in enumerate(cards):
            hands[seats[(dealer + i) % 5]].append(c)
        state = D.new_round(rules, hands, seats, previous, n + 1)
        while state.phase == "exchange":
            server = [d for d in state.pending if d.server]
            duty = server[0] if server else state.pending[0]
            if duty.server:
                gift = D.strongest_cards(state.hands[duty.giver], duty.count)
            elif lowest:
                gift = D.weakest_cards([c for c in state.hands[duty.giver] if not c.is_joker], duty.count)
            else:
                gift = tuple(rng.sample(state.hands[duty.giver], duty.count))
            state = D.apply(state, D.Give(duty.giver, duty.receiver, gift))
        entries = []
        while not state.over:
            p = state.to_move
            if rng.random() < 0.05 and len(state.hands[p]) >= 2:
                bad = D.Play(p, tuple(rng.sample(state.hands[p], 2)))
                if D.check(state, bad) is not None and all(not c.is_joker for c in bad.cards):
                    entries.append(ul.entry_code(bad))
                    state = D.reject(state, bad)
                    continue
            moves = list(D.legal_moves(state))
            plays = [m for m in moves if isinstance(m, D.Play)]
            move = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(moves)
            entries.append(ul.entry_code(move))
            state = D.apply(state, move)
        order = D.finishing_order(state)
        mibun = "22222" if previous is None else "".join(str(previous.index(p)) for p in range(5))
        tag = f"%{n:05d}%"
        out.append(f"{tag}mibun% {mibun}\n")
        out.append(f"{tag}seat% {''.join(map(str, seats))}\n")
        out.append(f"{tag}palyer_cards%  {''.join(ul.hand_code(h) + ' ' for h in hands)}\n")
        out.append(f"{tag}play%  {' '.join(entries)} \n")
        out.append(f"{tag}result% {''.join(map(str, order))}\n")
        previous = order
    return "".join(out)


@pytest.mark.parametrize("lowest", [True, False])
def test_exchanges_of_any_choice_are_inferred(lowest: bool):
    text = _server_log(seed=3 + lowest, games=12, lowest=lowest)
    reports = validate_text(text, "server.log")
    assert len(reports) == 12
    assert all(r.valid for r in reports), [(r.index, r.errors) for r in reports if not r.valid]
    assert any(r.warnings for r in reports)


def test_junk_never_raises():
    for text in ("%-----%\n", "%-----%palyer_name%\n%00000%play%  9ZZEE\n", "%-----%x% y\n%1%mibun% 1\n",
                 "%-----%palyer_name% a b c d e\n%00000%palyer_cards%  SxS3 \n", "%-----%\ufeff\n\x00\n"):
        for report in validate_text(text, "junk.log"):
            for finding in report.errors + report.warnings:
                assert finding.rule in spec.catalog()
