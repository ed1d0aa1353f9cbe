"""One contest table: five connected clients play a match as the contest server plays it
(tndhms 0.29 daihu.c and tn_protocol.c): the bytes, here; the match itself (everything the rules
decide, from the engine, a rejected submission counting as a pass, and every random
choice, from the server's own generator) in ``flow.MatchFlow``, each ply a ``flow.Step``.

Unlike the contest server, a client that disconnects, stalls past the timeout, or sends a
short, long or unasked-for message is reported (an :class:`Incident`) and dropped: its
connection is closed and its turns are played as passes, its exchange gift as the
strongest cards, and the other four play on. A submission with values no card cell holds
is rejected (answered 8, a pass) and reported; numbers outside the card rows are reported
and not echoed to the others.

The table runs in one thread with blocking sockets (one message per ``send``, as the
contest server writes them); what it does is told to an :class:`Observer`.
"""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

from referee.engines.base import Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.uecda.contest import protocol as P
from referee.games.daifugo.uecda.contest.config import ContestConfig
from referee.games.daifugo.uecda.contest.flow import Given, MatchFlow, Step
from referee.games.daifugo.uecda.engine import tndhms
from referee.games.daifugo.uecda.notation import writer

N = tndhms.N_PLAYERS
_LOCK_EVENTS = ("daifugo.option.suit-lock", "daifugo.lock.lone-joker")


@dataclass
class Incident:
    """Something a client did that the contest server would have choked on."""

    player: int
    name: str
    kind: str  # disconnect, stall, short, long, bad-version, malformed, extra-cells, write
    message: str
    game: int | None = None  # 1-based
    turn: int | None = None
    at: float = field(default_factory=time.time)


class Seat:
    """One client's connection: its player number, protocol and name."""

    def __init__(self, player: int, sock: socket.socket | None, protocol: int, name: str, peer: str = ""):
        self.player = player
        self.sock = sock
        self.protocol = protocol
        self.name = name
        self.peer = peer
        #: Why the seat was dropped (its turns are passes from then on), or None.
        self.dropped: str | None = None
        #: What went wrong before its table started (the handshake).
        self.early: list[Incident] = []

    @property
    def live(self) -> bool:
        return self.dropped is None and self.sock is not None

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.sock.close()
            self.sock = None


def read_exact(sock: socket.socket, n: int, timeout: float) -> tuple[bytes, str | None]:
    """Up to ``n`` bytes within ``timeout`` seconds, however they are split: the bytes and
    None, or what went wrong (``disconnect``, ``stall`` with nothing, ``short`` with less)."""
    deadline = time.monotonic() + timeout
    got = bytearray()
    while len(got) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            return bytes(got), "short" if got else "stall"
        sock.settimeout(left)
        try:
            chunk = sock.recv(n - len(got))
        except TimeoutError:
            return bytes(got), "short" if got else "stall"
        except OSError:
            return bytes(got), "disconnect"
        if not chunk:
            return bytes(got), "disconnect"
        got += chunk
    return bytes(got), None


class Observer:
    """What a table tells whoever watches it (the HTTP service, a test, the console),
    from the table's own thread: it must not block (the clients are waiting)."""

    def started(self, table: ContestTable) -> None:
        """The table is seated and its log opened (``table.started_at``)."""

    def step(self, table: ContestTable, step: Step) -> None:
        """A ply played: a gift or a turn (``step.ended``: it ended a game; ``step.last``:
        the match, ``table.ended`` then set)."""

    def incident(self, table: ContestTable, incident: Incident) -> None:
        """A client misbehaved (``table.incidents`` has it too)."""

    def finished(self, table: ContestTable) -> None:
        """The table is done: every game played, or cut short (``table.games_done``)."""


