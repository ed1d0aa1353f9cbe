"""A contest table as a table of the live service (``pitboss serve --uecda``): what the
service shows of it, stores of it and reads back after a restart.

Its seats are the five TCP connections, so no seat plays it over HTTP; its plies (gifts
and turns, :class:`flow.Step`) come from the protocol's own table (``table.ContestTable``),
which the service's listener feeds in (``referee/games/daifugo/uecda/hub.py``) as
:meth:`ContestMatch.outcome`. The set-up (:func:`setup_of`) is JSON: the configuration,
the seed, the names as the clients sent them (spaces and repeats included), the players'
protocols, what each client did wrong (``reports``) and the deals given to its first
games (``deals``). The stored plies are the clients'
input (:meth:`flow.MatchFlow.stored`), so a restart plays the match again up to where it
stood, with the same draws; a table whose connections are gone with the process that held
them is ``interrupted``, its record the log as far as it got (which ``pitboss validate``
reports as cut short).

The public view shows what a spectator may see (no hand, no gift's cards, no seed before
the end; a rejected submission shown as the pass it counted as); to stay small in a match
of a thousand games, its ``moves`` are the game in play's (``moves_from`` is the ply of
the first), and its record is the contest's log: the whole of it once the match is over
(or as far as it got, once interrupted), before that the lines anyone at the table has
seen (no ``palyer_cards``, no ``change_cards``, no ``RANDOM_SEED``).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, NamedTuple

from referee.games.daifugo import engine as df
from referee.games.daifugo.live import DaifugoMatch
from referee.games.daifugo.notation import dfn
from referee.games.daifugo.uecda.contest.config import ContestConfig
from referee.games.daifugo.uecda.contest.flow import MatchFlow, Step, StepError
from referee.games.daifugo.uecda.notation import writer
from referee.jobs.live import LiveError, Outcome

PROTOCOL = "uecda"
#: Finished games the view lists (the whole result comes once the match is over).
RECENT_GAMES = 5
_SECRET_LINES = ("%palyer_cards%", "%change_cards%", "%-----%RANDOM_SEED%")


class _Stepped(NamedTuple):
    """A step of the contest's table and the log's TIME_END with it, kept in its outcome
    until committed."""

    step: Step
    ended: str | None


def config_json(config: ContestConfig) -> dict[str, Any]:
    return asdict(config)


def config_of(data: dict[str, Any]) -> ContestConfig:
    return ContestConfig(**{**data, "default_names": tuple(data["default_names"])})


def setup_of(table: Any) -> dict[str, Any]:
    """The set-up of a protocol table (``table.ContestTable``) as the service stores it."""
    return {
        "protocol": PROTOCOL, "rules": table.rules.name, "options": dfn.options_text(table.rules),
        "config": config_json(table.config), "seed": table.seed, "names": [s.name for s in table.seats],
        "players": [{"player": s.player, "name": s.name, "protocol": s.protocol, "dropped": s.dropped}
                    for s in table.seats],
        "table": table.number, "hostname": table.hostname, "started": table.started_at,
        "log": str(table.log_path) if table.log_path is not None else None,
        "reports": [report_of(i) for i in table.incidents],
        "deals": [[dfn.hand_text(h) for h in deal] for deal in table.flow.deals],
    }


def report_of(incident: Any) -> dict[str, Any]:
    return asdict(incident)


def is_contest(setup: dict[str, Any]) -> bool:
    return setup.get("protocol") == PROTOCOL


def open(setup: dict[str, Any], attached: bool = False) -> ContestMatch:  # noqa: A001 - the protocol's name
    return ContestMatch(setup, attached)


class ContestMatch(DaifugoMatch):
    """The service's copy of a contest table (the live protocol Match of referee.jobs.live).
    ``attached``: fed by a protocol table of this process; otherwise (read back from the
    database) an unfinished one is ``interrupted``."""

    def __init__(self, setup: dict[str, Any], attached: bool = False):
        self.setup = setup
        self.config = config_of(setup["config"])
        self.seats = list(setup["names"])
        deals = [tuple(dfn.decode_cards(h)[0] for h in deal) for deal in setup.get("deals", [])]
        self.flow = MatchFlow(self.config, setup["seed"], self.seats, deals)
        self.rules = self.flow.rules
        self.n = len(self.seats)
        self.order = None
        self.rounds_wanted = self.config.games
        self.finishes: list[tuple[int, ...]] = []
        self.ply = 0
        self.last_play: df.Play | None = None
        #: The log's lines of the games ended (as the log has them, and as the public
        #: record shows them), the running points.
        self.lines: list[str] = []
        self.public_lines: list[str] = []
        self.totals: tuple[int, ...] = (0,) * self.n
        self.ended: str | None = None
        self.attached = attached
        #: The protocol's table stopped before its last game (the process stopped).
        self.cut = False
        #: Why the stored plies stopped replaying (None: they all did).
        self.broken: str | None = None
        #: The recent games' results as the view lists them, for how many games ended.
        self._recent: tuple[int, list[dict[str, Any]]] = (-1, [])
        self.flow.begin()
        self._new_game(self.flow.state)

    def _new_game(self, state: df.State) -> None:
        self.state = state
        self.game_state = state
        self.rounds = [({"Round": str(state.round_no)}, [])]
        self.public = []
        self.moves_from = self.ply + 1
        self.codes: list[str] = []
        self.last_play = None

    # ------------------------------------------------------------------ plies

    def outcome(self, step: Step, ended: str | None = None) -> Outcome:
        """A protocol table's step as the service commits it (``ended``: the log's
        TIME_END, with the match's last step)."""
        stored = self.flow.stored(step)
        if step.last and ended:
            stored += f" @{ended}"
        out = Outcome(step.kind == "give" or step.violation is None, step.seat, stored, self.flow.public(step),
                      events=step.events, after=_Stepped(step, ended))
        if not out.accepted:
            out.counted_as = "pass"
            if step.violation is not None:
                out.rule, out.message = step.violation.rule, step.violation.message
        return out

    def commit(self, outcome: Outcome) -> None:
        stepped = outcome.after
        if not isinstance(stepped, _Stepped):
            raise TypeError("an outcome this table did not judge")
        step, ended = stepped
        if step.game != self.state.round_no:
            self._new_game(step.before)
        self.rounds[-1][1].append(step.move)
        self.public.append(outcome.public)
        self.ply += 1
        if step.kind == "turn":
            # the public record shows a rejected submission as the pass it counted as (its
            # cards may be the mover's own)
            self.codes.append(step.code if step.violation is None else f"{step.seat}EE")
            if step.accepted and isinstance(step.move, df.Play):
                self.last_play = step.move
        self.state = step.after
        if step.after.table is None:
            self.last_play = None
        if step.ended is not None:
            self.finishes.append(step.ended.result)
            self.lines.extend(step.ended.lines)
            self.public_lines.extend(self._public_game(step.ended.lines))
            self.totals = step.ended.totals
            self.codes = []
        if step.last:
            self.ended = ended

    def replay(self, seat: int, stored: str) -> None:
        """A stored ply played again. One that does not fit (a database written by a
        version whose rules differ) stops the replay there: the table is shown as
        interrupted at that ply, and says why, rather than keep the service from starting."""
        if self.broken is not None:
            self.ply += 1
            return
        text, _, ended = stored.partition(" @")
        try:
            step = self.flow.replay(seat, text)
        except StepError as err:
            self.broken = f"stored ply {self.ply + 1} ({stored!r}) does not replay: {err}"
            self.ply += 1
            return
        self.commit(self.outcome(step, ended or None))

    def detach(self) -> None:
        """The protocol's table is gone (it ended, or the process is stopping)."""
        self.attached = False
        self.cut = not self.over

    # ------------------------------------------------------------------ what the service asks

    def status(self) -> str:
        if self.broken is not None:
            return "interrupted"
        if self.over:
            return "finished"
        return "playing" if self.attached else "interrupted"

    @property
    def interrupted(self) -> bool:
        return self.status() == "interrupted"

    def movers(self) -> list[int]:
        return []

    def legal(self, seat: int) -> list[str]:
        return []

    def submit(self, seat: int, text: str, replaying: bool = False) -> Outcome:
        return Outcome(False, seat, status=403, message="the seats of a contest table play over the contest "
                       "protocol, not over HTTP")

    def server_move(self) -> Outcome | None:
        return None

    def bot_move(self, seat: int, style: str, seed: int) -> Outcome:
        raise LiveError("a contest table has no bots", 422)

    def timeout_move(self, seat: int) -> Outcome:
        raise LiveError("a contest table's clock is the protocol's (--uecda-timeout)", 422)

    def _finished_rounds(self, every: bool = False) -> list[dict[str, Any]]:
        if not every:  # every view has them: made once per game ended
            if self._recent[0] != len(self.finishes):
                self._recent = (len(self.finishes), self._rounds(max(0, len(self.finishes) - RECENT_GAMES)))
            return self._recent[1]
        return self._rounds(0)

    def _rounds(self, first: int) -> list[dict[str, Any]]:
        out = []
        for number, order in enumerate(self.finishes[first:], start=first + 1):
            titles = df.titles(order)
            out.append({"round": number, "finish": [self.seats[p] for p in order],
                        "titles": [titles[p] for p in range(self.n)]})
        return out

    def result(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return {"rounds": self._finished_rounds(every=True), "points": list(self.totals)}

    def view(self, seat: int | None) -> dict[str, Any]:
        out = super().view(seat)
        out["moves_from"] = self.moves_from
        reports = self.setup.get("reports", [])
        for player, s in enumerate(out["seats"]):
            s["player"] = player
            s["dropped"] = self.setup["players"][player].get("dropped")
        out["contest"] = {"protocol": PROTOCOL, "table": self.setup.get("table"), "revision": self.config.revision,
                          "games": self.config.games, "games_done": len(self.finishes), "points": list(self.totals),
                          # who is to move by player number (two clients may share a name)
                          "to_move": None if self.over or self.state.phase != "play" else self.state.to_move,
                          "protocols": [p["protocol"] for p in self.setup["players"]]}
        if self.broken is not None:
            out["contest"]["replay_error"] = self.broken
        out["reports"] = [{k: r.get(k) for k in ("player", "name", "kind", "message", "game", "turn", "at")}
                          for r in reports]
        return out

    def _public_game(self, lines: list[str]) -> list[str]:
        """Lines as the public record shows them: no hands, no gifts, no seed, and the
        play line with the public codes of the game just ended."""
        out = []
        for line in lines:
            if any(s in line for s in _SECRET_LINES):
                continue
            if line[7:13] == "play% ":
                line = f"{line[:13]}{''.join(' ' + c for c in self.codes)}\n"
            out.append(line)
        return out

    def record(self) -> str:
        """The contest's log: whole once the match is over, or as far as it got when it
        was interrupted (as the log file is then); before that the lines every player has
        seen, and the game in play's so far."""
        header = writer.header_lines(self.flow.header, self.setup.get("hostname", ""), self.setup.get("started", ""))
        if self.over and self.broken is None:
            return "".join(header + self.lines + writer.trailer_lines(self.flow.header, self.ended or "",
                                                                      self.totals))
        if self.interrupted:
            return "".join(header + self.lines)
        lines = self._public_game(header) + self.public_lines
        if not self.state.over:
            start = self.game_state
            number = len(self.finishes)
            tag = f"%{number:05d}%"
            previous = start.previous
            mibun = "22222" if previous is None else "".join(str(previous.index(p)) for p in range(self.n))
            lines += [f"{tag}mibun% {mibun}\n", f"{tag}seat% {''.join(map(str, start.seats))}\n",
                      f"{tag}play% {''.join(' ' + c for c in self.codes)}\n"]
        return "".join(lines)
