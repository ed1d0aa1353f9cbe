"""The UEC contest server's game logs (tndhms 0.29 logger.c writes them), read as data.

``read_log(lines)`` yields one :class:`LogGame` per game, in file order, streamed: the
header it belongs to, the title digits (``mibun``), the seats, the hands as dealt, every
entry of the ``play`` line decoded into an engine move, and the ``result`` line, each with
its line and column. Each line is parsed with grammar/uecda.lark; a line that does not
parse, a line out of the server's order, or a value that cannot be (a seat line that is no
permutation, a card that does not exist) becomes a finding on its game. Nothing raises.

The later revision of the server (its header opens with ``hostname`` and ``TIME_START``)
adds a ``change_cards`` line to each game (the exchange: the server's transfers, then the
gifts), a ``points`` line (each player's running total) and, after the last game,
``TIME_END`` and ``TOTAL_POINT``; its games are read with those lines in their place.
A log that stops before its last game is whole (a server that hung or was killed) says
so: ``daifugo.log.cut-short`` on that game, or on the log when no game began.

Card codes: suit letter ``S H D C`` and rank ``3-9 T J Q K A 2``; the joker is ``K L M N``
(standing in the spade, heart, diamond, club row) or ``J`` (its own row, the 5-card group),
at the column its rank names; ``x`` is column 0 (below the 3) when printed before the other
cards of its row, column 14 (above the 2) after them. In a hand the joker is ``J3``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from lark import Tree
from lark.exceptions import UnexpectedInput

from referee.engines.base import JOKER, Card
from referee.engines.message import M, N, T
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import over_dealt
from referee.notation import grammar
from referee.notation.records import Finding, Record, small_int

#: The order of a game's lines (the 2018 server; the later revision's).
LINE_KINDS = ("mibun", "seat", "cards", "play", "result")
LATER_LINE_KINDS = ("mibun", "seat", "cards", "change", "play", "result", "points")
LINE_KEYS = {"mibun": "mibun", "seat": "seat", "cards": "palyer_cards", "change": "change_cards", "play": "play",
             "result": "result", "points": "points"}
#: Header keys only the later revision writes: before the names, and after the last game.
LATER_HEADER_KEYS = ("hostname", "TIME_START")
TRAILER_KEYS = ("TIME_END", "TOTAL_POINT")
#: The revisions a header can name (``LogHeader.revision``).
REVISIONS = ("2018", "later")
CUT_SHORT = "daifugo.log.cut-short"

_WORD = re.compile(r"\S+")
_RANKS = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13,
          "A": 1, "2": 2}
_COLUMN = {r: df.strength(Card(rank, "S")) for r, rank in _RANKS.items()}
_JOKER_ROWS = {"K": "S", "L": "H", "M": "D", "N": "C", "J": ""}
_ROW_OF = {"S": "S", "H": "H", "D": "D", "C": "C", "K": "S", "L": "H", "M": "D", "N": "C", "J": ""}

TERMINAL_NAMES = {
    "HEADER_TAG": "%-----%",
    "GAME_TAG": "a game number such as %00000%",  # not marked: Babel would take it for a %-format
    "HEADER_KEY": M("a header key such as RULE_KAKUMEI"),
    "DIGITS": M("five digits"),
    "HAND": M("a hand of card codes such as S3H4J3"),
    "ENTRIES": M("an entry such as 2S6S7S8EE or 1EE"),
    "WORD": M("a value"),
    "CHANGES": M("an exchange such as 42S2J3EE"),
    "NULL": "NULL",
    "NUMBER": M("a number"),
}


@dataclass
class Value:
    """A line's value with its place: digits of mibun, seat, result."""

    value: str
    line: int
    column: int


