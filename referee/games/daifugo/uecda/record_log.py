"""A DFN match under ``uecda`` written as the contest server's log (``pitboss convert
match.dfn --to uecda-log``): one game per round, as the server would have logged it.

The header is the server's, every line in its order (``notation.writer``): the rule flags
that state the record's rule set (``log_referee.header_flags``: a rule set no header states
is refused), the later revision where the record's trick ends when all but one have passed
(``trick-end=all-but-one``). What a DFN record cannot state in its own tags (the server's
window, random-number, seating and port settings, the ``RANDOM_SEED`` it drew the deals
from, the later revision's host and clock) a record converted from a log carries as
``[Log.KEY "value"]`` tags, and they are written back as they were; a record without them
gets the server's shipped configuration (tndhms.cfg). A record whose deals were not drawn
from a seed it states has no ``RANDOM_SEED`` line (any seed would contradict its deals):
that is said, and the conversion counts as one that left something out.

Each game: titles (``mibun``) from the round before, seats, the hands as dealt, the later
revision's exchange (``change_cards``, in the order the server makes it) and running
points, every submission (a rejected one too), the finishing order. A record that is
invalid is refused: a log records what the server did, and a valid log must not come of
an invalid record.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engines.message import M
from referee.games.daifugo import engine as df
from referee.games.daifugo.uecda.contest.config import ContestConfig
from referee.games.daifugo.uecda.engine.tndhms import place_points
from referee.games.daifugo.uecda.log_referee import header_flags
from referee.games.daifugo.uecda.notation import log as ul
from referee.games.daifugo.uecda.notation import writer
from referee.i18n import Text
from referee.jobs.game import Written

#: The header lines no DFN tag states otherwise, carried as ``[Log.KEY "value"]`` tags, and
#: what each holds ("flag": YES or NO; "number"; "text").
CARRIED = {"hostname": "text", "TIME_START": "text", "WINDOW_TYPE": "text", "GRAPH_WINDOW": "flag",
           "RAND_TYPE": "number", "RULE_KINSOKU": "flag", "RULE_5TOBI": "flag", "RULE_SEKIGAE": "flag",
           "RULE_SEKIGAE_NUM": "number", "FLASH_MIBUN_NUMBER": "number", "GAME_PORT": "number",
           "RANDOM_SEED": "number", "TIME_END": "text"}
LOG_TAG = "Log."
#: The later revision's host and clock where the record does not give them.
UNKNOWN_HOST = "unknown"
UNKNOWN_TIME = "0000/00/00 00:00:00"

#: Why a record cannot be written as a log, or what was left out (one place, for translation).
LOG_TEXT = Text({
    "game": M("record {record} is a {game} record: a contest-server log holds Daifugo games"),
    "rules": M("record {record}: {why}"),
    "unread": M("record {record} cannot be read cleanly ({first}); validate it first"),
    "invalid": M("record {record} is invalid ({first}, line {line}): a contest-server log records what the "
                 "server did, so it cannot hold an invalid record"),
    "snapshot": M("record {record}, round {round} starts from a position, not a deal: a log holds dealt games"),
    "stopped": M("record {record}, round {round} stops before the round ends: a log holds whole games"),
    "joker": M("record {record}, round {round}, ply {ply}: a joker whose reading DFN leaves open; the server "
               "logs each joker at the card it stands for"),
    "tag": M("record {record}: the {tag} tag holds {value}, not {kind}"),
    "flash": M("record {record} has {rounds} rounds, but its {tag} tag says the server drops the titles every "
               "{flash} games"),
    "seed": M("record {record} does not say which RANDOM_SEED the server drew its deals from (a record converted "
              "from a contest log starting at its first game does): the log has no RANDOM_SEED line"),
})

_KINDS = {"flag": M("YES or NO"), "number": M("a whole number"), "text": M("one line of text")}


class Unwritable(ValueError):
    """A record that a contest-server log cannot hold, and why."""


def _carried(record_tags: dict, record: int) -> dict[str, str]:
    """The ``Log.KEY`` tags of a record, each checked to be what the server writes there."""
    out = {}
    for key, kind in CARRIED.items():
        tag = record_tags.get(LOG_TAG + key)
        if tag is None:
            continue
        value = tag.value.strip()
        good = (value.upper() in ("YES", "NO") if kind == "flag" else
                value.isdigit() if kind == "number" else "\n" not in value and value != "")
        if not good:
            raise Unwritable(LOG_TEXT["tag"].format(record=record, tag=LOG_TAG + key, value=repr(tag.value),
                                                    kind=_KINDS[kind]))
        out[key] = value.upper() if kind == "flag" else value
    return out


def _header(rules: df.RuleSet, names: Sequence[str], rounds: int, carried: dict[str, str],
            record: int) -> tuple[ul.LogHeader, list[str]]:
    """The log's header (and what was left out of it): the rules' flags, the record's
    carried lines, the shipped configuration for the rest."""
    try:
        flags, revision = header_flags(rules)
    except ValueError as err:
        raise Unwritable(LOG_TEXT["rules"].format(record=record, why=str(err))) from None
    shipped = ContestConfig().header(tuple(names)).flags
    out = {key: shipped[key] for key in ("RAND_TYPE", "RULE_KINSOKU", "RULE_5TOBI", "RULE_SEKIGAE",
                                         "RULE_SEKIGAE_NUM", "GAME_PORT")}
    out["FLASH_MIBUN_NUMBER"] = str(max(int(shipped["FLASH_MIBUN_NUMBER"]), rounds))
    out.update(carried)
    out.update(flags)
    out["GAME_NUMBER"] = str(rounds)
    flash = int(out["FLASH_MIBUN_NUMBER"])
    if flash < rounds:
        raise Unwritable(LOG_TEXT["flash"].format(record=record, rounds=rounds, tag=LOG_TAG + "FLASH_MIBUN_NUMBER",
                                                  flash=flash))
    notes = []
    if "RANDOM_SEED" not in carried:
        notes.append(LOG_TEXT["seed"].format(record=record))
    return ul.LogHeader(names=tuple(names), flags=out, revision=revision), notes


def _entry(step, record: int, number: int) -> str:
    """A submission's code, each joker at the cell the server logs it in."""
    move = step.entry.move
    jokers = sum(1 for c in move.cards if c.is_joker) if isinstance(move, df.Play) else 0
    if jokers and len(move.cards) > 1:
        stands = _readings(step, move, jokers)
        if stands is None:
            raise Unwritable(LOG_TEXT["joker"].format(record=record, round=number + 1, ply=step.ply))
        move = df.Play(move.player, move.cards, stands)
    try:
        return ul.entry_code(move)
    except (ValueError, KeyError):
        raise Unwritable(LOG_TEXT["joker"].format(record=record, round=number + 1, ply=step.ply)) from None


