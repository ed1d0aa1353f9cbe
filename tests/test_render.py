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
from click.testing import CliRunner

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
    _, frames = _frames(GOLDEN / "daifugo" / "exchange-classic.dfn")
    text = render_text(select(frames, 3, 2))
    assert text.startswith("Daifugo · classic · round 2, ply 3: Chie: 3D")
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
    result = runner.invoke(app, ["show", str(GOLDEN / "daifugo" / "exchange-classic.dfn"), "--round", "2", "--ply", "2"])
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
            values = {t.get("class"): t.text for t in root.iter(f"{SVG_NS}text")
                      if (t.get("class") or "").startswith("value-")}
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


def _page_data(page: str) -> dict:
    """The page's data, each frame's number filled in as the page's script does (it is
    left out where it is the plain ply number)."""
    data = json.loads(re.search(r'<script type="application/json" id="replay">(.*?)</script>', page, re.S).group(1))
    for f in data["frames"]:
        f.setdefault("number", f"{f.get('ply', 0)}.")
    return data


def test_replay_page_is_self_contained() -> None:
    _, frames = _frames(GOLDEN / "annotate" / "caravan-disputed.cvn")
    page = replay_page(frames, "t", "s")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert page.count("<svg") == 1  # positions travel as data, drawn in the page (one template)
    data = _page_data(page)
    assert data["game"] == "caravan" and len(data["frames"]) == len(frames) == 8
    first = data["frames"][1]
    assert first["move"] == "QD>A1" and first["disputed"] and first["number"] == "1."
    # The notes are sentences, not annotate's comment syntax; the rules they cite travel along.
    assert first["notes"][0]["kind"] == "disputed"
    text = first["notes"][0]["text"]
    assert text.startswith("The rule sets disagree about this move: ") and "|" not in text and text.endswith(".")
    assert set(first["notes"][0]["rules"]) <= set(data["rules"])


def test_replay_page_numbers_moves_and_names_movers() -> None:
    _, frames = _frames(ROOT / "examples" / "caravan.cvn", 2)
    data = _page_data(replay_page(frames, "t"))["frames"]
    assert [f["number"] for f in data[1:5]] == ["1.", "1\u2026", "2.", "2\u2026"]
    assert {f["who"] for f in data[1:]} == {"random-1", "random-2"}  # the Player1/Player2 tags
    assert data[1]["who"] != data[2]["who"]
    _, frames = _frames(GOLDEN / "daifugo" / "exchange-classic.dfn")
    data = _page_data(replay_page(frames, "t"))["frames"]
    moved = [f for f in data if f["move"] is not None]
    assert moved and all("who" not in f for f in moved)  # DFN names the mover: "Aki: 3D"


def test_replay_page_says_why_a_move_is_illegal() -> None:
    _, frames = _frames(ROOT / "examples" / "illegal.cvn")
    data = _page_data(replay_page(frames, "t"))
    bad = [f for f in data["frames"] if f.get("illegal")]
    assert len(bad) == 1
    rule, message = bad[0]["why"]
    assert rule in data["rules"] and data["rules"][rule]["text"] and message
    assert bad[0]["notes"][0]["text"].startswith("This move is illegal under ")


def test_svg_outlines_the_last_move() -> None:
    from referee.jobs.render.svg import last_cards

    _, frames = _frames(ROOT / "examples" / "caravan.cvn", 2)
    checked = 0
    for frame in frames[1:30]:
        if isinstance(frame.action, cv.PlayNumber):
            letter = frame.move.split(">")[1]
            place = f"{letter}{len(frame.state.caravans[cv.LETTERS.index(letter)])}"
            assert last_cards(render_svg(frame)) == [(str(frame.action.card), place)], frame.title
            checked += 1
        elif isinstance(frame.action, cv.Attach):
            marked = last_cards(render_svg(frame))
            assert [c for c, _ in marked] == [str(frame.action.card)] or frame.action.card.rank in (0, 11), frame.title
        else:
            assert last_cards(render_svg(frame)) == [], frame.title
    assert checked >= 6
    _, frames = _frames(GOLDEN / "annotate" / "daifugo-rulings.dfn")
    frame = select(frames, 1)  # Aki: 5S JK(5H)
    assert sorted(last_cards(render_svg(frame))) == [("5S", "table"), ("JK", "table")]
    assert last_cards(render_svg(frames[0])) == []


