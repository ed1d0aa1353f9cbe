"""CVN, the Caravan record notation: reading (via grammar/cvn.lark) and writing.

``read_caravan(chunk)`` turns one record's text into a :class:`CaravanRecord`: its tags,
its moves as engine moves with their places in the file, and every syntax or tag error
as a finding. ``write_caravan(record)`` writes the canonical form back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from lark import Token, Transformer, Tree
from lark.exceptions import UnexpectedInput

from referee.engines.base import Card
from referee.engines.message import M, T, said
from referee.games.caravan import engine as cv
from referee.notation import grammar, pieces
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


@dataclass(frozen=True)
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


# ------------------------------------------------------------------ the grammar's pieces

#: One item of a MOVES run (a move with its draw and annotations, or a move number), one
#: whole-line TAG, and each piece of a move: grammar/cvn.lark's own terminals, compiled with
#: their named parts captured (referee/notation/pieces.py), never restated here.
_ITEM = pieces.capturing("cvn", "_ITEM", ("MOVE_NUMBER", "_PLACE", "_DISCARD", "_DISBAND", "_DRAW", "_NOTES"))
_TAG = pieces.capturing("cvn", "TAG", ("TAG_NAME", "TAG_VALUE"))
_PLACE = pieces.capturing("cvn", "_PLACE", ("_CARD", "_LETTER", "_INDEX"))
_DISCARD = pieces.capturing("cvn", "_DISCARD", ("_CARD",))
_DISBAND = pieces.capturing("cvn", "_DISBAND", ("_LETTER",))
_DRAW = pieces.capturing("cvn", "_DRAW", ("_CARD",))
_ANNOTATION = pieces.capturing("cvn", "_ANNOTATION", ())
_LETTER_INDEX = {**{c: i for i, c in enumerate("abcdef")}, **{c: i for i, c in enumerate("ABCDEF")}}


def _part(pattern: re.Pattern[str], text: str, group: str) -> str:
    """A named part of a piece the item already matched (so the piece matches again)."""
    m = pattern.fullmatch(text)
    assert m is not None, (pattern.pattern, text)
    return m[group]


def _decode(m: re.Match) -> tuple[cv.Move, tuple[str, ...]]:
    """A move item's engine move and its annotation glyphs."""
    draw = parse_card(_part(_DRAW, m["DRAW"], "CARD")) if m["DRAW"] else None
    notes = tuple(a.group(0) for a in _ANNOTATION.finditer(m["NOTES"]))
    if m["PLACE"]:
        place = _PLACE.fullmatch(m["PLACE"])
        assert place is not None
        card = parse_card(place["CARD"])
        caravan = _LETTER_INDEX[place["LETTER"]]
        if place["INDEX"]:
            return cv.Attach(card, caravan, int(place["INDEX"]) - 1, draw), notes
        return cv.PlayNumber(card, caravan, draw), notes
    if m["DISCARD"]:
        return cv.Discard(parse_card(_part(_DISCARD, m["DISCARD"], "CARD")), draw), notes
    return cv.Disband(_LETTER_INDEX[_part(_DISBAND, m["DISBAND"], "LETTER")], draw), notes


def parse_move(text: str) -> cv.Move:
    """One move as a player writes it (``7H>A``, ``KS>D2``, ``discard 4C``, ``disband B``,
    with the readers' leniency), read by the grammar's own terminals. Raises ValueError
    saying what is wrong; a move number or a draw (``+9D``) is not a move."""
    m = _ITEM.fullmatch(text.strip() + " ") or _ITEM.fullmatch(text.strip())
    if m is None or m.lastgroup == "MOVE_NUMBER" or not (m["PLACE"] or m["DISCARD"] or m["DISBAND"]):
        raise ValueError(T("{strip} is not a CVN move (write e.g. 7H>A, KS>D2, discard 4C, disband B)",
                           strip=repr(text.strip())))
    if m["DRAW"]:
        raise ValueError(T("a draw (+9D) is not part of the move: the deck's top card is drawn"))
    return _decode(m)[0]


#: Decoded move items by their text (a bounded memo: a file has a few thousand distinct moves).
_DECODED: dict[str, tuple[cv.Move, tuple[str, ...]]] = {}
_DECODED_MAX = 100_000


