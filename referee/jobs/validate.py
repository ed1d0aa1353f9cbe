"""``pitboss validate``: files in, one report per record out, streamed.

A file is read line by line and cut into records (or, for a UEC contest-server log, into
its games); each record is read by its game's reader and judged by its game's referee.
Nothing is held beyond the record being judged, so memory stays flat however long the
file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import TextIO

from referee.engines.message import J, T, said
from referee.jobs import registry
from referee.jobs.game import Foreign, Setting
from referee.jobs.replay import replay
from referee.jobs.report import GameReport
from referee.notation.records import (
    Chunk,
    Finding,
    open_text,
    source_lines,
    split_records,
    text_lines,
)


@dataclass
class Summary:
    """What a validate run adds up to: records, their verdicts, and their findings."""

    games: int = 0
    valid: int = 0
    invalid: int = 0
    plies: int = 0
    errors: int = 0
    warnings: int = 0
    #: Valid records with at least one warning (what ``--strict`` fails).
    warned: int = 0
    #: Findings per rule id: rule -> [errors, warnings].
    by_rule: dict[str, list[int]] = field(default_factory=dict)
    #: Inputs that could not be read: (name, why).
    unread: list[tuple[str, str]] = field(default_factory=list)

    def add(self, report: GameReport) -> None:
        self.games += 1
        self.plies += report.plies
        if report.valid:
            self.valid += 1
            if report.warnings:
                self.warned += 1
        else:
            self.invalid += 1
        self.errors += len(report.errors)
        self.warnings += len(report.warnings)
        for kind, findings in ((0, report.errors), (1, report.warnings)):
            for f in findings:
                self.by_rule.setdefault(f.rule, [0, 0])[kind] += 1

    def failed(self, strict: bool = False) -> bool:
        """Did a record fail: one invalid, or (``strict``) one with a warning?"""
        return bool(self.invalid or strict and self.warned)

    def to_json(self, statistics: bool = False) -> dict:
        out: dict = {"games": self.games, "valid": self.valid, "invalid": self.invalid,
                     "errors": self.errors, "warnings": self.warnings}
        if self.unread:
            out["unread"] = [{"file": name, "reason": why} for name, why in self.unread]
        if statistics:
            out["statistics"] = {rule: {"errors": e, "warnings": w} for rule, (e, w) in sorted(self.by_rule.items())}
        return out


def split(lines: Iterable[str], first_line: int = 1) -> Iterator[Chunk]:
    """The records of a file in its games' own notations (``records.split_records``, told
    which tags open a tag section inside a record of each game)."""
    return split_records(lines, first_line, registry.section_tags())


#: Settings chosen by name (``--rules``), each the setting of its game: game name -> setting.
Choices = dict[str, Setting]


def parse_settings(texts: Iterable[str]) -> Choices:
    """``--rules`` values (``fnv``, ``classic +spade3 -eight-cut``) as each game's setting:
    game name -> setting. A text is the setting of every game whose settings parse it
    (rule-set names differ between games); one no game takes raises ValueError with each
    game's reason."""
    out: Choices = {}
    for text in texts:
        reasons = []
        taken = False
        for game in registry.games():
            try:
                setting = game.settings.get().parse(text)
            except ValueError as err:
                reasons.append(said(err))
                continue
            if game.name in out:
                raise ValueError(T("two settings for {game}: give --rules once per game", game=game.title))
            out[game.name] = setting
            taken = True
        if not taken:
            raise ValueError(T("--rules {text}: {reasons}", text=repr(text), reasons=J("; ", reasons)))
    return out


def judge_chunk(chunk: Chunk, file: str, index: int, settings: Choices | None = None) -> GameReport:
    """One record's verdict; ``settings`` (game name -> setting, see :func:`parse_settings`)
    judges a game's records under that setting instead of their own rules."""
    if chunk.findings:  # over a size limit: not read (not even for its Game tag)
        report = GameReport(file, index, chunk.game, None, errors=list(chunk.findings), line=chunk.line)
        attach_sources(report, chunk)
        return report
    kind = registry.find(chunk.game)
    if kind is None:
        if chunk.game is None:
            message = T("the record has no {tag} tag; say which game it is ({games})", tag='[Game "..."]',
                        games=" or ".join(f'"{g.title}"' for g in registry.games()))
        else:
            message = T("unknown game {game}; pitboss knows {games}", game=repr(chunk.game),
                        games=", ".join(g.title for g in registry.games()))
        line, column = _game_tag_place(chunk)
        finding = Finding("notation.tag.game", message, line, column)
        report = GameReport(file, index, chunk.game, None, errors=[finding], line=chunk.line)
        attach_sources(report, chunk)
        return report
    report = replay(kind, kind.notation.read(chunk, file, index), setting=(settings or {}).get(kind.name))
    attach_sources(report, chunk)
    return report


def _game_tag_place(chunk: Chunk) -> tuple[int, int]:
    """Where the Game tag's value stands, or the record's first tag when it has none."""
    first: tuple[int, int] | None = None
    for i, text in enumerate(source_lines(chunk.text)):
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
            lines = lines if lines is not None else source_lines(chunk.text)
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


def validate_lines(lines: Iterable[str], file: str, settings: Choices | None = None) -> Iterator[GameReport]:
    """Every record of a file given as lines (a contest log is recognised by its first
    line; ``settings`` applies to records in a game's own notation, a log's rules are
    its header's)."""
    stream, foreign = sniff(lines)
    if foreign is not None:
        yield from foreign.validate(stream, file)
        return
    for index, chunk in enumerate(split(stream), start=1):
        yield judge_chunk(chunk, file, index, settings)


def validate_file(path: str | Path, stdin: TextIO | None = None,
                  settings: Choices | None = None) -> Iterator[GameReport]:
    """Reports for each record of a file (``-`` is standard input; gzip, bzip2 and xz
    are read transparently). Raises OSError if the file cannot be opened or is binary
    (:class:`referee.notation.records.NotText`)."""
    name = "<stdin>" if str(path) == "-" else str(path)
    handle = open_text(path, stdin)
    try:
        yield from validate_lines(handle, name, settings)
    finally:
        handle.close()


def validate_text(text: str, file: str = "<text>", settings: Choices | None = None) -> list[GameReport]:
    """Every record of a text (lines counted as in a file: LF, CRLF or CR)."""
    return list(validate_lines(text_lines(text), file, settings))


#: Endings of compressed files read transparently.
COMPRESSED = (".gz", ".bz2", ".xz")


def record_extensions() -> tuple[str, ...]:
    """The file endings a folder is searched for: each game's notation and whole-file
    formats, plain or compressed."""
    plain = [e for g in registry.games() for e in (*g.notation.extensions,
                                                   *(x for f in g.foreign for x in f.extensions))]
    return tuple(plain + [e + c for e in plain for c in COMPRESSED])


def expand_inputs(paths: Iterable[str]) -> Iterator[str]:
    """The inputs named on a command line: a folder is every record file under it
    (recursively, by :func:`record_extensions`, in sorted order; hidden entries skipped);
    anything else (``-``, a file, a FIFO, ``/dev/stdin``, a name that does not exist) as
    given, for opening to report on."""
    endings = record_extensions()
    for path in paths:
        if path != "-" and Path(path).is_dir():
            found: list[str] = []
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(str(Path(root) / f) for f in files
                             if not f.startswith(".") and f.lower().endswith(endings))
            yield from sorted(found)
        else:
            yield path

