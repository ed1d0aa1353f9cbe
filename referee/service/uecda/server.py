"""``pitboss serve --uecda PORT``: the listener of the UEC contest protocol, a face of the
referee like the HTTP service. The game that speaks the protocol is found through the
registry (the game with a ``contest`` part); its part does the handshake and plays the
tables (uecda-protocol.md).

Connections are numbered in accept order, one handshake at a time; every five make a
table, which plays in its own thread while the next five gather. Each table writes the
contest's log and, beside it, a companion record of what went wrong (``<log>.json``).
The listener sets TCP_NODELAY on every connection and never waits on a client without a
deadline.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from referee.jobs import registry

DEFAULT_TIMEOUT = 10.0


def contest_game() -> Any:
    """The game that plays the contest protocol (the one with a ``contest`` part)."""
    for game in registry.games():
        if game.contest is not None:
            return game
    raise LookupError("no game here speaks the contest protocol")


def contest_part() -> ModuleType:
    """The ``contest`` part of the game that plays the contest protocol."""
    return contest_game().contest.get()


@dataclass
class Settings:
    #: The part's configuration (``contest_part().load(...)``); None: the shipped one.
    config: Any = None
    #: RANDOM_SEED of every table; None: a fresh random one per table (the contest server
    #: takes the clock's second, which anyone who saw the table start could guess, and
    #: with it every hand).
    seed: int | None = None
    #: Seconds a client may take to answer (and to take what it is sent).
    timeout: float = DEFAULT_TIMEOUT
    log_dir: Path = Path("logs")
    #: Stop accepting after this many tables (None: serve until stopped).
    max_tables: int | None = None
    part: ModuleType = field(default_factory=contest_part)

    def __post_init__(self) -> None:
        if self.config is None:
            self.config = self.part.load()


class ContestServer:
    """The listener and its tables. ``start()`` binds and returns the port; ``stop()``
    closes the listener and any connections still waiting for a table."""

    def __init__(self, host: str, port: int, settings: Settings,
                 observer: Callable[[Any], Any] | None = None):
        self.host, self.port = host, port
        self.settings = settings
        self.observer = observer
        self.tables: list[Any] = []
        self.threads: list[threading.Thread] = []
        self.waiting: list[Any] = []
        self._listener: socket.socket | None = None
        self._accepting: threading.Thread | None = None
        self._stopped = threading.Event()

    def start(self) -> int:
        listener = socket.socket(socket.AF_INET6 if ":" in self.host else socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(8)
        self._listener = listener
        self.port = listener.getsockname()[1]
        self._accepting = threading.Thread(target=self._accept_loop, name=f"contest-accept-{self.port}", daemon=True)
        self._accepting.start()
        return self.port

    def stop(self) -> None:
        self._stopped.set()
        if self._listener is not None:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._listener.close()
        if self._accepting is not None:
            self._accepting.join(timeout=5)
        for seat in self.waiting:
            seat.close()
        self.waiting = []

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the tables started so far (and, with ``max_tables``, for all of them);
        True if every one finished."""
        deadline = None if timeout is None else time.monotonic() + timeout

        def left() -> float | None:
            return None if deadline is None else max(0.0, deadline - time.monotonic())
        if self.settings.max_tables is not None and self._accepting is not None:
            self._accepting.join(left())
        for thread in list(self.threads):
            thread.join(left())
        return all(not t.is_alive() for t in self.threads)

    def _accept_loop(self) -> None:
        assert self._listener is not None
        part = self.settings.part
        while not self._stopped.is_set():
            try:
                sock, peer = self._listener.accept()
            except OSError:
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            seat = part.handshake(sock, len(self.waiting), self.settings.config, self.settings.timeout,
                                  f"{peer[0]}:{peer[1]}")
            self.waiting.append(seat)
            if len(self.waiting) == part.PLAYERS:
                self._start_table(self.waiting)
                self.waiting = []
                if self.settings.max_tables is not None and len(self.tables) >= self.settings.max_tables:
                    return

    def _start_table(self, seats: list[Any]) -> None:
        number = len(self.tables) + 1
        seed = self.settings.seed if self.settings.seed is not None else secrets.randbelow(2**31)
        stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
        log_path = self.settings.log_dir / f"{stamp}-table{number}.log"
        table = self.settings.part.new_table(seats, self.settings.config, seed, self.settings.timeout, log_path,
                                             number=number, hostname=socket.gethostname(), port=self.port)
        if self.observer is not None:
            table.observer = self.observer(table)
        self.tables.append(table)
        thread = threading.Thread(target=table.run, name=f"contest-table-{number}", daemon=True)
        self.threads.append(thread)
        thread.start()


def settings_from(options: dict[str, Any]) -> Settings:
    """The settings the command line's options name (``NAME_config``, ``NAME_games``, ...:
    the package's CLI_OPTIONS); ValueError says what is wrong."""
    from referee.service.uecda import NAME

    def given(key: str, default: Any = None) -> Any:
        value = options.get(f"{NAME}_{key}")
        return default if value is None else value
    part = contest_part()
    timeout = float(given("timeout", DEFAULT_TIMEOUT))
    if timeout <= 0:
        raise ValueError(f"--{NAME}-timeout takes a number of seconds above 0")
    config_file = given("config")
    config = part.load(Path(config_file) if config_file else None, options=given("options", ""),
                       games=given("games"), revision=given("revision"))
    return Settings(config, given("seed"), timeout, Path(given("logs", "logs")), given("tables"), part)


async def serve(hub: Any, host: str, port: int, settings: Settings | None = None,
                announce: Callable[[str], None] = print, **options: Any) -> None:
    """Run the listener beside the HTTP service until cancelled; ``options`` as the
    command line gives them (see ``settings_from``). With ``hub`` (the service's table
    hub) every table is a table of the service too (``hub.py``): listed, watched, its
    record the log, stored in the service's database."""
    from referee.service.uecda.hub import Bridge

    settings = settings or settings_from(options)
    bridge = None
    if hub is not None:
        bridge = Bridge(hub, contest_game().name, settings.part, asyncio.get_running_loop(), announce)
    server = ContestServer(host, port, settings, observer=bridge.feed if bridge is not None else None)
    bound = await asyncio.to_thread(server.start)
    announce(f"contest protocol: listening on {host}:{bound}")
    try:
        await asyncio.Event().wait()
    finally:
        await asyncio.to_thread(server.stop)
        if bridge is not None:
            await bridge.stop()


def _say(text: str) -> None:
    print(text, flush=True)


def run(host: str, port: int, settings: Settings, announce: Callable[[str], None] = _say) -> int:
    """Serve standalone until interrupted; 0 when stopped cleanly."""
    server = ContestServer(host, port, settings)
    bound = server.start()
    announce(f"contest protocol: listening on {host}:{bound}; logs in {settings.log_dir}/")
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: server._stopped.set())
    try:
        while not server._stopped.is_set():
            if settings.max_tables is not None and server.join(0.2) and len(server.tables) >= settings.max_tables:
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
