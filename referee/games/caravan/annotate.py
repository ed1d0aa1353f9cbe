"""Writing an annotated Caravan record back: canonical CVN with annotate's comments on
their moves and the record's own comments kept where they stood."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.games.caravan.notation import cvn
from referee.jobs.annotate import is_own_comment
from referee.notation.comments import Comment, Placed, place_comments, scan_comments
from referee.notation.records import Chunk


def write(record: cvn.CaravanRecord, chunk: Chunk, comments: Mapping[int, Sequence[str]],
          record_comments: Sequence[str]) -> str:
    """The record in canonical CVN, ``comments`` after the moves they belong to (by move
    index), ``record_comments`` before the first move, the source's own comments kept
    (``chunk``: the text it was read from)."""
    placed = _placed_comments(record, chunk)
    tags = {name: tag.value for name, tag in record.tags.items()}
    result = record.result_token[0] if record.result_token else None
    if result is None and tags.get("Result", "*") not in cvn.RESULTS:
        result = "*"
    merged: dict[int, list[str]] = {}
    if record_comments:
        merged[-1] = list(record_comments)
    for i, found in placed.after.items():
        merged.setdefault(i, []).extend(c.text for c in found)
    for i, texts in comments.items():
        merged.setdefault(i, []).extend(texts)
    glyphs = {i: e.glyphs for i, e in enumerate(record.moves) if e.glyphs}
    body = cvn.write_caravan(tags, [e.move for e in record.moves], result, comments=merged, glyphs=glyphs)
    return _assemble(body, placed)


def _assemble(body: str, placed: Placed) -> str:
    """The writer's record with the comments that stood before the tags, in the tag
    section and after the result put back in their places."""
    tags_part, sep, movetext = body.partition("\n\n")
    lines: list[str] = [c.source() for c in placed.before]
    lines.append(tags_part)
    lines.extend(c.source() for c in placed.head)
    text = "\n".join(lines) + "\n\n" + movetext
    if placed.trailing:
        text += "\n".join(c.source() for c in placed.trailing) + "\n"
    return text


def _placed_comments(record: cvn.CaravanRecord, chunk: Chunk) -> Placed:
    comments, first_tag = scan_comments(chunk.text, chunk.line)
    kept: list[Comment] = [c for c in comments if not (c.kind == "{" and is_own_comment(c.text))]
    moves = [(e.line, e.column) for e in record.moves]
    token = record.result_token
    result = (token[1], token[2]) if token else None
    return place_comments(kept, first_tag, moves, result)
