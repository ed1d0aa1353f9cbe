"""Records as data, findings as values, and the splitter that cuts a file into records.

A reader never raises on bad input: whatever is wrong becomes a :class:`Finding` on the
record, and the next record is read as if nothing had happened (the splitter works on
lines, before any grammar, so one broken record cannot swallow the next).
"""

from __future__ import annotations

import io
import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TextIO, TypeVar

from referee.engines.message import T

MoveT = TypeVar("MoveT")

from referee.notation.screen import width
#: The movetext writers' wrap (one wrap for every text output: referee.notation.screen).
from referee.notation.screen import wrap_words as wrap  # noqa: F401


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


@dataclass(slots=True)
class Tag:
    name: str
    value: str
    #: Where the value starts (1-based line and column, the column inside the quotes).
    line: int
    column: int
    #: The column of the tag's name (1-based; 0 when the reader did not say).
    name_column: int = 0


class MoveEntry(Generic[MoveT]):
    """A move as read: the engine's move, where it stands, its annotation glyphs.

    Each game's reader makes its own subclass, whose ``text`` is the move in canonical
    notation (made when asked: most moves never are).
    """

    __slots__ = ("move", "line", "column", "glyphs")

    def __init__(self, move: MoveT, line: int, column: int, glyphs: tuple[str, ...] = ()) -> None:
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
    #: What the splitter found wrong with the record as a whole (a line or the record over
    #: its size limit): such a record is reported with these and not read further.
    findings: list[Finding] = field(default_factory=list)


# ---------------------------------------------------------------- lines, as the readers count them

#: The longest line a record may hold, in characters; a longer line is a finding
#: (``notation.limit``) and is never held in memory whole.
MAX_LINE = 100_000
#: The longest record, in characters (about 100 times the longest real game); past it the
#: record is a finding and the rest of it is skipped, not kept.
MAX_RECORD = 10_000_000

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """``text`` cut into lines as the readers count them, each ending in ``\n`` (but
    perhaps the last): LF, CRLF and a lone CR end a line, as when a file is read with
    universal newlines; nothing else does (``str.splitlines`` would also break at VT, FF,
    U+001C-1E, U+0085 and U+2028/9, which neither the files nor the grammars count)."""
    if "\r" in text:
        text = _LINE_BREAK.sub("\n", text)
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


_LINE = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n)|([^\r\n]+)\Z")


def iter_lines(text: str) -> Iterator[str]:
    """:func:`text_lines` one line at a time: a big text is not held a second time, as a
    list of its lines (nor four times, as ``io.StringIO`` holds it)."""
    for m in _LINE.finditer(text):
        yield m.group(2) if m.group(2) is not None else m.group(1) + "\n"


def source_lines(text: str) -> list[str]:
    """The lines of a record's text without their line ends (a chunk's text has only LF):
    line ``n`` of the record is ``source_lines(text)[n - 1]``."""
    return [line.rstrip("\n") for line in text_lines(text)]


#: How much of a line over the limit is kept to tell where it belongs (a tag line, the
#: movetext of the record before it, text after a record's result).
OVERLONG_HEAD = 1_000


class Overlong(str):
    """A line longer than :data:`MAX_LINE`: the string is a bare line end (the line is not
    read); ``head`` is its first :data:`OVERLONG_HEAD` characters, which say where it
    belongs, and ``length`` how long the line really was (at least)."""

    length: int
    head: str

    def __new__(cls, length: int, head: str = "") -> Overlong:
        obj = super().__new__(cls, "\n")
        obj.length = length
        obj.head = head[:OVERLONG_HEAD]
        return obj


def bounded_lines(handle: TextIO, max_line: int | None = None) -> Iterator[str]:
    """The lines of a text stream, none held longer than ``max_line`` characters: a longer
    one comes as an :class:`Overlong` and the rest of it is read in pieces and dropped."""
    limit = MAX_LINE if max_line is None else max_line
    readline = handle.readline
    while True:
        line = readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or len(line) == limit + 1 and line.endswith("\n"):
            yield line
            continue
        length = len(line)
        head = line[:OVERLONG_HEAD]
        while not line.endswith("\n"):
            line = readline(1 << 16)
            if not line:
                break
            length += len(line)
        if line.endswith("\n"):
            length -= 1
        yield Overlong(length, head)


# ---------------------------------------------------------------- splitting a file

_TAG_LINE = re.compile(r'\s*\[\s*([^\s\[\]"{};]+)')
_GAME_TAG = re.compile(r'\s*\[\s*Game\s+"([^"]*)"', re.IGNORECASE)


