"""Daifugo drawn: the table as text, as SVG, and as the compact data the replay page
draws from (``data`` and ``script()``); what lies on the table beside the engine's state
(who made the play and how its jokers read). Registered as the game's ``render`` part."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.engines.base import ALL_CARDS, Card
from referee.engines.message import J, M, T
from referee.games.daifugo import engine as df
from referee.games.daifugo.engine.results import title_word
from referee.games.daifugo.notation.dfn import DaifugoRecord, MoveTextError, read_play
from referee.i18n import Text, gettext_, tr
from referee.jobs.frame import Frame, TablePlay
from referee.jobs.game import Renderer
from referee.jobs.render.cards import SUIT_GLYPHS
from referee.jobs.render.svg import INK, LAST, MUTED, TURN, card, count_badge, document
from referee.jobs.render.svg import heading as svg_heading
from referee.jobs.render.svg import text as svg_text
from referee.jobs.render.text import Painter, comment_lines, heading
from referee.jobs.segment import Segment, Step
from referee.notation.screen import pad
from referee.notation.screen import width as text_width

TITLE = M("Daifugo")


def table_start(record: DaifugoRecord, segment: Segment[df.State, df.Move]) -> TablePlay | None:
    """The play on the table at a round's start: a snapshot's ``[Table]`` tag."""
    state = segment.start
    if state.table is None:
        return None
    number = segment.round or 1
    rnd = next((r for i, r in enumerate(record.rounds, start=1) if (r.number or i) == number), None)
    tag = rnd.tags.get("Table") if rnd is not None else None
    if tag is None:
        return None
    try:
        play = read_play(tag.value, {n: i for i, n in enumerate(record.players)})
    except MoveTextError:
        return None
    return TablePlay(state.name(play.player), tuple(play.cards), tuple(play.joker_as))


def table_after(step: Step[df.State, df.Move], table: TablePlay | None) -> TablePlay | None:
    """The play on the table after a move (the engine keeps only its combination)."""
    state = step.after
    if state is None or state.table is None:
        return None
    move = step.entry.move
    if isinstance(move, df.Play) and step.violation is None:
        return TablePlay(state.name(move.player), tuple(move.cards), tuple(move.joker_as))
    return table


def number(frame: Frame) -> str:
    """DFN writes no move numbers: a move is counted within its round."""
    return f"{frame.ply}."


# ------------------------------------------------------------------ text


def text(frame: Frame, color: bool = False) -> str:
    state: df.State = frame.state
    paint = Painter(color)
    lines = [heading(frame, paint, gettext_(TITLE))]
    yes = lambda on: T("yes") if on else T("no")  # noqa: E731
    flags = [T("revolution: {v}", v=yes(state.revolution))]
    if state.rules.eleven_back:
        flags.append(T("eleven-back: {v}", v=yes(state.back)))
    if state.rules.suit_lock:
        lock = (" ".join(SUIT_GLYPHS.get(s, tr(T("joker row"))) for s in sorted(state.lock, key="SHDC".find))
                if state.lock else T("none"))
        flags.append(T("lock: {v}", v=lock))
    if state.rules.six_reverse:
        flags.append(T("turns: reversed") if state.direction < 0 else T("turns: in seat order"))
    flags.append(T("order: reversed (3 strongest)") if state.reversed else T("order: normal (2 strongest)"))
    lines.append(tr(J(" · ", flags)))
    if state.phase == "exchange":
        owed = J("; ", (T("{giver} gives {n} to {receiver} ({choose})", giver=state.name(d.giver), n=d.count,
                          receiver=state.name(d.receiver), choose=d.choice) for d in state.pending))
        lines.append(tr(T("Exchange: {owed}", owed=owed)))
    if frame.table is not None and state.table is not None:
        cards = _daifugo_cards(frame.table.cards, frame.table.joker_as, paint)
        lines.append(tr(T("Table: {player}: {cards}  ({combo})", player=frame.table.player, cards=cards,
                          combo=state.table.describe())))
    elif state.table is not None:
        lines.append(tr(T("Table: {combo}", combo=state.table.describe())))
    else:
        lines.append(tr(T("Table: empty (the next play leads)")))
    previous = df.titles(state.previous) if state.previous is not None else None
    order = df.finishing_order(state) if state.over else None
    width = max(len(state.name(p)) for p in state.seats)
    for p in state.seats:
        mark = paint("▶", "bold") if p == state.to_move else " "
        name = paint(pad(state.name(p), width), "bold")
        title = tr(title_word(previous[p])) if previous else ""
        status = []
        if p in state.finished:
            status.append(tr(T("out {ordinal}", ordinal=_ordinal(state.finished.index(p) + 1))))
        if p in state.fouled:
            status.append(paint(tr(T("forbidden finish")), "red"))
        if p in state.dropped:
            status.append(paint(tr(T("dropped (miyako-ochi)")), "red"))
        if p in state.passed and state.is_in(p):
            status.append(paint(tr(T("passed")), "dim"))
        if order is not None:
            status.append(tr(T("place {n}: {title}", n=order.index(p) + 1, title=title_word(df.titles(order)[p]))))
        hand = " ".join(paint.card(c) for c in _sorted_hand(state.hands[p])) or paint(tr(T("no cards")), "dim")
        lines.append(f"{mark} {name}  {pad(title, 9)} {hand}  ({len(state.hands[p])})"
                     + (f"  [{', '.join(status)}]" if status else ""))
    if state.over:
        lines.append(paint(tr(T("Round over.")), "bold"))
    elif state.to_move is not None:
        lines.append(tr(T("{who} to move.", who=state.name(state.to_move))))
    lines.extend(comment_lines(frame, paint))
    return "\n".join(lines) + "\n"


def _sorted_hand(hand: Sequence[Card]) -> list[Card]:
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


def _ordinal(n: int) -> T:
    """1st, 2nd, ... (one message per English ending: a catalog says each its own way)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return T("{n}th", n=n)
    return (T("{n}st", n=n), T("{n}nd", n=n), T("{n}rd", n=n))[n % 10 - 1]


