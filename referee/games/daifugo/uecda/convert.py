"""A UEC contest-server log written as DFN, and a DFN match as a log: the game's
``convert`` part (``pitboss convert``).

Each game of the log becomes a round of a DFN match under ``[Rules "uecda"]`` (with the
header's flags as ``Options``): its hands as dealt (``Hand.NAME``), its seats
(``Order``), the exchange the log does not record, as the referee inferred it (the
server's transfers, then the upper titles' gifts), every entry of its ``play`` line as a
move (a rejected submission stays as written; under ``uecda`` the DFN referee counts it
as a pass, as the server did) and its ``result`` line as ``Finish``.

A DFN match carries titles from one round to the next, so a match runs as long as the
log's games follow each other with titles; a game that starts without titles (the log's
first, one that starts a ``FLASH_MIBUN_NUMBER`` block, ``mibun 22222``) starts a new
record. What DFN cannot say is left out, with the reason, never guessed: a game the log
reader could not read, one whose ``mibun`` line contradicts the server, one whose
exchange no choice explains, an entry with a card
outside the server's table, a game whose titles come from a game that was left out or found invalid (a DFN replay
stops at its record's first error, so an invalid game ends its record).

Plies: DFN counts the exchange gifts as moves of the round, the log does not; each
converted round says how many gifts it starts with (:attr:`Round.gifts`), so a finding
at DFN ply ``p`` is the log's ply ``p - gifts``.

What the log's header says beyond the rules (the server's window, random-number, seating
and port settings, its RANDOM_SEED where the record starts at the log's first game, the
later revision's host and clock) goes into ``[Log.KEY "value"]`` tags, so that the record
written back as a log (:func:`write_records`, ``record_log``) has the header the server
wrote; read back, that log gives the record's verdicts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from referee.engines.message import M
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import options_text, write_daifugo
from referee.games.daifugo.uecda.exchange_inference import infer_exchange
from referee.games.daifugo.uecda.log_referee import LogReferee, log_rules
from referee.games.daifugo.uecda.log_replay import LogGameReplay, Outcome
from referee.games.daifugo.uecda.notation import log as ul
from referee.games.daifugo.uecda.record_log import CARRIED, LOG_TAG, Unwritable, write_log
from referee.games.daifugo.uecda.seed_check import logged_exchange
from referee.i18n import Text, tr
from referee.jobs.game import Written

#: What ``pitboss convert --to`` writes a DFN record as (``write_records``).
RECORD_TARGETS = ("uecda-log",)

#: Why a game is left out (one place, for translation).
TEXT = Text({
    "unread": M("game {game} was not converted: the log reader found {count} problem(s) in it ({first})"),
    "no_header": M("game {game} was not converted: the log has no header before it"),
    "bad_cell": M("game {game} was not converted: entry {entry} holds a card outside the server's table, "
                "which DFN cannot write"),
    "exchange": M("game {game} was not converted: no exchange explains its play ({first})"),
    "orphan": M("game {game} was not converted: its titles (mibun {mibun}) come from game {previous}, "
              "which is not in the converted match or is invalid, and a DFN record cannot state titles"),
    "titles": M("game {game} was not converted: its mibun line contradicts the server ({message}), "
              "and a DFN record cannot state titles"),
    "deal": M("game {game} was not converted: its deal is not the deck ({first})"),
})


@dataclass
class Round:
    #: The log's game (its number from 1, as ``validate`` reports it).
    game: int
    #: The exchange gifts written before the log's entries.
    gifts: int


@dataclass
class Converted:
    """One DFN record made of log games, or (``text`` empty) only the reasons games of
    the log were left out."""

    text: str
    rounds: list[Round] = field(default_factory=list)
    #: Games left out, each with why.
    skipped: list[str] = field(default_factory=list)


class _Recorder(LogGameReplay):
    """The log referee's replay of one game, keeping the start (after the exchange) of
    every replay it is asked for, and what that replay found."""

    def __init__(self, game: ul.LogGame) -> None:
        super().__init__(game)
        self.tried: list[tuple[df.State, object]] = []

    def replay(self, start: df.State) -> Outcome:
        outcome = super().replay(start)
        self.tried.append((start, outcome))
        return outcome


def _gifts(start: df.State, after: df.State) -> list[df.Give]:
    """The exchange from ``start`` to ``after`` as moves, in the order the server makes
    them: its own transfers of the lower titles' strongest cards first, then each upper
    title's gift, the cards it held then and holds no more (it may give back a card it
    was just given)."""
    moves: list[df.Give] = []
    state = start
    while state.phase == "exchange" and any(d.server for d in state.pending):
        duty = next(d for d in state.pending if d.server)
        move = df.Give(duty.giver, duty.receiver, df.strongest_cards(state.hands[duty.giver], duty.count))
        moves.append(move)
        state = df.apply(state, move)
    while state.phase == "exchange" and state.pending:
        duty = state.pending[0]
        lost = Counter(state.hands[duty.giver]) - Counter(after.hands[duty.giver])
        given = []
        for c in state.hands[duty.giver]:
            if lost[c] > 0:
                lost[c] -= 1
                given.append(c)
        move = df.Give(duty.giver, duty.receiver, tuple(given))
        if df.check(state, move) is not None:
            break
        moves.append(move)
        state = df.apply(state, move)
    return moves


def _titles(game: ul.LogGame) -> tuple[int, ...] | None:
    """The previous finishing order a game's ``mibun`` line gives (None: no titles)."""
    value = game.mibun.value
    if value == "22222" or sorted(value) != list("01234"):
        return None
    classes = [int(c) for c in value]
    return tuple(sorted(range(5), key=classes.__getitem__))