def test_daifugo_match_page_stays_small() -> None:
    """A 10-round self-played match (the record about 15 KB) gives a page of a few hundred KB."""
    from referee.games.daifugo.selfplay import daifugo_matches

    record = next(daifugo_matches(1, seed=3, rounds=10)).text()
    annotated = annotate_text(record, "match.dfn")[0]
    page = replay_page(frames_of(annotated), "match")
    assert len(record.encode()) > 8_000
    assert len(page.encode()) < 400_000, (len(record), len(page))


def _browser_or_skip():
    from cdp import find_chromium, in_ci, require_browser_reason

    reason = require_browser_reason()
    if reason is not None:
        message = f"the HTML replay test needs a headless browser: {reason}"
        if in_ci():
            pytest.fail(message + " (CI must run it: .ci/run installs chromium)")
        pytest.skip(message)
    return find_chromium()


def _board_cards(page) -> list:
    return page.eval("Array.from(document.querySelectorAll('#board g.card'))"
                     ".map(g => [g.dataset.card, g.dataset.where, g.classList.contains('last')])")


def _svg_cards(frame) -> Counter:
    from referee.jobs.render.svg import last_cards

    svg = render_svg(frame)
    last = Counter(last_cards(svg))
    out: Counter = Counter()
    for c in shown_cards(svg):
        marked = last[c] > 0
        if marked:
            last[c] -= 1
        out[(c[0], c[1], marked)] += 1
    return out


def test_html_replay_in_headless_chromium(tmp_path: Path) -> None:
    executable = _browser_or_skip()
    from cdp import Browser

    _, caravan_frames = _frames(GOLDEN / "annotate" / "caravan-disputed.cvn")
    caravan_page = tmp_path / "caravan.html"
    caravan_page.write_text(replay_page(caravan_frames, "caravan", "test"), encoding="utf-8")
    _, daifugo_frames = _frames(GOLDEN / "annotate" / "daifugo-rulings.dfn", 4)
    daifugo_page = tmp_path / "daifugo.html"
    daifugo_page.write_text(replay_page(daifugo_frames, "daifugo", "test"), encoding="utf-8")
    _, illegal_frames = _frames(ROOT / "examples" / "illegal.cvn")
    illegal_page = tmp_path / "illegal.html"
    illegal_page.write_text(replay_page(illegal_frames, "illegal", "test"), encoding="utf-8")
    svg_file = tmp_path / "position.svg"
    svg_file.write_text(render_svg(caravan_frames[3]), encoding="utf-8")

    with Browser(executable) as browser:
        page = browser.page()
        try:
            page.viewport(1280, 800)
            page.goto(caravan_page.as_uri())
            assert page.eval("window.pitbossReplay.count") == len(caravan_frames)
            assert page.eval("window.pitbossReplay.titles") == [f.title for f in caravan_frames]
            assert page.eval("document.body.dataset.frame") == "0"
            assert page.eval("document.getElementById('moves').children.length") == len(caravan_frames)
            # Step through every move with the "next" button; the page draws each frame with
            # the very cards (and last-move outlines) the SVG renderer draws.
            for i, frame in enumerate(caravan_frames):
                if i:
                    page.eval("document.getElementById('next').click()")
                assert page.eval("document.body.dataset.frame") == str(i)
                assert Counter(map(tuple, _board_cards(page))) == _svg_cards(frame), frame.title
                status = page.eval("document.getElementById('status').textContent")
                assert status.startswith(f"Position {i + 1} of {len(caravan_frames)}")
                if frame.move is not None:
                    assert status.endswith(f"{frame.number} {frame.mover}: {frame.move}"), status
                notes = page.eval("Array.from(document.querySelectorAll('#notes p')).map(p => "
                                  "p.firstChild.textContent)")
                assert notes == [n.text for n in frame.notes]
            # The keyboard, the move list and the slider move too.
            page.key("Home", "Home", 36)
            assert page.eval("document.body.dataset.frame") == "0"
            page.key("ArrowRight", "ArrowRight", 39)
            page.key("ArrowRight", "ArrowRight", 39)
            assert page.eval("document.body.dataset.frame") == "2"
            page.eval("document.getElementById('moves').children[3].click()")
            assert page.eval("window.pitbossReplay.current") == 3
            assert page.eval("document.querySelector('#moves li.current').textContent").startswith("2. Player 1: 4C>A")
            page.eval("var s = document.getElementById('slider'); s.value = '1'; s.dispatchEvent(new Event('input'))")
            assert page.eval("document.body.dataset.frame") == "1"
            # A Daifugo replay, opened at a frame from the address; every frame as the SVG draws it.
            page.goto(daifugo_page.as_uri() + "#5")
            assert page.eval("document.body.dataset.frame") == "5"
            assert page.eval("document.getElementById('notes').textContent").startswith("It stands by a ruling")
            assert page.eval("window.pitbossReplay.titles") == [f.title for f in daifugo_frames]
            for i, frame in enumerate(daifugo_frames):
                page.eval(f"window.pitbossReplay.go({i})")
                assert Counter(map(tuple, _board_cards(page))) == _svg_cards(frame), frame.title
                item = page.eval(f"document.getElementById('moves').children[{i}].textContent")
                assert item.startswith(frame.title if frame.move is None else f"{frame.number} {frame.move}"), item
            page.key("End", "End", 35)
            assert page.eval("document.body.dataset.frame") == str(len(daifugo_frames) - 1)
            # An illegal move says why, with the rule's text.
            page.goto(illegal_page.as_uri())
            assert page.eval("window.pitbossReplay.titles") == [f.title for f in illegal_frames]
            bad = next(i for i, f in enumerate(illegal_frames) if f.illegal)
            page.eval(f"window.pitbossReplay.go({bad})")
            assert page.eval("document.getElementById('why').hidden") is False
            why = page.eval("document.getElementById('why').textContent")
            assert illegal_frames[bad].why[1] in why and illegal_frames[bad].why[0] in why
            page.eval("window.pitbossReplay.go(0)")
            assert page.eval("document.getElementById('why').hidden") is True
            # The SVG on its own renders.
            page.goto(svg_file.as_uri())
            assert page.eval("document.documentElement.getBBox().width") > 300
            assert page.eval("document.querySelectorAll('g.card').length") == len(shown_cards(svg_file.read_text()))
            assert page.errors == [], page.errors
        finally:
            page.close()


