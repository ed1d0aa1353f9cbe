"""What a game gives the dispute search: its scope, as starts, moves and readings.

A game that answers ``pitboss disputes`` has a ``disputes`` part (``Game.part``) whose
``scope(settings, limits)`` returns a :class:`Scope`: the starts the search plays from
(legal starts — an opening, a deal — and, where the game names them, start positions),
the moves it tries in a position, what the rules read in a position (its *reading*) and
how a line of moves is written as a record. The search (:mod:`.search`) is generic; the
scope says exactly which records it covers, and says it in words (``describe``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.jobs.disputes.classes import Verdict


@dataclass(frozen=True)
class Start:
    """Where records of the scope begin: each setting's start state (None where the
    setting rejects the set-up, with its verdict in ``rejected``), and what the game needs
    to write a record from it (``info``). ``legal``: a legal start of a game (the
    opening, a deal), not a start position."""

    states: tuple[Any, ...]
    info: Any
    legal: bool = True
    rejected: Mapping[int, Verdict] = field(default_factory=dict)
    #: The game's bookkeeping that the states do not hold (draws left, cards already played).
    extra: Hashable = None


class Scope(Protocol):
    """One game's dispute scope for a list of settings (see the module's docstring)."""

    #: The scope in words, for the atlas and ``--json`` (``{"starts": ..., "cards": ...}``).
    def describe(self) -> dict[str, Any]: ...

    def starts(self) -> Iterator[Start]: ...

    def moves(self, states: Sequence[Any], extra: Hashable) -> Iterable[Any]:
        """The moves tried in a position (the first setting's state first): legal ones
        and illegal ones alike, each checked under every setting."""
        ...

    def advance(self, states: Sequence[Any], afters: Sequence[Any], move: Any, extra: Hashable) -> tuple[tuple[Any, ...], Hashable]:
        """The states after ``move`` (``afters``, one per setting, as the engine left them)
        with the scope's bookkeeping applied, and the bookkeeping's new value."""
        ...

    def reading(self, state: Any) -> dict[str, Any]:
        """What the rules read in a position, by component (under its own setting)."""
        ...

    def raw(self, state: Any) -> Hashable:
        """The position without its setting: equal for two settings in the same position."""
        ...

    def record(self, start: Start, moves: Sequence[Any], ending: str | None = None) -> str:
        """The record of ``moves`` from ``start`` (``ending``: how it ends, see ``endings``)."""
        ...

    def endings(self, states: Sequence[Any]) -> Iterable[tuple[str, tuple[Verdict, ...]]]:
        """Ways a record that stands in these positions can end with a claim the settings
        judge (a declared result, a finishing order): each as ``record`` takes it, with each
        setting's verdict on it."""
        ...

    def describe_move(self, state: Any, move: Any) -> str:
        """A move as the game's notation writes it, in this position."""
        ...

    def position(self, state: Any, moves: Sequence[Any]) -> str | None:
        """The position (reached by ``moves`` from its start) as a record of the game's
        notation (a start position), or None where the notation cannot say it all."""
        ...
