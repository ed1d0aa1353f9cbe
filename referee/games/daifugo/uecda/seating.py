"""Seating at the contest port: every connection's handshake runs side by side with the
others in one thread (a selector), each with its own deadline, and a connection takes a
player number only once its handshake is complete: its whole profile sent, or nothing at
all within the protocol's wait (a 20060 client). A connection that closes or resets
before that, or sends part of a profile and stops, is closed and never seated; one that
goes while its table is still gathering gives its number back to the next. So idle
connections hold up nobody but themselves, and a flood of resets seats nobody.
"""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from referee.games.daifugo.uecda import contest
from referee.games.daifugo.uecda.contest import protocol as P

#: The listen backlog: connections the kernel queues while the listener is busy (it
#: asks for the most the system allows; the kernel caps it at net.core.somaxconn).
BACKLOG = socket.SOMAXCONN
#: Handshakes in progress at most; connections beyond wait in the backlog.
MAX_HANDSHAKES = 1024


@dataclass
class _Handshake:
    """A connection whose profile is still coming."""

    sock: socket.socket
    peer: str
    deadline: float
    got: bytearray = field(default_factory=bytearray)


class Seating:
    """Connections from ``listener`` seated five at a time. ``start_table(seats)`` takes
    each full table (seats in player-number order) and says whether to go on seating."""

    def __init__(self, listener: socket.socket, config: contest.ContestConfig, timeout: float,
                 start_table: Callable[[list[contest.Seat]], bool]):
        self.listener, self.config, self.timeout, self.start_table = listener, config, timeout, start_table
        listener.setblocking(False)
        #: Seated connections waiting for their table, by player number.
        self.waiting: dict[int, contest.Seat] = {}
        #: Handshakes in progress, in accept order (so their deadlines are in order too).
        self.handshakes: dict[socket.socket, _Handshake] = {}
        self.selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._stopping = False

    def stop(self) -> None:
        """Make :meth:`run` return (from any thread)."""
        self._stopping = True
        try:
            self._wake_w.send(b"\0")
        except OSError:
            pass

    def run(self) -> None:
        """Seat connections until stopped, or until ``start_table`` says no more; then
        close the handshakes still in progress (the seats still waiting stay ``waiting``)."""
        self.selector.register(self.listener, selectors.EVENT_READ)
        self.selector.register(self._wake_r, selectors.EVENT_READ)
        try:
            going = True
            while going and not self._stopping:
                for key, _ in self.selector.select(self._next_deadline()):
                    if key.fileobj is self.listener:
                        self._accept()
                    elif isinstance(key.data, _Handshake):
                        going = self._read(key.data) and going
                    elif isinstance(key.data, contest.Seat):
                        self._check(key.data)
                going = self._expire() and going
        finally:
            for handshake in list(self.handshakes.values()):
                self._forget(handshake)
            self.selector.close()
            self._wake_r.close()
            self._wake_w.close()

    def _next_deadline(self) -> float | None:
        first = next(iter(self.handshakes.values()), None)
        return None if first is None else max(0.0, first.deadline - time.monotonic())

    def _accept(self) -> None:
        while len(self.handshakes) < MAX_HANDSHAKES:
            try:
                sock, peer = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:  # reset while it was queued
                continue
            except OSError:  # out of descriptors: a pause, then the next try
                time.sleep(0.05)
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setblocking(False)
            handshake = _Handshake(sock, f"{peer[0]}:{peer[1]}", time.monotonic() + contest.PROFILE_WAIT)
            self.handshakes[sock] = handshake
            self.selector.register(sock, selectors.EVENT_READ, handshake)
        # full: the listener rests until a handshake ends
        self.selector.unregister(self.listener)

    def _forget(self, handshake: _Handshake, close: bool = True) -> None:
        del self.handshakes[handshake.sock]
        self.selector.unregister(handshake.sock)
        if close:
            handshake.sock.close()
        if len(self.handshakes) == MAX_HANDSHAKES - 1:
            self.selector.register(self.listener, selectors.EVENT_READ)

    def _read(self, handshake: _Handshake) -> bool:
        try:
            chunk = handshake.sock.recv(P.TABLE_BYTES - len(handshake.got))
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:  # reset
            chunk = b""
        if not chunk:  # gone before its handshake was complete
            self._forget(handshake)
            return True
        handshake.got += chunk
        if len(handshake.got) < P.TABLE_BYTES:
            return True
        return self._seat(handshake, bytes(handshake.got))

    def _expire(self) -> bool:
        """Handshakes past their deadline: silent all along, a 20060 client, seated; part
        of a profile and then nothing, closed."""
        now = time.monotonic()
        going = True
        while self.handshakes and going:
            handshake = next(iter(self.handshakes.values()))
            if handshake.deadline > now:
                break
            if handshake.got:
                self._forget(handshake)
            else:
                going = self._seat(handshake, None)
        return going

    def _seat(self, handshake: _Handshake, profile: bytes | None) -> bool:
        """The connection seated under the lowest number free at the gathering table;
        a full table started. False when no more tables are wanted."""
        self._forget(handshake, close=False)
        number = min(set(range(contest.PLAYERS)) - set(self.waiting))
        seat = contest.seat(handshake.sock, number, self.config, self.timeout, handshake.peer, profile)
        if seat is None:
            handshake.sock.close()
            return True
        self.waiting[number] = seat
        if seat.sock is not None:  # watched until its table starts, in case it goes
            self.selector.register(seat.sock, selectors.EVENT_READ, seat)
        if len(self.waiting) < contest.PLAYERS:
            return True
        seats = [self.waiting[n] for n in sorted(self.waiting)]
        self.waiting = {}
        for s in seats:
            if s.sock is not None and s.sock in self.selector.get_map():
                self.selector.unregister(s.sock)
        return self.start_table(seats)

    def _check(self, seat: contest.Seat) -> None:
        """A seated connection spoke or closed before its table started: closed, its
        number is free again; bytes sent early are left for the table to judge."""
        assert seat.sock is not None
        sock = seat.sock
        sock.settimeout(0)
        try:
            gone = sock.recv(1, socket.MSG_PEEK) == b""
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            gone = True
        finally:
            sock.settimeout(self.timeout)
        self.selector.unregister(sock)
        if gone:
            del self.waiting[seat.player]
            seat.close()
