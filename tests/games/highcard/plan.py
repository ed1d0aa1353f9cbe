"""Highcard's referee: the hands from the tags, the cards played, then the result."""

from __future__ import annotations

from referee.engines.base import Card
from referee.engines.message import T
from referee.jobs.report import GameReport
from referee.jobs.segment import Plan, Segment
from referee.notation.records import Finding, MoveEntry

from . import engine
from .notation import RESULTS, HighcardRecord


def plan(record: HighcardRecord, report: GameReport, setting: engine.Rules | None = None) -> Plan[engine.State, Card]:
    name = (record.tag("Rules") or engine.RULE_SETS[0]).strip().lower()
    tag = record.tags.get("Rules")
    if setting is None and name not in engine.RULE_SETS and tag is not None:
        report.errors.append(Finding("notation.tag.rules", T("unknown Highcard rule set {value}", value=repr(name)),
                                     tag.line, tag.column))
        return
    rules = setting or engine.named(name)
    report.rules = rules.name
    hands = (record.hand(0), record.hand(1))
    if record.errors or hands[0] is None or hands[1] is None:
        report.errors.extend(f for f in record.errors if f not in report.errors)
        return
    wrong = engine.deal_violation((hands[0], hands[1]))
    if wrong is not None:
        where = record.tags["Hand1"]
        report.errors.append(Finding(wrong.rule, wrong.message, where.line, where.column))
        return
    final = yield Segment(None, engine.State(rules, (hands[0], hands[1])), record.moves, _mover)
    _check_result(record, report, final)


def _mover(state: engine.State, entry: MoveEntry[Card]) -> str:
    return str(state.to_move + 1)


def _check_result(record: HighcardRecord, report: GameReport, final: engine.State) -> None:
    declared = record.result or record.tag("Result")
    if declared is None or declared == "*" and not final.over or declared not in RESULTS:
        return
    won = engine.winner(final)
    truth = "1/2-1/2" if final.over and won is None else ("1-0", "0-1")[won] if final.over and won is not None else "*"
    if declared != truth:
        tag = record.tags.get("Result")
        line, column = (tag.line, tag.column) if tag else (record.line, 1)
        report.errors.append(Finding("highcard.end.result", T("the tricks give {truth}, not {declared}",
                                                               truth=truth, declared=declared), line, column))
