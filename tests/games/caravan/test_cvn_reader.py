"""The CVN reader: every part of notation.md sections 2, 3 and 5, and its errors."""

from __future__ import annotations

from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import read_caravan, write_caravan
from referee.jobs.validate import split, validate_text
from referee.notation.cards import parse_card


def read(text: str):
    (chunk,) = split(text.splitlines(keepends=True))
    return read_caravan(chunk)


def test_moves_of_every_kind_with_draws_glyphs_nags_and_numbers() -> None:
    record = read('[Game "Caravan"]\n\n1. 9S>D 7H>A!? 2. 10D>E 3c>b $14 3. KS>D1 +9d discard 4C {x} disband E jk>a1 '
                  '*\n')
    moves = [e.move for e in record.moves]
    assert moves == [
        cv.PlayNumber(parse_card("9S"), 3), cv.PlayNumber(parse_card("7H"), 0),
        cv.PlayNumber(parse_card("10D"), 4), cv.PlayNumber(parse_card("3C"), 1),
        cv.Attach(parse_card("KS"), 3, 0, parse_card("9D")), cv.Discard(parse_card("4C")),
        cv.Disband(4), cv.Attach(parse_card("JK"), 0, 0),
    ]
    assert record.moves[1].glyphs == ("!?",)
    assert record.moves[3].glyphs == ("$14",)
    assert record.result_token == ("*", 3, 78)
    assert [(e.line, e.column) for e in record.moves[:2]] == [(3, 4), (3, 9)]


def test_unicode_suits_ten_as_t_crlf_and_escapes() -> None:
    record = read('[Game "Caravan"]\r\n[Player1 "The \\"Courier\\" \\\\ 6"]\r\n\r\n7♥>A T♣>B\r\n')
    assert record.tags["Player1"].value == 'The "Courier" \\ 6'
    assert [e.move.card for e in record.moves] == [parse_card("7H"), parse_card("10C")]
    assert record.moves[1].line == 4 and record.moves[1].column == 6


def test_comments_span_lines_and_hide_tag_lookalikes() -> None:
    # (a line starting [Game would start a record even there: tests/test_inputs.py)
    text = '[Game "Caravan"]\n\n1. 9S>D { a comment\n[Rules "not a tag"]\n} 7H>A ; rest\n2. 3C>B\n'
    records = list(split(text.splitlines(keepends=True)))
    assert len(records) == 1
    assert len(read_caravan(records[0]).moves) == 3


def test_syntax_error_has_place_and_reading_resumes() -> None:
    text = ('[Game "Caravan"]\n\n1. 9S>D 7X>A *\n\n'
            '[Game "Caravan"]\n[Rules "fnv"]\n\n1. 9S>A *\n')
    first, second = validate_text(text)
    (error,) = first.errors
    assert (error.rule, error.line, error.column) == ("notation.syntax", 3, 9)
    assert "7X>A" in error.message
    assert second.rules == "fnv" and second.valid


def test_record_without_movetext_followed_by_another() -> None:
    reports = validate_text('[Game "Caravan"]\n[Result "*"]\n\n[Game "Caravan"]\n\n1. 9S>A *\n')
    assert len(reports) == 2 and all(r.valid for r in reports)


def test_unknown_game_and_missing_game_tag() -> None:
    (unknown,) = validate_text('[Game "Chess"]\n\n1. e4 *\n')
    assert unknown.errors[0].rule == "notation.tag.game"
    (missing,) = validate_text('[Rules "fnv"]\n\n1. 9S>A *\n')
    assert missing.errors[0].rule == "notation.tag.game"


