"""Self-play: random legal, complete Daifugo matches as DFN, for tests, benchmarks and
users' own tools.

A match is several rounds among 3 to 8 players (5 under ``uecda``): each round is dealt
from a shuffled deck one card at a time as the rules say (seed: from the first-ranked
player; uecda: from a random dealer in seat order), the exchange gifts are chosen among the
legal ones, and every move is drawn by the engine's ``random_move``: uniformly among the
legal plays, judging candidates only until one is legal (a player who may pass does so now
and then, not as often as a uniform draw would make them). Everything goes
through the engine; the generator holds no rule of its own. The same seed gives the same
matches: each is made on its own from the seed and its number, so any number of
processes make the same matches.

``contest_logs`` plays the same random players at a UEC contest table instead and writes
what the contest server writes: its game log (``--format uecda-log``). The server's own
randomness (uecda/engine/tndhms.py) seats the players, picks the dealer and deals from the log's
``RANDOM_SEED``; the games are chained as the server chains them (the titles, the
exchange: the server's transfers of the lower titles' strongest cards, then the daifugo's
and the fugo's gifts, the 20-pass rule's random places, the running points of the later
revision), so ``pitboss validate`` judges the log as it judges a real one, seed and all.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.engines.base import Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import (
    hand_text,
    options_text,
    ruleset_of,
    write_daifugo,
)
from referee.games.daifugo.uecda.engine import tndhms
from referee.games.daifugo.uecda.notation import log as ul
from referee.games.daifugo.uecda.notation import writer
from referee.jobs.selfplay import items, unit_random

NAMES = ("Aki", "Ben", "Chie", "Dai", "Eri", "Fumi", "Gen", "Hana")
#: How often a player who may pass does, when they could also play.
PASS_RATE = 0.25
#: A round that runs longer than this is abandoned and dealt again (it cannot happen
#: under the rules as they are; a guard against an engine bug looping forever).
MAX_PLIES = 2000


@dataclass
class DaifugoMatch:
    tags: dict[str, str]
    #: Each round's tags and moves.
    rounds: list[tuple[dict[str, str], list[df.Move]]]
    #: Each round's final state.
    finals: list[df.State]

    def text(self) -> str:
        return write_daifugo(self.tags, self.rounds)

    def counts(self) -> dict[str, int]:
        plays = sum(1 for _, moves in self.rounds for move in moves if type(move) is df.Play)
        return {"moves": self.plies, "rounds": len(self.rounds), "plays": plays}

    @property
    def plies(self) -> int:
        return sum(len(moves) for _, moves in self.rounds)


def deal(rng: random.Random, rules: df.RuleSet, n: int, order: Sequence[int]) -> list[tuple[Card, ...]]:
    """A shuffled deck dealt one card at a time to the players in ``order``."""
    cards = list(df.deck(rules, n))
    rng.shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i, card in enumerate(cards):
        hands[order[i % n]].append(card)
    return [tuple(h) for h in hands]


def choose(rng: random.Random, state: df.State) -> df.Move:
    """A random legal move: a pass now and then where one is legal, else a random play
    (a pass when there is none); drawn by the engine without listing every legal move."""
    return df.random_move(state, rng, PASS_RATE)


def play_round(rng: random.Random, rules: df.RuleSet, names: Sequence[str], number: int,
               previous: tuple[int, ...] | None,
               seats: tuple[int, ...] | None) -> tuple[dict[str, str], list[df.Move], df.State] | None:
    """One round from a fresh deal: its tags, its moves and its final state (None if it ran
    past MAX_PLIES)."""
    n = len(names)
    fixed = df.default_seats(rules, n, previous)
    seat_t = fixed if fixed is not None else (seats or tuple(range(n)))
    if rules.deal_start == "first":
        order: Sequence[int] = previous if previous is not None else range(n)
    else:
        start = rng.randrange(n)
        order = seat_t[start:] + seat_t[:start]
    hands = deal(rng, rules, n, list(order))
    state = df.new_round(rules, hands, seat_t, previous, number, names)
    moves: list[df.Move] = []
    append, random_move, apply, rate = moves.append, df.random_move, df.apply, PASS_RATE
    for _ in range(MAX_PLIES):
        if state.phase == "over":
            break
        move = random_move(state, rng, rate)  # choose(), inlined: once a move
        append(move)
        state = apply(state, move)
    else:
        if state.phase != "over":
            return None
    tags = {"Round": str(number)}
    for p, name in enumerate(names):
        tags[f"Hand.{name}"] = hand_text(hands[p])
    if fixed is None:
        tags["Order"] = " ".join(names[p] for p in seat_t)
    tags["Finish"] = " ".join(names[p] for p in df.finishing_order(state))  # type: ignore[union-attr]  # the round is over here
    return tags, moves, state


def play_match(rng: random.Random, rules: df.RuleSet, players: int, rounds: int) -> DaifugoMatch:
    names = NAMES[:players]
    seats = None
    if rules.seating == "given":
        seats = tuple(rng.sample(range(players), players))
    tags = {"Game": "Daifugo", "Rules": rules.name}
    options = options_text(rules)
    if options:
        tags["Options"] = options
    tags["Players"] = " ".join(names)
    played: list[tuple[dict[str, str], list[df.Move]]] = []
    finals: list[df.State] = []
    previous = None
    while len(played) < rounds:
        got = play_round(rng, rules, names, len(played) + 1, previous, seats)
        if got is None:  # pragma: no cover - see MAX_PLIES
            continue
        round_tags, moves, state = got
        played.append((round_tags, moves))
        finals.append(state)
        previous = df.finishing_order(state)
    return DaifugoMatch(tags, played, finals)


#: The output formats of ``pitboss selfplay daifugo``.
FORMATS = ("dfn", "uecda-log")


def maker(rules: str = df.DEFAULT_PRESET, players: int = 5, options: str = "", rounds: int = 3,
          format: str = "dfn", revision: str = "2018") -> MatchMaker | LogMaker:
    """What makes match number ``index`` of a seed (``referee.jobs.selfplay``): a DFN
    record, or with ``format="uecda-log"`` a contest-server log (``revision`` picks the
    server's). Raises ValueError for an unknown preset or option, or a player count the
    rules do not allow."""
    if format == "uecda-log":
        if rules != "uecda" or players != 5:
            raise ValueError("a contest-server log is played by 5 players under the contest's rules: "
                             "add --rules uecda (and leave --players at 5)")
        return LogMaker(options, rounds, revision)
    if format != "dfn":
        raise ValueError(f"self-play writes {' or '.join(FORMATS)}, not {format}")
    return MatchMaker(rules, players, options, rounds)


def daifugo_matches(count: int, seed: int, players: int = 5, rules: str = df.DEFAULT_PRESET,
                    options: str = "", rounds: int = 3, format: str = "dfn",
                    revision: str = "2018") -> Iterator[DaifugoMatch | ContestLog]:
    """``count`` complete matches of ``rounds`` rounds from ``seed`` (match ``i`` is
    ``maker(...)(seed, i)``, whatever else is made): DFN records, or with
    ``format="uecda-log"`` contest-server logs. Raises ValueError (at once) as ``maker``."""
    return items(maker(rules, players, options, rounds, format, revision), count, seed)


@dataclass(frozen=True)
class MatchMaker:
    """A DFN match on its own: every deal, seat and move drawn from ``unit_random(seed,
    index)``."""

    rules: str
    players: int
    options: str
    rounds: int
    whole_file: ClassVar[bool] = False

    def __post_init__(self) -> None:
        refused = df.check_players(ruleset_of(self.rules, self.options), self.players)
        if refused is not None:
            raise ValueError(refused.message)
        if self.rounds < 1:
            raise ValueError("a match has at least one round")

    def __call__(self, seed: int, index: int) -> DaifugoMatch:
        # ruleset_of gives equal rule sets as one object: the engine's memo serves them all
        return play_match(unit_random(seed, index), ruleset_of(self.rules, self.options), self.players, self.rounds)


# ------------------------------------------------------------------ contest-server logs

#: The self-played tables' host and clock, as the later revision's header writes them
#: (fixed, so that the same seed gives the same log).
HOSTNAME = "pitboss-selfplay"
CLOCK = "2026/01/01 00:00:00"


@dataclass
class ContestLog:
    """One contest table's match as the server logs it."""

    seed: int
    lines: list[str]
    games: int
    #: Submissions (plays and passes) and card plays, over the games.
    plies: int
    plays: int

    def text(self) -> str:
        return "".join(self.lines)

    def counts(self) -> dict[str, int]:
        return {"moves": self.plies, "games": self.games, "plays": self.plays}

    def file_name(self, number: int) -> str:
        return f"table-{number:04d}-seed{self.seed}.log"


def contest_logs(count: int, seed: int, options: str = "", games: int = 3,
                 revision: str = "2018") -> Iterator[ContestLog]:
    """``count`` contest logs of ``games`` games each from ``seed`` (log ``i`` is
    ``LogMaker(...)(seed, i)``, its ``RANDOM_SEED`` drawn from ``unit_random(seed, i)``);
    ``options`` as a contest table takes them (``+eleven-back -sequences ...``),
    ``revision`` "2018" (tndhms 0.29) or "later". Raises ValueError (at once) for what a
    contest log cannot state."""
    return items(LogMaker(options, games, revision), count, seed)


@dataclass(frozen=True)
class LogMaker:
    """A contest table's log on its own: its ``RANDOM_SEED`` and the players' choices
    drawn from ``unit_random(seed, index)``."""

    options: str
    games: int
    revision: str
    #: A log holds one match: each is a file of its own.
    whole_file: ClassVar[bool] = True
    #: The table's configuration, built once from the above (it travels with the maker).
    config: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from referee.games.daifugo.uecda.contest.config import ConfigError, ContestConfig, with_options

        if self.games < 1:
            raise ValueError("a match has at least one game")
        if self.revision not in ul.REVISIONS:
            raise ValueError(f"the contest server's revision is {' or '.join(ul.REVISIONS)}, not {self.revision}")
        try:
            config = with_options(ContestConfig(games=self.games, revision=self.revision), self.options)
        except ConfigError as err:
            raise ValueError(str(err)) from None
        object.__setattr__(self, "config", config)  # frozen: set once, here

    def __call__(self, seed: int, index: int) -> ContestLog:
        rng = unit_random(seed, index)
        return _contest_log(rng, self.config, self.config.rules(), rng.randrange(1, 2**31))


def _contest_log(rng: random.Random, config, rules: df.RuleSet, random_seed: int) -> ContestLog:
    """One table's match: the server's draws from ``random_seed``, random players' moves."""
    names = NAMES[:tndhms.N_PLAYERS]
    header = config.header(names, random_seed)
    match = tndhms.Match(config.match_rules(), random_seed)
    lines = writer.header_lines(header, HOSTNAME, CLOCK)
    totals = [0] * tndhms.N_PLAYERS
    previous: tuple[int, ...] | None = None
    plies = plays = 0
    for n in range(1, config.games + 1):
        deal = match.deal(previous[0] if previous else None)
        fresh = deal.fresh or previous is None
        classes = [0] * tndhms.N_PLAYERS if fresh else [previous.index(p) for p in range(tndhms.N_PLAYERS)]  # type: ignore[union-attr]  # not fresh: previous is set
        mibun = "22222" if fresh else "".join(map(str, classes))
        state = df.new_round(rules, deal.hands, deal.seats, None if fresh else previous, n, names)
        changes: list[tuple[int, int, tuple[Card, ...]]] = []
        while state.phase == "exchange":  # the server's transfers, then the daifugo's and the fugo's gifts
            duty = state.pending[0]  # the order the server makes them: daihinmin, hinmin, daifugo, fugo
            gift = _gift(rng, state, duty)
            state = df.apply(state, gift)
            changes.append((gift.giver, gift.receiver, gift.cards))
        entries: list[str] = []
        while state.phase != "over":
            if len(entries) >= MAX_PLIES:  # pragma: no cover - see MAX_PLIES
                raise AssertionError(f"game {n} of seed {random_seed} ran past {MAX_PLIES} submissions")
            move = df.random_move(state, rng, PASS_RATE)
            entries.append(ul.entry_code(move))
            if type(move) is df.Play:
                plays += 1
            state = df.apply(state, move)
        plies += len(entries)
        result = match.stall_places(state.finished) if state.stalled else df.finishing_order(state)
        assert result is not None
        for place, p in enumerate(result):
            totals[p] += tndhms.place_points(place)
        lines += writer.game_lines(header, n - 1, mibun, deal.seats, deal.hands, entries, result, changes, totals)
        previous = tuple(result)
    lines += writer.trailer_lines(header, CLOCK, totals)
    return ContestLog(random_seed, lines, config.games, plies, plays)


def _gift(rng: random.Random, state: df.State, duty: df.Duty) -> df.Give:
    """The gift a duty makes at the table: the server's transfer (the strongest cards), or
    the player's choice drawn at random; a choice the rules refuse is replaced by the
    strongest cards, as the server replaces it."""
    source = state.hands[duty.giver]
    if not duty.server and duty.choose == "choice":
        chosen = tuple(sorted(source[i] for i in rng.sample(range(len(source)), duty.count)))
        gift = df.Give(duty.giver, duty.receiver, chosen)
        if df.check(state, gift) is None:
            return gift
    return df.Give(duty.giver, duty.receiver, df.strongest_cards(source, duty.count))
