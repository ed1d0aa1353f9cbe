"""``pitboss serve --uecda PORT``: the contest protocol's listener (uecda-protocol.md
section 3). Connections are numbered in accept order, one handshake at a time: the client's
profile within 2 s 500 us (protocol 20070, or 20060 as it names; none: the 2006 protocol,
host byte order, and the default name ``Player <n>``), then its player number. Every five
connections make a table (``table.ContestTable``), which plays in its own thread while
the next five gather. Each table writes the contest's log and, beside it, a companion
record of what went wrong (``<log>.json``).

Servers listen where they are told (the command line keeps to loopback by default), set
TCP_NODELAY on every connection, and never spin or hang on a client: every read has a
deadline.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from referee.service.uecda import protocol as P
from referee.service.uecda.config import ContestConfig
from referee.service.uecda.table import ContestTable, Incident, Observer, Seat, read_exact

#: How long the contest server waits for a profile before it speaks 20060 (daihu.c 595-597).
PROFILE_WAIT = 2.0005
DEFAULT_TIMEOUT = 10.0


@dataclass
class Settings:
    config: ContestConfig = field(default_factory=ContestConfig)
    #: RANDOM_SEED of every table; None: the clock's second when the table starts, as the
    #: contest server takes it.
    seed: int | None = None
    #: Seconds a client may take to answer (and to read what it is sent).
    timeout: float = DEFAULT_TIMEOUT
    log_dir: Path = Path("logs")
    #: Stop accepting after this many tables (None: serve until stopped).
    max_tables: int | None = None


class ContestServer:
    """The listener and its tables. ``start()`` binds and returns the port; ``stop()``
    closes the listener and any connections still waiting for a table."""

    def __init__(self, host: str, port: int, settings: Settings,
                 observer: Callable[[ContestTable], Observer] | None = None):
        self.host, self.port = host, port
        self.settings = settings
        self.observer = observer
        self.tables: list[ContestTable] = []
        self.threads: list[threading.Thread] = []
        self.waiting: list[Seat] = []
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
        self._accepting = threading.Thread(target=self._accept_loop, name=f"uecda-accept-{self.port}", daemon=True)
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
        if self.settings.max_tables is not None and self._accepting is not None:
            self._accepting.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        for thread in list(self.threads):
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return all(not t.is_alive() for t in self.threads)

    # ------------------------------------------------------------- connections

    def _accept_loop(self) -> None:
        assert self._listener is not None
        while not self._stopped.is_set():
            try:
                sock, peer = self._listener.accept()
            except OSError:
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            seat = self._handshake(sock, len(self.waiting), f"{peer[0]}:{peer[1]}")
            self.waiting.append(seat)
            if len(self.waiting) == 5:
                self._start_table(self.waiting)
                self.waiting = []
                if self.settings.max_tables is not None and len(self.tables) >= self.settings.max_tables:
                    return

    def _handshake(self, sock: socket.socket, player: int, peer: str) -> Seat:
        config = self.settings.config
        data, problem = read_exact(sock, P.TABLE_BYTES, PROFILE_WAIT)
        if problem == "stall":  # no profile: the 2006 protocol, the default name
            seat = Seat(player, sock, P.PROTOCOL_2006, config.default_names[player], peer)
            self._number(seat)
            return seat
        if problem is not None:
            seat = Seat(player, sock, 0, config.default_names[player], peer)
            what = ("closed its connection before sending its profile" if problem == "disconnect"
                    else f"sent {len(data)} bytes of its profile, not a whole 480-byte table")
            self._lobby(seat, "disconnect" if problem == "disconnect" else "short", what)
            return seat
        version, name = P.profile_of(P.decode_table(data))
        seat = Seat(player, sock, version, name, peer)
        if version not in (P.PROTOCOL_2007, P.PROTOCOL_2006):
            self._lobby(seat, "bad-version", f"names protocol {version}; this server speaks 20070 and 20060")
            return seat
        self._number(seat)
        return seat

    def _number(self, seat: Seat) -> None:
        assert seat.sock is not None
        try:
            seat.sock.settimeout(self.settings.timeout)
            seat.sock.sendall(P.encode_int(seat.player, seat.protocol))
        except OSError as err:
            self._lobby(seat, "disconnect", f"the connection failed before its player number was sent ({err})")

    def _lobby(self, seat: Seat, kind: str, message: str) -> None:
        seat.early.append(Incident(seat.player, seat.name, kind, message))
        seat.dropped = f"{kind}: {message}"
        seat.close()

    def _start_table(self, seats: list[Seat]) -> None:
        number = len(self.tables) + 1
        seed = self.settings.seed if self.settings.seed is not None else int(time.time())
        config = replace(self.settings.config, port=self.port)
        stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
        log_path = self.settings.log_dir / f"{stamp}-table{number}.log"
        table = ContestTable(seats, config, seed, self.settings.timeout, log_path, number=number,
                             hostname=socket.gethostname())
        if self.observer is not None:
            table.observer = self.observer(table)
        self.tables.append(table)
        thread = threading.Thread(target=table.run, name=f"uecda-table-{number}", daemon=True)
        self.threads.append(thread)
        thread.start()
