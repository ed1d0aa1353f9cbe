"""One table of a tournament, played start to finish in one process (a worker's, or a
Dask task's): the game's live match (``Game.live``, the same one ``pitboss serve``
plays) judges every move; the seats are built-in players, line-protocol bots or (through
``contest``) contest clients.

A bot that is late, crashes, answers garbage or an illegal move is an incident: reported
against its entrant, its move is what the rules make of a seat out of time (the
``pass`` policy: a Daifugo pass, a Caravan forfeit) or its seat gives up the table
(``forfeit``: a Caravan forfeit, every later Daifugo turn a pass), and the bot is started
again for its next turn. Nothing here knows a rule: the match says who moves, what is
legal, what a seat out of time does and how the game ended.
"""

from __future__ import annotations

import resource
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from referee.arena.entrants import Entrant
from referee.arena.parts import parts
from referee.arena.protocol import LineBot
from referee.jobs import registry
from referee.jobs.live import LiveError, Outcome, table_view

POLICIES = ("pass", "forfeit")
#: A table that has not ended after this many plies is stopped (a guard, not a rule).
MAX_PLIES = 20000


@dataclass(frozen=True)
class TableSpec:
    """Everything a worker needs to play one table (it travels to processes and Dask)."""

    number: int
    game: str
    rules: str
    options: str
    rounds: int
    seed: int
    #: The entrants, in seat order.
    entrants: tuple[Entrant, ...]
    time_limit: float = 5.0
    game_limit: float | None = None
    policy: str = "pass"
    #: Set-up fields a position gives the live table (``decks``, ``hands``, ...).
    start: dict[str, Any] | None = None
    #: Where bots' standard error is appended (None: thrown away).
    stderr_dir: str | None = None
    #: A table of this listener's protocol (``contest.play_contest``); None: the game's own.
    protocol: str | None = None


@dataclass
class TableResult:
    number: int
    #: Entrant names, in seat order.
    names: list[str]
    #: Each game played (a Caravan game, a Daifugo round): every seat's rank, 0 the best.
    events: list[list[int]]
    record: str
    extension: str
    plies: int = 0
    #: Each seat's think times, one per move it was asked for (seconds).
    think: list[list[float]] = field(default_factory=list)
    incidents: list[dict[str, Any]] = field(default_factory=list)
    #: Seconds the table took, wall clock.
    wall: float = 0.0
    #: Why the table could not be played (then it has no games), or None.
    error: str | None = None
    #: CPU seconds: of the process that played the table (the arena, and the built-in
    #: players moving in it), of the built-in players' moves in it, and of the bots' own
    #: processes (line-protocol bots, contest clients).
    cpu: float = 0.0
    players_cpu: float = 0.0
    processes_cpu: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableResult:
        return cls(**data)


class _Seat:
    def __init__(self, index: int, entrant: Entrant, spec: TableSpec, names: list[str]):
        self.index = index
        self.entrant = entrant
        self.think: list[float] = []
        self.spent = 0.0
        self.forfeited = False
        self.bot: LineBot | None = None
        if entrant.kind == "stdio":
            stderr = Path(spec.stderr_dir) / f"{entrant.name}.stderr" if spec.stderr_dir else None
            hello = {"game": spec.game, "rules": spec.rules, "options": spec.options, "seat": entrant.name,
                     "seats": names, "seed": (spec.seed * 31 + index) % 2**63, "table": spec.number}
            self.bot = LineBot(entrant.arg, hello, spec.time_limit, stderr)


def creation(game: str, rules: str, options: str, names: list[str], rounds: int, seed: int,
             start: dict[str, Any] | None) -> dict[str, Any]:
    """What the game's live table is created from (as ``pitboss serve`` creates one),
    with a start position's fields (its decks, by seat, named)."""
    body: dict[str, Any] = {"game": game, "rules": rules, "options": options, "seats": names, "rounds": rounds,
                            "seed": seed}
    given = dict(start or {})
    if isinstance(given.get("decks"), list):  # a position's decks, by seat
        given["decks"] = dict(zip(names, given["decks"], strict=False))
    body.update(given)
    return body


