"""A protocol listener a game offers beside the HTTP service: ``pitboss serve --NAME PORT``
also listens on PORT for clients that speak that game's own protocol (a contest's TCP
protocol), and the tables they play are tables of the service like any other.

A game declares its listeners in its :class:`~referee.jobs.game.Game` (``listeners``).
The command line adds ``--NAME PORT`` and each :class:`ListenerOption` to ``pitboss
serve``; when ``--NAME`` is given, the service calls the listener's ``serve`` (its module
is imported only then) with what it lends a listener (:class:`ListenerHost`, the service's
tables) and the options as keywords. The listener's code imports nothing of the service.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Awaitable, Callable, Mapping
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
class Listener:
    """A protocol a game's clients speak, served beside the HTTP service."""

    #: ``pitboss serve --NAME PORT`` (lower case, words joined by hyphens).
    name: str
    #: The help of ``--NAME``.
    help: str
    #: The module that holds the listener's ``serve`` (:class:`Serve`), imported when it starts.
    server: str
    options: tuple[ListenerOption, ...] = ()

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
