"""Positions as text for a terminal: card glyphs (♠ ♥ ♦ ♣), ANSI colour when asked.

``render(frame, color)`` draws a Caravan table (the six caravans with their attached face
cards, values, direction, suit, the lanes, hands and decks) or a Daifugo table (players in
turn order with titles and hands, the play to beat, passes, revolution and option state).
Without colour the output is plain text, for pipes and files.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.jobs.render.cards import SUIT_GLYPHS, SUIT_NAMES, glyph, is_red
from referee.jobs.render.frames import Frame

RESET = "\x1b[0m"
STYLES = {"red": "\x1b[31m", "bold": "\x1b[1m", "dim": "\x1b[2m", "green": "\x1b[32m",
          "yellow": "\x1b[33m", "magenta": "\x1b[35m", "cyan": "\x1b[36m", "inverse": "\x1b[7m"}


class Painter:
    """Text with optional ANSI styles; tracks the visible width for alignment."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, *styles: str) -> str:
        if not self.color or not styles or not text:
            return text
        return "".join(STYLES[s] for s in styles) + text + RESET

    def card(self, card: Card) -> str:
        return self(glyph(card), "red") if is_red(card) else self(glyph(card))


def visible_len(text: str) -> int:
    out, i = 0, 0
    while i < len(text):
        if text[i] == "\x1b":
            i = text.index("m", i) + 1
            continue
        out += 1
        i += 1
    return out


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - visible_len(text))


def render(frame: Frame, color: bool = False) -> str:
    if frame.game == "caravan":
        return caravan_text(frame, color)
    if frame.game == "daifugo":
        return daifugo_text(frame, color)
    raise ValueError(f"no text renderer for {frame.game!r}")


def heading(frame: Frame, paint: Painter) -> str:
    what = "start position" if frame.move is None else f"after {frame.title}"
    marks = []
    if frame.illegal:
        marks.append(paint("ILLEGAL: the position before it", "red", "bold"))
    if frame.disputed:
        marks.append(paint("disputed", "yellow", "bold"))
    if frame.ruling:
        marks.append(paint("by a ruling", "magenta"))
    if frame.move is None:
        head = f"{frame.game.title()} · {frame.rules} · {what}"
    else:
        head = f"{frame.game.title()} · {frame.rules} · {frame.title}"
    return head + (f"  [{', '.join(marks)}]" if marks else "")


# ------------------------------------------------------------------ Caravan


def caravan_cards(caravan: cv.Caravan, paint: Painter) -> str:
    parts = []
    for slot in caravan:
        text = paint.card(slot.card)
        if slot.faces:
            text += "(" + " ".join(paint.card(f) for f in slot.faces) + ")"
        parts.append(text)
    return " ".join(parts)


def direction_word(d: int) -> str:
    return {1: "▲ up", -1: "▼ down"}.get(d, "· none")


def caravan_status(state: cv.State, c: int) -> str:
    """Direction and suit under the state's rule set, and where another rule set reads the
    direction otherwise."""
    caravan = state.caravans[c]
    if not caravan:
        return "empty"
    d = state.rules.direction(caravan)
    suit = cv.current_suit(caravan)
    text = f"{direction_word(d)}, suit {SUIT_GLYPHS.get(suit or '', '?')} {SUIT_NAMES.get(suit or '', '')}"
    others = [f"{name}: {direction_word(r.direction(caravan))}" for name, r in cv.RULESETS.items()
              if r is not state.rules and r.direction(caravan) != d]
    if others:
        text += f" ({'; '.join(others)})"
    return text


def lane_text(state: cv.State, lane: int, paint: Painter) -> str:
    a, b = cv.LANES[lane]
    va, vb = state.values[a], state.values[b]
    w = cv.lane_winner(va, vb)
    name = f"{cv.LETTERS[a]}/{cv.LETTERS[b]}"
    if w is None:
        why = "tied" if va == vb and cv.TARGET_LOW <= va <= cv.TARGET_HIGH else "open"
        return f"{name} {why} ({va}–{vb})"
    winner = paint(f"player {w + 1}", "green", "bold")
    return f"{name} {winner} ({va}–{vb})"


def hand_text(hand: cv.Hand, paint: Painter) -> str:
    if hand.unknown is None:
        return paint("unknown", "dim") + (f" (known: {' '.join(paint.card(c) for c in hand.known)})" if hand.known else "")
    cards = [paint.card(c) for c in hand.known] + [paint("?", "dim")] * hand.unknown
    return " ".join(cards) if cards else paint("empty", "dim")


def deck_text(deck: Sequence[Card] | None) -> str:
    if deck is None:
        return "unknown"
    return f"{len(deck)} card{'s' * (len(deck) != 1)}"


