"""The Caravan referee: a read record replayed against the engine, every finding reported.

Tag checks first (rule set, who moves first, decks or the start position), then the moves,
played by the one replay (``referee.jobs.replay``): the first illegal move ends it. Last, the
declared result against the computed one.
"""

from __future__ import annotations

from referee.engines.message import T
from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import (
    RESULTS,
    CaravanRecord,
    parse_card_list,
    read_table,
)
from referee.jobs.report import GameReport
from referee.jobs.segment import Plan, Segment
from referee.notation.records import Finding, Tag


def _tag_error(report: GameReport, tag: Tag, message: str, rule: str = "notation.tag.value") -> None:
    report.errors.append(Finding(rule, message, tag.line, tag.column))


def start_state(record: CaravanRecord, report: GameReport, setting: cv.RuleSet | None = None) -> cv.State | None:
    """The state the record's moves start from (under ``setting`` instead of its Rules tag,
    when given), or None (with errors) if it cannot be set up."""
    rules_tag = record.tags.get("Rules")
    if setting is not None:
        rules = setting
    else:
        name = (rules_tag.value.strip().lower() if rules_tag else cv.DEFAULT_RULES)
        if rules_tag is not None and name not in cv.RULESETS:  # (the default is always known)
            _tag_error(report, rules_tag, T("unknown Caravan rule set {value}; choose one of {join}",
                                            value=repr(rules_tag.value), join=', '.join(cv.RULESETS)),
                                            "notation.tag.rules")
            return None
        rules = cv.ruleset(name)
    report.rules = rules.name
    first = _player_tag(record, report, "First", "1")
    for tag_name in ("Result",):
        tag = record.tags.get(tag_name)
        if tag and tag.value not in RESULTS:
            _tag_error(report, tag, T("Result must be one of {join}, not {value}", join=', '.join(RESULTS),
                                      value=repr(tag.value)))
    if first is None:
        return None
    if "Table" in record.tags:
        return _position(record, report, rules)
    for tag_name in ("Hand1", "Hand2", "ToMove", "Phase"):
        if tag_name in record.tags:
            tag = record.tags[tag_name]
            _tag_error(report, tag, T("{tag_name} describes a start position and needs a Table tag", tag_name=tag_name))
    decks: list[list | None] = [None, None]
    for p, deck in enumerate(record.decks):
        if deck is None:
            if f"Deck{p + 1}" in record.tags:
                return None  # a malformed deck was already reported by the reader
            continue
        tag = record.tags[f"Deck{p + 1}"]
        for v in cv.check_deck(rules, ((d.card, d.set) for d in deck), T("player {number}", number=cv.player_name(p))):
            report.errors.append(Finding(v.rule, v.message, tag.line, tag.column, player=str(p + 1)))
        decks[p] = [d.card for d in deck]
    if report.errors:
        return None
    return cv.new_game(rules, (decks[0], decks[1]), first)


def _player_tag(record: CaravanRecord, report: GameReport, name: str, default: str) -> int | None:
    tag = record.tags.get(name)
    value = tag.value.strip() if tag else default
    if tag is not None and value not in ("1", "2"):  # (the default is 1 or 2)
        _tag_error(report, tag, T("{name} must be 1 or 2, not {value}", name=name, value=repr(value)))
        return None
    return int(value) - 1


def _position(record: CaravanRecord, report: GameReport, rules: cv.RuleSet) -> cv.State | None:
    caravans = read_table(record, record.tags["Table"])
    hands: list[cv.Hand] = []
    for p in (0, 1):
        tag = record.tags.get(f"Hand{p + 1}")
        if tag is None or tag.value.strip() == "?":
            hands.append(cv.Hand((), None))
            continue
        cards = parse_card_list(record, tag, allow_unknown=True)
        if cards is None:
            continue
        hands.append(cv.Hand(tuple(c for c in cards if c is not None), sum(1 for c in cards if c is None)))
    decks: list[tuple | None] = []
    for p, deck in enumerate(record.decks):
        decks.append(None if deck is None else tuple(d.card for d in deck))
    to_move = _player_tag(record, report, "ToMove", "1")
    phase_tag = record.tags.get("Phase")
    phase = phase_tag.value.strip().lower() if phase_tag else "main"
    if phase_tag is not None and phase not in ("main", "opening"):  # (the default is "main")
        _tag_error(report, phase_tag, T('Phase must be "main" or "opening", not {value}', value=repr(phase_tag.value)))
    if caravans is not None:
        table = record.tags["Table"]
        for v in cv.check_position(rules, caravans):
            report.errors.append(Finding(v.rule, T("Table: {message}", message=v.message), table.line, table.column))
    if caravans is None or len(hands) < 2 or to_move is None or report.errors or record.errors:
        return None
    return cv.position(rules, caravans, (hands[0], hands[1]), (decks[0], decks[1]), to_move,
                       opening=phase == "opening")


def knowledge(state: cv.State) -> str:
    known = sum(1 for p in (0, 1) if state.hands[p].unknown is not None and state.decks[p] is not None)
    return ("moves", "partial", "full")[known]


def plan(record: CaravanRecord, report: GameReport, setting: cv.RuleSet | None = None) -> Plan:
    """The record's one segment: its start (from decks or a ``[Table]`` position) and
    every move; then the declared result against the one the moves reached."""
    read_errors = len(record.errors)
    state = start_state(record, report, setting)
    report.errors.extend(record.errors[read_errors:])  # bad cards in position tags
    if state is not None:
        report.knowledge = knowledge(state)
    if state is None or read_errors or report.errors:
        return
    final = yield Segment(None, state, record.moves, _mover)
    report.details["outcome"] = outcome(final)
    _check_result(record, report, final)


def _mover(state: cv.State, entry: object) -> str:
    return cv.player_name(state.to_move)


def outcome(state: cv.State) -> dict:
    values = [cv.caravan_value(c) for c in state.caravans]
    return {
        "over": state.over,
        "winner": None if state.winner is None else str(state.winner + 1),
        "end": state.end,
        "values": dict(zip(cv.LETTERS, values)),
        "to_move": str(state.to_move + 1),
    }


def _check_result(record: CaravanRecord, report: GameReport, state: cv.State) -> None:
    tag = record.tags.get("Result")
    token = record.result_token
    if tag and token and token[0] != tag.value and tag.value in RESULTS:
        report.errors.append(Finding("notation.result.mismatch",
                                     T("the movetext ends with {token} but the Result tag says {value}", token=token[0],
                                       value=tag.value),
                                     token[1], token[2]))
        return
    declared = tag.value if tag else (token[0] if token else "*")
    if declared not in RESULTS:
        return
    line, column = (tag.line, tag.column) if tag else ((token[1], token[2]) if token else (record.line, 1))
    termination = (record.tag("Termination") or "").strip().lower()
    forfeit = termination == "forfeit"
    if termination == "move limit" and not state.over and declared == "*":
        report.details["stopped"] = "move limit"  # a game Pitboss ran, stopped at its move limit
    found = cv.check_result(state, declared, forfeit)
    if found is not None:
        violation, doubt = found
        (report.warnings if doubt else report.errors).append(Finding(violation.rule, violation.message, line, column))

