"""The contract between a game and the generic jobs: everything a game gives them, typed.

Each game's folder (``referee/games/<name>/``) builds one :class:`Game` in its ``game``
module, which :mod:`referee.jobs.registry` finds; validate, annotate, explain, analyse,
show, solve, selfplay, rules, the service and the command line know a game only through
it and never name one.

Every game gives an :class:`Engine` (its rules), a :class:`Notation` (reading and
writing its records), its :class:`Settings` (rule sets and options as data) and its
referee's plan (what one replay of a record plays). Optional parts are attributes that
are None when a game has none: a :class:`Renderer` (``show``, the replay page), a live
table (:class:`Live`, ``pitboss serve``), an :class:`Analyser` (``annotate --analyse``),
a :class:`Solver` (``pitboss solve``), a :class:`Prover` (``pitboss prove``), a
:class:`Rulebook` part (``pitboss rules``), a :class:`Disputes` part (``pitboss disputes``,
its atlas), self-play (:class:`SelfPlay`), built-in players for ``pitboss arena``
(:class:`Players`) and protocol listeners (:class:`~referee.jobs.listener.Listener`,
``pitboss serve --NAME PORT``).

What is heavy to import (a grammar, the solver and z3, the renderers, the live referee)
is loaded on first use: a :class:`Lazy` part, or a function wrapped by :func:`lazy`. Each
is given as a small function of the game's that imports it, so mypy checks what it
returns against this contract while ``pitboss --help`` and a plain ``validate`` import
none of it.

Type parameters: ``StateT`` a position (the engine's state), ``MoveT`` a move as the
engine reads it, ``RecordT`` a read record, ``SettingT`` a setting (a rule set with its
options).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Generic, ParamSpec, Protocol, TypeVar, runtime_checkable

from referee.engines.base import Violation
from referee.i18n import LANGUAGES
from referee.jobs.analysis import Limits, MoveAnalysis
from referee.jobs.certificate import Budget, Certificate
from referee.jobs.disputes.scope import Scope
from referee.jobs.frame import Frame, TablePlay
from referee.jobs.listener import Listener
from referee.jobs.live import Match
from referee.jobs.questions import Question, QuestionOption
from referee.jobs.report import GameReport
from referee.jobs.segment import Plan, Segment, Step
from referee.jobs.solve import Answer, Deadline
from referee.notation.records import Chunk, MoveEntry, Record
from referee.resources import data_dir


class Setting(Hashable, Protocol):
    """A setting a record is judged under: a rule set (or preset) and its options."""

    @property
    def name(self) -> str:
        """The rule set's (or preset's) name, as spec/ lists it in a rule's ``rulesets``."""
        ...


StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
RecordT = TypeVar("RecordT", bound=Record)
SettingT = TypeVar("SettingT", bound=Setting)
StateT_co = TypeVar("StateT_co", covariant=True)
RecordT_co = TypeVar("RecordT_co", bound=Record, covariant=True)
StateT_contra = TypeVar("StateT_contra", contravariant=True)
RecordT_contra = TypeVar("RecordT_contra", bound=Record, contravariant=True)
PartT = TypeVar("PartT")
Params = ParamSpec("Params")
Result = TypeVar("Result")


# ------------------------------------------------------------------ loading on first use


class Lazy(Generic[PartT]):
    """A part of a game loaded on first use: ``load`` (a function of the game's that
    imports the part and returns it) is called once, by :meth:`get`."""

    def __init__(self, load: Callable[[], PartT]) -> None:
        self._load = load
        self._found: list[PartT] = []

    def get(self) -> PartT:
        if not self._found:
            self._found.append(self._load())
        return self._found[0]


