"""Records as data, findings as values, and the splitter that cuts a file into records.

A reader never raises on bad input: whatever is wrong becomes a :class:`Finding` on the
record, and the next record is read as if nothing had happened (the splitter works on
lines, before any grammar, so one broken record cannot swallow the next).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any, TextIO


@dataclass
class Finding:
    """One thing wrong (an error) or worth saying (a warning) about a record."""

    rule: str
    message: str
    line: int | None = None
    column: int | None = None
    ply: int | None = None
    round: int | None = None
    player: str | None = None
    move: str | None = None
    #: The offending source line, for a caret display (text output only).
    source: str | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "column": self.column,
            "ply": self.ply,
            "round": self.round,
            "player": self.player,
            "move": self.move,
            "rule": self.rule,
            "message": self.message,
        }


@dataclass
class Tag:
    name: str
    value: str
    line: int
    column: int


class MoveEntry:
    """A move as read: the engine's move, where it stands, its annotation glyphs.

    Each game's reader makes its own subclass, whose ``text`` is the move in canonical
    notation (made when asked: most moves never are).
    """

    __slots__ = ("move", "line", "column", "glyphs")

    def __init__(self, move: Any, line: int, column: int, glyphs: tuple[str, ...] = ()) -> None:
        self.move = move
        self.line = line
        self.column = column
        self.glyphs = glyphs

    @property
    def text(self) -> str:
        raise TypeError(f"{type(self).__name__} is a MoveEntry of no game: each reader writes its own moves")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.move!r}, line={self.line}, column={self.column})"


@dataclass
class Record:
    """What every record has; each game's reader returns a subclass."""

    file: str
    index: int
    line: int
    game: str | None
    tags: dict[str, Tag] = field(default_factory=dict)
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    def tag(self, name: str, default: str | None = None) -> str | None:
        t = self.tags.get(name)
        return default if t is None else t.value


@dataclass
class Chunk:
    """The text of one record, cut from a file, and the line it starts on (1-based)."""

    text: str
    line: int
    game: str | None


# ---------------------------------------------------------------- splitting a file

_TAG_LINE = re.compile(r'\s*\[\s*([^\s\[\]"{};]+)')
_GAME_TAG = re.compile(r'\s*\[\s*Game\s+"([^"]*)"', re.IGNORECASE)


def _game_name(value: str) -> str:
    return value.strip().lower()


def split_records(lines: Iterable[str], first_line: int = 1,
                  section_tags: Mapping[str, frozenset[str]] | None = None) -> Iterator[Chunk]:
    """Cut a stream of lines into record texts.

    A record ends where a tag section starts after movetext, or where a second ``Game`` tag
    starts; in a record of a game whose ``section_tags`` (game name -> tag names, lower
    case) name a tag, a tag section opened by that tag continues the record (Daifugo's
    ``[Round ...]``, notation.md section 2). Brace comments may span lines; a ``[`` inside
    one does not start a tag section.
    """
    sections = section_tags or {}
    buf: list[str] = []
    start = first_line
    game: str | None = None
    in_movetext = False
    depth = 0
    lineno = first_line - 1
    for raw in lines:
        lineno += 1
        line = raw
        if lineno == first_line and line.startswith("\ufeff"):
            line = line[1:]
        m = _TAG_LINE.match(line) if depth == 0 else None
        if m:
            name = m.group(1)
            new_game = _GAME_TAG.match(line)
            continues = in_movetext and name.lower() in sections.get(game or "", ())
            if (in_movetext and not continues) or (new_game and game is not None):
                if any(b.strip() for b in buf):
                    yield Chunk("".join(buf), start, game)
                buf, start, game, in_movetext = [], lineno, None, False
            if new_game:
                game = _game_name(new_game.group(1))
            if continues:
                in_movetext = False
            buf.append(line)
            continue
        if not buf and not line.strip():
            start = lineno + 1
            continue
        buf.append(line)
        depth = _scan_movetext(line, depth)
        if depth == 0 and not in_movetext and _has_movetext(line):
            in_movetext = True
        elif depth:
            in_movetext = True
    if any(b.strip() for b in buf):
        yield Chunk("".join(buf), start, game)


