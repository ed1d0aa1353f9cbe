"""Pitboss, the rules referee, as a Python library: a thin face over the ``referee``
package (the engines, readers, replay and solver the ``pitboss`` command uses).

Reading and judging records::

    import pitboss

    for report in pitboss.validate_text(text):      # or pitboss.validate_file(path)
        print(report.index, report.valid, [f.rule for f in report.errors])

    record = pitboss.read_text(text)[0]             # a game's record, as read
    report = pitboss.replay(record)                 # its verdict (as validate gives it)

The games and their engines: ``pitboss.games()``, ``pitboss.game(name)`` (``.engine``
has ``check``, ``apply`` and ``legal_moves``). Questions about positions:
``pitboss.solve(path, question, ...)``. In another language: ``pitboss.translate(message,
lang)``, ``pitboss.localize(doc, lang)``, ``pitboss.LANGUAGES``. See docs/api.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from referee import __version__
from referee.i18n import LANGUAGES, localize
from referee.i18n import tr as translate
from referee.jobs.registry import find, game, games
from referee.jobs.report import GameReport
from referee.jobs.validate import parse_settings, split, validate_file, validate_lines, validate_text
from referee.notation.records import Finding, NotText, Record, open_text, text_lines

__all__ = [
    "Finding", "GameReport", "LANGUAGES", "NotText", "Record", "__version__", "find", "game", "games",
    "localize", "open_text", "parse_settings", "read_lines", "read_text", "replay", "solve", "translate",
    "validate_file", "validate_lines", "validate_text",
]


def read_lines(lines: Iterable[str], file: str = "<text>") -> list[Record]:
    """Every record of a file's lines, read by its game's reader (findings as values,
    never raised). A record of no known game has no reader: it is left out (validate
    reports it)."""
    out = []
    for index, chunk in enumerate(split(lines), start=1):
        kind = find(chunk.game)
        if kind is not None and not chunk.findings:
            out.append(kind.notation.read(chunk, file, index))
    return out


def read_text(text: str, file: str = "<text>") -> list[Record]:
    """Every record of a text (lines counted as in a file: LF, CRLF or CR)."""
    return read_lines(text_lines(text), file)


def replay(record: Record, rules: str | None = None) -> GameReport:
    """A read record's verdict: its reader's findings, then its moves replayed by its
    game's engine (under ``rules``, a setting as ``--rules`` takes it, when given)."""
    from referee.jobs.replay import replay as run

    kind = game(record.game or "")
    setting = kind.settings.get().parse(rules) if rules is not None else None
    return run(kind, record, setting=setting)


def solve(path: str | Path, question: str, *, game: int = 1, ply: int | None = None,
          round: int | None = None, rules: str | None = None, method: str = "auto",
          timeout: float | None = 10.0, **options: Any) -> Any:
    """Ask ``question`` (``pitboss solve --question``) about the position of record
    ``game`` of a file after ``ply`` moves; ``options`` are the question's own (``caravan``,
    ``within``, ``player``, ...). Returns the answer (``.answer``: yes, no or unknown;
    ``.witness``, ``.reason``, ``.stats``; ``.to_json()``). Raises
    ``referee.jobs.solve.QuestionError`` for a question the position cannot be asked,
    ``referee.jobs.solve.positions.UsageError`` for a missing record, and
    ``PositionError`` for an invalid position."""
    from referee.jobs.solve.ask import Options, ask
    from referee.jobs.solve.positions import load_position

    settings = parse_settings([rules]) if rules is not None else None
    position = load_position(str(path), game, ply, round, settings)
    return ask(position, question, Options(method=method, timeout=timeout, **options))
