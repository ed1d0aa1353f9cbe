"""The live page in a real headless Chromium (tests/cdp.py), at a phone's 412x860 and a
desktop's 1280x800, light and dark: a player starts a table from the lobby, opens a seat
by its link and plays a Caravan game and a Daifugo round to the end screen by clicking
cards and the places they go, against the server's bots; what is visible is asserted on
the way (hidden hands as card backs with their count, the last move outlined, whose turn
it is, one count of progress, the hand and the moves on screen without scrolling, the
winner). Screenshots go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE, DESKTOP = (412, 860), (1280, 800)
LOOKS = [(PHONE, False), (PHONE, True), (DESKTOP, False), (DESKTOP, True)]


def _browser():
    from cdp import find_chromium, in_ci, require_browser_reason

    reason = require_browser_reason()
    if reason is not None:
        message = f"the page test needs a headless browser: {reason}"
        if in_ci():
            pytest.fail(message + " (CI must run it: .ci/run installs chromium)")
        pytest.skip(message)
    return find_chromium()


def _until(page, expression: str, timeout: float = 20.0):
    from cdp import BrowserError

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = page.eval(expression)
        except BrowserError:  # a page on its way (a link followed): ask the next one
            value = None
        if value:
            return value
        time.sleep(0.03)
    raise AssertionError(f"not in time: {expression}")


#: A point inside the element where a click reaches it (or a target inside it): the
#: element's own box, scanned until ``elementFromPoint`` lands on it (cards overlap).
_POINT = """(() => {
  const e = %s;
  if (!e) return null;
  e.scrollIntoView({block: 'nearest'});
  const r = e.getBoundingClientRect();
  for (const fy of [0.5, 0.1, 0.3, 0.7, 0.9]) for (const fx of [0.5, 0.25, 0.75, 0.1]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === e || e.contains(hit)) && (!e.classList.contains('target') || hit.closest('.target') === e))
      return [x, y];
  }
  return null;
})()"""


def _click(page, element_js: str) -> None:
    """A real mouse click on the element ``element_js`` evaluates to."""
    point = _until(page, _POINT % element_js)
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=point[0], y=point[1], button="left", clickCount=1)


def _q(selector: str) -> str:
    return f"document.querySelector({selector!r})"


def _look(page, size: tuple[int, int], dark: bool) -> None:
    page.viewport(size[0], size[1], dark=dark, mobile=size[0] < 600)
    page.eval("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _shot(page, name: str, size: tuple[int, int], dark: bool) -> Path:
    path = ARTIFACTS / f"page-{name}-{size[0]}x{size[1]}-{'dark' if dark else 'light'}.png"
    assert page.screenshot(path)[:8] == b"\x89PNG\r\n\x1a\n"
    return path


def _on_screen(page, selector: str) -> bool:
    """Is the element wholly inside the viewport, as the page is (no scrolling)?"""
    return page.eval(f"(() => {{ const e = {_q(selector)}; if (!e) return false; const r = e.getBoundingClientRect();"
                     " return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5"
                     " && r.right <= innerWidth + 0.5; })()")


def _check_layout(page, size: tuple[int, int], dark: bool, playing: bool) -> None:
    where = (size, dark)
    assert page.eval("document.documentElement.scrollWidth") <= size[0], where  # nothing wider than the screen
    assert page.eval("document.scrollingElement.scrollTop") == 0, where
    assert _on_screen(page, "#banner") and _on_screen(page, "#picture svg"), where
    if playing:
        assert _on_screen(page, "#hand"), where
        assert _on_screen(page, "#legal button.move") or not page.eval(_q("#legal button.move") + " !== null"), where
    background = page.eval("getComputedStyle(document.body).backgroundColor")
    grey = sum(int(v) for v in re.findall(r"\d+", background)[:3]) / 3
    assert grey < 80 if dark else grey > 200, (where, background)


#: What the page shows, read in one go: the picture's cards by where they lie (faces and
#: backs), its counts of hidden cards, the last move's outlines, its names, its (hidden)
#: heading; the banner and the status line.
_SNAPSHOT = """(() => {
  const pic = document.querySelector('#picture svg'), text = (sel) => (pic.querySelector(sel) || {}).textContent;
  const by = (sel) => { const out = {}; pic.querySelectorAll(sel).forEach((g) => {
    out[g.dataset.where] = (out[g.dataset.where] || 0) + 1; }); return out; };
  const counts = {};
  pic.querySelectorAll('g.count').forEach((g) => {
    counts[g.dataset.where] = [Number(g.dataset.count), g.textContent]; });
  return {backs: by('g.card.back'), faces: by('g.card:not(.back)'), counts,
    last: Array.from(pic.querySelectorAll('g.card.last')).map((g) => [g.dataset.card, g.dataset.where]),
    moved: pic.querySelectorAll('rect.moved').length,
    sides: Array.from(pic.querySelectorAll('text.side')).map((t) => t.textContent),
    heading: text('text.heading'), over: text('text.over') || null,
    banner: document.getElementById('banner').className,
    bannerText: document.getElementById('banner-text').textContent,
    status: document.getElementById('status').textContent};
})()"""


class Table:
    """One seat's page (``page``) at a table on ``server``, and the public view."""

    def __init__(self, page, server, table_id: str, seat: str):
        self.page, self.server, self.id, self.seat = page, server, table_id, seat
        self.shots: list[Path] = []

    def public(self) -> dict:
        return httpx.get(f"{self.server.url}/v1/tables/{self.id}", timeout=30).json()

    def wait_turn(self) -> str:
        """Until the seat may move (the picture of this very position drawn) or the end."""
        return _until(self.page, "(() => { const b = document.body.dataset;"
                                 " if (b.picture !== b.ply) return null;"
                                 " if (b.status === 'finished' && document.getElementById('result').hidden === false)"
                                 "   return 'end';"
                                 " return document.querySelector('#hand button.card[data-usable], #legal button.move')"
                                 "   ? 'turn' : null; })()", 30)

    def move(self, choose) -> None:
        ply = self.page.eval("document.body.dataset.ply")
        choose(self)
        _until(self.page, f"document.body.dataset.ply !== {ply!r} || document.getElementById('error').textContent")
        assert self.page.eval("document.getElementById('error').textContent") == ""

    def pick(self) -> str:
        """Click the first card of the hand that has a move; the moves narrow to it."""
        card = self.page.eval(_q("#hand button.card[data-usable]") + ".dataset.card")
        _click(self.page, _q(f'#hand button.card[data-card="{card}"]'))
        _until(self.page, _q(f'#hand button.card.picked[data-card="{card}"]') + " !== null")
        shown = self.page.eval("Array.from(document.querySelectorAll('#legal button.move:not(.quiet)'))"
                               ".map(b => b.dataset.move)")
        assert shown and all(card in re.split(r"[\s:>()]+", m) for m in shown), (card, shown)
        return card

    def checkpoint(self, name: str, playing: bool, keep: tuple[tuple[int, int], bool], looks=LOOKS) -> None:
        """Each look (both sizes, light and dark): the layout holds; a screenshot each."""
        for size, dark in looks:
            _look(self.page, size, dark)
            _check_layout(self.page, size, dark, playing)
            self.shots.append(_shot(self.page, name, size, dark))
        _look(self.page, *keep)

    def snapshot(self) -> tuple[dict, dict]:
        """What the page shows now, and the public view of the table."""
        return self.page.eval(_SNAPSHOT), self.public()

    @staticmethod
    def progress(shown: dict, view: dict) -> None:
        """One count of progress: the status line's move number is the view's, and the
        picture's own (hidden) heading counts the same moves."""
        count = view.get("round_ply", view["ply"])
        assert f"move {count}" in shown["status"], (shown["status"], view["ply"])
        if view.get("round") is not None:  # a contest's rounds are its games
            word = "game" if view.get("contest") else "round"
            assert f"{word} {view['round']}" in shown["status"], shown["status"]
        heading = shown["heading"]
        assert (f"ply {count}:" in heading) if count else "start" in heading, (heading, count)


