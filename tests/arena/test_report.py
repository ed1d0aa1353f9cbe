"""The tournament's report: plots of the rating over games and of the points, a link to
every game's record and replay page, think times per entrant; opened in a real headless
Chromium, and a replay page reached from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.arena.entrants import parse
from referee.arena.main import run
from referee.arena.tournament import Settings


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    field = [parse("r=bot:random"), parse("g=bot:greedy"), parse("s=bot:search")]
    out = tmp_path_factory.mktemp("report") / "t"
    doc = run(Settings("caravan", field, "holotape", games=2, seed=3), out)
    return out, doc


def _browser_or_skip() -> str | None:
    from cdp import find_chromium, in_ci, require_browser_reason

    reason = require_browser_reason()
    if reason is not None:
        if in_ci():
            pytest.fail(f"the report test needs a headless browser: {reason}")
        pytest.skip(f"the report test needs a headless browser: {reason}")
    return find_chromium()


def test_the_report_plots_and_links_every_game(tournament: tuple[Path, dict]) -> None:
    out, doc = tournament
    html = (out / "report.html").read_text(encoding="utf-8")
    # the rating over games: one line per entrant, a point per table played
    assert html.count("<polyline") == 3
    for e in doc["entrants"]:
        assert f'aria-label="points of {e["name"]}"' in html
        think = e["think"]
        assert think["moves"] > 0 and 0 <= think["p50_ms"] <= think["p99_ms"]
    assert len(doc["history"]) == doc["tournament"]["tables_played"]
    links = re.findall(r"href='([^']+)'", html)
    records = sorted(p.name for p in (out / "games").glob("table-*.cvn"))
    assert len(records) == doc["tournament"]["tables"]
    for name in records:
        assert f"games/{name}" in links and f"games/{name[:-4]}.html" in links
    assert all((out / link).is_file() for link in links)


def test_the_report_opens_in_a_browser_and_leads_to_the_replays(tournament: tuple[Path, dict]) -> None:
    executable = _browser_or_skip()
    from cdp import Browser

    out, doc = tournament
    assert executable is not None
    with Browser(executable) as browser:
        page = browser.page()
        try:
            page.goto((out / "report.html").as_uri())
            assert page.eval("document.querySelectorAll('svg polyline').length") == 3
            assert page.eval("document.querySelectorAll('figure svg').length") == len(doc["entrants"])
            names = page.eval("Array.from(document.querySelectorAll('table tr td.l')).map(t => t.textContent)")
            assert {e["name"] for e in doc["entrants"]} <= set(names)
            replay = page.eval("Array.from(document.querySelectorAll('a')).map(a => a.href)"
                               ".find(h => h.endsWith('.html'))")
            page.goto(replay)
            assert page.eval("window.pitbossReplay.count") > 1
            assert page.errors == []
        finally:
            page.close()
