"""Positions as SVG pictures (one self-contained ``<svg>`` document, no external fonts or
images). Every drawn card is a ``<g class="card">`` carrying ``data-card`` (``10H``, ``JK``,
``?`` for an unseen card) and ``data-where`` (``A1`` a caravan's first number card, ``A1+1``
the first face card attached to it, ``hand1``, ``table``, ``hand.NAME``), so that tools and
tests can read back what is shown.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.jobs.render.cards import SUIT_GLYPHS, is_red, rank_text
from referee.jobs.render.frames import Frame
from referee.jobs.render.text import caravan_status

FONT = "DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, Arial, sans-serif"
RED, BLACK, JOKER_COLOR = "#c0392b", "#1d1d1d", "#6c3483"
FELT, INK, MUTED, GOOD, BAD = "#1f5f3f", "#f4f1e8", "#b9c9bd", "#8fe3a5", "#ff9b8f"


def render(frame: Frame) -> str:
    if frame.game == "caravan":
        return caravan_svg(frame)
    if frame.game == "daifugo":
        return daifugo_svg(frame)
    raise ValueError(f"no SVG renderer for {frame.game!r}")


def _text(x: float, y: float, text: str, size: int = 14, fill: str = INK, anchor: str = "start",
          weight: str = "normal", cls: str | None = None) -> str:
    attrs = f' class="{cls}"' if cls else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{attrs}>{escape(text)}</text>')


def card(x: float, y: float, c: Card | None, where: str, w: int = 56, h: int = 80,
         label: str | None = None) -> str:
    """One card (``c`` None: an unseen card, drawn face down)."""
    if c is None:
        return (f'<g class="card back" data-card="?" data-where={quoteattr(where)} '
                f'transform="translate({x:g},{y:g})"><rect width="{w}" height="{h}" rx="6" fill="#2c3e70" '
                f'stroke="#dfe6f3" stroke-width="1.5"/><rect x="5" y="5" width="{w - 10}" height="{h - 10}" '
                f'rx="4" fill="none" stroke="#8fa3d1" stroke-dasharray="3 3"/></g>')
    color = JOKER_COLOR if c.is_joker else RED if is_red(c) else BLACK
    corner = rank_text(c)
    pip = "★" if c.is_joker else SUIT_GLYPHS[c.suit]
    small = max(10, w // 4)
    title = escape(label or str(c))
    return (f'<g class="card" data-card="{c}" data-where={quoteattr(where)} transform="translate({x:g},{y:g})">'
            f"<title>{title}</title>"
            f'<rect width="{w}" height="{h}" rx="6" fill="#fffdf7" stroke="#444" stroke-width="1.2"/>'
            f'<text x="4" y="{small + 2}" font-size="{small}" fill="{color}" font-weight="bold">{escape(corner)}</text>'
            f'<text x="4" y="{2 * small + 3}" font-size="{small}" fill="{color}">{escape(pip if not c.is_joker else "")}</text>'
            f'<text x="{w / 2:g}" y="{h / 2 + w / 5:g}" font-size="{int(w / 2)}" fill="{color}" '
            f'text-anchor="middle">{escape(pip)}</text></g>')


def _document(width: float, height: float, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family={quoteattr(FONT)} role="img">'
            f"<title>{escape(title)}</title>"
            f'<rect width="100%" height="100%" rx="12" fill="{FELT}"/>' + "".join(body) + "</svg>\n")


def _heading(frame: Frame) -> str:
    what = "start position" if frame.move is None else frame.title
    return f"{frame.game.title()} · {frame.rules} · {what}"


# ------------------------------------------------------------------ Caravan

COLUMN = 300
CW, CH, STEP, FACE_STEP = 56, 80, 34, 20


def _stack_height(caravan: cv.Caravan) -> int:
    return CH + STEP * max(0, len(caravan) - 1) if caravan else CH


def _hand_row(x: float, y: float, hand: cv.Hand, where: str) -> list[str]:
    out = []
    cards: list[Card | None] = list(hand.known) + [None] * (hand.unknown or 0)
    for i, c in enumerate(cards):
        out.append(card(x + i * 44, y, c, where, 40, 56))
    if hand.unknown is None:
        out.append(_text(x + len(hand.known) * 44 + 4, y + 34, "hand unknown", 13, MUTED))
    return out


def caravan_svg(frame: Frame) -> str:
    state: cv.State = frame.state
    body: list[str] = []
    width = 3 * COLUMN + 40
    stack = max(_stack_height(c) for c in state.caravans)
    y = 30.0
    body.append(_text(20, y, _heading(frame), 16, INK, weight="bold", cls="heading"))
    marks = [m for m, on in (("illegal: the position before the move", frame.illegal),
                             ("disputed", frame.disputed), ("by a ruling", frame.ruling)) if on]
    if marks:
        body.append(_text(width - 20, y, " · ".join(marks), 14, BAD if frame.illegal else "#ffd479", "end"))
    y += 16

    def side_label(p: int, yy: float) -> None:
        deck = state.decks[p]
        deck_text = "deck unknown" if deck is None else f"deck {len(deck)}"
        body.append(_text(20, yy, f"Player {p + 1} · {deck_text}"
                          + (" · to move" if not state.over and state.to_move == p else ""), 14, INK, weight="bold"))

    side_label(1, y + 14)
    body.extend(_hand_row(20, y + 22, state.hands[1], "hand2"))
    y += 90

    def caravans(p: int, yy: float, downward: bool) -> None:
        for k, c in enumerate(cv.own_caravans(p)):
            x0 = 20 + k * COLUMN
            caravan = state.caravans[c]
            value = state.values[c]
            color = GOOD if cv.TARGET_LOW <= value <= cv.TARGET_HIGH else BAD if value > cv.TARGET_HIGH else INK
            label_y = yy if downward else yy + stack + 22
            body.append(_text(x0, label_y, f"{cv.LETTERS[c]}", 18, INK, weight="bold"))
            body.append(_text(x0 + 22, label_y, f"value {value}", 15, color, cls=f"value-{cv.LETTERS[c]}"))
            body.append(_text(x0 + 110, label_y, caravan_status(state, c).split(" (")[0], 12, MUTED))
            top = yy + 10 if downward else yy
            if not caravan:
                body.append(f'<rect x="{x0}" y="{top}" width="{CW}" height="{CH}" rx="6" fill="none" '
                            f'stroke="{MUTED}" stroke-dasharray="4 4"/>')
            for i, slot in enumerate(caravan):
                cy = top + i * STEP
                body.append(card(x0, cy, slot.card, f"{cv.LETTERS[c]}{i + 1}", CW, CH))
                for j, face in enumerate(slot.faces):
                    body.append(card(x0 + CW - 14 + j * FACE_STEP + 18, cy, face, f"{cv.LETTERS[c]}{i + 1}+{j + 1}",
                                     40, 56, f"{face} on {slot.card}"))

    caravans(1, y, True)
    y += stack + 24
    for lane in range(3):
        a, b = cv.LANES[lane]
        w = cv.lane_winner(state.values[a], state.values[b])
        x0 = 20 + lane * COLUMN
        if w is None:
            text, fill = f"lane {cv.LETTERS[a]}/{cv.LETTERS[b]}: open", MUTED
        else:
            text, fill = f"lane {cv.LETTERS[a]}/{cv.LETTERS[b]}: player {w + 1}", GOOD
        body.append(f'<rect x="{x0 - 6}" y="{y - 18}" width="{COLUMN - 20}" height="28" rx="6" fill="#174a31"/>')
        body.append(_text(x0 + 4, y + 1, text, 14, fill, cls="lane"))
    y += 22
    caravans(0, y, False)
    y += stack + 56
    side_label(0, y)
    body.extend(_hand_row(20, y + 8, state.hands[0], "hand1"))
    y += 76
    if state.over:
        body.append(_text(20, y, f"Game over: player {state.winner + 1} won", 16, GOOD, weight="bold"))
        y += 10
    return _document(width, y + 14, body, _heading(frame))


# ------------------------------------------------------------------ Daifugo


def daifugo_svg(frame: Frame) -> str:
    from referee.games.daifugo import engine as df

    state: df.State = frame.state
    width = 980
    body: list[str] = []
    y = 30.0
    body.append(_text(20, y, _heading(frame), 16, INK, weight="bold", cls="heading"))
    y += 24
    flags = [f"revolution: {'yes' if state.revolution else 'no'}"]
    if state.rules.eleven_back:
        flags.append(f"eleven-back: {'yes' if state.back else 'no'}")
    if state.rules.suit_lock:
        flags.append("lock: " + (" ".join(SUIT_GLYPHS.get(s, "joker") for s in sorted(state.lock, key="SHDC".find))
                                 if state.lock else "none"))
    flags.append("order: " + ("reversed" if state.reversed else "normal"))
    body.append(_text(20, y, " · ".join(flags), 13, MUTED))
    y += 16
    body.append(f'<rect x="20" y="{y}" width="{width - 40}" height="104" rx="8" fill="#174a31"/>')
    if frame.table is not None and state.table is not None:
        body.append(_text(34, y + 22, f"table: {frame.table.player} — {state.table}", 13, INK))
        readings = iter(frame.table.joker_as)
        for i, c in enumerate(frame.table.cards):
            label = None
            if c.is_joker:
                stand = next(readings, None)
                label = f"JK as {stand}" if stand is not None else "JK"
            body.append(card(34 + i * 50, y + 30, c, "table", 44, 64, label))
    elif state.table is not None:
        body.append(_text(34, y + 56, f"table: {state.table}", 14, INK))
    else:
        body.append(_text(34, y + 56, "table empty: the next play leads", 14, MUTED))
    y += 124
    previous = df.titles(state.previous) if state.previous is not None else None
    order = df.finishing_order(state) if state.over else None
    for p in state.seats:
        name = state.name(p)
        status = []
        if previous:
            status.append(previous[p])
        if p in state.finished:
            status.append(f"out #{state.finished.index(p) + 1}")
        if p in state.fouled:
            status.append("forbidden finish")
        if p in state.dropped:
            status.append("dropped")
        if p in state.passed and state.is_in(p):
            status.append("passed")
        if order is not None:
            status.append(f"place {order.index(p) + 1}")
        to_move = p == state.to_move
        body.append(f'<rect x="14" y="{y - 6}" width="{width - 28}" height="70" rx="8" '
                    f'fill="{"#2d7a52" if to_move else "none"}"/>')
        body.append(_text(24, y + 18, ("▶ " if to_move else "") + name, 15, INK, weight="bold", cls="player"))
        body.append(_text(24, y + 38, " · ".join(status), 12, MUTED))
        hand = sorted(state.hands[p], key=lambda c: (99 if c.is_joker else df.strength(c), "SHDC".find(c.suit)))
        for i, c in enumerate(hand):
            body.append(card(170 + i * 30, y, c, f"hand.{name}", 40, 56))
        if not hand:
            body.append(_text(170, y + 32, "no cards", 13, MUTED))
        y += 74
    return _document(width, y + 10, body, _heading(frame))


def shown_cards(svg_text: str) -> list[tuple[str, str]]:
    """(card, where) of every card drawn in an SVG made here (for tools and tests)."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg_text)
    out = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if "card" in (g.get("class") or "").split():
            out.append((g.get("data-card") or "", g.get("data-where") or ""))
    return out

