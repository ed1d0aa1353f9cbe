"""Loading the Lark grammars of grammar/ and turning Lark's errors into findings."""

from __future__ import annotations

from functools import cache

from lark import Lark, Transformer
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

from referee.notation.records import Finding, source_lines, visible
from referee.resources import data_dir

#: What a terminal is called in a message for a player.
TERMINAL_NAMES = {
    "PLACE": "a move such as 7H>A or KS>D2",
    "DISCARD": "'discard'",
    "DISBAND": "'disband'",
    "CARD": "a card",
    "CARAVAN": "a caravan letter A-F",
    "DRAW": "a draw such as +9D",
    "MOVE_NUMBER": "a move number",
    "RESULT": "a result (1-0, 0-1, *)",
    "GLYPH": "an annotation glyph",
    "NAG": "a $N annotation",
    "TAG_NAME": "a tag name",
    "TAG_VALUE": 'a quoted tag value such as "Caravan"',
    "LSQB": "'['",
    "RSQB": "']'",
    "$END": "the end of the record",
}


@cache
def load(name: str, start: tuple[str, ...] = ("start",), transformer: type[Transformer] | None = None) -> Lark:
    """An LALR parser for ``grammar/<name>.lark`` (strict: terminals may not collide)."""
    return Lark.open(
        str(data_dir("grammar") / f"{name}.lark"),
        parser="lalr",
        strict=True,
        propagate_positions=True,
        start=list(start),
        transformer=transformer() if transformer else None,
        maybe_placeholders=False,
    )


def describe_expected(expected: set[str] | frozenset[str], names: dict[str, str] | None = None) -> str:
    table = {**TERMINAL_NAMES, **(names or {})}
    words = sorted({table.get(t, t.lower()) for t in expected if not t.startswith("__")})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["..."]
    return "expected " + ", ".join(words)


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def syntax_finding(err: UnexpectedInput, text: str, line_offset: int,
                   names: dict[str, str] | None = None, rule: str = "notation.syntax") -> Finding:
    """A syntax error as a finding at its place in the file (``line_offset`` = the line the
    parsed text starts on, minus one)."""
    line = getattr(err, "line", None)
    column = getattr(err, "column", None)
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        if pos < len(text) and text[pos] == "{" and "}" not in text[pos:]:
            lines = source_lines(text)
            source = lines[line - 1] if isinstance(line, int) and 0 < line <= len(lines) else ""
            return Finding("notation.comment.unclosed", "this { comment is never closed: it runs to the end of the "
                           "record (the next record starts at the next [Game tag)", line + line_offset, column,
                           source=source)
        what = f"unexpected {visible(repr(text[pos]))}" if pos < len(text) else "unexpected text"
        expected = describe_expected(err.allowed or set(), names)
    elif isinstance(err, UnexpectedToken):
        tok = err.token
        what = "unexpected end of record" if tok.type == "$END" else f"unexpected {visible(repr(_short(str(tok))))}"
        expected = describe_expected(err.expected or set(), names)
    elif isinstance(err, UnexpectedEOF):
        what = "unexpected end of record"
        expected = describe_expected(set(err.expected or ()), names)
        line = line if isinstance(line, int) and line > 0 else text.count("\n") + 1
    else:  # pragma: no cover - Lark has no other kinds
        what, expected = str(err), ""
    if not isinstance(line, int) or line < 1:
        line, column = text.count("\n") + 1, 1
    lines = source_lines(text)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    message = what + (f"; {expected}" if expected else "")
    return Finding(rule, message, line + line_offset, column, source=source)