FELT = (0x1F, 0x5F, 0x3F)


def _near(a: tuple[int, int, int], b: tuple[int, int, int], slack: int = 24) -> bool:
    return all(abs(x - y) <= slack for x, y in zip(a, b))


@pytest.mark.parametrize("record", [("annotate/caravan-disputed.cvn", 1, 3), ("annotate/daifugo-rulings.dfn", 4, 2)],
                         ids=["caravan", "daifugo"])
def test_replay_page_layout(tmp_path: Path, record) -> None:
    """The page at a phone's and a desktop's size, light and dark: the board fills at least
    half the width (a phone: nearly all of it), nothing overflows sideways, the move list
    sits below the board on a phone and beside it on a desktop, the colours follow the
    scheme; the screenshot shows the felt across the board and the page's paper beside it."""
    executable = _browser_or_skip()
    from cdp import Browser

    name, index, frame_no = record
    _, frames = _frames(GOLDEN / name, index)
    path = tmp_path / "page.html"
    path.write_text(replay_page(frames, name, "layout"), encoding="utf-8")
    with Browser(executable) as browser:
        page = browser.page()
        try:
            for width, height in ((412, 860), (1280, 800)):
                for dark in (False, True):
                    _check_layout(page, path, frame_no, width, height, dark, Path(name).stem)
            assert page.errors == [], page.errors
        finally:
            page.close()


