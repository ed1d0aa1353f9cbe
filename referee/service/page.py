"""The service's web pages: the list of tables, a table to watch or play, the API docs.

Self-contained HTML (no network needed). The table page draws the position with the
SVG renderer of ``pitboss show`` (``/v1/tables/{id}/picture``) and follows the table over
its WebSocket; opened with a seat's token (``#token=...``) it shows that seat's hand and
legal moves and plays the one clicked.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

_STYLE = """
:root { color-scheme: dark; }
body { font-family: system-ui, sans-serif; margin: 0; background: #10281b; color: #f4f1e8; }
main { max-width: 1000px; margin: 0 auto; padding: 10px; }
a { color: #8fe3a5; }
table.list { border-collapse: collapse; width: 100%; }
table.list td, table.list th { padding: 6px; border-bottom: 1px solid #2d5a40; text-align: left; }
#picture svg { width: 100%; height: auto; display: block; }
#status { font-size: 1.1em; margin: 8px 0; }
.row { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
button { font-size: 16px; min-height: 40px; padding: 6px 10px; border-radius: 8px; border: 1px solid #8fa3d1;
         background: #1f3f60; color: #fff; cursor: pointer; }
button.card { background: #fffdf7; color: #1d1d1d; min-width: 44px; font-weight: bold; }
button.card.red { color: #c0392b; }
button.card.picked { outline: 3px solid #ffd479; }
button.legal.hot { background: #2d7a52; border-color: #8fe3a5; }
#result { font-weight: bold; color: #8fe3a5; }
#error { color: #ff9b8f; min-height: 1.2em; }
#reports { color: #ffd479; white-space: pre-wrap; }
#moves { font-family: monospace; font-size: 13px; max-height: 8em; overflow: auto; white-space: pre-wrap; }
"""


FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
           'fill="#1f5f3f"/><text x="8" y="12" font-size="10" text-anchor="middle" fill="#fff">P</text></svg>')


def _page(title: str, body: str, script: str = "") -> str:
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width, initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
            f"<body><main>{body}</main>{'<script>' + script + '</script>' if script else ''}</body></html>")


def index_page(tables: list[dict[str, Any]]) -> str:
    rows = "".join(
        f"<tr><td><a href='/tables/{escape(t['id'])}'>{escape(t['id'])}</a></td><td>{escape(t['game'])}</td>"
        f"<td>{escape(t['rules'])}</td><td>{escape(', '.join(t['seats']))}</td><td>{escape(t['status'])}</td></tr>"
        for t in tables)
    body = ("<h1>Pitboss tables</h1>"
            + (f"<table class=list><tr><th>table</th><th>game</th><th>rules</th><th>seats</th><th>status</th></tr>"
               f"{rows}</table>" if tables else "<p>No tables yet: create one with POST /v1/tables.</p>")
            + "<p><a href='/docs'>API</a></p>")
    return _page("Pitboss tables", body)


_TABLE_SCRIPT = r"""
const TABLE = %(id)s;
const params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
const token = params.get("token");
let view = null, picked = null, socket = null, retry = 500;
const $ = (id) => document.getElementById(id);
const auth = token ? {"Authorization": "Bearer " + token} : {};
function isRed(card) { return /[HD]/.test(card.slice(-1)) && card !== "JK"; }
function cardsOf(move) { return move.replace(/^[^:]*:/, " ").split(/[\s>()]+/); }
async function drawPicture() {
  const r = await fetch(`/v1/tables/${TABLE}/picture`, {headers: auth});
  if (r.ok) $("picture").innerHTML = await r.text();
}
// one picture at a time, at most ten a second (a contest table moves faster than that)
let drawing = false, redraw = false;
async function schedulePicture() {
  if (drawing) { redraw = true; return; }
  drawing = true;
  try { do { redraw = false; await drawPicture(); await new Promise((r) => setTimeout(r, 100)); } while (redraw); }
  finally { drawing = false; }
}
function render() {
  if (!view) return;
  const who = view.to_move ? `${view.to_move} to move` : (view.status === "finished" ? "finished" : "exchange");
  $("status").textContent = `${view.game} · ${view.rules}${view.options ? " " + view.options : ""} · ply ${view.ply}` +
    (view.round ? ` · round ${view.round}` : "") + ` · ${who}` + (view.seat ? ` · you are ${view.seat}` : " · spectator");
  $("moves").textContent = view.moves.join("\n");
  $("moves").scrollTop = 1e9;
  $("result").textContent = view.result ? "Result: " + JSON.stringify(view.result) : "";
  if (view.contest) $("status").textContent += ` · contest table ${view.contest.table}, game ${view.round} of ${view.contest.games}` +
    (view.status === "interrupted" ? " · interrupted" : "");
  $("reports").textContent = (view.reports || []).map((r) => `player ${r.player} (${r.name}): ${r.kind}: ${r.message}` +
    (r.game ? ` (game ${r.game}${r.turn ? ", turn " + r.turn : ""})` : "")).join("\n");
  const hand = $("hand"), legal = $("legal");
  hand.innerHTML = ""; legal.innerHTML = "";
  if (!view.seat) return;
  $("mine").hidden = false;
  (view.hand || []).forEach((c) => {
    const b = document.createElement("button");
    b.className = "card" + (isRed(c) ? " red" : "") + (picked === c ? " picked" : "");
    b.textContent = c; b.dataset.card = c;
    b.onclick = () => { picked = picked === c ? null : c; render(); };
    hand.appendChild(b);
  });
  $("deck").textContent = view.deck_left !== undefined ? `deck: ${view.deck_left} left` : "";
  (view.legal || []).forEach((m) => {
    const b = document.createElement("button");
    const hot = picked && cardsOf(m).includes(picked);
    b.className = "legal" + (hot ? " hot" : "");
    b.textContent = m; b.dataset.move = m;
    b.onclick = () => play(m);
    legal.appendChild(b);
  });
  if (!(view.legal || []).length && view.status !== "finished") legal.textContent = "waiting for the others…";
}
async function play(move) {
  $("error").textContent = "";
  const r = await fetch(`/v1/tables/${TABLE}/moves`, {method: "POST",
    headers: Object.assign({"Content-Type": "application/json"}, auth), body: JSON.stringify({move, ply: view.ply})});
  const answer = await r.json();
  if (r.status !== 200) { $("error").textContent = answer.message || answer.error || ("error " + r.status); return; }
  picked = null;
  $("drawn").textContent = answer.drawn ? `you drew ${answer.drawn}` : "";
  if (answer.counted_as) $("error").textContent = `counted as a ${answer.counted_as}: ${answer.message}`;
}
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/v1/tables/${TABLE}/events` + (token ? "?token=" + encodeURIComponent(token) : ""));
  socket.onmessage = (e) => {
    const m = JSON.parse(e.data);
    retry = 500;
    if (m.type === "view") { view = m; }
    else if (m.type === "move") {  // its view leaves the history out: m.move is its new entry
      const moves = view ? view.moves : [];
      if (m.move !== null) moves.push(m.move);
      view = m.view; view.moves = moves;
    }
    else if (m.type === "end") { view.result = m.result; }
    else if (m.view) { view = m.view; }
    render(); schedulePicture();
  };
  socket.onclose = (e) => { if (e.code === 4401 || e.code === 4404) { $("error").textContent = e.reason; return; }
    setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); };
}
connect();
"""


def table_page(table_id: str, game: str) -> str:
    body = (f"<h1 style='font-size:1.2em'>Table {escape(table_id)} <a href='/' style='font-size:.7em'>all tables</a></h1>"
            "<div id=status>connecting…</div><div id=result></div><div id=reports></div><div id=picture></div>"
            "<section id=mine hidden><h2 style='font-size:1em'>Your hand <span id=deck></span> "
            "<span id=drawn></span></h2><div id=hand class=row></div>"
            "<h2 style='font-size:1em'>Your legal moves (pick a card to see its moves)</h2>"
            "<div id=legal class=row></div></section><div id=error></div>"
            "<details><summary>moves</summary><div id=moves></div></details>")
    return _page(f"Pitboss table {table_id}", body, _TABLE_SCRIPT % {"id": json.dumps(table_id)})


_DOCS_SCRIPT = r"""
fetch("/openapi.json").then((r) => r.json()).then((spec) => {
  const out = document.getElementById("api");
  document.getElementById("about").textContent = spec.info.description;
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const s = document.createElement("section");
      const codes = Object.entries(op.responses || {}).map(([c, r]) => `<li><b>${c}</b> ${r.description}</li>`).join("");
      s.innerHTML = `<h3><code>${method.toUpperCase()} ${path}</code></h3><p>${op.summary || ""}</p><ul>${codes}</ul>`;
      out.appendChild(s);
    }
  }
});
"""


def docs_page() -> str:
    return _page("Pitboss API", "<h1>Pitboss API</h1><p id=about></p><p><a href='/openapi.json'>openapi.json</a></p>"
                                "<div id=api></div>", _DOCS_SCRIPT)