@dataclass
class LogHeader:
    names: tuple[str, ...] = ()
    flags: dict[str, str] = field(default_factory=dict)
    line: int = 1
    #: "2018" or "later" (its header opens with hostname / TIME_START).
    revision: str = "2018"
    #: Where each header key stands (line).
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def later(self) -> bool:
        return self.revision == "later"

    def kinds(self) -> tuple[str, ...]:
        return LATER_LINE_KINDS if self.later else LINE_KINDS

    def seed(self) -> int | None:
        """``RANDOM_SEED``, when the header has one."""
        return small_int(self.flags.get("RANDOM_SEED", ""))

    def flag(self, name: str, default: bool) -> bool:
        value = self.flags.get(name)
        return default if value is None else value.upper() == "YES"

    def number(self, name: str, default: int) -> int:
        value = small_int(self.flags.get(name, ""))
        return default if value is None else value


@dataclass
class LogEntry:
    """One entry of a play line: the submitting player id, the move it decodes to (an
    ``Unreadable`` one when it holds a cell the server's table cannot hold as a card: always
    rejected), its text."""

    player: int
    move: df.Move
    text: str
    line: int
    column: int


@dataclass
class LogResult:
    order: tuple[int, ...]
    line: int
    column: int


@dataclass
class LogChange:
    """One transfer of a later-revision ``change_cards`` line: giver, receiver, the cards."""

    giver: int
    receiver: int
    cards: tuple[Card, ...] | None
    text: str
    line: int
    column: int


@dataclass
class LogNumbers:
    """A line of numbers (``points``, ``TOTAL_POINT``) with its place."""

    values: tuple[int, ...]
    line: int
    column: int


@dataclass
class LogGame(Record):
    #: The game's 0-based number in the log (``%00000%`` is 0); ``index`` is number + 1.
    number: int = 0
    header: LogHeader | None = None
    mibun: Value = field(default_factory=lambda: Value("22222", 0, 0))
    seats: tuple[int, ...] = ()
    #: Where the seat line's digits stand (line, column).
    seat_place: tuple[int, int] = (0, 0)
    hands: list[tuple[Card, ...]] = field(default_factory=list)
    #: Where each card of each hand stands: (line, column) per card, hands in player order.
    hand_places: list[list[tuple[int, int]]] = field(default_factory=list)
    cards_line: int = 0
    cards_column: int = 0
    entries: list[LogEntry] = field(default_factory=list)
    result: LogResult = field(default_factory=lambda: LogResult((), 0, 0))
    #: The later revision's exchange (None when the log does not record it; empty: NULL).
    changes: list[LogChange] | None = None
    #: The later revision's running totals after this game, and (on the last game) the
    #: log's TOTAL_POINT.
    points: LogNumbers | None = None
    total: LogNumbers | None = None
    #: The kinds of line read so far, in order.
    seen: list[str] = field(default_factory=list)
    #: The log stops inside this game (no line after it; or, with no game, after the header).
    cut_short: bool = False

    def duplicate_places(self, jokers: int) -> list[tuple[int, int]]:
        """Where each over-dealt card first exceeds the deck, in the engine's order (first
        appearance, hands in player order): the places of ``check_deal``'s duplicates."""
        return over_dealt(((card, place) for hand, places in zip(self.hands, self.hand_places)
                           for card, place in zip(hand, places)), jokers)


# ------------------------------------------------------------------ card codes

#: Submissions decoded before, by their cells' text (a bounded memo, at most 20,000: a log's
#: thousands of games repeat a few thousand distinct submissions).
_DECODED: dict[str, tuple[tuple[Card, ...], tuple[df.Stand, ...]] | None] = {}


def decode_submission(body: str) -> tuple[tuple[Card, ...], tuple[df.Stand, ...]] | None:
    """The cards of an entry (without player id and ``EE``) and each joker's reading; None
    when a code is a real card at column x, which the server's table cannot hold."""
    if body in _DECODED:
        return _DECODED[body]
    codes = [(body[i], body[i + 1]) for i in range(0, len(body), 2)]  # (suit, rank): the grammar writes pairs
    cards: list[Card] = []
    stands: list[df.Stand] = []
    decoded: tuple[tuple[Card, ...], tuple[df.Stand, ...]] | None
    for i, (s, r) in enumerate(codes):
        if s in "SHDC":
            if r == "x":
                decoded = None
                break
            cards.append(Card(_RANKS[r], s))
            continue
        row = _JOKER_ROWS[s]
        if r == "x":
            # Printed before the other cards of its row: column 0; after them: column 14.
            later = any(_ROW_OF[c[0]] == row for c in codes[i + 1:])
            column = df.BELOW_3 if later else df.ABOVE_2
        else:
            column = _COLUMN[r]
        cards.append(JOKER)
        stands.append(df.Stand(row, column))
    else:
        decoded = tuple(cards), tuple(stands)
    if len(_DECODED) < 20_000:
        _DECODED[body] = decoded
    return decoded


