"""Writing an annotated Daifugo record back: DFN with annotate's comments on their moves
and the record's own comments kept where they stood."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.games.daifugo.notation.dfn import DaifugoRecord
from referee.games.daifugo.notation.dfn_annotated import write_annotated_daifugo
from referee.jobs.annotate import is_own_comment
from referee.notation.records import Chunk


def write(record: DaifugoRecord, chunk: Chunk, comments: Mapping[int, Sequence[str]],
          record_comments: Sequence[str]) -> str:
    """The record in DFN, ``comments`` after the moves they belong to (by move index),
    ``record_comments`` before the first move, the source's own comments kept (``chunk``:
    the text it was read from)."""
    return write_annotated_daifugo(record, chunk.text, comments, record_comments,
                                   keep=lambda c: not (c.kind == "{" and is_own_comment(c.text)))
