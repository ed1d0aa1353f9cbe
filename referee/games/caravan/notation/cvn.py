"""CVN, the Caravan record notation: reading (via grammar/cvn.lark) and writing.

``read_caravan(chunk)`` turns one record's text into a :class:`CaravanRecord`: its tags,
its moves as engine moves with their places in the file, and every syntax or tag error
as a finding. ``write_caravan(record)`` writes the canonical form back.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput

from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.notation import grammar
from referee.notation.cards import CardError, parse_card
from referee.notation.comments import comment_words
from referee.notation.records import (
    Chunk,
    Finding,
    MoveEntry,
    Record,
    Tag,
    located,
    salvage_tags,
    tag_line,
    unescape,
    wrap,
)

TAG_ORDER = ("Game", "Rules", "Player1", "Player2", "First", "Deck1", "Deck2", "Table", "Hand1",
             "Hand2", "ToMove", "Phase", "Result", "Termination")
RESULTS = ("1-0", "0-1", "*")


@dataclass
class DeckCard:
    card: Card
    set: str = ""

    def __str__(self) -> str:
        return f"{self.card}/{self.set}" if self.set else str(self.card)


@dataclass
class CaravanRecord(Record):
    moves: list[MoveEntry] = field(default_factory=list)
    #: The result token that ends the movetext (text, line, column), if any.
    result_token: tuple[str, int, int] | None = None
    #: Decks as read from Deck1/Deck2 (with set tags), None when absent.
    decks: list[list[DeckCard] | None] = field(default_factory=lambda: [None, None])


# ------------------------------------------------------------------ the grammar's values


_CARD_RE = r"(?:10|[2-9atjqk])[shdc\u2660\u2665\u2666\u2663]|jk"
#: One item of a MOVES run of grammar/cvn.lark: a move number, or a move with its draw
#: and annotations (the same pieces as the grammar's terminals).
_ITEM_RE = re.compile(
    rf"""(?:(?P<number>[0-9]{{1,6}})\.+
    |(?:(?P<card>{_CARD_RE})>(?P<to>[a-f])(?P<index>[0-9]{{0,2}})
       |discard[ \t]+(?P<discard>{_CARD_RE})
       |disband[ \t]+(?P<disband>[a-f]))
     (?:[ \t]*\+(?P<draw>{_CARD_RE}))?
     (?P<notes>(?:[ \t]*(?:!!|\?\?|!\?|\?!|!|\?|\$[0-9]{{1,4}}))*)
    )[ \t\r\n]*""",
    re.IGNORECASE | re.VERBOSE,
)
_LETTER_INDEX = {**{c: i for i, c in enumerate("abcdef")}, **{c: i for i, c in enumerate("ABCDEF")}}


def _decode(m: re.Match) -> cv.Move:
    draw = parse_card(m["draw"]) if m["draw"] else None
    if m["card"]:
        card = parse_card(m["card"])
        caravan = _LETTER_INDEX[m["to"]]
        if m["index"]:
            return cv.Attach(card, caravan, int(m["index"]) - 1, draw)
        return cv.PlayNumber(card, caravan, draw)
    if m["discard"]:
        return cv.Discard(parse_card(m["discard"]), draw)
    return cv.Disband(_LETTER_INDEX[m["disband"]], draw)


_DECODED: dict[str, tuple[cv.Move, tuple[str, ...]]] = {}


class CaravanMove(MoveEntry):
    """A Caravan move as read; ``text`` is its canonical CVN."""

    __slots__ = ()

    @property
    def text(self) -> str:
        return _move_text(self.move)


def split_moves(run: Token) -> Iterator[MoveEntry | tuple[int, int, int]]:
    """The items of a MOVES token: MoveEntry for a move, (number, line, column) for a move
    number, each at its place in the file."""
    for m, line, column in located(_ITEM_RE, str(run), run.line, run.column):
        if m["number"]:
            yield int(m["number"]), line, column
            continue
        key = m.group(0)
        decoded = _DECODED.get(key)
        if decoded is None:
            decoded = _decode(m), tuple(m["notes"].split()) if m["notes"] else ()
            if len(_DECODED) < 100_000:
                _DECODED[key] = decoded
        yield CaravanMove(decoded[0], line, column, decoded[1])


class _Build(Transformer):
    """Runs inside the LALR parser: no parse tree is built, records come out directly."""

    def tag(self, children: list[Token]) -> Tag:
        name, value = children
        return Tag(str(name), unescape(str(value)[1:-1]), value.line, value.column + 1)

    def movetext(self, children: list[Token]) -> list:
        items: list = []
        for tok in children:
            if tok.type == "MOVES":
                items.extend(split_moves(tok))
            else:
                items.append(tok)
        return items

    def start(self, children: list) -> tuple[list[Tag], list]:
        return children[:-1], children[-1]


def _parser():
    return grammar.load("cvn", transformer=_Build)


# ------------------------------------------------------------------ reading


def read_caravan(chunk: Chunk, file: str = "", index: int = 1) -> CaravanRecord:
    """Read one Caravan record. Never raises on bad input: problems become findings."""
    record = CaravanRecord(file=file, index=index, line=chunk.line, game="caravan")
    offset = chunk.line - 1
    try:
        tags, items = _parser().parse(chunk.text)
    except UnexpectedInput as err:
        record.errors.append(grammar.syntax_finding(err, chunk.text, offset))
        for tag in salvage_tags(chunk):
            record.tags.setdefault(tag.name, tag)
        return record
    for tag in tags:
        tag.line += offset
        if tag.name in record.tags:
            record.errors.append(Finding("notation.tag.duplicate", f"the {tag.name} tag is given twice",
                                         tag.line, tag.column))
            continue
        record.tags[tag.name] = tag
    expected_number = 1
    ply = 0
    for item in items:
        if isinstance(item, MoveEntry):
            item.line += offset
            record.moves.append(item)
            ply += 1
        elif isinstance(item, tuple):
            n, line, column = item
            turn = ply // 2 + 1
            if n != turn and expected_number:
                record.warnings.append(Finding(
                    "notation.move-number", f"move number {n} where {turn} was expected",
                    line + offset, column, ply=ply + 1))
                expected_number = 0  # one warning per record is enough
        else:  # the result token
            record.result_token = (str(item), item.line + offset, item.column)
    _read_decks(record)
    return record


def _read_decks(record: CaravanRecord) -> None:
    for p, name in enumerate(("Deck1", "Deck2")):
        tag = record.tags.get(name)
        if tag is None:
            continue
        cards = parse_card_list(record, tag, allow_sets=True)
        record.decks[p] = cards  # type: ignore[assignment]


def parse_card_list(record: Record, tag: Tag, allow_sets: bool = False,
                    allow_unknown: bool = False) -> list | None:
    """The cards of a tag value (space-separated); a bad card is a finding at its column.
    Unknown cards (``?``) come back as None."""
    out: list = []
    column = tag.column
    ok = True
    for word in tag.value.split(" "):
        if not word:
            column += 1
            continue
        try:
            if allow_unknown and word == "?":
                out.append(None)
            elif allow_sets:
                card_text, _, set_name = word.partition("/")
                out.append(DeckCard(parse_card(card_text), set_name))
            else:
                out.append(parse_card(word))
        except CardError as err:
            record.errors.append(Finding("notation.tag.value", f"{tag.name}: {err}", tag.line, column))
            ok = False
        column += len(word) + 1
    return out if ok else None


# ------------------------------------------------------------------ positions


def read_table(record: Record, tag: Tag) -> tuple[cv.Caravan, ...] | None:
    """The caravans of a ``[Table]`` tag, or None (with a finding) when it is malformed."""
    try:
        tree = grammar.load("cvn_table").parse(tag.value)
    except UnexpectedInput as err:
        finding = grammar.syntax_finding(err, tag.value, tag.line - 1, rule="notation.tag.value")
        finding.column = tag.column + (err.column - 1 if isinstance(err.column, int) and err.column > 0 else 0)
        finding.message = f"Table: {finding.message}"
        record.errors.append(finding)
        return None
    caravans: list[cv.Caravan] = [()] * 6
    for node in tree.children:
        letter, *slots = node.children
        c = "ABCDEF".index(str(letter).upper())
        built = []
        for slot in slots:
            number, *faces = (parse_card(str(t)) for t in slot.children)
            built.append(cv.Slot(number, tuple(faces)))
        caravans[c] = tuple(built)
    return tuple(caravans)


# ------------------------------------------------------------------ writing


def move_text(move: cv.Move) -> str:
    """Canonical text of a move, with its draw (``KS>D2 +9D``)."""
    text = _move_text(move)
    return f"{text} +{move.draw}" if move.draw is not None else text


def _move_text(move: cv.Move) -> str:
    if isinstance(move, cv.PlayNumber):
        return f"{move.card}>{cv.LETTERS[move.caravan]}"
    if isinstance(move, cv.Attach):
        return f"{move.card}>{cv.LETTERS[move.caravan]}{move.index + 1}"
    if isinstance(move, cv.Discard):
        return f"discard {move.card}"
    return f"disband {cv.LETTERS[move.caravan]}"


def table_text(caravans: tuple[cv.Caravan, ...]) -> str:
    parts = []
    for c, caravan in enumerate(caravans):
        slots = " ".join(str(s.card) + (f"({' '.join(map(str, s.faces))})" if s.faces else "")
                         for s in caravan)
        parts.append(f"{cv.LETTERS[c]}: {slots}".rstrip())
    return "; ".join(parts)


def write_caravan(tags: dict[str, str], moves: list[cv.Move], result: str | None = None,
                  width: int = 80, comments: Mapping[int, Sequence[str]] | None = None,
                  glyphs: Mapping[int, Sequence[str]] | None = None) -> str:
    """A record in canonical CVN: known tags in their order, then the others, then the
    movetext numbered every two moves and wrapped at ``width``.

    ``comments`` (optional) maps a move's index (0-based; -1: before the first move) to the
    texts of the ``{ }`` comments that follow it; braces inside a text become parentheses.
    ``glyphs`` (optional) maps a move's index to its annotation glyphs (``!``, ``?``, ``$N``).
    Without them the output is the plain canonical record."""
    ordered = [n for n in TAG_ORDER if n in tags] + [n for n in tags if n not in TAG_ORDER]
    lines = [tag_line(name, tags[name]) for name in ordered]
    lines.append("")
    words: list[str] = []
    if comments:
        words.extend(comment_words(comments.get(-1, ())))
    for i, move in enumerate(moves):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        text = move_text(move)
        if glyphs and glyphs.get(i):
            text += "".join(g if g[0] != "$" else f" {g}" for g in glyphs[i])
        words.append(text)
        if comments:
            words.extend(comment_words(comments.get(i, ())))
    words.append(result if result is not None else tags.get("Result", "*"))
    lines.extend(wrap(words, width))
    return "\n".join(lines) + "\n"


