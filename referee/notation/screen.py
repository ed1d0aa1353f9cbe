"""Text on a screen, in every language: the one measure of how many columns a text takes
(wcwidth's, which every text output uses), the width to wrap at, and text wrapped to it.

- :func:`width`: the columns a text takes on a terminal: an East Asian wide or fullwidth
  character two, a combining mark and a colour escape none (wcwidth).
- :func:`columns`: the width to wrap at: the terminal's when standard output is one,
  otherwise :data:`WIDTH` (80).
- :func:`wrap`: a paragraph in lines of at most that many columns. A line breaks at a space,
  or between two wide characters (Chinese and Japanese write no spaces), never before a
  closing mark (``。``, ``、``, ``）``, ...) nor after an opening one (``（``, ``「``, ...).
- :func:`fit`: a block of output lines, each line too wide for the screen wrapped.
- :func:`wrap_words`: movetext words in lines the same way; only the words of a ``{ }``
  comment break between wide characters (a move or a player's name never breaks).
- :func:`flow`: lines joined back into one paragraph: a space where a line broke, none
  between two wide characters, so that wrapping and flowing give the text back.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable, Iterator
from itertools import repeat
from typing import TextIO

from wcwidth import wcwidth as _char_cells
from wcwidth import width as _cells

#: The width text is wrapped at when standard output is not a terminal.
WIDTH = 80

#: The narrowest a terminal is taken to be (a narrower one still gets lines this wide).
NARROWEST = 20

#: Marks that never start a line (closing brackets and punctuation, small kana, the long
#: vowel mark), and marks that never end one (opening brackets): the common line-breaking
#: rules of Chinese and Japanese.
NO_START = frozenset("、。，．・：；？！）」』】〕〉》］｝〟’”ー…‥々〻ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
NO_END = frozenset("（「『【〔〈《［｛〝‘“")


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal (colour escapes take none)."""
    return max(0, _cells(text))


def pad(text: str, columns: int) -> str:
    """``text`` followed by spaces up to ``columns`` columns."""
    return text + " " * max(0, columns - width(text))


def columns(stream: TextIO | None = None) -> int:
    """The width to wrap at: the terminal's when ``stream`` (standard output by default)
    is one, otherwise 80."""
    stream = sys.stdout if stream is None else stream
    try:
        if stream.isatty():
            return max(NARROWEST, shutil.get_terminal_size((WIDTH, 24)).columns)
    except (AttributeError, ValueError, OSError):
        pass
    return WIDTH


def _wide(ch: str) -> bool:
    return _char_cells(ch) == 2


def _breaks_between(before: str, after: str) -> bool:
    return _wide(before) and _wide(after) and before not in NO_END and after not in NO_START


def pieces(word: str) -> list[str]:
    """``word`` (no spaces) cut where a line may break inside it: between two wide
    characters, the line-breaking marks kept with their neighbours."""
    out: list[str] = []
    start = 0
    for i in range(1, len(word)):
        if _breaks_between(word[i - 1], word[i]):
            out.append(word[start:i])
            start = i
    out.append(word[start:])
    return out


def flow(text: str) -> str:
    """``text``'s lines as one paragraph, each run of spaces one space: lines joined by a
    space, except between two wide characters (where a line broke without one)."""
    out = ""
    for line in text.splitlines():
        words = " ".join(line.split())
        if not words:
            continue
        if out and not (_wide(out[-1]) and _wide(words[0])):
            out += " "
        out += words
    return out


def wrap(text: str, columns: int = WIDTH, indent: str = "", subsequent: str | None = None) -> list[str]:
    """``text`` (one paragraph) in lines of at most ``columns`` columns, the first after
    ``indent`` and the others after ``subsequent`` (``indent`` by default). A word wider
    than a whole line is cut where it must be."""
    subsequent = indent if subsequent is None else subsequent
    lines: list[str] = []
    line, room = indent, columns - width(indent)
    fresh = True  # nothing on the line yet but its indent
    for sep, piece in _paragraph_pieces(text):
        if fresh:
            sep = ""
        need = width(sep) + width(piece)
        if need > room and not fresh:
            lines.append(line)
            line, room, fresh, sep = subsequent, columns - width(subsequent), True, ""
            need = width(piece)
        while need > room and fresh and len(piece) > 1:  # wider than a whole line
            cut = _fit(piece, room)
            lines.append(line + piece[:cut])
            line, room, piece = subsequent, columns - width(subsequent), piece[cut:].lstrip(" ")
            need = width(piece)
        line += sep + piece
        room -= need
        fresh = False
    if not fresh or not lines:
        lines.append(line)
    return [ln.rstrip() for ln in lines]


def _paragraph_pieces(text: str) -> list[tuple[str, str]]:
    """(separator, piece) for each place a line may break: spaces between words, and
    :func:`pieces` inside them. A space between two wide characters is no place to break
    (flowing the lines back could not tell it from a break without one): it stays inside
    a piece."""
    out: list[tuple[str, str]] = []
    for word in text.split():
        for k, piece in enumerate(pieces(word)):
            if k == 0 and out and _wide(out[-1][1][-1]) and _wide(piece[0]):
                out[-1] = (out[-1][0], f"{out[-1][1]} {piece}")
            else:
                out.append((" " if k == 0 else "", piece))
    return out


def fit(text: str, columns: int = WIDTH) -> str:
    """A block of output lines with each line wider than ``columns`` wrapped (:func:`wrap`),
    its continuation lines as indented as it is; narrower lines (a drawing's) as they are."""
    out: list[str] = []
    for line in text.split("\n"):
        if width(line) <= columns:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        out += wrap(line[len(indent):], columns, indent)
    return "\n".join(out)


def _fit(piece: str, room: int) -> int:
    """How many characters of ``piece`` fit in ``room`` columns (at least one)."""
    used = 0
    for i, ch in enumerate(piece):
        used += width(ch)
        if used > room:
            return max(1, i)
    return len(piece)


def wrap_words(words: Iterable[str], columns: int = WIDTH, separator: str | Iterable[str] = " ") -> list[str]:
    """Movetext words joined into lines of at most ``columns`` columns (a longer word gets a
    line of its own). ``separator`` goes between words: one string, or one per word (the one
    before it). The words of a ``{ }`` comment may also break between two wide characters
    (a line of Chinese or Japanese has no spaces), where nothing is written between them."""
    seps = repeat(separator) if isinstance(separator, str) else iter(separator)
    lines: list[str] = []
    current = ""
    used = 0
    for piece, sep in _movetext_pieces(words, seps):
        need = width(piece)
        if current and used + width(sep) + need > columns:
            lines.append(current)
            current, used = piece, need
        elif current:
            current += sep + piece
            used += width(sep) + need
        else:
            current, used = piece, need
    if current:
        lines.append(current)
    return lines


def _movetext_pieces(words: Iterable[str], seps: Iterator[str]) -> Iterator[tuple[str, str]]:
    """(piece, separator before it): a comment's words cut into :func:`pieces`, those after
    the first of a word with no separator."""
    in_comment = False
    for word, sep in zip(words, seps):
        opens = word.startswith("{")
        if (in_comment or opens) and any(_wide(ch) for ch in word):
            for k, piece in enumerate(pieces(word)):
                yield piece, sep if k == 0 else ""
        else:
            yield word, sep
        if opens or in_comment:
            in_comment = not word.endswith("}")