def _start_from_the_lobby(page, server, game: str, seats: list[tuple[str, str]], seed: int, look,
                          shoot: bool, before=None) -> tuple[str, str]:
    """Fill the lobby's form (``seats``: name, and "human" or a bot style; ``before``
    first tries the form another way), start the table; the lobby then lists it (with no
    token) and shows a link per seat, and the first person's link opens that seat's page.
    ``shoot``: the lobby at every look too. (table id, seat name)"""
    page.goto(server.url + "/")
    _look(page, *look)
    page.eval(f"(() => {{ const g = document.getElementById('game'); g.value = {game!r};"
              " g.dispatchEvent(new Event('change')); })()")
    if before is not None:
        before(page)
    while page.eval("document.getElementById('seats').children.length") < len(seats):
        _click(page, _q("#add-seat"))
    while page.eval("document.getElementById('seats').children.length") > len(seats):
        _click(page, "document.querySelector('#seats .seatrow:last-child button')")
    for i, (name, kind) in enumerate(seats):
        page.eval(f"(() => {{ const row = document.getElementById('seats').children[{i}];"
                  f" row.querySelector('.seat-name').value = {name!r};"
                  f" row.querySelector('.seat-kind').value = {kind!r};"
                  " })()")
    page.eval(f"document.getElementById('seed').value = '{seed}'")  # the same deal every run
    _click(page, _q("#start"))
    _until(page, "document.getElementById('created').hidden === false")
    assert page.eval("document.getElementById('create-error').textContent") == ""
    links = page.eval("Array.from(document.querySelectorAll('#links .seatlink')).map(d => [d.dataset.seat,"
                      " (d.querySelector('a.play') || {}).href || null])")
    assert [name for name, _ in links] == [name for name, _ in seats]
    humans = [(name, link) for name, link in links if link]
    assert [n for n, _ in humans] == [n for n, kind in seats if kind == "human"]
    table_id = page.eval(_q("#links a.watch") + ".textContent")
    # the lobby lists the new table; its list and the API's never hold a token
    _until(page, f"document.querySelector('#rows a[href=\"/tables/{table_id}\"]') !== null")
    token = humans[0][1].split("#token=")[1]
    assert token not in page.eval("document.getElementById('tables').innerHTML")
    assert token not in httpx.get(server.url + "/", timeout=30).text
    assert token not in httpx.get(server.url + "/v1/tables", timeout=30).text
    if shoot:
        assert page.eval("document.getElementById('new').hidden") is True  # the links in the form's place
        for size, dark in LOOKS:  # nothing cut off, on a phone too
            _look(page, size, dark)
            page.eval("scrollTo(0, 0)")
            assert page.eval("document.documentElement.scrollWidth") <= size[0], size
            _shot(page, f"lobby-{game}", size, dark)
        _look(page, *look)
    # the seat's link: a click, and the table page opens for that seat
    name = humans[0][0]
    _click(page, f"document.querySelector('#links .seatlink[data-seat=\"{name}\"] a.play')")
    _until(page, "location.pathname.startsWith('/tables/') && document.getElementById('seat') !== null"
                 " && document.getElementById('seat').textContent !== ''")
    assert page.eval("document.getElementById('seat').textContent") == f"you are {name}"
    return table_id, name


