"""Where a command's output goes and what it says while it works: standard output or a file
written whole (never half), a FILE argument checked before work starts, and a progress
bar on a terminal."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from referee.engines.message import T

from .base import done, fail


@contextmanager
def writing(path: Path | str | None) -> Iterator[IO[str]]:
    """Standard output (no path, or ``-``), or a file written whole: into a temporary file
    beside it, renamed into place only when the command got that far (no half-written
    file is left, also when interrupted: Ctrl-C or SIGTERM)."""
    if path is None or str(path) == "-":
        try:
            yield sys.stdout
            sys.stdout.flush()
        except BrokenPipeError:  # the reader stopped reading (| head): stop quietly
            sys.stdout = open(os.devnull, "w")
            done(0)
        return
    import signal

    path = Path(path)
    # Ctrl-C or SIGTERM between making the temporary file and being ready to remove it
    # would leave it behind: they wait (blocked) until the cleanup below is in place.
    stopping = {signal.SIGINT, signal.SIGTERM}
    unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
    try:
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".part", delete=False)
    except OSError as err:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        fail(T("cannot write {path}: {why}", path=path, why=err.strerror or err))
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(handle.name, 0o666 & ~umask)  # as open() would have made it
        with handle:
            yield handle
        os.replace(handle.name, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(handle.name)
        raise


def write_file(path: Path | str, text: str) -> None:
    with writing(path) as out:
        out.write(text)


def need_file(path: str) -> None:
    """A FILE argument that names something readable (a file, a FIFO, /dev/stdin, a
    process substitution), or - ; else a clear error (exit 2)."""
    if path == "-":
        return
    target = Path(path)
    if target.is_dir():
        fail(T("{path} is a folder; this command takes one record file", path=path))
    if not target.exists():
        fail(T("no such file: {path}", path=path))


class Progress:
    """A progress bar on standard error, only when it is a terminal and the run is long
    (how far through the current file, by bytes read, and records so far)."""

    WIDTH = 24

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, file: str, fraction: float | None, games: int, plies: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < 0.5 or now - self.last < 0.1:
            return
        self.last = now
        rate = games / max(now - self.start, 1e-9)
        if fraction is None:
            bar = ""
        else:
            filled = int(self.WIDTH * min(fraction, 1.0))
            bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {100 * min(fraction, 1.0):3.0f}% "
        sys.stderr.write(f"\r{bar}{file}: {games} records, {plies} moves, {rate:,.0f} records/s\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False

