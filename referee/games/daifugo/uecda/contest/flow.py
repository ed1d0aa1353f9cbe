"""A contest match without the wire: the games, the exchange and the turns as the contest
server plays them (tndhms 0.29 daihu.c, its game loop), each decision taken from the engine and
every draw from the server's own generator (engine/tndhms.py).

The table that talks to the clients (``table.ContestTable``) drives it as the bytes come
in; the service's copy of a contest table (``live.ContestMatch``) drives it again from the
stored steps after a restart. Both get the same :class:`Step` for the same input, so the
two cannot tell a different story.

Each step is one ply of the table: a gift (the server's own transfer, or a client's gift)
or a turn. :meth:`MatchFlow.stored` writes a step's input as the service stores it, and
:meth:`MatchFlow.replay` takes that text back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from referee.engines.base import Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import move_text
from referee.games.daifugo.uecda.contest import protocol as P
from referee.games.daifugo.uecda.contest.config import ContestConfig
from referee.games.daifugo.uecda.engine import tndhms
from referee.games.daifugo.uecda.notation import writer
from referee.notation.cards import CardError, parse_card

N = tndhms.N_PLAYERS
#: A deal given to start a game from: the hands by seat, from the first seat in turn order.
Given = tuple[tuple[Card, ...], ...]


class StepError(ValueError):
    """A stored step that does not fit the match where it is replayed."""


@dataclass
class GameEnd:
    """A game's end: its finishing order, the running points, its log lines."""

    number: int
    result: tuple[int, ...]
    totals: tuple[int, ...]
    lines: list[str]


@dataclass
class Step:
    """One ply: ``kind`` ``give`` or ``turn``, by ``seat`` (the giver, the mover)."""

    kind: str
    game: int
    seat: int
    #: The state before and after (immutable engine states).
    before: df.State
    after: df.State
    #: The move as the engine judged it (a gift: the cards given).
    move: df.Move
    #: A turn: the submission's card rows (None: nothing came), its log code, the
    #: engine's verdict (None: legal), the answer to send (8/9), and why its cells hold
    #: no cards (None: they do).
    rows: tuple[int, ...] | None = None
    code: str = ""
    violation: df.Violation | None = None
    accepted: bool = False
    answer: int = P.REJECTED
    malformed: str | None = None
    #: A gift: the server's own transfer (the rules fix it), and the one the client sent
    #: when it was not taken (None: taken, or none came).
    server: bool = False
    refused: tuple[Card, ...] | None = None
    #: Set when this step ended a game (and ``last`` when it ended the match).
    ended: GameEnd | None = None
    last: bool = False
    events: list[str] = field(default_factory=list)


def _cells_text(rows: Sequence[int] | None) -> str:
    if rows is None:
        return "-"
    return ",".join(f"{i}:{v}" for i, v in enumerate(rows) if v)


def _cells_of(text: str) -> tuple[int, ...] | None:
    if text == "-":
        return None
    rows = [0] * P.cell(5, 0)
    for part in text.split(",") if text else ():
        i, _, v = part.partition(":")
        if not (i.isdigit() and int(i) < len(rows)):
            raise StepError(f"bad stored cell {part!r}")
        try:
            rows[int(i)] = int(v)
        except ValueError:
            raise StepError(f"bad stored cell {part!r}") from None
    return tuple(rows)