def _unexpected(errors: list[str]) -> list[str]:
    """The browser's errors but the one a refused table logs (its 422 answer)."""
    return [e for e in errors if not ("status of 422" in e and e.endswith("/v1/tables"))]


def _refused_first(page) -> None:
    """The form another way first: a rule set that seats five offers five and no more;
    two seats of one name are refused, saying why."""
    page.eval("(() => { const r = document.getElementById('rules'); r.value = 'uecda';"
              " r.dispatchEvent(new Event('change')); })()")
    assert page.eval("document.getElementById('seats').children.length") == 5
    assert page.eval("document.getElementById('add-seat').hidden") is True
    page.eval("document.querySelector('#seats .seat-name').value = 'Ben'")  # Ben twice
    _click(page, _q("#start"))
    assert "different names" in _until(page, "document.getElementById('create-error').textContent")
    page.eval("(() => { const r = document.getElementById('rules'); r.value = r.options[0].value;"
              " r.dispatchEvent(new Event('change')); })()")


# ------------------------------------------------------------------ Caravan


def _caravan_move(t: Table) -> None:
    card = t.pick()
    if t.page.eval(_q("#picture .target") + " !== null"):
        before = t.page.eval("Array.from(document.querySelectorAll('#picture .target')).map(e => e.dataset.caravan"
                             " || e.dataset.where)")
        _click(t.page, _q("#picture .target"))
        assert before, card
    else:  # no place on the table: a discard
        _click(t.page, _q("#legal button.move:not(.quiet)"))