def _scan_movetext(line: str, depth: int) -> int:
    """Brace-comment depth at the end of ``line`` (``;`` comments end the line)."""
    for ch in line:
        if depth:
            if ch == "}":
                depth = 0
        elif ch == "{":
            depth = 1
        elif ch == ";":
            break
    return depth


def _has_movetext(line: str) -> bool:
    stripped = re.sub(r"\{[^}]*\}|;.*", "", line).strip()
    return bool(stripped)


# ---------------------------------------------------------------- opening files


def open_text(path: str | Path, stdin: TextIO | None = None) -> TextIO:
    """Open a record file as text (UTF-8, universal newlines); ``-`` is standard input.

    Undecodable bytes are replaced rather than raised on: the grammar then reports them
    as syntax errors at their place.
    """
    if str(path) == "-":
        import sys

        stream = stdin if stdin is not None else sys.stdin
        if hasattr(stream, "buffer"):
            return io.TextIOWrapper(stream.buffer, encoding="utf-8", errors="replace", newline=None)
        return stream
    return open(path, encoding="utf-8", errors="replace", newline=None)


_SMALL_INT = re.compile(r"[0-9]{1,9}")


def small_int(text: str) -> int | None:
    """A count or number written in a record (ASCII digits, at most nine), else None:
    ``int()`` alone would take other scripts' digits and raise on very long ones."""
    return int(text) if _SMALL_INT.fullmatch(text) else None


def unescape(value: str) -> str:
    """A tag value's text without its escapes (``\\"`` and ``\\\\``)."""
    if "\\" not in value:
        return value
    return re.sub(r"\\(.)", r"\1", value)


def tag_line(name: str, value: str) -> str:
    """A tag written canonically, its value escaped."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


_TAG_TEXT = re.compile(r'\s*\[\s*([^\s\[\]"]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def salvage_tags(chunk: Chunk, stop_at: str | None = None) -> Iterator[Tag]:
    """The well-formed tag lines of a record whose grammar failed, so that its report can
    still name the rule set and the players (up to a tag named ``stop_at``)."""
    for i, line in enumerate(chunk.text.splitlines()):
        m = _TAG_TEXT.match(line)
        if not m:
            continue
        if m.group(1) == stop_at:
            return
        yield Tag(m.group(1), unescape(m.group(2)), chunk.line + i, m.start(2) + 1)


def located(pattern: re.Pattern[str], text: str, line: int, column: int) -> Iterator[tuple[re.Match[str], int, int]]:
    """Each match of ``pattern`` in a token's ``text`` with its line and column in the file,
    the token starting at (``line``, ``column``): how a run of moves lexed as one token is
    split back into its moves at their places."""
    line_start, column0 = 0, column
    newline = text.find("\n")
    for m in pattern.finditer(text):
        pos = m.start()
        while newline != -1 and newline < pos:
            line += 1
            line_start = newline + 1
            column0 = 1
            newline = text.find("\n", line_start)
        yield m, line, column0 + pos - line_start


def wrap(words: Iterable[str], width: int = 80, separator: str | Iterable[str] = " ") -> list[str]:
    """Movetext words joined into lines of at most ``width`` characters (a longer word
    gets a line of its own). ``separator`` goes between words: one string, or one per word
    (the one before it)."""
    seps = repeat(separator) if isinstance(separator, str) else iter(separator)
    lines: list[str] = []
    current = ""
    for word, sep in zip(words, seps):
        if current and len(current) + len(sep) + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current}{sep}{word}" if current else word
    if current:
        lines.append(current)
    return lines


def caret_line(source: str, column: int | None) -> str:
    """The offending line and a caret under the column (1-based)."""
    text = source.rstrip("\r\n").expandtabs(1)
    if column is None:
        return text
    return f"{text}\n{' ' * (max(column, 1) - 1)}^"