def _game_name(value: str) -> str:
    return value.strip().lower()


def split_records(lines: Iterable[str], first_line: int = 1,
                  section_tags: Mapping[str, frozenset[str]] | None = None,
                  max_line: int | None = None, max_record: int | None = None) -> Iterator[Chunk]:
    """Cut a stream of lines into record texts.

    A record ends where a tag section starts after movetext, or where a second ``Game`` tag
    starts; in a record of a game whose ``section_tags`` (game name -> tag names, lower
    case) name a tag, a tag section opened by that tag continues the record (Daifugo's
    ``[Round ...]``, notation.md section 2). Brace comments may span lines; a ``[`` inside
    one does not start a tag section, but a line that starts a record (``[Game``, perhaps
    after a byte-order mark) always does: a ``{`` left open never swallows the records
    after it (the reader reports it). Tag lines with no ``Game`` tag, apart from the next
    record's tag section, are a record of their own (reported as such) rather than a part
    of the next. A byte-order mark at the start of any line (``cat a.cvn b.cvn``) is
    dropped.

    A line over ``max_line`` characters (:data:`MAX_LINE`) or a record over ``max_record``
    (:data:`MAX_RECORD`) is not kept: the record comes with a ``notation.limit`` finding.
    A line over the limit goes to the piece it would go to were it shorter (its head
    decides: a tag line starts a record, text after a result is a piece of its own): that
    piece is the one not read, and the records before and after it are read as usual.
    """
    splitter = _Splitter(section_tags or {}, first_line, MAX_LINE if max_line is None else max_line,
                         MAX_RECORD if max_record is None else max_record)
    for raw in lines:
        yield from splitter.feed(raw)
    if splitter.worth():
        yield splitter.chunk()


class _Splitter:
    """:func:`split_records`' place in a stream: the piece being cut and what its lines
    have shown so far."""

    def __init__(self, sections: Mapping[str, frozenset[str]], first_line: int, line_limit: int,
                 record_limit: int) -> None:
        self.sections, self.line_limit, self.record_limit = sections, line_limit, record_limit
        self.lineno = first_line - 1
        self.start = first_line
        self.buf: list[str] = []
        self.size = 0
        self.findings: list[Finding] = []
        self.game: str | None = None
        self.in_movetext = self.has_tags = self.after_tag = False
        self.ended = False  # the record's movetext has ended with a result token
        self.depth = 0  # brace comments open

    def chunk(self) -> Chunk:
        return Chunk("".join(self.buf), self.start, self.game, self.findings)

    def worth(self) -> bool:  # a piece is reported if it holds text, or a line too long to hold
        return bool(self.findings) or any(b.strip(_BLANK) for b in self.buf)

    def _restart(self) -> None:
        """A new piece starts at this line."""
        self.buf, self.size, self.findings, self.start, self.game, self.has_tags = [], 0, [], self.lineno, None, False

    def feed(self, raw: str) -> Iterator[Chunk]:
        """Take the next line; yield the piece it ends, if it ends one."""
        self.lineno += 1
        line = raw
        too_long = _too_long(raw, self.lineno, self.line_limit)
        if isinstance(raw, Overlong):
            # the line goes where it would go if it were shorter: its head says where (the
            # next record's tags, the movetext of the record before it, text after a result)
            line = raw.head + "\n"
        if line.startswith("\ufeff"):
            line = line.lstrip("\ufeff")
        m = _TAG_LINE.match(line)
        new_game = _GAME_TAG.match(line) if m else None
        if m and (new_game is not None or not self.depth):
            yield from self._tag_line(m.group(1), new_game)
        else:
            self.after_tag = False
            if not self.buf and not line.strip(_BLANK) and too_long is None:
                self.start = self.lineno + 1
                return
            yield from self._movetext_line(line)
        if too_long is not None:
            # the piece it went to is not read (the first such line says why); the line
            # itself is never kept
            if not self.findings:
                self.findings.append(too_long)
            line = "\n"
        self.size += len(line)
        if self.size > self.record_limit:
            if not any(f.rule == "notation.limit" for f in self.findings):
                self.findings.append(_too_big(self.record_limit, self.start, self.lineno))
            return  # not kept: the record is reported by its findings, not read
        self.buf.append(line)

    def _tag_line(self, name: str, new_game: re.Match[str] | None) -> Iterator[Chunk]:
        continues = self.in_movetext and name.lower() in self.sections.get(self.game or "", ())
        stray = self.has_tags and self.game is None and not self.after_tag
        if (self.in_movetext and not continues) or (new_game and (self.game is not None or stray)):
            if self.worth():
                yield self.chunk()
            self._restart()
            self.in_movetext = False
            self.depth = 0
        if new_game:
            self.game = _game_name(new_game.group(1))
        if continues:
            self.in_movetext = False
        self.has_tags = self.after_tag = True
        self.ended = False

    def _movetext_line(self, line: str) -> Iterator[Chunk]:
        was_open = self.depth
        # Most lines are plain movetext: no brace or semicolon, nothing to scan for.
        if "{" in line or ";" in line or (self.depth and "}" in line):
            self.depth = _scan_movetext(line, self.depth)
            bare = _movetext_only(line)
        else:
            bare = line.strip(_BLANK)
        if self.ended and not was_open and (self.depth or bare):
            # text after the record's result token: not the record's (it may be junk
            # between records); it is a piece of its own, reported as such
            if self.worth():
                yield self.chunk()
            self._restart()
        if self.depth:
            self.in_movetext = True
        else:
            if bare:
                self.in_movetext = True
            self.ended = bare.endswith(_RESULT_TOKENS) and bool(_RESULT_END.search(bare)) or (self.ended and not bare)


