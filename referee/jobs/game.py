"""What a game tells the generic jobs: the one interface every job works through.

Each game's folder (``referee/games/<name>/``) builds one :class:`Game` in its ``game``
module; :mod:`referee.jobs.registry` lists those modules, one line per game. validate,
annotate, explain, analyse, show, solve, selfplay, the service and the CLI's choices
know a game only through this object and never name one.

Fields that are heavy to import (the solver, the renderer pieces, the live referee) are
given as module paths and loaded on first use, so that ``pitboss --help`` and a plain
``validate`` never import z3.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from referee.jobs.listener import Listener


def lazy(path: str) -> Callable[..., Any]:
    """A function given as ``"module:name"``, imported on its first call: a game's object
    can name its reader, referee and writers without importing them (``pitboss --help``
    imports no grammar)."""
    module, _, name = path.partition(":")
    found: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(getattr(importlib.import_module(module), name))
        return found[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{path}, imported when first called."
    return call


@dataclass(frozen=True)
class Foreign:
    """A whole-file format of a game other than its own notation (a UEC contest-server
    log): recognised by the file's first non-blank line, read as a series of records."""

    name: str
    #: As a user calls it ("a UEC contest-server log").
    title: str
    #: Does this first line (BOM removed) start such a file?
    sniff: Callable[[str], bool]
    #: The file's lines (and its name) to reports, one per record of the format.
    validate: Callable[[Iterable[str], str], Iterator[Any]]
    #: File endings it is written with (what a folder given to validate is searched for).
    extensions: tuple[str, ...] = ()
    #: The module that writes such a file in the game's notation (its ``records(lines,
    #: file)`` yields the text piece by piece), loaded on first use; None: it cannot be.
    convert: str | None = None
    #: Can that module also write the game's records in this format (``write_records``)?
    writes: bool = False

    def converted(self, lines: Iterable[str], file: str) -> Iterator[str]:
        """The file in the game's notation, piece by piece. Raises LookupError when the
        format has no converter."""
        if self.convert is None:
            raise LookupError(f"{self.title} cannot be written in another notation")
        yield from importlib.import_module(self.convert).records(lines, file)

    def written(self, lines: Iterable[str], file: str, record: int | None = None) -> str:
        """The game's records (the only one, or number ``record``) in this format. Raises
        LookupError when the format cannot be written, ValueError saying why a record
        cannot be."""
        if self.convert is None or not self.writes:
            raise LookupError(f"{self.title} cannot be written from records")
        return importlib.import_module(self.convert).write_records(self.name, lines, file, record)


@dataclass(frozen=True)
class Comparison:
    """A setting annotate judges a record under beside its own, or (``setting`` None) why
    one is not compared. ``toggle_only``: a single option toggled, kept only when it
    changes the verdict on some move."""

    setting: Any
    why_not: str | None = None
    toggle_only: bool = False


@dataclass(frozen=True)
class Settings:
    """A game's rule sets and options as data selected by name (``fnv``,
    ``seed +spade3 -eight-cut``)."""

    #: Text -> setting; ValueError saying what is wrong.
    parse: Callable[[str], Any]
    #: Setting -> its name in comments and JSON (``seed +eight-cut``).
    label: Callable[[Any], str]
    #: Record -> the setting its tags name, or None when they do not read.
    declared: Callable[[Any], Any]
    #: (the record's own setting, record) -> what else to judge it under by default.
    comparisons: Callable[[Any, Any], Sequence[Comparison]]
    #: Position -> what two replays under different settings must share to be in the same position.
    position_key: Callable[[Any], Any]
    #: (setting, option name as spec/ writes it) -> the option's value (None: no such option).
    option: Callable[[Any, str], Any] = lambda setting, name: None


@dataclass(frozen=True)
class Game:
    #: The ``Game`` tag's value, lower case (``caravan``); also the CLI's and the API's name.
    name: str
    #: As players write it (``Caravan``).
    title: str
    #: The record notation (``CVN``) and the file endings it is written with.
    notation: str
    extensions: tuple[str, ...]
    #: Rule-set (preset) names, the default first.
    rule_sets: tuple[str, ...]
    settings: Settings
    #: The engine: a module (or object) with ``check``, ``apply``, ``legal_moves`` and the
    #: functions :mod:`referee.jobs.replay` names.
    engine: Any
    #: Chunk, file name, index -> the game's record (errors as values, never raises).
    read: Callable[..., Any]
    #: A record -> every move it holds, as read, in file order (all rounds together).
    moves: Callable[[Any], Sequence[Any]]
    #: (record, report, setting or None) -> the record's plan for the one replay
    #: (``referee.jobs.replay``): tag checks, each segment to play, the result.
    plan: Callable[..., Any]
    #: (position before, move, position after) -> the ids of the rules that decided a
    #: legal move, the engine's own account (what ``explain`` and annotate cite).
    allowed: Callable[[Any, Any, Any], Sequence[str]]
    #: A position -> the ids of the rules that brought it about without a move of its own
    #: (a start position already over; a counted illegal move).
    set_off: Callable[[Any], Sequence[str]]
    #: ``pitboss selfplay``: its maker and options (a ``referee.jobs.selfplay.SelfPlay``).
    selfplay: Any = None
    #: What ``pitboss solve`` can ask of this game's positions (answered by its ``solve`` part).
    questions: tuple[Any, ...] = ()
    #: The options those questions take (``referee.jobs.questions.QuestionOption``).
    question_options: tuple[Any, ...] = ()
    #: What ``annotate --analyse`` says of a move, in a sentence for ``--help``.
    analysis: str = ""
    #: Command lines for ``pitboss --help`` (each runs on files a user may have).
    examples: tuple[str, ...] = ()
    #: Does a move's text name who made it (``Aki: 3D``)? Else the jobs say whose it was.
    moves_name_mover: bool = True
    #: Are the players numbered (Caravan's 1 and 2) rather than named? Sentences say the
    #: two differently in some languages ("1. játékos", "Chie játékos").
    numbered_players: bool = False
    #: Formats read whole-file (contest logs).
    foreign: tuple[Foreign, ...] = ()
    #: Tag names that open a new tag section inside a record (Daifugo's ``Round``).
    section_tags: frozenset[str] = frozenset()
    #: Spec files (under spec/) that hold this game's rules.
    spec_files: tuple[str, ...] = ()
    #: Protocols its clients speak beside the HTTP service (``pitboss serve --NAME PORT``).
    listeners: tuple[Listener, ...] = ()
    #: Lazily loaded parts: attribute name -> module path.
    parts: dict[str, str] = field(default_factory=dict)

    def new_report(self, record: Any) -> Any:
        """An empty verdict on a read record, with its reader's findings."""
        from referee.jobs.report import GameReport

        report = GameReport(record.file, record.index, self.name, None, line=record.line)
        report.errors.extend(record.errors)
        report.warnings.extend(record.warnings)
        return report

    @property
    def default_rules(self) -> str:
        return self.rule_sets[0]

    def part(self, name: str) -> ModuleType:
        """A lazily imported part of the game (``solve``, ``render``, ``selfplay``,
        ``live``, ...). Raises LookupError when the game has no such part."""
        path = self.parts.get(name)
        if path is None:
            raise LookupError(f"{self.title} has no {name}")
        return importlib.import_module(path)

    def has(self, name: str) -> bool:
        return name in self.parts