def _caravan_checks(t: Table, looked: dict) -> None:
    shown, view = t.snapshot()
    # the other hand: card backs and their count, as the API counts them
    me = [s["name"] for s in view["seats"]].index(t.seat)
    other = f"hand{2 - me}"
    backs = shown["backs"].get(other, 0)
    assert backs == view["seats"][1 - me]["cards"] and shown["counts"][other] == [backs, f"\u00d7{backs}"], \
        (shown, view["seats"])
    assert shown["faces"].get(f"hand{me + 1}") == view["seats"][me]["cards"] and f"hand{me + 1}" not in shown["backs"]
    # the seats by name, never "Player 1/2"
    sides = shown["sides"]
    assert any(t.seat in s for s in sides) and not any("Player" in s for s in sides), sides
    # whose turn: the banner says so in the turn's colour, the picture marks the side
    assert shown["banner"] == "mine" and shown["bannerText"].startswith(f"Your turn, {t.seat}"), shown
    assert any(s.startswith("\u25b6 " + t.seat) for s in sides), sides
    t.progress(shown, view)
    # the last move (the bot's) outlined where it went
    last = view["moves"][-1] if view["moves"] else ""
    placed = re.fullmatch(r"(\S+?)>([A-F])(\d*)", last)
    marked = shown["last"]
    if placed and (marked or not placed.group(3)):  # a face card that took cards away leaves none to mark
        assert [c for c, _ in marked] == [placed.group(1)] and marked[0][1].startswith(placed.group(2)), (last, marked)
        looked["last"] = looked.get("last", 0) + 1
    elif not placed:  # a discard or a disband: nothing of it on the table
        assert marked == [], (last, marked)


def _play_caravan(page, server, look, shoot: bool, seed: int = 5) -> Table:
    table_id, seat = _start_from_the_lobby(page, server, "caravan", [("Ann", "human"), ("Bob", "greedy")], seed, look,
                                           shoot)
    t = Table(page, server, table_id, seat)
    _look(page, *look)
    looked: dict = {}
    moves = 0
    while t.wait_turn() == "turn":
        _caravan_checks(t, looked)
        if moves == 0 and shoot:
            t.pick()
            assert page.eval("document.querySelectorAll('#picture .target').length") > 0  # where it may go, lit
            t.checkpoint("caravan-start", True, look)
            _click(page, _q("#hand button.card.picked"))  # put it back
        elif moves == 6 and shoot:
            t.checkpoint("caravan-mid", True, look, LOOKS[1:3])
        t.move(_caravan_move)
        moves += 1
        assert moves < 200
    assert looked.get("last", 0) > 0  # the bot's plays were outlined
    _the_end_of_caravan(t)
    if shoot:
        t.checkpoint("caravan-end", False, look)
    return t


def _the_end_of_caravan(t: Table) -> None:
    page, view = t.page, t.public()
    assert view["status"] == "finished"
    winner = view["result"]["winner"]
    assert page.eval("document.getElementById('mine').hidden") is True
    assert page.eval("document.getElementById('banner-text').textContent") == f"Game over \u2014 {winner} wins"
    box = page.eval("document.getElementById('result').innerText")
    assert f"{winner} wins" in box and ("You won." if winner == t.seat else "You lost.") in box
    names = [s["name"] for s in view["seats"]]
    a, b = view["result"]["score"].split("-")
    assert f"{names[0]} {a} \u2013 {b} {names[1]}" in box
    for lane in view["result"]["lanes"]:
        assert f"{lane['lane']}\t{lane['holder'] or 'nobody'}" in box, box
    assert page.eval(_q("#picture svg text.over") + ".textContent") == f"Game over: {winner} won"
    assert page.eval("document.querySelectorAll('#picture g.card.back').length") == 0  # all shown at the end
    _record_and_replay(t)