def lazy(load: Callable[[], Callable[Params, Result]]) -> Callable[Params, Result]:
    """A function loaded on its first call: ``load`` imports it and returns it. A game's
    object can so name its reader, referee and writers without importing them
    (``pitboss --help`` imports no grammar)."""
    found: list[Callable[Params, Result]] = []

    def call(*args: Params.args, **kwargs: Params.kwargs) -> Result:
        if not found:
            found.append(load())
        return found[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = load.__name__.lstrip("_")
    call.__doc__ = f"{call.__name__}, imported when first called."
    return call


# ------------------------------------------------------------------ the required parts


class Engine(Protocol[StateT, MoveT]):
    """A game's rules: its ``engine`` module (``referee/games/<name>/engine``), what the one
    replay (:mod:`referee.jobs.replay`) plays records with. States are immutable; rule ids
    are those of spec/."""

    __name__: str

    def check(self, state: StateT, move: MoveT, consulted: list[str] | None = None, /) -> Violation | None:
        """Why ``move`` is illegal in ``state``, or None. A list given as ``consulted``
        receives, in order, the ids of the rules that decided a legal move (asking
        changes nothing else)."""
        ...

    def apply(self, state: StateT, move: MoveT, /) -> StateT:
        """The position after a legal move (``check`` said None)."""
        ...

    def legal_moves(self, state: StateT, /) -> Iterable[MoveT]:
        """Every legal move of whoever moves in ``state``, each once."""
        ...

    def after_illegal(self, state: StateT, move: MoveT, violation: Violation, /) -> StateT | None:
        """The rules' policy on an illegal move: the position after it when they count
        it (the contest server's pass), or None: the replay stops there."""
        ...

    def effects(self, before: StateT, move: MoveT, after: StateT, /) -> Sequence[str]:
        """The ids of the rules a legal move set off on its way from ``before`` to
        ``after`` (a lane decided, an eight-cut, a revolution), in order."""
        ...

    def set_off(self, state: StateT, /) -> Sequence[str]:
        """The ids of the rules that brought ``state`` about without a move of its own: a
        start position already over, the position after a counted illegal move."""
        ...


@dataclass(frozen=True)
class Notation(Generic[MoveT, RecordT]):
    """A game's own record notation: its name, its file endings, and its reader and
    writer (loaded on first use)."""

    #: As users write it (``CVN``); its grammar is ``<name in lower case>.lark``.
    name: str
    extensions: tuple[str, ...]
    #: (chunk, file name, index in the file) -> the record, its findings as values (never raises).
    read: Callable[[Chunk, str, int], RecordT]
    #: A record -> every move it holds, as read, in file order (all rounds together).
    moves: Callable[[RecordT], Sequence[MoveEntry[MoveT]]]
    #: (record, the chunk it was read from, comments by move index, comments before the
    #: first move) -> the record in canonical notation with those comments, the source's
    #: own comments kept where they stood (what annotate writes).
    write: Callable[[RecordT, Chunk, Mapping[int, Sequence[str]], Sequence[str]], str]
    #: Tag names that open a new tag section inside a record (Daifugo's ``Round``).
    section_tags: frozenset[str] = frozenset()
    #: Does a move's text name who made it (``Aki: 3D``)? Else the jobs say whose it was.
    moves_name_mover: bool = True


@dataclass(frozen=True)
class Comparison(Generic[SettingT]):
    """A setting annotate judges a record under beside its own, or (``setting`` None) why
    one is not compared. ``toggle_only``: a single option toggled, kept only when it
    changes the verdict on some move. ``only_all``: compared only when every comparison is
    asked for (``annotate --compare all``), not by default."""

    setting: SettingT | None
    why_not: str | None = None
    toggle_only: bool = False
    only_all: bool = False


@dataclass(frozen=True)
class Settings(Generic[StateT, RecordT, SettingT]):
    """A game's rule sets and options as data selected by name (``fnv``,
    ``classic +spade3 -eight-cut``)."""

    #: Text -> setting; ValueError saying what is wrong.
    parse: Callable[[str], SettingT]
    #: Setting -> its name in comments and JSON (``classic +eight-cut``).
    label: Callable[[SettingT], str]
    #: Record -> the setting its tags name, or None when they do not read.
    declared: Callable[[RecordT], SettingT | None]
    #: (the record's own setting, record) -> what else to judge it under by default.
    comparisons: Callable[[SettingT, RecordT], Sequence[Comparison[SettingT]]]
    #: Position -> what two replays under different settings must share to be in the same position.
    position_key: Callable[[StateT], Hashable]
    #: Position -> the setting it is played under.
    of: Callable[[StateT], SettingT]
    #: (setting, option name as spec/ writes it) -> the option's value (None: no such option).
    option: Callable[[SettingT, str], object] = lambda setting, name: None


class Written(str):
    """Records written in another format, and what that format could not hold of them
    (``notes``, each said in a sentence; empty: nothing was left out)."""

    notes: tuple[str, ...] = ()

    def __new__(cls, text: str, notes: Sequence[str] = ()) -> Written:
        self = str.__new__(cls, text)
        self.notes = tuple(notes)
        return self


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
    validate: Callable[[Iterable[str], str], Iterator[GameReport]]
    #: File endings it is written with (what a folder given to validate is searched for).
    extensions: tuple[str, ...] = ()
    #: What writes such a file in the game's notation (None: nothing can).
    convert: Lazy[Converter] | None = None
    #: Can the converter also write the game's records in this format?
    writes: bool = False

    def converted(self, lines: Iterable[str], file: str) -> Iterator[str]:
        """The file in the game's notation, piece by piece. Raises LookupError when the
        format has no converter."""
        if self.convert is None:
            raise LookupError(f"{self.title} cannot be written in another notation")
        yield from self.convert.get().records(lines, file)

    def written(self, lines: Iterable[str], file: str, record: int | None = None) -> Written:
        """The game's records (the only one, or number ``record``) in this format, with
        what it could not hold of them. Raises
        LookupError when the format cannot be written, ValueError saying why a record
        cannot be."""
        if self.convert is None or not self.writes:
            raise LookupError(f"{self.title} cannot be written from records")
        return self.convert.get().write_records(self.name, lines, file, record)


class Converter(Protocol):
    """A module converting a whole-file format to a game's notation and back."""

    def records(self, lines: Iterable[str], file: str, /) -> Iterator[str]:
        """The file in the game's notation, piece by piece."""
        ...

    def write_records(self, format: str, lines: Iterable[str], file: str, record: int | None = None, /) -> Written:
        """The game's records (the only one, or number ``record``) in ``format``, with what
        it could not hold of them."""
        ...


# ------------------------------------------------------------------ the optional parts


@dataclass(frozen=True)
class Renderer(Generic[StateT, MoveT, RecordT]):
    """How a game draws a frame (:class:`~referee.jobs.frame.Frame`): for a
    terminal (``text``), as SVG, and as the replay page's data and script (the same
    layout as the SVG, drawn in the page). The hooks are optional."""

    #: (frame, colour?) -> the position as text (ANSI colours when asked).
    text: Callable[[Frame[StateT, MoveT], bool], str]
    svg: Callable[[Frame[StateT, MoveT]], str]
    #: The position as the replay page carries it (its ``heading`` is the page's to write).
    data: Callable[[Frame[StateT, MoveT]], dict[str, object]]
    #: The page's script that draws ``data``.
    script: Callable[[], str]
    #: What lies on the table beside the engine's state at a segment's start, and after a move.
    table_start: Callable[[RecordT, Segment[StateT, MoveT]], TablePlay | None] | None = None
    table_after: Callable[[Step[StateT, MoveT], TablePlay | None], TablePlay | None] | None = None
    #: Who moved, as a player reads it (default: the record's name for them).
    mover: Callable[[RecordT, Step[StateT, MoveT]], str] | None = None
    #: The move's number as the notation writes it (default ``3.``).
    number: Callable[[Frame[StateT, MoveT]], str] | None = None
    #: The live table page's part of the drawing (``pitboss serve``): which cards of the
    #: hand a legal move uses, where it goes on the picture, the end in words.
    table_script: Callable[[], str] | None = None


class Live(Protocol):
    """A game's live tables (``pitboss serve``): its ``live`` module. The service never
    names a game; it creates and opens tables through this, and judges every move through
    the table's :class:`~referee.jobs.live.Match`."""

    def create(self, body: dict[str, object], /) -> dict[str, object]:
        """A table's set-up from a creation request's fields (``rules``, ``options``,
        ``seats``, ``decks``, ``rounds``, ``seed``, ``move_limit``), checked, with every random choice
        already made. It is JSON, stored as is, and holds secrets (decks, the seed): the
        service never shows it. Raises :class:`~referee.jobs.live.LiveError`."""
        ...

    def open(self, setup: dict[str, object], /) -> Match:
        """The table at its start (the service replays the stored moves on it)."""
        ...

    def form(self) -> dict[str, object]:
        """What a form for a new table offers, as JSON: ``seats`` (rule set -> the seat
        counts it takes), ``names`` (names to suggest, seat by seat), ``options`` (each
        ``{"name", "title", "kind": "bool" | "choice" | "length", "choices"}``),
        ``presets`` (rule set -> each option's value there) and ``rounds`` (does a table
        play rounds?)."""
        ...


@dataclass(frozen=True)
class Analyser(Generic[StateT, MoveT]):
    """What ``annotate --analyse`` says of a move: before and after it, the best the mover
    can still reach (the game's own solver, under time limits)."""

    #: What it says of a move, in a sentence for ``--help``.
    summary: str
    #: (a legal move as replayed, the limits) -> its analysis (None: nothing to say).
    analyse: Callable[[Step[StateT, MoveT], Limits], MoveAnalysis | None]


class Puzzle(Protocol[StateT_co, RecordT_co]):
    """A position ``pitboss solve`` asks about, and the record it is a position of."""

    @property
    def state(self) -> StateT_co: ...

    @property
    def record(self) -> RecordT_co: ...


class Asked(Protocol):
    """The options one question is asked with: the ``method`` (``auto``, ``z3``,
    ``search``), the ``deadline`` its answer must come by, and each question option's
    value (``values``, by name; None when not given)."""

    @property
    def method(self) -> str: ...

    @property
    def deadline(self) -> Deadline: ...

    @property
    def values(self) -> Mapping[str, object]: ...


class Answering(Protocol[StateT_contra, RecordT_contra]):
    """A game's answers to its questions: its ``solve`` module (z3 and the searches)."""

    def ask(self, position: Puzzle[StateT_contra, RecordT_contra], question: str, options: Asked, /) -> Answer:
        """The answer to ``question`` (one of the game's) about ``position``; QuestionError
        when the position cannot be asked it."""
        ...


@dataclass(frozen=True)
class Solver(Generic[StateT, RecordT]):
    """What ``pitboss solve`` can ask of a game's positions, and who answers (loaded with
    z3 when a question is asked)."""

    questions: tuple[Question, ...]
    #: The options those questions take.
    options: tuple[QuestionOption, ...]
    answers: Lazy[Answering[StateT, RecordT]]


class Prover(Protocol):
    """What ``pitboss prove`` can prove of a game's rules: its ``prove`` module (the rules'
    z3 models of whole games). A setting is named as the game's settings label it."""

    @property
    def PROPERTIES(self) -> Mapping[str, str]:  # noqa: N802  # a module's constant
        """Each property's name -> what it means, in a sentence."""
        ...

    def settings(self) -> list[str]:
        """The settings proved by default: each rule set (and, for a game with options,
        each preset with each single option toggled)."""
        ...

    def setting_name(self, text: str, /) -> str:
        """A setting as a user wrote it -> its name; ValueError saying what is wrong."""
        ...

    def setting_text(self, setting: str, /) -> str:
        """The setting as ``--rules`` gives it (validate judges a witness record under it)."""
        ...

    def check(self, setting: str, prop: str, budget: Budget, /) -> Certificate:
        """One property's certificate under the setting: proved, refuted (with a witness
        record) or unknown; raises :class:`~referee.jobs.solve.Timeout` past the budget."""
        ...


class Rulebook(Protocol):
    """What ``pitboss rules`` says of a game's rule sets beyond spec/: its ``rulebook`` module."""

    def describe(self, rule_set: str, /) -> str:
        """The rule set in a few words, in the language spoken."""
        ...

    def options(self, rule_set: str, /) -> dict[str, str]:
        """Each option and how the rule set sets it (empty: the game has no options)."""
        ...


class Players(Protocol):
    """A game's built-in players as ``pitboss arena`` seats them (``bot:STYLE``; its live
    table's ``bot_move`` plays them), and what the arena asks of the game beside its live
    table: its ``players`` module."""

    @property
    def STYLES(self) -> tuple[str, ...]:  # noqa: N802 - a module's constant
        """The players' styles, weakest first (``random``, ``greedy``, a searching one)."""
        ...

    def ranks(self, result: object, names: Sequence[str], /) -> list[list[int]]:
        """Each game a finished table played (a Caravan game, a Daifugo round), as every
        seat's rank in it (0 the best); ``result`` is the live match's ``result`` view."""
        ...

    def table_sizes(self, rules: str, options: str = "", /) -> list[int]:
        """The seats a table may have under these rules, the default first (ValueError
        when the rules do not read)."""
        ...

    def starts(self, path: str, /) -> list[dict[str, object]]:
        """The start positions (decks, deals) a file gives, each as the fields a live
        table's set-up takes (OSError when it cannot be read)."""
        ...


class Disputes(Protocol[StateT_contra, SettingT]):
    """Where a game's settings can disagree (``pitboss disputes``, its atlas): its
    ``disputes`` module. It states the scope the search covers, part by part, and the
    comparisons its shipped atlas holds."""

    #: The names of the scope's parts (``--scope`` takes them), in search order.
    PARTS: tuple[str, ...]

    def scopes(self, settings: Sequence[SettingT], /) -> Sequence[tuple[str, Scope, int]]:
        """The scope for these settings: each part's name, its scope and its length in moves."""
        ...

    def atlas(self) -> Sequence[tuple[str, tuple[SettingT, ...], bool]]:
        """The atlas's comparisons: each one's group, its settings and whether it is a pair
        of options on a preset (the preset, each option alone, both)."""
        ...

    def points(self, settings: Sequence[SettingT], /) -> Mapping[str, tuple[str, ...]]:
        """Each point where the settings differ, by name, with the settings' fields that state it."""
        ...

    def reading(self, state: StateT_contra, /) -> Mapping[str, object]:
        """What the rules read in a position, by component (under its own setting)."""
        ...

    def atlas_file(self) -> Path:
        """Where the shipped atlas (the comparisons computed ahead) lives."""
        ...

    def differences(self, a: SettingT, b: SettingT, /) -> Mapping[str, tuple[object, object]]:
        """How two settings differ: each field (as :meth:`points` names them) whose values
        differ -> (a's value, b's value)."""
        ...

    def adopt(self, a: SettingT, b: SettingT, fields: tuple[str, ...], /) -> SettingT:
        """``a`` with ``b``'s values of ``fields`` (one point of difference copied over)."""
        ...


# ------------------------------------------------------------------ self-play


@dataclass(frozen=True)
class Option:
    """One option of a game's self-play: ``--name`` on the command line, ``name`` (with
    ``_`` for ``-``) as the generator's keyword."""

    name: str
    default: str | int | bool
    help: str
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    #: A boolean option's off switch (``--no-draws``) is written beside it.
    negatable: bool = False

    @property
    def keyword(self) -> str:
        return self.name.replace("-", "_")


class Item(Protocol):
    """One generated record (or file): its text in the game's notation and its counts
    (``{"moves": ...}`` and whatever else the game counts)."""

    def text(self) -> str: ...

    def counts(self) -> dict[str, int]: ...


@runtime_checkable
class WholeFile(Item, Protocol):
    """An item that fills a file of its own (a contest log), which it names."""

    def file_name(self, number: int) -> str: ...


class Maker(Protocol):
    """Makes item ``index`` (from 0) of ``seed``; picklable (it travels to the workers)."""

    @property
    def whole_file(self) -> bool:
        """Does each item fill a file of its own (a :class:`WholeFile`)?"""
        ...

    def __call__(self, seed: int, index: int) -> Item: ...


@dataclass(frozen=True)
class SelfPlay:
    """A game's self-play (``pitboss selfplay GAME``, :mod:`referee.jobs.selfplay`)."""

    #: What one generated record is called, plural ("games", "matches").
    noun: str
    #: The command's help.
    help: str
    #: (rules, **options) -> a :class:`Maker`; raises ValueError for a combination of
    #: options the rules do not allow.
    maker: Callable[..., Maker]
    options: tuple[Option, ...] = ()

    def prepare(self, rules: str, **options: object) -> Maker:
        """The maker for these options (ValueError saying what is wrong with them)."""
        return self.maker(rules, **options)


# ------------------------------------------------------------------ the game


@dataclass(frozen=True)
class Game(Generic[StateT, MoveT, RecordT, SettingT]):
    """A game as the generic jobs see it: its required parts, what it says of itself, and
    its optional parts (None when it has none)."""

    #: The ``Game`` tag's value, lower case (``caravan``); also the CLI's and the API's name.
    name: str
    #: As players write it (``Caravan``).
    title: str
    engine: Engine[StateT, MoveT]
    notation: Notation[MoveT, RecordT]
    #: Rule-set (preset) names, the default first.
    rule_sets: tuple[str, ...]
    settings: Lazy[Settings[StateT, RecordT, SettingT]]
    #: (record, its report, a setting or None: its own) -> the record's plan for the one
    #: replay (:mod:`referee.jobs.replay`): tag checks, each segment to play, the result.
    plan: Callable[[RecordT, GameReport, SettingT | None], Plan[StateT, MoveT]]
    #: Command lines for ``pitboss --help`` (each runs on files a user may have).
    examples: tuple[str, ...] = ()
    #: Are the players numbered (Caravan's 1 and 2) rather than named? Sentences say the
    #: two differently in some languages ("1. játékos", "Chie játékos").
    numbered_players: bool = False
    #: Formats read whole-file (contest logs).
    foreign: tuple[Foreign, ...] = ()
    #: The engine's modules ``python -m referee.compiled build`` compiles with mypyc.
    compiled: tuple[str, ...] = ()
    #: Where the game keeps its own grammar (``<notation>.lark``), rules (``<name>*.toml``,
    #: with ``i18n/<lang>/``) and message catalogs (``locale/``), when not in the shared
    #: folders (grammar/, spec/, referee/locale/).
    home: Path | None = None
    #: The languages its messages and rule texts are translated into (English stands in
    #: for any other): by default every language Pitboss speaks.
    languages: tuple[str, ...] = LANGUAGES[1:]
    # The optional parts.
    render: Lazy[Renderer[StateT, MoveT, RecordT]] | None = None
    live: Lazy[Live] | None = None
    analyser: Analyser[StateT, MoveT] | None = None
    solver: Solver[StateT, RecordT] | None = None
    prover: Lazy[Prover] | None = None
    rulebook: Lazy[Rulebook] | None = None
    selfplay: SelfPlay | None = None
    #: Built-in players and tournament seating (``pitboss arena``; needs ``live``).
    players: Lazy[Players] | None = None
    disputes: Lazy[Disputes[StateT, SettingT]] | None = None
    #: Protocols its clients speak beside the HTTP service (``pitboss serve --NAME PORT``).
    listeners: tuple[Listener, ...] = ()

    def new_report(self, record: RecordT) -> GameReport:
        """An empty verdict on a read record, with its reader's findings."""
        report = GameReport(record.file, record.index, self.name, None, line=record.line)
        report.errors.extend(record.errors)
        report.warnings.extend(record.warnings)
        return report

    @property
    def default_rules(self) -> str:
        return self.rule_sets[0]

    @property
    def spec_dir(self) -> Path:
        """The folder holding the game's rules: its own (``home``), else spec/."""
        return self.home if self.home is not None else data_dir("spec")

    @cached_property
    def spec_files(self) -> tuple[str, ...]:
        """The files of :attr:`spec_dir` that hold the game's rules, found by its name:
        ``<name>.toml``, then ``<name>-<rule set>.toml`` in rule-set order, then any other
        ``<name>-*.toml``."""
        folder = self.spec_dir
        ordered = [f"{self.name}.toml", *(f"{self.name}-{r}.toml" for r in self.rule_sets)]
        found = {p.name for pattern in (f"{self.name}.toml", f"{self.name}-*.toml") for p in folder.glob(pattern)}
        return tuple([f for f in ordered if f in found] + sorted(found - set(ordered)))

    @property
    def grammar(self) -> Path:
        """The notation's grammar: ``<notation>.lark`` in the game's own folder (``home``),
        else in grammar/."""
        folder = self.home if self.home is not None else data_dir("grammar")
        return folder / f"{self.notation.name.lower()}.lark"
