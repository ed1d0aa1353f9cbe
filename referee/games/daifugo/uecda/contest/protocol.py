"""The contest protocol's messages (tndhms 0.29 tn_protocol.c, and the devkit manual's chapter 13): 480-byte tables of
8 x 15 32-bit integers and 4-byte ints, big-endian in protocol 20070 (negative values sent
as 0), host order (little-endian here) and as they are in 20060; and the card cells of rows
0-4, read into the log's card codes and the engine's moves, and written from hands."""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

from referee.engines.base import JOKER, Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.uecda.notation import log as ul

ROWS, COLUMNS = 8, 15
CELLS = ROWS * COLUMNS
TABLE_BYTES = 4 * CELLS
INT_BYTES = 4
PROTOCOL_2007 = 20070
PROTOCOL_2006 = 20060
#: Answers to a submission, and the ints after each turn.
ACCEPTED, REJECTED = 9, 8
GAME_ON, GAME_OVER, MATCH_OVER = 0, 1, 2
#: The suit rows; row 4 is the joker's own row.
SUIT_ROW = {"S": 0, "H": 1, "D": 2, "C": 3, "": 4}
_ROW_SUIT = "SHDC"
#: logger.c's letters: a value-1 cell prints its row's letter, a value-2 (joker) cell the
#: letter five further on; the rank by column (x: columns 0 and 14).
_SUIT_LETTERS = "SHDCJKLMNJ"
_RANK_LETTERS = "x3456789TJQKA2x"

_BE = struct.Struct(">120i")
_LE = struct.Struct("<120i")
_BE_INT = struct.Struct(">i")
_LE_INT = struct.Struct("<i")


def cell(row: int, column: int) -> int:
    return COLUMNS * row + column


def encode_table(cells: Sequence[int], protocol: int = PROTOCOL_2007) -> bytes:
    """One table as sent: 20070 big-endian with negatives as 0; 20060 host order as is."""
    if protocol == PROTOCOL_2006:
        return _LE.pack(*cells)
    if min(cells) >= 0:
        return _BE.pack(*cells)
    return _BE.pack(*(v if v > 0 else 0 for v in cells))


def encode_int(value: int, protocol: int = PROTOCOL_2007) -> bytes:
    if protocol == PROTOCOL_2006:
        return _LE_INT.pack(value)
    return _BE_INT.pack(value if value > 0 else 0)


def decode_table(data: bytes, protocol: int = PROTOCOL_2007) -> list[int]:
    """A client's table (exactly 480 bytes), each cell a signed 32-bit value."""
    return list((_LE if protocol == PROTOCOL_2006 else _BE).unpack(data))


def profile_of(cells: Sequence[int]) -> tuple[int, str]:
    """The protocol version ([0][0]) and the name as the server keeps it: cells [1][0..8]
    as bytes, ended at the first 0."""
    name = bytearray()
    for v in cells[cell(1, 0):cell(1, 9)]:
        b = v & 0xFF
        if b == 0:
            break
        name.append(b)
    return cells[0], name.decode("latin-1")


def card_cell(card: Card) -> int:
    """The cell of a card in a hand (the joker stands at [4][1])."""
    if card.is_joker:
        return cell(4, 1)
    return cell(SUIT_ROW[card.suit], df.strength(card))


def hand_cells(hand: Iterable[Card], cells: list[int]) -> None:
    """Put a hand in rows 0-4: 1 for a card, 2 for the joker."""
    for c in hand:
        cells[card_cell(c)] = 2 if c.is_joker else 1


def card_rows(cells: Sequence[int]) -> tuple[int, ...]:
    """Rows 0-4 of a table: what the server judges of a submission."""
    return tuple(cells[:cell(5, 0)])


def log_code(player: int, rows: Sequence[int]) -> str:
    """A submission as the server logs it: the player id, every non-zero cell of rows 0-4
    row by row in ascending column (a value 2 with the joker's letter, any other value as a
    card), then EE (logger.c)."""
    parts = [str(player)]
    for i, v in enumerate(rows):
        if v:
            r, c = divmod(i, COLUMNS)
            parts.append(_SUIT_LETTERS[r + 5 if v == 2 else r] + _RANK_LETTERS[c])
    parts.append("EE")
    return "".join(parts)


def malformed(rows: Sequence[int]) -> str | None:
    """Why rows 0-4 hold no cards the table can hold, or None: a value other than 0, 1, 2;
    a card (value 1) in the joker row or at column 0 or 14."""
    for i, v in enumerate(rows):
        if v in (0, 2):
            continue
        r, c = divmod(i, COLUMNS)
        if v != 1:
            return f"the value {v} at [{r}][{c}] (a card cell holds 0, 1 or 2)"
        if r == 4 or c in (0, 14):
            return f"a card (value 1) at [{r}][{c}], where no card stands"
    return None


def submission(player: int, rows: Sequence[int]) -> tuple[df.Move, str]:
    """A submission as an engine move, and its log code. Cells the table cannot hold make
    an ``Unreadable`` move, which the engine rejects, as the server does."""
    code = log_code(player, rows)
    if malformed(rows) is not None:
        return df.Unreadable(player, code), code
    entry = ul.decode_entry(code, 0, 0)
    move = entry.move if entry.move is not None else df.Unreadable(player, code)
    return move, code


def gift_cards(rows: Sequence[int]) -> tuple[Card, ...] | None:
    """The cards of an exchange table, or None when a cell is malformed. A value 2 anywhere
    is the joker."""
    if malformed(rows) is not None:
        return None
    out: list[Card] = []
    for i, v in enumerate(rows):
        if not v:
            continue
        r, c = divmod(i, COLUMNS)
        if v == 2:
            out.append(JOKER)
        else:
            card = df.card_at(_ROW_SUIT[r], c)
            if card is None:
                return None
            out.append(card)
    return tuple(out)


def extra_cells(cells: Sequence[int]) -> list[tuple[int, int, int]]:
    """Non-zero cells outside rows 0-4 of a submission ([row, column, value]): the contest
    server echoes [5][8..14] and row 7 to every player; ours sends zeros and reports them."""
    return [(*divmod(i, COLUMNS), v) for i, v in enumerate(cells) if i >= cell(5, 0) and v]
