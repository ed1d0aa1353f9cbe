"""``pitboss validate``: files in, one report per record out, streamed.

A file is read line by line and cut into records (or, for a UEC contest-server log, into
its games); each record is read by its game's reader and judged by its game's referee.
Nothing is held beyond the record being judged, so memory stays flat however long the
file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import TextIO

from referee.jobs import registry
from referee.jobs.game import Foreign
from referee.jobs.replay import replay
from referee.jobs.report import GameReport
from referee.notation.records import Chunk, Finding, open_text, split_records


@dataclass
class Summary:
    games: int = 0
    valid: int = 0
    invalid: int = 0
    plies: int = 0

    def add(self, report: GameReport) -> None:
        self.games += 1
        self.plies += report.plies
        if report.valid:
            self.valid += 1
        else:
            self.invalid += 1

    def to_json(self) -> dict:
        return {"games": self.games, "valid": self.valid, "invalid": self.invalid}


def split(lines: Iterable[str], first_line: int = 1) -> Iterator[Chunk]:
    """The records of a file in its games' own notations (``records.split_records``, told
    which tags open a tag section inside a record of each game)."""
    return split_records(lines, first_line, registry.section_tags())


def judge_chunk(chunk: Chunk, file: str, index: int) -> GameReport:
    kind = registry.find(chunk.game)
    if kind is None:
        if chunk.game is None:
            message = ('the record has no [Game "..."] tag; say which game it is ('
                       + " or ".join(f'"{g.title}"' for g in registry.games()) + ")")
        else:
            message = f"unknown game {chunk.game!r}; pitboss knows {', '.join(g.title for g in registry.games())}"
        line, column = _game_tag_place(chunk)
        finding = Finding("notation.tag.game", message, line, column)
        report = GameReport(file, index, chunk.game, None, errors=[finding], line=chunk.line)
        attach_sources(report, chunk)
        return report
    report = replay(kind, kind.read(chunk, file, index))
    attach_sources(report, chunk)
    return report


def _game_tag_place(chunk: Chunk) -> tuple[int, int]:
    """Where the Game tag's value stands, or the record's first tag when it has none."""
    first: tuple[int, int] | None = None
    for i, text in enumerate(chunk.text.splitlines()):
        m = re.match(r'(\s*)\[\s*(Game)?', text, re.IGNORECASE)
        if not m:
            continue
        if m.group(2):
            quote = text.find('"')
            return chunk.line + i, (quote + 2 if quote >= 0 else len(m.group(1)) + 1)
        first = first or (chunk.line + i, len(m.group(1)) + 1)
    return first or (chunk.line, 1)


def attach_sources(report: GameReport, chunk: Chunk) -> None:
    """Give each finding its source line (for the caret display), from the record's text."""
    lines: list[str] | None = None
    for finding in report.errors + report.warnings:
        if finding.source is None and finding.line is not None:
            lines = lines if lines is not None else chunk.text.splitlines()
            i = finding.line - chunk.line
            if 0 <= i < len(lines):
                finding.source = lines[i]


def sniff(lines: Iterable[str]) -> tuple[Iterator[str], Foreign | None]:
    """The lines again, none lost, and the whole-file format that claims them by their
    first non-blank line (None: records in a game's own notation)."""
    iterator = iter(lines)
    head: list[str] = []
    for line in iterator:
        head.append(line)
        if line.strip():
            break
    first = head[-1].lstrip("\ufeff") if head else ""
    found = next((f for g in registry.games() for f in g.foreign if f.sniff(first)), None)
    return chain(head, iterator), found


def validate_lines(lines: Iterable[str], file: str) -> Iterator[GameReport]:
    """Every record of a file given as lines (a contest log is recognised by its first line)."""
    stream, foreign = sniff(lines)
    if foreign is not None:
        yield from foreign.validate(stream, file)
        return
    for index, chunk in enumerate(split(stream), start=1):
        yield judge_chunk(chunk, file, index)


def validate_file(path: str | Path, stdin: TextIO | None = None) -> Iterator[GameReport]:
    """Reports for each record of a file (``-`` is standard input). Raises OSError if the
    file cannot be opened."""
    name = "<stdin>" if str(path) == "-" else str(path)
    handle = open_text(path, stdin)
    try:
        yield from validate_lines(handle, name)
    finally:
        if handle is not stdin and str(path) != "-":
            handle.close()


def validate_text(text: str, file: str = "<text>") -> list[GameReport]:
    return list(validate_lines(text.splitlines(keepends=True), file))
