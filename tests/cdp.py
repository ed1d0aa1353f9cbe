"""A headless Chromium driven over the DevTools protocol (CDP), for the browser tests.

Chromium is started with its own throw-away profile, no network services and a DevTools
port the browser picks itself; :class:`Page` speaks CDP over the page's websocket (the
``websocket-client`` package) and gathers every console error and uncaught exception.

A navigation is over when its own document has loaded (the ``load`` lifecycle event of the
loader ``Page.navigate`` names), never at the first load event that comes: the previous
document's may still be on its way (the start page's, on a loaded machine), and an
evaluation sent while the new document replaces it fails with "Inspected target
navigated or closed". Such a failure is a :class:`Navigated`, which a caller polling for
a condition (:meth:`Page.until`) takes as "not yet". A page target the browser replaces
(its DevTools connection closed, or ``Inspector.detached``) is attached again, once per
command.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


class Navigated(BrowserError):
    """A command the page could not answer because its document was replaced meanwhile
    (a navigation under way): asked again on the new document, it may well answer."""


#: The events of a page's main frame going to another document, or within its own (a
#: history entry of the same document); a child frame's carry a ``parentId``.
_NAVIGATIONS = ("Page.frameNavigated", "Page.navigatedWithinDocument")

#: How Chromium says that an evaluation's document went away under it.
_NAVIGATED = ("Inspected target navigated or closed", "Execution context was destroyed",
              "Cannot find context with specified id")


class Browser:
    """``with Browser() as b: page = b.page()``"""

    def __init__(self, executable: str, timeout: float = 30.0) -> None:
        self.executable = executable
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="pitboss-chromium-")
        self.process: subprocess.Popen | None = None
        self.port: int | None = None

    def __enter__(self) -> Browser:
        args = [self.executable, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars",
                f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
                "--remote-allow-origins=*", "--window-size=1280,1000", "about:blank"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL)
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
                raise BrowserError(f"chromium exited at start ({self.process.returncode}): {err[-2000:]}")
            if port_file.is_file():
                text = port_file.read_text().split()
                if text:
                    self.port = int(text[0])
                    break
            time.sleep(0.05)
        else:
            self.close()
            raise BrowserError("chromium did not open its DevTools port in time")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self.process is not None and self.process.stderr:
            self.process.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _targets(self) -> list[dict]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=10) as r:
            return json.load(r)

    def page(self) -> Page:
        return Page(self._page_url(), self.timeout, self._page_url)

    def _page_url(self) -> str:
        """The DevTools address of the browser's page (polled until it shows one)."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            pages = [t for t in self._targets() if t.get("type") == "page"]
            if pages:
                return pages[0]["webSocketDebuggerUrl"]
            time.sleep(0.05)
        raise BrowserError("chromium shows no page target")