def _too_long(raw: str, lineno: int, limit: int) -> Finding | None:
    """The finding of a line over ``limit`` characters (None for a line within it)."""
    length = raw.length if isinstance(raw, Overlong) else len(raw.lstrip("\ufeff").rstrip("\r\n"))
    if length <= limit:
        return None
    message = T("line {lineno} is {length:,} characters long; a record line may hold at most "
                "{line_limit:,}: the record is not read", lineno=lineno, length=length, line_limit=limit)
    return Finding("notation.limit", message, lineno, 1)


def _too_big(limit: int, start: int, lineno: int) -> Finding:
    message = T("the record is over {record_limit:,} characters long (from line {start}); a record "
                "may hold at most that: it is not read", record_limit=limit, start=start)
    return Finding("notation.limit", message, lineno, 1)


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


#: What the grammars skip as white space (grammar/common.lark's WS): a line of only these
#: is blank; anything else (VT, U+0085, ...) is text the grammar reports.
_BLANK = " \t\f\r\n\ufeff"
_RESULT_END = re.compile(r"(?:^|\s)(?:1-0|0-1|\*)$")
_RESULT_TOKENS = ("1-0", "0-1", "*")
_COMMENTS = re.compile(r"\{[^}]*\}|;.*")


def _movetext_only(line: str) -> str:
    """The line without its comments, stripped: empty if it holds no movetext."""
    return _COMMENTS.sub("", line).strip(_BLANK)


# ---------------------------------------------------------------- opening files


class NotText(OSError):
    """The input is binary data, not text records (raised on opening, before any is read)."""


#: The first bytes of compressed streams read transparently, and their openers.
_COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "xz"))
#: Signatures of common binary files (besides any NUL byte in the first line).
_BINARY = (b"\x89PNG", b"%PDF-", b"PK\x03\x04", b"\x7fELF", b"\xff\xd8\xff", b"GIF8", b"7z\xbc\xaf",
           b"\x28\xb5\x2f\xfd", b"SQLite format 3\x00", b"MZ")
#: How much of an input's first line is looked at to tell text from binary data.
_SNIFF = 1024


