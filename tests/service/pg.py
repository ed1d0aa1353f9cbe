"""A throw-away PostgreSQL server from Debian's binaries, for the service tests and
``bench/serve.py``: initialised and run as the ``postgres`` user (initdb refuses root) in a
temporary folder on a free loopback port."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalPostgres:
    """A throw-away PostgreSQL cluster (initdb refuses root: it runs as ``postgres``)."""

    def __init__(self) -> None:
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not binaries:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = Path(binaries[-1]).parent
        self.dir = Path(tempfile.mkdtemp(prefix="pitboss-pg-"))
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run(self.prefix + list(args), capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{args[0]} failed: {done.stderr[-1500:] or done.stdout[-1500:]}")

    def start(self) -> str:
        data = self.dir / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        self.resume()
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def halt(self) -> None:
        """Stop the server (fast shutdown: sessions are cut), keeping its data."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server again on its data, on the same port."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-l", str(self.dir / "log"), "-w",
                  "-t", "60", "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                  "-c max_connections=200", "start")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
