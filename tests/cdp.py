"""A headless Chromium driven over the DevTools protocol (CDP), for the browser tests.

Chromium is started with its own throw-away profile, no network services and a DevTools
port the browser picks itself; :class:`Page` speaks CDP over the page's websocket (the
``websocket-client`` package) and gathers every console error and uncaught exception.
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
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            pages = [t for t in self._targets() if t.get("type") == "page"]
            if pages:
                return Page(pages[0]["webSocketDebuggerUrl"], self.timeout)
            time.sleep(0.05)
        raise BrowserError("chromium shows no page target")


class Page:
    def __init__(self, ws_url: str, timeout: float) -> None:
        import websocket  # the test extra's websocket-client

        self.ws = websocket.create_connection(ws_url, timeout=timeout, suppress_origin=True)
        self.timeout = timeout
        self.next_id = 0
        self.events: list[dict] = []
        #: Console errors and uncaught exceptions, as text.
        self.errors: list[str] = []
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    def close(self) -> None:
        self.ws.close()

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
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv())
            if message.get("id") == my_id:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._record(message)
        raise BrowserError(f"{method}: no answer in time")

    def wait_for(self, method: str, timeout: float | None = None) -> dict:
        for message in self.events:
            if message.get("method") == method:
                self.events.remove(message)
                return message
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv())
            self._record(message)
            if message.get("method") == method:
                self.events.remove(message)
                return message
        raise BrowserError(f"no {method} in time")

    def goto(self, url: str) -> None:
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def eval(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result.get("result", {}).get("value")

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