def decode_entry(text: str, line: int, column: int) -> LogEntry:
    player = int(text[0])
    decoded = decode_submission(text[1:-2])
    if decoded is None:
        move: df.Move = df.Unreadable(player, text[1:-2])
    elif not decoded[0]:
        move = df.Pass(player)
    else:
        move = df.Play(player, decoded[0], decoded[1])
    return LogEntry(player, move, text, line, column)


def decode_hand(text: str) -> tuple[Card, ...] | None:
    """A hand as logged (``S3H4J3``); None if a code is no card (a real card at x)."""
    out = []
    for i in range(0, len(text), 2):
        s, r = text[i], text[i + 1]
        if s in "SHDC":
            if r == "x":
                return None
            out.append(Card(_RANKS[r], s))
        else:
            out.append(JOKER)
    return tuple(out)


# ------------------------------------------------------------------ writing card codes

_RANK_CHAR = {rank: r for r, rank in _RANKS.items()}
_ROW_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3, "": 4}
_JOKER_LETTER = {"S": "K", "H": "L", "D": "M", "C": "N", "": "J"}


def card_code(card: Card) -> str:
    """A card as the server logs it in a hand (the joker is J3)."""
    return "J3" if card.is_joker else card.suit + _RANK_CHAR[card.rank]


def hand_code(hand: Iterable[Card]) -> str:
    """A hand in the server's order: spades, hearts, diamonds, clubs, then the joker, each
    suit from the 3 up to the 2."""
    def key(c: Card) -> tuple[int, int]:
        return (4, 0) if c.is_joker else (_ROW_INDEX[c.suit], df.strength(c))
    return "".join(card_code(c) for c in sorted(hand, key=key))


def entry_code(move: df.Move) -> str:
    """A submission as the server logs it: player id, the cells row by row in ascending
    column (a joker at the row and column of its reading; a lone joker as Kx), then EE."""
    if isinstance(move, df.Pass):
        return f"{move.player}EE"
    assert isinstance(move, df.Play)
    if len(move.cards) == 1 and move.cards[0].is_joker:
        return f"{move.player}KxEE"
    readings = iter(move.joker_as)
    cells = []
    for c in move.cards:
        if c.is_joker:
            stand = next(readings, None)
            if stand is None:
                raise ValueError(T("a joker in a combination needs its reading to be logged"))
            rank = "x" if stand.strength in (df.BELOW_3, df.ABOVE_2) else _RANK_CHAR[df.rank_of(stand.strength)]
            cells.append((_ROW_INDEX[stand.suit], stand.strength, _JOKER_LETTER[stand.suit] + rank))
        else:
            cells.append((_ROW_INDEX[c.suit], df.strength(c), card_code(c)))
    return f"{move.player}{''.join(code for _, _, code in sorted(cells))}EE"


# ------------------------------------------------------------------ reading


class _Lexed(Protocol):
    """A terminal of a log line as the lexer makes it: always at its place (Lark types a
    token's place Optional, for tokens made by hand)."""

    type: str
    column: int
    end_column: int


