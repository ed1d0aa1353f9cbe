"""``pitboss annotate --analyse``: the solver's view of each move, and its ?? / ? marks.

The expected answers are worked out by hand in the comments beside each position.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli import app
from referee.jobs.analyse import Limits, analyse_text
from referee.jobs.validate import validate_text

runner = CliRunner()

# Player 1: A 10S 2H 10D = 22 and B 9S 8H 7C = 24 already win their lanes against D 5 and
# E 3. C 9H 6D = 15 (descending, diamonds) against F 4: 8D is a diamond, so it may go on C
# against the direction, C = 23, and all three lanes are player 1's: a win in 1. Player 1
# discards 5S instead. Player 2 answers JS on 9H (C = 6D alone, 6): with 8D, KC and the
# drawn 4C player 1 can make C 14, 12 or 10, never 21-26, so no win within the one own turn
# left (D = 2): the discard threw the forced win away: ??. A and B stay sold (0 moves) and C
# still takes one (8D), so no "?". Player 2's 2C>F: player 2 (D 5, E 3, F 4+2) has no
# caravan within 3 moves of 21-26 either way, and no forced win.
FORCED = """[Game "Caravan"]
[Rules "holotape"]
[Table "A: 10S 2H 10D; B: 9S 8H 7C; C: 9H 6D; D: 5C; E: 3D; F: 4S"]
[Hand1 "8D 5S KC"]
[Hand2 "JS 2C"]
[Deck1 "4C 4D"]
[Deck2 "6S 6H"]
[ToMove "1"]
[Phase "main"]
[Result "*"]

1. {MOVE} 2C>F *
"""

# Player 1: A 10S 5H = 15 (descending, hearts): 6H is a heart, so it may go on A: 21, a
# sale in 1. B 2C and C 3C cannot reach 21 with 6H 9C 2S 2D in three moves. Player 1
# discards 6H: left 9C, then 2S, 2D. 9C cannot go on A (higher, not a heart), 2S makes 17
# and 2D cannot follow a 2; B 2C + 9C = 11 and then only 2s (descending, not clubs: no);
# C 3C + 9C = 12 likewise. No caravan of player 1 is sellable within 3 any more: "?".
SALE = """[Game "Caravan"]
[Rules "holotape"]
[Table "A: 10S 5H; B: 2C; C: 3C; D: 10C; E: 9D; F: 8S"]
[Hand1 "6H 9C"]
[Hand2 "2H 3H"]
[Deck1 "2S 2D"]
[Deck2 "4S 4H"]
[ToMove "1"]
[Phase "main"]
[Result "*"]

1. {MOVE} *
"""

# Aki holds 3S 3H 7D: two plays (the pair of 3s, the 7). Leading the single 3S leaves 3H
# 7D, still two plays: the play wasted a turn: "?". Ben 9C 10C: two singles (no pair, no
# three-card sequence); after 9C one: no mark. Chie KH QS: two, then one: no mark.
DAIFUGO = """[Game "Daifugo"]
[Rules "classic"]
[Players "Aki Ben Chie"]
[Hand.Aki "3S 3H 7D"]
[Hand.Ben "9C 10C"]
[Hand.Chie "KH QS"]
[Table ""]
[ToMove "Aki"]

