"""Annotating Daifugo records: the rules a legal move relied on, and the writer.

(The settings compared are ``settings.comparisons``.) :func:`allowed` names the rules a
legal move relied on as the engine's ``check`` consulted them (its ``consulted`` list),
followed by the rules the move set off (the engine's ``State.events``).
"""

from __future__ import annotations

from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import (
    DaifugoRecord,
)
from referee.games.daifugo.notation.dfn_annotated import write_annotated_daifugo
from referee.jobs.annotate import is_own_comment
from referee.jobs.timeline import Timeline


def allowed(state: df.State, move: df.Move, after: df.State | None = None) -> list[str]:
    """The ids of the rules a legal move relied on, as the engine's ``check`` consulted
    them, then those of what it set off (the ``events`` of ``after``, the state it led to,
    applied here when not given)."""
    consulted: list[str] = []
    df.check(state, move, consulted)
    return consulted + list((after if after is not None else df.apply(state, move)).events)


def write(timeline: Timeline, comments: dict[int, list[str]], record_comments: list[str]) -> str:
    record = timeline.record
    assert isinstance(record, DaifugoRecord)
    return write_annotated_daifugo(record, timeline.chunk.text, comments, record_comments,
                                   keep=lambda c: not (c.kind == "{" and is_own_comment(c.text)))

