"""Loading the Lark grammars of grammar/ and turning Lark's errors into findings."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from pathlib import Path

# Python's own parser of regular expressions: how a terminal's pattern ends is read from
# its parse, not guessed from its text.
from re import _constants as sre_constants
from re import _parser as sre_parse
from typing import Any

import lark
from lark import Lark, Transformer
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)
from lark.lark import _LOAD_ALLOWED_OPTIONS
from lark.lexer import PatternRE, TerminalDef

from referee.engines.message import J, M, T
from referee.notation.records import Finding, source_lines, visible
from referee.resources import data_dir

#: What a terminal every notation shares is called in a message for a player (each
#: notation's reader names its own terminals).
TERMINAL_NAMES = {
    "CARD": M("a card"),
    "MOVE_NUMBER": M("a move number"),
    "RESULT": M("a result (1-0, 0-1, *)"),
    "GLYPH": M("an annotation glyph"),
    "NAG": M("a $N annotation"),
    "TAG_NAME": M("a tag name"),
    "TAG_VALUE": M('a quoted tag value such as "2"'),
    "LSQB": "'['",
    "RSQB": "']'",
    "$END": M("the end of the record"),
}


@cache
def load(name: str, start: tuple[str, ...] = ("start",), transformer: type[Transformer] | None = None,
         folder: Path | None = None) -> Lark:
    """An LALR parser for ``grammar/<name>.lark`` (strict: terminals may not collide), or
    for ``<folder>/<name>.lark`` (a game that keeps its grammar in its own folder).

    Building one is slow (most of it Lark's strict collision check), so a built
    parser is kept in the per-user cache (:func:`cache_dir`) under a name that carries a
    digest of every grammar file, the options, Lark's version and Python's: a changed
    grammar or an upgraded Lark is never served a stale parser. The grammar file stays the
    one definition; the cache is only its compiled form, and is rebuilt whenever missing,
    unreadable or unwritable (then the parser is simply built each time).
    """
    path = (folder or data_dir("grammar")) / f"{name}.lark"
    built: dict[str, Any] = {"parser": "lalr", "strict": True, "start": list(start), "maybe_placeholders": False,
                             "edit_terminals": possessive_tail}
    # What is given again when a saved parser is loaded (Lark does not save these).
    given: dict[str, Any] = {"propagate_positions": True, "transformer": transformer() if transformer else None}
    target = _cache_file(name, start, folder)
    if target is not None:
        try:
            with open(target, "rb") as f:
                # Lark's own loader, as its cache= option uses it: the saved tables and the
                # options above, with the transformer and positions given again.
                return Lark.__new__(Lark)._load(f, **given)
        except FileNotFoundError:
            pass
        except Exception:
            with suppress(OSError):
                target.unlink()
    parser = Lark.open(str(path), **built, **given)
    if target is not None:
        _save(parser, target)
    return parser


def possessive_tail(terminal: TerminalDef) -> None:
    """Make a terminal's trailing greedy repetition possessive (``(...)*`` -> ``(...)*+``).

    A terminal that lexes a run whole (``TAGS: TAG (_BLANK TAG)*``, a run of moves) ends in
    a repeated group, and Python's regular expressions keep a backtracking frame for every
    repetition of a group: matching such a run held memory many times its length. Nothing
    follows the repetition inside the terminal, so the greedy match is the first one found
    and is never backtracked into: the possessive form matches exactly the same text, in
    constant memory (and faster).
    """
    pattern = terminal.pattern
    if isinstance(pattern, PatternRE):
        edited = possessive(pattern.value)
        if edited != pattern.value:
            terminal.pattern = PatternRE(edited, pattern.flags, pattern.raw)


def possessive(regexp: str) -> str:
    """``regexp`` with its trailing greedy, unbounded repetition made possessive (as
    :func:`possessive_tail` makes a terminal's), else unchanged."""
    return regexp + "+" if regexp.endswith(("*", "+")) and _ends_in_greedy_repeat(regexp) else regexp


def _ends_in_greedy_repeat(regexp: str) -> bool:
    """Does ``regexp`` end in a greedy, unbounded repetition (``*`` or ``+``)?"""
    items = sre_parse.parse(regexp)
    if not len(items):
        return False
    op, arg = items[-1]
    return op is sre_constants.MAX_REPEAT and arg[1] is sre_constants.MAXREPEAT


def _save(parser: Lark, target: Path) -> None:
    """Write the parser into a file of this process's own, then rename it into place whole:
    parallel workers starting together never read a half-written cache."""
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        with open(part, "wb") as f:
            parser.save(f, exclude_options=_LOAD_ALLOWED_OPTIONS)
        os.replace(part, target)
    except OSError:
        with suppress(OSError):
            part.unlink()
        return
    _prune(target)


def cache_dir() -> Path | None:
    """Where compiled parsers are kept: ``$PITBOSS_CACHE_DIR``, else ``$XDG_CACHE_HOME/pitboss``,
    else ``~/.cache/pitboss``; ``PITBOSS_CACHE_DIR=""`` (or a folder that cannot be made)
    turns the cache off."""
    configured = os.environ.get("PITBOSS_CACHE_DIR")
    if configured is not None:
        if not configured:
            return None
        root = Path(configured)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "pitboss"
    folder = root / "lark"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK | os.R_OK) else None


#: What :func:`possessive_tail` does to a grammar's terminals (part of a cached parser's name).
_EDITS = "possessive-tail-1"


@cache
def _grammar_digest(folder: Path | None = None) -> str:
    """A digest of every grammar file of the folder (``%import`` reaches a file's
    siblings), of the folder itself, and of the Lark and Python versions that compile them."""
    digest = hashlib.sha256()
    for part in (lark.__version__, sys.version.split()[0], _EDITS, *([str(folder)] if folder else [])):
        digest.update(part.encode() + b"\0")
    for file in sorted((folder or data_dir("grammar")).glob("*.lark")):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def _cache_file(name: str, start: tuple[str, ...], grammars: Path | None = None) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    files = _grammar_digest(grammars) if grammars else _grammar_digest()
    digest = hashlib.sha256(f"{name}\0{','.join(start)}\0{files}".encode()).hexdigest()
    return folder / f"{name}-{'-'.join(start)}-{digest[:24]}.lark.pickle"


def derived(kind: str, key: str, make: Callable[[], str]) -> str:
    """A text computed from the grammar files (a terminal's regular expression with its
    pieces captured, say): computed once with ``make`` and kept in the cache beside the
    parsers, under the same digest, so that a start needs no grammar compiled."""
    folder = cache_dir()
    if folder is None:
        return make()
    label = hashlib.sha256(f"{kind}\0{key}".encode()).hexdigest()[:16]
    digest = hashlib.sha256(f"{kind}\0{key}\0{_grammar_digest()}".encode()).hexdigest()[:24]
    target = folder / f"{kind}-{label}-{digest}.lark.txt"
    try:
        return target.read_bytes().decode("utf-8")  # bytes: no newline is translated
    except (OSError, UnicodeDecodeError):
        pass
    text = make()
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        part.write_bytes(text.encode("utf-8"))
        os.replace(part, target)
    except OSError:
        with suppress(OSError):
            part.unlink()
        return text
    _prune(target)
    return text


def _prune(kept: Path) -> None:
    """Remove what this file replaces (the same parser or text, older digests)."""
    stem, ending = kept.name.split(".", 1)
    prefix = stem.rsplit("-", 1)[0] + "-"
    for old in kept.parent.glob(f"{prefix}*.{ending}"):
        if old != kept and old.name.split(".", 1)[0].rsplit("-", 1)[0] + "-" == prefix:
            with suppress(OSError):
                old.unlink()


def describe_expected(expected: set[str] | frozenset[str], names: dict[str, str] | None = None) -> str:
    table = {**TERMINAL_NAMES, **(names or {})}
    words = sorted({table.get(t, t.lower()) for t in expected if not t.startswith("__")})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["..."]
    said = set(table.values())  # the names are marked (M): said in the reader's language
    return T("expected {words}", words=J(", ", (T(w) if w in said and "{" not in w else w for w in words)))


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def syntax_finding(err: UnexpectedInput, text: str, line_offset: int,
                   names: dict[str, str] | None = None, rule: str = "notation.syntax") -> Finding:
    """A syntax error as a finding at its place in the file (``line_offset`` = the line the
    parsed text starts on, minus one)."""
    line = getattr(err, "line", None)
    column = getattr(err, "column", None)
    what: str
    if isinstance(err, UnexpectedCharacters):
        # Lark declares pos_in_stream None on its base class, but UnexpectedCharacters
        # always sets it to the lexer's int position.
        pos: int = err.pos_in_stream  # type: ignore[assignment]  # an int here, see above
        if pos < len(text) and text[pos] == "{" and "}" not in text[pos:]:
            lines = source_lines(text)
            source = lines[line - 1] if isinstance(line, int) and 0 < line <= len(lines) else ""
            return Finding("notation.comment.unclosed", T("this {{ comment is never closed: it runs to the end of the "
                                                          "record (the next record starts at the next [Game tag)"),
                           err.line + line_offset, column,
                           source=source)
        what = T("unexpected {text}", text=visible(repr(text[pos]))) if pos < len(text) else T("unexpected text")
        expected = describe_expected(err.allowed or set(), names)
    elif isinstance(err, UnexpectedToken):
        tok = err.token
        what = (T("unexpected end of record") if tok.type == "$END"
                else T("unexpected {text}", text=visible(repr(_short(str(tok))))))
        expected = describe_expected(err.expected or set(), names)
    elif isinstance(err, UnexpectedEOF):
        what = T("unexpected end of record")
        expected = describe_expected(set(err.expected or ()), names)
        line = line if isinstance(line, int) and line > 0 else text.count("\n") + 1
    else:  # pragma: no cover - Lark has no other kinds
        what, expected = str(err), ""
    if not isinstance(line, int) or line < 1:
        line, column = text.count("\n") + 1, 1
    lines = source_lines(text)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    message = T("{what}; {expected}", what=what, expected=expected) if expected else what
    return Finding(rule, message, line + line_offset, column, source=source)
