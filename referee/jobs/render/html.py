"""A self-contained HTML page that replays one record move by move with its annotations.

The page carries each position as compact data (the game's ``render`` part's ``data``:
cards as notation, sentences already written) and draws the board in the page with the
game's script (``script()``), the same layout its ``svg`` draws; so a long match stays a
small page. Everything is inline; a Content-Security-Policy forbids any network access.

It fits a phone (the board on top, full width; the move list below) and a desktop (the
move list beside the board), follows the reader's light or dark scheme, numbers moves as
the notation does and names who made each, writes the notes as sentences, outlines the
cards the last move played, and for an illegal move says why, with the rule's text.

Controls: buttons, a slider, the move list, the arrow keys, Home and End; ``#N`` in the
address opens frame N. The page exposes ``window.pitbossReplay`` (``go(n)``, ``current``,
``count``, ``titles``) and mirrors the frame shown in ``document.body.dataset.frame``, for
scripts and tests.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from xml.sax.saxutils import escape

from referee import i18n, spec
from referee.engines.message import M
from referee.i18n import Text, gettext_
from referee.jobs import registry
from referee.jobs.frame import TEXT as FRAME_TEXT
from referee.jobs.frame import Frame
from referee.jobs.render.frames import render_part
from referee.jobs.render.page import head
from referee.jobs.render.svg import BLACK, FELT, FONT, INK, JOKER_COLOR, LAST, RED
from referee.jobs.render.svg import TEXT as SVG_TEXT

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

#: What the page says (one place, for translation).
TEXT = Text({
    "first": M("first position (Home)"),
    "prev": M("previous move (\u2190)"),
    "next": M("next move (\u2192)"),
    "last": M("last position (End)"),
    "slider": M("move"),
    "moves": M("Moves"),
    "position": M("Position {i} of {n}"),
    "why": M("Why it is illegal"),
    "why_rejected": M("Why the server rejected it"),
    "rule": M("rule {id}"),
    "illegal": M("illegal"),
    "rejected": M("rejected"),
    "disputed": M("disputed"),
    "ruling": M("ruling"),
    "start": M("start"),
})

STYLE = """
:root { color-scheme: light dark; --ink: #1d232a; --muted: #4b5560; --paper: #f6f3ea; --panel: #ffffff;
  --line: #d6d0bf; --bad: #b3261e; --warn: #8a5a00; --rule: #6c3483; --accent: #1f5f3f; --accent-ink: #fff;
  --start: #eef3ee; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e8e6e1; --muted: #a9b1ba; --paper: #15191d; --panel: #1f252b; --line: #39424b;
    --bad: #ff8a80; --warn: #ffcc66; --rule: #d7a6ec; --accent: #3f9f6f; --accent-ink: #0b0f12; --start: #24302a; }
}
* { box-sizing: border-box; }
html, body { margin: 0; }
body { font: 15px/1.45 system-ui, "DejaVu Sans", sans-serif; color: var(--ink); background: var(--paper); }
header { padding: 10px 14px; border-bottom: 1px solid var(--line); }
header h1 { font-size: 18px; margin: 0 0 2px; overflow-wrap: anywhere; }
header p { margin: 0; color: var(--muted); overflow-wrap: anywhere; }
main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; padding: 10px; }
@media (min-width: 900px) {
  main { grid-template-columns: minmax(0, 1fr) 300px; padding: 14px 20px; gap: 18px; }
  aside { max-height: calc(100vh - 110px); position: sticky; top: 10px; }
}
#stage { min-width: 0; }
#controls { display: flex; gap: 6px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
#controls button { font-size: 16px; min-width: 44px; min-height: 40px; padding: 4px 8px; cursor: pointer;
  color: var(--ink); background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
#slider { flex: 1 1 120px; min-width: 80px; }
#status { flex: 1 1 100%; font-variant-numeric: tabular-nums; }
#status .who { font-weight: bold; }
#board svg { width: 100%; height: auto; display: block; }
#notes { margin-top: 8px; }
#notes p, #why { margin: 4px 0; padding: 6px 10px; border-left: 4px solid var(--line); background: var(--panel); }
#notes p.illegal, #notes p.rejected, #why { border-color: var(--bad); }
#notes p.disputed { border-color: var(--warn); }
#notes p.ruling { border-color: var(--rule); }
#notes .rid, #why .rid { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px;
  color: var(--muted); }
#why h2 { font-size: 15px; margin: 0 0 2px; color: var(--bad); }
#why[hidden] { display: none; }
aside { overflow: auto; max-height: 40vh; border: 1px solid var(--line); background: var(--panel); }
aside h2 { font-size: 14px; margin: 0; padding: 6px 10px; border-bottom: 1px solid var(--line); }
#moves { list-style: none; margin: 0; padding: 0; }
#moves li { padding: 4px 10px; cursor: pointer; border-bottom: 1px solid var(--line);
  font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