# ------------------------------------------------------------------ SVG

#: The narrowest table; it widens for the longest hand or table play.
MIN_WIDTH = 560
#: How far apart the backs of a hidden hand are drawn (they overlap: only their count matters).
BACK_STEP = 12
#: Where a player's hand starts; left of it, the name (cut at ``NAME_CHARS``, with an
#: ellipsis) and the status, wrapped at ``STATUS_CHARS`` a line.
HAND_X = 184
NAME_CHARS = 16
STATUS_CHARS = 22


def _lines(parts: list[str]) -> list[str]:
    """A player's status words (title, out, passed, place) as at most two lines."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines) < 2 and len(lines[-1]) + 3 + len(part) > STATUS_CHARS:
            lines.append(part)
        elif lines:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines

#: What the picture says (one place, for translation).
TEXT = Text({
    "revolution": M("revolution: {v}"),
    "eleven_back": M("eleven-back: {v}"),
    "lock": M("lock: {v}"),
    "lock_none": M("none"),
    "joker_row": M("joker"),
    "order_reversed": M("order: reversed"),
    "order_normal": M("order: normal"),
    "yes": M("yes"),
    "no": M("no"),
    "table": M("table: {player} — {combo}"),
    "table_bare": M("table: {combo}"),
    "table_empty": M("table empty: the next play leads"),
    "joker_as": M("JK as {stand}"),
    "out": M("out #{n}"),
    "forbidden": M("forbidden finish"),
    "dropped": M("dropped"),
    "passed": M("passed"),
    "place": M("place {n}"),
    "no_cards": M("no cards"),
})

_BY_NAME = {str(c): c for c in ALL_CARDS}


def last_places(frame: Frame) -> set[str]:
    """Where the frame's move put cards: the table for a play; empty otherwise."""
    move = frame.action
    if isinstance(move, df.Play) and not (frame.illegal or frame.rejected) and frame.table is not None:
        return {"table"}
    return set()