def _check_layout(page, path: Path, frame_no: int, width: int, height: int, dark: bool, stem: str) -> None:
    where = (width, height, "dark" if dark else "light")
    phone = width < 600
    page.viewport(width, height, dark=dark, mobile=phone)
    page.goto(path.as_uri() + f"?{width}-{where[2]}#{frame_no}")  # a new load each time (not a hash change)
    assert page.eval("document.body.dataset.frame") == str(frame_no)
    box = page.eval("(() => { const r = document.querySelector('#board svg').getBoundingClientRect();"
                    " const a = document.querySelector('aside').getBoundingClientRect();"
                    " return {top: r.top, width: r.width, height: r.height, bottom: r.bottom,"
                    " right: r.right, asideLeft: a.left, asideTop: a.top,"
                    " scroll: document.documentElement.scrollWidth, inner: window.innerWidth}; })()")
    assert box["inner"] == width, (where, box)
    assert box["scroll"] <= box["inner"], (where, box)  # no sideways scrolling
    assert box["width"] >= width / 2, (where, box)
    if phone:
        assert box["width"] >= 0.9 * width and box["asideTop"] >= box["bottom"], (where, box)
    else:
        assert box["asideLeft"] >= box["right"] and box["width"] >= 800, (where, box)
    paper = page.eval("getComputedStyle(document.body).backgroundColor")
    channels = tuple(int(v) for v in re.findall(r"\d+", paper)[:3])
    assert (sum(channels) / 3 < 80) if dark else (sum(channels) / 3 > 200), (where, paper)
    shot = page.screenshot(ARTIFACTS / f"replay-{stem}-{width}x{height}-{where[2]}.png")
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    scale = 0.25
    image = page.thumbnail(width, height, scale)
    assert (image.width, image.height) == (round(width * scale), round(height * scale)), where
    # The felt shows across the board's middle row (as far as the screen shows it) ...
    middle = min(box["top"] + box["height"] / 2, (box["top"] + height) / 2)
    row = int(middle * scale)
    assert 0 <= row < image.height, (where, box)
    felt = [x for x in range(image.width) if _near(image.pixel(x, row), FELT)]
    assert len(felt) >= image.width / 2, (where, len(felt), image.width)
    # ... and the page's paper at the screen's top right, beside the title.
    assert _near(image.pixel(image.width - 2, 2), channels, 40), (where, image.pixel(image.width - 2, 2), channels)


def test_a_frame_made_by_hand_draws() -> None:
    """The live service builds frames itself (no annotate): the state, the rules, the ply,
    the round, the last move and its mover, and for a table the play on it."""
    from referee.jobs.frame import Frame, TablePlay

    _, frames = _frames(GOLDEN / "annotate" / "daifugo-rulings.dfn")
    shown = select(frames, 1)
    frame = Frame("daifugo", shown.state, "classic", 1, 1, shown.move, "Aki",
                  table=TablePlay(shown.table.player, shown.table.cards, shown.table.joker_as))
    assert sorted(c for c, where in shown_cards(render_svg(frame)) if where == "table") == ["5S", "JK"]
    assert "Table: Aki: 5♠ JK(5H)" in render_text(frame)
    _, frames = _frames(GOLDEN / "annotate" / "caravan-disputed.cvn")
    frame = Frame("caravan", frames[2].state, "holotape", 2, None, frames[2].move, "2")
    assert Counter(shown_cards(render_svg(frame))) == _expected_caravan_cards(frame.state)
    assert "Player 1 to move." in render_text(frame) or "Player 2 to move." in render_text(frame)


# ------------------------------------------------------------------ what a live table draws


def _text_boxes(svg: str) -> list[tuple[float, float, float, float, str]]:
    """Every text of the picture outside the cards, as an estimated box (x0, y0, x1, y1):
    a character about 0.6 of the font size wide (twice that for a wide one)."""
    import unicodedata

    root = ET.fromstring(svg)
    inside = {id(t) for g in root.iter(f"{SVG_NS}g") for t in g.iter(f"{SVG_NS}text")}
    out = []
    for t in root.iter(f"{SVG_NS}text"):
        if id(t) in inside or not t.text:
            continue
        size, x, y = float(t.get("font-size")), float(t.get("x")), float(t.get("y"))
        width = 0.6 * size * sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in t.text)
        anchor = t.get("text-anchor")
        x0 = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
        out.append((x0, y - 0.75 * size, x0 + width, y + 0.2 * size, t.text))
    return out