class _Reader:
    def __init__(self, file: str):
        self.file = file
        self.header = LogHeader()
        self.header_errors: list[Finding] = []
        self.header_warnings: list[Finding] = []
        self.game: LogGame | None = None
        self.last_number: int | None = None
        self.parser = grammar.load("uecda")
        self.trailer_seen = ""
        self.last_line = 0

    def error(self, message: str, line: int, column: int, rule: str = "notation.syntax",
              source: str | None = None) -> None:
        finding = Finding(rule, message, line, column, source=source)
        if self.game is not None:
            finding.round = self.game.index
            self.game.errors.append(finding)
        else:
            self.header_errors.append(finding)

    def feed(self, raw: str, lineno: int) -> LogGame | None:
        """Read one line; returns a game once it is complete (its next game started)."""
        text = raw.rstrip("\r\n")
        if lineno == 1:
            text = text.lstrip("\ufeff")
        if not text.strip() or text.lstrip().startswith(";"):
            return None
        self.last_line = lineno
        try:
            tree = self.parser.parse(text)
        except UnexpectedInput as err:
            finding = grammar.syntax_finding(err, text, lineno - 1, TERMINAL_NAMES)
            if self.game is None and self.last_number is None:
                self.header_errors.append(finding)
            elif self.game is not None:
                finding.round = self.game.index
                self.game.errors.append(finding)
            return None
        node: Tree = tree.children[0]  # type: ignore[assignment]  # start holds one line rule
        tokens: list[_Lexed] = node.children  # type: ignore[assignment]  # a line's rule holds only terminals
        kind = str(node.data)
        if kind == "header":
            self._header(tokens, lineno, text)
            return None
        if self.trailer_seen:
            self.error(T("a game line after the log's {trailer_seen} line: the games come before it",
                         trailer_seen=self.trailer_seen), lineno, 1,
                       source=text)
            return None
        tag = tokens[0]
        number = int(str(tag)[1:-1])
        done = None
        if self.game is None or number != self.game.number:
            done = self._close()
            self._open(number, lineno, tag.column)
        assert self.game is not None
        self._line(kind, tokens, lineno, text)
        return done

    def _header(self, tokens: list[_Lexed], lineno: int, text: str) -> None:
        key, *values = tokens[1:]
        if self.game is not None or self.last_number is not None:
            if self.header.later and str(key) in TRAILER_KEYS:
                self._trailer(str(key), values, lineno, text)
                return
            self.error(T("a header line among the games: the header comes before the first game"), lineno, 1,
                       source=text)
            return
        self.header.lines[str(key)] = lineno
        if str(key) in LATER_HEADER_KEYS and not self.header.names:
            self.header.revision = "later"
        if str(key) == "palyer_name":
            names = names_of([str(v) for v in values])
            if len(names) > 5:
                # Names as the clients sent them, spaces included: which words make which
                # name the line does not say. The games are judged by player number, so
                # they are read as five names (the first taking the extra words), and said so.
                names = (" ".join(names[:len(names) - 4]), *names[len(names) - 4:])
                self.header_warnings.append(Finding(
                    "notation.tag.value", f"palyer_name has more than five words (a name holds a space): read as "
                    f"{', '.join(repr(n) for n in names)}; the games are judged by player number, whatever the "
                    "names", lineno, key.end_column + 1, source=text))
            self.header.names = names
            self.header.line = lineno
            if len(names) != 5:
                self.header_errors.append(Finding("notation.syntax",
                                                  T("palyer_name lists {n} names; the server's games have 5 players",
                                                    n=len(names)), lineno, key.end_column + 1,
                                                  source=text))
        else:
            self.header.flags[str(key)] = " ".join(str(v) for v in values)

    def _trailer(self, key: str, values: list, lineno: int, text: str) -> None:
        """TIME_END, TOTAL_POINT: after the last game (the later revision)."""
        game = self.game
        if game is None:
            self.error(T("a {key} line outside a game's end", key=key), lineno, 1, source=text)
            return
        if game.seen and game.seen[-1] != game.header.kinds()[-1]:  # type: ignore[union-attr]  # _open gives every game the header
            self.error(T("a {key} line inside game {index}, which has not ended", key=key, index=game.index), lineno, 1,
                       source=text)
            return
        self.trailer_seen = key
        if key == "TIME_END":
            self.header.flags[key] = " ".join(str(v) for v in values)
        if key == "TOTAL_POINT":
            numbers = [small_int(str(v)) for v in values]
            column = values[0].column if values else len(text)
            if any(n is None for n in numbers) or len(numbers) != 5:
                self.error(T("TOTAL_POINT is not five numbers: {join}", join=' '.join(map(str, values))), lineno,
                           column,
                           source=text)
                return
            game.total = LogNumbers(tuple(n for n in numbers if n is not None), lineno, column)

    def _open(self, number: int, lineno: int, column: int) -> None:
        game = LogGame(file=self.file, index=number + 1, line=lineno, game="daifugo", number=number,
                       header=self.header)
        if self.last_number is None:
            game.errors.extend(self.header_errors)
            game.warnings.extend(self.header_warnings)
            if not self.header.names:
                game.errors.append(Finding("notation.syntax", T("the log has no {line} header line",
                                                                line="%-----%palyer_name%"),
                                           lineno, 1))
        elif number != self.last_number + 1:
            game.errors.append(Finding("notation.syntax",
                                       T("game {n} follows game {n2}; the server numbers games one after another",
                                         n=number + 1, n2=self.last_number + 1), lineno, column))
        if self.last_number is not None and self.header.names and len(self.header.names) != 5:
            game.errors.append(Finding("notation.syntax",
                                       T("the header's palyer_name line (line {line}) lists {n} names, so no game can "
                                         "be judged", line=self.header.line, n=len(self.header.names)),
                                       lineno, 1))
        self.header_errors = []
        self.last_number = number
        self.game = game

    def _line(self, kind: str, tokens: list[_Lexed], lineno: int, text: str) -> None:
        game = self.game
        assert game is not None
        kinds = self.header.kinds()
        expected = kinds[len(game.seen)] if len(game.seen) < len(kinds) else None
        if kind != expected:
            if expected is None:
                self.error(T("a {key} line out of place: game {index} already ended with its result line",
                             key=LINE_KEYS[kind], index=game.index), lineno, 1, source=text)
            else:
                self.error(T("a {key} line out of place: the {expected} line of game {index} was expected here",
                             key=LINE_KEYS[kind], expected=LINE_KEYS[expected], index=game.index), lineno, 1,
                             source=text)
            return
        game.seen.append(kind)
        values = tokens[1:]
        if kind == "cards":
            self._cards(values, lineno, text)
        elif kind == "play":
            if values:
                run = values[0]
                game.entries = [decode_entry(m.group(), lineno, run.column + m.start())
                                for m in _WORD.finditer(str(run))]
        elif kind == "change":
            game.changes = []
            if values and values[0].type == "CHANGES":
                run = values[0]
                for m in _WORD.finditer(str(run)):
                    t = m.group()
                    game.changes.append(LogChange(int(t[0]), int(t[1]), decode_hand(t[2:-2]), t, lineno,
                                                  run.column + m.start()))
        elif kind == "points":
            numbers = [small_int(str(v)) for v in values]
            column = values[0].column if values else len(text)
            if len(numbers) != 5 or any(n is None for n in numbers):
                self.error(T("points is not five numbers: {join}", join=' '.join(map(str, values))), lineno, column,
                           source=text)
                return
            game.points = LogNumbers(tuple(n for n in numbers if n is not None), lineno, column)
        else:
            digits = values[0]
            value = Value(str(digits), lineno, digits.column)
            if not self._digits(kind, value, text):
                return
            if kind == "mibun":
                game.mibun = value
            elif kind == "seat":
                game.seats = tuple(int(c) for c in value.value)
                game.seat_place = (value.line, value.column)
            else:
                game.result = LogResult(tuple(int(c) for c in value.value), lineno, digits.column)

    def _digits(self, kind: str, value: Value, text: str) -> bool:
        digits = value.value
        ok = len(digits) == 5 and (sorted(digits) == list("01234") or
                                   (kind == "mibun" and (digits == "22222" or set(digits) <= set("01234"))))
        if not ok:
            what = {"mibun": M("five title digits 0-4 (or 22222)"), "seat": M("the five player ids 0-4, each once"),
                    "result": M("the five player ids 0-4, each once")}[kind]
            self.error(T("{key} {digits} is not {what}", key=LINE_KEYS[kind], digits=digits, what=T(what)),
                       value.line, value.column, source=text)
        return ok

    def _cards(self, values: list, lineno: int, text: str) -> None:
        game = self.game
        assert game is not None
        game.cards_line = lineno
        game.cards_column = values[0].column if values else len(text)
        if len(values) != 5:
            self.error(T("palyer_cards holds {n} hands, not 5", n=len(values)), lineno, game.cards_column, source=text)
            return
        for token in values:
            hand = decode_hand(str(token))
            if hand is None:
                self.error(T("{token} holds a code that is no card (x is no rank of a real card)", token=token), lineno,
                           token.column, source=text)
                return
            game.hands.append(hand)
            game.hand_places.append([(lineno, token.column + 2 * i) for i in range(len(hand))])

    def _close(self, last: bool = False) -> LogGame | None:
        game, self.game = self.game, None
        if game is None:
            return None
        kinds = self.header.kinds()
        if len(game.seen) < len(kinds):
            missing = [LINE_KEYS[k] for k in kinds[len(game.seen):]]
            what = " and ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1 else missing)
            if last:
                # The file ends here: the server stopped (hung, crashed or was killed) mid-game.
                game.cut_short = True
                game.errors.append(Finding(CUT_SHORT, N("the log is cut short: it stops in game {index}, which has no "
                                                        "{what} line (the server stopped before the game ended)",
                                                        "the log is cut short: it stops in game {index}, which has no "
                                                        "{what} lines (the server stopped before the game ended)",
                                                        len(missing), index=game.index, what=what),
                                           self.last_line, 1, round=game.index))
            else:
                game.errors.append(Finding("notation.syntax", N("game {index} has no {what} line",
                                                                "game {index} has no {what} lines",
                                                                len(missing), index=game.index, what=what),
                                           game.line, 1, round=game.index))
        return game

    def finish(self) -> LogGame | None:
        game = self._close(last=True)
        if game is not None and not game.cut_short and self.header.later and not self.trailer_seen:
            game.cut_short = True
            game.errors.append(Finding(CUT_SHORT, T("the log is cut short: it stops after game {index} without the "
                                                    "TIME_END line the later revision writes when the match ends",
                                                    index=game.index),
                                       self.last_line, 1, round=game.index))
        if game is None and self.last_number is None:
            # A log with no game: its header's problems, or its stopping after the header,
            # still need a record to stand on.
            game = LogGame(file=self.file, index=1, line=1, game="daifugo", header=self.header)
            game.errors.extend(self.header_errors)
            if self.header.names or self.header.flags:
                game.cut_short = True
                game.errors.append(Finding(CUT_SHORT, T("the log is cut short: it stops after its header, before its "
                                                        "first game ended (the server hung or crashed before it wrote "
                                                        "a game)"),
                                           max(self.last_line, 1), 1))
            elif not game.errors:
                return None
        return game


def names_of(words: list[str]) -> tuple[str, ...]:
    """The five names of a palyer_name line. The server prints them as received, spaces
    included; the one space it makes itself is in the default name of a client that sent no
    profile, ``Player <n>`` (n 1 to 5), which is put back together when the line has more
    than five words."""
    if len(words) <= 5:
        return tuple(words)
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "Player" and i + 1 < len(words) and words[i + 1] in "12345" and len(words[i + 1]) == 1 \
                and len(words) - i + len(out) > 5:
            out.append(f"{w} {words[i + 1]}")
            i += 2
        else:
            out.append(w)
            i += 1
    return tuple(out)


def read_log(lines: Iterable[str], file: str = "") -> Iterator[LogGame]:
    """The games of a contest log, one at a time."""
    reader = _Reader(file)
    for lineno, raw in enumerate(lines, start=1):
        done = reader.feed(raw, lineno)
        if done is not None:
            yield done
    last = reader.finish()
    if last is not None:
        yield last
