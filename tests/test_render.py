"""``pitboss show``: text (glyphs, colour only when asked), SVG read back with xml.etree,
and the HTML replay driven in a real headless Chromium.

The browser test needs Debian's chromium (``.ci/run`` installs it where missing) and the
``websocket-client`` package (the ``test`` extra). In CI (``CI`` set) a missing browser
fails the test; a local run without one skips it, saying why. A screenshot of one replayed
position is kept under tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from referee.games.caravan import engine as cv
from referee.jobs.annotate import annotate_text
from referee.jobs.render.frames import frames_of, select
from referee.jobs.render.html import replay_page
from referee.jobs.render.svg import render as render_svg
from referee.jobs.render.svg import shown_cards
from referee.jobs.render.text import render as render_text

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
ARTIFACTS = ROOT / "tests" / "artifacts"
SVG_NS = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def _frames(path: Path, record: int = 1):
    annotated = annotate_text(path.read_text(encoding="utf-8"), path.name)[record - 1]
    return annotated, frames_of(annotated)


# ------------------------------------------------------------------ text


def test_caravan_text_plain_and_coloured() -> None:
    _, frames = _frames(GOLDEN / "caravan" / "disputed-direction.cvn")
    frame = select(frames, 2)
    plain = render_text(frame, color=False)
    assert "\x1b" not in plain
    assert "  A  3♥ 5♠ 4♠     12  ▲ up, suit ♠ spades (fnv: ▼ down)" in plain
    assert "Player 1  hand: 2♣ 9♥ K♥ Q♦ ?  deck: unknown" in plain
    assert "lanes: A/D open (12–10)" in plain and "Player 1 to move." in plain
    coloured = render_text(frame, color=True)
    assert "\x1b[31m3♥\x1b[0m" in coloured  # hearts in red
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_caravan_text_faces_lanes_and_end() -> None:
    _, frames = _frames(GOLDEN / "annotate" / "caravan-rulings.cvn", 2)
    start, end = frames[0], frames[-1]
    assert "A  5♥" in render_text(start)
    text = render_text(end)
    assert "Game over: player 1 won (player 2 had no legal move)." in text
    _, frames = _frames(GOLDEN / "annotate" / "caravan-disputed.cvn", 1)
    text = render_text(frames[0])
    assert "D  10♥(K♠ K♣ K♦)" in text and " 80 " in text


def test_daifugo_text() -> None:
    _, frames = _frames(GOLDEN / "daifugo" / "exchange-seed.dfn")
    text = render_text(select(frames, 3, 2))
    assert text.startswith("Daifugo · seed · round 2, ply 3: Chie: 3D")
    assert "Table: Chie: 3♦  (a single 3)" in text
    assert "▶ Ben   heimin" in text and "Aki   daifugo" in text
    assert "Ben to move." in text


def test_show_cli(tmp_path: Path) -> None:
    path = GOLDEN / "caravan" / "disputed-direction.cvn"
    result = runner.invoke(app, ["show", str(path), "--ply", "1"])
    assert result.exit_code == 1  # the record is invalid (its third move)
    assert "ply 1: 4S>A" in result.output and "\x1b" not in result.output
    result = runner.invoke(app, ["show", str(path), "--game", "2", "--no-color"])
    assert result.exit_code == 0
    assert "after" not in result.output.splitlines()[0] and "ply 3: 2C>A" in result.output
    result = runner.invoke(app, ["show", str(path), "--ply", "7"])
    assert result.exit_code == 2 and "plies 0 to 2; the replay stops at an illegal move" in result.output
    result = runner.invoke(app, ["show", str(path), "--game", "2", "--svg", str(tmp_path / "p.svg"),
                                 "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    ET.parse(tmp_path / "p.svg")
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    result = runner.invoke(app, ["show", str(path), "--svg", "-", "--ply", "0"])
    assert result.output.startswith("<svg")
    assert runner.invoke(app, ["show", str(tmp_path / "missing.cvn")]).exit_code == 2
    result = runner.invoke(app, ["show", str(GOLDEN / "daifugo" / "exchange-seed.dfn"), "--round", "2", "--ply", "2"])
    assert result.exit_code == 0 and "round 2, ply 2: Aki -> Chie: 3S 3C" in result.output


# ------------------------------------------------------------------ SVG


def _expected_caravan_cards(state: cv.State) -> Counter:
    want: Counter = Counter()
    for c, caravan in enumerate(state.caravans):
        for i, slot in enumerate(caravan):
            want[(str(slot.card), f"{cv.LETTERS[c]}{i + 1}")] += 1
            for j, face in enumerate(slot.faces):
                want[(str(face), f"{cv.LETTERS[c]}{i + 1}+{j + 1}")] += 1
    for p in (0, 1):
        hand = state.hands[p]
        for card in hand.known:
            want[(str(card), f"hand{p + 1}")] += 1
        want[("?", f"hand{p + 1}")] += hand.unknown or 0
    return want


@pytest.mark.parametrize("name", ["caravan-disputed.cvn", "caravan-rulings.cvn", "caravan-illegal.cvn"])
def test_caravan_svg_shows_every_card(name: str) -> None:
    path = GOLDEN / "annotate" / name
    for annotated in annotate_text(path.read_text(encoding="utf-8"), name):
        for frame in frames_of(annotated):
            svg = render_svg(frame)
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG_NS}svg" and float(root.get("width")) > 0
            assert Counter(shown_cards(svg)) == _expected_caravan_cards(frame.state), frame.title
            values = {t.get("class"): t.text for t in root.iter(f"{SVG_NS}text") if (t.get("class") or "").startswith("value-")}
            assert values == {f"value-{cv.LETTERS[c]}": f"value {frame.state.values[c]}" for c in range(6)}


def test_daifugo_svg_shows_hands_and_table() -> None:
    _, frames = _frames(GOLDEN / "annotate" / "daifugo-rulings.dfn")
    frame = select(frames, 1)  # Aki: 5S JK(5H)
    svg = render_svg(frame)
    cards = shown_cards(svg)
    table = sorted(c for c, where in cards if where == "table")
    assert table == ["5S", "JK"]
    state = frame.state
    for p, name in enumerate(state.names):
        held = sorted(c for c, where in cards if where == f"hand.{name}")
        assert held == sorted(str(c) for c in state.hands[p])
    root = ET.fromstring(svg)
    titles = [t.text for t in root.iter(f"{SVG_NS}title")]
    assert "JK as 5H" in titles


# ------------------------------------------------------------------ HTML replay


def test_replay_page_is_self_contained() -> None:
    _, frames = _frames(GOLDEN / "annotate" / "caravan-disputed.cvn")
    page = replay_page(frames, "t", "s")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    data = json.loads(re.search(r'<script type="application/json" id="frames">(.*?)</script>', page, re.S).group(1))
    assert len(data) == len(frames) == 8
    assert data[1]["move"] == "QD>A1" and data[1]["disputed"] and data[1]["comments"][0].startswith("disputed |")


def _browser_or_skip():
    from cdp import find_chromium, in_ci, require_browser_reason

    reason = require_browser_reason()
    if reason is not None:
        message = f"the HTML replay test needs a headless browser: {reason}"
        if in_ci():
            pytest.fail(message + " (CI must run it: .ci/run installs chromium)")
        pytest.skip(message)
    return find_chromium()


def test_html_replay_in_headless_chromium(tmp_path: Path) -> None:
    executable = _browser_or_skip()
    from cdp import Browser

    _, caravan_frames = _frames(GOLDEN / "annotate" / "caravan-disputed.cvn")
    caravan_page = tmp_path / "caravan.html"
    caravan_page.write_text(replay_page(caravan_frames, "caravan", "test"), encoding="utf-8")
    _, daifugo_frames = _frames(GOLDEN / "annotate" / "daifugo-rulings.dfn", 4)
    daifugo_page = tmp_path / "daifugo.html"
    daifugo_page.write_text(replay_page(daifugo_frames, "daifugo", "test"), encoding="utf-8")
    svg_file = tmp_path / "position.svg"
    svg_file.write_text(render_svg(caravan_frames[3]), encoding="utf-8")

    def board_cards(page) -> list:
        return page.eval("Array.from(document.querySelectorAll('#board g.card'))"
                         ".map(g => [g.dataset.card, g.dataset.where])")

    with Browser(executable) as browser:
        page = browser.page()
        try:
            page.goto(caravan_page.as_uri())
            assert page.eval("window.pitbossReplay.count") == len(caravan_frames)
            assert page.eval("document.body.dataset.frame") == "0"
            assert page.eval("document.getElementById('moves').children.length") == len(caravan_frames)
            # Step through every move with the "next" button; each frame shows its cards.
            for i, frame in enumerate(caravan_frames):
                if i:
                    page.eval("document.getElementById('next').click()")
                assert page.eval("document.body.dataset.frame") == str(i)
                assert Counter(map(tuple, board_cards(page))) == Counter(shown_cards(render_svg(frame)))
                status = page.eval("document.getElementById('status').textContent")
                assert status.endswith(frame.title), status
                notes = page.eval("Array.from(document.querySelectorAll('#notes p')).map(p => p.textContent)")
                assert notes == frame.comments
            # The keyboard, the move list and the slider move too.
            page.key("Home", "Home", 36)
            assert page.eval("document.body.dataset.frame") == "0"
            page.key("ArrowRight", "ArrowRight", 39)
            page.key("ArrowRight", "ArrowRight", 39)
            assert page.eval("document.body.dataset.frame") == "2"
            page.eval("document.getElementById('moves').children[3].click()")
            assert page.eval("window.pitbossReplay.current") == 3
            assert page.eval("document.querySelector('#moves li.current').textContent").startswith("3. 4C>A")
            page.eval("var s = document.getElementById('slider'); s.value = '1'; s.dispatchEvent(new Event('input'))")
            assert page.eval("document.body.dataset.frame") == "1"
            page.eval("window.pitbossReplay.go(3)")
            assert page.eval("document.querySelector('#board svg').getBoundingClientRect().width") > 300
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shot = ARTIFACTS / "replay-caravan-ply-3.png"
            page.screenshot(shot)
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
            # A Daifugo replay, opened at a frame from the address.
            page.goto(daifugo_page.as_uri() + "#5")
            assert page.eval("document.body.dataset.frame") == "5"
            assert page.eval("document.getElementById('notes').textContent").startswith("ruling:")
            page.key("End", "End", 35)
            assert page.eval("document.body.dataset.frame") == str(len(daifugo_frames) - 1)
            page.screenshot(ARTIFACTS / "replay-daifugo-end.png")
            # The SVG on its own renders.
            page.goto(svg_file.as_uri())
            assert page.eval("document.documentElement.getBBox().width") > 300
            assert page.eval("document.querySelectorAll('g.card').length") == len(shown_cards(svg_file.read_text()))
            assert page.errors == [], page.errors
        finally:
            page.close()
