"""``pitboss serve --uecda PORT``: the listener of the UEC contest protocol
(:mod:`referee.games.daifugo.uecda.listener`). The contest's side of it (handshake,
tables, log) is :mod:`referee.games.daifugo.uecda.contest`.

Handshakes run side by side (:mod:`referee.games.daifugo.uecda.seating`), and a
connection is numbered when its handshake is complete; every five make a table, which
plays in its own thread while the next five gather. Each table writes the
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.games.daifugo.positions import read_starts
from referee.games.daifugo.uecda import contest
from referee.games.daifugo.uecda.hub import Bridge, Table
from referee.games.daifugo.uecda.listener import NAME
from referee.games.daifugo.uecda.seating import BACKLOG, Seating
from referee.jobs.listener import ListenerHost, OptionValue, Serve

DEFAULT_TIMEOUT = 10.0
#: The game whose tables the listener's are.
GAME = "daifugo"
#: Seats at one of its tables.
PLAYERS = contest.PLAYERS


@dataclass
class Settings:
    #: The contest's configuration (``contest.load(...)``; by default the shipped one).
    config: contest.ContestConfig = field(default_factory=contest.load)
    #: RANDOM_SEED of every table; None: a fresh random one per table (the contest server
    #: takes the clock's second, which anyone who saw the table start could guess, and
    #: with it every hand).
    seed: int | None = None
    #: Seconds a client may take to answer (and to take what it is sent).
    timeout: float = DEFAULT_TIMEOUT
    log_dir: Path = Path("logs")
    #: Stop accepting after this many tables (None: serve until stopped).
    max_tables: int | None = None
    #: Deals each table's first games start from, as a live table's set-up gives them
    #: (``{"hands": [by seat]}``; ``contest.deals_from``).
    starts: list[dict[str, Any]] = field(default_factory=list)


class ContestServer:
    """The listener and its tables. ``start()`` binds and returns the port; ``stop()``
    closes the listener and any connections still waiting for a table."""

    def __init__(self, host: str, port: int, settings: Settings,
                 observer: Callable[[Any], Any] | None = None):
        self.host, self.port = host, port
        self.settings = settings
        self.observer = observer
        self.tables: list[contest.ContestTable] = []
        self.threads: list[threading.Thread] = []
        self._listener: socket.socket | None = None
        self._seating: Seating | None = None
        self._accepting: threading.Thread | None = None
        self._stopped = threading.Event()
        self._deals: tuple[contest.Given, ...] = ()

    @property
    def waiting(self) -> list[contest.Seat]:
        """The connections seated for the next table, in player-number order."""
        if self._seating is None:
            return []
        waiting = dict(self._seating.waiting)
        return [waiting[n] for n in sorted(waiting)]

    def start(self) -> int:
        """Bind and listen; the port. ValueError when a given deal is no contest deal."""
        self._deals = contest.deals_from(self.settings.starts, self.settings.config)
        listener = socket.socket(socket.AF_INET6 if ":" in self.host else socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(BACKLOG)
        self._listener = listener
        self.port = listener.getsockname()[1]
        self._seating = Seating(listener, self.settings.config, self.settings.timeout, self._start_table)
        self._accepting = threading.Thread(target=self._seating.run, name=f"contest-accept-{self.port}", daemon=True)
        self._accepting.start()
        return self.port

    def stop(self) -> None:
        self._stopped.set()
        if self._seating is not None:
            self._seating.stop()
        if self._accepting is not None:
            self._accepting.join(timeout=5)
        if self._listener is not None:
            self._listener.close()
        for seat in self.waiting:
            seat.close()
        if self._seating is not None:
            self._seating.waiting = {}

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

    def _start_table(self, seats: list[contest.Seat]) -> bool:
        """A table for these five seats, played in its own thread; False once it is the
        last table wanted."""
        number = len(self.tables) + 1
        seed = self.settings.seed if self.settings.seed is not None else secrets.randbelow(2**31)
        stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
        log_path = self.settings.log_dir / f"{stamp}-table{number}.log"
        table = contest.new_table(seats, self.settings.config, seed, self.settings.timeout, log_path,
                                  number=number, hostname=socket.gethostname(), port=self.port, deals=self._deals)
        if self.observer is not None:
            table.observer = self.observer(table)
        self.tables.append(table)
        thread = threading.Thread(target=table.run, name=f"contest-table-{number}", daemon=True)
        self.threads.append(thread)
        thread.start()
        return self.settings.max_tables is None or len(self.tables) < self.settings.max_tables


def check_starts(settings: Settings) -> None:
    """ValueError when a deal the settings give is no contest deal (saying which, and why)."""
    contest.deals_from(settings.starts, settings.config)


def settings_from(options: Mapping[str, OptionValue]) -> Settings:
    """The settings the command line's options name (``uecda_config``, ``uecda_games``,
    ...: the listener's options, and ``uecda_tables``); ValueError says what is wrong."""

    def given(key: str) -> OptionValue:
        return options.get(f"{NAME}_{key}")

    def number(key: str) -> int | None:
        value = given(key)
        return None if value is None else int(value)

    def text(key: str, default: str) -> str:
        value = given(key)
        return default if value is None else str(value)

    timeout = float(text("timeout", str(DEFAULT_TIMEOUT)))
    if timeout <= 0:
        raise ValueError(f"--{NAME}-timeout takes a number of seconds above 0")
    config_file = text("config", "")
    revision = given("revision")
    config = contest.load(Path(config_file) if config_file else None, options=text("options", ""),
                          games=number("games"), revision=None if revision is None else str(revision))
    starts: list[dict[str, Any]] = []
    positions = text("positions", "")
    if positions:
        try:
            starts = list(read_starts(positions))
        except OSError as err:
            raise ValueError(f"--{NAME}-positions {positions}: {err.strerror or err}") from None
        if not starts:
            raise ValueError(f"--{NAME}-positions {positions}: no deal of five hands in it")
        try:
            check_starts(Settings(config, starts=starts))
        except ValueError as err:
            raise ValueError(f"--{NAME}-positions {positions}: {err}") from None
    return Settings(config, number("seed"), timeout, Path(text("logs", "logs")), number("tables"), starts)


async def serve(host: ListenerHost[Table] | None, address: str, port: int, *,
                announce: Callable[[str], None] = print, **options: OptionValue) -> None:
    """Run the listener until cancelled; ``options`` as the command line gives them (see
    ``settings_from``). With ``host`` (the service's tables) every table is a table of
    the service too (``hub.py``): listed, watched, its record the log, stored in the
    service's database."""
    settings = settings_from(options)
    bridge = None if host is None else Bridge(host, GAME, asyncio.get_running_loop(), announce)
    server = ContestServer(address, port, settings, observer=bridge.feed if bridge is not None else None)
    bound = await asyncio.to_thread(server.start)
    announce(f"contest protocol: listening on {address}:{bound}")
    try:
        await asyncio.Event().wait()
    finally:
        await asyncio.to_thread(server.stop)
        if bridge is not None:
            await bridge.stop()


if TYPE_CHECKING:
    _serve: Serve = serve  # the listener contract's shape, checked by mypy


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