class Table:
    def __init__(self, spec: TableSpec):
        self.spec = spec
        self.live, self.players = parts(spec.game)
        self.extension = registry.game(spec.game).notation.extensions[0]
        self.names = [e.name for e in spec.entrants]
        self.setup = self.live.create(creation(spec.game, spec.rules, spec.options, self.names, spec.rounds,
                                               spec.seed, spec.start))
        self.match = self.live.open(self.setup)
        self.seats = [_Seat(i, e, spec, self.names) for i, e in enumerate(spec.entrants)]
        self.incidents: list[dict[str, Any]] = []
        self.bots = [e.arg if e.kind == "bot" else None for e in spec.entrants]
        self.bots_cpu = 0.0

    # ------------------------------------------------------------------ one move

    def view(self, seat: int) -> dict[str, Any]:
        return table_view(self.match, seat, table_id=f"arena-{self.spec.number}", game=self.spec.game,
                          rules=str(self.setup["rules"]), options=str(self.setup.get("options", "")),
                          status=self.match.status(), bots=self.bots,
                          clock={"move_seconds": self.spec.time_limit})

    def _incident(self, seat: _Seat, kind: str, message: str, consequence: str) -> None:
        view = self.match.view(None)
        self.incidents.append({"entrant": seat.entrant.name, "table": self.spec.number, "seat": seat.index,
                               "round": view.get("round"), "ply": self.match.ply, "kind": kind,
                               "message": message, "consequence": consequence})

    def _fallback(self, seat: _Seat, kind: str, message: str) -> Outcome:
        """The rules' answer to a seat that did not make a legal move (reported)."""
        if self.spec.policy == "forfeit":
            seat.forfeited = True
        if seat.bot is not None:
            seat.bot.kill()
        out = self.match.timeout_move(seat.index)
        made = out.public or out.stored
        self._incident(seat, kind, message, ("gives up the table: " if seat.forfeited else "") + made)
        return out

    def move(self, seat: _Seat) -> Outcome:
        match = self.match
        if seat.forfeited:
            return match.timeout_move(seat.index)
        entrant = seat.entrant
        if entrant.kind == "bot":
            t0, c0 = time.perf_counter(), time.process_time()
            out = match.bot_move(seat.index, entrant.arg, (self.spec.seed * 1_000_003 + match.ply) % 2**32)
            seat.think.append(time.perf_counter() - t0)
            self.bots_cpu += time.process_time() - c0
            return out
        assert seat.bot is not None
        view = self.view(seat.index)
        t0 = time.perf_counter()
        text, problem = seat.bot.ask(view)
        spent = time.perf_counter() - t0
        if problem is None or problem.kind in ("timeout", "garbage"):
            seat.think.append(spent)
            seat.spent += spent
        if problem is not None:
            return self._fallback(seat, problem.kind, problem.message)
        assert text is not None
        limit = self.spec.game_limit
        if limit is not None and seat.spent > limit:
            seat.forfeited = True
            return self._fallback(seat, "game-time", f"its moves took {seat.spent:.2f} s in all, over the "
                                  f"table's {limit:g} s")
        try:
            out = match.submit(seat.index, text)
        except LiveError as err:
            return self._fallback(seat, "garbage", f"{text[:60]!r} is not a move: {err.message}")
        if out.counted_as is not None:
            self._incident(seat, "illegal", f"{text[:60]!r}: {out.message} [{out.rule}]", f"counted as {out.counted_as}")
            return out
        if not out.accepted:
            why = f"{text[:60]!r}: {out.message}" + (f" [{out.rule}]" if out.rule else "")
            return self._fallback(seat, "illegal", why)
        return out

    # ------------------------------------------------------------------ the table

    def play(self) -> TableResult:
        match = self.match
        t0 = time.perf_counter()
        error = None
        for seat in self.seats:
            problem = seat.bot.start() if seat.bot is not None else None
            if problem is not None:
                self._incident(seat, problem.kind, problem.message, "started again at its first move")
        try:
            while match.status() != "finished":
                if match.ply > MAX_PLIES:
                    error = f"stopped after {MAX_PLIES} plies without an end"
                    break
                outcome = match.server_move()
                if outcome is None:
                    movers = match.movers()
                    if not movers:
                        error = "no seat may move, and the game is not over"
                        break
                    outcome = self.move(self.seats[movers[0]])
                match.commit(outcome)
        finally:
            result = match.view(None)["result"]
            for seat in self.seats:
                if seat.bot is not None:
                    seat.bot.end(result)
        events = self.players.ranks(result, self.names) if error is None else []
        return TableResult(self.spec.number, self.names, events, match.record(), self.extension,
                           match.ply, [s.think for s in self.seats], self.incidents,
                           time.perf_counter() - t0, error, players_cpu=self.bots_cpu)


class CpuClock:
    """CPU seconds since it was made: this process's, and its children's that have ended
    since (the bots' processes, each waited for when its table ends)."""

    def __init__(self) -> None:
        self.own = time.process_time()
        self.children = _children_cpu()

    def read(self) -> tuple[float, float]:
        return time.process_time() - self.own, _children_cpu() - self.children


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
