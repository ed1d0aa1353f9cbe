"""DFN, the Daifugo notation: what the reader makes of a record (tags, rounds, hands, moves
with their places), its findings on bad input, and the canonical writer."""

from __future__ import annotations

from referee.engines.base import JOKER, Card
from referee.games.daifugo import engine as D
from referee.games.daifugo.notation.dfn import (
    DaifugoRecord,
    decode_cards,
    move_text,
    options_text,
    read_daifugo,
    record_text,
    ruleset_of,
    write_daifugo,
)
from referee.jobs.validate import split

RECORD = """\
[Game "Daifugo"]
[Rules "classic"]
[Options "+spade3 +diamond3-start"]
[Players "Aki Ben Chie"]
[Event "club night"]

[Round "1"]
[Hand.Aki "3D 4S JK"]
[Hand.Ben "5S 5C"]
[Hand.Chie "th 7\u2665 AC"]
[Finish "Aki Ben Chie"]
Aki: 3D  Ben: 5S!  { a comment } Chie: pass
2. Aki: JK(4H) 4S ; to the end of the line
Ben: pass $1  Chie ->Aki: 7H

[Round "2"]
[Hand.Aki "2S"]
[Hand.Ben "2H"]
[Hand.Chie "2D"]
[Order "Chie Ben Aki"]
Zed: pass  Aki: JK(<3D) 3D 4D  Ben: JK(>2C) KC AC 2C *
"""


def read(text: str, index: int = 1) -> DaifugoRecord:
    chunks = list(split(text.splitlines(keepends=True)))
    assert len(chunks) == 1
    return read_daifugo(chunks[0], "t.dfn", index)


def test_tags_rounds_and_hands():
    record = read(RECORD)
    assert record.errors == []
    assert record.players == ("Aki", "Ben", "Chie")
    assert set(record.tags) == {"Game", "Rules", "Options", "Players", "Event"}
    assert [r.number for r in record.rounds] == [1, 2]
    first, second = record.rounds
    assert first.hands == {0: (Card(3, "D"), Card(4, "S"), JOKER), 1: (Card(5, "S"), Card(5, "C")),
                           2: (Card(10, "H"), Card(7, "H"), Card(1, "C"))}
    assert first.finish == (0, 1, 2) and first.order is None
    assert second.order == (2, 1, 0) and second.finish is None
    assert first.tags["Hand.Ben"].line == 9 and first.tags["Hand.Ben"].column == 12


def test_moves_with_their_places():
    first, second = read(RECORD).rounds
    assert [(e.text, e.line, e.column) for e in first.moves] == [
        ("Aki: 3D", 12, 1), ("Ben: 5S", 12, 10), ("Chie: pass", 12, 34), ("Aki: JK(4H) 4S", 13, 4),
        ("Ben: pass", 14, 1), ("Chie -> Aki: 7H", 14, 15)]
    assert first.moves[1].glyphs == ("!",) and first.moves[4].glyphs == ("$1",)
    assert first.moves[0].move == D.Play(0, (Card(3, "D"),))
    assert first.moves[2].move == D.Pass(2)
    assert first.moves[3].move == D.Play(0, (JOKER, Card(4, "S")), (D.Stand("H", 2),))
    assert first.moves[5].move == D.Give(2, 0, (Card(7, "H"),))
    # an unknown name is player -1 and keeps its name; the uecda joker columns
    assert second.moves[0].move == D.Pass(-1) and second.moves[0].text == "Zed: pass"
    assert second.moves[1].move.joker_as == (D.Stand("D", D.BELOW_3),)
    assert second.moves[2].move.joker_as == (D.Stand("C", D.ABOVE_2),)
    assert second.moves[2].text == "Ben: JK(>2C) KC AC 2C"


def test_joker_readings_and_cards():
    assert decode_cards("4D JK(5D) 6D") == ((Card(4, "D"), JOKER, Card(6, "D")), (D.Stand("D", 3),))
    assert decode_cards("JK 5S") == ((JOKER, Card(5, "S")), ())
    assert decode_cards("jk(10h) js") == ((JOKER, Card(11, "S")), (D.Stand("H", 8),))
    assert move_text(D.Play(1, (JOKER, JOKER, Card(9, "S")), (D.Stand("H", 7), None)), ("a", "b")) == "b: JK(9H) JK 9S"
    assert move_text(D.Give(0, 1, (JOKER, Card(2, "S"))), ("a", "b")) == "a -> b: JK 2S"
    five = D.Play(0, (Card(9, "S"), Card(9, "H"), Card(9, "D"), Card(9, "C"), JOKER), (D.Stand("", 7),))
    assert move_text(five, ("a",)) == "a: 9S 9H 9D 9C JK"


def test_players_named_like_cards_and_keywords():
    record = read('[Game "Daifugo"]\n[Players "JK 3C pass"]\n[Hand.JK "4S"]\n[Hand.3C "5S"]\n[Hand.pass "6S"]\n'
                  '[ToMove "JK"]\nJK: 4S 3C: 5S pass: pass JK: pass\n')
    assert record.errors == []
    assert [e.move for e in record.rounds[0].moves] == [D.Play(0, (Card(4, "S"),)), D.Play(1, (Card(5, "S"),)),
                                                       D.Pass(2), D.Pass(0)]


def test_a_snapshot_is_one_unnumbered_round_on_the_games_tags():
    record = read('[Game "Daifugo"]\n[Players "A B C"]\n[Hand.A "3S"]\n[Hand.B "4S"]\n[Hand.C "5S 6S"]\n'
                  '[Table "B: 5C"]\n[ToMove "C"]\n\nC: 6S A: pass\n')
    (rnd,) = record.rounds
    assert rnd.number is None and rnd.is_snapshot and rnd.tags is record.tags
    assert rnd.hands[2] == (Card(5, "S"), Card(6, "S"))