def convert_log(lines: Iterable[str], file: str = "") -> Iterator[Converted]:
    """The log's games as DFN records (see the module's description), in log order."""
    current: dict | None = None
    last_game: ul.LogGame | None = None
    last_kept = False
    referee = LogReferee(file)

    def finish() -> Converted | None:
        nonlocal current
        if current is None or not current["rounds"]:
            current = None
            return None
        ended = current["header"].flags.get("TIME_END")  # known once the log's last game is read
        if ended is not None:
            current["tags"][LOG_TAG + "TIME_END"] = ended
        out = Converted(write_daifugo(current["tags"], current["rounds"]), current["meta"])
        current = None
        return out

    for game in ul.read_log(lines, file):
        if not game.seen:  # no game line at all (a log cut short after its header): no game to write
            continue
        previous_game, previous_kept = last_game, last_kept
        last_game, last_kept = game, False
        # The DFN replay stops at a record's first error: a game the log referee finds
        # invalid ends its record, and the next game's titles cannot follow from it.
        verdict = referee.judge(game)
        broken = not verdict.valid
        why = _unconvertible(game)
        titles_wrong = next((f for f in verdict.errors if f.rule == "daifugo.result.titles"), None)
        if why is None and titles_wrong is not None:
            why = TEXT["titles"].format(game=game.index, message=tr(titles_wrong.message))
        if why is None:
            header = game.header
            assert header is not None
            flash = header.number("FLASH_MIBUN_NUMBER", 0)
            fresh = game.number == 0 or (flash > 0 and game.number % flash == 0)
            titles = None if fresh else _titles(game)
            follows = previous_game is not None and previous_kept and game.number == previous_game.number + 1
            if titles is not None and not (follows and current is not None):
                why = TEXT["orphan"].format(game=game.index, mibun=game.mibun.value,
                                            previous=game.index - 1)
        if why is not None:
            done = finish()
            if done is not None:
                yield done
            yield Converted("", skipped=[why])
            continue
        converted = _round(game, titles)
        if isinstance(converted, str):
            done = finish()
            if done is not None:
                yield done
            yield Converted("", skipped=[converted])
            continue
        round_tags, moves, gifts, rules = converted
        if titles is None or current is None:
            done = finish()
            if done is not None:
                yield done
            names = game.header.names  # type: ignore[union-attr]  # a game with titles has a header
            tags = {"Game": "Daifugo", "Rules": rules.name}
            options = options_text(rules)
            if options:
                tags["Options"] = options
            tags["Players"] = " ".join(names)
            tags["Event"] = f"{file or 'contest log'}, from game {game.index}"
            tags.update(_carried_tags(game))
            current = {"tags": tags, "rounds": [], "meta": [], "header": game.header}
        round_tags = {"Round": str(len(current["rounds"]) + 1), **round_tags}
        current["rounds"].append((round_tags, moves))
        current["meta"].append(Round(game.index, gifts))
        last_kept = not broken
        if broken:
            done = finish()
            if done is not None:
                yield done
    done = finish()
    if done is not None:
        yield done