class _Replay(io.RawIOBase):
    """A byte stream whose first bytes were already read (to recognise it): they come
    again first, then the rest of the stream."""

    def __init__(self, head: bytes, rest: Any, close_rest: bool, what: str | None = None) -> None:
        self._head = head
        self._rest = rest
        self._close_rest = close_rest
        #: For decompressed data: what to say when it turns out cut short or corrupt.
        self._what = what

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        if self._head:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        try:
            data = self._rest.read1(len(b)) if hasattr(self._rest, "read1") else self._rest.read(len(b))
        except (EOFError, OSError, ValueError) as err:
            if self._what is None:
                raise
            raise OSError(f"{self._what} is cut short or corrupt ({err})") from None
        b[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if self._close_rest and not self.closed:
            self._rest.close()
        super().close()


def _head(stream: Any) -> bytes:
    """The first bytes of a stream: its first line, up to :data:`_SNIFF` bytes."""
    head = b""
    read = stream.read1 if hasattr(stream, "read1") else stream.read
    while len(head) < _SNIFF and b"\n" not in head:
        more = read(_SNIFF - len(head))
        if not more:
            break
        head += more
    return head


def _is_binary(head: bytes) -> bool:
    first = head.split(b"\n", 1)[0]
    if b"\x00" in first or head.startswith(_BINARY):
        return True
    text = first.decode("utf-8", errors="replace")
    bad = sum(1 for ch in text if ch == "\ufffd" or (ch < " " and ch not in "\t\r\x0b\x0c\x1b"))
    return bad * 4 > len(text)  # more than a quarter of the first line is not text


class RecordFile:
    """A record file open for reading: iterating gives its lines, none longer than
    :data:`MAX_LINE` characters (see :func:`bounded_lines`), decoded as UTF-8 (undecodable
    bytes replaced, so that the grammar reports them at their place) with universal
    newlines. ``fraction()`` says how far through the file (by bytes) reading is."""

    def __init__(self, text: TextIO, raw: Any, size: int | None, owned: bool) -> None:
        self._text = text
        self._raw = raw
        self._size = size
        self._owned = owned
        self._lines = bounded_lines(text)

    def __iter__(self) -> Iterator[str]:
        return self._lines

    def __next__(self) -> str:
        return next(self._lines)

    def fraction(self) -> float | None:
        if not self._size:
            return None
        try:
            return min(self._raw.tell() / self._size, 1.0)
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        if self._owned:
            self._text.close()

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_text(path: str | Path, stdin: TextIO | None = None) -> RecordFile:
    """Open a record file (``-`` is standard input; FIFOs, ``/dev/stdin`` and process
    substitution are read like files). gzip, bzip2 and xz data is decompressed on the way;
    binary data raises :class:`NotText` (an OSError) before anything is read; so do the
    usual OSErrors (missing file, a folder, no permission)."""
    if str(path) == "-":
        import sys

        stream = stdin if stdin is not None else sys.stdin
        raw = getattr(stream, "buffer", None)
        if raw is None:  # a text stream with no bytes beneath (io.StringIO): read as it is
            return RecordFile(stream, None, None, owned=False)
        return _open_bytes(raw, "<stdin>", None, owned=False)
    name = str(path)
    raw = open(path, "rb")
    try:
        size = os.fstat(raw.fileno()).st_size if stat.S_ISREG(os.fstat(raw.fileno()).st_mode) else None
        return _open_bytes(raw, name, size, owned=True)
    except BaseException:
        raw.close()
        raise


def _open_bytes(raw: Any, name: str, size: int | None, owned: bool) -> RecordFile:
    head = _head(raw)
    stream: Any = _Replay(head, raw, close_rest=owned)
    for magic, kind in _COMPRESSED:
        if head.startswith(magic):
            import bz2
            import gzip
            import lzma

            source = io.BufferedReader(stream)
            inner: Any = (gzip.GzipFile(fileobj=source, mode="rb") if kind == "gzip"
                          else bz2.BZ2File(source, mode="rb") if kind == "bz2" else lzma.LZMAFile(source, mode="rb"))
            try:
                head = _head(inner)
            except (OSError, EOFError, lzma.LZMAError) as err:
                stream.close()
                raise NotText(f"{name}: the {kind} data is cut short or corrupt ({err})") from None
            stream = _Replay(head, inner, close_rest=True, what=f"{name}: the {kind} data")
            break
    if _is_binary(head):
        if owned:
            stream.close()
        raise NotText(f"{name}: binary data, not text records (records compressed with gzip, bzip2 or xz "
                      f"are read)")
    text = io.TextIOWrapper(io.BufferedReader(stream), encoding="utf-8", errors="replace", newline=None)
    return RecordFile(text, raw, size, owned)


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
    for i, line in enumerate(source_lines(chunk.text)):
        m = _TAG_TEXT.match(line)
        if not m:
            if _movetext_only(line):
                return  # the tag section is over: what follows is movetext (or a comment)
            continue
        if m.group(1) == stop_at:
            return
        yield Tag(m.group(1), unescape(m.group(2)), chunk.line + i, m.start(2) + 1, m.start(1) + 1)


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


def visible(text: str) -> str:
    """``text`` safe to echo on a terminal: control characters (C0, DEL, C1), bidirectional
    controls and line or paragraph separators as escapes (``\\x1b``, ``\\u202e``), a tab
    as one space; everything else as it is."""
    return _INVISIBLE.sub(_escape, text)


_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def _escape(m: re.Match[str]) -> str:
    ch = m.group(0)
    if ch == "\t":
        return " "
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def caret_line(source: str, column: int | None) -> str:
    """The offending line, made safe to echo (:func:`visible`), and a caret under the
    column (1-based, counted in characters) however wide the characters before it are
    on a terminal."""
    raw = source.rstrip("\r\n")
    text = visible(raw)
    if column is None:
        return text
    before = visible(raw[: max(column, 1) - 1])
    return f"{text}\n{' ' * width(before)}^"
