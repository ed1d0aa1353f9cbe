"""The service's web pages: the lobby, a table to watch or play, a finished table's replay,
the API docs.

Self-contained HTML: the styles and scripts (``static/`` beside this module, and each
game's ``table.js`` through its ``render`` part) are written into the page, and a
Content-Security-Policy allows nothing but this server. The lobby lists the tables (never
a seat's token) and starts new ones: game, rule set and options, seats as people or bots,
clock; the answer's seat links carry each token in the link's fragment (``#token=...``),
which browsers never send to a server. The table page draws the position with the SVG
renderer of ``pitboss show`` (``/v1/tables/{id}/picture``) and follows the table over
its WebSocket; opened with a seat's link it shows that seat's hand and legal moves.
"""

from __future__ import annotations

import io
import json
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from referee.i18n import gettext_
from referee.jobs import registry
from referee.jobs.live import BOT_STYLES

STATIC = Path(__file__).with_name("static")

#: What the pages may reach: this server only (its API and the table's WebSocket).
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'")

FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
           'fill="#1f5f3f"/><text x="8" y="12" font-size="10" text-anchor="middle" fill="#fff">P</text></svg>')


@cache
def _asset(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def _json_for_script(value: object) -> str:
    """JSON safe inside a ``<script>`` element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _page(title: str, body: str, scripts: tuple[str, ...] = (), data: object = None, cls: str = "") -> str:
    config = (f'<script type="application/json" id="config">{_json_for_script(data)}</script>'
              if data is not None else "")
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            "<meta name=viewport content='width=device-width, initial-scale=1'>"
            "<meta name=color-scheme content='light dark'><meta name=referrer content=no-referrer>"
            f"<title>{escape(title)}</title><style>{_asset('page.css')}</style></head>"
            f"<body class='{cls}'>{body}{config}" + "".join(f"<script>{s}</script>" for s in scripts)
            + "</body></html>")


# ------------------------------------------------------------------ the lobby


def games_offered() -> list[dict[str, Any]]:
    """Every game a table can be started for, as the lobby's form offers it."""
    out = []
    for game in registry.games():
        if game.live is None:
            continue
        rulebook = game.rulebook.get() if game.rulebook is not None else None
        out.append({"name": game.name, "title": gettext_(game.title), "default": game.default_rules,
                    "rule_sets": [{"name": r, "about": rulebook.describe(r) if rulebook else ""}
                                  for r in game.rule_sets],
                    **game.live.get().form()})
    return out


def _row(t: dict[str, Any]) -> str:
    status = escape(t["status"])
    return (f"<tr><td data-label=table><a href='/tables/{escape(t['id'])}'>{escape(t['id'])}</a></td>"
            f"<td data-label=game>{escape(t['game'])}</td><td data-label=rules>{escape(t['rules'])}</td>"
            f"<td data-label=seats>{escape(', '.join(t['seats']))}</td>"
            f"<td data-label=status><span class='badge {status}'>{status}</span></td></tr>")


def index_page(tables: list[dict[str, Any]]) -> str:
    """The lobby: the tables, newest first (the script pages on through ``/v1/tables``),
    and the form that starts a new one."""
    rows = "".join(_row(t) for t in tables)
    body = ("<header class=bar><a class=home href='/'>Pitboss</a><span class=what>live tables, refereed move by "
            "move</span><a href='#new'>New table</a><a href='/docs'>API</a></header>")
    body += ("<main class=lobby><section class=box id=tables><h2>Tables</h2>"
             "<table class=list><thead><tr><th>table</th><th>game</th><th>rules</th><th>seats</th><th>status</th>"
             f"</tr></thead><tbody id=rows>{rows}</tbody></table>"
             + ("" if tables else "<p id=none>No tables yet: start one.</p>")
             + "<p><button type=button class=secondary id=more hidden>Older tables</button></p></section>"
             "<div><section class=box id=new><h2>New table</h2><form class=new id=create autocomplete=off>"
             "<label for=game>Game</label><select id=game name=game></select>"
             "<label for=rules>Rule set</label><select id=rules name=rules></select><p class=about id=rules-about></p>"
             "<div id=options-box><label>Options</label><div class=options id=options></div></div>"
             "<label>Seats</label><div id=seats></div>"
             "<p><button type=button class=secondary id=add-seat>Add a seat</button></p>"
             "<label for=clock>Seconds per move (empty: no clock)</label>"
             "<input type=number id=clock min=1 max=604800 step=1 placeholder='no clock'>"
             "<div id=rounds-box><label for=rounds>Rounds</label>"
             "<input type=number id=rounds min=1 max=100 value=1></div>"
             "<details><summary>More</summary><label for=seed>Seed (the same seed deals the same cards)</label>"
             "<input type=number id=seed min=0 step=1 placeholder=random></details>"
             "<p><button type=submit class=primary id=start>Start the table</button></p><p class=error id=create-error>"
             "</p></form></section>"
             "<section class=box id=created hidden><h2>Your table</h2><p>Give each player the link of their seat: "
             "whoever opens it plays that seat. The links are shown here only.</p><div class=links id=links></div>"
             "<p><button type=button class=secondary id=another>Start another table</button></p></section>"
             "<section class=box id=my-seats hidden><h2>Your seats on this browser</h2>"
             "<div class=links id=my-links></div>"
             "<p><button type=button class=secondary id=forget>Forget them</button></p></section></div></main>")
    return _page("Pitboss tables", body, (_asset("lobby.js"),),
                 {"games": games_offered(), "bots": list(BOT_STYLES)}, "lobby-page")


# ------------------------------------------------------------------ a table


def table_page(table_id: str, game: str) -> str:
    """The page of one table: the picture, the hand and moves of the seat whose link
    opened it, the end in words and pictures."""
    found = registry.game(game)
    body = ("<header class=bar><a class=home href='/'>Pitboss</a><span class=what id=what></span>"
            "<span class=seat id=seat></span></header>"
            "<div id=banner role=status aria-live=polite><span id=banner-text>connecting\u2026</span>"
            "<span class=clock id=clock></span></div>"
            "<main id=stage><div id=picture></div><section id=side>"
            "<div id=status></div>"
            "<section id=mine hidden><h2 id=hand-title>Your hand</h2><div id=hand></div>"
            "<div id=hint></div><div id=legal></div><div id=error role=alert></div></section>"
            "<section id=result hidden></section><div id=reports></div>"
            "<details class=log><summary>All moves</summary><div id=moves style='white-space:pre-wrap'></div></details>"
            "</section></main>")
    drawing = found.render.get().table_script if found.render is not None else None
    scripts = ("window.PitbossTable = {games: {}};", drawing() if drawing is not None else "", _asset("table.js"))
    return _page(f"Pitboss table {table_id}", body, scripts,
                 {"id": table_id, "game": found.name, "title": gettext_(found.title)}, "table")


@cache
def _replay(table_id: str, record: str) -> str:
    from referee.jobs.annotate import annotate_timeline
    from referee.jobs.render.frames import frames_of
    from referee.jobs.render.html import replay_page as html_replay
    from referee.jobs.timeline import timelines

    name = f"table-{table_id}"
    timeline = next(iter(timelines(io.StringIO(record), name)), None)
    if timeline is None:
        raise ValueError("the table's record holds no game")
    frames = frames_of(annotate_timeline(timeline))
    report = timeline.report
    return html_replay(frames, f"Table {table_id}: {report.game}, {report.rules}",
                       f"{len(frames)} positions · {'valid' if report.valid else 'invalid'}")


def replay_page(table_id: str, record: str) -> str:
    """A finished table's record replayed move by move (the page ``pitboss show --html``
    writes), made once per table."""
    if _replay.cache_info().currsize > 8:
        _replay.cache_clear()
    return _replay(table_id, record)


# ------------------------------------------------------------------ the API's docs


_DOCS_SCRIPT = r"""
fetch("/openapi.json").then((r) => r.json()).then((spec) => {
  const out = document.getElementById("api");
  document.getElementById("about").textContent = spec.info.description;
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const s = document.createElement("section");
      const codes = Object.entries(op.responses || {})
        .map(([c, r]) => `<li><b>${c}</b> ${r.description}</li>`).join("");
      s.innerHTML = `<h3><code>${method.toUpperCase()} ${path}</code></h3><p>${op.summary || ""}</p><ul>${codes}</ul>`;
      out.appendChild(s);
    }
  }
});
"""


def docs_page() -> str:
    return _page("Pitboss API",
                 "<header class=bar><a class=home href='/'>Pitboss</a><span class=what>API</span></header>"
                                "<main class=lobby><section class=box><p id=about></p>"
                                "<p><a href='/openapi.json'>openapi.json</a></p><div id=api></div></section></main>",
                 (_DOCS_SCRIPT,))
