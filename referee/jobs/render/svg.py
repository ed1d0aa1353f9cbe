"""Positions as SVG pictures (one self-contained ``<svg>`` document, no external fonts or
images). Every drawn card is a ``<g class="card">`` carrying ``data-card`` (``10H``, ``JK``,
``?`` for an unseen card) and ``data-where`` (where the game's drawing put it: a pile and
place, a hand, the table), so that tools and tests can read back what is shown. A card
that the frame's move just played or moved also has the class ``last``.

This module holds the pieces every game draws with (cards, text, the document) and
:func:`render`, which hands a frame to its game's renderer (``Game.render``, whose
``svg(frame)`` lays out the table).
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from referee.engines.base import Card
from referee.engines.message import M
from referee.i18n import Text
from referee.jobs.frame import Frame
from referee.jobs.render.cards import SUIT_GLYPHS, is_red, rank_text
from referee.jobs.render.frames import render_part

FONT = "DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, Arial, sans-serif"
RED, BLACK, JOKER_COLOR = "#c0392b", "#1d1d1d", "#6c3483"
FELT, INK, MUTED, GOOD, BAD = "#1f5f3f", "#f4f1e8", "#b9c9bd", "#8fe3a5", "#ff9b8f"
#: The outline of a card the last move played.
LAST = "#ffd23f"
#: The band behind the player to move.
TURN = "#2d7a52"

#: What the pictures say (one place, for translation).
TEXT = Text({
    "start": M("start position"),
})


def render(frame: Frame) -> str:
    """The SVG picture of a frame, drawn by its game."""
    return render_part(frame).svg(frame)


def text(x: float, y: float, content: str, size: int = 14, fill: str = INK, anchor: str = "start",
         weight: str = "normal", cls: str | None = None) -> str:
    attrs = f' class="{cls}"' if cls else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{attrs}>{escape(content)}</text>')


def card(x: float, y: float, c: Card | None, where: str, w: int = 56, h: int = 80,
         label: str | None = None, last: bool = False) -> str:
    """One card (``c`` None: an unseen card, drawn face down); ``last``: the card the
    frame's move played, outlined."""
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
    cls = "card last" if last else "card"
    stroke = f'stroke="{LAST}" stroke-width="4"' if last else 'stroke="#444" stroke-width="1.2"'
    return (f'<g class="{cls}" data-card="{c}" data-where={quoteattr(where)} transform="translate({x:g},{y:g})">'
            f"<title>{title}</title>"
            f'<rect width="{w}" height="{h}" rx="6" fill="#fffdf7" {stroke}/>'
            f'<text x="4" y="{small + 2}" font-size="{small}" fill="{color}" font-weight="bold">{escape(corner)}</text>'
            f'<text x="4" y="{2 * small + 3}" font-size="{small}" fill="{color}">'
            f'{escape(pip if not c.is_joker else "")}</text>'
            f'<text x="{w / 2:g}" y="{h / 2 + w / 5:g}" font-size="{int(w / 2)}" fill="{color}" '
            f'text-anchor="middle">{escape(pip)}</text></g>')


def count_badge(x: float, y: float, n: int, where: str) -> str:
    """How many cards a row of card backs stands for (``×13``), beside it."""
    label = f"\u00d7{n}"
    w = 12 + 9 * len(label)
    return (f'<g class="count" data-where={quoteattr(where)} data-count="{n}" transform="translate({x:g},{y:g})">'
            f'<rect width="{w}" height="24" rx="12" fill="#0b2e1d" stroke="{INK}" stroke-width="1"/>'
            f'<text x="{w / 2:g}" y="17" font-size="14" fill="{INK}" text-anchor="middle" '
            f'font-weight="bold">{label}</text></g>')


def document(width: float, height: float, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family={quoteattr(FONT)} role="img">'
            f"<title>{escape(title)}</title>"
            f'<rect width="100%" height="100%" rx="12" fill="{FELT}"/>' + "".join(body) + "</svg>\n")


def heading(frame: Frame, game_title: str) -> str:
    what = TEXT["start"] if frame.move is None else frame.title
    return f"{game_title} · {frame.rules} · {what}"


def shown_cards(svg_text: str) -> list[tuple[str, str]]:
    """(card, where) of every card drawn in an SVG made here (for tools and tests)."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg_text)
    out = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if "card" in (g.get("class") or "").split():
            out.append((g.get("data-card") or "", g.get("data-where") or ""))
    return out


def counts(svg_text: str) -> list[tuple[str, int]]:
    """(where, count) of every count of hidden cards an SVG made here writes."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg_text)
    return [(g.get("data-where") or "", int(g.get("data-count") or 0))
            for g in root.iter("{http://www.w3.org/2000/svg}g") if "count" in (g.get("class") or "").split()]


def last_cards(svg_text: str) -> list[tuple[str, str]]:
    """(card, where) of every card an SVG made here marks as played by the last move."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg_text)
    return [(g.get("data-card") or "", g.get("data-where") or "")
            for g in root.iter("{http://www.w3.org/2000/svg}g")
            if {"card", "last"} <= set((g.get("class") or "").split())]
