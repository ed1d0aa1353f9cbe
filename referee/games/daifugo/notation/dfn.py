"""DFN, the Daifugo record notation: reading (via grammar/dfn.lark) and writing.

``read_daifugo(chunk)`` turns one record's text into a :class:`DaifugoRecord`: the game's
tags, then its rounds, each with its own tags (hands as dealt, ``Order``, ``Finish``) and its
moves as engine moves with their places in the file. Every syntax or tag problem becomes a
finding on the record; nothing raises. ``write_daifugo`` writes the canonical form.

A record without a ``[Round]`` tag before its movetext has one unnumbered round whose tags
are the game's own: a mid-round snapshot (notation.md section 5) or a single deal.

Beyond notation.md, for the uecda joker at a sequence's end (the server's columns 0 and 14):
``JK(<3D)`` stands below the 3 of diamonds, ``JK(>2D)`` above the 2. The joker in the
server's joker row (a 5-card group) is always written bare, ``JK``: it has one reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lark import Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from referee.engines.base import ALL_CARDS, JOKER, Card
from referee.engines.message import M, T, said
from referee.games.daifugo import engine as df
from referee.notation import grammar
from referee.notation.cards import CardError, parse_card
from referee.notation.records import (
    Chunk,
    Finding,
    MoveEntry,
    Record,
    Tag,
    located,
    salvage_tags,
    small_int,
    tag_line,
    unescape,
    wrap,
)

GAME_TAGS = ("Game", "Rules", "Options", "Players")
ROUND_TAGS = ("Round", "Order", "Finish")
#: Tags of a mid-round snapshot (notation.md section 5), besides the hands.
POSITION_TAGS = ("Table", "Passed", "Out", "Revolution", "ToMove", "Lock", "Back")
HAND_PREFIX = "Hand."

#: What the grammar's terminals are called in a syntax error message.
TERMINAL_NAMES = {
    "MOVES": M("a move such as Aki: 3C 3D, Ben: pass or Dai -> Aki: 2S JK"),
    "END": "'*'",
    "LSQB": M("a tag such as [Round \"1\"]"),
    "TAG": M("a tag such as [Round \"1\"]"),
}

# ------------------------------------------------------------------ the grammar's pieces

_NAME_CHARS = r"""[^\s\[\]{};"()$!?>:*]"""
_NAME_RE = re.compile(_NAME_CHARS + "+")


def is_player_name(word: str) -> bool:
    """Can ``word`` be a player's name in DFN (no spaces nor any of ``[ ] { } ; " ( ) $ ! ? > : *``)?"""
    return _NAME_RE.fullmatch(word) is not None

#: What may not follow a card or ``pass``: a name character or the colon of a move's head.
_WORD_END = r"""(?![^\s\[\]{};"()$!?>*])"""
_SUIT = "[shdc\u2660\u2665\u2666\u2663]"
_CARD = (rf"(?:(?:10|[2-9atjqk]){_SUIT}|jk(?:\((?:(?:10|[2-9atjqk])|<3|>2){_SUIT}\))?)"
         rf"{_WORD_END}")
#: One item of a MOVES run of grammar/dfn.lark: a move with its annotations, or a move
#: number (the same pieces as the grammar's terminals, in the same order).
_ITEM_RE = re.compile(
    rf"""(?:(?P<item>(?P<who>{_NAME_CHARS}+(?:[ \t]*->[ \t]*{_NAME_CHARS}+)?)[ \t]*:[ \t]*
        (?:(?P<pass>pass{_WORD_END})|(?P<cards>{_CARD}(?:[ \t]+{_CARD})*))
        (?P<notes>(?:[ \t]*(?:!!|\?\?|!\?|\?!|!|\?|\$[0-9]{{1,4}}))*))
       |(?P<number>[0-9]{{1,6}})\.+
    )[ \t\r\n]*""",
    re.IGNORECASE | re.VERBOSE,
)
_TAG_RE = re.compile(r'\[[ \t]*([^\s\[\]"{};\ufeff]+)[ \t]+"((?:[^"\\\n]|\\.)*)"')
_ARROW = re.compile(r"[ \t]*->[ \t]*")
_SUIT_NAMES = {"S": "S", "H": "H", "D": "D", "C": "C", "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}

Decoded = tuple[tuple[Card, ...], tuple["df.Stand | None", ...]]
#: Card lists decoded before, by their text (a bounded memo, at most 50,000: records repeat
#: the same plays).
_DECODED: dict[str, Decoded] = {}


class MoveTextError(ValueError):
    """Text that is no move (a Table tag's value, say)."""


def decode_cards(text: str) -> Decoded:
    """The cards of a play (``4D JK(5D) 6D``) and the jokers' readings, in order (``()`` when
    every joker is bare). Raises CardError on a word that is no card."""
    decoded = _DECODED.get(text)
    if decoded is not None:
        return decoded
    cards: list[Card] = []
    stands: list[df.Stand | None] = []
    for word in text.split():
        if word[:2].upper() == "JK":
            cards.append(JOKER)
            stands.append(_stand(word[3:-1]) if len(word) > 2 else None)
        else:
            cards.append(parse_card(word))
    decoded = tuple(cards), (tuple(stands) if any(s is not None for s in stands) else ())
    if len(_DECODED) < 50_000:
        _DECODED[text] = decoded
    return decoded


def _stand(inner: str) -> df.Stand:
    if inner[:1] in "<>":
        suit = _SUIT_NAMES.get(inner[2:].upper())
        if suit is None or inner[1:2] != ("3" if inner[0] == "<" else "2"):
            raise CardError(T("JK({inner}) names no card (write e.g. JK(5D), JK(<3D), JK(>2D))", inner=inner))
        return df.Stand(suit, df.BELOW_3 if inner[0] == "<" else df.ABOVE_2)
    return df.Stand.of(parse_card(inner))


def joker_text(stand: df.Stand | None) -> str:
    if stand is None or stand.suit == "":
        return "JK"
    if stand.strength == df.BELOW_3:
        return f"JK(<3{stand.suit})"
    if stand.strength == df.ABOVE_2:
        return f"JK(>2{stand.suit})"
    return f"JK({df.card_at(stand.suit, stand.strength)})"


def cards_text(cards: Sequence[Card], joker_as: Sequence[df.Stand | None] = ()) -> str:
    if not joker_as:  # every joker bare: each card's own text
        try:
            return " ".join(map(_CARD_TEXT.__getitem__, cards))
        except KeyError:  # a card outside the deck: written as it says itself
            pass
    readings = iter(joker_as)
    words = []
    for c in cards:
        words.append(joker_text(next(readings, None)) if c.is_joker else str(c))
    return " ".join(words)


#: Each card's text, a bare joker's included (the writer writes a card many times).
_CARD_TEXT = {c: str(c) for c in ALL_CARDS}
_CARD_TEXT[JOKER] = joker_text(None)


# ------------------------------------------------------------------ records as data


class DaifugoMove(MoveEntry):
    """A DFN move: the engine's move (players by their index in ``Players``; -1 for a name
    the record does not list), where it stands, and the names to write it back with."""

    __slots__ = ("names", "label")

    def __init__(self, move: df.Move, line: int, column: int, glyphs: tuple[str, ...],
                 names: Sequence[str], label: str) -> None:
        self.move = move
        self.line = line
        self.column = column
        self.glyphs = glyphs
        self.names = names
        #: The player part as written (``Aki``, ``Dai -> Aki``).
        self.label = label

    @property
    def text(self) -> str:
        return move_text(self.move, self.names, self.label)

    @property
    def player(self) -> str:
        """The acting player's name as written (the giver of a gift)."""
        return _ARROW.split(self.label)[0]


@dataclass
class DaifugoRound:
    """One round: its tags, the hands (by player index), Order and Finish, its moves."""

    #: The [Round] number; None for a record whose movetext comes before any [Round].
    number: int | None
    line: int
    tags: dict[str, Tag] = field(default_factory=dict)
    #: Hands by player index: as dealt, or as they are now in a snapshot.
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    order: tuple[int, ...] | None = None
    finish: tuple[int, ...] | None = None
    moves: list[DaifugoMove] = field(default_factory=list)

    @property
    def is_snapshot(self) -> bool:
        return any(name in self.tags for name in POSITION_TAGS)


@dataclass
class DaifugoRecord(Record):
    players: tuple[str, ...] = ()
    rounds: list[DaifugoRound] = field(default_factory=list)
    #: An Order tag among the game's tags: the seats of every round that gives none, where
    #: the rules do not fix them (uecda).
    order: tuple[int, ...] | None = None


# ------------------------------------------------------------------ reading


class _Build(Transformer):
    """Runs inside the LALR parser: no parse tree is built."""

    def tag(self, children: list[Token]) -> Tag:
        name, value = children
        line, column, name_column = value.line, value.column, name.column
        assert line is not None and column is not None and name_column is not None  # lexed tokens have places
        return Tag(str(name), unescape(str(value)[1:-1]), line, column + 1, name_column)

    def start(self, children: list) -> list:
        out = []
        for item in children:
            if isinstance(item, Token) and item.type == "TAG":
                m = _TAG_RE.match(item)
                line, column = item.line, item.column
                # the lexer's TAG is this pattern, and a lexed token has its place
                assert m is not None and line is not None and column is not None
                item = Tag(m[1], unescape(m[2]), line, column + m.start(2), column + m.start(1))
            out.append(item)
        return out


def _parser():
    return grammar.load("dfn", transformer=_Build)


def read_daifugo(chunk: Chunk, file: str = "", index: int = 1) -> DaifugoRecord:
    """Read one Daifugo record. Never raises on bad input: problems become findings."""
    record = DaifugoRecord(file=file, index=index, line=chunk.line, game="daifugo")
    offset = chunk.line - 1
    try:
        items = _parser().parse(chunk.text)
    except UnexpectedInput as err:
        record.errors.append(_syntax_finding(err, chunk.text, offset))
        _salvage_tags(record, chunk)
        return record
    current: DaifugoRound | None = None
    index_of: dict[str, int] | None = None
    for item in items:
        if isinstance(item, Tag):
            item.line += offset
            if item.name == "Round":
                current = DaifugoRound(None, item.line)
                record.rounds.append(current)
            section = current.tags if current is not None else record.tags
            if item.name in section:
                record.errors.append(Finding("notation.tag.duplicate", T("the {name} tag is given twice",
                                                                         name=item.name),
                                             item.line, item.column))
                continue
            section[item.name] = item
            continue
        if item.type == "END":
            continue
        if index_of is None:
            index_of = _read_players(record)
        if current is None:
            current = DaifugoRound(None, item.line + offset, record.tags)
            record.rounds.append(current)
        current.moves.extend(split_moves(item, offset, record.players, index_of))
    if index_of is None:
        index_of = _read_players(record)
    if not record.rounds and any(n.startswith(HAND_PREFIX) or n in POSITION_TAGS for n in record.tags):
        # hands or a position with no moves yet (a puzzle): still a round, to be checked
        record.rounds.append(DaifugoRound(None, record.line, record.tags))
    single_round = bool(record.rounds) and record.rounds[0].tags is record.tags
    if "Order" in record.tags and not single_round:  # without [Round], Order is its one round's
        record.order = read_names(record, record.tags["Order"], index_of, record.errors)
    for rnd in record.rounds:
        _read_round(record, rnd)
    return record


_MOVE_HEAD = re.compile(rf"{_NAME_CHARS}+(?:[ \t]*->[ \t]*{_NAME_CHARS}+)?[ \t]*:[ \t]*")
_CARD_WORD = re.compile(rf"(?:pass|{_CARD})(?:!!|\?\?|!\?|\?!|!|\?)?", re.IGNORECASE)


def _syntax_finding(err: UnexpectedInput, text: str, offset: int) -> Finding:
    """A syntax error at its place; where a move's head (``Ben:``) reads but what follows
    does not, the error points at the first word that is no card."""
    finding = grammar.syntax_finding(err, text, offset, TERMINAL_NAMES)
    pos = getattr(err, "pos_in_stream", None)
    if not isinstance(err, (UnexpectedCharacters, UnexpectedToken)) or not isinstance(pos, int) or pos < 0:
        return finding
    head = _MOVE_HEAD.match(text, pos)
    if head is None:
        return finding
    at = head.end()
    line_end = text.find("\n", at)
    for word in text[at:line_end if line_end != -1 else len(text)].split():
        if not _CARD_WORD.fullmatch(word):
            break
        at = text.index(word, at) + len(word)
    else:
        return finding
    at = text.index(word, at)
    finding.column = (finding.column or 1) + at - pos
    finding.message = T("{word} is not a card (write rank then suit, e.g. 10H, QS, AC; JK or JK(5D) for "
                        "the joker; or pass)", word=repr(word))
    return finding


def _read_players(record: DaifugoRecord) -> dict[str, int]:
    tag = record.tags.get("Players")
    if tag is None:
        return {}
    names = tuple(tag.value.split())
    column = tag.column
    seen: dict[str, int] = {}
    for word in tag.value.split(" "):
        if word and word not in seen:
            if not _NAME_RE.fullmatch(word):
                record.errors.append(Finding(
                    "notation.tag.value", T("Players: {word} cannot be a player name (names may not hold spaces nor "
                                            'any of [ ] {{ }} ; " ( ) $ ! ? > : *)', word=repr(word)),
                    tag.line, column))
            seen[word] = len(seen)
        elif word:
            record.errors.append(Finding("notation.tag.value", T("Players: {word} is listed twice", word=word),
                                         tag.line, column))
        column += len(word) + 1
    record.players = names
    return {name: i for i, name in enumerate(names)} if len(seen) == len(names) else seen


#: Moves as read, by the player names of their record, then by their text (bounded: 64 name
#: lists of at most 100,000 moves each; a match repeats its few thousand distinct moves).
_MOVES: dict[tuple[str, ...], dict[str, tuple[df.Move, tuple[str, ...], str]]] = {}


def split_moves(run: Token, offset: int, names: Sequence[str], index_of: dict[str, int]) -> list[DaifugoMove]:
    """The moves of a MOVES token at their places in the file (move numbers are dropped:
    the referee does not rely on them)."""
    out: list[DaifugoMove] = []
    append = out.append
    names = tuple(names)
    cache = _MOVES.get(names)
    if cache is None or len(cache) > 100_000:
        if len(_MOVES) > 64:
            _MOVES.clear()
        cache = _MOVES[names] = {}
    line0, column0 = run.line, run.column
    assert line0 is not None and column0 is not None  # a lexed token always has its place
    for m, line, column in located(_ITEM_RE, str(run), line0 + offset, column0):
        item = m["item"]
        if item is None:
            continue
        known = cache.get(item)
        if known is None:
            known = cache[item] = _move(m, index_of)
        append(DaifugoMove(known[0], line, column, known[1], names, known[2]))
    return out


def _move(m: re.Match, index_of: dict[str, int]) -> tuple[df.Move, tuple[str, ...], str]:
    who = m["who"]
    notes = m["notes"]
    glyphs = tuple(notes.split()) if notes else ()
    if "->" in who:
        giver, receiver = _ARROW.split(who)
        g, r = index_of.get(giver, -1), index_of.get(receiver, -1)
        if m["pass"] is not None:
            move: df.Move = df.Give(g, r, ())
        else:
            move = df.Give(g, r, decode_cards(m["cards"])[0])
    else:
        p = index_of.get(who, -1)
        if m["pass"] is not None:
            move = df.Pass(p)
        else:
            cards, stands = decode_cards(m["cards"])
            move = df.Play(p, cards, stands)
    return move, glyphs, who


def _salvage_tags(record: DaifugoRecord, chunk: Chunk) -> None:
    """After a syntax error, keep what the game's tag lines say (rule set, players)."""
    for tag in salvage_tags(chunk, stop_at="Round"):
        record.tags.setdefault(tag.name, tag)
    _read_players(record)


# ------------------------------------------------------------------ tag values


def words(tag: Tag) -> list[tuple[str, int]]:
    """The space-separated words of a tag value with their columns."""
    out = []
    column = tag.column
    for word in tag.value.split(" "):
        if word:
            out.append((word, column))
        column += len(word) + 1
    return out


def read_names(record: Record, tag: Tag, index_of: dict[str, int], errors: list[Finding]) -> tuple[int, ...] | None:
    """Player names of a tag value (Order, Finish, Passed, Out) as indices; None (with a
    finding) when a name is not a player or is listed twice."""
    out: list[int] = []
    for word, column in words(tag):
        p = index_of.get(word)
        if p is None:
            errors.append(Finding("notation.tag.value", T("{name}: {word} is not one of the players ({join})",
                                                          name=tag.name, word=word, join=', '.join(index_of)), tag.line,
                                                          column))
            return None
        if p in out:
            errors.append(Finding("notation.tag.value", T("{name}: {word} is listed twice", name=tag.name, word=word),
                                  tag.line, column))
            return None
        out.append(p)
    return tuple(out)


def read_hand(tag: Tag, errors: list[Finding]) -> tuple[Card, ...] | None:
    cards: list[Card] = []
    for word, column in words(tag):
        try:
            cards.append(JOKER if word.upper() == "JK" else parse_card(word))
        except CardError as err:
            errors.append(Finding("notation.tag.value", T("{name}: {err}", name=tag.name, err=said(err)), tag.line,
                                  column))
            return None
    return tuple(cards)


def card_columns(tag: Tag) -> list[tuple[Card | None, int]]:
    """Each card of a hand tag with its column (None for a word that is no card)."""
    out: list[tuple[Card | None, int]] = []
    for word, column in words(tag):
        try:
            out.append((JOKER if word.upper() == "JK" else parse_card(word), column))
        except CardError:
            out.append((None, column))
    return out


def read_play(text: str, index_of: dict[str, int]) -> df.Play:
    """A single play written as in movetext (``Ben: 5S 5C``), e.g. a Table tag's value.
    Raises MoveTextError when it is not one, or names no player of the record."""
    m = _ITEM_RE.fullmatch(text.strip() + " ")
    if m is None or m["who"] is None or m["cards"] is None or "->" in m["who"]:
        raise MoveTextError(T("{text} is not a play such as Ben: 5S 5C", text=repr(text)))
    p = index_of.get(m["who"])
    if p is None:
        raise MoveTextError(T("{who} is not one of the players ({players})", who=m['who'], players=', '.join(index_of)))
    try:
        cards, stands = decode_cards(m["cards"])
    except CardError as err:
        raise MoveTextError(said(err)) from None
    return df.Play(p, cards, stands)


def _read_round(record: DaifugoRecord, rnd: DaifugoRound) -> None:
    index_of = {name: i for i, name in enumerate(record.players)}
    errors = record.errors
    tag = rnd.tags.get("Round")
    if tag is not None:
        number = small_int(tag.value.strip())
        if number:
            rnd.number = number
        else:
            errors.append(Finding("notation.tag.value", T("Round must be a round number (1, 2, ...), not {value}",
                                                          value=repr(tag.value)), tag.line, tag.column))
    for name, tag in rnd.tags.items():
        if not name.startswith(HAND_PREFIX):
            continue
        who = name[len(HAND_PREFIX):]
        p = index_of.get(who)
        if p is None:
            if record.players:
                errors.append(Finding("notation.tag.value", T("{name}: {who} is not one of the players ({join})",
                                                              name=name, who=who, join=', '.join(record.players)),
                                                              tag.line, tag.name_column or tag.column))
            continue
        hand = read_hand(tag, errors)
        if hand is not None:
            rnd.hands[p] = hand
    for name in ("Order", "Finish"):
        tag = rnd.tags.get(name)
        if tag is not None:
            setattr(rnd, name.lower(), read_names(record, tag, index_of, errors))


def read_suits(tag: Tag, errors: list[Finding]) -> list[str] | None:
    """The suits of a Lock tag (``S H``)."""
    out = []
    for word, column in words(tag):
        suit = _SUIT_NAMES.get(word.upper())
        if suit is None:
            errors.append(Finding("notation.tag.value", T("{name}: {word} is not a suit (S H D C)", name=tag.name,
                                                          word=repr(word)),
                                  tag.line, column))
            return None
        out.append(suit)
    return out


# ------------------------------------------------------------------ options

TRUE_WORDS = {"yes": True, "true": True, "on": True, "1": True,
              "no": False, "false": False, "off": False, "0": False}


def toggle(word: str) -> tuple[str, object]:
    """One word of an Options value: ``+name``, ``-name`` or ``name=value``, as (option,
    value) for ``engine.ruleset``. Raises ValueError on a word of another shape (the
    engine judges names and values)."""
    if word[0] in "+-":
        return word[1:], word[0] == "+"
    name, eq, value = word.partition("=")
    if not eq:
        raise ValueError(T("{word} is no option toggle: write +name, -name or name=value", word=repr(word)))
    if name in df.OPTION_CHOICES:
        return name, value.lower()
    if name == "stairs-revolution" and small_int(value) is not None:
        return name, small_int(value)
    if value.lower() in TRUE_WORDS:
        return name, TRUE_WORDS[value.lower()]
    if name == "stairs-revolution":
        raise ValueError(T("option {name} takes a sequence length, not {value}", name=name, value=repr(value)))
    raise ValueError(T("option {name} takes on or off, not {value}", name=name, value=repr(value)))


def ruleset_of(preset: str, options: str = "") -> df.RuleSet:
    """The rule set a Rules value and an Options value name (ValueError if either is wrong);
    the command line's --rules and --options go through here too."""
    return df.ruleset(preset.strip().lower(), dict(toggle(w) for w in options.split()))


def options_text(rules: df.RuleSet) -> str:
    """The Options value that turns ``rules``' preset into ``rules`` (``-revolution``
    alone where revolutions are off: it turns off the long sequences' too)."""
    base = df.PRESETS[rules.name]
    out = []
    for name in df.OPTIONS:
        value, default = rules.option(name), base.option(name)
        if value == default or (name == "stairs-revolution" and not rules.revolution):
            continue
        if isinstance(value, bool):
            out.append(("+" if value else "-") + name)
        elif name == "stairs-revolution":
            out.append(f"{name}={value}" if value else f"-{name}")
        else:
            out.append(f"{name}={value}")
    return " ".join(out)


# ------------------------------------------------------------------ writing


def move_text(move: df.Move, names: Sequence[str], label: str | None = None) -> str:
    """Canonical text of a move (``Aki: 3C 3D``, ``Ben: pass``, ``Dai -> Aki: 2S JK``)."""
    written = _ARROW.split(label) if label else []
    if isinstance(move, df.Give):
        giver = _name(names, move.giver, written[0] if written else "?")
        receiver = _name(names, move.receiver, written[1] if len(written) > 1 else "?")
        return f"{giver} -> {receiver}: {cards_text(move.cards) if move.cards else 'pass'}"
    who = _name(names, move.player, written[0] if written else "?")
    if isinstance(move, df.Pass):
        return f"{who}: pass"
    if isinstance(move, df.Unreadable):
        raise ValueError(T("{who}: an unreadable contest submission ({text}) has no DFN text", who=who,
                           text=repr(move.text)))
    return f"{who}: {cards_text(move.cards, move.joker_as)}"


def _name(names: Sequence[str], p: int, fallback: str) -> str:
    return names[p] if 0 <= p < len(names) else fallback


def over_dealt(dealt: Iterable[tuple[Card, tuple[int, int]]], jokers: int) -> list[tuple[int, int]]:
    """Where each over-dealt card first exceeds the deck, given every dealt card with its
    place (line, column) in dealing order: the places of ``check_deal``'s duplicates."""
    seen: dict[Card, list[tuple[int, int]]] = {}
    for card, place in dealt:
        seen.setdefault(card, []).append(place)
    out = []
    for card, places in seen.items():
        allowed = jokers if card.is_joker else 1
        if len(places) > allowed:
            out.append(places[allowed])
    return out


def hand_text(cards: Iterable[Card]) -> str:
    return cards_text(tuple(cards))


def write_daifugo(tags: dict[str, str], rounds: Sequence[tuple[dict[str, str], Sequence[df.Move]]],
                  width: int = 80) -> str:
    """A record in canonical DFN: the game's tags (Game, Rules, Options, Players, then the
    others), then each round: its tags (Round, the hands in player order, Order, Finish,
    then the others) and its moves, wrapped at ``width``. A round with no tags is written
    without any (a snapshot's moves follow the game's tags)."""
    names = tags.get("Players", "").split()
    # A record repeats its moves (the same objects, as self-play and the reader make them):
    # each is written once, keyed by the object, which the record keeps alive meanwhile.
    texts: dict[int, str] = {}

    def text(m: df.Move) -> str:
        got = texts.get(id(m))
        if got is None:
            got = texts[id(m)] = move_text(m, names)
        return got

    return write_texts(tags, [(round_tags, [text(m) for m in moves]) for round_tags, moves in rounds], width)


def write_texts(tags: dict[str, str], rounds: Sequence[tuple[dict[str, str], Sequence[str]]], width: int = 80) -> str:
    """As :func:`write_daifugo`, from moves already written as text (a public record, whose
    exchange gifts show ``?`` for the cards)."""
    names = tags.get("Players", "").split()
    lines = tag_lines(tags, GAME_TAGS, names)
    for round_tags, words in rounds:
        if round_tags:
            lines.append("")
            lines += tag_lines(round_tags, ROUND_TAGS, names)
        if words:
            lines.append("")
            lines += wrap(words, width, "  ")
    return "\n".join(lines) + "\n"


def tag_lines(tags: dict[str, str], first: Sequence[str], names: Sequence[str]) -> list[str]:
    """Tags in canonical order: the leading one of ``first`` (Game, Round), the rest of
    ``first`` before the hands for the game (Rules, Options, Players) or after them for a
    round (Order, Finish), then any others in their own order."""
    hands = [HAND_PREFIX + name for name in names]
    head = [n for n in first[:1] if n in tags]
    if first is GAME_TAGS:
        head += [n for n in first[1:] if n in tags] + [n for n in hands if n in tags]
    else:
        head += [n for n in hands if n in tags] + [n for n in first[1:] if n in tags]
    order = head + [n for n in tags if n not in head]
    return [tag_line(n, tags[n]) for n in order]


def record_text(record: DaifugoRecord, width: int = 80) -> str:
    """A read record written back in canonical DFN (hands with canonical card text, moves
    as the engine reads them, with their annotation glyphs)."""
    rounds = []
    for rnd in record.rounds:
        if rnd.tags is record.tags:
            round_tags: dict[str, str] = {}
        else:
            round_tags = {n: t.value for n, t in rnd.tags.items()}
            for p, hand in rnd.hands.items():
                round_tags[HAND_PREFIX + record.players[p]] = hand_text(hand)
        rounds.append((round_tags, [e.text + _glyph_text(e.glyphs) for e in rnd.moves]))
    tags = {n: t.value for n, t in record.tags.items()}
    if record.rounds and record.rounds[0].tags is record.tags:
        for p, hand in record.rounds[0].hands.items():
            tags[HAND_PREFIX + record.players[p]] = hand_text(hand)
    return write_texts(tags, rounds, width)


def _glyph_text(glyphs: Sequence[str]) -> str:
    return "".join(g if not g.startswith("$") else " " + g for g in glyphs)


