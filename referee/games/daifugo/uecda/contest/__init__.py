"""The UEC computer-Daihinmin contest protocol (20070, and the 20060 fallback): what
``pitboss serve --uecda PORT`` (the listener, ``referee.games.daifugo.uecda.server``)
needs to seat five of the contest's own clients at a table and play a match with them,
byte for byte as the contest's standard server does (tndhms 0.29's daihu.c).

- :func:`load` (``config``): a ``tndhms.cfg`` and the command line's options;
- :func:`seat`: a connection whose handshake is complete (its profile, or none within
  :data:`PROFILE_WAIT`) seated under its player number;
- :func:`new_table` (``table``): the match of five seats, its log and companion record;
  :func:`deals_from`: given deals its first games start from, read and judged;
- :func:`live_setup`, :func:`open_live`, :func:`report_of` (``live``): the table as a table
  of the HTTP service (its set-up, the service's copy that the table's steps feed, a
  misbehaviour report as the view shows it).
"""

from __future__ import annotations

import socket
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import decode_cards
from referee.notation.cards import CardError

from referee.games.daifugo.uecda.contest import protocol as P
from referee.games.daifugo.uecda.contest.config import ConfigError, ContestConfig, load
from referee.games.daifugo.uecda.contest.flow import Given
from referee.games.daifugo.uecda.contest.live import open as open_live
from referee.games.daifugo.uecda.contest.live import report_of
from referee.games.daifugo.uecda.contest.live import setup_of as live_setup
from referee.games.daifugo.uecda.contest.table import (
    ContestTable,
    Incident,
    Observer,
    Seat,
)

__all__ = ["ConfigError", "ContestConfig", "ContestTable", "Given", "Incident", "Observer", "Seat", "load", "seat",
           "new_table", "deals_from", "PLAYERS", "DEFAULT_PORT", "PROFILE_WAIT", "live_setup", "open_live", "report_of"]

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
              observer: Observer | None = None, deals: Sequence[Given] = ()) -> ContestTable:
    if port is not None:
        config = replace(config, port=port)
    return ContestTable(seats, config, seed, timeout, log_path, observer=observer, number=number, hostname=hostname,
                        deals=deals)


def deals_from(starts: Sequence[Mapping[str, object]], config: ContestConfig) -> tuple[Given, ...]:
    """Deals to start games from, as a live table's set-up gives them (``{"hands": [five
    hands by seat, as Hand tags write them]}``), read and judged as a contest deal: the
    contest's deck, the players dealt one card more side by side. ValueError says which
    deal is wrong and why."""
    rules = config.rules()
    out = []
    for number, start in enumerate(starts, start=1):
        given = start.get("hands")
        if not isinstance(given, list) or len(given) != PLAYERS or not all(isinstance(h, str) for h in given):
            raise ValueError(f"deal {number}: a contest deal is {PLAYERS} hands, one per seat")
        try:
            hands = tuple(decode_cards(h)[0] for h in given)
        except CardError as err:
            raise ValueError(f"deal {number}: {err}") from None
        found = df.check_deal(rules, hands)
        if found:
            raise ValueError(f"deal {number}: {found[0].message} [{found[0].rule}]")
        out.append(hands)
    return tuple(out)