Aki: {MOVE} Ben: 9C Chie: KH *
"""


def _one(text: str, limits: Limits = Limits()):
    (a,) = analyse_text(text, "test", limits=limits)
    return a


def _verdicts(text: str) -> list[tuple]:
    return [(r.valid, [f.rule for f in r.errors], [f.rule for f in r.warnings]) for r in validate_text(text)]


def test_forced_win_thrown_away() -> None:
    a = _one(FORCED.replace("{MOVE}", "discard 5S"))
    first, second = a.moves[0], a.moves[1]
    assert first.before["forced_win"] == 1 and first.after["forced_win"] is None
    assert first.glyph == "??" and first.added
    assert first.after["sellable"] == {"A": 0, "B": 0, "C": 1}
    assert "1. discard 5S?? { analysis: forced win in 1 lost | A sellable in 0, B in 0, C in" in a.text
    assert second.glyph is None
    assert second.before["forced_win"] is None
    assert second.after["sellable"] == {"D": None, "E": None, "F": None}


def test_winning_move_is_not_marked() -> None:
    a = _one(FORCED.replace("{MOVE}", "8D>C").replace(" 2C>F", ""))
    m = a.moves[0]
    assert m.before["forced_win"] == 1 and m.after["forced_win"] == 0
    assert m.glyph is None and "8D>C { analysis: won }" in " ".join(a.text.split())


def test_depth_one_counts_only_this_turn() -> None:
    a = _one(FORCED.replace("{MOVE}", "discard 5S"), Limits(depth=1))
    assert a.moves[0].glyph == "??"


def test_own_glyph_is_kept() -> None:
    a = _one(FORCED.replace("{MOVE}", "discard 5S!"))
    assert a.moves[0].glyph == "??" and not a.moves[0].added
    assert "discard 5S! {" in a.text and "??" not in a.text


def test_sale_made_impossible() -> None:
    a = _one(SALE.replace("{MOVE}", "discard 6H"))
    m = a.moves[0]
    assert m.before["sellable"] == {"A": 1, "B": None, "C": None}
    assert m.after["sellable"] == {"A": None, "B": None, "C": None}
    assert m.glyph == "?" and "discard 6H? {" in a.text


def test_sale_made_is_not_marked() -> None:
    a = _one(SALE.replace("{MOVE}", "6H>A"))
    m = a.moves[0]
    assert m.after["sellable"]["A"] == 0 and m.glyph is None


def test_unknown_hand_says_nothing() -> None:
    text = FORCED.replace("{MOVE}", "discard 5S").replace('[Hand1 "8D 5S KC"]', '[Hand1 "8D 5S ?"]')
    a = _one(text)
    assert 0 not in a.moves and "analysis" not in a.text.split("\n\n", 1)[1].split("2C>F")[0]


def test_daifugo_wasted_play() -> None:
    a = _one(DAIFUGO.replace("{MOVE}", "3S"))
    aki, ben, chie = a.moves[0], a.moves[1], a.moves[2]
    assert (aki.before["out"], aki.after["out"], aki.glyph) == (2, 2, "?")
    assert (ben.before["out"], ben.after["out"], ben.glyph) == (2, 1, None)
    assert (chie.before["out"], chie.after["out"], chie.glyph) == (2, 1, None)
    assert "Aki: 3S? { analysis: out in 2 plays }" in " ".join(a.text.split())


def test_daifugo_good_play() -> None:
    a = _one(DAIFUGO.replace("{MOVE}", "3S 3H").replace("Ben: 9C Chie: KH", "Ben: pass Chie: pass"))
    aki = a.moves[0]
    assert (aki.before["out"], aki.after["out"], aki.glyph) == (2, 1, None)
    # a pass: the comment, never a mark
    assert a.moves[1].glyph is None and a.moves[1].comment == "analysis: out in 2 plays"


def test_round_trip_validates_the_same() -> None:
    for text in (FORCED.replace("{MOVE}", "discard 5S"), SALE.replace("{MOVE}", "discard 6H"),
                 DAIFUGO.replace("{MOVE}", "3S")):
        out = _one(text).text
        assert "analysis:" in out
        assert _verdicts(out) == _verdicts(text)


def test_cli_analyse_text_and_json(tmp_path) -> None:
    path = tmp_path / "game.cvn"
    path.write_text(FORCED.replace("{MOVE}", "discard 5S"), encoding="utf-8")
    result = runner.invoke(app, ["annotate", str(path), "--analyse", "--depth", "2", "--within", "3"])
    assert result.exit_code == 0, result.output
    assert "discard 5S??" in result.output and "analysis: forced win in 1 lost" in result.output
    result = runner.invoke(app, ["annotate", str(path), "--analyse", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    moves = doc["records"][0]["moves"]
    assert moves[0]["analysis"]["glyph"] == "??" and moves[0]["analysis"]["before"]["forced_win"] == 1
    assert moves[1]["analysis"]["glyph"] is None
    assert doc["records"][0]["analysis"]["depth"] == 2
    # without --analyse nothing changes
    plain = runner.invoke(app, ["annotate", str(path), "--json"])
    assert "analysis" not in json.loads(plain.output)["records"][0]["moves"][0]