class ContestTable:
    """A match of ``config.games`` games between five seats; ``run()`` plays it."""

    def __init__(self, seats: Sequence[Seat], config: ContestConfig, seed: int, timeout: float,
                 log_path: Path | None = None, observer: Observer | None = None, number: int = 1,
                 hostname: str = "", clock: Callable[[], float] = time.time, deals: Sequence[Given] = ()):
        self.seats = list(seats)
        self.config = config
        self.seed = seed
        self.timeout = timeout
        self.log_path = log_path
        self.observer = observer or Observer()
        self.number = number
        self.flow = MatchFlow(config, seed, tuple(s.name for s in self.seats), deals)
        self.rules = self.flow.rules
        self.header = self.flow.header
        self.incidents: list[Incident] = [i for s in self.seats for i in s.early]
        self.hostname = hostname
        self.clock = clock
        self.game = 0
        self.turn = 0
        self.state: df.State | None = None
        self.games_done = 0
        self.finished = False
        #: The log's TIME_START and TIME_END (the later revision writes them).
        self.started_at = ""
        self.ended: str | None = None
        self._log: TextIO | None = None

    # ------------------------------------------------------------- reports and I/O

    def report(self, seat: Seat, kind: str, message: str, drop: bool) -> None:
        incident = Incident(seat.player, seat.name, kind, message, self.game or None, self.turn or None)
        self.incidents.append(incident)
        if drop and seat.dropped is None:
            seat.dropped = f"{kind}: {message}"
            seat.close()
        self.observer.incident(self, incident)

    def send(self, seat: Seat, data: bytes) -> None:
        if not seat.live:
            return
        assert seat.sock is not None
        try:
            if seat.sock.gettimeout() != self.timeout:
                seat.sock.settimeout(self.timeout)
            seat.sock.sendall(data)
        except TimeoutError:
            self.report(seat, "stall", f"did not read what the server sent for {self.timeout:g} s", True)
        except OSError as err:
            self.report(seat, "disconnect",
                        f"the connection failed while the server wrote to it ({err.strerror or err})",
                        True)

    def table(self, seat: Seat, cells: list[int]) -> None:
        self.send(seat, P.encode_table(cells, seat.protocol))

    def send_int(self, seat: Seat, value: int) -> None:
        self.send(seat, P.encode_int(value, seat.protocol))

    def read(self, seat: Seat, what: str) -> list[int] | None:
        """One table from the seat, or None (the seat is dropped, reported)."""
        if not seat.live:
            return None
        assert seat.sock is not None
        data, problem = read_exact(seat.sock, P.TABLE_BYTES, self.timeout)
        if problem == "disconnect":
            self.report(seat, "disconnect", f"closed its connection when its {what} was due"
                        + (f" ({len(data)} of 480 bytes sent)" if data else ""), True)
            return None
        if problem == "stall":
            self.report(seat, "stall", f"sent no {what} within {self.timeout:g} s", True)
            return None
        if problem == "short":
            self.report(seat, "short", f"sent {len(data)} bytes of its {what}, not a whole 480-byte table, within "
                        f"{self.timeout:g} s", True)
            return None
        return P.decode_table(data, seat.protocol)

    def unasked(self) -> None:
        """Bytes a client sent when nothing was asked of it (the tail of a long message, or
        a table out of turn): reported, and the seat dropped, since its stream has lost its
        place."""
        live = [s for s in self.seats if s.live]
        if not live:
            return
        try:
            ready, _, _ = select.select([s.sock for s in live if s.sock is not None], [], [], 0)  # a live seat has one
        except (OSError, ValueError):
            return
        for seat in live:
            if seat.sock not in ready:
                continue
            assert seat.sock is not None
            try:
                seat.sock.settimeout(0.0)
                extra = seat.sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                extra = b""
            if not extra:
                self.report(seat, "disconnect", "closed its connection", True)
            else:
                self.report(seat, "long", f"sent {len(extra)} bytes nobody asked for (more than a 480-byte table, "
                            "or a table out of turn)", True)

    # ------------------------------------------------------------- tables

    def _base(self, state: df.State, places: Sequence[int] | None) -> list[int]:
        """Rows 5-6 every table shares: the counts, the classes, the seats. ``places`` is
        the server's place -> player list (None in the first game of a block: all 0): the
        previous game's order, overwritten place by place as players go out in this game,
        so that a player shows its new class, and one whose class another has taken
        shows 0, until the game ends (daihu.c's mibun)."""
        cells = [0] * P.CELLS
        row6 = P.cell(6, 0)
        for p in range(N):
            cells[row6 + p] = len(state.hands[p])
            cells[row6 + 10 + p] = state.seats[p]
        if places is not None:
            for place, p in enumerate(places):
                cells[row6 + 5 + p] = place
        return cells

    @staticmethod
    def _places(previous: Sequence[int] | None, state: df.State) -> list[int] | None:
        if previous is None:
            return None
        places = list(previous)
        places[:len(state.finished)] = state.finished
        return places

    def _flags(self, cells: list[int], back: bool, revolution: bool, lock: bool) -> None:
        cells[P.cell(5, 5)] = int(back)
        cells[P.cell(5, 6)] = int(revolution)
        cells[P.cell(5, 7)] = int(lock)

    # ------------------------------------------------------------- the match

    @property
    def totals(self) -> list[int]:
        """The running points of the match (the later revision's log prints them)."""
        return self.flow.totals

    def run(self) -> None:
        try:
            self.started_at = self._now()
            self._open_log()
            self.observer.started(self)
            for n in range(1, self.config.games + 1):
                self.game, self.turn = n, 0
                self._play_game(n)
                self.games_done = n
        finally:
            for seat in self.seats:
                seat.close()
            self.finished = True
            self._close_log()
            self.observer.finished(self)

    def _step(self, step: Step) -> None:
        if step.last:
            self.ended = self._now()
        self.observer.step(self, step)

    def _play_game(self, n: int) -> None:
        flow = self.flow
        flow.begin()
        shown = flow.shown
        dealt = flow.dealt
        # The server's own transfers, before the deal tables (daihu.c 723-732).
        while (gift := flow.server_gift()) is not None:
            self._step(gift)
        state = flow.state
        exchange = flow.exchange
        for p in flow.order:  # the deal tables, in class order
            cells = self._base(dealt, shown)
            cls = flow.classes[p]
            hand = state.hands[p] if (exchange and cls in (0, 1)) else dealt.hands[p]
            P.hand_cells(hand, cells)
            cells[P.cell(5, 0)] = 1
            cells[P.cell(5, 1)] = (2, 1, 0, -1, -2)[cls] if exchange else 0
            cells[P.cell(5, 3)] = 6
            self.table(self.seats[p], cells)
        # The gifts of the daifugo, then the fugo (daihu.c 752-778).
        for giver in flow.givers():
            seat = self.seats[giver]
            cells_in = self.read(seat, "exchange table")
            gift_cards: tuple[Card, ...] | None = None
            if cells_in is not None:
                self._extra(seat, cells_in)
                gift_cards = P.gift_cards(P.card_rows(cells_in))
            self._step(flow.give(giver, gift_cards))
        self.state = state = flow.state
        stage = [0] * (5 * P.COLUMNS)
        while not state.over:
            self.turn += 1
            self.unasked()
            mover = state.to_move
            assert mover is not None
            for p in range(N):
                cells = self._base(state, self._places(shown, state))
                P.hand_cells(state.hands[p], cells)
                cells[P.cell(5, 2)] = int(p == mover)
                cells[P.cell(5, 3)] = mover
                cells[P.cell(5, 4)] = int(state.table is None)
                self._flags(cells, state.back, state.revolution, state.lock is not None)
                self.table(self.seats[p], cells)
            seat = self.seats[mover]
            cells_in = self.read(seat, "submission")
            if cells_in is not None:
                self._extra(seat, cells_in)
            step = flow.turn(mover, None if cells_in is None else P.card_rows(cells_in))
            if step.malformed is not None:
                self.report(seat, "malformed", f"its submission holds {step.malformed}: rejected, a pass", False)
            after = step.after
            if cells_in is not None:
                self.send_int(seat, step.answer)
            if step.accepted:
                stage = list(step.rows or ())
            # The stage tables: this submission's effects, before any trick clear.
            back, lock = after.back, after.lock is not None
            if after.table is None:
                back = state.back != ("daifugo.option.eleven-back" in after.events)
                lock = (state.lock is not None) != any(e in after.events for e in _LOCK_EVENTS)
            for p in range(N):
                cells = self._base(after, self._places(shown, after))
                cells[:len(stage)] = stage
                cells[P.cell(5, 3)] = mover
                cells[P.cell(5, 4)] = int(not any(stage))
                self._flags(cells, back, after.revolution, lock)
                self.table(self.seats[p], cells)
            if after.table is None:
                stage = [0] * (5 * P.COLUMNS)
            end = P.GAME_ON if not after.over else (P.MATCH_OVER if step.last else P.GAME_OVER)
            for p in range(N):
                self.send_int(self.seats[p], end)
            if step.ended is not None:
                self._write(step.ended.lines)
            self._step(step)
            state = after
            self.state = state

    def _extra(self, seat: Seat, cells: list[int]) -> None:
        extra = P.extra_cells(cells)
        if extra:
            shown = ", ".join(f"[{r}][{c}]={v}" for r, c, v in extra[:5])
            self.report(seat, "extra-cells", f"its table holds numbers outside the card rows ({shown}"
                        f"{', ...' if len(extra) > 5 else ''}): ignored, and not shown to the others", False)

    # ------------------------------------------------------------- the log and its companion

    def _now(self) -> str:
        return time.strftime("%Y/%m/%d %H:%M:%S", time.localtime(self.clock()))

    def _open_log(self) -> None:
        if self.log_path is None:
            return
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("w", encoding="latin-1", newline="\n")
        self._write(writer.header_lines(self.header, self.hostname, self.started_at))

    def _write(self, lines: list[str]) -> None:
        if self._log is not None:
            self._log.write("".join(lines))
            self._log.flush()

    def _close_log(self) -> None:
        if self._log is None:
            return
        if self.games_done == self.config.games:
            self._write(writer.trailer_lines(self.header, self.ended or self._now(), self.totals))
        self._log.close()
        self._log = None
        assert self.log_path is not None
        companion = self.log_path.with_suffix(".json")
        record = {
            "format": "pitboss-uecda-table/1", "table": self.number, "log": self.log_path.name, "seed": self.seed,
            "revision": self.config.revision, "games": self.config.games, "games_played": self.games_done,
            "players": [{"player": s.player, "name": s.name, "protocol": s.protocol, "peer": s.peer,
                         "dropped": s.dropped} for s in self.seats],
            "incidents": [asdict(i) for i in self.incidents],
        }
        companion.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
