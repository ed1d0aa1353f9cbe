"""The UEC computer-Daihinmin contest protocol (20070, and the 20060 fallback): what
``pitboss serve --uecda PORT`` (the listener, ``referee.games.daifugo.uecda.server``)
needs to seat five of the contest's own clients at a table and play a match with them,
byte for byte as the contest's standard server does (tndhms 0.29's daihu.c).

- :func:`load` (``config``): a ``tndhms.cfg`` and the command line's options;
- :func:`seat`: a connection whose handshake is complete (its profile, or none within
  :data:`PROFILE_WAIT`) seated under its player number;
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
)

__all__ = ["ConfigError", "ContestConfig", "ContestTable", "Incident", "Observer", "Seat", "load", "seat",
           "new_table", "PLAYERS", "DEFAULT_PORT", "PROFILE_WAIT", "live_setup", "open_live", "report_of"]

PLAYERS = 5
DEFAULT_PORT = 42485
#: How long the contest server waits for a profile before it speaks 20060 (daihu.c 595-597).
PROFILE_WAIT = 2.0005


def seat(sock: socket.socket, player: int, config: ContestConfig, timeout: float, peer: str,
         profile: bytes | None) -> Seat | None:
    """The connection seated as ``player`` once its handshake is complete: ``profile`` its
    whole profile (480 bytes), or None when it sent nothing within ``PROFILE_WAIT`` (the
    2006 protocol and the default name). Its player number is sent in its protocol. A
    profile naming an unknown protocol is a dropped seat, reported on it (the contest
    server seats it and never answers it). None: the number could not be sent (the
    connection is gone), nothing is seated."""
    if profile is None:
        seated = Seat(player, sock, P.PROTOCOL_2006, config.default_names[player], peer)
    else:
        version, name = P.profile_of(P.decode_table(profile))
        seated = Seat(player, sock, version, name, peer)
        if version not in (P.PROTOCOL_2007, P.PROTOCOL_2006):
            _drop(seated, "bad-version", f"names protocol {version}; this server speaks 20070 and 20060")
            return seated
    try:
        sock.settimeout(timeout)
        sock.sendall(P.encode_int(player, seated.protocol))
    except OSError:
        return None
    return seated


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