def test_bad_tag_values_are_located() -> None:
    (report,) = validate_text('[Game "Caravan"]\n[First "3"]\n\n*\n')
    assert (report.errors[0].rule, report.errors[0].line) == ("notation.tag.value", 2)
    (report,) = validate_text('[Game "Caravan"]\n[Rules "wasteland"]\n\n*\n')
    assert report.errors[0].rule == "notation.tag.rules"
    (report,) = validate_text('[Game "Caravan"]\n[Deck1 "3C XX 4D"]\n\n*\n')
    assert (report.errors[0].rule, report.errors[0].line, report.errors[0].column) == ("notation.tag.value", 2, 12)
    (report,) = validate_text('[Game "Caravan"]\n[Table "A: 3C; Q: 4D"]\n\n*\n')
    assert report.errors[0].rule == "notation.tag.value"


def test_position_tags_build_the_table() -> None:
    record = read('[Game "Caravan"]\n[Table "A: 7H 9H(KS) 10S; B: ; C: 4C; D: 2C 5C(QD KH); E: 8S; F: 6H"]\n'
                  '[Hand1 "3C KS JK 9D 2H"]\n[Hand2 "?"]\n[ToMove "2"]\n\n*\n')
    (report,) = validate_text('[Game "Caravan"]\n[Table "A: 7H 9H(KS) 10S; B: ; C: 4C; D: 2C 5C(QD KH); E: 8S; F: '
                              '6H"]\n'
                              '[Hand1 "3C KS JK 9D 2H"]\n[Hand2 "?"]\n[ToMove "2"]\n\n*\n')
    assert report.valid
    assert report.details["outcome"]["values"] == {"A": 7 + 18 + 10, "B": 0, "C": 4, "D": 2 + 10, "E": 8, "F": 6}
    assert record.tags["Hand2"].value == "?"


def test_writer_is_canonical() -> None:
    record = read('[Result "*"]\n[Game "Caravan"]\n[Custom "x"]\n\n1. 10d>d +t♣ jk>a1 *\n')
    text = write_caravan({n: t.value for n, t in record.tags.items()}, [e.move for e in record.moves])
    assert text == '[Game "Caravan"]\n[Result "*"]\n[Custom "x"]\n\n1. 10D>D +10C JK>A1 *\n'


def test_a_run_of_tags_is_read_at_each_tag_s_place() -> None:
    # tags lexed as runs: two on a line, an indented one; one with a comment inside (the rule)
    text = ('[Game "Caravan"] [Rules "fnv"]\n  [Player1   "Ann"]\n[Player2 {x} "Bo"]\t[First "2"]\n'
            '[Result "*"]\n\n1. 9S>D *\n')
    record = read(text)
    assert not record.errors
    places = {name: (tag.value, tag.line, tag.column) for name, tag in record.tags.items()}
    assert places == {"Game": ("Caravan", 1, 8), "Rules": ("fnv", 1, 26), "Player1": ("Ann", 2, 15),
                      "Player2": ("Bo", 3, 15), "First": ("2", 3, 28), "Result": ("*", 4, 10)}


def test_a_malformed_tag_after_a_run_is_found_at_its_column() -> None:
    record = read('[Game "Caravan"]\n[Rules "fnv"] [First 2]\n\n1. 9S>D *\n')
    (error,) = record.errors
    assert (error.rule, error.line, error.column) == ("notation.syntax", 2, 22)


def test_the_plain_layout_is_the_annotated_one_without_annotations() -> None:
    """write_caravan lays a plain record out in one go (a faster path); with an annotation
    that adds nothing it takes the general path: the two give the same text, at every
    width and length (odd and even numbers of moves, past the first hundred pairs)."""
    from referee.games.caravan.selfplay import caravan_games

    for game in caravan_games(6, 11):
        for n in (0, 1, 2, 7, len(game.moves)):
            for width in (40, 80, 200):
                moves = game.moves[:n]
                plain = write_caravan(game.tags, moves, width=width)
                assert plain == write_caravan(game.tags, moves, width=width, comments={0: []}), (n, width)
    long = next(caravan_games(1, 3))
    moves = (long.moves * 60)[:4101]  # 2,051 numbers: past the 2,000 made in advance
    assert write_caravan(long.tags, moves) == write_caravan(long.tags, moves, glyphs={5: []})
