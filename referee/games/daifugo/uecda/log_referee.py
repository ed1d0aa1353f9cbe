"""The Daifugo referee of UEC contest-server logs: each game of a log judged as the server
played it (tndhms 0.29 daihu.c), carrying what one game tells the next (its result fixes the
next game's titles). A submission the server rejected is a warning, counted as a pass; the
exchange is checked where the log records it (the later revision's change_cards) and
inferred where it does not (``exchange_inference``). The deal checks (``seed_check``):
every seat line, dealer and hand re-derived from RANDOM_SEED; the later revision's points
lines checked against the results."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.engines.message import T
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import options_text
from referee.games.daifugo.uecda import seed_check
from referee.games.daifugo.uecda.exchange_inference import infer_exchange
from referee.games.daifugo.uecda.log_replay import CONTEST_PRESET, LogGameReplay
from referee.games.daifugo.uecda.notation import log as ul
from referee.jobs.replay import Observer
from referee.jobs.report import GameReport
from referee.notation.records import Finding

#: The header's rule flags and the option each turns on (YES) or off (NO) on top of the
#: uecda preset; RULE_CHANGE is exchange=choice (YES) or exchange=none (NO), and the later
#: revision (its header opens with hostname and TIME_START) is trick-end=all-but-one.
FLAG_OPTIONS = {"RULE_KAKUMEI": "revolution", "RULE_SHIBARI": "suit-lock", "RULE_KAIDAN": "sequences",
                "RULE_6REVERS": "six-reverse", "RULE_8GIRI": "eight-cut", "RULE_11BACK": "eleven-back"}


def log_rules(header: ul.LogHeader) -> df.RuleSet:
    """The uecda preset with the header's flags (a flag left out keeps the preset's value);
    the later revision ends a trick when all but one of those still in have passed."""
    base = df.PRESETS[CONTEST_PRESET]
    toggles: dict[str, object] = {name: header.flag(flag, bool(base.option(name))) for flag,
                                  name in FLAG_OPTIONS.items()}
    if not header.flag("RULE_CHANGE", True):
        toggles["exchange"] = "none"
    if header.later:
        toggles["trick-end"] = "all-but-one"
    return df.ruleset(CONTEST_PRESET, toggles)


def header_flags(rules: df.RuleSet) -> tuple[dict[str, str], str]:
    """The rule flags (YES/NO) and the server's revision ("2018" or "later") of a log whose
    header states ``rules``: what :func:`log_rules` reads back as the very same rule set.
    Raises ValueError, naming the options no header can state."""
    if rules.name != CONTEST_PRESET:
        raise ValueError(T("a contest-server log holds {preset} games, not {rules}", preset=CONTEST_PRESET,
                           rules=rules.name))
    flags = {flag: "YES" if rules.option(name) else "NO" for flag, name in FLAG_OPTIONS.items()}
    flags["RULE_CHANGE"] = "NO" if rules.exchange == "none" else "YES"
    revision = "later" if rules.trick_end == "all-but-one" else "2018"
    stated = log_rules(ul.LogHeader(flags=flags, revision=revision))
    if stated is not rules:
        said = set(options_text(stated).split())
        unstated = [word for word in options_text(rules).split() if word not in said]
        raise ValueError(T("{options} cannot be stated in a contest-server log: its header turns revolution "
                           "(RULE_KAKUMEI), suit-lock (RULE_SHIBARI), sequences (RULE_KAIDAN), eight-cut (RULE_8GIRI), "
                           "eleven-back (RULE_11BACK) and six-reverse (RULE_6REVERS) on or off, and says "
                           "exchange=choice or exchange=none (RULE_CHANGE) and trick-end=all or trick-end=all-but-one "
                           "(the server's revision)", options=" ".join(unstated)))
    return flags, revision


def _titles_of(mibun: str) -> tuple[str, ...]:
    """The titles a mibun value gives, by player (a digit outside 0-4 stays as written)."""
    return tuple(df.UECDA_TITLES[int(c)] if "0" <= c <= "4" else c for c in mibun)


class LogReferee:
    """Judges the games of one contest log in order, carrying what one game tells the next
    (the result that fixes the next game's titles)."""

    def __init__(self, file: str):
        self.file = file
        self.previous_result: tuple[int, ...] | None = None
        self.previous_number: int | None = None
        self.seeds = seed_check.SeedCheck()
        self.points = seed_check.PointsCheck()

    def judge(self, game: ul.LogGame, observer: Observer | None = None) -> GameReport:
        """The game's report; ``observer`` follows its replay (the positions of the replay
        that explains the log, after the exchange)."""
        report = GameReport(self.file, game.index, "daifugo", CONTEST_PRESET, line=game.line, knowledge="full")
        report.errors.extend(game.errors)
        report.warnings.extend(game.warnings)
        previous_result, self.previous_result = self.previous_result, None
        follows = self.previous_number is not None and game.number == self.previous_number + 1
        self.previous_number = game.number
        if game.errors or game.header is None:  # nothing to replay on a game that does not read
            self.seeds.lose()
            return report
        rules = log_rules(game.header)
        report.details["options"] = " ".join(
            w for w, on in (("+eleven-back", rules.eleven_back), ("+six-reverse", rules.six_reverse),
                            ("-sequences", not rules.sequences), ("trick-end=all-but-one",
                                                                  rules.trick_end == "all-but-one"))
            if on)
        self._judge(game, report, rules, previous_result, follows, observer)
        points = self.points.judge(game)
        if not report.errors:
            report.errors.extend(points)
        return report

    def _judge(self, game: ul.LogGame, report: GameReport, rules: df.RuleSet, previous_result: tuple[int, ...] | None,
               follows: bool, observer: Observer | None) -> None:
        assert game.header is not None
        names = game.header.names
        # Titles going into this game.
        flash = game.header.number("FLASH_MIBUN_NUMBER", 0)
        fresh = flash > 0 and game.number % flash == 0
        mibun = game.mibun
        held = None if mibun.value == "22222" else _titles_of(mibun.value)
        known = previous_result if previous_result is not None and follows else None
        v = df.check_held_titles(held, len(names), new_block=fresh or game.number == 0, previous=known, names=names)
        if v is not None:
            report.errors.append(Finding(v.rule, T("{message} (game {index}: mibun {value})", message=v.message,
                                                   index=game.index, value=mibun.value) if known is None else
                                         T("{message} (game {index}: mibun {value}, after game {previous}'s result "
                                           "{result})",
                                           message=v.message, index=game.index, value=mibun.value,
                                           previous=game.index - 1, result="".join(map(str, known))),
                                         mibun.line, mibun.column, round=game.index))
            return
        previous: tuple[int, ...] | None = None
        if held is not None:
            classes = [int(c) for c in mibun.value]
            previous = tuple(sorted(range(len(classes)), key=classes.__getitem__))
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
            return
        seed_errors = self.seeds.judge(game, previous_result if follows else None)
        if seed_errors:
            report.errors.extend(seed_errors)
            return
        start = df.new_round(rules, hands, seats, previous, game.index, names)
        replay = LogGameReplay(game)
        if game.changes is not None:
            start, errors = seed_check.logged_exchange(game, start)
            if errors:
                report.errors.extend(errors)
                self.seeds.lose()
                return
            outcome = replay.replay(start)
        elif start.phase == "exchange":
            outcome = infer_exchange(replay, start)
        else:
            outcome = replay.replay(start)
        state, errors, warnings, plies, positions = outcome
        if observer is not None:
            for segment in positions.segments:
                observer.segment_started(segment)
                for step in segment.steps:
                    observer.moved(step)
        report.errors.extend(errors)
        report.warnings.extend(warnings)
        report.plies = plies
        if errors or state is None:
            self.seeds.lose()
            return
        result = game.result
        v = df.check_finish(state, result.order)
        if v is not None:
            report.errors.append(Finding(v.rule, v.message, result.line, result.column, round=game.index))
            self.seeds.lose()
            return
        report.errors.extend(self.seeds.ended(game, state))
        self.previous_result = result.order


def validate_log(lines: Iterable[str], file: str) -> Iterator[GameReport]:
    """Each game of a contest log as a report (``index`` = the game's number from 1)."""
    referee = LogReferee(file)
    for game in ul.read_log(lines, file):
        yield referee.judge(game)
