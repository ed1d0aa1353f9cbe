"""A self-contained HTML page that replays one record move by move with its annotations.

Everything is inline (CSS, script, the SVG of every position); a Content-Security-Policy
forbids any network access. Controls: buttons, a slider, the move list, the arrow keys,
Home and End; ``#N`` in the address opens frame N. The page exposes
``window.pitbossReplay`` (``go(n)``, ``current``, ``count``, ``titles``) and mirrors the
frame shown in ``document.body.dataset.frame``, for scripts and tests.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from xml.sax.saxutils import escape

from referee.jobs.render.frames import Frame
from referee.jobs.render.svg import render as render_svg

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

STYLE = """
:root { color-scheme: light dark; --ink: #1d232a; --paper: #f6f3ea; --line: #d6d0bf;
  --bad: #b3261e; --warn: #8a5a00; --rule: #6c3483; --accent: #1f5f3f; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, "DejaVu Sans", sans-serif; color: var(--ink); background: var(--paper); }
header { padding: 12px 20px; border-bottom: 1px solid var(--line); }
header h1 { font-size: 19px; margin: 0 0 4px; }
header p { margin: 0; color: #4b5560; }
main { display: flex; gap: 18px; padding: 14px 20px; align-items: flex-start; }
#stage { flex: 1 1 auto; min-width: 0; }
#controls { display: flex; gap: 6px; align-items: center; margin-bottom: 10px; flex-wrap: wrap; }
#controls button { font-size: 16px; min-width: 40px; padding: 4px 8px; cursor: pointer; }
#slider { flex: 1 1 200px; }
#status { font-variant-numeric: tabular-nums; min-width: 16em; }
#board svg { max-width: 100%; height: auto; display: block; }
#notes { margin-top: 10px; }
#notes p { margin: 4px 0; padding: 6px 10px; border-left: 4px solid var(--line); background: #fff; }
#notes p.illegal, #notes p.rejected { border-color: var(--bad); }
#notes p.disputed { border-color: var(--warn); }
#notes p.ruling { border-color: var(--rule); }
aside { flex: 0 0 300px; max-height: calc(100vh - 120px); overflow: auto; border: 1px solid var(--line); background: #fff; }
#moves { list-style: none; margin: 0; padding: 0; }
#moves li { padding: 3px 10px; cursor: pointer; border-bottom: 1px solid #eee; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
#moves li.start { background: #eef3ee; font-weight: bold; }
#moves li.current { background: var(--accent); color: #fff; }
#moves li .mark { margin-left: 6px; font-size: 11px; padding: 0 4px; border-radius: 3px; color: #fff; }
#moves li .mark.illegal, #moves li .mark.rejected { background: var(--bad); }
#moves li .mark.disputed { background: var(--warn); }
#moves li .mark.ruling { background: var(--rule); }
"""

SCRIPT = r"""
(function () {
  "use strict";
  var frames = JSON.parse(document.getElementById("frames").textContent);
  var board = document.getElementById("board");
  var notes = document.getElementById("notes");
  var status = document.getElementById("status");
  var slider = document.getElementById("slider");
  var list = document.getElementById("moves");
  var items = [];
  var current = 0;
  var KINDS = ["illegal", "rejected", "disputed", "ruling"];

  frames.forEach(function (f, i) {
    var li = document.createElement("li");
    li.textContent = f.move === null ? f.title : f.ply + ". " + f.move;
    if (f.move === null) { li.className = "start"; }
    KINDS.forEach(function (k) {
      if (f[k]) {
        var mark = document.createElement("span");
        mark.className = "mark " + k;
        mark.textContent = k;
        li.appendChild(mark);
      }
    });
    li.addEventListener("click", function () { go(i); });
    list.appendChild(li);
    items.push(li);
  });
  slider.max = String(frames.length - 1);

  function kindOf(text) {
    for (var i = 0; i < KINDS.length; i++) {
      if (text.indexOf(KINDS[i]) === 0) { return KINDS[i]; }
    }
    return "note";
  }

  function go(i) {
    i = Math.max(0, Math.min(frames.length - 1, i | 0));
    var f = frames[i];
    board.innerHTML = f.svg;
    notes.textContent = "";
    f.comments.forEach(function (c) {
      var p = document.createElement("p");
      p.className = kindOf(c);
      p.textContent = c;
      notes.appendChild(p);
    });
    if (items[current]) { items[current].classList.remove("current"); }
    items[i].classList.add("current");
    items[i].scrollIntoView({block: "nearest"});
    current = i;
    slider.value = String(i);
    status.textContent = (i + 1) + " / " + frames.length + " \u2014 " + f.title;
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


def replay_page(frames: Sequence[Frame], title: str, subtitle: str = "") -> str:
    """The page for ``frames`` (one record's replay)."""
    if not frames:
        raise ValueError("nothing to replay: the record has no position")
    data = []
    for f in frames:
        item = f.to_json()
        item["svg"] = render_svg(f)
        data.append(item)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{STYLE}</style>
</head>
<body data-frame="0">
<header><h1>{escape(title)}</h1><p>{escape(subtitle)}</p></header>
<main>
<section id="stage">
<div id="controls">
<button id="first" type="button" title="first position (Home)" aria-label="first position">|&#x25C0;</button>
<button id="prev" type="button" title="previous move (&#x2190;)" aria-label="previous move">&#x25C0;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="move">
<button id="next" type="button" title="next move (&#x2192;)" aria-label="next move">&#x25B6;</button>
<button id="last" type="button" title="last position (End)" aria-label="last position">&#x25B6;|</button>
<span id="status" aria-live="polite"></span>
</div>
<div id="board"></div>
<div id="notes"></div>
</section>
<aside><ol id="moves"></ol></aside>
</main>
<script type="application/json" id="frames">{_json_for_script(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
