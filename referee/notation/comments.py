"""Comments of a record's text, with their places, so that a rewrite can keep them.

The readers skip comments (the grammars ignore them); an annotator that writes a record
back must not lose what a person wrote. :func:`scan_comments` finds every ``{ ... }`` and
``; ...`` comment of one record's text (tag values excepted) with its line and column, and
:func:`place_comments` says where each belongs: before the tags, in the tag section, after
a given move, or after the result.

:func:`comment_text` makes any text safe inside ``{ }``: notation has no escape for a
closing brace, so braces become parentheses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.notation.records import source_lines
from referee.notation.screen import flow

_TAG = re.compile(r'\s*\[\s*[^\s\[\]"{};]+\s*"(?:[^"\\\n]|\\.)*"\s*\]')


@dataclass
class Comment:
    #: ``{`` for a brace comment, ``;`` for a line comment.
    kind: str
    #: The text between the braces, or after the semicolon (without the line end).
    text: str
    line: int
    column: int

    def source(self) -> str:
        """The comment as it was written."""
        return f"{{{self.text}}}" if self.kind == "{" else f";{self.text}"


@dataclass
class Placed:
    """A record's comments by place (see :func:`place_comments`)."""

    before: list[Comment] = field(default_factory=list)
    head: list[Comment] = field(default_factory=list)
    #: By move index (0-based, in the order the moves are given): comments after that move.
    after: dict[int, list[Comment]] = field(default_factory=dict)
    trailing: list[Comment] = field(default_factory=list)


def scan_comments(text: str, first_line: int = 1) -> tuple[list[Comment], int | None]:
    """Every comment of ``text`` (lines numbered from ``first_line``, columns from 1), and
    the line of the first tag (None when there is none)."""
    found: list[Comment] = []
    first_tag: int | None = None
    open_brace: tuple[int, int, list[str]] | None = None
    for i, raw in enumerate(source_lines(text)):
        line_no = first_line + i
        pos = 0
        if open_brace is None:
            m = _TAG.match(raw)
            if m:
                if first_tag is None:
                    first_tag = line_no
                pos = m.end()
        while pos <= len(raw):
            if open_brace is not None:
                end = raw.find("}", pos)
                line0, col0, parts = open_brace
                if end == -1:
                    parts.append(raw[pos:])
                    break
                parts.append(raw[pos:end])
                found.append(Comment("{", "\n".join(parts), line0, col0))
                open_brace = None
                pos = end + 1
                continue
            brace = raw.find("{", pos)
            semi = raw.find(";", pos)
            if semi != -1 and (brace == -1 or semi < brace):
                found.append(Comment(";", raw[semi + 1:].rstrip("\r"), line_no, semi + 1))
                break
            if brace == -1:
                break
            open_brace = (line_no, brace + 1, [])
            pos = brace + 1
    if open_brace is not None:  # an unclosed comment: the reader reported it; keep its text
        line0, col0, parts = open_brace
        found.append(Comment("{", "\n".join(parts), line0, col0))
    return found, first_tag


def place_comments(comments: Sequence[Comment], first_tag: int | None,
                   moves: Sequence[tuple[int, int]], result: tuple[int, int] | None) -> Placed:
    """Sort comments by where they stand: ``moves`` are the (line, column) of each move in
    order, ``result`` that of the result token. A comment belongs after the last move that
    starts before it; one after the result token trails the record."""
    placed = Placed()
    keys = list(moves)
    for c in comments:
        at = (c.line, c.column)
        if result is not None and at > result:
            placed.trailing.append(c)
            continue
        index = _last_before(keys, at)
        if index is None:
            if first_tag is None or c.line < first_tag:
                placed.before.append(c)
            else:
                placed.head.append(c)
        else:
            placed.after.setdefault(index, []).append(c)
    return placed


def _last_before(keys: list[tuple[int, int]], at: tuple[int, int]) -> int | None:
    lo, hi = 0, len(keys)
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < at:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1 if lo else None


def comment_text(text: str) -> str:
    """``text`` made safe inside ``{ }`` (braces become parentheses), on one line (a line
    that broke between two wide characters joined without a space: :func:`flow`)."""
    return flow(text.replace("{", "(").replace("}", ")"))


def comment_words(texts: Sequence[str]) -> list[str]:
    """The words of ``{ }`` comments, so that a writer's wrapping may break a long comment
    (braces inside a text become parentheses)."""
    words: list[str] = []
    for text in texts:
        inner = comment_text(text).split()
        if not inner:
            words.append("{}")
            continue
        inner[0] = "{ " + inner[0]
        inner[-1] += " }"
        words.extend(inner)
    return words