def _card_boxes(svg: str) -> list[tuple[float, float, float, float, str]]:
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG_NS}g"):
        if "card" in (g.get("class") or "").split():
            x, y = map(float, re.findall(r"[-\d.]+", g.get("transform") or "")[:2])
            rect = g.find(f"{SVG_NS}rect")
            out.append((x, y, x + float(rect.get("width")), y + float(rect.get("height")), g.get("data-card") or ""))
    return out


def _overlaps(svg: str) -> list[tuple[str, str]]:
    """Texts that run into another text or into a card."""
    texts, cards = _text_boxes(svg), _card_boxes(svg)
    hit = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:] + cards:
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                hit.append((a[4], b[4]))
    return hit


@pytest.mark.parametrize("path", ["annotate/caravan-disputed.cvn", "annotate/caravan-rulings.cvn",
                                  "daifugo/exchange-classic.dfn", "annotate/daifugo-rulings.dfn"])
def test_no_label_runs_into_another_or_into_a_card(path: str) -> None:
    for annotated in annotate_text((GOLDEN / path).read_text(encoding="utf-8"), path):
        for frame in frames_of(annotated):
            assert _overlaps(render_svg(frame)) == [], frame.title


def _live(game: str, seats: list[str], moves: int):
    """A live table of ``game`` (its ``live`` part) after ``moves`` of the greedy bot's moves."""
    from referee.jobs import registry

    live = registry.game(game).live.get()
    match = live.open(live.create({"game": game, "seats": seats, "seed": 11, "bots": {}}))
    for i in range(moves):
        match.commit(match.bot_move(match.movers()[0], "greedy", i))
    return match


def test_a_live_caravan_frame_shows_what_its_reader_may_see() -> None:
    from referee.jobs.render.svg import counts, last_cards

    match = _live("caravan", ["Ann", "Bob with a rather long name"], 9)
    sizes = [len(h.known) + (h.unknown or 0) for h in match.state.hands]
    for reader in (0, 1, None):
        svg = render_svg(match.frame(reader))
        shown = Counter(shown_cards(svg))
        for p in (0, 1):
            where = f"hand{p + 1}"
            if p == reader:
                assert sorted(c for (c, w), n in shown.items() if w == where for _ in range(n)) == \
                    sorted(map(str, match.state.hands[p].known))
            else:  # face down, and counted
                assert shown[("?", where)] == sizes[p] and (where, sizes[p]) in counts(svg)
        root = ET.fromstring(svg)
        sides = [t.text for t in root.iter(f"{SVG_NS}text") if t.get("class") == "side"]
        assert any("Ann" in s for s in sides) and any("Bob with a rather long name" in s for s in sides)
        assert not any("Player" in s for s in sides)
        # the reader's own side is drawn nearest (lowest)
        ys = {w: float(re.findall(r"[-\d.]+", g.get("transform"))[1]) for g in root.iter(f"{SVG_NS}g")
              for w in [g.get("data-where")] if w in ("hand1", "hand2")}
        assert (ys["hand2"] > ys["hand1"]) == (reader == 1)
        last = match.public[-1]
        if ">" in last and not last.split(">")[1][1:]:
            assert [c for c, _ in last_cards(svg)] == [last.split(">")[0]]
        assert _overlaps(svg) == []


def test_a_live_daifugo_frame_shows_what_its_reader_may_see() -> None:
    from referee.jobs.render.svg import counts

    match = _live("daifugo", ["Aki", "Ben", "Chie", "Dai", "Eri-who-has-a-long-name"], 7)
    for reader in (0, None):
        svg = render_svg(match.frame(reader))
        shown = Counter(shown_cards(svg))
        for p, name in enumerate(match.seats):
            held = len(match.state.hands[p])
            if p == reader:
                assert shown[("?", f"hand.{name}")] == 0 and (f"hand.{name}", held) not in counts(svg)
            else:
                assert shown[("?", f"hand.{name}")] == held and (f"hand.{name}", held) in counts(svg)
        root = ET.fromstring(svg)
        moved = [r for r in root.iter(f"{SVG_NS}rect") if r.get("class") == "moved"]
        assert len(moved) == 1
        assert _overlaps(svg) == []
