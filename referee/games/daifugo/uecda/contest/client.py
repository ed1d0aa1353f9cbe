"""A contest protocol client for tests and benchmarks: it plays random plays of its own
choosing (singles, groups and, when leading, sequences of three that look strong enough,
sometimes a pass, and with
``--illegal P`` a deliberately illegal submission), knows nothing of the referee, and is
bounded in time. With ``--misbehave MODE`` it does one wrong thing at its ``--at``-th
turn, as the clients of the uecda-wire runs do: ``close`` (closes its connection),
``stall`` (stops answering), ``short`` (100 bytes), ``long`` (500 bytes), ``garbage``
(the value 7 in card cells), ``overflow`` (every card cell 1), ``echo`` (numbers in
[5][10] and [7][3]); or from the start ``badversion`` (protocol 12345) and ``silent``
(no profile: the server speaks 20060 to it, host byte order).

    python -m referee.games.daifugo.uecda.contest.client --port 42485 --name p0 --seed 1
"""

from __future__ import annotations

import argparse
import random
import socket
import struct
import sys
import time
from dataclasses import dataclass, field

ROWS, COLS = 8, 15
CELLS = ROWS * COLS
MODES = ("close", "stall", "short", "long", "garbage", "overflow", "echo", "badversion", "silent")


@dataclass
class Stats:
    games: int = 0
    turns: int = 0
    rejected: int = 0
    misbehaved: bool = False
    ended: str = ""
    numbers: list[int] = field(default_factory=list)