def test_syntax_errors_point_at_the_word():
    record = read('[Game "Daifugo"]\n[Players "A B C"]\nA: 3S  B: 4Z\n')
    (error,) = record.errors
    assert (error.rule, error.line, error.column) == ("notation.syntax", 3, 11)
    assert "'4Z' is not a card" in error.message
    assert record.tags["Players"].value == "A B C"  # tags are salvaged
    record = read('[Game "Daifugo"]\n[Players "A B C"\nA: 3S\n')
    assert record.errors[0].rule == "notation.syntax" and record.errors[0].line == 3  # at the next token
    record = read('[Game "Daifugo"]\n[Players "A B C"]\nA 3S\n')
    assert (record.errors[0].line, record.errors[0].column) == (3, 1)


def test_bad_tag_values_are_findings():
    record = read('[Game "Daifugo"]\n[Players "A B A"]\n[Round "x"]\n[Hand.A "3S 1S"]\n[Hand.Q "4S"]\n'
                  '[Order "A B Z"]\n[Round "2"]\n[Round "3"]\n')
    found = [(f.rule, f.line, f.column) for f in record.errors]
    assert ("notation.tag.value", 2, 15) in found  # A listed twice
    assert ("notation.tag.value", 3, 9) in found  # Round "x"
    assert ("notation.tag.value", 4, 13) in found  # 1S
    assert ("notation.tag.value", 6, 13) in found  # Z
    assert any(f.rule == "notation.tag.value" and "Hand.Q" in f.message for f in record.errors)


def test_crlf_bom_and_unicode():
    text = '\ufeff[Game "Daifugo"]\r\n[Players "A B C"]\r\n[Hand.A "3\u2660"]\r\n[Hand.B "4S"]\r\n' \
           '[Hand.C "5S"]\r\n[ToMove "A"]\r\n\r\nA: 3\u2660\r\n'
    chunks = list(split(text.splitlines(keepends=True)))
    record = read_daifugo(chunks[0])
    assert record.errors == []
    assert record.rounds[0].moves[0].move == D.Play(0, (Card(3, "S"),))
    assert (record.rounds[0].moves[0].line, record.rounds[0].moves[0].column) == (8, 1)


def test_the_writer_is_canonical_and_reads_back():
    record = read(RECORD)
    text = record_text(record)
    assert text.startswith('[Game "Daifugo"]\n[Rules "classic"]\n[Options "+spade3 +diamond3-start"]\n'
                           '[Players "Aki Ben Chie"]\n[Event "club night"]\n\n[Round "1"]\n'
                           '[Hand.Aki "3D 4S JK"]\n[Hand.Ben "5S 5C"]\n[Hand.Chie "10H 7H AC"]\n'
                           '[Finish "Aki Ben Chie"]\n\nAki: 3D  Ben: 5S!  Chie: pass  Aki: JK(4H) 4S')
    again = read(text)
    assert again.errors == []
    assert [[e.move for e in r.moves] for r in again.rounds] == [[e.move for e in r.moves] for r in record.rounds]
    assert [[e.glyphs for e in r.moves] for r in again.rounds] == [[e.glyphs for e in r.moves] for r in record.rounds]
    assert record_text(again) == text
    # moves wrap at the width, between moves
    long = write_daifugo({"Game": "Daifugo", "Players": "A B"}, [({}, [D.Pass(i % 2) for i in range(40)])], width=30)
    assert all(len(line) <= 30 for line in long.splitlines())
    assert long.count("pass") == 40


def test_options_text_and_rulesets():
    rules = ruleset_of("classic", "+spade3 -revolution stairs-revolution=5 exchange=choice")
    # -revolution turns the long sequences' revolution off too: the length beside it says nothing
    assert (rules.spade3, rules.revolution, rules.stairs_revolution, rules.exchange) == (True, False, None, "choice")
    assert rules is ruleset_of("classic", "+spade3 -revolution exchange=choice")
    assert options_text(rules) == "-revolution +spade3 exchange=choice"
    assert ruleset_of("classic", options_text(rules)) == rules
    rules = ruleset_of("classic", "+spade3 stairs-revolution=5 exchange=choice")
    assert (rules.revolution, rules.stairs_revolution) == (True, 5)
    assert ruleset_of("classic", options_text(rules)) == rules
    assert options_text(D.ruleset("uecda")) == ""
    for bad in ("+nothing", "spade3", "stairs-revolution=x", "exchange=most"):
        try:
            ruleset_of("classic", bad)
        except ValueError as err:
            assert str(err)
        else:
            raise AssertionError(bad)


def test_a_position_without_moves_is_still_checked():
    """A puzzle position (hands, Table, ToMove and no moves) is a round to check, not an
    empty record that passes unexamined."""
    from referee.jobs.validate import validate_text

    head = ('[Game "Daifugo"]\n[Rules "classic"]\n[Players "Aki Ben Chie"]\n[Hand.Aki "3S 9D JK"]\n'
            '[Hand.Ben "4H 4C KS"]\n[Hand.Chie "7S 8S 9S 2H"]\n[Table "Ben: 5S 5C"]\n')
    (good,) = validate_text(head + '[ToMove "Aki"]\n')
    assert good.valid
    (bad,) = validate_text(head + '[ToMove "Zed"]\n')
    assert [(f.rule, f.line) for f in bad.errors] == [("notation.tag.value", 8)]
