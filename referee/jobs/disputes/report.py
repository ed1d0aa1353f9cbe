"""The classes of a comparison in words: text for a terminal, an HTML page.

Both take a comparison as its JSON document (``Disputes.to_json()``, or an entry of a
shipped atlas), so that a live search and the atlas read the same way. A class reads as

    legality: legal / caravan.queen.last
      holotape legal; fnv illegal [caravan.queen.last] — points: queen placement
      first shown: QS>A1 in the position below; witness: 8 moves (validate agrees)

with the witness record and the position after it where asked (``full``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from referee.engines.message import M, N
from referee.i18n import BCP47, Text, current, tr
from referee.jobs.render.html import head

TEXT = Text({
    "none": M("none within the scope"),
    "valid": M("{label} valid"),
    "counted": M("{label} valid, move {ply} counted as a pass [{rule}]"),
    "invalid": M("{label} invalid [{rule}]"),
    "invalid_at": M("{label} invalid at move {ply} [{rule}]"),
    "set_off": M("set off by {rules}"),
    "complete": M("complete within the scope"),
    "incomplete": M("not complete: the search stopped at its time limit"),
    "legal": M("legal"),
    "at_start": M("the start"),
    "shown": M("shows first at: {move}"),
    "witness": M("witness"),
    "no_witness": M("no witness within the scope"),
    "position": M("position"),
    "points": M("points: {points}"),
    "scope": M("scope"),
    "replay": M("replay"),
    "unverified": M("validate does not agree"),
})


def _verdict(label: str, v: dict[str, Any]) -> str:
    """How validate judged a witness under one setting."""
    if v.get("rule") is None:
        return TEXT["valid"].format(label=label)
    if v.get("valid"):
        return TEXT["counted"].format(label=label, ply=v["ply"], rule=v["rule"])
    if v.get("ply") is None:
        return TEXT["invalid"].format(label=label, rule=v["rule"])
    return TEXT["invalid_at"].format(label=label, ply=v["ply"], rule=v["rule"])


def class_lines(c: dict[str, Any], full: bool = False) -> list[str]:
    """One class in words (with ``full``: its witness record and the position it shows in)."""
    lines = [f"{c['id']}"]
    if c["kind"] == "legality":
        lines.append("  " + "; ".join(f"{label}: " + (f"[{rule}]" if rule else TEXT["legal"])
                                      for label, rule in c["rules"].items()))
    else:
        said = [f"{label} [{' '.join(ids)}]" for label, ids in (c.get("cited") or {}).items() if ids]
        if said:
            lines.append("  " + TEXT["set_off"].format(rules="; ".join(said)))
    if c.get("points"):
        lines.append("  " + TEXT["points"].format(points=", ".join(c["points"])))
    where = c["move"] if c["move"] is not None else TEXT["at_start"]
    lines.append("  " + TEXT["shown"].format(move=where))
    length = c.get("length")
    if length is None:
        lines.append(f"  {TEXT['no_witness']}")
    else:
        check = "" if c.get("verified") else f" ({TEXT['unverified']})"
        verdicts = "; ".join(_verdict(label, v) for label, v in (c.get("verdicts") or {}).items())
        lines.append(f"  {TEXT['witness']}: " + tr(N("{n} move", "{n} moves", length)) + f" — {verdicts}{check}")
    if full and c.get("witness"):
        lines += ["    " + line for line in c["witness"].rstrip("\n").split("\n")]
    if full:
        lines.append(f"  {TEXT['position']}:")
        lines += ["    " + line for line in c["position"].rstrip("\n").split("\n")]
    return lines


def _scope_lines(doc: dict[str, Any]) -> list[str]:
    return [f"{TEXT['scope']} {part['name']}: {part['starts']}; {part['moves']}; "
            + tr(N("records of at most {n} move", "records of at most {n} moves", part["depth"]))
            for part in doc["scope"]["parts"]]


def comparison_lines(doc: dict[str, Any], full: bool = False, scope: bool = True) -> list[str]:
    """A comparison: its settings, its scope (``scope``), then each class (or none within
    the scope)."""
    heading = " / ".join(doc["settings"])
    lines = [heading, "-" * len(heading)]
    if scope:
        lines += _scope_lines(doc)
    lines.append(TEXT["complete"] if doc["complete"] else TEXT["incomplete"])
    classes = doc["classes"]
    if not classes:
        lines.append(TEXT["none"])
    for c in classes:
        lines.append("")
        lines += class_lines(c, full)
    return lines


def text(docs: Sequence[dict[str, Any]], full: bool = False) -> str:
    """Comparisons in words, each scope said where it differs from the one before."""
    out: list[str] = []
    said = None
    for doc in docs:
        if out:
            out.append("")
        out += comparison_lines(doc, full, scope=doc["scope"] != said)
        said = doc["scope"]
    return "\n".join(out) + "\n"


def summary_rows(docs: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """One row per comparison: its settings and its classes' ids, or none within the scope."""
    rows = []
    for doc in docs:
        names = ", ".join(c["id"] for c in doc["classes"]) or TEXT["none"]
        rows.append((" / ".join(doc["settings"]), names))
    return rows


