"""A protocol listener a game offers beside the HTTP service: ``pitboss serve --NAME PORT``
also listens on PORT for clients that speak that game's own protocol (a contest's TCP
protocol), and the tables they play are tables of the service like any other.

A game declares its listeners in its :class:`~referee.jobs.game.Game` (``listeners``).
The command line adds ``--NAME PORT`` and each :class:`ListenerOption` to ``pitboss
serve``; when ``--NAME`` is given, the service calls the listener's ``serve`` (its module
is imported only then) with what it lends a listener (:class:`ListenerHost`, the service's
tables) and the options as keywords. The listener's code imports nothing of the service.

A listener may also hold single tables on their own, without the service (``held``, a
:class:`Holding`): ``pitboss arena`` seats the protocol's clients at such tables.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias, TypeVar, cast

from referee.jobs.live import Match, Outcome

#: A JSON value, as a table's set-up and notes are stored.
Json: TypeAlias = "None | bool | int | float | str | list[Json] | dict[str, Json]"
#: The value of a listener's option on the command line (None: not given, no default).
OptionValue = int | float | str | None

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


class HostedRow(Protocol):
    """What a listener reads of a table's stored row: its set-up (JSON), which the
    listener may change in place before :meth:`ListenerHost.annotate` stores it."""

    @property
    def setup(self) -> dict[str, Json]: ...


class HostedTable(Protocol):
    """A table the service keeps for a listener."""

    @property
    def id(self) -> str: ...

    @property
    def row(self) -> HostedRow: ...


T = TypeVar("T", bound=HostedTable)


class ListenerHost(Protocol[T]):
    """What the service lends a listener: its tables, stored in its database, listed,
    watched live, their records served."""

    async def adopt(self, game: str, setup: dict[str, Json], seats: list[str], match: Match) -> T:
        """A new table of ``game`` whose seats play over the listener's protocol (no seat
        plays it over HTTP): ``setup`` is kept as the table's set-up, from which the game's
        ``live`` part opens ``match`` again after a restart."""
        ...

    async def record(self, table: T, outcomes: list[Outcome]) -> None:
        """Moves the listener has judged and played on the table: stored in one commit,
        then told to the table's observers."""
        ...

    async def annotate(self, table: T, note: dict[str, Json] | None = None) -> None:
        """Store the table's set-up and status as they now are; observers are told
        ``note`` (what went wrong at the table, or that it finished)."""
        ...


class Serve(Protocol):
    """A listener's ``serve``: listen on ``address``:``port`` until cancelled; with a
    ``host`` (None: on its own, without the service) every table is one of the host's
    too. ``announce`` says where it listens; ``options`` are its options' values, by key."""

    def __call__(self, host: ListenerHost[T] | None, address: str, port: int, *,
                 announce: Callable[[str], None] = ..., **options: OptionValue) -> Awaitable[None]: ...


@dataclass(frozen=True)
class ListenerOption:
    """One more option of ``pitboss serve`` for a listener: ``--FLAG VALUE``, its flag
    starting with the listener's name (``uecda-games``)."""

    flag: str
    type: type[int] | type[float] | type[str]
    default: OptionValue
    help: str

    @property
    def key(self) -> str:
        """The option's keyword to ``serve`` (``uecda_games``)."""
        return self.flag.replace("-", "_")


@dataclass(frozen=True)
class Held:
    """One table a listener holds on its own, without the service (``pitboss arena``'s
    tables of the protocol's clients): its games, the seed of its deals and seats, the
    seconds a client may take to answer, the rules' toggles, the deal its first game
    starts from (as a live table's set-up gives it; None: the seed's), the folder for its
    record."""

    games: int
    seed: int
    timeout: float
    options: str
    start: Mapping[str, object] | None
    folder: str


@dataclass(frozen=True)
class HeldIncident:
    """What a client did wrong at a held table, and what came of it."""

    seat: int
    #: The game (from 1) and the ply it happened at (None: before the first game).
    game: int | None
    ply: int
    kind: str
    message: str
    consequence: str


@dataclass
class HeldOutcome:
    """A held table once over: its record in the protocol's own format, and what it saw."""

    record: str
    extension: str
    encoding: str
    games_played: int
    #: Each game played: every seat's rank (0: the first out, the winner).
    ranks: list[list[int]]
    plies: int
    #: Each seat's think times: from one ply to its own next (seconds).
    think: list[list[float]]
    incidents: list[HeldIncident]


class HeldTable(Protocol):
    """A held table, listening on a loopback port for its clients (in seat order, each
    once the one before it has its seat)."""

    @property
    def port(self) -> int: ...

    def seated(self) -> int:
        """How many clients have their seats (all of them once the table has started)."""
        ...

    def join(self, seconds: float | None) -> None:
        """Wait until the table is over (at most ``seconds``)."""
        ...

    def stop(self) -> None:
        """Stop listening and close what is still open."""
        ...

    def outcome(self) -> HeldOutcome | None:
        """The table's outcome (None: it never started)."""
        ...


class Holding(Protocol):
    """A listener's tables held on their own: the module :attr:`Listener.held` names."""

    @property
    def SEATS(self) -> int:  # noqa: N802 - a module's constant
        """Seats at one table."""
        ...

    def check(self, options: str, starts: Sequence[Mapping[str, object]], /) -> None:
        """ValueError saying what is wrong with these toggles or deals."""
        ...

    def hold(self, table: Held, /) -> HeldTable:
        """The table, listening (ValueError, OSError when it cannot)."""
        ...


@dataclass(frozen=True)
class Listener:
    """A protocol a game's clients speak, served beside the HTTP service."""

    #: ``pitboss serve --NAME PORT`` (lower case, words joined by hyphens).
    name: str
    #: The help of ``--NAME``.
    help: str
    #: The module that holds the listener's ``serve`` (:class:`Serve`), imported when it starts.
    server: str
    options: tuple[ListenerOption, ...] = ()
    #: The module that holds single tables on their own (:class:`Holding`; None: it cannot).
    held: str | None = None

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name):
            raise ValueError(f"a listener's name is lower-case words joined by hyphens, not {self.name!r}")
        for option in self.options:
            if not option.flag.startswith(f"{self.name}-") or not _NAME.fullmatch(option.flag):
                raise ValueError(f"the options of listener {self.name} are --{self.name}-WORD, not --{option.flag}")

    @property
    def key(self) -> str:
        """The keyword of ``--NAME`` (its port)."""
        return self.name.replace("-", "_")

    def given(self, values: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """This listener's options among the command line's ``values`` (by key)."""
        return {option.key: values.get(option.key, option.default) for option in self.options}

    def serve(self) -> Serve:
        """The listener's ``serve`` (its module imported now)."""
        return cast(Serve, importlib.import_module(self.server).serve)

    def holding(self) -> Holding | None:
        """What holds the listener's tables on their own (its module imported now)."""
        return None if self.held is None else cast(Holding, importlib.import_module(self.held))