class Page:
    def __init__(self, ws_url: str, timeout: float, find: Callable[[], str] | None = None) -> None:
        self.timeout = timeout
        #: Where the page target is now (to attach again when the browser replaced it).
        self.find = find
        self.next_id = 0
        self.events: list[dict] = []
        #: Console errors and uncaught exceptions, as text.
        self.errors: list[str] = []
        self._attach(ws_url)

    def _attach(self, ws_url: str) -> None:
        import websocket  # the test extra's websocket-client

        self.ws = websocket.create_connection(ws_url, timeout=self.timeout, suppress_origin=True)
        self.detached = False
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.call("Page.setLifecycleEventsEnabled", enabled=True)

    def _reattach(self, why: BaseException | str) -> None:
        """Attach to the page target again (the browser replaced the one we spoke to)."""
        if self.find is None:
            raise BrowserError(f"the page target went away: {why}")
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - the old connection is gone either way
            pass
        self._attach(self.find())

    def close(self) -> None:
        self.ws.close()

    def _receive(self) -> dict:
        """The next message from the page; a closed connection is :class:`_Detached`."""
        import websocket

        try:
            message = json.loads(self.ws.recv())
        except (websocket.WebSocketConnectionClosedException, ConnectionError) as err:
            raise _Detached(err) from err
        if message.get("method") == "Inspector.detached":
            self.detached = True
        return message

    def _record(self, message: dict) -> None:
        self.events.append(message)
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "exception")
            self.errors.append(f"uncaught: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.errors.append(f"console.{params['type']}: {args}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            self.errors.append(f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}".strip())

    def call(self, method: str, **params: Any) -> dict:
        """The answer to one command. The page target replaced under it (the connection
        closed, or detached): attached again and asked once more."""
        try:
            return self._call(method, params)
        except _Detached as err:
            self._reattach(err)
            return self._call(method, params)

    def _call(self, method: str, params: dict[str, Any]) -> dict:
        if self.detached:
            raise _Detached("Inspector.detached")
        self.next_id += 1
        my_id = self.next_id
        try:
            self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        except (OSError, ConnectionError) as err:
            raise _Detached(err) from err
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = self._receive()
            if message.get("id") == my_id:
                if "error" in message:
                    text = str(message["error"].get("message", message["error"]))
                    kind = Navigated if any(n in text for n in _NAVIGATED) else BrowserError
                    raise kind(f"{method}: {message['error']}")
                return message.get("result", {})
            self._record(message)
            if self.detached:
                raise _Detached("Inspector.detached")
        raise BrowserError(f"{method}: no answer in time")

    def wait_for(self, method: str | tuple[str, ...], timeout: float | None = None,
                 where: Callable[[dict], bool] = lambda params: True) -> dict:
        """The first event ``method`` (or one of them) whose params ``where`` accepts, not
        yet taken."""
        methods = (method,) if isinstance(method, str) else method
        for message in self.events:
            if message.get("method") in methods and where(message.get("params", {})):
                self.events.remove(message)
                return message
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            message = self._receive()
            self._record(message)
            if message.get("method") in methods and where(message.get("params", {})):
                self.events.remove(message)
                return message
        raise BrowserError(f"no {method} in time")

    def goto(self, url: str) -> None:
        """Open ``url`` and wait until its own document has loaded (see the module's note)."""
        self.events.clear()
        answer = self.call("Page.navigate", url=url)
        if answer.get("errorText"):
            raise BrowserError(f"{url}: {answer['errorText']}")
        loader = answer.get("loaderId")
        if loader is None:  # the same document (a fragment): nothing loads
            return
        try:
            self.wait_for("Page.lifecycleEvent",
                          where=lambda p: p.get("name") == "load" and p.get("loaderId") == loader)
        except _Detached as err:  # the browser replaced the target on the way: the new one's load
            self._reattach(err)
            self.until("document.readyState === 'complete'")

    def back(self) -> None:
        """The previous entry of the page's history, as the browser's back button goes
        there (a command of the browser's, not a script racing its own page away); done
        when the page has navigated there (a caller waits for what the page then shows)."""
        history = self.call("Page.getNavigationHistory")
        index = history["currentIndex"] - 1
        if index < 0:
            raise BrowserError("no earlier page in the history")
        entry = history["entries"][index]
        self.events = [e for e in self.events if e.get("method") not in _NAVIGATIONS]
        self.call("Page.navigateToHistoryEntry", entryId=entry["id"])
        self.wait_for(_NAVIGATIONS, where=lambda p: "parentId" not in p.get("frame", {}))

    def eval(self, expression: str) -> Any:
        """The expression's value (a promise awaited). :class:`Navigated` when the page's
        document was replaced while it was evaluated."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result.get("result", {}).get("value")

    def until(self, expression: str, timeout: float | None = None) -> Any:
        """The expression's first truthy value, asked again as each answer comes until it
        is one: a page on its way (a link followed, a navigation committing) answers
        :class:`Navigated`, taken as "not yet"."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            try:
                value = self.eval(expression)
            except Navigated:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"not in time: {expression}")
            time.sleep(0.03)

    def key(self, key: str, code: str, key_code: int) -> None:
        """A real key press (down and up) sent to the page."""
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code,
                      windowsVirtualKeyCode=key_code, nativeVirtualKeyCode=key_code)

    def screenshot(self, path: Path) -> bytes:
        """The viewport as a PNG, written to ``path`` (compressed for speed, not size)."""
        data = base64.b64decode(self.call("Page.captureScreenshot", format="png", optimizeForSpeed=True)["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return data

    def thumbnail(self, width: int, height: int, scale: float) -> Image:
        """The viewport's top-left ``width`` x ``height`` CSS pixels, shot scaled down by
        ``scale`` and decoded (small enough to read pixel by pixel in Python)."""
        data = self.call("Page.captureScreenshot", format="png",
                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": scale})["data"]
        return Image(base64.b64decode(data))

    def viewport(self, width: int, height: int, dark: bool = False, mobile: bool = False) -> None:
        """Emulate a screen of this size (device pixels = CSS pixels) and colour scheme."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=mobile)
        self.call("Emulation.setEmulatedMedia",
                  features=[{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}])


class _Detached(BrowserError):
    """The DevTools connection to the page target closed, or the target detached."""


class Image:
    """A decoded PNG (8-bit grey, RGB or RGBA, not interlaced: what Chromium writes)."""

    def __init__(self, png: bytes) -> None:
        import struct
        import zlib

        if png[:8] != b"\x89PNG\r\n\x1a\n":
            raise ValueError("not a PNG")
        pos, idat, header = 8, b"", None
        while pos < len(png):
            (length,) = struct.unpack(">I", png[pos:pos + 4])
            kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                header = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        if header is None:
            raise ValueError("PNG without a header")
        self.width, self.height, depth, color, _, _, interlace = header
        channels = {0: 1, 2: 3, 6: 4}.get(color)
        if depth != 8 or channels is None or interlace:
            raise ValueError(f"unsupported PNG (depth {depth}, colour type {color}, interlace {interlace})")
        raw = zlib.decompress(idat)
        stride = self.width * channels
        rows: list[bytearray] = []
        prev = bytearray(stride)
        for y in range(self.height):
            start = y * (stride + 1)
            kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = prev[i]
                c = prev[i - channels] if i >= channels else 0
                if kind == 1:
                    line[i] = (line[i] + a) & 255
                elif kind == 2:
                    line[i] = (line[i] + b) & 255
                elif kind == 3:
                    line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            prev = line
        self.rows, self.channels = rows, channels

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        row, i = self.rows[y], x * self.channels
        if self.channels == 1:
            return (row[i], row[i], row[i])
        return (row[i], row[i + 1], row[i + 2])


def require_browser_reason() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if find_chromium() is None:
        return "chromium is not installed (apt-get install -y chromium)"
    try:
        import websocket  # noqa: F401
    except ImportError:
        return "the websocket-client package is missing (pip install -e '.[test]')"
    return None


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
