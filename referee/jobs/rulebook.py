"""``pitboss rules``: spec/ as a rulebook a player can read, as text or one HTML page.

For each game (from the registry): its rule sets in a few words; the differences between
them side by side (for each topic, the rules each rule set has that another lacks, and
the options each sets); then every rule, topic by topic, with its id, title, text, the
rule sets and options it belongs to, whether it is a ruling (decided where the sources
are silent), and its source. ``--rules`` keeps one rule set's rules. The topics and their
headings are the game's spec's (``[topics]`` in spec/<game>.toml); what a rule set is in
a few words, and its options, the game's ``rulebook`` part says.

A rule's place in the rulebook's page is :func:`anchor` (``rules.html#<rule id>``);
``explain`` says where its rules are, and annotate's JSON gives each cited rule's place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from referee import spec
from referee.engines.message import M, T
from referee.i18n import BCP47, Text, current, gettext_
from referee.jobs.registry import SomeGame, rule_sets_of
from referee.jobs.render.page import head
from referee.notation.screen import WIDTH, pad, wrap
from referee.notation.screen import width as text_width

#: What the rulebook says (one place, for translation).
TEXT = Text({
    "title": M("{game}: the rulebook"),
    "rule_sets": M("Rule sets"),
    "rule_sets_list": M("Rule sets:"),
    "differences": M("Where the rule sets differ"),
    "topic": M("topic"),
    "options": M("options"),
    "option": M("option"),
    "none": M("—"),
    "rules": M("The rules"),
    "belongs": M("rule sets: {sets}"),
    "by_options": M("options: {options}"),
    "source": M("source: {source}"),
    "ruling": M("ruling (decided where the sources are silent)"),
    "rule": M("rule"),
    "rules_only": M("The rules (only the rules of {rules})"),
    "notation": M("records (both notations)"),
})

@dataclass(frozen=True)
class Book:
    game: SomeGame
    #: The rule sets shown (all of the game's, or the one asked for).
    rule_sets: tuple[str, ...]
    #: (topic, rules) in reading order.
    topics: list[tuple[str, list[spec.Rule]]]

    @property
    def rules(self) -> list[spec.Rule]:
        return [r for _, rules in self.topics for r in rules]


def game_rules(game: SomeGame) -> list[spec.Rule]:
    """The game's rules: those of its spec files, then the record rules it shares."""
    catalog = spec.catalog().values()
    own = [r for f in game.spec_files for r in catalog if r.file == f]
    shared = [r for r in catalog if r.file not in game.spec_files and all(r.applies_to(s) for s in game.rule_sets)]
    return own + shared


def topic_of(rule: spec.Rule, game: SomeGame) -> str:
    """The topic a rule is shown under: its id's middle part (a record rule: the records')."""
    if rule.file not in game.spec_files:
        return "notation"
    parts = rule.id.split(".")
    return parts[1] if len(parts) > 2 else parts[0]


def topics(game: SomeGame) -> dict[str, str]:
    """The topics of a game's rules, each with its heading in the language spoken: its
    main spec file's ``[topics]`` (spec/<game>.toml)."""
    return spec.topics(f"{game.name}.toml", current())


def book(game: SomeGame, rule_set: str | None = None) -> Book:
    """The rulebook of ``game`` (only ``rule_set``'s rules when given). Raises ValueError
    for a rule set the game does not have."""
    if rule_set is not None and rule_set not in game.rule_sets:
        raise ValueError(T("{game} has no rule set {rules}: use one of {choices}", game=game.title,
                           rules=repr(rule_set), choices=", ".join(game.rule_sets)))
    sets = (rule_set,) if rule_set else game.rule_sets
    grouped: dict[str, list[spec.Rule]] = {}
    lang = current()
    headings = topics(game)
    for rule in game_rules(game):
        if rule_set is not None and not rule.applies_to(rule_set):
            continue
        topic = topic_of(rule, game)
        heading = TEXT["notation"] if rule.file not in game.spec_files else headings.get(topic, topic)
        # In the language spoken: the rule's title and text where it has them, else English.
        grouped.setdefault(heading, []).append(spec.translated(rule, lang))
    return Book(game, sets, list(grouped.items()))


def anchor(rule_id: str, page: str = "rules.html") -> str:
    """A rule's place in the rulebook's HTML page."""
    return f"{page}#{rule_id}"