def _readings(step, move: df.Play, jokers: int) -> tuple[df.Stand, ...] | None:
    """Each joker's reading: as the record states it; a bare joker of a legal play as the
    engine reads it; a bare joker of a rejected submission in the server's own joker row
    at the rank of the group it is in (a joker a client put there is the one DFN writes
    bare: read from a log, it comes back as it was). None: no reading can be told."""
    stated = tuple(move.joker_as) or (None,) * jokers
    if len(stated) == jokers and all(s is not None for s in stated):
        return stated  # type: ignore[return-value]  # every reading is given
    if not step.rejected:
        combo = df.resolved(step.before, move)
        stands = tuple(combo.stands) if combo is not None else ()
        return stands if len(stands) == jokers and all(s is not None for s in stands) else None
    ranks = {df.strength(c) for c in move.cards if not c.is_joker}
    if len(ranks) != 1 or len(stated) != jokers:
        return None
    rank = ranks.pop()
    return tuple(s if s is not None else df.Stand("", rank) for s in stated)


def _changes(start: df.State, gifts: list[df.Give]) -> list[tuple[int, int, tuple]]:
    """The exchange in the order the server makes it: its own transfers (the daihinmin's,
    then the hinmin's), then the daifugo's and the fugo's gifts."""
    order = {(d.giver, d.receiver): i for i, d in enumerate(start.pending)}
    ranked = sorted(gifts, key=lambda g: order.get((g.giver, g.receiver), len(order)))
    return [(g.giver, g.receiver, g.cards) for g in ranked]


def _check(timeline, record: int) -> df.State:
    """The record's first position, once it is known to be a uecda record a log can hold."""
    if timeline.game != "daifugo":
        kind = timeline.kind
        raise Unwritable(LOG_TEXT["game"].format(record=record, game=kind.title if kind else "an unknown game's"))
    read = timeline.record
    if read is None or read.errors:
        first = read.errors[0].message if read is not None and read.errors else "unread"
        raise Unwritable(LOG_TEXT["unread"].format(record=record, first=first))
    errors = timeline.report.errors
    if errors:
        raise Unwritable(LOG_TEXT["invalid"].format(record=record, first=errors[0].message, line=errors[0].line))
    if not timeline.segments:
        raise Unwritable(LOG_TEXT["stopped"].format(record=record, round=1))
    return timeline.segments[0].start


def write_log(timeline, record: int) -> Written:
    """One DFN record's rounds as a contest-server log (see the module's description).
    Raises Unwritable, saying why it cannot be one."""
    first: df.State = _check(timeline, record)
    names = first.names
    assert names is not None, "a DFN replay names its players"
    rounds = timeline.record.rounds
    header, notes = _header(first.rules, names, len(timeline.segments), _carried(timeline.record.tags, record), record)
    lines = writer.header_lines(header, header.flags.get("hostname", UNKNOWN_HOST),
                                header.flags.get("TIME_START", UNKNOWN_TIME))
    totals = [0] * len(names)
    for number, segment in enumerate(timeline.segments):
        state: df.State = segment.start
        rnd = rounds[number] if number < len(rounds) else None
        if rnd is not None and rnd.is_snapshot:
            raise Unwritable(LOG_TEXT["snapshot"].format(record=record, round=number + 1))
        finals = [s.after for s in segment.steps if s.after is not None]
        final = finals[-1] if finals else state
        if not final.over:
            raise Unwritable(LOG_TEXT["stopped"].format(record=record, round=number + 1))
        gifts = [s.entry.move for s in segment.steps if isinstance(s.entry.move, df.Give)]
        entries = [_entry(s, record, number) for s in segment.steps if not isinstance(s.entry.move, df.Give)]
        previous = state.previous
        mibun = "22222" if previous is None else "".join(str(previous.index(p)) for p in range(len(names)))
        result = tuple(rnd.finish) if rnd is not None and rnd.finish else tuple(df.finishing_order(final) or ())
        for place, p in enumerate(result):
            totals[p] += place_points(place)
        lines += writer.game_lines(header, number, mibun, state.seats, state.hands, entries, result,
                                   _changes(state, gifts), totals)
    lines += writer.trailer_lines(header, header.flags.get("TIME_END", UNKNOWN_TIME), totals)
    return Written("".join(lines), notes)
