"""The UEC computer-Daihinmin contest protocol (20070, and the 20060 fallback): what
``pitboss serve --uecda PORT`` (the listener, ``referee.games.daifugo.uecda.server``)
needs to seat five of the contest's own clients at a table and play a match with them,
byte for byte as the contest's standard server does (tndhms 0.29's daihu.c).

- :func:`load` (``config``): a ``tndhms.cfg`` and the command line's options;
- :func:`handshake`: one connection's profile and player number;
- :func:`new_table` (``table``): the match of five seats, its log and companion record;
- :func:`live_setup`, :func:`open_live`, :func:`report_of` (``live``): the table as a table
  of the HTTP service (its set-up, the service's copy that the table's steps feed, a
  misbehaviour report as the view shows it).
"""

from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path

from referee.games.daifugo.uecda.contest import protocol as P
from referee.games.daifugo.uecda.contest.config import ConfigError, ContestConfig, load
from referee.games.daifugo.uecda.contest.live import open as open_live
from referee.games.daifugo.uecda.contest.live import report_of
from referee.games.daifugo.uecda.contest.live import setup_of as live_setup
from referee.games.daifugo.uecda.contest.table import (
    ContestTable,
    Incident,
    Observer,
    Seat,
    read_exact,
)

__all__ = ["ConfigError", "ContestConfig", "ContestTable", "Incident", "Observer", "Seat", "load", "handshake",
           "new_table", "PLAYERS", "DEFAULT_PORT", "PROFILE_WAIT", "live_setup", "open_live", "report_of"]

PLAYERS = 5
DEFAULT_PORT = 42485
#: How long the contest server waits for a profile before it speaks 20060 (daihu.c 595-597).
PROFILE_WAIT = 2.0005


def handshake(sock: socket.socket, player: int, config: ContestConfig, timeout: float, peer: str = "") -> Seat:
    """The profile within ``PROFILE_WAIT`` (none: the 2006 protocol and the default name),
    then the player number in the client's protocol. A client that closes first, sends part
    of a table or names an unknown protocol is a dropped seat, reported on it."""
    data, problem = read_exact(sock, P.TABLE_BYTES, PROFILE_WAIT)
    if problem == "stall":
        seat = Seat(player, sock, P.PROTOCOL_2006, config.default_names[player], peer)
    elif problem is not None:
        seat = Seat(player, sock, 0, config.default_names[player], peer)
        what = ("closed its connection before sending its profile" if problem == "disconnect"
                else f"sent {len(data)} bytes of its profile, not a whole 480-byte table")
        _drop(seat, "disconnect" if problem == "disconnect" else "short", what)
        return seat
    else:
        version, name = P.profile_of(P.decode_table(data))
        seat = Seat(player, sock, version, name, peer)
        if version not in (P.PROTOCOL_2007, P.PROTOCOL_2006):
            _drop(seat, "bad-version", f"names protocol {version}; this server speaks 20070 and 20060")
            return seat
    try:
        sock.settimeout(timeout)
        sock.sendall(P.encode_int(player, seat.protocol))
    except OSError as err:
        _drop(seat, "disconnect", f"the connection failed before its player number was sent ({err})")
    return seat


def _drop(seat: Seat, kind: str, message: str) -> None:
    seat.early.append(Incident(seat.player, seat.name, kind, message))
    seat.dropped = f"{kind}: {message}"
    seat.close()


def new_table(seats: list[Seat], config: ContestConfig, seed: int, timeout: float, log_path: Path | None,
              number: int = 1, hostname: str = "", port: int | None = None,
              observer: Observer | None = None) -> ContestTable:
    if port is not None:
        config = replace(config, port=port)
    return ContestTable(seats, config, seed, timeout, log_path, observer=observer, number=number, hostname=hostname)
