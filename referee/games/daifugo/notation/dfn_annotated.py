"""DFN written back with comments: a read Daifugo record in canonical form, each move
followed by its ``{ }`` comments, the record's own comments kept in their places.

(``dfn.write_daifugo`` writes records from engine moves and has no comments; this writes a
*read* record back, as ``annotate`` needs, and leaves that writer as it is.)

Places: comments before the first tag stay before it; those in the game's tag section and
in each round's tag section stay there (as written, so ``;`` lines stay lines); those
among the moves follow the move they came after, as ``{ }``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.games.daifugo.notation.dfn import (
    GAME_TAGS,
    HAND_PREFIX,
    ROUND_TAGS,
    DaifugoRecord,
    hand_text,
    tag_lines,
)
from referee.notation.comments import Comment, comment_words, scan_comments
from referee.notation.records import wrap


def write_annotated_daifugo(record: DaifugoRecord, source: str, comments: Mapping[int, Sequence[str]] | None = None,
                            head: Sequence[str] = (), keep=lambda c: True, width: int = 80) -> str:
    """``record`` (read from ``source``, the record's own text) in canonical DFN.

    ``comments`` maps a move's index (0-based over the whole record, rounds in order) to
    the texts of the ``{ }`` comments written after it; ``head`` are comments written
    before the first move of the record. ``keep(comment)`` says which of the source's own
    comments to keep."""
    comments = comments or {}
    names = record.players
    found, first_tag = scan_comments(source, record.line)
    found = [c for c in found if keep(c)]
    moves = [(e.line, e.column) for rnd in record.rounds for e in rnd.moves]
    # Where each round's tag section starts, and its first move (rounds with a Round tag).
    sections: list[tuple[int, tuple[int, int] | None, int]] = []
    for r, rnd in enumerate(record.rounds):
        if "Round" in rnd.tags and rnd.tags is not record.tags:
            start = min(t.line for t in rnd.tags.values())
            first_move = (rnd.moves[0].line, rnd.moves[0].column) if rnd.moves else None
            sections.append((start, first_move, r))
    before: list[Comment] = []
    game_head: list[Comment] = []
    round_head: dict[int, list[Comment]] = {}
    after: dict[int, list[str]] = {}
    for c in found:
        at = (c.line, c.column)
        section = next((s for s in reversed(sections) if c.line >= s[0] and (s[1] is None or at < s[1])), None)
        if section is not None:
            round_head.setdefault(section[2], []).append(c)
            continue
        index = sum(1 for m in moves if m < at) - 1
        if index >= 0:
            after.setdefault(index, []).append(c.text)
        elif first_tag is None or c.line < first_tag:
            before.append(c)
        else:
            game_head.append(c)
    tags = {n: t.value for n, t in record.tags.items()}
    first_round = record.rounds[0] if record.rounds else None
    if first_round is not None and first_round.tags is record.tags:
        for p, hand in first_round.hands.items():
            tags[HAND_PREFIX + names[p]] = hand_text(hand)
    lines = [c.source() for c in before]
    lines += tag_lines(tags, GAME_TAGS, names)
    lines += [c.source() for c in game_head]
    index = 0
    pending_head = list(head)
    for r, rnd in enumerate(record.rounds):
        if rnd.tags is not record.tags:
            round_tags = {n: t.value for n, t in rnd.tags.items()}
            for p, hand in rnd.hands.items():
                round_tags[HAND_PREFIX + names[p]] = hand_text(hand)
            lines.append("")
            lines += tag_lines(round_tags, ROUND_TAGS, names)
            lines += [c.source() for c in round_head.get(r, ())]
        words: list[str] = comment_words(pending_head) if rnd.moves else []
        if rnd.moves:
            pending_head = []
        for entry in rnd.moves:
            text = entry.text
            if entry.glyphs:
                text += "".join(g if not g.startswith("$") else " " + g for g in entry.glyphs)
            words.append(text)
            words.extend(comment_words(after.get(index, ())))
            words.extend(comment_words(comments.get(index, ())))
            index += 1
        if words:
            lines.append("")
            lines += _wrap_moves(words, width)
    if pending_head:  # a record without moves: its notes go after the tags
        lines.append("")
        lines += wrap(comment_words(pending_head), width)
    return "\n".join(lines) + "\n"


def _wrap_moves(words: list[str], width: int) -> list[str]:
    """DFN separates moves by two spaces, words of a comment by one."""
    seps: list[str] = []
    in_comment = False
    for word in words:
        if in_comment or word.startswith("{"):
            seps.append(" ")
            in_comment = not word.endswith("}")
        else:
            seps.append("  ")
    return wrap(words, width, seps)
