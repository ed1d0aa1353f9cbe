"""What a tournament leaves behind: ``standings.json``, the text table, and
``report.html`` (plots drawn as inline SVG, nothing fetched from the network) with a link
to every game's replay page (the page ``pitboss show --html`` writes, one per record).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from referee.arena.table import TableResult
from referee.arena.tournament import record_name, write_atomic

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")


def _f(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def text_table(doc: dict[str, Any]) -> str:
    """The standings as a text table (best rating first)."""
    head = ("#", "entrant", "games", "points", "pts/game", "95 %", "rating", "95 %", "incidents", "think p50/p99 ms")
    rows = [head]
    for i, e in enumerate(doc["entrants"], start=1):
        lo, hi = e["points_per_game_interval"]
        rlo, rhi = e["rating_interval"]
        think = e["think"]
        rows.append((str(i), e["name"], str(e["games"]), f"{e['points']:g}", _f(e["points_per_game"], 3),
                     f"{lo:.3f}..{hi:.3f}", _f(e["rating"]), f"{rlo:.2f}..{rhi:.2f}", str(e["incidents"]),
                     f"{_f(think['p50_ms'], 1)}/{_f(think['p99_ms'], 1)}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.rjust(w) if i not in (1,) else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    t = doc["tournament"]
    rules = f"{t['protocol']} tables" if t.get("protocol") else t["rules"]
    out = [f"{t['game']} ({rules}{' ' + t['options'] if t['options'] else ''}): {t['schedule']}; "
           f"{doc['games']} games", *lines]
    sprt = doc.get("sprt")
    if sprt:
        verdict = (f"{sprt['accept']} accepted" if sprt["decided"] else "not decided")
        out.append(f"SPRT {sprt['a']} vs {sprt['b']} [{sprt['elo0']:g}, {sprt['elo1']:g}]: {verdict} after "
                   f"{sprt['games']} games (LLR {sprt['llr']:.2f}, bounds {sprt['bounds'][0]:.2f}, "
                   f"{sprt['bounds'][1]:.2f})")
    for inc in doc.get("incidents", ())[:20]:
        out.append(f"incident: {inc['entrant']} at table {inc['table'] + 1}, ply {inc['ply']}: {inc['kind']}: "
                   f"{inc['message']} ({inc['consequence']})")
    if len(doc.get("incidents", ())) > 20:
        out.append(f"... {len(doc['incidents']) - 20} more incidents in standings.json")
    for err in doc.get("errors", ()):
        out.append(f"table {err['table'] + 1} could not be played: {err['error']}")
    return "\n".join(out) + "\n"


def replay(path: Path) -> tuple[str, bool] | None:
    """The replay page of a record file and whether the record is valid (None: nothing to
    replay)."""
    from referee.jobs.annotate import annotate_timeline
    from referee.jobs.render.frames import frames_of
    from referee.jobs.render.html import replay_page
    from referee.jobs.timeline import timelines
    from referee.notation.records import open_text

    with open_text(str(path)) as handle:
        for timeline in timelines(handle, str(path)):
            frames = frames_of(annotate_timeline(timeline))
            if not frames:
                return None
            valid = timeline.report.valid
            return replay_page(frames, path.name, "valid" if valid else "invalid"), valid
    return None


def _line_plot(history: list[dict[str, Any]], names: Sequence[str]) -> str:
    """Each entrant's rating (mu) after each table, against the games played."""
    w, h, pad = 640, 280, 40
    if not history:
        return ""
    xs = [p["games"] for p in history]
    ys = [v for p in history for v in p["mu"].values()]
    x0, x1 = 0, max(xs) or 1
    y0, y1 = min(ys + [25.0]) - 1, max(ys + [25.0]) + 1

    def X(x: float) -> float:
        return pad + (x - x0) / (x1 - x0) * (w - 2 * pad)

    def Y(y: float) -> float:
        return h - pad - (y - y0) / (y1 - y0) * (h - 2 * pad)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
             'role="img" aria-label="rating over games">',
             f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="currentColor"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="currentColor"/>',
             f'<text x="{w / 2}" y="{h - 8}" text-anchor="middle" font-size="12">games</text>',
             f'<text x="6" y="{pad - 12}" font-size="12">rating</text>',
             f'<text x="{pad - 4}" y="{Y(y1) + 4:.1f}" text-anchor="end" font-size="10">{y1:.0f}</text>',
             f'<text x="{pad - 4}" y="{Y(y0) + 4:.1f}" text-anchor="end" font-size="10">{y0:.0f}</text>',
             f'<text x="{w - pad}" y="{h - pad + 14}" text-anchor="end" font-size="10">{x1}</text>']
    for i, n in enumerate(names):
        color = PALETTE[i % len(PALETTE)]
        points = " ".join(f"{X(p['games']):.1f},{Y(p['mu'][n]):.1f}" for p in history)
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.5" points="{points}">'
                     f'<title>{escape(n)}</title></polyline>')
        parts.append(f'<text x="{w - pad + 4}" y="{Y(history[-1]["mu"][n]) + 4:.1f}" font-size="10" '
                     f'fill="{color}">{escape(n)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _histograms(entrants: list[dict[str, Any]]) -> str:
    """Each entrant's points per game: how often it scored each value."""
    values = sorted({float(k) for e in entrants for k in e["points_histogram"]})
    if not values:
        return ""
    bw, gap, h, pad = 14, 6, 140, 30
    out = []
    for i, e in enumerate(entrants):
        counts = {float(k): v for k, v in e["points_histogram"].items()}
        top = max(counts.values()) or 1
        w = pad + len(values) * (bw + gap) + pad
        color = PALETTE[i % len(PALETTE)]
        bars = []
        for j, v in enumerate(values):
            c = counts.get(v, 0)
            bh = c / top * (h - 2 * pad)
            x = pad + j * (bw + gap)
            bars.append(f'<rect x="{x}" y="{h - pad - bh:.1f}" width="{bw}" height="{bh:.1f}" fill="{color}">'
                        f'<title>{v:g} points: {c} games</title></rect>'
                        f'<text x="{x + bw / 2}" y="{h - pad + 12}" text-anchor="middle" font-size="9">{v:g}</text>')
        out.append(f'<figure><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
                   f'height="{h}" role="img" aria-label="points of {escape(e["name"])}">{"".join(bars)}</svg>'
                   f'<figcaption>{escape(e["name"])}</figcaption></figure>')
    return "".join(out)


STYLE = """body{font:14px system-ui,sans-serif;margin:1.5em;max-width:70em}table{border-collapse:collapse}
td,th{padding:.2em .6em;border-bottom:1px solid #8884;text-align:right}td.l,th.l{text-align:left}
figure{display:inline-block;margin:.5em}svg{max-width:100%}:root{color-scheme:light dark}"""


def html_report(doc: dict[str, Any], games: list[tuple[str, str | None, bool | None]]) -> str:
    t = doc["tournament"]
    names = [e["name"] for e in doc["entrants"]]
    rows = []
    for i, e in enumerate(doc["entrants"], start=1):
        lo, hi = e["points_per_game_interval"]
        rlo, rhi = e["rating_interval"]
        rows.append(f"<tr><td>{i}</td><td class=l>{escape(e['name'])}</td><td>{e['games']}</td>"
                    f"<td>{e['points']:g}</td><td>{e['points_per_game']:.3f} ({lo:.3f}..{hi:.3f})</td>"
                    f"<td>{e['rating']:.2f} ({rlo:.2f}..{rhi:.2f})</td><td>{e['incidents']}</td>"
                    f"<td>{_f(e['think']['p50_ms'], 1)} / {_f(e['think']['p99_ms'], 1)}</td></tr>")
    cross = ["<tr><th class=l></th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"]
    for a in names:
        cells = []
        for b in names:
            c = doc["crosstable"][a].get(b)
            cells.append("<td>-</td>" if c is None or c["score"] is None else
                         f"<td title='{c['wins']}-{c['draws']}-{c['losses']}'>{c['score']:.2f}</td>")
        cross.append(f"<tr><th class=l>{escape(a)}</th>{''.join(cells)}</tr>")
    incidents = "".join(f"<tr><td class=l>{escape(i['entrant'])}</td><td>{i['table'] + 1}</td><td>{i['ply']}</td>"
                        f"<td class=l>{escape(i['kind'])}</td><td class=l>{escape(i['message'])}</td>"
                        f"<td class=l>{escape(i['consequence'])}</td></tr>" for i in doc.get("incidents", ()))
    links = "".join(f"<li><a href='{escape(rec)}'>{escape(Path(rec).name)}</a>"
                    + (f" · <a href='{escape(page)}'>replay</a>" if page else "")
                    + ("" if valid is None else " · valid" if valid else " · <b>invalid</b>") + "</li>"
                    for rec, page, valid in games)
    sprt = ""
    if doc.get("sprt"):
        s = doc["sprt"]
        sprt = (f"<h2>SPRT</h2><p>{escape(s['a'])} against {escape(s['b'])}, H0 {s['elo0']:g} Elo, H1 "
                f"{s['elo1']:g} Elo: {escape(s['accept'] + ' accepted' if s['decided'] else 'not decided')} after "
                f"{s['games']} games (LLR {s['llr']:.2f}).</p>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Arena: {escape(t['game'])}</title><style>{STYLE}</style></head>
<body><h1>Arena: {escape(t['game'])} ({escape(t['rules'])})</h1>
<p>{escape(t['schedule'])}. {doc['games']} games.</p>
<h2>Standings</h2><table><tr><th>#</th><th class=l>entrant</th><th>games</th><th>points</th>
<th>points per game (95 %)</th><th>rating (95 %)</th><th>incidents</th><th>think p50 / p99 ms</th></tr>
{''.join(rows)}</table>
{sprt}
<h2>Rating over games</h2>{_line_plot(doc['history'], names)}
<h2>Points per game</h2>{_histograms(doc['entrants'])}
<h2>Head to head</h2><p>The row's entrant's score against the column's (wins, and half the draws).</p>
<table>{''.join(cross)}</table>
<h2>Incidents</h2><table><tr><th class=l>entrant</th><th>table</th><th>ply</th><th class=l>kind</th>
<th class=l>what</th><th class=l>consequence</th></tr>{incidents}</table>
<h2>Games</h2><ol>{links}</ol>
</body></html>
"""


def write(out: Path, doc: dict[str, Any], results: Sequence[TableResult], replays: bool = True) -> None:
    games: list[tuple[str, str | None, bool | None]] = []
    invalid = 0
    for res in results:
        if res.error is not None and not res.extension:
            continue
        rec = out / "games" / record_name(res)
        page, valid = None, None
        if replays and rec.exists():
            target = rec.with_suffix(".html")
            made = None
            if not target.exists():
                made = replay(rec)
                if made is not None:
                    write_atomic(target, made[0])
                    valid = made[1]
            page = f"games/{target.name}" if target.exists() else None
        if valid is False:
            invalid += 1
        games.append((f"games/{rec.name}", page, valid))
    doc["invalid_records"] = invalid
    write_atomic(out / "standings.json", json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    write_atomic(out / "report.html", html_report(doc, games))
