"""A program the arena plays through: started in its own process group (so that killing
it kills whatever it started), read line by line with a deadline, killed on demand.

Used for the line-protocol bots (``protocol``) and the contest clients (``contest``).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from pathlib import Path

#: A line longer than this is garbage (a view is a few KiB, a move a few words).
MAX_LINE = 64 * 1024


class Program:
    """One running command (``/bin/sh -c COMMAND``), its standard error appended to
    ``stderr`` (None: thrown away)."""

    def __init__(self, command: str, stderr: Path | None = None, cwd: str | None = None, pipes: bool = True):
        self.command = command
        err = stderr.open("ab") if stderr is not None else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                ["/bin/sh", "-c", command], stdin=subprocess.PIPE if pipes else subprocess.DEVNULL,
                stdout=subprocess.PIPE if pipes else subprocess.DEVNULL, stderr=err, cwd=cwd,
                start_new_session=True, close_fds=True)
        finally:
            if stderr is not None:
                err.close()  # type: ignore[union-attr]  # a file opened above
        self.buffer = bytearray()
        if pipes:
            assert self.proc.stdout is not None
            os.set_blocking(self.proc.stdout.fileno(), False)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def exit_status(self, seconds: float) -> int | None:
        """Its exit status, waiting up to ``seconds`` for it to end (None: still running)."""
        try:
            return self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    def send(self, line: str) -> bool:
        """Write one line; False when the program no longer reads."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def read_line(self, seconds: float) -> tuple[str | None, str | None]:
        """The next line within ``seconds``: (line, None), or (None, why): ``hang`` (no
        line in time), ``exit`` (the program ended or closed its output), ``garbage`` (a
        line too long, or not UTF-8)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + seconds
        while True:
            cut = self.buffer.find(b"\n")
            if cut >= 0:
                raw = bytes(self.buffer[:cut])
                del self.buffer[:cut + 1]
                try:
                    return raw.decode("utf-8").rstrip("\r"), None
                except UnicodeDecodeError:
                    return None, "garbage"
            if len(self.buffer) > MAX_LINE:
                return None, "garbage"
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "hang"
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return None, "exit"
            if not chunk:
                return None, "exit"
            self.buffer += chunk

    def kill(self) -> None:
        """Kill it and everything it started; reap it."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass

    def close(self, grace: float = 1.0) -> None:
        """End of its table: its input closed, a moment to leave by itself, then killed."""
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()
