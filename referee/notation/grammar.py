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

from referee.notation.records import Finding
from referee.resources import data_dir

#: What a terminal every notation shares is called in a message for a player (each
#: notation's reader names its own terminals).
TERMINAL_NAMES = {
    "CARD": "a card",
    "MOVE_NUMBER": "a move number",
    "RESULT": "a result (1-0, 0-1, *)",
    "GLYPH": "an annotation glyph",
    "NAG": "a $N annotation",
    "TAG_NAME": "a tag name",
    "TAG_VALUE": 'a quoted tag value such as "2"',
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
        what = f"unexpected {text[err.pos_in_stream]!r}" if err.pos_in_stream < len(text) else "unexpected text"
        expected = describe_expected(err.allowed or set(), names)
    elif isinstance(err, UnexpectedToken):
        tok = err.token
        what = "unexpected end of record" if tok.type == "$END" else f"unexpected {_short(str(tok))!r}"
        expected = describe_expected(err.expected or set(), names)
    elif isinstance(err, UnexpectedEOF):
        what = "unexpected end of record"
        expected = describe_expected(set(err.expected or ()), names)
        line = line if isinstance(line, int) and line > 0 else text.count("\n") + 1
    else:  # pragma: no cover - Lark has no other kinds
        what, expected = str(err), ""
    if not isinstance(line, int) or line < 1:
        line, column = text.count("\n") + 1, 1
    lines = text.splitlines()
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    message = what + (f"; {expected}" if expected else "")
    return Finding(rule, message, line + line_offset, column, source=source)
