"""What a game gives the live service (``pitboss serve``): one live table at a time.

The service (``referee/service``) never names a game. Each game's ``live`` part
(``registry.game(name).part("live")``, a module ``referee/games/<game>/live.py``) offers:

- ``create(body) -> dict``: a table's set-up from a creation request's fields (``rules``,
  ``options``, ``seats``, ``decks``, ``rounds``, ``seed``), checked, with every random
  choice already made (decks, deals are derived from the seed). It is JSON, stored as is,
  and holds secrets (decks, the seed): the service never shows it. Raises
  :class:`LiveError` on a bad request.
- ``open(setup) -> Match``: the table at its start; the service replays the stored moves
  on it (:meth:`Match.replay`) after a restart.
- ``form() -> dict``: what a form for a new table offers, as JSON: ``seats`` (rule set ->
  the seat counts it takes), ``names`` (names to suggest, seat by seat), ``options`` (each
  ``{"name", "title", "kind": "bool" | "choice" | "length", "choices"}``), ``presets``
  (rule set -> each option's value there) and ``rounds`` (does a table play rounds?).

A :class:`Match` is the table's state; the engines judge every move it takes. All its
texts are notation (notation.md): a seat's legal moves, the public move text, the record.

A game's protocol listeners (:mod:`referee.jobs.listener`) reach the service's tables
through what the service lends them (adopt, record, annotate); this module is the game's
side of a table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class LiveError(Exception):
    """A request the game cannot take: ``status`` 400 (malformed) or 422 (against a rule),
    ``rule`` the rule id that decided it, when one did."""

    def __init__(self, message: str, status: int = 422, rule: str | None = None, detail: Any = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.rule = rule
        self.detail = detail


@dataclass
class Outcome:
    """What a submission came to. Nothing changes until :meth:`Match.commit` takes it.

    ``accepted`` False with ``counted_as`` None: refused (422, or 403 when ``status`` says
    so), the table unchanged. ``counted_as`` "pass": a rejected submission that counts as
    a pass (uecda); it is committed like an accepted move.
    """

    accepted: bool
    seat: int
    #: The move as the full record writes it (what is stored; secret parts included).
    stored: str = ""
    #: The move as the public record shows it (what spectators and events see).
    public: str = ""
    #: The mover's own draw (Caravan), shown to the mover only.
    drawn: str | None = None
    events: list[str] = field(default_factory=list)
    rule: str | None = None
    message: str | None = None
    counted_as: str | None = None
    #: The HTTP status of a refusal (422 illegal, 403 someone else's move).
    status: int = 422
    #: The state after the move (internal to the game's adapter).
    after: Any = None

    @property
    def counts(self) -> bool:
        """Does the move go into the record (accepted, or counted as a pass)?"""
        return self.accepted or self.counted_as is not None


class Match(Protocol):
    #: Seat names, in seat order.
    seats: list[str]
    #: Every move committed so far (all rounds, exchanges and server moves included).
    ply: int

    def status(self) -> str:
        """``playing`` or ``finished`` (a live table never waits once created)."""

    def movers(self) -> list[int]:
        """The seats that may move now (several during a Daifugo exchange; none when over)."""

    def legal(self, seat: int) -> list[str]:
        """Every move ``seat`` may send now, each a string ``submit`` takes."""

    def submit(self, seat: int, text: str) -> Outcome:
        """Judge ``seat``'s move ``text`` (notation, with the readers' leniency)."""

    def commit(self, outcome: Outcome) -> None:
        """Make an accepted (or counted) outcome the table's state."""

    def server_move(self) -> Outcome | None:
        """A move the rules make for a seat (a fixed exchange gift), if one is due now."""

    def bot_move(self, seat: int, style: str, seed: int) -> Outcome:
        """The self-play player's move for ``seat`` (``style`` random or greedy)."""

    def timeout_move(self, seat: int) -> Outcome:
        """What happens when ``seat`` runs out of time (a pass, or a forfeit)."""

    def replay(self, seat: int, stored: str) -> None:
        """Apply a stored move again (after a restart). Raises LiveError when it does not fit."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """The game's part of a view: ``to_move``, ``round``, ``seats`` (name, cards),
        ``table``, ``moves`` (public texts), ``result``; with a seat also ``hand`` and
        whatever else that seat may see (``deck_left``). Never a card the reader cannot see."""

    def record(self) -> str:
        """The record: the whole one (decks, hands, ``Seed``) once finished, else only the
        public record."""

    def frame(self, seat: int | None) -> Any:
        """A render frame (``referee.jobs.render.frames.Frame``) of the position as that
        reader may see it."""


BOT_STYLES = ("random", "greedy")