# ------------------------------------------------------------------ HTML

STYLE = """
:root { color-scheme: light dark; --ink: #1d232a; --muted: #4b5560; --paper: #f6f3ea; --panel: #fff;
  --line: #d6d0bf; --accent: #1f5f3f; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e8e6e1; --muted: #a9b1ba; --paper: #15191d; --panel: #1f252b; --line: #39424b; --accent: #6fcf97; } }
body { margin: 0 auto; max-width: 64rem; padding: 12px 16px 40px; font: 16px/1.5 system-ui, "DejaVu Sans", sans-serif;
  color: var(--ink); background: var(--paper); }
h1 { font-size: 24px; } h2 { font-size: 19px; margin-top: 28px; border-bottom: 1px solid var(--line); }
section.class { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--accent);
  padding: 8px 12px; margin: 8px 0; }
section.class:target { outline: 3px solid var(--accent); }
code, pre, .id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
pre { overflow-x: auto; background: var(--paper); padding: 6px; }
.facts { color: var(--muted); font-size: 14px; }
a { color: var(--accent); }
"""


def anchor(settings: Sequence[str], key: str) -> str:
    """A class's id in a page: its comparison's settings and its key."""
    text = "~".join(settings) + "~" + key
    return "".join(ch if ch.isalnum() or ch in ".-_~" else "_" for ch in text)


def html_sections(docs: Sequence[dict[str, Any]], replay: Callable[[dict[str, Any], dict[str, Any]], str | None]
                  | None = None) -> list[str]:
    """Each comparison as an HTML section; ``replay`` gives a class's replay page link."""
    out: list[str] = []
    for doc in docs:
        out.append(f"<h2>{escape(' / '.join(doc['settings']))}</h2>")
        facts = [f"{escape(p['name'])}: {escape(p['starts'])}; {escape(p['moves'])}; "
                 + escape(tr(N("records of at most {n} move", "records of at most {n} moves", p["depth"])))
                 for p in doc["scope"]["parts"]]
        out.append('<p class="facts">' + "<br>".join(facts) + "</p>")
        if not doc["classes"]:
            out.append(f"<p>{escape(TEXT['none'])}</p>")
        for c in doc["classes"]:
            lines = class_lines(c)
            link = replay(doc, c) if replay is not None else None
            out.append(f'<section class="class" id="{escape(anchor(doc["settings"], c["id"]))}">'
                       f'<b class="id">{escape(c["id"])}</b><p>{"<br>".join(escape(x.strip()) for x in lines[1:])}'
                       + (f' · <a href="{escape(link)}">{escape(TEXT["replay"])}</a>' if link else "") + "</p>"
                       + (f"<details><summary>{escape(TEXT['witness'])}</summary><pre>{escape(c['witness'])}</pre>"
                          "</details>" if c.get("witness") else "")
                       + f"<details><summary>{escape(TEXT['position'])}</summary><pre>{escape(c['position'])}</pre>"
                       "</details></section>")
    return out


def html(docs: Sequence[dict[str, Any]], title: str,
         replay: Callable[[dict[str, Any], dict[str, Any]], str | None] | None = None) -> str:
    body = "\n".join([f"<h1>{escape(title)}</h1>", *html_sections(docs, replay)])
    return head(title, STYLE, "default-src 'none'; style-src 'unsafe-inline'", BCP47[current()]) \
        + f"\n<body>\n{body}\n</body>\n</html>\n"


# ------------------------------------------------------------------ the atlas in the rulebook


def atlas_lines(doc: dict[str, Any]) -> list[str]:
    """A game's shipped atlas, one line per comparison: its settings and its classes, each
    with its witness's length (``pitboss disputes GAME A B`` shows the witnesses)."""
    lines: list[str] = []
    group = None
    for item in doc["comparisons"]:
        if item.get("group") != group:
            group = item.get("group")
            lines += ["", f"  {group}:"]
        said = ", ".join(f"{c['id']} ({tr(N('{n} move', '{n} moves', c['length']))})" if c["length"] is not None
                         else c["id"] for c in item["classes"]) or TEXT["none"]
        lines.append(f"    {' / '.join(item['settings'])}: {said}")
    return lines