class MatchFlow:
    """A match of ``config.games`` games between five players: :meth:`begin` each game,
    make the gifts due (:meth:`server_gift`, then :meth:`give` for each of
    :meth:`givers`), then :meth:`turn` until the game is over."""

    def __init__(self, config: ContestConfig, seed: int, names: Sequence[str], deals: Sequence[Given] = ()):
        self.config = config
        self.rules = config.rules()
        self.names = tuple(names)
        #: The first games' deals, given (the server still draws every game's seats, and
        #: deals the games after these); the log then names no RANDOM_SEED.
        self.deals = tuple(deals)
        self.header = config.header(self.names, None if self.deals else seed)
        self.match = tndhms.Match(config.match_rules(), seed)
        self.totals = [0] * N
        self.previous: tuple[int, ...] | None = None
        #: The game in play (1-based; 0 before the first).
        self.number = 0
        self.games_done = 0
        self.in_game = False

    @property
    def over(self) -> bool:
        return self.games_done >= self.config.games

    # ------------------------------------------------------------- a game's start

    def begin(self) -> None:
        """Deal the next game (the server's draws) and set up its exchange."""
        previous = self.previous
        self.number += 1
        self.deal = self.match.deal(previous[0] if previous else None)
        if self.number <= len(self.deals):
            hands: list[tuple[Card, ...]] = [()] * N
            for s, p in enumerate(self.deal.seats):
                hands[p] = self.deals[self.number - 1][s]
            self.deal = replace(self.deal, hands=tuple(hands))
        self.fresh = self.deal.fresh or previous is None
        self.classes = [0] * N if self.fresh else [previous.index(p) for p in range(N)]  # type: ignore[union-attr]  # not fresh: previous is set
        self.mibun = "22222" if self.fresh else "".join(map(str, self.classes))
        #: The previous game's places as this game's tables show them (None: all 0).
        self.shown = None if self.fresh else previous
        self.state = df.new_round(self.rules, self.deal.hands, self.deal.seats, None if self.fresh else previous,
                                  self.number, self.names)
        self.dealt = self.state
        #: The deal tables go out in class order.
        self.order = list(previous) if previous else list(range(N))
        self.changes: list[tuple[int, int, tuple[Card, ...]]] = []
        self.entries: list[str] = []
        self.in_game = True

    def server_gift(self) -> Step | None:
        """The next of the server's own transfers, made (daihu.c 723-732), or None."""
        state = self.state
        if state.phase != "exchange":
            return None
        duty = next((d for d in state.pending if d.server), None)
        if duty is None:
            return None
        return self._give(duty, df.strongest_cards(state.hands[duty.giver], duty.count), server=True)

    @property
    def exchange(self) -> bool:
        """Is there an exchange for the clients to make (after the server's transfers)?"""
        return self.state.phase == "exchange"

    def givers(self) -> list[int]:
        """Who owes a gift, in the order the server asks: the daifugo, then the fugo."""
        return sorted({d.giver for d in self.state.pending}, key=self.classes.__getitem__)

    def give(self, giver: int, gift: tuple[Card, ...] | None) -> Step:
        """``giver``'s gift as it came (None: none, or unreadable): taken if the rules
        allow it, else the strongest cards."""
        state = self.state
        duty = next((d for d in state.pending if d.giver == giver), None)
        if duty is None:
            raise StepError(f"player {giver} owes no gift now")
        refused = None
        if gift is not None and df.check(state, df.Give(giver, duty.receiver, gift)) is not None:
            refused, gift = gift, None
        step = self._give(duty, gift if gift is not None else df.strongest_cards(state.hands[giver], duty.count))
        step.refused = refused
        return step

    def _give(self, duty: df.Duty, cards: tuple[Card, ...], server: bool = False) -> Step:
        before = self.state
        move = df.Give(duty.giver, duty.receiver, cards)
        self.state = df.apply(before, move)
        self.changes.append((duty.giver, duty.receiver, cards))
        return Step("give", self.number, duty.giver, before, self.state, move, server=server,
                    events=list(self.state.events))

    # ------------------------------------------------------------- turns

    def turn(self, mover: int, rows: tuple[int, ...] | None) -> Step:
        """The player to move's submission (its card rows; None: nothing came, a pass)."""
        state = self.state
        if state.phase != "play" or state.over or state.to_move != mover:
            raise StepError(f"it is not player {mover}'s turn")
        why = None
        if rows is None:
            move: df.Move = df.Pass(mover)
            code = f"{mover}EE"
        else:
            move, code = P.submission(mover, rows)
            why = P.malformed(rows)
            if why is not None:
                # The contest server logs such cells as cards; where they would read as a
                # play the rules accept, the log could not be judged as it was played,
                # so ours logs the pass it was (the companion record has the cells).
                read = P.submission(mover, tuple(1 if v not in (0, 2) else v for v in rows))[0]
                if not isinstance(read, df.Unreadable) and df.check(state, read) is None:
                    code = f"{mover}EE"
        self.entries.append(code)
        v = df.check(state, move)
        after = df.apply(state, move) if v is None else df.after_illegal(state, move, v)
        if after is None:  # never for the player to move; judged a pass all the same
            after = df.apply(state, df.Pass(mover))
        accepted = v is None and isinstance(move, df.Play)
        answer = P.ACCEPTED if accepted or (v is None and state.table is None) else P.REJECTED
        self.state = after
        step = Step("turn", self.number, mover, state, after, move, rows, code, v, accepted, answer, why,
                    events=list(after.events))
        if after.over:
            step.ended = self._end()
            step.last = self.over
        return step

    def _end(self) -> GameEnd:
        state = self.state
        result = self.match.stall_places(state.finished) if state.stalled else df.finishing_order(state)
        assert result is not None
        for place, p in enumerate(result):
            self.totals[p] += tndhms.place_points(place)
        lines = writer.game_lines(self.header, self.number - 1, self.mibun, self.deal.seats, self.deal.hands,
                                  self.entries, result, self.changes, self.totals)
        self.previous = tuple(result)
        self.games_done = self.number
        self.in_game = False
        return GameEnd(self.number, tuple(result), tuple(self.totals), lines)

    # ------------------------------------------------------------- texts

    def public(self, step: Step) -> str:
        """The step as the public record shows it: a gift's cards as ``?``, a rejected
        submission as the pass it counted as."""
        if step.kind == "give":
            assert isinstance(step.move, df.Give)
            hidden = " ".join("?" * len(step.move.cards))
            return f"{self.names[step.seat]} -> {self.names[step.move.receiver]}: {hidden}"
        if step.accepted:
            return move_text(step.move, self.names)
        return f"{self.names[step.seat]}: pass"

    @staticmethod
    def stored(step: Step) -> str:
        """The step's input as the service stores it: ``give RECEIVER CARDS`` (the cards
        given), ``turn CELLS`` (the submission's non-zero card cells, ``-`` for none)."""
        if step.kind == "give":
            assert isinstance(step.move, df.Give)
            return f"give {step.move.receiver} {' '.join(map(str, step.move.cards))}"
        return f"turn {_cells_text(step.rows)}"

    def replay(self, seat: int, stored: str) -> Step:
        """The step a stored text makes (after a restart), the game begun when due."""
        if not self.in_game:
            if self.over:
                raise StepError("the match is over")
            self.begin()
        kind, _, rest = stored.partition(" ")
        if kind == "give":
            receiver, _, cards = rest.partition(" ")
            try:
                gift = tuple(parse_card(c) for c in cards.split())
            except CardError as err:
                raise StepError(str(err)) from None
            server = next((d for d in self.state.pending if d.server), None)
            if server is not None:
                if server.giver != seat:
                    raise StepError(f"the server's transfer from player {server.giver} is due, not {seat}'s gift")
                step = self.server_gift()
                assert step is not None
            else:
                step = self.give(seat, gift)
            if str(step.move.receiver) != receiver or tuple(step.move.cards) != gift:  # type: ignore[union-attr]  # a gift
                raise StepError(f"stored gift {stored!r} is not the gift made ({self.stored(step)!r})")
            return step
        if kind == "turn":
            return self.turn(seat, _cells_of(rest))
        raise StepError(f"unknown stored step {stored!r}")