#: What CVN's own terminals are called in a message for a player.
TERMINAL_NAMES = {
    "PLACE": M("a move such as 7H>A or KS>D2"),
    "DISCARD": "'discard'",
    "DISBAND": "'disband'",
    "CARAVAN": M("a caravan letter A-F"),
    "DRAW": M("a draw such as +9D"),
    "TAG_VALUE": M('a quoted tag value such as "Caravan"'),
}


class CaravanMove(MoveEntry):
    """A Caravan move as read; ``text`` is its canonical CVN."""

    __slots__ = ()

    @property
    def text(self) -> str:
        return _move_text(self.move)


def _read_run(record: CaravanRecord, run: Token, offset: int, warned: bool) -> bool:
    """The items of a MOVES token into ``record.moves``, each at its place in the file (the
    token starts at its line + ``offset``); a move number that is not the turn's is warned
    about once per record (``warned``: already done). Returns ``warned``."""
    text = str(run)
    moves = record.moves
    append = moves.append
    decoded_get = _DECODED.get
    line, column0 = run.line, run.column
    assert line is not None and column0 is not None  # a lexed token always has its place
    line += offset
    line_start = 0
    newline = text.find("\n")
    for m in _ITEM.finditer(text):
        pos = m.start()
        while newline != -1 and newline < pos:
            line += 1
            line_start = newline + 1
            column0 = 1
            newline = text.find("\n", line_start)
        if m.lastgroup == "MOVE_NUMBER":
            if not warned:
                n = int(m.group().rstrip().rstrip("."))
                turn = len(moves) // 2 + 1
                if n != turn:
                    record.warnings.append(Finding("notation.move-number",
                                                   T("move number {n} where {turn} was expected", n=n, turn=turn),
                                                   line, column0 + pos - line_start, ply=len(moves) + 1))
                    warned = True  # one warning per record is enough
            continue
        key = m.group()  # with its trailing blanks: a few variants of each move, no strip
        decoded = decoded_get(key)
        if decoded is None:
            decoded = _decode(m)
            if len(_DECODED) < _DECODED_MAX:
                _DECODED[key] = decoded
        append(CaravanMove(decoded[0], line, column0 + pos - line_start, decoded[1]))
    return warned


class _Build(Transformer):
    """Runs inside the LALR parser: no parse tree is built, records come out directly."""

    def tag(self, children: list[Token]) -> Tag:
        name, value = children
        line, column, name_column = value.line, value.column, name.column
        assert line is not None and column is not None and name_column is not None  # lexed tokens have places
        return Tag(str(name), unescape(str(value)[1:-1]), line, column + 1, name_column)

    def movetext(self, children: list[Token]) -> list[Token]:
        return children

    def start(self, children: list) -> tuple[list[Tag], list]:
        tags = []
        for item in children[:-1]:
            if isinstance(item, Token):  # a run of TAGS lexed whole
                tags.extend(_split_tags(item))
            else:
                tags.append(item)
        return tags, children[-1]


def _split_tags(run: Token) -> list[Tag]:
    """The tags of a TAGS token, each at the place of its value (inside the quotes)."""
    assert run.line is not None and run.column is not None  # a lexed token always has its place
    return [Tag(m["TAG_NAME"], unescape(m["TAG_VALUE"][1:-1]), line, column + m.start("TAG_VALUE") - m.start() + 1)
            for m, line, column in located(_TAG, str(run), run.line, run.column)]


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
        record.errors.append(grammar.syntax_finding(err, chunk.text, offset, TERMINAL_NAMES))
        for tag in salvage_tags(chunk):
            record.tags.setdefault(tag.name, tag)
        return record
    for tag in tags:
        tag.line += offset
        if tag.name in record.tags:
            record.errors.append(Finding("notation.tag.duplicate", T("the {name} tag is given twice", name=tag.name),
                                         tag.line, tag.column))
            continue
        record.tags[tag.name] = tag
    warned = False
    for tok in items:
        if tok.type == "MOVES":
            warned = _read_run(record, tok, offset, warned)
        else:  # the result token
            record.result_token = (str(tok), tok.line + offset, tok.column)
    _read_decks(record)
    return record


def _read_decks(record: CaravanRecord) -> None:
    for p, name in enumerate(("Deck1", "Deck2")):
        tag = record.tags.get(name)
        if tag is None:
            continue
        cards = parse_card_list(record, tag, allow_sets=True)
        record.decks[p] = cards


