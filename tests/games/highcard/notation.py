"""HCN, Highcard's notation: reading a record (findings as values) and writing it back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from referee.engines.base import Card
from referee.engines.message import T
from referee.notation import grammar
from referee.notation.cards import CardError, parse_card
from referee.notation.records import Chunk, Finding, MoveEntry, Record, Tag, tag_line

HOME = Path(__file__).resolve().parent
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class CardMove(MoveEntry[Card]):
    @property
    def text(self) -> str:
        return str(self.move)


@dataclass
class HighcardRecord(Record):
    moves: list[MoveEntry[Card]] = field(default_factory=list)
    result: str | None = None

    def hand(self, p: int) -> tuple[Card, ...] | None:
        tag = self.tags.get(f"Hand{p + 1}")
        if tag is None:
            return None
        try:
            return tuple(parse_card(w) for w in tag.value.split())
        except CardError as err:
            self.errors.append(Finding("notation.tag.value", T("{tag}: {error}", tag=tag.name, error=str(err)),
                                       tag.line, tag.column))
            return None


def _line(token: Token) -> int:
    return token.line or 1


def _column(token: Token) -> int:
    return token.column or 1


def read(chunk: Chunk, file: str = "", index: int = 1) -> HighcardRecord:
    record = HighcardRecord(file, index, chunk.line, "highcard")
    offset = chunk.line - 1
    try:
        tree = grammar.load("hcn", folder=HOME).parse(chunk.text)
    except UnexpectedInput as err:
        record.errors.append(grammar.syntax_finding(err, chunk.text, offset))
        return record
    for item in tree.children:
        if isinstance(item, Tree):  # a tag: its name and its quoted value
            name, value = item.children
            assert isinstance(value, Token)
            tag = Tag(str(name), value[1:-1], _line(value) + offset, _column(value) + 1)
            if tag.name in record.tags:
                record.errors.append(Finding("notation.tag.duplicate", T("the {name} tag is given twice",
                                                                          name=tag.name), tag.line, tag.column))
            record.tags.setdefault(tag.name, tag)
        elif item.type == "CARD":
            record.moves.append(CardMove(parse_card(str(item)), _line(item) + offset, _column(item)))
        elif item.type == "RESULT":
            record.result = str(item)
    return record


def write(record: HighcardRecord, chunk: Chunk, comments: Mapping[int, Sequence[str]],
          record_comments: Sequence[str]) -> str:
    """The record in canonical HCN: its tags, then two cards a line (a trick), each card's
    comments after it and ``record_comments`` before the first (the source's own comments
    are not kept)."""
    lines = [tag_line(t.name, t.value) for t in record.tags.values()] + [""]
    words = [f"{{ {c} }}" for c in record_comments]
    for i, entry in enumerate(record.moves):
        words += ([f"{i // 2 + 1}."] if i % 2 == 0 else []) + [entry.text]
        words += [f"{{ {c} }}" for c in comments.get(i, ())]
    words.append(record.result or record.tag("Result", "*") or "*")
    return "\n".join(lines) + "\n" + " ".join(words) + "\n"