def caravan_text(frame: Frame, color: bool = False) -> str:
    state: cv.State = frame.state
    paint = Painter(color)
    lines = [heading(frame, paint)]
    rows: dict[int, tuple[str, str, str]] = {}
    for c in range(6):
        value = state.values[c]
        shown = str(value)
        if cv.TARGET_LOW <= value <= cv.TARGET_HIGH:
            shown = paint(shown, "green", "bold")
        elif value > cv.TARGET_HIGH:
            shown = paint(shown, "red")
        rows[c] = (caravan_cards(state.caravans[c], paint), shown, caravan_status(state, c))
    width = max([visible_len(r[0]) for r in rows.values()] + [10])

    def side(p: int) -> list[str]:
        out = [paint(f"Player {p + 1}", "bold") + f"  hand: {hand_text(state.hands[p], paint)}"
               f"  deck: {deck_text(state.decks[p])}"]
        if state.placed[p] < cv.OPENING_PLACEMENTS:
            out[0] += f"  (opening: {state.placed[p]} of {cv.OPENING_PLACEMENTS} placed)"
        for c in cv.own_caravans(p):
            cards, value, status = rows[c]
            value = " " * max(0, 3 - visible_len(value)) + value
            out.append(f"  {paint(cv.LETTERS[c], 'bold')}  {pad(cards, width)}  {value}  {status}")
        return out

    top = side(1)
    lines.append(top[0])
    lines.extend(top[1:])
    lanes = " · ".join(lane_text(state, i, paint) for i in range(3))
    lines.append(f"  lanes: {lanes}")
    bottom = side(0)
    lines.extend(bottom[1:])
    lines.append(bottom[0])
    if state.over:
        why = {"lanes": "all three lanes are decided", "out": f"player {2 - state.winner} ran out of cards",
               "no-move": f"player {2 - state.winner} had no legal move"}.get(state.end or "", state.end)
        lines.append(paint(f"Game over: player {state.winner + 1} won ({why}).", "bold"))
    else:
        lines.append(f"Player {state.to_move + 1} to move.")
    lines.extend(_comment_lines(frame, paint))
    return "\n".join(lines) + "\n"


def _comment_lines(frame: Frame, paint: Painter) -> list[str]:
    out = []
    for c in frame.comments:
        style = ("red",) if c.startswith(("illegal", "rejected")) else ("yellow",) if c.startswith("disputed") else ("magenta",) if c.startswith("ruling") else ("dim",)
        out.append(paint("{ " + c + " }", *style))
    return out


# ------------------------------------------------------------------ Daifugo


def daifugo_text(frame: Frame, color: bool = False) -> str:
    from referee.games.daifugo import engine as df

    state: df.State = frame.state
    paint = Painter(color)
    lines = [heading(frame, paint)]
    flags = [f"revolution: {'yes' if state.revolution else 'no'}"]
    if state.rules.eleven_back:
        flags.append(f"eleven-back: {'yes' if state.back else 'no'}")
    if state.rules.suit_lock:
        lock = " ".join(SUIT_GLYPHS.get(s, "joker row") for s in sorted(state.lock, key="SHDC".find)) if state.lock else "none"
        flags.append(f"lock: {lock}")
    if state.rules.six_reverse:
        flags.append(f"turns: {'reversed' if state.direction < 0 else 'in seat order'}")
    flags.append("order: " + ("reversed (3 strongest)" if state.reversed else "normal (2 strongest)"))
    lines.append(" · ".join(flags))
    if state.phase == "exchange":
        owed = "; ".join(f"{state.name(d.giver)} gives {d.count} to {state.name(d.receiver)} ({d.choose})"
                         for d in state.pending)
        lines.append(f"Exchange: {owed}")
    if frame.table is not None and state.table is not None:
        cards = _daifugo_cards(frame.table.cards, frame.table.joker_as, paint)
        lines.append(f"Table: {frame.table.player}: {cards}  ({state.table})")
    elif state.table is not None:
        lines.append(f"Table: {state.table}")
    else:
        lines.append("Table: empty (the next play leads)")
    previous = df.titles(state.previous) if state.previous is not None else None
    order = df.finishing_order(state) if state.over else None
    width = max(len(state.name(p)) for p in state.seats)
    for p in state.seats:
        mark = paint("▶", "bold") if p == state.to_move else " "
        name = paint(pad(state.name(p), width), "bold")
        title = previous[p] if previous else ""
        status = []
        if p in state.finished:
            status.append(f"out {_ordinal(state.finished.index(p) + 1)}")
        if p in state.fouled:
            status.append(paint("forbidden finish", "red"))
        if p in state.dropped:
            status.append(paint("dropped (miyako-ochi)", "red"))
        if p in state.passed and state.is_in(p):
            status.append(paint("passed", "dim"))
        if order is not None:
            status.append(f"place {order.index(p) + 1}: {df.titles(order)[p]}")
        hand = " ".join(paint.card(c) for c in _sorted_hand(state.hands[p])) or paint("no cards", "dim")
        lines.append(f"{mark} {name}  {pad(title, 9)} {hand}  ({len(state.hands[p])})"
                     + (f"  [{', '.join(status)}]" if status else ""))
    if state.over:
        lines.append(paint("Round over.", "bold"))
    elif state.to_move is not None:
        lines.append(f"{state.name(state.to_move)} to move.")
    lines.extend(_comment_lines(frame, paint))
    return "\n".join(lines) + "\n"


def _sorted_hand(hand: Sequence[Card]) -> list[Card]:
    from referee.games.daifugo import engine as df

    return sorted(hand, key=lambda c: (99 if c.is_joker else df.strength(c), "SHDC".find(c.suit)))


def _daifugo_cards(cards: Sequence[Card], joker_as: Sequence[object], paint: Painter) -> str:
    readings = iter(joker_as)
    out = []
    for c in cards:
        if c.is_joker:
            stand = next(readings, None)
            out.append("JK" + (f"({stand})" if stand is not None else ""))
        else:
            out.append(paint.card(c))
    return " ".join(out)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
