"""Reading a record holds memory in proportion to its size: a long run of tags or moves is
lexed without a backtracking frame per item, and a validate body is not copied into a
wider buffer before it is read."""

from __future__ import annotations

import re
import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from referee.games.caravan.notation.cvn import _parser as cvn_parser
from referee.games.daifugo.notation.dfn import _parser as dfn_parser
from referee.notation.grammar import possessive_tail
from referee.service import jobs


def _tag_lines(count: int) -> str:
    return '[Game "Caravan"]\n' + "".join(f'[T{n:06d} "v"]\n' for n in range(count))


def _terminal(parser, name: str) -> re.Pattern[str]:
    (terminal,) = [t for t in parser.terminals if t.name == name]
    return re.compile(terminal.pattern.to_regexp())


def _peak(run) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_run_of_tags_is_lexed_in_constant_memory():
    text = _tag_lines(20_000)  # 280 KB
    tags = _terminal(cvn_parser(), "TAGS")
    match: list[re.Match[str] | None] = []
    peak = _peak(lambda: match.append(tags.match(text)))
    assert match[0] is not None and match[0].end() == len(text) - 1
    assert peak < 100_000  # a greedy group kept ~1 KB per tag: some 19 MB here


def test_a_run_of_moves_is_lexed_in_constant_memory():
    cvn = "".join(f"{n}. 7H>A 8H>B " for n in range(1, 10_001))
    dfn = "".join(f"{n}. Aki: 3C Ben: pass " for n in range(1, 10_001))
    for parser, text in ((cvn_parser(), cvn), (dfn_parser(), dfn)):
        moves = _terminal(parser, "MOVES")
        match: list[re.Match[str] | None] = []
        peak = _peak(lambda: match.append(moves.match(text)))
        assert match[0] is not None and match[0].end() >= len(text) - 1
        assert peak < 100_000


def test_a_validate_body_is_read_in_memory_proportional_to_it():
    text = _tag_lines(36_000)  # 500 KB
    result: list[dict] = []
    peak = _peak(lambda: result.append(jobs.validate(text)))
    assert result[0]["summary"]["valid"] == 1
    # each tag is kept as a Tag (its name, value and place): about 20 bytes for each byte of
    # the body; the run's backtracking frames and a UCS-4 copy of the body made it 80
    assert peak < 30 * len(text)


class _Terminal:
    def __init__(self, value: str):
        from lark.lexer import PatternRE
        self.name = "T"
        self.pattern = PatternRE(value)


@given(st.text(alphabet='[]" ab\\\n\t', max_size=60))
def test_the_possessive_form_matches_what_the_greedy_form_matches(text):
    for value in (r'\[ ?[ab]+ "(?:[^"\\\n]|\\.)*" ?\](?:[ \n\t]+\[ ?[ab]+ "(?:[^"\\\n]|\\.)*" ?\])*',
                  r'(?:a|ab|b\[)+', r'[ab]*(?:\\.|")*'):
        terminal = _Terminal(value)
        possessive_tail(terminal)  # type: ignore[arg-type]
        assert terminal.pattern.value == value + "+"
        for start in range(len(text)):
            greedy, possessive = re.match(value, text[start:]), re.match(terminal.pattern.value, text[start:])
            assert (greedy and greedy.group()) == (possessive and possessive.group())


def test_only_a_trailing_greedy_repetition_is_made_possessive():
    for value in (r"a*?", r"a\*", r"a++", r"a|b*", r"(?:a*)", r"a{2,}"):
        terminal = _Terminal(value)
        possessive_tail(terminal)  # type: ignore[arg-type]
        assert terminal.pattern.value == value