class Client:
    def __init__(self, host: str, port: int, name: str, seed: int, illegal: float = 0.0, misbehave: str = "",
                 at: int = 2, deadline: float = 600.0):
        self.host, self.port, self.name = host, port, name
        self.rng = random.Random(seed)
        self.illegal = illegal
        self.misbehave = misbehave
        self.at = at
        self.deadline = time.monotonic() + deadline
        self.order = ">" if misbehave != "silent" else "<"
        self.stats = Stats()
        self.sock: socket.socket | None = None
        self.my_turns = 0

    # --------------------------------------------------------------- wire

    def _recv(self, n: int) -> bytes:
        assert self.sock is not None
        got = bytearray()
        while len(got) < n:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the client's time is up")
            self.sock.settimeout(left)
            chunk = self.sock.recv(n - len(got))
            if not chunk:
                raise ConnectionError("the server closed the connection")
            got += chunk
        return bytes(got)

    def read_table(self) -> list[int]:
        return list(struct.unpack(f"{self.order}{CELLS}i", self._recv(4 * CELLS)))

    def read_int(self) -> int:
        return struct.unpack(f"{self.order}i", self._recv(4))[0]

    def send_table(self, cells: list[int]) -> None:
        assert self.sock is not None
        self.sock.sendall(struct.pack(f"{self.order}{CELLS}i", *cells))

    # --------------------------------------------------------------- play

    def run(self) -> Stats:
        try:
            self._run()
        except (ConnectionError, OSError, struct.error) as err:
            self.stats.ended = f"{type(err).__name__}: {err}"
        finally:
            if self.sock is not None:
                self.sock.close()
        return self.stats

    def _run(self) -> None:
        self.sock = socket.create_connection((self.host, self.port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.misbehave != "silent":
            profile = [0] * CELLS
            profile[0] = 12345 if self.misbehave == "badversion" else 20070
            for i, ch in enumerate(self.name.encode("latin-1")[:14]):
                profile[COLS + i] = ch
            self.send_table(profile)
            if self.misbehave == "badversion":
                self.stats.misbehaved = True
        self.stats.numbers.append(self.read_int())
        while True:
            table = self.read_table()  # a deal table
            self.stats.games += 1
            if table[5 * COLS] != 1:
                raise ConnectionError("not a deal table")
            count = table[5 * COLS + 1]
            if 0 < count < 100:
                self.send_table(self._lowest(table, count))
            if not self._game():
                self.stats.ended = "match over"
                return

    def _game(self) -> bool:
        stage = [0] * (5 * COLS)
        while True:
            turn = self.read_table()
            if turn[5 * COLS + 2] == 1:
                self.my_turns += 1
                self.stats.turns += 1
                if self.misbehave and not self.stats.misbehaved and self.my_turns >= self.at:
                    if self._misbehave(turn):
                        return False
                else:
                    self.send_table(self._choose(turn, stage))
                    if self.read_int() == 8:
                        self.stats.rejected += 1
            stage_table = self.read_table()
            stage = stage_table[:5 * COLS]
            end = self.read_int()
            if end == 1:
                return True
            if end != 0:
                return False

    def _misbehave(self, turn: list[int]) -> bool:
        """Do the wrong thing; True when the client stops here."""
        assert self.sock is not None
        self.stats.misbehaved = True
        mode = self.misbehave
        if mode == "close":
            self.sock.close()
            self.sock = None
            return True
        if mode == "stall":
            # Stop answering: read whatever comes until the server gives up on us.
            try:
                while self._recv(1):
                    pass
            except (ConnectionError, TimeoutError, OSError):
                pass
            return True
        cells = [0] * CELLS
        if mode == "short":
            self.sock.sendall(struct.pack(f"{self.order}25i", *cells[:25]))
            return False
        if mode == "long":
            self.sock.sendall(struct.pack(f"{self.order}{CELLS + 5}i", *(cells + [0] * 5)))
            return False
        if mode == "garbage":
            hand = [i for i in range(5 * COLS) if turn[i]]
            for i in hand[:3]:
                cells[i] = 7
        elif mode == "overflow":
            cells[:5 * COLS] = [1] * (5 * COLS)
        elif mode == "echo":
            cells[5 * COLS + 10] = 77
            cells[7 * COLS + 3] = 55
        self.send_table(cells)
        self.read_int()
        return False

    @staticmethod
    def _cards(table: list[int]) -> list[tuple[int, int]]:
        return [(i // COLS, i % COLS) for i in range(5 * COLS) if table[i]]

    def _lowest(self, table: list[int], count: int) -> list[int]:
        real = sorted((c, r) for r, c in self._cards(table) if r < 4)
        out = [0] * CELLS
        for c, r in real[:count]:
            out[r * COLS + c] = 1
        return out

    def _choose(self, turn: list[int], stage: list[int]) -> list[int]:
        out = [0] * CELLS
        cards = self._cards(turn)
        if self.illegal and self.rng.random() < self.illegal:
            # Something illegal: two cards of different ranks, or a card not held.
            if len(cards) >= 2 and self.rng.random() < 0.5:
                a, b = self.rng.sample(cards, 2)
                for r, c in (a, b):
                    out[r * COLS + c] = turn[r * COLS + c]
            else:
                held = {r * COLS + c for r, c in cards}
                free = [i for i in range(COLS + 1, 4 * COLS) if i % COLS not in (0, 14) and i not in held]
                out[self.rng.choice(free)] = 1
            return out
        if self.rng.random() < 0.15:
            return out  # a pass
        groups: dict[int, list[int]] = {}
        joker = None
        for r, c in cards:
            if r == 4:
                joker = r * COLS + c
            else:
                groups.setdefault(c, []).append(r)
        reverse = (turn[5 * COLS + 5] + turn[5 * COLS + 6]) % 2 == 1
        on_stage = [(i // COLS, i % COLS) for i in range(5 * COLS) if stage[i]]
        need = len(on_stage)
        top = max((c for _, c in on_stage), default=None)
        options: list[list[int]] = []
        for c, rows in groups.items():
            for size in range(1, len(rows) + 1):
                if need and size != need:
                    continue
                if top is not None and not (c < top if reverse else c > top):
                    continue
                options.append([r * COLS + c for r in rows[:size]])
        if not need:  # sequences of three, when leading
            for r in range(4):
                for c in range(1, 12):
                    if all(turn[r * COLS + c + k] == 1 for k in range(3)):
                        options.append([r * COLS + c + k for k in range(3)])
        if joker is not None and (not need or need == 1) and self.rng.random() < 0.3:
            options.append([-1])
        if not options:
            return out
        for i in self.rng.choice(options):
            if i == -1:
                out[0 * COLS + (13 if not reverse else 1)] = 2
            else:
                out[i] = 1
        return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=42485)
    parser.add_argument("--name", default="py")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--illegal", type=float, default=0.0, help="chance of an illegal submission per turn")
    parser.add_argument("--misbehave", choices=MODES, default="")
    parser.add_argument("--at", type=int, default=2, help="the turn (of its own) at which it misbehaves")
    parser.add_argument("--deadline", type=float, default=600.0, help="seconds before it gives up")
    args = parser.parse_args(argv)
    stats = Client(args.host, args.port, args.name, args.seed, args.illegal, args.misbehave, args.at,
                   args.deadline).run()
    print(f"{args.name}: {stats.games} games, {stats.turns} turns, {stats.rejected} rejected; {stats.ended}")
    return 0 if stats.ended == "match over" or stats.misbehaved else 1


if __name__ == "__main__":
    sys.exit(main())
