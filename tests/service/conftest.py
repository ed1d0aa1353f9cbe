"""What the service tests share: a database of each kind, a client, a real server.

PostgreSQL comes from ``PITBOSS_TEST_POSTGRES`` (a ``postgresql://`` URL; ``.ci/run``
starts one and exports it) or, outside CI, from Debian's binaries started here as the
``postgres`` user in a temporary folder on a free port. Under CI (``CI`` set) a missing
PostgreSQL fails the tests that need it; elsewhere they are skipped, with the reason.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pg import LocalPostgres, free_port

REPO = Path(__file__).resolve().parents[2]


def _need(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the PostgreSQL tests: .ci/run starts PostgreSQL)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server():
    """The URL of a running PostgreSQL server (its maintenance database)."""
    url = os.environ.get("PITBOSS_TEST_POSTGRES")
    local = None
    if not url:
        try:
            local = LocalPostgres()
            url = local.start()
        except (RuntimeError, OSError, subprocess.SubprocessError) as err:
            _need(f"no PostgreSQL for the tests: {err}")
    try:
        import psycopg

        psycopg.connect(url, connect_timeout=10).close()
    except Exception as err:  # noqa: BLE001 - any failure to connect means no server
        _need(f"PostgreSQL at {url} does not answer: {err}")
    yield url
    if local is not None:
        local.stop()


def fresh_postgres(server_url: str) -> str:
    """A new, empty database on that server; its URL."""
    import psycopg

    name = "pitboss_" + secrets.token_hex(6)
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return re.sub(r"/[^/?]*(\?|$)", f"/{name}\\1", server_url, count=1) if "/" in server_url.split("@")[-1] \
        else f"{server_url}/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh database of each kind."""
    if request.param == "sqlite":
        return str(tmp_path / "pitboss.db")
    return fresh_postgres(request.getfixturevalue("postgres_server"))


@pytest.fixture
def client(db_url):
    from starlette.testclient import TestClient

    from referee.service.app import create_app

    with TestClient(create_app(db_url)) as c:
        yield c


class Server:
    """``pitboss serve`` in a subprocess on a free loopback port."""

    def __init__(self, db: str, *extra: str):
        self.db = db
        self.extra = extra
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> Server:
        import httpx

        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.process = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(self.port),
                                         "--db", self.db, *self.extra], cwd=REPO, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"pitboss serve exited {self.process.returncode}: "
                                   f"{self.process.stderr.read()[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError("pitboss serve did not come up")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(30)


@pytest.fixture
def server_factory():
    started: list[Server] = []

    def make(db: str, *extra: str) -> Server:
        s = Server(db, *extra)
        started.append(s)
        return s.start()

    yield make
    for s in started:
        s.kill()