def data(frame: Frame) -> dict:
    """The position as the replay page draws it (and :func:`svg` too)."""
    state: df.State = frame.state
    yes = lambda on: TEXT["yes"] if on else TEXT["no"]  # noqa: E731
    flags = [TEXT["revolution"].format(v=yes(state.revolution))]
    if state.rules.eleven_back:
        flags.append(TEXT["eleven_back"].format(v=yes(state.back)))
    if state.rules.suit_lock:
        lock = (" ".join(SUIT_GLYPHS.get(s, TEXT["joker_row"]) for s in sorted(state.lock, key="SHDC".find))
                if state.lock else TEXT["lock_none"])
        flags.append(TEXT["lock"].format(v=lock))
    flags.append(TEXT["order_reversed"] if state.reversed else TEXT["order_normal"])
    table: dict[str, Any]
    if frame.table is not None and state.table is not None:
        readings = iter(frame.table.joker_as)
        cards = []
        for c in frame.table.cards:
            label = ""
            if c.is_joker:
                stand = next(readings, None)
                label = TEXT["joker_as"].format(stand=stand) if stand is not None else "JK"
            cards.append([str(c), label])
        table = {"label": TEXT["table"].format(player=frame.table.player, combo=tr(state.table.describe())),
                 "cards": cards}
    elif state.table is not None:
        table = {"label": TEXT["table_bare"].format(combo=tr(state.table.describe())), "cards": []}
    else:
        table = {"label": TEXT["table_empty"], "cards": [], "empty": 1}
    previous = df.titles(state.previous) if state.previous is not None else None
    order = df.finishing_order(state) if state.over else None
    players = []
    for p in state.seats:
        status = []
        if previous:
            status.append(previous[p])
        if p in state.finished:
            status.append(TEXT["out"].format(n=state.finished.index(p) + 1))
        if p in state.fouled:
            status.append(TEXT["forbidden"])
        if p in state.dropped:
            status.append(TEXT["dropped"])
        if p in state.passed and state.is_in(p):
            status.append(TEXT["passed"])
        if order is not None:
            status.append(TEXT["place"].format(n=order.index(p) + 1))
        hidden = frame.hidden_hands[p] if frame.hidden_hands else 0
        name = state.name(p)
        players.append([name, _lines(status), " ".join(map(str, _sorted_hand(state.hands[p]))),
                        1 if p == state.to_move else 0, hidden,
                        name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "\u2026"])
    longest = max((len(state.hands[p]) for p in state.seats), default=0)
    backs = max(frame.hidden_hands, default=0)
    width = max(MIN_WIDTH, HAND_X + 30 * max(0, longest - 1) + 40 + 24,
                HAND_X + BACK_STEP * max(0, backs - 1) + 40 + 70, 34 + 50 * len(table["cards"]) + 24)
    moved = frame.player if frame.move is not None else None
    title = svg_heading(frame, gettext_(TITLE))
    width = max(width, 40 + round(9.5 * text_width(title)))  # about 9.5 px a column
    return {"heading": title, "flags": " · ".join(flags), "table": table,
            "players": players, "width": width, "last": sorted(last_places(frame)),
            "moved": next((i for i, p in enumerate(state.seats) if state.name(p) == moved), -1)}


def svg(frame: Frame) -> str:
    """The table as one SVG picture, drawn from :func:`data` (as the page's script draws it)."""
    return draw(data(frame))


def draw(d: dict) -> str:
    body: list[str] = []
    width = d["width"]
    last = "table" in d["last"]
    y = 30.0
    body.append(svg_text(20, y, d["heading"], 16, INK, weight="bold", cls="heading"))
    y += 24
    body.append(svg_text(20, y, d["flags"], 13, MUTED))
    y += 16
    body.append(f'<rect class="table" x="20" y="{y:g}" width="{width - 40}" height="104" rx="8" fill="#174a31"/>')
    table = d["table"]
    if table["cards"]:
        body.append(svg_text(34, y + 22, table["label"], 13, INK))
        for i, (name, label) in enumerate(table["cards"]):
            body.append(card(34 + i * 50, y + 30, _BY_NAME[name], "table", 44, 64, label or None, last=last))
    else:
        body.append(svg_text(34, y + 56, table["label"], 14, MUTED if table.get("empty") else INK))
    y += 124
    for i, (name, status, hand, to_move, hidden, label) in enumerate(d["players"]):
        moved = f' stroke="{LAST}" stroke-width="2" class="moved"' if i == d["moved"] else ""
        body.append(f'<rect x="14" y="{y - 6:g}" width="{width - 28}" height="70" rx="8" '
                    f'fill="{TURN if to_move else "none"}"{moved}/>')
        body.append(svg_text(24, y + 18, ("▶ " if to_move else "") + label, 15, INK, weight="bold", cls="player"))
        for k, line in enumerate(status):
            body.append(svg_text(24, y + 36 + 14 * k, line, 11, MUTED))
        cards = hand.split()
        where = f"hand.{name}"
        for k, c in enumerate(cards):
            body.append(card(HAND_X + k * 30, y, _BY_NAME[c], where, 40, 56))
        for k in range(hidden):
            body.append(card(HAND_X + k * BACK_STEP, y, None, where, 40, 56))
        if hidden:
            body.append(count_badge(HAND_X + (hidden - 1) * BACK_STEP + 48, y + 16, hidden, where))
        elif not cards:
            body.append(svg_text(HAND_X, y + 32, TEXT["no_cards"], 13, MUTED))
        y += 74
    return document(width, y + 10, body, d["heading"])


