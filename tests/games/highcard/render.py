"""How Highcard is drawn (its renderer) and what its rulebook says of its rule sets."""

from __future__ import annotations

from referee.engines.base import Card
from referee.engines.message import M
from referee.i18n import Text, gettext_
from referee.jobs.frame import Frame
from referee.jobs.game import Renderer
from referee.jobs.render.svg import card, document
from referee.jobs.render.svg import heading as svg_heading
from referee.jobs.render.svg import text as svg_text
from referee.jobs.render.text import Painter, comment_lines, heading
from referee.notation.cards import parse_card

from . import engine
from .notation import HighcardRecord

TEXT = Text({
    "player": M("player {n}: {cards}"),
    "tricks": M("tricks {a}-{b}"),
    "classic": M("the higher card takes the trick"),
    "suited": M("the second card follows suit when it can"),
})
TITLE = M("Highcard")


def text(frame: Frame[engine.State, Card], color: bool = False) -> str:
    paint, state = Painter(color), frame.state
    lines = [heading(frame, paint, gettext_(TITLE))]
    for p in (0, 1):
        lines.append(TEXT["player"].format(n=p + 1, cards=" ".join(paint.card(c) for c in state.hands[p])))
    tricks = TEXT["tricks"].format(a=state.tricks[0], b=state.tricks[1])
    lines.append(tricks + (f"  · {state.led}" if state.led else ""))
    return "\n".join(lines + comment_lines(frame, paint)) + "\n"


def data(frame: Frame[engine.State, Card]) -> dict[str, object]:
    state = frame.state
    return {"heading": svg_heading(frame, gettext_(TITLE)), "hands": [[str(c) for c in h] for h in state.hands],
            "led": str(state.led) if state.led else None,
            "tricks": TEXT["tricks"].format(a=state.tricks[0], b=state.tricks[1])}


def draw(d: dict[str, object]) -> str:
    hands, led = d["hands"], d["led"]
    assert isinstance(hands, list)
    body = [card(20 + 60 * i, 20 + 100 * p, parse_card(c), f"hand{p + 1}")
            for p, h in enumerate(hands) for i, c in enumerate(h)]
    if isinstance(led, str):
        body.append(card(500, 70, parse_card(led), "table"))
    body.append(svg_text(20, 230, str(d["tricks"])))
    return document(600, 250, body, str(d["heading"]))


def svg(frame: Frame[engine.State, Card]) -> str:
    return draw(data(frame))


def script() -> str:
    return """window.PitbossDraw.games.highcard = function (d, L) {
  var body = [];
  d.hands.forEach(function (h, p) {
    h.forEach(function (c, i) { body.push(L.card(20 + 60 * i, 20 + 100 * p, c, "hand" + (p + 1))); });
  });
  if (d.led) { body.push(L.card(500, 70, d.led, "table")); }
  body.push(L.text(20, 230, d.tricks));
  return L.doc(600, 250, body, d.heading);
};"""


RENDERER: Renderer[engine.State, Card, HighcardRecord] = Renderer(text, svg, data, script)


def describe(rule_set: str) -> str:
    return TEXT[rule_set]


def options(rule_set: str) -> dict[str, str]:
    return {}