#: Deck words read before (``9H``, ``9H/2``), a bounded memo: decks repeat the same few.
_DECK_WORDS: dict[str, DeckCard] = {}
_DECK_WORDS_MAX = 10_000


def parse_card_list(record: Record, tag: Tag, allow_sets: bool = False,
                    allow_unknown: bool = False) -> list | None:
    """The cards of a tag value (space-separated); a bad card is a finding at its column.
    Unknown cards (``?``) come back as None."""
    out: list = []
    column = tag.column
    ok = True
    known = _DECK_WORDS.get
    for word in tag.value.split(" "):
        if not word:
            column += 1
            continue
        try:
            if allow_unknown and word == "?":
                out.append(None)
            elif allow_sets:
                deck_card = known(word)
                if deck_card is None:
                    card_text, _, set_name = word.partition("/")
                    deck_card = DeckCard(parse_card(card_text), set_name)
                    if len(_DECK_WORDS) < _DECK_WORDS_MAX:
                        _DECK_WORDS[word] = deck_card
                out.append(deck_card)
            else:
                out.append(parse_card(word))
        except CardError as err:
            record.errors.append(Finding("notation.tag.value", T("{name}: {err}", name=tag.name, err=said(err)),
                                         tag.line, column))
            ok = False
        column += len(word) + 1
    return out if ok else None


# ------------------------------------------------------------------ positions


def read_table(record: Record, tag: Tag) -> tuple[cv.Caravan, ...] | None:
    """The caravans of a ``[Table]`` tag, or None (with a finding) when it is malformed."""
    try:
        tree = grammar.load("cvn_table").parse(tag.value)
    except UnexpectedInput as err:
        finding = grammar.syntax_finding(err, tag.value, tag.line - 1, TERMINAL_NAMES, rule="notation.tag.value")
        finding.column = tag.column + (err.column - 1 if isinstance(err.column, int) and err.column > 0 else 0)
        finding.message = T("Table: {message}", message=finding.message)
        record.errors.append(finding)
        return None
    caravans: list[cv.Caravan] = [()] * 6
    for node in tree.children:
        assert isinstance(node, Tree)  # the grammar's start holds only caravan nodes
        letter, *slots = node.children
        c = "ABCDEF".index(str(letter).upper())
        built = []
        for slot in slots:
            assert isinstance(slot, Tree)  # after its letter, a caravan holds only slot nodes
            number, *faces = (parse_card(str(t)) for t in slot.children)
            built.append(cv.Slot(number, tuple(faces)))
        caravans[c] = tuple(built)
    return tuple(caravans)


# ------------------------------------------------------------------ writing


class _Texts(dict[cv.Move, str]):
    """Texts of moves written before (a bounded memo: games repeat the same few thousand
    moves); a move not met yet is written when it is looked up."""

    def __missing__(self, move: cv.Move) -> str:
        text = _move_text(move)
        if move.draw is not None:
            text = f"{text} +{move.draw}"
        if len(self) < _TEXTS_MAX:
            self[move] = text
        return text


_TEXTS: dict[cv.Move, str] = _Texts()
_TEXTS_MAX = 100_000

#: Canonical text of a move, with its draw (``KS>D2 +9D``).
move_text: Callable[[cv.Move], str] = _TEXTS.__getitem__

#: The move numbers, written once ("1.", "2.", ...), for as many as a long game has.
_NUMBERS = [f"{n}." for n in range(1, 2001)]


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
    if not comments and not glyphs:
        # The plain record (self-play's): each pair of moves after its number, laid out at
        # once, faster than the loop below, which it equals without annotations
        # (test_cvn_reader.py checks the two agree).
        texts = list(map(move_text, moves))
        pairs = (len(texts) + 1) // 2
        numbers = _NUMBERS[:pairs] if pairs <= len(_NUMBERS) else [f"{n}." for n in range(1, pairs + 1)]
        words: list[str] = [""] * (len(texts) + pairs)
        words[0::3] = numbers
        words[1::3] = texts[0::2]
        words[2::3] = texts[1::2]
        words.append(result if result is not None else tags.get("Result", "*"))
        lines.extend(wrap(words, width))
        return "\n".join(lines) + "\n"
    words = []
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