def differences(b: Book) -> list[tuple[str, list[list[spec.Rule]]]]:
    """For each topic where the rule sets differ, each rule set's rules that another
    rule set lacks."""
    out = []
    for topic, rules in b.topics:
        distinct = [r for r in rules if not all(r.applies_to(s) for s in b.rule_sets)]
        if distinct:
            out.append((topic, [[r for r in distinct if r.applies_to(s)] for s in b.rule_sets]))
    return out


def _options(b: Book) -> list[tuple[str, list[str]]]:
    if b.game.rulebook is None:
        return []
    part = b.game.rulebook.get()
    per_set = [part.options(s) for s in b.rule_sets]
    names = list(per_set[0]) if per_set else []
    return [(n, [o.get(n, TEXT["none"]) for o in per_set]) for n in names]


def _describe(b: Book, rule_set: str) -> str:
    return b.game.rulebook.get().describe(rule_set) if b.game.rulebook is not None else ""


# ------------------------------------------------------------------ text


def text(books: Sequence[Book], width: int = WIDTH,
         guarantees: Mapping[str, Sequence[str]] | None = None) -> str:
    """The rulebook as text, every line at most ``width`` columns wide in every language;
    ``guarantees`` (game name -> lines, ``referee.jobs.prove``) adds, after the rule sets,
    what each one guarantees."""
    lines: list[str] = []
    for b in books:
        if lines:
            lines.append("")
        heading = TEXT["title"].format(game=gettext_(b.game.title))
        lines += [heading, "=" * text_width(heading), ""]
        lines.append(TEXT["rule_sets_list"])
        for s in b.rule_sets:
            lines += wrap(f"{s}: {_describe(b, s)}", width, "  ")
        lines.append("")
        if guarantees and guarantees.get(b.game.name):
            # The certificates speak English (as the rule ids do); the heading names the command.
            lines += ["pitboss prove", "-" * len("pitboss prove")]
            for line in guarantees[b.game.name]:
                indent = " " * (len(line) - len(line.lstrip()))
                lines += wrap(line.strip(), width, indent)
            lines.append("")
        if len(b.rule_sets) > 1:
            lines += [TEXT["differences"], "-" * text_width(TEXT["differences"])]
            col = max(12, (width - 24) // len(b.rule_sets))
            label = max(len(x) for x in b.rule_sets) + 2
            for topic, cells in differences(b):
                lines.append(f"  {topic}")
                for s, c in zip(b.rule_sets, cells):
                    said = "; ".join(f"{r.title} [{r.id}]" for r in c) or TEXT["none"]
                    lines += wrap(f"{s + ':':<{label}}{said}", width, "    ")
            options = [o for o in _options(b) if len(set(o[1])) > 1]
            if options:
                lines.append("")
                lines.append((pad(TEXT["option"], 24) + "".join(pad(s, col) for s in b.rule_sets)).rstrip())
                for name, values in options:
                    lines.append((pad(name, 24) + "".join(pad(v, col) for v in values)).rstrip())
            lines.append("")
        title = TEXT["rules_only"].format(rules=b.rule_sets[0]) if len(b.rule_sets) == 1 else TEXT["rules"]
        lines += [title, "-" * text_width(title)]
        for n, (topic, rules) in enumerate(b.topics, start=1):
            lines += ["", f"{n}. {topic}"]
            for r in rules:
                lines.append("")
                lines += wrap(f"[{r.id}] {r.title}", width, "  ")
                lines += wrap(r.text, width, "    ")
                facts = [TEXT["belongs"].format(sets=", ".join(rule_sets_of(r)))]
                if r.options:
                    facts.append(TEXT["by_options"].format(options=", ".join(r.options)))
                if r.kind == "ruling":
                    facts.append(TEXT["ruling"])
                lines += wrap(" · ".join(facts), width, "    ")
                lines += wrap(TEXT["source"].format(source=r.source), width, "    ")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ HTML

STYLE = """
:root { color-scheme: light dark; --ink: #1d232a; --muted: #4b5560; --paper: #f6f3ea; --panel: #fff;
  --line: #d6d0bf; --accent: #1f5f3f; --rule: #6c3483; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e8e6e1; --muted: #a9b1ba; --paper: #15191d; --panel: #1f252b; --line: #39424b;
    --accent: #6fcf97; --rule: #d7a6ec; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 12px 16px 40px; font: 16px/1.5 system-ui, "DejaVu Sans", sans-serif;
  color: var(--ink); background: var(--paper); }
h1 { font-size: 24px; } h2 { font-size: 20px; margin-top: 28px; border-bottom: 1px solid var(--line); }
h3 { font-size: 17px; margin: 22px 0 6px; text-transform: capitalize; }
code, .id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
.table { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: var(--panel); table-layout: fixed; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; }
thead th:first-child { width: 22%; }
td a { display: block; }
section.rule { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--accent);
  padding: 8px 12px; margin: 8px 0; }
section.rule.ruling { border-left-color: var(--rule); }
section.rule:target { outline: 3px solid var(--accent); }
section.rule h4 { margin: 0 0 4px; font-size: 16px; }
section.rule p { margin: 4px 0; }
.facts { color: var(--muted); font-size: 14px; }
a { color: var(--accent); }
nav ul { columns: 2 12rem; }
"""


def _link(r: spec.Rule) -> str:
    return (f'<a href="#{escape(r.id)}" title={quoteattr(r.id)}>{escape(r.title)} '
            f'<span class="id">{escape(r.id)}</span></a>')


def html(books: Sequence[Book], after: Callable[[Book], str] | None = None) -> str:
    """The books as one page; ``after`` gives what follows a game's rules (its atlas)."""
    out: list[str] = []
    for b in books:
        g = b.game
        out.append(f'<h1 id="{escape(g.name)}">{escape(TEXT["title"].format(game=gettext_(g.title)))}</h1>')
        out.append(f"<h2>{escape(TEXT['rule_sets'])}</h2><ul>")
        out += [f"<li><b>{escape(s)}</b>: {escape(_describe(b, s))}</li>" for s in b.rule_sets]
        out.append("</ul>")
        if len(b.rule_sets) > 1:
            out.append(f"<h2>{escape(TEXT['differences'])}</h2><div class=\"table\"><table><thead><tr>"
                       f"<th>{escape(TEXT['topic'])}</th>" + "".join(f"<th>{escape(s)}</th>" for s in b.rule_sets)
                       + "</tr></thead><tbody>")
            for topic, cells in differences(b):
                out.append(f"<tr><th>{escape(topic)}</th>" + "".join(
                    "<td>" + ("".join(_link(r) for r in c) or escape(TEXT["none"])) + "</td>" for c in cells) + "</tr>")
            for name, values in _options(b):
                if len(set(values)) > 1:
                    out.append(f"<tr><th>{escape(TEXT['option'])} <code>{escape(name)}</code></th>"
                               + "".join(f"<td>{escape(v)}</td>" for v in values) + "</tr>")
            out.append("</tbody></table></div>")
        out.append(f"<h2>{escape(TEXT['rules'])}</h2><nav><ul>")
        out += [f'<li><a href="#{escape(g.name)}-{n}">{escape(topic)}</a></li>'
                for n, (topic, _) in enumerate(b.topics, 1)]
        out.append("</ul></nav>")
        for n, (topic, rules) in enumerate(b.topics, start=1):
            out.append(f'<h3 id="{escape(g.name)}-{n}">{n}. {escape(topic)}</h3>')
            for r in rules:
                facts = [TEXT["belongs"].format(sets=", ".join(rule_sets_of(r)))]
                if r.options:
                    facts.append(TEXT["by_options"].format(options=", ".join(r.options)))
                if r.kind == "ruling":
                    facts.append(TEXT["ruling"])
                out.append(f'<section class="rule {escape(r.kind)}" id="{escape(r.id)}">'
                           f'<h4><a href="#{escape(r.id)}" class="id">{escape(r.id)}</a> {escape(r.title)}</h4>'
                           f"<p>{escape(r.text)}</p>"
                           f'<p class="facts">{escape(" · ".join(facts))}</p>'
                           f'<p class="facts source">{escape(TEXT["source"].format(source=r.source))}</p></section>')
        if after is not None:
            out.append(after(b))
    title = " · ".join(TEXT["title"].format(game=gettext_(b.game.title)) for b in books)
    return head(title, STYLE, "default-src 'none'; style-src 'unsafe-inline'", BCP47[current()]) + f"""
<body>
{chr(10).join(out)}
</body>
</html>
"""