#: The replay page's drawing of :func:`data`: the same layout as :func:`draw` (its words
#: put in by :func:`script`, in the language spoken).
_SCRIPT = r"""
window.PitbossDraw.games.daifugo = function (d, L) {
  "use strict";
  var C = L.C, WIDTH = d.width, MUTED = "%(muted)s", body = [], y = 30, last = d.last.indexOf("table") >= 0;
  body.push(L.text(20, y, d.heading, 16, C.INK, "start", "bold", "heading"));
  y += 24;
  body.push(L.text(20, y, d.flags, 13, MUTED));
  y += 16;
  body.push('<rect class="table" x="20" y="' + y + '" width="' + (WIDTH - 40) +
            '" height="104" rx="8" fill="#174a31"/>');
  if (d.table.cards.length) {
    body.push(L.text(34, y + 22, d.table.label, 13, C.INK));
    d.table.cards.forEach(function (c, i) {
      body.push(L.card(34 + i * 50, y + 30, c[0], "table", 44, 64, c[1] || null, last));
    });
  } else {
    body.push(L.text(34, y + 56, d.table.label, 14, d.table.empty ? MUTED : C.INK));
  }
  y += 124;
  d.players.forEach(function (p, i) {
    body.push('<rect x="14" y="' + (y - 6) + '" width="' + (WIDTH - 28) + '" height="70" rx="8" fill="' +
      (p[3] ? "%(turn)s" : "none") + '"' +
      (i === d.moved ? ' stroke="' + C.LAST + '" stroke-width="2" class="moved"' : "") + "/>");
    body.push(L.text(24, y + 18, (p[3] ? "\u25B6 " : "") + p[5], 15, C.INK, "start", "bold", "player"));
    p[1].forEach(function (line, k) { body.push(L.text(24, y + 36 + 14 * k, line, 11, MUTED)); });
    var cards = p[2] ? p[2].split(" ") : [], where = "hand." + p[0], k, X = %(hand_x)d;
    cards.forEach(function (c, k) { body.push(L.card(X + k * 30, y, c, where, 40, 56)); });
    for (k = 0; k < p[4]; k++) { body.push(L.card(X + k * %(back_step)d, y, null, where, 40, 56)); }
    if (p[4]) { body.push(L.badge(X + (p[4] - 1) * %(back_step)d + 48, y + 16, p[4], where)); }
    else if (!cards.length) { body.push(L.text(X, y + 32, %(no_cards)s, 13, MUTED)); }
    y += 74;
  });
  return L.doc(WIDTH, y + 10, body, d.heading);
};
"""


def script() -> str:
    """The replay page's drawing, its words in the language spoken."""
    return _SCRIPT % {"muted": MUTED, "turn": TURN, "back_step": BACK_STEP, "hand_x": HAND_X,
                      "no_cards": json.dumps(TEXT["no_cards"])}


def table_script() -> str:
    """The live table page's part (``table.js`` beside this module): which cards of the
    hand a legal move uses, where it goes on the picture, and the end in words."""
    return (Path(__file__).with_name("table.js")).read_text(encoding="utf-8")


RENDERER: Renderer[df.State, df.Move, DaifugoRecord] = Renderer(text, svg, data, script, table_start=table_start,
                                                               table_after=table_after, number=number,
                                                               table_script=table_script)
