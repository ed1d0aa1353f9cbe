"""Annotating Daifugo records: the rules a legal move relied on, and the writer.

(The settings compared are ``settings.comparisons``.) :func:`allowed` names the rules a
legal move relied on, from the public engine API (the combination's readings, the table,
the rule set), followed by the rules the move set off (the engine's ``State.events``).
"""

from __future__ import annotations

from referee.engines.base import JOKER
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import (
    DaifugoRecord,
)
from referee.games.daifugo.notation.dfn_annotated import write_annotated_daifugo
from referee.jobs.annotate import is_own_comment
from referee.jobs.timeline import Timeline


def allowed(state: df.State, move: df.Move) -> list[str]:
    """The ids of the rules a legal move relied on (turn, possession, combination, the
    table, the exchange duty), then those of what it set off: the engine's ``events``,
    which also name the joker rulings, the diamond-3 lead, playing over one's own cards,
    spade3 and consecutive-revolution when a play relied on them."""
    rules = state.rules
    ids: list[str] = []
    if isinstance(move, df.Give):
        duty = next(d for d in state.pending if d.giver == move.giver)
        ids.append("daifugo.exchange.duty")
        if rules.exchange_style == "server":
            ids.append("daifugo.exchange.order")
        elif state.dealt is not None:
            ids.append("daifugo.exchange.simultaneous")
        ids.append("daifugo.hand.possession")
        ids.append({"strongest": "daifugo.exchange.strongest", "weakest": "daifugo.exchange.weakest"}
                   .get(duty.choose, "daifugo.exchange.choice"))
    elif isinstance(move, df.Pass):
        ids.append("daifugo.turn.order")
        if state.table is None:
            ids.append("daifugo.pass.empty-stage")
    else:
        ids += ["daifugo.turn.order", "daifugo.hand.possession", "daifugo.combo.invalid"]
        jokers = move.cards.count(JOKER)
        if jokers and len(move.cards) > 1 and (len(move.joker_as) < jokers or None in move.joker_as):
            ids.append("daifugo.joker.ambiguous")  # a bare joker, read the one legal way
        combo = df.resolved(state, move)
        table = state.table
        if table is None:
            ids.append("daifugo.play.same-kind")
        elif table.lone_joker:
            ids.append("daifugo.play.lone-joker")
        elif combo is not None and combo.lone_joker:
            ids += ["daifugo.play.same-kind", "daifugo.play.lone-joker"]
        else:
            ids.append("daifugo.play.same-kind")
            if combo is not None and combo.kind == df.SEQUENCE:
                ids.append("daifugo.play.sequence-top" if rules.sequence_compare == "top"
                           else "daifugo.play.sequence-above")
            else:
                ids.append("daifugo.play.stronger")
        if state.lock is not None and table is not None:
            ids.append("daifugo.option.suit-lock")
    ids += df.apply(state, move).events
    return ids


def write(timeline: Timeline, comments: dict[int, list[str]], record_comments: list[str]) -> str:
    record = timeline.record
    assert isinstance(record, DaifugoRecord)
    return write_annotated_daifugo(record, timeline.chunk.text, comments, record_comments,
                                   keep=lambda c: not (c.kind == "{" and is_own_comment(c.text)))

