"""The Daifugo referee: DFN records and UEC contest-server logs replayed against the engine.

A DFN record: the game's tags (Rules, Options, Players), then round by round the deal
(``check_deal``), the turn order the rules fix (or ``[Order]``), the exchange and every play
through ``engine.check``/``apply``, then ``[Finish]`` against the finishing order; the next
round's titles and exchange duties follow from it. A snapshot round starts from
``engine.snapshot``. The first illegal move ends the replay. Under ``uecda`` an illegal
submission that is not out of turn is what the contest server rejects and counts as a pass:
it is reported as a warning (with the rule it broke) and the replay goes on via
``engine.reject``, as the server did.

A contest log: see :func:`validate_log` (each game one report).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations, product

from referee.games.daifugo import engine as df
from referee.engines.base import Card, Violation
from referee.games.daifugo.notation import uecda_log as ul
from referee.games.daifugo.notation.dfn import (HAND_PREFIX, TRUE_WORDS, DaifugoMove, DaifugoRecord, DaifugoRound, MoveTextError, card_columns, over_dealt, read_daifugo, read_names, read_play, read_suits, toggle, words)
from referee.notation.records import Finding, Tag
from referee.jobs.report import GameReport

# ------------------------------------------------------------------ rules


def _rules(record: DaifugoRecord, report: GameReport) -> df.RuleSet | None:
    tag = record.tags.get("Rules")
    preset = tag.value.strip().lower() if tag else df.DEFAULT_PRESET
    if preset not in df.PRESETS:
        _tag_error(report, tag, f"unknown Daifugo rules {tag.value!r}; choose one of "  # type: ignore[union-attr]
                   f"{', '.join(df.PRESETS)}", "notation.tag.rules")
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
            report.errors.append(Finding("notation.tag.value", f"Options: {err}", tag.line, column))
            return None
        toggles[name] = value
    report.details["options"] = tag.value
    return df.ruleset(preset, toggles)


def _tag_error(report: GameReport, tag: Tag, message: str, rule: str = "notation.tag.value", **kw) -> None:
    report.errors.append(Finding(rule, message, tag.line, tag.column, **kw))


# ------------------------------------------------------------------ DFN


class Observer:
    """What a replay tells whoever follows it (a visitor, as python-chess's readers have):
    each round's start position, and each move with the positions around it. The base
    class ignores both."""

    def round_started(self, number: int, state: df.State) -> None:
        """Round ``number`` starts (after the deal and exchange duties) in ``state``."""

    def moved(self, entry: DaifugoMove, ply: int, number: int, before: df.State, after: df.State | None,
              violation: Violation | None, rejected: bool) -> None:
        """A move was judged: legal (``violation`` None), rejected and counted as a pass
        (contest server), or illegal (``after`` None: the replay stops)."""


class Citations(Observer):
    """The ids of the rules the legal moves and rejected submissions set off (engine
    ``State.events``)."""

    def __init__(self) -> None:
        self.ids: set[str] = set()

    def round_started(self, number: int, state: df.State) -> None:
        self.ids.update(state.events)

    def moved(self, entry, ply, number, before, after, violation, rejected) -> None:
        if after is not None:
            self.ids.update(after.events)


class Replay:
    """One record's replay: findings go to ``report``; ``observer`` (optional) follows the
    rounds and moves."""

    def __init__(self, record: DaifugoRecord, report: GameReport, observer: Observer | None = None):
        self.record = record
        self.report = report
        self.observer = observer or Observer()
        self.names = record.players
        self.index_of = {name: i for i, name in enumerate(self.names)}
        self.rules = df.ruleset(df.DEFAULT_PRESET)

    # -------------------------------------------------------------- the whole record

    def run(self) -> None:
        record, report = self.record, self.report
        rules = _rules(record, report)
        if rules is None or not self._players(rules):
            return
        self.rules = rules
        previous: tuple[int, ...] | None = None
        last: df.State | None = None
        expected = 1
        for rnd in record.rounds:
            number = rnd.number if rnd.number is not None else expected
            if last is not None and not last.over:
                self._unfinished(last, rnd, number)
                return
            if rnd.number is not None and rnd.number != expected:
                tag = rnd.tags["Round"]
                _tag_error(report, tag, f"round {rnd.number} where round {expected} was expected: rounds "
                           f"are numbered 1, 2, 3, ... in order", round=rnd.number)
                return
            state = (self._snapshot(rules, rnd, number, previous) if rnd.is_snapshot
                     else self._deal(rules, rnd, number, previous))
            if state is None:
                return
            self.observer.round_started(number, state)
            state = self._moves(rnd, number, state)
            if state is None:
                return
            if not self._finish(rnd, number, state):
                return
            previous = df.finishing_order(state)
            last = state
            expected = number + 1

    def _players(self, rules: df.RuleSet) -> bool:
        record, report = self.record, self.report
        tag = record.tags.get("Players")
        if tag is None:
            report.errors.append(Finding("notation.tag.value", 'the record has no [Players "..."] tag: list the '
                                         "3 to 8 players in the order turns pass at the start",
                                         record.line, 1))
            return False
        n = len(self.names)
        found = [v for v in df.check_deal(rules, [()] * n) if v.rule == "daifugo.deal.players"]
        if found:
            _tag_error(report, tag, found[0].message, found[0].rule)
            return False
        return True

    def _unfinished(self, state: df.State, rnd: DaifugoRound, number: int) -> None:
        left = [state.name(p) for p in df.players_in(state)]
        mover = f"{state.name(state.to_move)} is to move, " if state.to_move is not None else ""
        tag = rnd.tags.get("Round")
        line, column = (tag.line, tag.column) if tag else (rnd.line, 1)
        self.report.errors.append(Finding(
            "daifugo.round.end", f"round {number - 1} is not over ({mover}{', '.join(left)} still hold cards), "
            f"yet round {number} starts", line, column, round=number))

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
                        "notation.tag.value", f"round {number} has no [Hand.{name}] tag: every player's "
                        f"hand is needed", line, column, round=number))
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
            _tag_error(report, order_tag, f"Order must list all {n} players, each once", round=number)  # type: ignore[arg-type]
            return None
        if fixed is not None:
            seats = fixed
            if order is not None and order != fixed:
                rule = "daifugo.lead.first-round" if previous is None else "daifugo.lead.later-rounds"
                why = ("the listed order of the players" if previous is None
                       else "the reverse of the previous finishing order")
                _tag_error(report, rnd.tags["Order"], f"the turn order is {' '.join(self.names[p] for p in fixed)} "
                           f"({why}), not {rnd.tags['Order'].value}", rule, round=number)
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
                errors.append(Finding("notation.tag.value", f"Table: {err}", tag.line, tag.column))
        flags: dict[str, bool] = {}
        for name in ("Revolution", "Back"):
            tag = tags.get(name)
            if tag is not None:
                value = TRUE_WORDS.get(tag.value.strip().lower())
                if value is None:
                    errors.append(Finding("notation.tag.value", f'{name} must be "yes" or "no", not {tag.value!r}',
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
            errors.append(Finding("notation.tag.value", "a position needs a [ToMove] tag naming the player to move",
                                  first.line, first.column))
        else:
            to_move = self.index_of.get(tag.value.strip())
            if to_move is None:
                errors.append(Finding("notation.tag.value", f"ToMove: {tag.value} is not one of the players "
                                      f"({', '.join(self.names)})", tag.line, tag.column))
        if rnd.order is not None and len(rnd.order) != n:
            errors.append(Finding("notation.tag.value", f"Order must list all {n} players, each once",
                                  tags["Order"].line, tags["Order"].column))
        hands = self._hands(rnd, number, optional=out) if not errors else None
        if errors or hands is None:
            for f in errors:
                f.round = number
            report.errors.extend(errors)
            return None
        seats = rnd.order if rnd.order is not None else tuple(range(n))
        try:
            return df.snapshot(rules, hands, seats, to_move, table=table, passed=passed, out=out,  # type: ignore[arg-type]
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
            report.errors.append(Finding("notation.tag.value", str(err), tag.line, tag.column, round=number))
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

    def _moves(self, rnd: DaifugoRound, number: int, state: df.State) -> df.State | None:
        """Every move of the round, or None after the first illegal one."""
        check, apply, moved = df.check, df.apply, self.observer.moved
        ply = 0
        for entry in rnd.moves:
            ply += 1
            move = entry.move
            before = state
            violation = check(state, move)
            if violation is None:
                state = apply(state, move)
                moved(entry, ply, number, before, state, None, False)
                continue
            violation = self._unknown_player(state, entry, violation)
            if (state.rules.rejection_is_pass and violation.rule not in df.TURN_RULES
                    and state.phase == "play" and not isinstance(move, df.Give) and move.player >= 0):
                self.report.warnings.append(self._finding(violation, entry, ply, number, rejected=True))
                state = df.reject(state, move)
                moved(entry, ply, number, before, state, violation, True)
                continue
            self.report.errors.append(self._finding(violation, entry, ply, number))
            self.report.plies += ply - 1
            moved(entry, ply, number, before, None, violation, False)
            return None
        self.report.plies += ply
        return state

    def _unknown_player(self, state: df.State, entry: DaifugoMove, violation: Violation) -> Violation:
        move = entry.move
        ids = (move.giver, move.receiver) if isinstance(move, df.Give) else (move.player,)
        if all(p >= 0 for p in ids):
            return violation
        who = entry.label.split("->")[ids.index(-1)].strip() if len(ids) > 1 else entry.label
        turn = f"; it is {state.name(state.to_move)}'s turn" if state.to_move is not None else ""
        return Violation(violation.rule, f"{who} is not one of the players ({', '.join(self.names)}){turn}")

    @staticmethod
    def _finding(v: Violation, entry: DaifugoMove, ply: int, number: int, rejected: bool = False) -> Finding:
        message = v.message
        if rejected:
            message = f"rejected, counted as a pass: {message}"
        return Finding(v.rule, message, entry.line, entry.column, ply=ply, round=number,
                       player=entry.player, move=entry.text)

    def _finish(self, rnd: DaifugoRound, number: int, state: df.State) -> bool:
        if rnd.finish is None:
            return True
        tag = rnd.tags["Finish"]
        v = df.check_finish(state, rnd.finish)
        if v is None:
            return True
        _tag_error(self.report, tag, v.message, v.rule, round=number)
        return False


def referee_daifugo(record: DaifugoRecord) -> GameReport:
    report = GameReport(record.file, record.index, "daifugo", None, line=record.line)
    report.errors.extend(record.errors)
    report.warnings.extend(record.warnings)
    if record.errors:
        rules = (record.tag("Rules") or df.DEFAULT_PRESET).strip().lower()
        report.rules = rules if rules in df.PRESETS else None
        return report
    report.knowledge = "full"
    Replay(record, report).run()
    return report


def rules_applied(record: DaifugoRecord) -> set[str]:
    """The ids of the rules the record's legal moves set off (the engine's ``events``) and
    those of the submissions it rejected, replayed up to its first illegal move."""
    report = GameReport(record.file, record.index, "daifugo", None)
    citations = Citations()
    if not record.errors:
        Replay(record, report, citations).run()
    return citations.ids


# ------------------------------------------------------------------ contest logs

#: The preset a contest-server log is judged under (its header's flags toggle options).
CONTEST_PRESET = "uecda"


def _log_rules(header: ul.LogHeader) -> df.RuleSet:
    """The uecda preset with the header's flags: RULE_11BACK, RULE_6REVERS, and the flags
    that switch off what the preset has on (RULE_8GIRI, RULE_SHIBARI, RULE_KAKUMEI,
    RULE_CHANGE)."""
    toggles: dict[str, object] = {
        "eleven-back": header.flag("RULE_11BACK", False),
        "six-reverse": header.flag("RULE_6REVERS", False),
    }
    if not header.flag("RULE_8GIRI", True):
        toggles["eight-cut"] = False
    if not header.flag("RULE_SHIBARI", True):
        toggles["suit-lock"] = False
    if not header.flag("RULE_KAKUMEI", True):
        toggles["revolution"] = False
        toggles["stairs-revolution"] = None
    if not header.flag("RULE_CHANGE", True):
        toggles["exchange"] = "none"
    return df.ruleset(CONTEST_PRESET, toggles)


class _LogGameReplay:
    """One contest game judged as the server played it."""

    def __init__(self, game: ul.LogGame):
        self.game = game
        self.names = game.header.names  # type: ignore[union-attr]

    def finding(self, v: Violation, entry: ul.LogEntry, ply: int) -> Finding:
        return Finding(v.rule, v.message, entry.line, entry.column, ply=ply, round=self.game.index,
                       player=self.names[entry.player] if 0 <= entry.player < len(self.names) else str(entry.player),
                       move=entry.text)

    def replay(self, start: df.State) -> Outcome:
        """(final state, errors, warnings, entries replayed): the replay stops at the first
        entry that contradicts the server."""
        state = start
        warnings: list[Finding] = []
        check, apply = df.check, df.apply
        ply = 0
        for entry in self.game.entries:
            ply += 1
            move = entry.move
            violation = check(state, move) if move is not None else _bad_cell(state, entry)
            if violation is None:
                state = apply(state, move)
                continue
            if violation.rule in df.TURN_RULES or state.phase != "play":
                return state, [self.finding(violation, entry, ply)], warnings, ply - 1
            f = self.finding(violation, entry, ply)
            f.message = f"rejected, counted as a pass: {f.message}"
            warnings.append(f)
            state = df.reject(state, df.Pass(entry.player))
        return state, [], warnings, ply


def _bad_cell(state: df.State, entry: ul.LogEntry) -> Violation:
    """An entry with a card the server's table cannot hold (a real card in column 0 or 14):
    the server's possession check fails, unless it is not that player's turn at all."""
    turn = df.check(state, df.Pass(entry.player))
    if turn is not None and turn.rule in df.TURN_RULES:
        return turn
    return Violation("daifugo.hand.possession", f"{entry.text[1:-2]} holds a card outside the server's "
                                                f"table (a real card below the 3 or above the 2)")


def _titles_of(mibun: str) -> tuple[str, ...]:
    return tuple(df.UECDA_TITLES[int(c)] for c in mibun)


class LogReferee:
    """Judges the games of one contest log in order, carrying what one game tells the next
    (the result that fixes the next game's titles)."""

    def __init__(self, file: str):
        self.file = file
        self.previous_result: tuple[int, ...] | None = None
        self.previous_number: int | None = None

    def judge(self, game: ul.LogGame) -> GameReport:
        report = GameReport(self.file, game.index, "daifugo", CONTEST_PRESET, line=game.line, knowledge="full")
        report.errors.extend(game.errors)
        report.warnings.extend(game.warnings)
        previous_result, self.previous_result = self.previous_result, None
        follows = self.previous_number is not None and game.number == self.previous_number + 1
        self.previous_number = game.number
        if game.errors or game.header is None:  # nothing to replay on a game that does not read
            return report
        rules = _log_rules(game.header)
        names = game.header.names
        report.details["options"] = " ".join(
            w for w, on in (("+eleven-back", rules.eleven_back), ("+six-reverse", rules.six_reverse)) if on)
        # Titles going into this game.
        flash = game.header.number("FLASH_MIBUN_NUMBER", 0)
        fresh = flash > 0 and game.number % flash == 0
        mibun = game.mibun
        previous: tuple[int, ...] | None = None
        if fresh or game.number == 0:
            if mibun.value != "22222":
                report.errors.append(Finding(
                    "daifugo.result.titles", f"game {game.index} starts a block of "
                    f"{flash or 'the'} games: nobody holds a title yet, so mibun is 22222, not {mibun.value}",
                    mibun.line, mibun.column, round=game.index))
                return report
        elif mibun.value != "22222":
            classes = [int(c) for c in mibun.value]
            if sorted(classes) != [0, 1, 2, 3, 4]:
                report.errors.append(Finding("daifugo.result.titles", f"mibun {mibun.value} does not give the five "
                                             "titles 0-4 once each", mibun.line, mibun.column, round=game.index))
                return report
            if previous_result is not None and follows:
                v = df.check_titles(previous_result, _titles_of(mibun.value), names)
                if v is not None:
                    report.errors.append(Finding(v.rule, f"{v.message} (after game {game.index - 1}'s result "
                                                 f"{''.join(map(str, previous_result))})", mibun.line, mibun.column,
                                                 round=game.index))
                    return report
            previous = tuple(sorted(range(5), key=classes.__getitem__))
        elif previous_result is not None and follows:
            report.errors.append(Finding(
                "daifugo.result.titles", f"mibun 22222 (no titles) in game {game.index}, but game "
                f"{game.index - 1} gave titles and this game does not start a new block", mibun.line, mibun.column,
                round=game.index))
            return report
        # The deal.
        hands = [tuple(h) for h in game.hands]
        seats = game.seats
        violations = df.check_deal(rules, hands, seats)
        if violations:
            places = iter(game.duplicate_places(rules.jokers(5)))
            for v in violations:
                where = (game.cards_line, game.cards_column)
                if v.rule == "daifugo.deal.duplicate":
                    where = next(places, where)
                report.errors.append(Finding(v.rule, v.message, *where, round=game.index))
            return report
        start = df.new_round(rules, hands, seats, previous, game.index, names)
        replay = _LogGameReplay(game)
        if start.phase == "exchange":
            outcome = _infer_exchange(replay, start)
        else:
            outcome = replay.replay(start)
        state, errors, warnings, plies = outcome
        report.errors.extend(errors)
        report.warnings.extend(warnings)
        report.plies = plies
        if errors:
            return report
        result = game.result
        v = df.check_finish(state, result.order)
        if v is not None:
            report.errors.append(Finding(v.rule, v.message, result.line, result.column, round=game.index))
            return report
        self.previous_result = result.order
        return report


def _infer_exchange(replay: _LogGameReplay, start: df.State) -> Outcome:
    """The unlogged exchange, inferred (uecda-server.md, Exchange).

    The server moves the lower titles' strongest cards itself: no choice there. The upper
    titles' gifts are their clients' choice. The first guess is what the default client
    gives, its lowest cards (never the joker); it stands if the game then replays cleanly:
    no contradiction and no submission rejected for a card its player lacks. Otherwise
    (a rejection for a lacking card, or the first entry not by the diamond 3 holder) every
    choice is tried that leaves each exchanging player holding the cards it later submits
    (and the first player the diamond 3), closest to the first guess first; the first clean
    replay wins, else the one that gets furthest. When no choice at all does that, and the
    first guess fails on it, the log contradicts the server: an exchange no legal choice
    could explain (daifugo.exchange.choice).
    """
    state = start
    while any(d.server for d in state.pending):
        duty = next(d for d in state.pending if d.server)
        gift = df.strongest_cards(state.hands[duty.giver], duty.count)
        state = df.apply(state, df.Give(duty.giver, duty.receiver, gift))
    after_server = state
    duties = list(after_server.pending)

    def run(gifts: tuple[tuple[Card, ...], ...]) -> Outcome:
        s = after_server
        for duty, cards in zip(duties, gifts):
            s = df.apply(s, df.Give(duty.giver, duty.receiver, cards))
        return replay.replay(s)

    first_guess = tuple(df.weakest_cards([c for c in after_server.hands[d.giver] if not c.is_joker], d.count)
                        for d in duties)
    first = run(first_guess)
    if _clean(first):
        return first
    failure = next((f for f in sorted(first[1] + first[2], key=lambda f: f.ply or 0)
                    if _exchange_could_fix(f, replay.game, duties, after_server)), None)
    if failure is None:
        return first  # nothing the exchange could change
    options = _choices(after_server, duties, replay.game)
    if not all(options):
        state, _, warnings, _ = first
        givers = " and ".join(f"{replay.names[d.giver]} ({d.count} to {replay.names[d.receiver]})" for d in duties)
        error = Finding("daifugo.exchange.choice",
                        f"an exchange no legal choice could explain: no gift by {givers} leaves every player "
                        f"holding the cards they later play ({failure.message.removeprefix('rejected, counted as a pass: ')})",
                        failure.line, failure.column, ply=failure.ply, round=failure.round,
                        player=failure.player, move=failure.move)
        earlier = [w for w in warnings if w.ply is not None and w.ply < failure.ply]  # type: ignore[operator]
        return state, [error], earlier, failure.ply - 1  # type: ignore[operator]
    best, best_score = first, _score(first)
    for gifts in _product(options):
        if gifts == first_guess:
            continue
        candidate = run(gifts)
        if _clean(candidate):
            return candidate
        s = _score(candidate)
        if s > best_score:
            best, best_score = candidate, s
    return best


Outcome = tuple[df.State, list[Finding], list[Finding], int]


def _exchange_could_fix(f: Finding, game: ul.LogGame, duties: list[df.Duty], state: df.State) -> bool:
    """Could another gift choice change this finding of the first guess? A submission
    rejected for a lacking card, by a receiver whose giver held one of its cards or by a
    giver that held one itself; or a first entry not by the diamond 3 holder, where the
    diamond 3 is one a gift could move."""
    if f.ply is None or not (f.rule == "daifugo.hand.possession" or f.ply == 1):
        return False
    entry = game.entries[f.ply - 1]
    cards = entry.move.cards if isinstance(entry.move, df.Play) else ()
    if f.rule != "daifugo.hand.possession":
        cards = (df.DIAMOND_3,)
    for duty in duties:
        pool = state.hands[duty.giver]
        if entry.player in (duty.giver, duty.receiver) and any(c in pool for c in cards):
            return True
    return False


def _clean(outcome: Outcome) -> bool:
    return not outcome[1] and not any(w.rule == "daifugo.hand.possession" for w in outcome[2])


def _score(outcome: Outcome) -> tuple[int, int]:
    """Better explanations replay further, then lack fewer cards."""
    _, errors, warnings, plies = outcome
    lacking = sum(1 for w in warnings if w.rule == "daifugo.hand.possession")
    return (plies if errors else 1 << 30, -lacking)


def _choices(state: df.State, duties: list[df.Duty], game: ul.LogGame) -> list[list[tuple[Card, ...]]]:
    """For each duty, every gift consistent with the cards the exchanging players later
    submit (a receiver must get what it plays of its giver's cards, a giver must keep what
    it plays; the first player must hold the diamond 3), closest to the lowest cards first."""
    submitted: dict[int, set[Card]] = {}
    for entry in game.entries:
        if isinstance(entry.move, df.Play):
            submitted.setdefault(entry.player, set()).update(entry.move.cards)
    if game.entries:
        submitted.setdefault(game.entries[0].player, set()).add(df.DIAMOND_3)
    options: list[list[tuple[Card, ...]]] = []
    for duty in duties:
        hand = state.hands[duty.giver]
        must = {c for c in submitted.get(duty.receiver, ()) if c in hand and c not in state.hands[duty.receiver]}
        keep = submitted.get(duty.giver, set())
        ranked = sorted(hand, key=_weak_key)
        found = [combo for combo in combinations(ranked, duty.count)
                 if must <= set(combo) and not keep & set(combo)]
        options.append(found)
    return options


def _product(options: list[list[tuple[Card, ...]]]) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """Every combination of one option per duty, those with the fewest cards off the lowest
    first (each list is already in that order)."""
    ranked = sorted(product(*(range(len(o)) for o in options)), key=lambda ix: (sum(ix), ix))
    for ix in ranked:
        yield tuple(o[i] for o, i in zip(options, ix))


def _weak_key(card: Card) -> tuple[int, int]:
    return (99 if card.is_joker else df.strength(card), "SHDC".find(card.suit))


def validate_log(lines: Iterable[str], file: str) -> Iterator[GameReport]:
    """Each game of a contest log as a report (``index`` = the game's number from 1)."""
    referee = LogReferee(file)
    for game in ul.read_log(lines, file):
        yield referee.judge(game)
