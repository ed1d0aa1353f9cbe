"""Judging contest logs right: the deal re-derived from RANDOM_SEED, the later revision's
change_cards checked (not inferred) and its points checked, its trick rule; each shown on a
real log and on altered copies, which must be reported at the right place."""

from __future__ import annotations

from pathlib import Path

from referee.games.daifugo.uecda.notation import log as ul
from referee.jobs.validate import validate_text
from tests.conftest import fixtures_dir


def _lines(name: str) -> list[str]:
    return (fixtures_dir() / name).read_text(encoding="utf-8").splitlines(keepends=True)


def _judge(lines: list[str]) -> list:
    return validate_text("".join(lines), "altered.log")


def _invalid(reports: list) -> list[tuple[int, list[str]]]:
    return [(r.index, [f.rule for f in r.errors]) for r in reports if not r.valid]


def _swap_cards(lines: list[str], game: ul.LogGame, a: int, b: int) -> list[str]:
    """The game's hands with the first cards of players a and b swapped (still a whole deck)."""
    hands = [list(h) for h in game.hands]
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    out = list(lines)
    text = out[game.cards_line - 1]
    head = text[:game.cards_column - 1]
    out[game.cards_line - 1] = head + "".join(ul.hand_code(h) + " " for h in hands) + "\n"
    return out


def test_a_deal_that_does_not_follow_from_the_seed() -> None:
    lines = _lines("uecda-sample.log")
    games = list(ul.read_log(lines))
    game = games[57]
    reports = _judge(_swap_cards(lines, game, 1, 3))
    assert _invalid(reports) == [(58, ["daifugo.deal.seed"])]
    error = reports[57].errors[0]
    assert (error.line, error.column) == game.hand_places[1][0] and "RANDOM_SEED 777001" in error.message


def test_a_seat_line_that_does_not_follow_from_the_seed() -> None:
    lines = _lines("uecda-wire/default-seed20261201-a/server.log")
    game = list(ul.read_log(lines))[3]  # game 4 draws new seats (RULE_SEKIGAE_NUM 3)
    line, column = game.seat_place
    seats = "".join(map(str, game.seats))
    other = seats[1] + seats[0] + seats[2:]
    out = list(lines)
    out[line - 1] = out[line - 1][:column - 1] + other + out[line - 1][column - 1 + 5:]
    reports = _judge(out)
    assert _invalid(reports)[0] == (4, ["daifugo.deal.seed"])
    assert (reports[3].errors[0].line, reports[3].errors[0].column) == (line, column)


def test_a_wrong_seed_is_reported_at_the_first_game_only() -> None:
    lines = [line.replace("%RANDOM_SEED% 777001", "%RANDOM_SEED% 777000") for line in _lines("uecda-sample.log")]
    assert _invalid(_judge(lines)) == [(1, ["daifugo.deal.seed"])]


def test_the_20_pass_places_follow_from_the_seed() -> None:
    lines = _lines("uecda-wire/allpass-20pass-rule-seed777/server.log")
    reports = _judge(lines)
    assert all(r.valid for r in reports)
    game = list(ul.read_log(lines))[1]
    order = "".join(map(str, game.result.order))
    other = order[1] + order[0] + order[2:]
    out = list(lines)
    out[game.result.line - 1] = out[game.result.line - 1].replace(order, other)
    # The swapped places are still a possible stall result, but not the server's draws.
    assert _invalid(_judge(out))[0] == (2, ["daifugo.deal.seed"])


def test_the_later_revision_validates_with_its_exchange_checked() -> None:
    reports = _judge(_lines("uecda-later-revision-sample.log"))
    assert len(reports) == 1000 and all(r.valid for r in reports), _invalid(reports)[:3]
    assert all("trick-end=all-but-one" in r.details["options"] for r in reports)


def _first_games(lines: list[str], n: int) -> list[str]:
    """The header and the first n games of a log (its end lines after them)."""
    end = next(i for i, t in enumerate(lines) if t.startswith(f"%{n:05d}%"))
    return lines[:end] + [t for t in lines[-2:] if t.startswith("%-----%")]


def test_a_logged_gift_of_a_card_not_held() -> None:
    lines = _first_games(_lines("uecda-later-revision-sample.log"), 2)
    game = list(ul.read_log(lines))[1]
    assert game.changes is not None
    gift = game.changes[2]  # the daifugo's choice: 24S3D4EE
    other = next(c for c in game.hands[gift.receiver] if c not in gift.cards)  # the daihinmin's own card
    text = f"{gift.giver}{gift.receiver}{ul.card_code(other)}{gift.text[4:]}"
    out = list(lines)
    out[gift.line - 1] = out[gift.line - 1].replace(gift.text, text)
    reports = _judge(out)
    (error,) = reports[1].errors
    assert (error.rule, error.line, error.column) == ("daifugo.hand.possession", gift.line, gift.column)


def test_points_are_checked() -> None:
    lines = _first_games(_lines("uecda-later-revision-sample.log"), 502)
    game = list(ul.read_log(lines))[499]
    assert game.points is not None
    text = " ".join(map(str, game.points.values))
    bumped = " ".join(map(str, (game.points.values[0] + 1,) + game.points.values[1:]))
    out = list(lines)
    out[game.points.line - 1] = out[game.points.line - 1].replace(text, bumped)
    # Game 500 is wrong; game 501 adds up from 500's line as logged, so it is wrong as well.
    assert _invalid(_judge(out))[:2] == [(500, ["daifugo.result.points"]), (501, ["daifugo.result.points"])]


def test_no_sequences_rule_is_read_from_the_header(tmp_path: Path) -> None:
    lines = _lines("uecda-sample.log")
    off = [line.replace("%RULE_KAIDAN% YES", "%RULE_KAIDAN% NO") for line in lines]
    reports = _judge(off)
    # The sample clients play sequences the server accepted: under RULE_KAIDAN NO the very
    # first game's sequences are refused, so the replay no longer matches the log.
    assert "-sequences" in reports[0].details["options"]
    assert not all(r.valid for r in reports)
