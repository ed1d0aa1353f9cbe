"""The Daifugo referee: DFN records and UEC contest-server logs replayed against the engine.

A DFN record: the game's tags (Rules, Options, Players), then round by round the deal
(``check_deal``), the turn order the rules fix (or ``[Order]``), the exchange and every play
played by the one replay (``referee.jobs.replay``), then ``[Finish]`` against the finishing
order; the next round's titles and exchange duties follow from it. A snapshot round starts
from ``engine.snapshot``. The first illegal move ends the replay, unless the engine's rules
count it (``engine.after_illegal``: under ``uecda`` a rejected submission is a pass, a warning).

Contest logs have their own referee (``log_referee``).
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.engines.base import Card, Violation
from referee.engines.message import T, said
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import (
    HAND_PREFIX,
    TRUE_WORDS,
    DaifugoMove,
    DaifugoRecord,
    DaifugoRound,
    MoveTextError,
    card_columns,
    over_dealt,
    read_names,
    read_play,
    read_suits,
    toggle,
    words,
)
from referee.jobs.report import GameReport
from referee.jobs.segment import Plan, Segment
from referee.notation.records import Finding, MoveEntry, Tag

# ------------------------------------------------------------------ rules


def _rules(record: DaifugoRecord, report: GameReport) -> df.RuleSet | None:
    tag = record.tags.get("Rules")
    if tag is None:
        preset = df.DEFAULT_PRESET
    elif (named := df.preset_name(tag.value)) is not None:
        preset = named  # an alias (seed) is read as its preset
    else:
        _tag_error(report, tag, T("unknown Daifugo rules {value}; choose one of {join}", value=repr(tag.value),
                                  join=', '.join(df.PRESETS)), "notation.tag.rules")
        return None
    report.rules = preset
    tag = record.tags.get("Options")
    if tag is None:
        return df.ruleset(preset)
    toggles: dict[str, object] = {}
    for word, column in words(tag):
        try:
            name, value = toggle(word)
            df.ruleset(preset, {name: value})
        except ValueError as err:
            report.errors.append(Finding("notation.tag.value", T("Options: {err}", err=said(err)), tag.line, column))
            return None
        toggles[name] = value
    report.details["options"] = tag.value
    return df.ruleset(preset, toggles)


def _tag_error(report: GameReport, tag: Tag, message: str, rule: str = "notation.tag.value", **kw) -> None:
    report.errors.append(Finding(rule, message, tag.line, tag.column, **kw))


# ------------------------------------------------------------------ DFN


class DfnPlan:
    """What the one replay plays of a DFN record (``plan``): findings go to ``report``;
    ``setting`` (optional) judges it under other rules than its own tags'."""

    def __init__(self, record: DaifugoRecord, report: GameReport, setting: df.RuleSet | None = None):
        self.record = record
        self.report = report
        self.setting = setting
        self.names = record.players
        self.index_of = {name: i for i, name in enumerate(self.names)}
        self.rules = df.ruleset(df.DEFAULT_PRESET)

    # -------------------------------------------------------------- the whole record

    def plan(self) -> Plan:
        """Round by round: the deal (or snapshot) and its checks, then the round's moves
        (played by the one replay), then its finishing order."""
        record, report = self.record, self.report
        rules = self.setting if self.setting is not None else _rules(record, report)
        if rules is None or not self._players(rules):
            return
        report.rules = rules.name
        self.rules = rules
        previous: tuple[int, ...] | None = None
        last: df.State | None = None
        expected = 1
        offset = 0
        for rnd in record.rounds:
            number = rnd.number if rnd.number is not None else expected
            if last is not None and not last.over:
                self._unfinished(last, rnd, number)
                return
            if rnd.number is not None and rnd.number != expected:
                tag = rnd.tags["Round"]
                _tag_error(report, tag, T("round {number} where round {expected} was expected: rounds are numbered "
                                          "1, 2, 3, ... in order", number=rnd.number, expected=expected),
                           round=rnd.number)
                return
            state = (self._snapshot(rules, rnd, number, previous) if rnd.is_snapshot
                     else self._deal(rules, rnd, number, previous))
            if state is None:
                return
            final = yield Segment(number, state, rnd.moves, _mover, self._unknown_player, offset)
            offset += len(rnd.moves)
            if not self._finish(rnd, number, final):
                return
            # A round the 20-pass rule ended has random places: the Finish tag says which.
            previous = (tuple(rnd.finish) if final.stalled and rnd.finish is not None
                        else df.finishing_order(final))
            last = final
            expected = number + 1

    def _players(self, rules: df.RuleSet) -> bool:
        record, report = self.record, self.report
        tag = record.tags.get("Players")
        if tag is None:
            report.errors.append(Finding("notation.tag.value", T('the record has no [Players "..."] tag: list the 3 to '
                                                                 '8 players in the order turns '
                                                                 "pass at the start"),
                                         record.line, 1))
            return False
        n = len(self.names)
        v = df.check_players(rules, n)
        if v is not None:
            _tag_error(report, tag, v.message, v.rule)
            return False
        return True

    def _unfinished(self, state: df.State, rnd: DaifugoRound, number: int) -> None:
        v = df.check_round_over(state, number)
        if v is None:
            return
        tag = rnd.tags.get("Round")
        line, column = (tag.line, tag.column) if tag else (rnd.line, 1)
        self.report.errors.append(Finding(v.rule, v.message, line, column, round=number))

    # -------------------------------------------------------------- the start of a round

    def _hands(self, rnd: DaifugoRound, number: int, optional: Iterable[int] = ()) -> list[tuple[Card, ...]] | None:
        hands = []
        for p, name in enumerate(self.names):
            hand = rnd.hands.get(p)
            if hand is None:
                if p in optional:
                    hand = ()
                else:
                    tag = rnd.tags.get("Round")
                    line, column = (tag.line, tag.column) if tag else (rnd.line, 1)
                    self.report.errors.append(Finding(
                        "notation.tag.value",
                        T("round {number} has no [Hand.{name}] tag: every player's hand is needed", number=number,
                          name=name), line, column, round=number))
                    return None
            hands.append(hand)
        return hands

    def _deal(self, rules: df.RuleSet, rnd: DaifugoRound, number: int,
              previous: tuple[int, ...] | None) -> df.State | None:
        report = self.report
        hands = self._hands(rnd, number)
        if hands is None:
            return None
        n = len(hands)
        fixed = df.default_seats(rules, n, previous)
        order, order_tag = rnd.order, rnd.tags.get("Order")
        if order is None and fixed is None and self.record.order is not None:
            order, order_tag = self.record.order, self.record.tags["Order"]
        if order is not None and len(order) != n:
            # an order read comes from its tag
            _tag_error(report, order_tag,  # type: ignore[arg-type]
                       T("Order must list all {n} players, each once", n=n), round=number)
            return None
        if fixed is not None:
            seats = fixed
            v = df.check_seats(rules, order, previous, self.names) if order is not None else None
            if v is not None:
                _tag_error(report, rnd.tags["Order"], v.message, v.rule, round=number)
                return None
        else:
            seats = order if order is not None else tuple(range(n))
        if rules.deal_start == "first":
            deal_order = previous if previous is not None else None
        else:
            deal_order = seats
        violations = df.check_deal(rules, hands, deal_order)
        if violations:
            self._deal_findings(rnd, number, violations)
            return None
        return df.new_round(rules, hands, seats, previous, number, self.names)

    def _deal_findings(self, rnd: DaifugoRound, number: int, violations: list[Violation]) -> None:
        """Each deal violation at its place: a card dealt twice at its second (or later)
        appearance in the hand tags, the rest at the round's start."""
        tag = rnd.tags.get("Round")
        line, column = (tag.line, tag.column) if tag else (rnd.line, 1)
        places = iter(self._duplicate_places(rnd))
        for v in violations:
            where = (line, column)
            if v.rule == "daifugo.deal.duplicate":
                where = next(places, where)
            elif v.rule == "daifugo.deal.players":
                players = self.record.tags["Players"]
                where = (players.line, players.column)
            self.report.errors.append(Finding(v.rule, v.message, *where, round=number))

    def _duplicate_places(self, rnd: DaifugoRound) -> list[tuple[int, int]]:
        """Where each over-dealt card first exceeds the deck, in the engine's order (first
        appearance, hands in player order)."""
        tags = [rnd.tags[HAND_PREFIX + name] for name in self.names if HAND_PREFIX + name in rnd.tags]
        dealt = ((card, (tag.line, column)) for tag in tags for card, column in card_columns(tag) if card is not None)
        return over_dealt(dealt, self.rules.jokers(len(self.names)))

    def _snapshot(self, rules: df.RuleSet, rnd: DaifugoRound, number: int,
                  previous: tuple[int, ...] | None) -> df.State | None:
        report, tags = self.report, rnd.tags
        errors: list[Finding] = []
        n = len(self.names)

        def names_of(name: str) -> tuple[int, ...]:
            tag = tags.get(name)
            if tag is None:
                return ()
            got = read_names(self.record, tag, self.index_of, errors)
            return got if got is not None else ()

        passed, out = names_of("Passed"), names_of("Out")
        table = None
        tag = tags.get("Table")
        if tag is not None and tag.value.strip():
            try:
                table = read_play(tag.value, self.index_of)
            except MoveTextError as err:
                errors.append(Finding("notation.tag.value", T("Table: {err}", err=said(err)), tag.line, tag.column))
        flags: dict[str, bool] = {}
        for name in ("Revolution", "Back"):
            tag = tags.get(name)
            if tag is not None:
                value = TRUE_WORDS.get(tag.value.strip().lower())
                if value is None:
                    errors.append(Finding("notation.tag.value", T('{name} must be "yes" or "no", not {value}',
                                                                  name=name, value=repr(tag.value)),
                                          tag.line, tag.column))
                flags[name] = bool(value)
        lock = None
        tag = tags.get("Lock")
        if tag is not None and tag.value.strip():
            lock = read_suits(tag, errors)
        tag = tags.get("ToMove")
        to_move = None
        if tag is None:
            first = tags.get("Table") or next(iter(tags.values()))
            errors.append(Finding("notation.tag.value", T("a position needs a [ToMove] tag naming the player to move"),
                                  first.line, first.column))
        else:
            to_move = self.index_of.get(tag.value.strip())
            if to_move is None:
                errors.append(Finding("notation.tag.value", T("ToMove: {value} is not one of the players ({join})",
                                                              value=tag.value, join=', '.join(self.names)), tag.line,
                                                              tag.column))
        if rnd.order is not None and len(rnd.order) != n:
            errors.append(Finding("notation.tag.value", T("Order must list all {n} players, each once", n=n),
                                  tags["Order"].line, tags["Order"].column))
        hands = self._hands(rnd, number, optional=out) if not errors else None
        if errors or hands is None:
            for f in errors:
                f.round = number
            report.errors.extend(errors)
            return None
        seats = rnd.order if rnd.order is not None else tuple(range(n))
        try:
            # to_move None is an error above, returned before
            return df.snapshot(rules, hands, seats, to_move,  # type: ignore[arg-type]
                               table=table, passed=passed, out=out,
                               revolution=flags.get("Revolution", False), lock=lock,
                               back=flags.get("Back", False), previous=previous, round_no=number,
                               names=self.names)
        except df.RuleError as err:
            v = err.violation
            where = {"daifugo.deal.duplicate": "Hand", "daifugo.deal.players": "Players",
                     "daifugo.turn.finished": "Out", "daifugo.turn.order": "ToMove",
                     "daifugo.combo.invalid": "Table", "daifugo.joker.ambiguous": "Table"}.get(v.rule, "ToMove")
            tag = self._position_tag(rnd, where)
            report.errors.append(Finding(v.rule, v.message, tag.line, tag.column, round=number))
        except ValueError as err:
            tag = self._position_tag(rnd, "Order")
            report.errors.append(Finding("notation.tag.value", said(err), tag.line, tag.column, round=number))
        return None

    def _position_tag(self, rnd: DaifugoRound, name: str) -> Tag:
        tags = rnd.tags
        if name == "Players":
            return self.record.tags["Players"]
        if name == "Hand":
            found = [t for n, t in tags.items() if n.startswith("Hand.")]
            if found:
                return found[0]
        return tags.get(name) or tags.get("ToMove") or next(iter(tags.values()))

    # -------------------------------------------------------------- moves

    def _unknown_player(self, state: df.State, entry: MoveEntry[df.Move], violation: Violation) -> Violation:
        assert isinstance(entry, DaifugoMove)  # the DFN reader's entries
        move = entry.move
        ids = (move.giver, move.receiver) if isinstance(move, df.Give) else (move.player,)
        if all(p >= 0 for p in ids):
            return violation
        who = entry.label.split("->")[ids.index(-1)].strip() if len(ids) > 1 else entry.label
        players = ", ".join(self.names)
        if state.to_move is not None:
            return Violation(violation.rule, T("{who} is not one of the players ({players}); it is {mover}'s turn",
                                               who=who, players=players, mover=state.name(state.to_move)))
        return Violation(violation.rule, T("{who} is not one of the players ({players})", who=who, players=players))

    def _finish(self, rnd: DaifugoRound, number: int, state: df.State) -> bool:
        if rnd.finish is None:
            return True
        tag = rnd.tags["Finish"]
        v = df.check_finish(state, rnd.finish)
        if v is None:
            return True
        _tag_error(self.report, tag, v.message, v.rule, round=number)
        return False


def plan(record: DaifugoRecord, report: GameReport, setting: df.RuleSet | None = None) -> Plan:
    """The record's plan for the one replay (nothing to play when it does not read)."""
    if record.errors:
        if setting is None:
            report.rules = df.preset_name(record.tag("Rules") or df.DEFAULT_PRESET)
        else:
            report.rules = setting.name
        return
    report.knowledge = "full"
    yield from DfnPlan(record, report, setting).plan()


def _mover(state: df.State, entry: MoveEntry[df.Move]) -> str:
    assert isinstance(entry, DaifugoMove)  # the DFN reader's entries
    return entry.player