def _carried_tags(game: ul.LogGame) -> dict[str, str]:
    """The header's lines a DFN record states in ``Log.KEY`` tags: its RANDOM_SEED only
    where the record starts at the log's first game (the seed's draws give later games
    only after every game before them)."""
    flags = game.header.flags  # type: ignore[union-attr]  # a converted game has its header
    return {LOG_TAG + key: flags[key] for key in CARRIED
            if key in flags and key != "TIME_END" and (key != "RANDOM_SEED" or game.number == 0)}


def _unconvertible(game: ul.LogGame) -> str | None:
    if game.errors:
        return TEXT["unread"].format(game=game.index, count=len(game.errors), first=tr(game.errors[0].message))
    if game.header is None:
        return TEXT["no_header"].format(game=game.index)
    for entry in game.entries:
        if entry.move is None:
            return TEXT["bad_cell"].format(game=game.index, entry=entry.text)
    return None


def _round(game: ul.LogGame, titles: tuple[int, ...] | None):
    """(round tags, moves, gifts, rules) of one game, or why it cannot be written."""
    header = game.header
    assert header is not None
    rules = log_rules(header)
    names = header.names
    hands = [tuple(h) for h in game.hands]
    violations = df.check_deal(rules, hands, game.seats)
    if violations:
        return TEXT["deal"].format(game=game.index, first=tr(violations[0].message))
    start = df.new_round(rules, hands, game.seats, titles, game.index, names)
    gifts: list[df.Give] = []
    if start.phase == "exchange" and game.changes is not None:  # the later revision logs it
        after, wrong = logged_exchange(game, start)
        if wrong:
            return TEXT["exchange"].format(game=game.index, first=tr(wrong[0].message))
        gifts = _gifts(start, after)
    elif start.phase == "exchange":
        recorder = _Recorder(game)
        outcome = infer_exchange(recorder, start)
        chosen = next((s for s, o in recorder.tried if o is outcome), None)
        errors = outcome[1]
        if chosen is None or any(f.rule == "daifugo.exchange.choice" for f in errors):
            first = errors[0].message if errors else "no replay of it"
            return TEXT["exchange"].format(game=game.index, first=first)
        gifts = _gifts(start, chosen)
    tags = {f"Hand.{name}": " ".join(map(str, hand)) for name, hand in zip(names, hands)}
    tags["Order"] = " ".join(names[p] for p in game.seats)
    if game.result.order:
        tags["Finish"] = " ".join(names[p] if 0 <= p < len(names) else str(p) for p in game.result.order)
    moves: list[df.Move] = [*gifts, *(e.move for e in game.entries if e.move is not None)]
    return tags, moves, len(gifts), rules


def records(lines: Iterable[str], file: str = "") -> Iterator[str]:
    """The log as DFN text, piece by piece: each record, and a ``;`` comment line saying
    why for each game left out, in log order."""
    first = True
    for converted in convert_log(lines, file):
        for why in converted.skipped:
            yield f"; {why}\n"
        if converted.text:
            yield ("" if first else "\n") + converted.text
            first = False


# ------------------------------------------------------------------ DFN to a contest log

#: Why a file's records cannot be written as a log (one place, for translation).
FILE_TEXT = Text({
    "one": M("{file} holds {count} records: a contest-server log holds one series of games; "
             "choose one with --game"),
    "none": M("{file} holds no record"),
})


def write_records(target: str, lines: Iterable[str], file: str, record: int | None = None) -> Written:
    """A DFN file's record (the only one, or number ``record``) as ``target`` (one of
    :data:`RECORD_TARGETS`: a contest-server log, see ``record_log``); its ``notes`` say
    what was left out. Raises Unwritable, saying why it cannot be."""
    if target not in RECORD_TARGETS:
        raise Unwritable(f"DFN records can be written as {', '.join(RECORD_TARGETS)}, not {target}")
    from referee.jobs.timeline import timelines

    found = list(timelines(lines, file))
    if not found:
        raise Unwritable(FILE_TEXT["none"].format(file=file))
    if record is None:
        if len(found) > 1:
            raise Unwritable(FILE_TEXT["one"].format(file=file, count=len(found)))
        record = 1
    if not 1 <= record <= len(found):
        raise Unwritable(f"{file} has no record {record} (records 1 to {len(found)})")
    return write_log(found[record - 1], record)
