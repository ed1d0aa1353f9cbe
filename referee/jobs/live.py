"""What a live table of a game is to the service (``pitboss serve``): one table at a time.

The service (``referee/service``) never names a game. A game's live tables (``Game.live``,
a :class:`referee.jobs.game.Live`: ``create(body)`` checks a creation request and makes
every random choice, ``open(setup)`` gives the table at its start, ``form()`` says what a
form for a new table offers) are each a :class:`Match`, which takes the moves; a refused
request is a :class:`LiveError`.

A :class:`Match` is the table's state; the engines judge every move it takes. All its
texts are notation (notation.md): a seat's legal moves, the public move text, the record.

A game's protocol listeners (:mod:`referee.jobs.listener`) reach the service's tables
through what the service lends them (adopt, record, annotate); this module is the game's
side of a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from referee.jobs.frame import Frame


class LiveError(Exception):
    """A request the game cannot take: ``status`` 400 (malformed) or 422 (against a rule),
    ``rule`` the rule id that decided it, when one did."""

    def __init__(self, message: str, status: int = 422, rule: str | None = None, detail: object = None):
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
    #: What the game's match keeps of the move until :meth:`Match.commit` takes it (the
    #: position after it); the service never reads it.
    after: object = None

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

    def view(self, seat: int | None) -> dict[str, object]:
        """The game's part of a view: ``to_move``, ``round``, ``seats`` (name, cards),
        ``table``, ``moves`` (public texts), ``result``; with a seat also ``hand`` and
        whatever else that seat may see (``deck_left``). Never a card the reader cannot see."""

    def record(self) -> str:
        """The record: the whole one (decks, hands, ``Seed``) once finished, else only the
        public record."""

    def frame(self, seat: int | None) -> Frame[object, object]:
        """A render frame (``referee.jobs.render.frames.Frame``) of the position as that
        reader may see it."""


BOT_STYLES = ("random", "greedy")


def table_view(match: Match, seat: int | None, *, table_id: str, game: str, rules: str, options: str, status: str,
               bots: list[str | None], clock: Mapping[str, object] | None = None) -> dict[str, object]:
    """The reader's view of a live table (``seat`` None: the public one), as every face
    gives it: the table's head (id, game, rules, options, status, ply, round, to_move,
    seats with their bots), then the match's own part, the clock and the reader's seat."""
    inner = match.view(seat)
    seats = inner.pop("seats")
    assert isinstance(seats, list), "a match's view lists its seats"
    for i, s in enumerate(seats):
        s["bot"] = bots[i]
    out = {"id": table_id, "game": game, "rules": rules, "options": options, "status": status, "ply": match.ply,
           "round": inner.pop("round"), "to_move": inner.pop("to_move"), "seats": seats}
    out.update(inner)
    if clock is not None:
        out["clock"] = clock
    if seat is not None:
        out["seat"] = match.seats[seat]
    return out
