"""Caravan drawn: the table as text, as SVG, and as the compact data the replay page
draws from (``data`` and ``script()``), with the move's number as CVN writes it and who
made it. Registered as the game's ``render`` part."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from referee.engines.base import ALL_CARDS, Card
from referee.engines.message import M, N, T
from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import CaravanRecord
from referee.i18n import Text, gettext_, tr
from referee.jobs.frame import Frame
from referee.jobs.game import Renderer
from referee.jobs.render.cards import SUIT_GLYPHS, SUIT_NAMES
from referee.jobs.render.svg import BAD, GOOD, INK, MUTED, TURN, card, count_badge, document
from referee.jobs.render.svg import heading as svg_heading
from referee.jobs.render.svg import text as svg_text
from referee.jobs.render.text import Painter, comment_lines, heading
from referee.jobs.segment import Step
from referee.notation.screen import pad
from referee.notation.screen import width as text_width

TITLE = M("Caravan")

#: What the pictures say (one place, for translation).
TEXT = Text({
    "illegal": M("illegal: the position before the move"),
    "disputed": M("disputed"),
    "ruling": M("by a ruling"),
    "deck_unknown": M("deck unknown"),
    "deck": M("deck {count}"),
    "player": M("Player {n}"),
    "to_move": M("to move"),
    "value": M("value {value}"),
    "lane_open": M("lane {a}/{b}: open"),
    "lane_won": M("lane {a}/{b}: player {n}"),
    "lane_held": M("lane {a}/{b}: {name}"),
    "hand_unknown": M("hand unknown"),
    "over": M("Game over: player {n} won"),
    "over_named": M("Game over: {name} won"),
    "up": M("▲ up"),
    "down": M("▼ down"),
    "no_direction": M("· none"),
    "empty": M("empty"),
    "status": M("{direction}, suit {glyph} {suit}"),
    "face_on": M("{face} on {card}"),
})


# ------------------------------------------------------------------ numbers and movers


def number(frame: Frame) -> str:
    """CVN's move number: move n covers the record's moves 2n-1 (``n.``) and 2n (``n…``)."""
    n = (frame.ply + 1) // 2
    return f"{n}." if frame.ply % 2 else f"{n}\u2026"


def mover(record: CaravanRecord, step: Step[cv.State, cv.Move]) -> str:
    """The mover's name from the record's ``Player1``/``Player2`` tag, else ``Player N``."""
    tag = record.tags.get(f"Player{step.player}")
    name = tag.value.strip() if tag is not None else ""
    return name or TEXT["player"].format(n=step.player)


# ------------------------------------------------------------------ text


def caravan_cards(caravan: cv.Caravan, paint: Painter) -> str:
    parts = []
    for slot in caravan:
        text = paint.card(slot.card)
        if slot.faces:
            text += "(" + " ".join(paint.card(f) for f in slot.faces) + ")"
        parts.append(text)
    return " ".join(parts)


def direction_word(d: int) -> str:
    return {1: TEXT["up"], -1: TEXT["down"]}.get(d, TEXT["no_direction"])


def caravan_status(state: cv.State, c: int) -> str:
    """Direction and suit under the state's rule set, and where another rule set reads the
    direction otherwise."""
    caravan = state.caravans[c]
    if not caravan:
        return TEXT["empty"]
    d = state.rules.direction(caravan)
    suit = cv.current_suit(caravan)
    text = TEXT["status"].format(direction=direction_word(d), glyph=SUIT_GLYPHS.get(suit or "", "?"),
                                 suit=gettext_(SUIT_NAMES.get(suit or "", "")) if suit else "")
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
        if va == vb and cv.TARGET_LOW <= va <= cv.TARGET_HIGH:
            return tr(T("{lane} tied ({a}–{b})", lane=name, a=va, b=vb))
        return tr(T("{lane} open ({a}–{b})", lane=name, a=va, b=vb))
    winner = paint(tr(T("player {n}", n=w + 1)), "green", "bold")
    return f"{name} {winner} ({va}–{vb})"


def hand_text(hand: cv.Hand, paint: Painter) -> str:
    if hand.unknown is None:
        unknown = paint(tr(T("unknown")), "dim")
        if hand.known:
            return tr(T("{unknown} (known: {cards})", unknown=unknown,
                        cards=" ".join(paint.card(c) for c in hand.known)))
        return unknown
    cards = [paint.card(c) for c in hand.known] + [paint("?", "dim")] * hand.unknown
    return " ".join(cards) if cards else paint(tr(T("empty")), "dim")


def deck_text(deck: Sequence[Card] | None) -> str:
    if deck is None:
        return tr(T("unknown"))
    return tr(N("{n} card", "{n} cards", len(deck)))


def text(frame: Frame, color: bool = False) -> str:
    state: cv.State = frame.state
    paint = Painter(color)
    lines = [heading(frame, paint, gettext_(TITLE))]
    rows: dict[int, tuple[str, str, str]] = {}
    for c in range(6):
        value = state.values[c]
        shown = str(value)
        if cv.TARGET_LOW <= value <= cv.TARGET_HIGH:
            shown = paint(shown, "green", "bold")
        elif value > cv.TARGET_HIGH:
            shown = paint(shown, "red")
        rows[c] = (caravan_cards(state.caravans[c], paint), shown, caravan_status(state, c))
    width = max([text_width(r[0]) for r in rows.values()] + [10])

    def side(p: int) -> list[str]:
        out = [paint(TEXT["player"].format(n=p + 1), "bold")
               + tr(T("  hand: {hand}  deck: {deck}", hand=hand_text(state.hands[p], paint),
                      deck=deck_text(state.decks[p])))]
        if state.placed[p] < cv.OPENING_PLACEMENTS:
            out[0] += tr(T("  (opening: {placed} of {all} placed)", placed=state.placed[p], all=cv.OPENING_PLACEMENTS))
        for c in cv.own_caravans(p):
            cards, value, status = rows[c]
            value = " " * max(0, 3 - text_width(value)) + value
            out.append(f"  {paint(cv.LETTERS[c], 'bold')}  {pad(cards, width)}  {value}  {status}")
        return out

    top = side(1)
    lines.append(top[0])
    lines.extend(top[1:])
    lanes = " · ".join(lane_text(state, i, paint) for i in range(3))
    lines.append(tr(T("  lanes: {lanes}", lanes=lanes)))
    bottom = side(0)
    lines.extend(bottom[1:])
    lines.append(bottom[0])
    if state.over:
        w = state.winner
        assert w is not None, "the engine ends a game with its winner"
        why = {"lanes": T("all three lanes are decided"), "out": T("player {n} ran out of cards", n=2 - w),
               "no-move": T("player {n} had no legal move", n=2 - w)}.get(state.end or "", state.end)
        lines.append(paint(tr(T("Game over: player {n} won ({why}).", n=w + 1, why=why)), "bold"))
    else:
        lines.append(tr(T("Player {n} to move.", n=state.to_move + 1)))
    lines.extend(comment_lines(frame, paint))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ SVG


def last_places(frame: Frame) -> set[str]:
    """Where the frame's move put a card (``A3``, ``D1+2``); empty for a start position,
    an illegal move, a discard or a disband."""
    move = frame.action
    if move is None or frame.illegal or frame.rejected:
        return set()
    state: cv.State = frame.state
    if isinstance(move, cv.PlayNumber):
        caravan = state.caravans[move.caravan]
        if caravan and caravan[-1].card == move.card:
            return {f"{cv.LETTERS[move.caravan]}{len(caravan)}"}
    if isinstance(move, cv.Attach):
        caravan = state.caravans[move.caravan]
        for i, slot in enumerate(caravan):
            for j, face in enumerate(slot.faces):
                if face == move.card:
                    return {f"{cv.LETTERS[move.caravan]}{i + 1}+{j + 1}"}
    return set()


COLUMN = 250
CW, CH, STEP, FACE_STEP = 56, 80, 34, 20
WIDTH = 3 * COLUMN + 40
#: The height of a caravan's two label lines (letter and value; direction and suit).
LABEL = 36
#: The longest name a lane's label writes whole (a longer one is cut, with an ellipsis).
LANE_NAME = 14


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _short(name: str, most: int) -> str:
    return name if len(name) <= most else name[:most - 1] + "\u2026"


def data(frame: Frame) -> dict:
    """The position as the replay page draws it (and :func:`svg` too): every card as
    notation, every sentence already written."""
    state: cv.State = frame.state
    marks = [TEXT[k] for k, on in (("illegal", frame.illegal), ("disputed", frame.disputed),
                                   ("ruling", frame.ruling)) if on]
    names = frame.names

    def side(p: int) -> str:
        deck = state.decks[p]
        label = (names[p] if names else TEXT["player"].format(n=p + 1)) + " · "
        if deck is not None:
            label += TEXT["deck"].format(count=len(deck))
        elif frame.hidden_decks:
            label += TEXT["deck"].format(count=frame.hidden_decks[p])
        else:
            label += TEXT["deck_unknown"]
        if not state.over and state.to_move == p:
            label += " · " + TEXT["to_move"]
        return label

    def won(a: str, b: str, w: int) -> str:
        if names:
            return TEXT["lane_held"].format(a=a, b=b, name=_short(names[w], LANE_NAME))
        return TEXT["lane_won"].format(a=a, b=b, n=w + 1)

    lanes = []
    for a, b in cv.LANES:
        w = cv.lane_winner(state.values[a], state.values[b])
        la, lb = cv.LETTERS[a], cv.LETTERS[b]
        lanes.append([TEXT["lane_open"].format(a=la, b=lb), 0] if w is None else [won(la, lb, w), 1])
    values = list(state.values)
    over = None
    if state.over and state.winner is not None:
        over = (TEXT["over_named"].format(name=names[state.winner]) if names
                else TEXT["over"].format(n=state.winner + 1))
    return {
        "heading": svg_heading(frame, gettext_(TITLE)),
        "marks": " · ".join(marks),
        "bad": frame.illegal,
        "sides": [side(0), side(1)],
        "turn": -1 if state.over else state.to_move,
        "near": frame.reader or 0,
        "caravans": [[[str(slot.card), _cards(slot.faces)] for slot in caravan] for caravan in state.caravans],
        "values": values,
        "tone": [1 if cv.TARGET_LOW <= v <= cv.TARGET_HIGH else 2 if v > cv.TARGET_HIGH else 0 for v in values],
        "status": [caravan_status(state, c).split(" (")[0] for c in range(6)],
        "lanes": lanes,
        "hands": [[_cards(h.known), h.unknown if h.unknown is not None else -1] for h in state.hands],
        "over": over,
        "last": sorted(last_places(frame)),
    }


def svg(frame: Frame) -> str:
    """The table as one SVG picture, drawn from :func:`data` (as the page's script draws it)."""
    return draw(data(frame))


_BY_NAME = {str(c): c for c in ALL_CARDS}


def _parse(text: str) -> list[Card]:
    return [_BY_NAME[t] for t in text.split()]


def _hand_row(x: float, y: float, known: str, unknown: int, where: str) -> list[str]:
    """A hand: its known cards, then one card back per unknown card and their count."""
    cards: list[Card | None] = list(_parse(known)) + [None] * max(0, unknown)
    out = [card(x + i * 44, y, c, where, 40, 56) for i, c in enumerate(cards)]
    if unknown < 0:
        out.append(svg_text(x + len(cards) * 44 + 4, y + 34, TEXT["hand_unknown"], 13, MUTED))
    elif unknown > 0:
        out.append(count_badge(x + len(cards) * 44 + 2, y + 16, unknown, where))
    return out


def _side(body: list[str], d: dict, p: int, y: float) -> None:
    """A player's name line and hand; the band behind them marks the player to move."""
    if d["turn"] == p:
        body.append(f'<rect class="turn" x="14" y="{y - 19:g}" width="{WIDTH - 28}" height="86" rx="8" '
                    f'fill="{TURN}"/>')
    body.append(svg_text(20, y, ("\u25b6 " if d["turn"] == p else "") + d["sides"][p], 14, INK, weight="bold",
                         cls="side"))
    known, unknown = d["hands"][p]
    body.extend(_hand_row(20, y + 8, known, unknown, f"hand{p + 1}"))


def draw(d: dict) -> str:
    body: list[str] = []
    stack = max(CH + STEP * max(0, len(c) - 1) if c else CH for c in d["caravans"])
    last = set(d["last"])
    tones = (INK, GOOD, BAD)
    near = d["near"]
    far = 1 - near
    y = 30.0
    body.append(svg_text(20, y, d["heading"], 16, INK, weight="bold", cls="heading"))
    if d["marks"]:
        body.append(svg_text(WIDTH - 20, y, d["marks"], 14, BAD if d["bad"] else "#ffd479", "end"))
    y += 30
    _side(body, d, far, y)
    y += 98

    def caravans(p: int, yy: float, downward: bool) -> None:
        for k in range(3):
            c = 3 * p + k
            x0 = 20 + k * COLUMN
            letter = cv.LETTERS[c]
            label_y = yy if downward else yy + stack + 22
            top = yy + LABEL - 14 if downward else yy
            area_y = label_y - 18 if downward else top - 6
            body.append(f'<g class="caravan" data-caravan="{letter}"><rect class="area" x="{x0 - 8}" '
                        f'y="{area_y:g}" width="{COLUMN - 14}" height="{stack + LABEL + 12:g}" rx="8" fill="none"/>')
            body.append(svg_text(x0, label_y, letter, 18, INK, weight="bold"))
            body.append(svg_text(x0 + 22, label_y, TEXT["value"].format(value=d["values"][c]), 15,
                                 tones[d["tone"][c]], cls=f"value-{letter}"))
            body.append(svg_text(x0 + 22, label_y + 15, d["status"][c], 12, MUTED, cls="status"))
            if not d["caravans"][c]:
                body.append(f'<rect x="{x0}" y="{top:g}" width="{CW}" height="{CH}" rx="6" fill="none" '
                            f'stroke="{MUTED}" stroke-dasharray="4 4"/>')
            for i, (number_card, faces) in enumerate(d["caravans"][c]):
                cy = top + i * STEP
                where = f"{letter}{i + 1}"
                body.append(card(x0, cy, _BY_NAME[number_card], where, CW, CH, last=where in last))
                for j, face in enumerate(_parse(faces)):
                    fwhere = f"{where}+{j + 1}"
                    body.append(card(x0 + CW + 4 + j * FACE_STEP, cy, face, fwhere, 40, 56,
                                     TEXT["face_on"].format(face=face, card=number_card), last=fwhere in last))
            body.append("</g>")

    caravans(far, y, True)
    y += stack + LABEL + 12
    for lane, (label, won) in enumerate(d["lanes"]):
        x0 = 20 + lane * COLUMN
        body.append(f'<rect x="{x0 - 6}" y="{y - 18:g}" width="{COLUMN - 20}" height="28" rx="6" fill="#174a31"/>')
        body.append(svg_text(x0 + 4, y + 1, label, 14, GOOD if won else MUTED, cls="lane"))
    y += 22
    caravans(near, y, False)
    y += stack + LABEL + 44
    _side(body, d, near, y)
    y += 76
    if d["over"]:
        body.append(svg_text(20, y, d["over"], 16, GOOD, weight="bold", cls="over"))
        y += 10
    return document(WIDTH, y + 14, body, d["heading"])


#: The replay page's drawing of :func:`data`: the same layout as :func:`draw` (its words
#: put in by :func:`script`, in the language spoken).
_SCRIPT = r"""
window.PitbossDraw.games.caravan = function (d, L) {
  "use strict";
  var C = L.C, COLUMN = %(column)d, CW = %(cw)d, CH = %(ch)d, STEP = %(step)d, FACE = %(face)d, WIDTH = %(width)d;
  var LABEL = %(label)d, GOOD = "%(good)s", BAD = "%(bad)s", MUTED = "%(muted)s", TURN = "%(turn)s";
  var LETTERS = "ABCDEF", tones = [C.INK, GOOD, BAD];
  var body = [], last = {}, y = 30, stack = CH, near = d.near, far = 1 - near;
  d.last.forEach(function (w) { last[w] = true; });
  d.caravans.forEach(function (c) { stack = Math.max(stack, c.length ? CH + STEP * (c.length - 1) : CH); });
  function words(s) { return s ? s.split(" ") : []; }
  function hand(x, yy, h, where) {
    var cards = words(h[0]), i;
    for (i = 0; i < cards.length; i++) { body.push(L.card(x + i * 44, yy, cards[i], where, 40, 56)); }
    for (var k = 0; k < Math.max(0, h[1]); k++, i++) { body.push(L.card(x + i * 44, yy, null, where, 40, 56)); }
    if (h[1] < 0) { body.push(L.text(x + i * 44 + 4, yy + 34, %(hand_unknown)s, 13, MUTED)); }
    else if (h[1] > 0) { body.push(L.badge(x + i * 44 + 2, yy + 16, h[1], where)); }
  }
  function side(p, yy) {
    if (d.turn === p) {
      body.push('<rect class="turn" x="14" y="' + (yy - 19) + '" width="' + (WIDTH - 28) +
        '" height="86" rx="8" fill="' + TURN + '"/>');
    }
    body.push(L.text(20, yy, (d.turn === p ? "\u25B6 " : "") + d.sides[p], 14, C.INK, "start", "bold", "side"));
    hand(20, yy + 8, d.hands[p], "hand" + (p + 1));
  }
  function caravans(p, yy, downward) {
    for (var k = 0; k < 3; k++) {
      var c = 3 * p + k, x0 = 20 + k * COLUMN, letter = LETTERS[c];
      var labelY = downward ? yy : yy + stack + 22, top = downward ? yy + LABEL - 14 : yy;
      var areaY = downward ? labelY - 18 : top - 6;
      body.push('<g class="caravan" data-caravan="' + letter + '"><rect class="area" x="' + (x0 - 8) + '" y="' +
        areaY + '" width="' + (COLUMN - 14) + '" height="' + (stack + LABEL + 12) + '" rx="8" fill="none"/>');
      body.push(L.text(x0, labelY, letter, 18, C.INK, "start", "bold"));
      body.push(L.text(x0 + 22, labelY, %(value)s.replace("{value}", d.values[c]), 15, tones[d.tone[c]],
        "start", "normal", "value-" + letter));
      body.push(L.text(x0 + 22, labelY + 15, d.status[c], 12, MUTED, "start", "normal", "status"));
      if (!d.caravans[c].length) {
        body.push('<rect x="' + x0 + '" y="' + top + '" width="' + CW + '" height="' + CH +
          '" rx="6" fill="none" stroke="' + MUTED + '" stroke-dasharray="4 4"/>');
      }
      d.caravans[c].forEach(function (slot, i) {
        var cy = top + i * STEP, where = letter + (i + 1);
        body.push(L.card(x0, cy, slot[0], where, CW, CH, null, last[where]));
        words(slot[1]).forEach(function (face, j) {
          var fw = where + "+" + (j + 1);
          var label = %(face_on)s.replace("{face}", face).replace("{card}", slot[0]);
          body.push(L.card(x0 + CW + 4 + j * FACE, cy, face, fw, 40, 56, label, last[fw]));
        });
      });
      body.push("</g>");
    }
  }
  body.push(L.text(20, y, d.heading, 16, C.INK, "start", "bold", "heading"));
  if (d.marks) { body.push(L.text(WIDTH - 20, y, d.marks, 14, d.bad ? BAD : "#ffd479", "end")); }
  y += 30;
  side(far, y);
  y += 98;
  caravans(far, y, true);
  y += stack + LABEL + 12;
  d.lanes.forEach(function (lane, i) {
    var x0 = 20 + i * COLUMN;
    body.push('<rect x="' + (x0 - 6) + '" y="' + (y - 18) + '" width="' + (COLUMN - 20) +
              '" height="28" rx="6" fill="#174a31"/>');
    body.push(L.text(x0 + 4, y + 1, lane[0], 14, lane[1] ? GOOD : MUTED, "start", "normal", "lane"));
  });
  y += 22;
  caravans(near, y, false);
  y += stack + LABEL + 44;
  side(near, y);
  y += 76;
  if (d.over) { body.push(L.text(20, y, d.over, 16, GOOD, "start", "bold", "over")); y += 10; }
  return L.doc(WIDTH, y + 14, body, d.heading);
};
"""


def script() -> str:
    """The replay page's drawing, its words in the language spoken."""
    return _SCRIPT % {"column": COLUMN, "cw": CW, "ch": CH, "step": STEP, "face": FACE_STEP, "width": WIDTH,
           "label": LABEL, "good": GOOD, "bad": BAD, "muted": MUTED, "turn": TURN,
           "hand_unknown": json.dumps(TEXT["hand_unknown"]),
           "value": json.dumps(TEXT["value"]), "face_on": json.dumps(TEXT["face_on"])}


def table_script() -> str:
    """The live table page's part (``table.js`` beside this module): which cards of the
    hand a legal move uses, where it goes on the picture, and the end in words."""
    return (Path(__file__).with_name("table.js")).read_text(encoding="utf-8")


RENDERER: Renderer[cv.State, cv.Move, CaravanRecord] = Renderer(text, svg, data, script, mover=mover, number=number,
                                                                 table_script=table_script)
