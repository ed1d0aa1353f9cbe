"""The web page in a real headless Chromium (tests/cdp.py), at a phone's 412x860: a
spectator watches a table live; a seat plays it with the mouse to the end."""

from __future__ import annotations

import time

import httpx
import pytest


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
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.eval(expression)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not in time: {expression}")


def _click(page, selector: str) -> None:
    """A real mouse click at the middle of the element."""
    box = page.eval(f"(() => {{ const e = document.querySelector({selector!r}); e.scrollIntoView({{block: 'center'}});"
                    f" const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_watch_and_play_with_the_mouse_on_a_phone(db_url, server_factory):
    executable = _browser()
    from cdp import Browser

    server = server_factory(db_url)
    with httpx.Client(base_url=server.url, timeout=30) as c:
        doc = c.post("/v1/tables", json={"game": "caravan", "seats": ["Ann", "Bob"], "seed": 5,
                                         "bots": {"Bob": "greedy"}}).json()
    table_id = doc["id"]
    token = doc["seats"][0]["token"]
    with Browser(executable) as browser:
        page = browser.page()
        page.call("Emulation.setDeviceMetricsOverride", width=412, height=860, deviceScaleFactor=2, mobile=True)
        # the list of tables
        page.goto(server.url + "/")
        assert page.eval(f"document.querySelector('a[href=\"/tables/{table_id}\"]') !== null")
        # a spectator: the table drawn, no hand
        page.goto(f"{server.url}/tables/{table_id}")
        _until(page, "document.querySelector('#picture svg g.card') !== null || "
                     "document.querySelector('#picture svg') !== null")
        assert page.eval("document.getElementById('mine').hidden") is True
        assert "spectator" in page.eval("document.getElementById('status').textContent")
        # the seat: own hand, legal moves highlighted for a picked card, played with the mouse
        page.goto("about:blank")  # a new document (a change of #fragment alone would not load one)
        page.goto(f"{server.url}/tables/{table_id}#token={token}")
        _until(page, "document.querySelectorAll('#legal button').length > 0")
        assert page.eval("document.querySelectorAll('#hand button.card').length") == 8
        assert page.eval("document.documentElement.scrollWidth") <= 412  # nothing wider than the phone
        card = page.eval("document.querySelector('#hand button.card').dataset.card")
        _click(page, "#hand button.card")
        hot = _until(page, "Array.from(document.querySelectorAll('#legal button.hot')).map(b => b.dataset.move)")
        assert all(m.startswith(card) for m in hot)
        moves = 0
        while not page.eval("document.getElementById('result').textContent"):
            _until(page, "document.querySelectorAll('#legal button').length > 0 || "
                         "document.getElementById('result').textContent", 30)
            if page.eval("document.getElementById('result').textContent"):
                break
            before = page.eval("document.getElementById('status').textContent")  # the ply these moves are for
            _click(page, "#legal button")
            _until(page, f"document.getElementById('status').textContent !== {before!r}", 30)
            moves += 1
            assert moves < 400
        assert "Result" in page.eval("document.getElementById('result').textContent")
        assert page.eval("document.querySelectorAll('#picture svg g.card').length") > 0
        assert page.errors == [], page.errors
    with httpx.Client(base_url=server.url, timeout=30) as c:
        assert c.get(f"/v1/tables/{table_id}").json()["status"] == "finished"