def _record_and_replay(t: Table) -> None:
    page = t.page
    record = page.eval(_q("#result a.record") + ".href")
    replay = page.eval(_q("#result a.replay") + ".href")
    text = httpx.get(record, timeout=30).text
    from helpers import record_valid

    assert record_valid(text), text[:400]
    _click(page, _q("#result a.replay"))
    _until(page, "window.pitbossReplay !== undefined && window.pitbossReplay.count > 1", 30)
    assert page.eval("location.href").startswith(replay)
    page.back()  # the browser's back, not a script of the page racing its own replacement
    _until(page, "document.body.dataset.status === 'finished' && document.getElementById('result').hidden === false")


def _played(server, play, look, **options) -> tuple[Table, list[str]]:
    """``play`` (a game from the lobby to its end) in a fresh Chromium; the table, and
    the errors the browser logged."""
    executable = _browser()
    from cdp import Browser

    with Browser(executable) as browser:
        page = browser.page()
        return play(page, server, look, **options), list(page.errors)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_caravan_game_from_the_lobby_to_the_end_screen(db_url, server_factory):
    """Played on a phone, dark; the lobby, the first position, a later one and the end
    also at the other looks."""
    server = server_factory(db_url)
    t, errors = _played(server, _play_caravan, (PHONE, True), shoot=True)
    assert len(t.shots) == 10
    assert errors == [], errors
    with httpx.Client(base_url=server.url, timeout=30) as c:
        assert c.get(f"/tables/{t.id}/replay").status_code == 200


# ------------------------------------------------------------------ Daifugo


def _daifugo_move(t: Table) -> None:
    if t.page.eval(_q("#hand button.card[data-usable]") + " === null"):
        _click(t.page, _q("#legal button.move.quiet"))  # nothing to play: pass
        return
    t.pick()
    combos = t.page.eval("document.querySelectorAll('#legal button.move:not(.quiet)').length")
    if combos == 1:  # one way to play it: the lit table takes it
        _click(t.page, _q("#picture rect.table.target"))
    else:
        _click(t.page, _q("#legal button.move:not(.quiet)"))


def _daifugo_checks(t: Table, looked: dict, spectator: bool = False) -> None:
    shown, view = t.snapshot()
    for s in view["seats"]:
        where = f"hand.{s['name']}"
        backs, faces = shown["backs"].get(where, 0), shown["faces"].get(where, 0)
        count = shown["counts"].get(where, [0, ""])
        if s["name"] == t.seat and not spectator:
            assert (faces, backs, count[0]) == (s["cards"], 0, 0), s
        elif s["cards"]:
            assert (faces, backs, count) == (0, s["cards"], [s["cards"], f"\u00d7{s['cards']}"]), (s, shown)
        else:  # gone out: "no cards", no count
            assert (faces, backs, count) == (0, 0, [0, ""]), (s, shown)
    if spectator:
        return
    assert shown["banner"] == "mine" and shown["bannerText"].startswith(f"Your turn, {t.seat}"), shown
    t.progress(shown, view)
    # the last move: its mover's row outlined, a play's cards on the table outlined too
    round_ply = view["round_ply"]
    assert shown["moved"] == (1 if round_ply else 0), (round_ply, shown["moved"])
    on_table = [card for card, _ in shown["last"]]
    trick = view["table"]["trick"]
    last = view["moves"][-1] if view["moves"] and round_ply else ""
    if trick and last and not last.endswith(": pass") and trick["by"] == last.split(":")[0]:
        assert sorted(on_table) == sorted(c.split("(")[0] for c in trick["cards"]), (on_table, trick)
        looked["last"] = looked.get("last", 0) + 1
    else:
        assert on_table == [], (on_table, last)


