"""Requests that stall are timed out: a connection that stops mid-header or mid-body (or
never sends a byte) is answered 408 and closed after ``--header-timeout`` /
``--body-timeout``, while a slow body that keeps arriving, a request that took its time
within the limits, a kept-alive connection and an event stream are left alone.

Real stalled sockets on loopback against a real ``pitboss serve``."""

from __future__ import annotations

import base64
import os
import socket
import time

import pytest
from conftest import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(str(tmp_path_factory.mktemp("stalls") / "s.db"), "--header-timeout", "0.5", "--body-timeout", "0.8")
    yield s.start()
    s.kill()


def _connect(server) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return s


def _answer(s: socket.socket) -> bytes:
    """Everything the server sends until it closes (within the socket's timeout)."""
    out = b""
    while True:
        data = s.recv(65536)
        if not data:
            return out
        out += data


@pytest.mark.parametrize("sent", [b"", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ",
                                  b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n[Game "])
def test_a_stalled_request_is_answered_408_and_closed(server, sent):
    s = _connect(server)
    s.sendall(sent)
    t0 = time.monotonic()
    answer = _answer(s)  # the server closes it: recv sees the end (before this socket's 10 s)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert b"not sent in time" in answer
    assert time.monotonic() - t0 < 8
    s.close()


def test_a_slow_body_that_keeps_arriving_is_read(server):
    body = b'[Game "Caravan"]\n'
    s = _connect(server)
    s.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
              b"Content-Length: %d\r\n\r\n" % len(body))
    for i in range(0, len(body), 6):  # 1.2 s in all, more than the body timeout, 0.4 s apart
        time.sleep(0.4)
        s.sendall(body[i:i + 6])
    answer = _answer(s)
    assert answer.startswith(b"HTTP/1.1 200 "), answer


def test_a_kept_alive_connection_is_timed_per_request(server):
    s = _connect(server)
    for _ in range(3):
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = s.makefile("rb")
        assert answer.readline().startswith(b"HTTP/1.1 200 ")
        length = 0
        while (line := answer.readline()) != b"\r\n":
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        assert answer.read(length).startswith(b'{"ok":')
        time.sleep(0.3)  # together longer than the header timeout: each request has its own
    s.close()


def test_an_event_stream_outlives_the_deadlines(server):
    import httpx
    created = httpx.post(server.url + "/v1/tables", json={"game": "caravan", "seats": ["Ann", "Bob"]})
    table = created.json()["id"]
    s = _connect(server)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET /v1/tables/{table}/events HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(65536)
    assert head.startswith(b"HTTP/1.1 101 ")
    time.sleep(1.5)  # past both deadlines
    s.settimeout(0.5)
    try:
        data = s.recv(65536)
        assert data, "the event stream was closed"
    except TimeoutError:
        pass  # nothing to read, and still open
    s.close()
