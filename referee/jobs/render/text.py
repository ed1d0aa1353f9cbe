"""Positions as text for a terminal: card glyphs (♠ ♥ ♦ ♣), ANSI colour when asked.

``render(frame, color)`` hands the frame to its game's renderer (``Game.render``), whose
``text(frame, color)`` lays out the table with the pieces here (:class:`Painter`,
:func:`heading`, :func:`comment_lines`). Without colour the output is plain text, for
pipes and files.
"""

from __future__ import annotations


from referee.engines.base import Card
from referee.engines.message import M
from referee.i18n import Text
from referee.jobs.frame import Frame
from referee.jobs.render.cards import glyph, is_red
from referee.jobs.render.frames import render_part

RESET = "\x1b[0m"
STYLES = {"red": "\x1b[31m", "bold": "\x1b[1m", "dim": "\x1b[2m", "green": "\x1b[32m",
          "yellow": "\x1b[33m", "magenta": "\x1b[35m", "cyan": "\x1b[36m", "inverse": "\x1b[7m"}

#: What the heading says (one place, for translation).
TEXT = Text({
    "illegal": M("ILLEGAL: the position before it"),
    "disputed": M("disputed"),
    "ruling": M("by a ruling"),
    "start": M("start position"),
})


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


def render(frame: Frame, color: bool = False) -> str:
    """The frame as text, drawn by its game."""
    return render_part(frame).text(frame, color)


def heading(frame: Frame, paint: Painter, game_title: str) -> str:
    marks = []
    if frame.illegal:
        marks.append(paint(TEXT["illegal"], "red", "bold"))
    if frame.disputed:
        marks.append(paint(TEXT["disputed"], "yellow", "bold"))
    if frame.ruling:
        marks.append(paint(TEXT["ruling"], "magenta"))
    what = TEXT["start"] if frame.move is None else frame.title
    head = f"{game_title} · {frame.rules} · {what}"
    return head + (f"  [{', '.join(marks)}]" if marks else "")


def comment_lines(frame: Frame, paint: Painter) -> list[str]:
    """The frame's notes, one line each, coloured by kind: as sentences with the rules
    they cite where the frame has them (a replay's frames), else annotate's comments."""
    styles = {"illegal": ("red",), "rejected": ("red",), "disputed": ("yellow",), "ruling": ("magenta",)}
    if frame.notes:
        return [paint(n.text + (f" [{' '.join(n.rules)}]" if n.rules else ""), *styles.get(n.kind, ("dim",)))
                for n in frame.notes]
    return [paint("{ " + c + " }", *styles.get(_kind(c), ("dim",))) for c in frame.comments]


def _kind(comment: str) -> str:
    for kind in ("illegal", "rejected", "disputed", "ruling"):
        if comment.startswith(kind):
            return kind
    return "note"