#moves li.start { background: var(--start); font-weight: bold; }
#moves li .who { color: var(--muted); }
#moves li.current { background: var(--accent); color: var(--accent-ink); }
#moves li.current .who { color: inherit; }
#moves li .mark { margin-left: 6px; font-size: 11px; padding: 0 4px; border-radius: 3px; color: #fff; }
#moves li .mark.illegal, #moves li .mark.rejected { background: #b3261e; }
#moves li .mark.disputed { background: #8a5a00; }
#moves li .mark.ruling { background: #6c3483; }
"""

#: The drawing pieces every game's script uses (mirroring ``render.svg``).
LIBRARY = r"""
(function () {
  "use strict";
  var C = %(colors)s;
  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }
  function num(v) { return String(Math.round(v * 1000) / 1000); }
  function text(x, y, s, size, fill, anchor, weight, cls) {
    return '<text x="' + num(x) + '" y="' + num(y) + '" font-size="' + (size || 14) + '" fill="' + (fill || C.INK) +
      '" text-anchor="' + (anchor || "start") + '" font-weight="' + (weight || "normal") + '"' +
      (cls ? ' class="' + cls + '"' : "") + ">" + esc(s) + "</text>";
  }
  var GLYPH = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  function card(x, y, c, where, w, h, label, last) {
    w = w || 56; h = h || 80;
    var at = ' data-where="' + esc(where) + '" transform="translate(' + num(x) + "," + num(y) + ')"';
    if (c === null) {
      return '<g class="card back" data-card="?"' + at + '><rect width="' + w + '" height="' + h +
        '" rx="6" fill="#2c3e70" stroke="#dfe6f3" stroke-width="1.5"/><rect x="5" y="5" width="' + (w - 10) +
        '" height="' + (h - 10) + '" rx="4" fill="none" stroke="#8fa3d1" stroke-dasharray="3 3"/></g>';
    }
    var joker = c === "JK", suit = joker ? "" : c.slice(-1), rank = joker ? "JK" : c.slice(0, -1);
    var color = joker ? C.JOKER : (suit === "H" || suit === "D") ? C.RED : C.BLACK;
    var pip = joker ? "\u2605" : GLYPH[suit], small = Math.max(10, Math.floor(w / 4));
    var stroke = last ? 'stroke="' + C.LAST + '" stroke-width="4"' : 'stroke="#444" stroke-width="1.2"';
    return '<g class="card' + (last ? " last" : "") + '" data-card="' + c + '"' + at + "><title>" + esc(label || c) +
      '</title><rect width="' + w + '" height="' + h + '" rx="6" fill="#fffdf7" ' + stroke + "/>" +
      '<text x="4" y="' + (small + 2) + '" font-size="' + small + '" fill="' + color + '" font-weight="bold">' +
      esc(rank) + '</text><text x="4" y="' + (2 * small + 3) + '" font-size="' + small + '" fill="' + color + '">' +
      (joker ? "" : pip) +
      '</text><text x="' + num(w / 2) + '" y="' + num(h / 2 + w / 5) + '" font-size="' + Math.floor(w / 2) +
      '" fill="' + color + '" text-anchor="middle">' + pip + "</text></g>";
  }
  function badge(x, y, n, where) {
    var label = "\u00d7" + n, w = 12 + 9 * label.length;
    return '<g class="count" data-where="' + esc(where) + '" data-count="' + n + '" transform="translate(' + num(x) +
      "," + num(y) + ')"><rect width="' + w + '" height="24" rx="12" fill="#0b2e1d" stroke="' + C.INK +
      '" stroke-width="1"/><text x="' + num(w / 2) + '" y="17" font-size="14" fill="' + C.INK +
      '" text-anchor="middle" font-weight="bold">' + label + "</text></g>";
  }
  function doc(width, height, body, title) {
    return '<svg xmlns="http://www.w3.org/2000/svg" width="' + num(width) + '" height="' + num(height) +
      '" viewBox="0 0 ' + num(width) + " " + num(height) + '" font-family="' + esc(C.FONT) + '" role="img"><title>' +
      esc(title) + '</title><rect width="100%%" height="100%%" rx="12" fill="' + C.FELT + '"/>' + body.join("") +
      "</svg>";
  }
  window.PitbossDraw = {lib: {text: text, card: card, badge: badge, doc: doc, esc: esc, C: C}, games: {}};
})();
"""

SCRIPT = r"""
(function () {
  "use strict";
  var page = JSON.parse(document.getElementById("replay").textContent);
  var frames = page.frames, T = page.text, RULES = page.rules;
  var draw = window.PitbossDraw.games[page.game];
  var board = document.getElementById("board");
  var notes = document.getElementById("notes");
  var why = document.getElementById("why");
  var status = document.getElementById("status");
  var slider = document.getElementById("slider");
  var list = document.getElementById("moves");
  var items = [];
  var current = 0;
  var KINDS = ["illegal", "rejected", "disputed", "ruling"];

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  // Each frame's position is a change to the one before (html.delta); undo it once.
  function patch(before, d) {
    if (d === null || typeof d !== "object" || Array.isArray(d)) { return d; }
    if (Array.isArray(before) && d["~"] !== undefined && Object.keys(d).length === 1) {
      var list = before.slice();
      Object.keys(d["~"]).forEach(function (i) { list[+i] = patch(before[+i], d["~"][i]); });
      return list;
    }
    if (before === null || typeof before !== "object" || Array.isArray(before)) { before = {}; }
    var out = {};
    Object.keys(before).forEach(function (k) { out[k] = before[k]; });
    (d["="] || []).forEach(function (k) { delete out[k]; });
    Object.keys(d).forEach(function (k) { if (k !== "=") { out[k] = patch(before[k], d[k]); } });
    return out;
  }
  // A frame's title, as frames.Frame.title writes it.
  function title(f) {
    var key = (f.round === null ? "" : "round_") +
      (f.move === null ? "start" : f.illegal ? "ply_illegal" : f.rejected ? "ply_rejected" : "ply");
    return page.titles[key].replace("{round}", f.round).replace("{ply}", f.ply).replace("{move}", f.move);
  }
  frames.forEach(function (f, i) {
    f.d = i ? patch(frames[i - 1].d, f.d) : f.d;
    f.notes = f.notes || [];
    if (f.round === undefined) { f.round = i ? frames[i - 1].round : null; }
    if (f.ply === undefined) { f.ply = 0; }
    if (f.number === undefined) { f.number = f.ply + "."; }
    f.title = title(f);
  });
  function heading(f) { return page.heading + (f.move === null ? page.start : f.title); }

  function moveLine(target, f) {
    target.appendChild(document.createTextNode(f.number + " "));
    if (f.who) { target.appendChild(el("span", "who", f.who + ": ")); }
    target.appendChild(document.createTextNode(f.move));
  }

  frames.forEach(function (f, i) {
    var li = el("li");
    if (f.move === null) { li.className = "start"; li.textContent = f.title; }
    else { moveLine(li, f); }
    KINDS.forEach(function (k) { if (f[k]) { li.appendChild(el("span", "mark " + k, T[k])); } });
    li.addEventListener("click", function () { go(i); });
    list.appendChild(li);
    items.push(li);
  });
  slider.max = String(frames.length - 1);

  function ruleRef(target, id) {
    var r = RULES[id];
    target.appendChild(el("span", "rid", " [" + id + (r ? ": " + r.title : "") + "]"));
  }

  function go(i) {
    i = Math.max(0, Math.min(frames.length - 1, i | 0));
    var f = frames[i];
    var d = {};
    Object.keys(f.d).forEach(function (k) { d[k] = f.d[k]; });
    d.heading = heading(f);
    board.innerHTML = draw(d, window.PitbossDraw.lib);
    notes.textContent = "";
    f.notes.forEach(function (n) {
      var p = el("p", n.kind, n.text);
      n.rules.forEach(function (id) { ruleRef(p, id); });
      notes.appendChild(p);
    });
    why.textContent = "";
    why.hidden = !f.why;
    if (f.why) {
      why.appendChild(el("h2", "", f.rejected ? T.why_rejected : T.why));
      var r = RULES[f.why[0]];
      why.appendChild(el("p", "message", f.why[1]));
      var rule = el("p", "rule");
      rule.appendChild(el("span", "rid", T.rule.replace("{id}", f.why[0]) + (r ? " \u2014 " + r.title : "")));
      if (r) { rule.appendChild(el("span", "text", ": " + r.text)); }
      why.appendChild(rule);
    }
    if (items[current]) { items[current].classList.remove("current"); }
    items[i].classList.add("current");
    items[i].scrollIntoView({block: "nearest"});
    current = i;
    slider.value = String(i);
    status.textContent = T.position.replace("{i}", i + 1).replace("{n}", frames.length) + " \u2014 ";
    if (f.move === null) { status.appendChild(document.createTextNode(f.title)); }
    else {
      if (f.round !== null) { status.appendChild(document.createTextNode(f.title.split(", ")[0] + ", ")); }
      moveLine(status, f);
    }
    document.body.dataset.frame = String(i);
    if (history.replaceState) { history.replaceState(null, "", "#" + i); }
  }

  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(current - 1); });
  document.getElementById("next").addEventListener("click", function () { go(current + 1); });
  document.getElementById("last").addEventListener("click", function () { go(frames.length - 1); });
  slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") { go(current + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(current - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(frames.length - 1); e.preventDefault(); }
  });

  window.pitbossReplay = {
    go: go,
    get current() { return current; },
    count: frames.length,
    titles: frames.map(function (f) { return f.title; })
  };
  var start = parseInt(location.hash.replace("#", ""), 10);
  go(isNaN(start) ? 0 : start);
})();
"""


def _json_for_script(value: object) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>``, no comment openers)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def delta(before: object, after: object) -> object:
    """``after`` as a change to ``before`` (what the page's ``patch`` undoes): in a dict,
    only the keys whose value changed (``"="`` lists the keys that went away); a list of
    the same length where some items stay, as ``{"~": {index: item}}``. Consecutive
    positions differ by a move, so most of each position is the one before it."""
    if isinstance(before, dict) and isinstance(after, dict):
        out: dict = {k: delta(before[k], v) if k in before else v
                     for k, v in after.items() if k not in before or before[k] != v}
        gone = [k for k in before if k not in after]
        if gone:
            out["="] = gone
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after) and after:
        changed = {str(i): delta(a, b) for i, (a, b) in enumerate(zip(before, after)) if a != b}
        if len(changed) < len(after):
            return {"~": changed}
    return after


def frame_data(frame: Frame) -> dict:
    """One frame as the page carries it: what the list and the notes say, and the
    position as the game's ``data`` (its heading left for the page to write). Keys
    without a value are left out."""
    item = {k: v for k, v in frame.to_json().items()
            if k not in ("comments", "player", "mover", "title") and v not in (None, False, [])}
    item.setdefault("move", None)
    move, who = frame.move, frame.mover
    if move is not None and who and not move.startswith(who):
        item["who"] = who  # else the notation names the mover already (``Aki: 3D``)
    data = render_part(frame).data(frame)
    del data["heading"]
    item["d"] = data
    return item


def page_data(frames: Sequence[Frame]) -> dict:
    """Everything the page's script reads: the frames, the texts, the cited rules."""
    catalog = spec.catalog()
    cited: set[str] = set()
    for f in frames:
        cited.update(r for n in f.notes for r in n.rules)
        if f.why:
            cited.add(f.why[0])
    lang = i18n.current()
    rules = {r: {"title": t.title, "text": t.text, "source": catalog[r].source}
             for r in sorted(cited) if r in catalog for t in (spec.translated(catalog[r], lang),)}
    items = [frame_data(f) for f in frames]
    previous: dict = {}
    last_round = None
    for item in items:
        whole = item["d"]
        item["d"] = delta(previous, whole) if previous else whole
        previous = whole
        # What the page can tell from the frame before: the round, the plain ply number.
        if item.get("number") == f"{item.get('ply', 0)}.":
            del item["number"]
        this_round = item.get("round")
        if this_round is not None and this_round == last_round:
            del item["round"]
        last_round = this_round
    game = registry.game(frames[0].game)
    return {"game": game.name, "heading": f"{gettext_(game.title)} · {frames[0].rules} · ", "text": dict(TEXT),
            "rules": rules,
            "start": SVG_TEXT["start"], "titles": dict(FRAME_TEXT), "frames": items}


def replay_page(frames: Sequence[Frame], title: str, subtitle: str = "") -> str:
    """The page for ``frames`` (one record's replay)."""
    if not frames:
        raise ValueError("nothing to replay: the record has no position")
    part = render_part(frames[0])
    colors = json.dumps({"INK": INK, "RED": RED, "BLACK": BLACK, "JOKER": JOKER_COLOR, "LAST": LAST,
                         "FELT": FELT, "FONT": FONT})
    library = LIBRARY % {"colors": colors}
    t = {k: escape(v) for k, v in TEXT.items()}
    return head(title, STYLE, CSP, i18n.BCP47[i18n.current()]) + f"""
<body data-frame="0">
<header><h1>{escape(title)}</h1><p>{escape(subtitle)}</p></header>
<main>
<section id="stage">
<div id="controls">
<button id="first" type="button" title="{t['first']}" aria-label="{t['first']}">|&#x25C0;</button>
<button id="prev" type="button" title="{t['prev']}" aria-label="{t['prev']}">&#x25C0;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="{t['slider']}">
<button id="next" type="button" title="{t['next']}" aria-label="{t['next']}">&#x25B6;</button>
<button id="last" type="button" title="{t['last']}" aria-label="{t['last']}">&#x25B6;|</button>
<div id="status" aria-live="polite"></div>
</div>
<div id="board"></div>
<div id="why" hidden></div>
<div id="notes"></div>
</section>
<aside><h2>{t['moves']}</h2><ol id="moves"></ol></aside>
</main>
<script type="application/json" id="replay">{_json_for_script(page_data(frames))}</script>
<script>{library}</script>
<script>{part.script()}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