def _play_daifugo(page, server, look, shoot: bool, seed: int = 3) -> Table:
    seats = [("Aki", "human"), ("Ben", "greedy"), ("Chie", "random"), ("Dai", "greedy"), ("Eri", "random")]
    # a table of eight with long names already listed: the list wraps them on a phone
    httpx.post(f"{server.url}/v1/tables", json={"game": "daifugo", "seats": [f"Long-name-number-{i}-of-eight"
                                                                             for i in range(8)]}, timeout=30)
    table_id, seat = _start_from_the_lobby(page, server, "daifugo", seats, seed, look, shoot, _refused_first)
    t = Table(page, server, table_id, seat)
    _look(page, *look)
    # a spectator first: every hand is card backs with its count
    link = page.eval("location.href")
    page.goto("about:blank")
    page.goto(f"{server.url}/tables/{table_id}")
    _until(page,
           "document.body.dataset.picture !== undefined && document.body.dataset.picture === document.body.dataset.ply")
    assert page.eval("document.getElementById('mine').hidden") is True
    assert "spectator" in page.eval("document.getElementById('status').textContent")
    _daifugo_checks(t, {}, spectator=True)
    page.goto("about:blank")
    page.goto(link)
    _until(page, "document.getElementById('seat').textContent === 'you are Aki'")
    looked: dict = {}
    moves = 0
    while t.wait_turn() == "turn":
        _daifugo_checks(t, looked)
        if moves == 0 and shoot:
            t.pick()
            t.checkpoint("daifugo-start", True, look)
            _click(page, _q("#hand button.card.picked"))
        elif moves == 3 and shoot:
            t.checkpoint("daifugo-mid", True, look, LOOKS[1:3])
        t.move(_daifugo_move)
        moves += 1
        assert moves < 200
    assert looked.get("last", 0) > 0
    view = t.public()
    assert view["status"] == "finished"
    order = view["result"]["rounds"][-1]["finish"]
    titles = view["result"]["rounds"][-1]["titles"]
    banner = page.eval("document.getElementById('banner-text').textContent")
    assert banner.startswith(f"Game over \u2014 {order[0]} is ")
    box = page.eval("document.getElementById('result').innerText")
    for place, name in enumerate(order, start=1):
        assert re.search(rf"{place}\w\w\t{name}\t{titles[name]}", box), (place, name, box)
    assert page.eval("document.querySelectorAll('#picture g.card.back').length") == 0
    _record_and_replay(t)
    if shoot:
        t.checkpoint("daifugo-end", False, look)
    return t


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_daifugo_round_from_the_lobby_to_the_end_screen(db_url, server_factory):
    """Played on a desktop, light; the lobby, the first position, a later one and the end
    also at the other looks. The lobby lists a table of long names without cutting it
    off on a phone, and refuses a table saying why. A spectator sees every hand as card
    backs with its count."""
    server = server_factory(db_url)
    t, errors = _played(server, _play_daifugo, (DESKTOP, False), shoot=True)
    assert len(t.shots) == 10
    assert _unexpected(errors) == [], errors


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_contest_table_watched_live(db_url, server_factory, tmp_path):
    """Five contest clients over the UEC protocol; a spectator watches the second game
    (held still while it looks): every hand as card backs with its count, the game and
    the move counted once; then the end in words, the winner on points."""
    executable = _browser()
    import threading

    from cdp import Browser
    from pg import free_port

    from referee.games.daifugo.uecda.contest.client import Client

    class Held(Client):
        """Waits for ``gate`` before its first table of the second game."""

        def send_table(self, cells: list[int]) -> None:
            if self.stats.games == 2 and not gate.is_set():
                gate.wait(60)
            super().send_table(cells)

    gate = threading.Event()
    port = free_port()
    server = server_factory(db_url, "--uecda", str(port), "--uecda-games", "2", "--uecda-seed", "11",
                            "--uecda-timeout", "60", "--uecda-logs", str(tmp_path / "logs"))
    names = ["Aki", "Ben", "Chie", "Dai", "Eri"]
    clients = [(Held if i == 0 else Client)("127.0.0.1", port, n, seed=i, deadline=120) for i, n in enumerate(names)]
    threads = []
    try:
        for c in clients:
            threads.append(threading.Thread(target=c.run, daemon=True))
            threads[-1].start()
            deadline = time.monotonic() + 10
            while not c.stats.numbers and time.monotonic() < deadline:
                time.sleep(0.005)
        with Browser(executable) as browser:
            page = browser.page()
            listed: list = []
            deadline = time.monotonic() + 30
            while not listed and time.monotonic() < deadline:
                listed = httpx.get(server.url + "/v1/tables", timeout=30).json()["tables"]
            t = Table(page, server, listed[0]["id"], "")
            seen, deadline = None, time.monotonic() + 30
            while time.monotonic() < deadline:  # the second game, held still
                view = t.public()
                if view["contest"]["games_done"] == 1 and view["ply"] == seen:
                    break
                seen = view["ply"] if view["contest"]["games_done"] == 1 else None
                time.sleep(0.2)
            for size, dark in ((PHONE, False), (DESKTOP, True)):
                _look(page, size, dark)
                page.goto(f"{server.url}/tables/{t.id}?{size[0]}")
                _until(page, "document.body.dataset.picture !== undefined && "
                             "document.body.dataset.picture === document.body.dataset.ply")
                _daifugo_checks(t, {}, spectator=True)
                shown, view = t.snapshot()
                assert "contest table 1, game 2 of 2" in shown["status"] and "spectator" in shown["status"]
                t.progress(shown, view)
                assert shown["bannerText"] == (f"{view['to_move']} to move" if view["to_move"]
                                               else "Card exchange: waiting for the other players"), shown
                _check_layout(page, size, dark, playing=False)
                t.shots.append(_shot(page, "contest-live", size, dark))
            gate.set()
            _until(page, "document.body.dataset.status === 'finished' && document.body.dataset.picture === "
                         "document.body.dataset.ply", 60)
            view = t.public()
            points = view["result"]["points"]
            best = names[max(range(5), key=lambda i: (points[i], -i))]
            assert page.eval("document.getElementById('banner-text').textContent") == \
                f"Game over \u2014 {best} wins on points"
            box = page.eval("document.getElementById('result').innerText")
            assert "Points: " + " \u00b7 ".join(f"{n} {p}" for n, p in zip(names, points)) in box, box
            assert page.eval("document.querySelectorAll('#picture g.card.back').length") == 0
            t.shots.append(_shot(page, "contest-end", DESKTOP, True))
            assert page.errors == [], page.errors
    finally:
        gate.set()
        for th in threads:
            th.join(30)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_pages_are_self_contained_and_ship(client) -> None:
    """The lobby and a table's page carry their styles and scripts (from referee/, which
    the wheel takes whole) and allow nothing but this server; the lobby's form knows
    every game that plays live, with its rule sets, without naming one in the service."""
    import json
    import tomllib

    from referee.jobs import registry
    from referee.service import page

    root = Path(__file__).resolve().parents[2]
    wheel = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert "referee" in wheel["only-include"] and page.STATIC.parent == root / "referee" / "service"
    doc = client.post("/v1/tables", json={"game": "caravan", "seats": ["Ann", "Bob"]}).json()
    for html in (client.get("/").text, client.get(f"/tables/{doc['id']}").text):
        assert "Content-Security-Policy" in html and "default-src 'none'" in html and "connect-src 'self'" in html
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
        assert doc["seats"][0]["token"] not in html
    config = json.loads(re.search(r'<script type="application/json" id="config">(.*?)</script>',
                                  client.get("/").text).group(1))
    offered = {g["name"]: g for g in config["games"]}
    assert set(offered) == {g.name for g in registry.games() if g.live is not None}
    for name, g in offered.items():
        assert [r["name"] for r in g["rule_sets"]] == list(registry.game(name).rule_sets)
        assert all(g["seats"][r["name"]] for r in g["rule_sets"])  # every rule set seats someone
    assert client.get(f"/tables/{doc['id']}/replay").status_code == 409  # not finished yet
    assert client.get("/tables/nope/replay").status_code == 404


@pytest.mark.slow
@pytest.mark.parametrize("look", LOOKS, ids=lambda x: f"{x[0][0]}-{'dark' if x[1] else 'light'}")
@pytest.mark.parametrize("game", ["caravan", "daifugo"])
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_every_game_at_every_look(db_url, server_factory, game, look):
    """The whole game played at each size and scheme (the default run plays each once)."""
    server = server_factory(db_url)
    play = _play_caravan if game == "caravan" else _play_daifugo
    _, errors = _played(server, play, look, shoot=False, seed=100 + LOOKS.index(look))  # another deal at each look
    assert _unexpected(errors) == [], errors
