"""``pitboss rules``: spec/ as a rulebook, in text and HTML; every rule with its id, text,
rule sets, options and source; the rule sets' differences side by side; the games from
the registry."""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import app
from referee import spec
from referee.jobs import registry
from referee.jobs.rulebook import book, differences, game_rules
from referee.jobs.rulebook import html as rulebook_html
from referee.jobs.rulebook import text as rulebook_text

runner = CliRunner()


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_every_spec_rule_is_in_the_text_rulebook_with_its_source() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    flat = _one_line(result.output)
    for rule in spec.catalog().values():
        assert f"[{rule.id}] {rule.title}" in flat, rule.id
        assert _one_line(rule.text) in flat, rule.id
        # (a line may break between two CJK characters of a source, with no space there)
        assert "".join(f"source: {rule.source}".split()) in "".join(flat.split()), rule.id
    for game in registry.games():
        assert f"{game.title}: the rulebook" in result.output


def test_every_spec_rule_is_in_the_html_rulebook_with_its_source(tmp_path: Path) -> None:
    out = tmp_path / "rules.html"
    result = runner.invoke(app, ["rules", "--html", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "default-src 'none'" in page
    sections = dict(re.findall(r'<section class="rule (?:rule|ruling)" id="([^"]+)">(.*?)</section>', page, re.S))
    assert set(sections) >= set(spec.catalog())
    for rule in spec.catalog().values():
        body = html_lib.unescape(sections[rule.id])
        assert rule.title in body and _one_line(rule.text) in _one_line(body), rule.id
        assert f"source: {rule.source}" in body and ", ".join(registry.rule_sets_of(rule)) in body, rule.id
        if rule.options:
            assert ", ".join(rule.options) in body, rule.id
        if rule.kind == "ruling":
            assert "ruling" in body, rule.id


def test_each_game_has_its_own_rules_and_the_record_rules() -> None:
    for game in registry.games():
        rules = game_rules(game)
        own = {r.id for r in rules if r.file in game.spec_files}
        assert own == {r.id for r in spec.catalog().values() if r.file in game.spec_files}
        assert {r.id for r in rules} - own == {r.id for r in spec.catalog().values() if r.file == "notation.toml"}
        text = rulebook_text([book(game)])
        assert all(f"[{r.id}]" in text for r in rules)
        others = [r for g in registry.games() if g is not game for r in game_rules(g) if r.file in g.spec_files]
        assert not any(f"[{r.id}]" in text for r in others)


def test_one_rule_set_keeps_its_rules_only() -> None:
    for game in registry.games():
        for rule_set in game.rule_sets:
            result = runner.invoke(app, ["rules", game.name, "--rules", rule_set])
            assert result.exit_code == 0, result.output
            shown = set(re.findall(r"^  \[([^\]]+)\]", result.output, re.M))
            want = {r.id for r in game_rules(game) if r.applies_to(rule_set)}
            assert shown == want, (game.name, rule_set)


def test_the_differences_are_side_by_side() -> None:
    for game in registry.games():
        b = book(game)
        rows = differences(b)
        assert rows, game.name
        every = {r.id for r in game_rules(game) if not all(r.applies_to(s) for s in game.rule_sets)}
        assert {r.id for _, cells in rows for cell in cells for r in cell} == every
        for _, cells in rows:
            assert len(cells) == len(game.rule_sets)
            for rule_set, cell in zip(game.rule_sets, cells):
                assert all(r.applies_to(rule_set) for r in cell)
        page = rulebook_html([b])
        table = page[page.index("Where the rule sets differ"):page.index("The rules</h2>")]
        assert all(f"<th>{s}</th>" in table for s in game.rule_sets)
        assert all(f'href="#{rule_id}"' in table for rule_id in every)


def test_daifugo_option_defaults_differ_by_preset() -> None:
    result = runner.invoke(app, ["rules", "daifugo"])
    line = next(line for line in result.output.splitlines() if line.startswith("eight-cut"))
    assert line.split()[1:] == ["off", "on"]


@pytest.mark.parametrize("args, message", [
    (["rules", "chess"], "no game 'chess': the games are " + ", ".join(registry.names())),
    (["rules", "caravan", "--rules", "classic"], "Caravan has no rule set 'classic'"),
    (["rules", "--rules", "fnv"], "--rules needs a GAME"),
])
def test_bad_choices_are_clear(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and message in result.output


def test_explain_and_annotate_point_into_the_rulebook() -> None:
    root = Path(__file__).resolve().parents[1]
    result = runner.invoke(app, ["explain", str(root / "examples" / "illegal.cvn"), "--ply", "3"])
    assert "in the rulebook under its id: pitboss rules caravan" in result.output
    result = runner.invoke(app, ["explain", str(root / "examples" / "illegal.cvn"), "--ply", "3", "--json"])
    data = json.loads(result.stdout)
    checked = [c for v in data["verdicts"] for c in v["checked"] if "title" in c]
    assert checked and all(c["rulebook"] == f"rules.html#{c['id']}" for c in checked)
    result = runner.invoke(app, ["annotate", str(root / "examples" / "illegal.cvn"), "--json"])
    data = json.loads(result.stdout)
    moves = [m for record in data["records"] for m in record["moves"] if m["rule"]]
    assert moves and all(m["rulebook"][m["rule"]] == f"rules.html#{m['rule']}" for m in moves)


def test_the_html_rulebook_fits_a_phone(tmp_path: Path) -> None:
    """At 412x860 nothing runs off the side: the differences table wraps its cells."""
    from test_render import _browser_or_skip

    executable = _browser_or_skip()
    from cdp import Browser

    out = tmp_path / "rules.html"
    assert runner.invoke(app, ["rules", "--html", str(out)]).exit_code == 0
    with Browser(executable) as browser:
        page = browser.page()
        try:
            for dark in (False, True):
                page.viewport(412, 860, dark=dark, mobile=True)
                page.goto(out.as_uri() + f"?{dark}#daifugo.play.stronger")
                widths = page.eval("[document.documentElement.scrollWidth, window.innerWidth,"
                                   " Math.max(...Array.from(document.querySelectorAll('table'))"
                                   ".map(t => t.getBoundingClientRect().right))]")
                assert widths[0] <= widths[1] and widths[2] <= widths[1], widths
                target = page.eval("document.getElementById('daifugo.play.stronger').getBoundingClientRect().top")
                assert -1 < target < 860  # the address's rule is on screen
            assert page.errors == [], page.errors
        finally:
            page.close()
